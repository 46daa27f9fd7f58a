"""A class tournament: every entry against the others, fault-tolerant, resumable, on a pool or a cluster.

:func:`run_tournament` plays the games of a schedule between :class:`~gamelib.play.entries.Entry`
contestants and returns a :class:`TournamentResult` (the records and the standings with ratings,
:mod:`gamelib.play.match_stats`). Schedules: :func:`round_robin` (each pairing plays ``games`` games,
colours alternating) or a Swiss system (:func:`swiss_round`, for large classes: in each round,
entries with equal scores meet, no pairing twice if it can be helped). Each game is a
:class:`TournamentGame`, played by :func:`play_tournament_game` in a worker: an entry's fault
(timeout, crash, memory, CPU time, illegal move, protocol error) loses that game, recorded with its reason,
and the tournament goes on. Every finished game is appended to ``games.jsonl`` in the output folder
the moment it ends, so a killed tournament loses at most the games in flight, and the same call
continues it.

>>> from gamelib.play.entries import course_entry
>>> tasks = round_robin([course_entry("random"), course_entry("hillclimb"), course_entry("genetic")], 2, 28, 8, 1.0, 0)
>>> [(task.x.name, task.o.name) for task in tasks]  # doctest: +NORMALIZE_WHITESPACE
[('random', 'hillclimb'), ('hillclimb', 'random'), ('random', 'genetic'), ('genetic', 'random'),
 ('hillclimb', 'genetic'), ('genetic', 'hillclimb')]
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any

from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import completed, game_seed, play_game, pool_executor, progress_bar
from gamelib.play.bots.base import Bot, Decision
from gamelib.play.box.guard import process_cap
from gamelib.play.box.stepped import in_browser
from gamelib.play.engine_protocol import EngineError
from gamelib.play.entries import Entry, EntryLimits, start_entry
from gamelib.play.kernel_entry import KernelEntryBot
from gamelib.play.match_stats import Standing, standings
from gamelib.play.records import SETTINGS, GameRecord, MatchFileError, append_record, check_settings, recover_records

__all__ = ["GAMES_FILE", "SCHEDULES", "TournamentGame", "TournamentResult", "play_tournament_game", "round_robin",
           "run_tournament", "swiss_round"]

GAMES_FILE = "games.jsonl"
"""The tournament's games in its output folder: one JSON line a finished game."""

SCHEDULES = ("round-robin", "swiss")


@dataclass(frozen=True)
class TournamentGame:
    """One game of a tournament, picklable, for a worker: its ``index`` in the tournament and
    ``seed``, the entries playing ``x`` and ``o``, the ``rule``, ``rounds``, ``time_limit``
    (seconds a move) and the entries' ``limits``."""

    index: int
    seed: int
    x: Entry
    o: Entry
    rule: int
    rounds: int
    time_limit: float
    limits: EntryLimits = field(default_factory=EntryLimits)

    def settings(self) -> dict[str, Any]:
        """The settings its record must have, the entries by name (:data:`gamelib.play.records.SETTINGS`)."""
        values = {name: getattr(self, name) for name in SETTINGS}
        return values | {"x": self.x.name, "o": self.o.name}


def _pair_games(first: int, a: Entry, b: Entry, games: int, rounds: int, rule: int, seconds: float, seed: int,
                limits: EntryLimits) -> list[TournamentGame]:
    """The ``games`` games of ``a`` against ``b``, numbered from ``first``; ``a`` is X in the even ones."""
    return [TournamentGame(index=first + g, seed=game_seed(seed, first + g), x=a if g % 2 == 0 else b,
                           o=b if g % 2 == 0 else a, rule=rule, rounds=rounds, time_limit=seconds, limits=limits)
            for g in range(games)]


def round_robin(entries: Sequence[Entry], games: int, rounds: int, rule: int, seconds: float, seed: int,
                limits: EntryLimits = EntryLimits()) -> list[TournamentGame]:
    """Every pairing of ``entries`` (in manifest order) playing ``games`` games, the first-named
    entry X in the even-numbered ones, game i seeded ``game_seed(seed, i)``."""
    tasks: list[TournamentGame] = []
    for a, b in combinations(entries, 2):
        tasks += _pair_games(len(tasks), a, b, games, rounds, rule, seconds, seed, limits)
    return tasks


def swiss_round(entries: Sequence[Entry], played: Sequence[GameRecord], number: int, games: int, rounds: int,
                rule: int, seconds: float, seed: int, limits: EntryLimits = EntryLimits()) -> list[TournamentGame]:
    """The games of Swiss round ``number`` (0, 1, ...) after the games ``played`` in earlier rounds:
    entries ranked by points (win 1, draw 1/2; ties in manifest order), and each, from the top, paired
    with the highest-ranked one left it has not met (or, if it has met them all, the highest left);
    with an odd number of entries the lowest-ranked one that has not yet had a bye sits out. Each
    pairing plays ``games`` games; round ``number`` holds indices ``number * S`` to ``number * S + S - 1``,
    S = (entries // 2) * games, in pairing order."""
    points = {entry.name: 0.0 for entry in entries}
    met: set[frozenset[str]] = set()
    for record in played:
        met.add(frozenset((record.x, record.o)))
        for side, name in (("X", record.x), ("O", record.o)):
            points[name] += 1.0 if record.result == side else 0.5 if record.result == "draw" else 0.0
    ranked = sorted(entries, key=lambda entry: -points[entry.name])  # stable: manifest order breaks ties
    if len(ranked) % 2:
        ranked.remove(_bye(ranked, number))
    tasks: list[TournamentGame] = []
    first = number * (len(entries) // 2) * games
    while ranked:
        a = ranked.pop(0)
        b = next((other for other in ranked if frozenset((a.name, other.name)) not in met), ranked[0])
        ranked.remove(b)
        tasks += _pair_games(first + len(tasks), a, b, games, rounds, rule, seconds, seed, limits)
    return tasks


def _bye(ranked: Sequence[Entry], number: int) -> Entry:
    """Who sits out round ``number``: counting up from the bottom, entries take the bye in turn."""
    return ranked[len(ranked) - 1 - number % len(ranked)]


class _Unstarted:
    """A stand-in for an entry that could not start: its first move raises the start's error, so
    the game is lost with that error's reason like any other fault."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name, self.error = name, error

    def choose(self, game: Any, state: Any, seconds: float) -> Decision:
        raise self.error


def play_tournament_game(task: TournamentGame) -> GameRecord:
    """Play one game of a tournament (in a worker): start both entries, each in a scratch folder
    of its own that is removed afterwards, play with the tournament's grace (a fault loses the
    game), and end both entries' processes. An entry that cannot start loses at its first move."""
    game = AdjacencyGame(rounds=task.rounds, rule=task.rule)
    with ExitStack() as stack:
        cpu = task.limits.cpu_budget(task.rounds, task.time_limit)
        x_bot, o_bot = (_started(stack, entry, seed, task, cpu) for entry, seed in ((task.x, task.seed),
                                                                                    (task.o, task.seed + 1)))
        record = play_game(game, x_bot, o_bot, task.time_limit, task.seed, index=task.index, grace=task.limits.grace)
    return replace(record, x=task.x.name, o=task.o.name)


def _started(stack: ExitStack, entry: Entry, seed: int, task: TournamentGame, cpu_seconds: int) -> Bot:
    """``entry`` started for ``task``'s game, with at most ``cpu_seconds`` of CPU time, in a scratch
    folder kept (and the entry closed) until ``stack`` closes; in a browser, where no process can
    start, a file entry plays in this process under a step budget (:mod:`gamelib.play.kernel_entry`)
    and a command entry loses at its first move."""
    limits = task.limits
    if in_browser() and entry.kind != "bot":
        try:
            if entry.kind == "command":
                raise EngineError(f"entry {entry.name}: a command entry needs a process of its own, and this "
                                  "browser tab can start none", "crash")
            return KernelEntryBot(entry, seed, task.rounds, task.time_limit)
        except Exception as error:  # noqa: BLE001 - any failure to load is the entry's fault
            return _Unstarted(entry.name, error)
    scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="gamelib-entry-", ignore_cleanup_errors=True))
    cap = stack.enter_context(process_cap(limits.processes)) if entry.kind != "bot" else []
    try:
        bot = start_entry(entry, seed, scratch, limits, cpu_seconds, cap)
    except Exception as error:  # noqa: BLE001 - any failure to start is the entry's fault
        return _Unstarted(entry.name, error)
    close = getattr(bot, "close", None)
    if callable(close):
        stack.callback(close, limits.grace)
    return bot


@dataclass(frozen=True)
class TournamentResult:
    """A finished (or resumed and finished) tournament: its ``entries``, its game ``records``
    by index, and the ``table`` of standings, best first (:func:`gamelib.play.match_stats.standings`)."""

    entries: tuple[Entry, ...]
    records: tuple[GameRecord, ...]
    table: tuple[Standing, ...]


def run_tournament(entries: Sequence[Entry], *, games: int = 2, rounds: int = 28, rule: int = 8,
                   seconds: float = 1.0, out: str | Path | None = None, schedule: str = "round-robin",
                   swiss_rounds: int | None = None, workers: int = 2, seed: int = 0,
                   executor: Executor | None = None, limits: EntryLimits = EntryLimits(),
                   progress: bool = True,
                   on_game: Callable[[Sequence[GameRecord]], None] | None = None) -> TournamentResult:
    """Play a tournament between ``entries`` and return its result, games already in ``out`` included.

    ``schedule`` is ``"round-robin"`` (:func:`round_robin`) or ``"swiss"`` (``swiss_rounds`` rounds of
    :func:`swiss_round`, default: enough for log2 of the entries, plus one). Each game runs as
    :func:`play_tournament_game` on ``executor`` (any concurrent.futures Executor, e.g. a dask
    ``Client.get_executor()``) or on a process pool of ``workers``. ``out`` is a folder (created if
    needed): each finished game is appended to its ``games.jsonl``; games already there are not
    played again. ``progress`` shows a tqdm bar with the time left. ``on_game`` is called with the records so
    far (those on file included) after each game ends, in this process: to rewrite the standings as the
    tournament goes, so that a run killed half-way leaves them current. Raises ValueError for bad
    settings, MatchFileError if ``out`` holds games of another tournament.
    """
    _check(entries, games, rounds, rule, seconds, schedule, swiss_rounds, workers)
    path = None if out is None else Path(out) / GAMES_FILE
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    on_file = {record.index: record for record in ([] if path is None else recover_records(path))}
    plan = _plan(entries, games, rounds, rule, seconds, seed, limits, schedule, swiss_rounds)
    records: dict[int, GameRecord] = {}
    with pool_executor(executor, workers) as pool, progress_bar(total=plan.total, disable=not progress, unit="game",
                                                       desc="tournament") as bar:
        for tasks in plan.rounds(records):
            pending = [task for task in tasks if not _known(path, task, on_file, records)]
            bar.update(len(tasks) - len(pending))
            for record in completed(pool, play_tournament_game, pending):
                if path is not None:
                    append_record(path, record)
                records[record.index] = record
                bar.update()
                if on_game is not None:
                    on_game(tuple(records[index] for index in sorted(records)))
    _check_leftovers(path, on_file, records)
    ordered = tuple(records[index] for index in sorted(records))
    return TournamentResult(tuple(entries), ordered, tuple(standings(entries, ordered)))


def _known(path: Path | None, task: TournamentGame, on_file: dict[int, GameRecord],
           records: dict[int, GameRecord]) -> bool:
    """Whether ``task`` was played already (its record, checked, moves to ``records``)."""
    record = on_file.pop(task.index, None)
    if record is None:
        return False
    check_settings(path or Path("."), record, task.settings())
    records[task.index] = record
    return True


def _check_leftovers(path: Path | None, on_file: dict[int, GameRecord], records: dict[int, GameRecord]) -> None:
    """Raise MatchFileError if the file held games this tournament does not have (or one twice)."""
    if on_file:
        index = min(on_file)
        twice = index in records
        raise MatchFileError(f"{path} holds game {index} " + ("twice" if twice else "which this tournament does not "
                             "have: give the settings it was played with, or another --out folder"))


@dataclass(frozen=True)
class _Plan:
    """The schedule: ``total`` games, and :meth:`rounds` yielding each round's games once the
    earlier rounds' records are in."""

    entries: tuple[Entry, ...]
    options: tuple[int, int, int, float, int, EntryLimits]  # games, rounds, rule, seconds, seed, limits
    swiss_rounds: int | None

    @property
    def total(self) -> int:
        games = self.options[0]
        n = len(self.entries)
        if self.swiss_rounds is None:
            return n * (n - 1) // 2 * games
        return self.swiss_rounds * (n // 2) * games

    def rounds(self, records: dict[int, GameRecord]) -> Iterator[list[TournamentGame]]:
        if self.swiss_rounds is None:
            yield round_robin(self.entries, *self.options)
            return
        for number in range(self.swiss_rounds):
            yield swiss_round(self.entries, list(records.values()), number, *self.options)


def _plan(entries: Sequence[Entry], games: int, rounds: int, rule: int, seconds: float, seed: int,
          limits: EntryLimits, schedule: str, swiss_rounds: int | None) -> _Plan:
    """The plan of a round robin, or of a Swiss system of ``swiss_rounds`` rounds (default
    ceil(log2 n) + 1)."""
    if schedule == "swiss" and swiss_rounds is None:
        swiss_rounds = (len(entries) - 1).bit_length() + 1
    return _Plan(tuple(entries), (games, rounds, rule, seconds, seed, limits),
                 swiss_rounds if schedule == "swiss" else None)


def _check(entries: Sequence[Entry], games: int, rounds: int, rule: int, seconds: float, schedule: str,
           swiss_rounds: int | None, workers: int) -> None:
    """Raise ValueError, saying which, for a setting out of range."""
    AdjacencyGame(rounds=rounds, rule=rule)  # checks rounds and rule
    names = [entry.name for entry in entries]
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(f"a tournament needs at least two entries with different names, not {names}")
    if games < 1 or workers < 1 or (swiss_rounds is not None and swiss_rounds < 1):
        raise ValueError(f"games is {games}, workers {workers}, swiss rounds {swiss_rounds}: give at least 1 of each")
    if not seconds > 0:
        raise ValueError(f"the time limit is {seconds} seconds: give a positive number")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule {schedule!r} is unknown: give {' or '.join(SCHEDULES)}")
