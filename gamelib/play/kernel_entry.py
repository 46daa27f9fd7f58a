"""A tournament entry's Python file played in this process under a step budget: a class tournament
where no process can start (Python in a browser: Pyodide).

On the desktop every file entry plays in a child process of its own, with its move time enforced
from outside (:func:`gamelib.play.entries.start_entry`). A browser tab has no processes, so there
:func:`gamelib.play.tournament.run_tournament` plays a file entry here instead: its file is compiled
with the exercise checker's step counting (:func:`gamelib.play.box.stepped.instrumented`: a step at
every call and loop turn of the entry's own code, and for every item a comprehension takes) and run
against one :class:`~gamelib.play.box.stepped.StepBudget` a game. Each move may take
:data:`STEPS_PER_SECOND` steps for each second of its limit; a move that takes more loses the game by
``timeout``, and an endless loop in the file is stopped once the game's whole budget (its moves'
allowances and :data:`SETUP_STEPS`) is spent, losing the same way. A count of steps, not the clock,
judges the entry, so an entry that does not read the clock plays the same games on any machine, the
games the desktop's processes give it (``tests/test_kernel_entry.py`` plays one schedule both ways).

What is not counted, nor limited: the steps of what the entry calls (the game's rules, gamelib, a
helper module of its folder, which is loaded fresh for each game as in a process of its own, but not
instrumented) and the wall time. A loop in a helper module, or one long call into C code, is not
stopped (Kernel -> Restart ends it); an entry that watches the clock plays by the clock, and the
course's own bots play by it too, in a browser as on the desktop.

This is no boundary (see :mod:`gamelib.play.box.stepped`): the entry's code runs as the kernel does,
can read, change or end anything the kernel can, and from a browser's Python reach the page itself,
the network and the notebooks the browser keeps. It is used only there, in the student's own tab.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from gamelib.play.arena import MoveTimeout
from gamelib.play.bots.base import Decision
from gamelib.play.box.stepped import StepBudget, instrumented

if TYPE_CHECKING:
    from gamelib.play.entries import Entry

__all__ = ["SETUP_STEPS", "STEPS_PER_SECOND", "KernelEntryBot"]

STEPS_PER_SECOND = 100_000_000
"""A move's step allowance for each second of its time limit: 20 million steps at lesson 10's 0.2 s.
More than Python can take in a second: the tightest loop, ``while True: pass``, took 37.5 million
steps a second in CPython 3.11 and about 17 million in Pyodide 314 in Chromium, on the course's
two-core machine. So an entry that answers within its time keeps within its steps, however it spends
them; the price is that an endless loop runs until a game's budget is spent, two to five seconds at
0.2 s a move and 4 rounds. The course's entries take a few hundred steps a move (greedy.py: one for
each legal move it weighs)."""

SETUP_STEPS = 100_000
"""The steps an entry may take loading its file and building its bot, before its first move."""


class KernelEntryBot:
    """The bot of a file ``entry`` (:class:`gamelib.play.entries.Entry` with ``file`` and ``class_name``),
    loaded here with its steps counted, for a game of ``rounds`` moves a side at ``seconds`` a move;
    built with ``seed=seed`` if its class takes one. Raises what loading the file raises (a
    SyntaxError, the file's own errors, a MoveTimeout if loading spends :data:`SETUP_STEPS`), or
    ValueError if the file has no such class; :func:`gamelib.play.tournament.run_tournament` turns any
    of them into a loss at the entry's first move, as for an entry that cannot start."""

    budgeted = True
    """Judged by its step budget, not by the wall clock (:func:`gamelib.play.arena.play_game`)."""

    def __init__(self, entry: Entry, seed: int, rounds: int, seconds: float) -> None:
        self.name = entry.name
        self._budget = StepBudget(SETUP_STEPS + rounds * self.allowance(seconds))
        path = Path(entry.file)
        module = ModuleType("submission")
        module.__file__ = str(path)
        code = instrumented(path.read_text(encoding="utf-8"), self._budget)
        folder = str(path.resolve().parent)
        before = set(sys.modules)
        sys.path.insert(0, folder)  # its own helper modules, as in its process
        try:
            exec(code, module.__dict__)  # noqa: S102 - the entry's file, in the browser's own tab: see the module
            factory = getattr(module, entry.class_name, None)
            if not callable(factory):
                raise ValueError(f"{path} defines no class {entry.class_name}")
            try:
                self._bot: Any = factory(seed=seed)
            except TypeError:
                self._bot = factory()
        except self._budget.stopped:
            raise MoveTimeout(f"{self.name} took more than {SETUP_STEPS:,} steps to load") from None
        finally:
            sys.path.remove(folder)
            _forget_modules_in(folder, set(sys.modules) - before)
        if self._budget.used > SETUP_STEPS:
            raise MoveTimeout(f"{self.name} took more than {SETUP_STEPS:,} steps to load")

    @staticmethod
    def allowance(seconds: float) -> int:
        """The steps a move with a limit of ``seconds`` may take (at least 1)."""
        return max(1, round(STEPS_PER_SECOND * seconds))

    def choose(self, game: Any, state: Any, seconds: float) -> Decision:
        """The entry's decision for ``state``. Raises MoveTimeout if the move takes more than its
        :meth:`allowance` of steps (or the game's budget runs out during it), TypeError if the entry
        gives back no :class:`~gamelib.play.bots.base.Decision`, and whatever the entry raises."""
        allowance, before = self.allowance(seconds), self._budget.used
        try:
            decision = self._bot.choose(game, state, seconds)
        except self._budget.stopped:
            raise MoveTimeout(f"{self.name} ran past its step budget ({allowance:,} steps a move at "
                              f"{seconds:g} s; this tab has no processes to time it)") from None
        taken = self._budget.used - before
        if taken > allowance:
            raise MoveTimeout(f"{self.name} took {taken:,} steps, more than the {allowance:,} of a {seconds:g} s move")
        if not isinstance(decision, Decision):
            raise TypeError(f"{self.name} answered {type(decision).__name__}, not a Decision")
        return decision


def _forget_modules_in(folder: str, names: set[str]) -> None:
    """Take the modules of ``names`` loaded from ``folder`` out of ``sys.modules`` (the entry keeps its
    own references): the next game's entry, or another team's module of the same name, loads afresh."""
    for name in names:
        where = getattr(sys.modules.get(name), "__file__", None)
        if where and Path(where).resolve().is_relative_to(folder):
            del sys.modules[name]
