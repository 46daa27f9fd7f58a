"""The names of gamelib a student's code may import in the sandbox's box: ``from gamelib import Player``.

Inside the box (:mod:`gamelib.play.box.sandbox`) this file is gamelib's ``__init__``: the box holds the
game-tree API a student's search uses (:class:`~gamelib.games.game.Player`, ``Value``, ``INF``,
:func:`~gamelib.games.game.format_value`) and none of the course's searches, checkers, exercises or
solutions. Outside the box the same names come from gamelib itself.

Any other name imported from gamelib in the box (``from gamelib import Bound``, as a lesson's setup does) is an
:class:`Unavailable`: the import succeeds, and any use of the name raises NameError saying the box does not hold
it. So an answer cell that keeps a lesson's ``from gamelib import ...`` line is judged on what its function does:
right if the function does not use such a name, an error saying so if it does. A module of gamelib the box does
not hold (``import gamelib.teach``) is not found.
"""

from typing import Any, NoReturn

from gamelib.games.game import INF, Player, Value, format_value

__all__ = ["INF", "Player", "Value", "format_value"]


class Unavailable:
    """A name of gamelib that the box does not hold: any use of it raises NameError."""

    __slots__ = ("_name",)
    UNAVAILABLE = True  # read on the type (``getattr(type(value), "UNAVAILABLE", False)``): no instance use raises

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise NameError(f"{object.__getattribute__(self, '_name')} is not available to an answer: of gamelib, the "
                        f"checker gives only {', '.join(__all__)}")

    def __getattr__(self, name: str) -> NoReturn:
        self._refuse()

    __call__ = __getitem__ = __iter__ = __bool__ = __len__ = __int__ = __float__ = __index__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __add__ = __sub__ = __mul__ = __neg__ = _refuse
    __hash__ = _refuse

    def __repr__(self) -> str:
        return f"<{object.__getattribute__(self, '_name')}: not available in the checker's box>"


def unavailable_name(name: str) -> Unavailable:
    """``from gamelib import NAME`` for a name the box does not hold (dunder names stay missing): the box's
    ``gamelib`` module's ``__getattr__``."""
    if name.startswith("__"):
        raise AttributeError(name)
    return Unavailable(name)


if __name__ == "gamelib":  # this file as the box's gamelib/__init__.py (outside the box it is no package's)
    __getattr__ = unavailable_name
