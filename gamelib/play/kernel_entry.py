"""A tournament entry's Python file played in this process under a step budget: a class tournament
where no process can start (Python in a browser: Pyodide).

On the desktop every file entry plays in a child process of its own, with its move time enforced
from outside (:func:`gamelib.play.entries.start_entry`). A browser tab has no processes, so there
:func:`gamelib.play.tournament.run_tournament` plays a file entry here instead (a command entry loses
at its first move): its file is compiled with the exercise checker's step counting
(:func:`gamelib.play.box.stepped.instrumented`: a step at every call, loop turn and lambda of the
entry's own code, and for every item a comprehension takes) and run against one
:class:`~gamelib.play.box.stepped.StepBudget` a game. Each move may take :data:`STEPS_PER_SECOND`
steps for each second of its limit; a move that takes more loses the game by ``timeout``, and an
endless loop in the file is stopped once the game's whole budget (its moves' allowances and
:data:`SETUP_STEPS`) is spent, losing the same way. Its answer is judged as its process's answer is:
a move that is not a square, or a ValueError of its own, is a ``protocol`` fault, ``sys.exit`` a
``crash``. A count of steps, not the clock, judges the entry, so two entries whose moves depend only
on the position and their seeds play the same game on any machine, the game their processes play
while each keeps inside its time there (``tests/test_kernel_entry.py`` plays one schedule both ways).

What is neither counted nor limited here: the work of what the entry calls (the game's rules,
gamelib, a helper module of its folder, which is its own, loaded afresh for each game) and of code it
builds as it runs (``exec``, ``compile``), so a loop that calls the rules each turn spends its game's
steps only after minutes, and one long call is not stopped (Kernel -> Restart ends it); the wall time;
memory; its output, which goes to the notebook. Every entry shares the kernel's interpreter: its
``random`` module (an entry that seeds it, rather than a ``random.Random`` of its own, may draw other
numbers than in a process), its modules (a helper named as a module the kernel holds gets the
kernel's), its settings. An entry that watches the clock, and the course's own bots, play by the
clock.

This is no boundary (see :mod:`gamelib.play.box.stepped`): the entry's code runs as the kernel does,
can read, change or end anything the kernel can, and from a browser's Python use the network, read
and change what this site keeps in the browser (its notebooks, which the student will run again) and
what other sites of the same host keep there, and run script in the page through what it displays.
It is used only there, in the student's own tab.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from gamelib.games.user_text import shown
from gamelib.play.arena import MoveTimeout
from gamelib.play.bots.base import Decision
from gamelib.play.box.stepped import StepBudget, instrumented
from gamelib.play.engine_protocol import EngineError

if TYPE_CHECKING:
    from gamelib.play.entries import Entry

__all__ = ["SETUP_STEPS", "STEPS_PER_SECOND", "KernelEntryBot"]

STEPS_PER_SECOND = 100_000_000
"""A move's step allowance for each second of its time limit: 20 million steps at lesson 10's 0.2 s.
More than Pyodide, where it is used, takes in a second: ``while True: pass`` took about 17 million
steps a second in Pyodide 314 in Chromium, on the course's two-core machine, and a comprehension's
items, the cheapest steps, 16 to 24 million under Node.js (CPython 3.11, where this never runs, takes
those at 84 to 96 million; it runs this only in the tests). So an entry that answers within its time keeps within its steps; the
price is that an empty endless loop runs until its game's budget is spent, about five seconds at
0.2 s a move and 4 rounds in Chromium. The course's entries take few: greedy.py one step and one for
each legal move it weighs (at most 56), crashy.py one."""

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
        except SystemExit as exit:
            raise EngineError(f"{self.name} called sys.exit({exit.code!r}) while loading", "crash") from None
        if self._budget.used > SETUP_STEPS:
            raise MoveTimeout(f"{self.name} took more than {SETUP_STEPS:,} steps to load")

    @contextmanager
    def _its_modules(self) -> Iterator[None]:
        """While the entry's code runs: its folder first on ``sys.path``, and in ``sys.modules`` the
        modules it loaded from there (no other entry's helper of the same name; a name the kernel
        already holds is the kernel's module); after, those it loaded now are kept as its own and taken
        out again, and what was there is put back."""
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
        """The entry's decision for ``state``, judged as its process's answer is judged: its ``move``
        must be a square (an int, 0 to 63; an answer that is no Decision is read for its ``move``).
        Its folder is on ``sys.path`` during the move, for a helper module it imports then. Raises
        MoveTimeout if the move takes more than its :meth:`allowance` of steps (or the game's budget
        runs out during it); EngineError with reason ``protocol`` for an answer that is not a square or
        a ValueError of the entry's (as its process answers ``error``), ``crash`` for ``sys.exit``;
        and whatever else the entry raises (a crash)."""
        allowance, before = self.allowance(seconds), self._budget.used
        try:
            with self._its_modules():
                decision = self._bot.choose(game, state, seconds)
                move = getattr(decision, "move", None)  # the entry's code, if it is a property: within its steps
        except self._budget.stopped:
            raise MoveTimeout(f"{self.name} ran past its step budget ({allowance:,} steps a move at "
                              f"{seconds:g} s; this tab has no processes to time it)") from None
        except ValueError as error:  # as its process answers ``error`` to a ValueError: a protocol fault
            raise EngineError(f"{self.name}: {' '.join(str(error).split())}", "protocol") from None
        except SystemExit as exit:  # its process would have ended: a crash, not the end of the tournament
            raise EngineError(f"{self.name} called sys.exit({exit.code!r})", "crash") from None
        taken = self._budget.used - before
        if taken > allowance:
            raise MoveTimeout(f"{self.name} took {taken:,} steps, more than the {allowance:,} of a {seconds:g} s move")
        if type(move) is not int or not 0 <= move < 64:
            raise EngineError(f"not a square: {self.name} chose {shown(move)} (a Decision's move is a square number, "
                              "0 to 63)", "protocol")
        return decision if isinstance(decision, Decision) else Decision(move=move)
