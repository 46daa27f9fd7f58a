"""Game records: one finished Adjacency game as a line of JSON, and the match files made of them.

A match file holds one :class:`GameRecord` per line, appended the moment its game ends
(:func:`append_record`); :func:`read_records` reads one back, leaving out a last line cut short by a
kill, and :func:`resume_records` checks a file against the games a match asks for before the match
goes on. Both the arena (:mod:`gamelib.play.arena`), which writes the files, and the match
statistics (:mod:`gamelib.play.match_stats`), which read them, import this module. Records name
bots by their specs (``"alphabeta"``, ``"cmd:..."``), never by module paths, so files outlive a
change of layout.

>>> line = GameRecord(0, 1, "random", "alphabeta", 8, 4, 1.0, ("a1",), (1, 0), "X", (0.1,), (None,),
...                   (None,), (0,)).to_json()
>>> GameRecord.from_json(line).moves
('a1',)
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gamelib.games.adjacency import AdjacencyState, Mark
from gamelib.games.game import Value
from gamelib.play.bots.base import Decision
from gamelib.search.tracing import to_jsonable

__all__ = ["REASONS", "SETTINGS", "START_SETTINGS", "GameRecord", "MatchFileError", "Turn", "append_record", "check_settings",
           "write_atomically",
           "read_records", "recover_records", "resume_records"]

SETTINGS = ("index", "seed", "x", "o", "rule", "rounds", "time_limit")
"""The fields a game is asked to be played with, shared by GameTask and GameRecord: a resumed
match file must hold records with the same settings as the match's tasks."""

START_SETTINGS = ("opening", "game_time")
"""Settings of the arena's games beyond :data:`SETTINGS`: the opening moves a game starts from and
the whole-game clock (seconds a side, None for a limit a move). Old files and tournaments leave
them at their defaults."""


REASONS = ("played", "timeout", "crash", "memory", "cpu", "illegal", "protocol")
"""How a game ends: played to its end, or lost by a bot that did not answer within the time limit
(plus the grace), crashed (its process exited or raised), ran out of memory, used up its process's CPU
time (a tournament entry), played an illegal move,
or broke the engine protocol (an ``error`` answer, or garbage instead of ``move SQUARE``)."""

_OPTIONAL = ("reason", "forfeit", "detail", "opening", "game_time", "limits")
"""Fields added after match files were first written: absent in old files."""


class MatchFileError(ValueError):
    """A match file that cannot be read, or whose games were played with other settings."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as a line of a match file.

    ``index`` is the game's number in its match (0, 1, ...), ``seed`` the seed its bots were built
    with, ``x`` and ``o`` the bot specs that played X and O, ``rule`` (8 or 4), ``rounds`` and
    ``time_limit`` (seconds a move) the settings. ``moves`` are square names in the order played
    (X first); ``counts`` is (X marks, O marks) at the end; ``result`` "X", "O" or "draw".
    ``seconds[i]`` is move i's wall time measured by the arena; ``depths[i]``, ``values[i]`` (from
    X's point of view) and ``nodes[i]`` are what the bot reported (None or 0 if nothing).

    ``reason`` says how the game ended (:data:`REASONS`): ``"played"`` to its end, or lost by the
    side ``forfeit`` ("X" or "O") through a fault of its bot, ``detail`` saying what it was (the
    error's message). Files written before these fields existed read as games played to the end.

    ``opening`` are the square names of the moves played from the start before the bots took over
    (``moves`` follow them; :func:`gamelib.play.arena.balanced_openings`); ``game_time`` is each
    side's whole-game clock in seconds (None: ``time_limit`` a move) and then ``limits[i]`` is the
    limit move i was given from its side's clock (:mod:`gamelib.search.time_rules`).
    """

    index: int
    seed: int
    x: str
    o: str
    rule: int
    rounds: int
    time_limit: float
    moves: tuple[str, ...]
    counts: tuple[int, int]
    result: str
    seconds: tuple[float, ...]
    depths: tuple[int | None, ...]
    values: tuple[Value | None, ...]
    nodes: tuple[int, ...]
    reason: str = "played"
    forfeit: str | None = None
    detail: str = ""
    opening: tuple[str, ...] = ()
    game_time: float | None = None
    limits: tuple[float, ...] = ()

    def to_json(self) -> str:
        """The record as one line of JSON (no newline); infinite values as "inf"/"-inf"."""
        data = asdict(self)
        data["values"] = [to_jsonable(value) for value in self.values]
        return json.dumps(data)

    @classmethod
    def from_json(cls, line: str) -> GameRecord:
        """The record written by :meth:`to_json`. Raises ValueError (or KeyError, TypeError) if the
        line is not one."""
        data = json.loads(line)
        fields = {name: data[name] for name in cls.__dataclass_fields__ if name not in _OPTIONAL}
        fields.update({name: data[name] for name in _OPTIONAL if name in data})
        for name in ("moves", "counts", "seconds", "depths", "values", "nodes", "opening", "limits"):
            if name in fields:
                fields[name] = tuple(fields[name])
        fields["values"] = tuple(float(v) if v in ("inf", "-inf") else v for v in fields["values"])
        return cls(**fields)

    def settings(self) -> dict[str, Any]:
        """What the game was asked to be: index, seed, bots, rule, rounds, time limit, opening and
        game clock (:data:`SETTINGS` and :data:`START_SETTINGS`)."""
        return {name: getattr(self, name) for name in SETTINGS + START_SETTINGS}


@dataclass(frozen=True)
class Turn:
    """One move as :func:`play_game` reports it to ``on_move``: the ``ply`` (0 for X's first),
    the ``side`` that moved, its ``decision``, the ``seconds`` of wall time measured around
    ``choose``, and the state ``after`` the move."""

    ply: int
    side: Mark
    decision: Decision
    seconds: float
    after: AdjacencyState


def read_records(path: str | Path) -> list[GameRecord]:
    """The games of a match file, in file order. A last line cut short (the match was killed while
    writing it) is left out. Raises MatchFileError naming the line of any other bad line, and
    OSError if the file cannot be read.
    """
    return [record for _, record in _read_lines(Path(path))]


def _read_lines(path: Path) -> Iterator[tuple[int, GameRecord]]:
    """(byte offset after the line, record) for each complete line of the match file ``path``."""
    offset = 0
    with path.open("rb") as file:
        for number, raw in enumerate(file, start=1):
            if not raw.endswith(b"\n"):
                return  # a line cut short by a kill: the game is played again
            offset += len(raw)
            try:
                yield offset, GameRecord.from_json(raw.decode())
            except (ValueError, KeyError, TypeError) as error:
                raise MatchFileError(f"{path} line {number} is not a game record: {error}") from None


def resume_records(path: Path, wanted: Sequence[Mapping[str, Any]]) -> list[GameRecord]:
    """The games already in ``path``, after cutting off an unfinished last line; ``wanted[i]`` is
    the settings game i of the match must have (:data:`SETTINGS`). An absent file holds no games.
    Raises MatchFileError if a game was played with other settings or twice."""
    return recover_records(path, lambda records: _check_records(path, records, wanted))


def recover_records(path: Path, check: Callable[[list[GameRecord]], None] = lambda records: None) -> list[GameRecord]:
    """The games in ``path`` (none if it is absent), after ``check`` has seen them (it raises to
    refuse the file, which is then left as it is) and an unfinished last line, cut short by a kill,
    has been cut off so that new games can be appended."""
    if not path.exists():
        return []
    records, end = [], 0
    for end, record in _read_lines(path):
        records.append(record)
    check(records)
    with path.open("r+b") as file:
        file.truncate(end)
    return records


def _check_records(path: Path, records: Sequence[GameRecord], wanted_settings: Sequence[Mapping[str, Any]]) -> None:
    """Raise MatchFileError unless each record is the game its task asks for, and none repeats."""
    seen: set[int] = set()
    for record in records:
        if not 0 <= record.index < len(wanted_settings):
            raise MatchFileError(f"{path} holds game {record.index} but this match has games 0 to "
                                 f"{len(wanted_settings) - 1}: give --games {record.index + 1} or more, or another file")
        check_settings(path, record, wanted_settings[record.index])
        if record.index in seen:
            raise MatchFileError(f"{path} holds game {record.index} twice")
        seen.add(record.index)


def check_settings(path: Path, record: GameRecord, wanted: Mapping[str, Any]) -> None:
    """Raise MatchFileError, naming the differences, unless ``record`` (read from ``path``) was
    played with the settings ``wanted`` (those of :data:`SETTINGS` and :data:`START_SETTINGS` it names)."""
    found = {key: value for key, value in record.settings().items() if key in wanted}
    if wanted != found:
        diff = ", ".join(f"{key} {found[key]!r} (this match: {wanted[key]!r})"
                         for key in wanted if wanted[key] != found[key])
        raise MatchFileError(f"{path} game {record.index} was played with other settings: {diff}; "
                             "rerun with the file's settings or write to another file")


def append_record(path: Path, record: GameRecord) -> None:
    """Append ``record`` to the match file ``path`` as one line, flushed at once."""
    with path.open("a", encoding="utf-8") as file:
        file.write(record.to_json() + "\n")


def write_atomically(path: str | Path, text: str) -> None:
    """Replace the file ``path`` with ``text`` (UTF-8) whole: written to a new temporary file in the
    same folder, flushed to the disk, then renamed over ``path`` (``os.replace``), so a reader, or
    a run killed half-way, sees the old file or the new one, never a part. The new file keeps the
    mode of the regular file it replaces, or is 0600 (readable by this user only) if there was none
    (a symlink at ``path`` is replaced, not followed). Raises
    OSError if it cannot be written (the temporary file is then removed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            try:
                old = os.lstat(path)
            except FileNotFoundError:
                old = None
            if old is not None and stat.S_ISREG(old.st_mode):
                os.fchmod(file.fileno(), stat.S_IMODE(old.st_mode))
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
