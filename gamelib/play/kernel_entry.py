"""A tournament entry's Python file played in this process under a step budget: a class tournament
where no process can start (Python in a browser: Pyodide).

On the desktop every file entry plays in a child process of its own, boxed, with its move time
enforced from outside (:func:`gamelib.play.entries.start_entry`). A browser tab has no processes,
so there :func:`gamelib.play.tournament.run_tournament` plays a file entry here instead: its file is
compiled with the exercise checker's step counting (:func:`gamelib.play.box.stepped.instrumented`:
a step at every call and loop turn of the entry's own code, and for every item a comprehension
takes) and run against one :class:`~gamelib.play.box.stepped.StepBudget` a game. Each move may take
:data:`STEPS_PER_SECOND` steps for each second of its limit; a move that takes more loses the game
by ``timeout``, and an endless loop is stopped once the game's whole budget (its moves' allowances
and :data:`SETUP_STEPS`) is spent, losing the same way. The verdict is a count of steps, not a
clock, so the same entries and seeds give the same games on any machine, and the same games as the
desktop's processes give wherever an entry keeps well inside both its time and its steps
(``tests/test_kernel_entry.py`` plays one schedule both ways). Steps are counted in the entry's own
file only: what it calls (the game's rules, gamelib, a helper module of its folder) takes none.

This is no boundary (see :mod:`gamelib.play.box.stepped`): the entry's code runs as the kernel does
and can read, change or end anything the kernel can. In a browser that is the student's own tab,
playing entries the student chose to load, which is why it is used there and only there.
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

STEPS_PER_SECOND = 10_000_000
"""A move's step allowance for each second of its time limit: 2,000,000 steps at lesson 10's 0.2 s.
More than Python takes in a second, in a browser or on the desktop (a loop that watches the clock and
does nothing else takes 1.9 million steps a second in Pyodide 314 in Chromium, 7.6 million in CPython
3.11, on the course's two-core machine), so an entry that answers within its time keeps within its
steps too; an endless loop spent a game's budget at 0.2 s a move, 4 rounds, in 0.5 s in that browser.
The course's entries take a few hundred steps a move (greedy.py: one for each legal move it weighs)."""

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
        sys.path.insert(0, str(path.resolve().parent))  # its own helper modules, as in its process
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
            sys.path.remove(str(path.resolve().parent))

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

