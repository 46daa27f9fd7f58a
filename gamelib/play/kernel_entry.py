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
judges the entry, so the same entries and seeds play the same games on any machine where each
entry's moves depend only on the position and its own seed, and the games the desktop's processes
give them (``tests/test_kernel_entry.py`` plays one schedule both ways).

What differs from a process of its own: the game's rules, gamelib and the entry's helper modules
take no steps (a helper of its folder is loaded afresh for each game, when the file loads or during
a move), so work done there is neither counted nor limited: a loop that calls the rules each turn
spends its game's steps only after minutes, and one long call into C code is not stopped (Kernel ->
Restart ends it); the wall time is not judged; every entry shares the kernel's ``random`` module, so
an entry that seeds it (rather than a ``random.Random`` of its own) may draw other numbers than in a
process; an entry that watches the clock, and the course's own bots, play by the clock. An entry's
answer needs a square as its ``move``, as through the engine protocol.

This is no boundary (see :mod:`gamelib.play.box.stepped`): the entry's code runs as the kernel does,
can read, change or end anything the kernel can, and from a browser's Python reach the network and
this site's files kept in the browser (the kernel's ``/drive``). It is used only there, in the
student's own tab.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
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
More than Pyodide, where it is used, takes in a second: ``while True: pass`` took about 17 million
steps a second in Pyodide 314 in Chromium, on the course's two-core machine, and a comprehension's
items, the cheapest steps, 16 to 24 million under Node.js (CPython 3.11, where this never runs, takes
those at 84 to 96 million). So an entry that answers within its time keeps within its steps; the
price is that an empty endless loop runs until its game's budget is spent, about five seconds at
0.2 s a move and 4 rounds in Chromium. The course's entries take few: greedy.py one step and one for
each legal move it weighs (at most 57), crashy.py one."""

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
        self._folder, self._modules = str(path.resolve().parent), dict[str, ModuleType]()
        try:
            with self._its_modules():
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
        if self._budget.used > SETUP_STEPS:
            raise MoveTimeout(f"{self.name} took more than {SETUP_STEPS:,} steps to load")

    @contextmanager
    def _its_modules(self) -> Iterator[None]:
        """While the entry's code runs: its folder first on ``sys.path``, and in ``sys.modules`` the
        modules it loaded from there (and nobody else's of the same names); after, those it loaded
        now are kept as its own and taken out again, and what was there is put back."""
        saved = {name: sys.modules.get(name) for name in self._modules}
        sys.modules.update(self._modules)
        before = set(sys.modules)
        sys.path.insert(0, self._folder)
        try:
            yield
        finally:
            sys.path.remove(self._folder)
            for name in set(sys.modules) - before:
                where = getattr(sys.modules[name], "__file__", None)
                if where and Path(where).resolve().is_relative_to(self._folder):
                    self._modules[name] = sys.modules.pop(name)
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module

    @staticmethod
    def allowance(seconds: float) -> int:
        """The steps a move with a limit of ``seconds`` may take (at least 1)."""
        return max(1, round(STEPS_PER_SECOND * seconds))

    def choose(self, game: Any, state: Any, seconds: float) -> Decision:
        """The entry's decision for ``state``, as a :class:`~gamelib.play.bots.base.Decision` (an answer
        of another kind is read for its ``move``, as the engine protocol reads it). Its folder is on
        ``sys.path`` during the move, for a helper module it imports then. Raises MoveTimeout if the
        move takes more than its :meth:`allowance` of steps (or the game's budget runs out during it),
        TypeError if the answer has no ``move``, and whatever the entry raises."""
        allowance, before = self.allowance(seconds), self._budget.used
        try:
            with self._its_modules():
                decision = self._bot.choose(game, state, seconds)
        except self._budget.stopped:
            raise MoveTimeout(f"{self.name} ran past its step budget ({allowance:,} steps a move at "
                              f"{seconds:g} s; this tab has no processes to time it)") from None
        taken = self._budget.used - before
        if taken > allowance:
            raise MoveTimeout(f"{self.name} took {taken:,} steps, more than the {allowance:,} of a {seconds:g} s move")
        if isinstance(decision, Decision):
            return decision
        if not hasattr(decision, "move"):
            raise TypeError(f"{self.name} answered {type(decision).__name__}, with no move")
        return Decision(move=decision.move)
