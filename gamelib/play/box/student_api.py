"""The names of gamelib a student's code may import in the sandbox's box: ``from gamelib import Player``.

Inside the box (:mod:`gamelib.play.box.sandbox`) this file is gamelib's ``__init__``: the box holds the
game-tree API a student's search uses (:class:`~gamelib.games.game.Player`, ``Value``, ``INF``,
:func:`~gamelib.games.game.format_value`) and none of the course's searches, checkers, exercises or
solutions. Outside the box the same names come from gamelib itself.
"""

from gamelib.games.game import INF, Player, Value, format_value

__all__ = ["INF", "Player", "Value", "format_value"]
