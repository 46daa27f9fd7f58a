"""Strength as engine developers measure it: the bot against a frozen earlier version of itself.

A change that claims to make the bot stronger is played against the version before it, as
fishtest and OpenBench test Stockfish's and other engines' patches: both versions run as engines
over the line protocol (``docs/engine_protocol.md``), each from its own copy of the code; the
earlier version is a git commit exported with ``git archive`` into a private folder of this user's
cache (:func:`export_commit`, :func:`private_cache`; no second copy of the code is kept in the
repository). The
games come in pairs from varied balanced openings (:mod:`gamelib.play.arena`), each opening
played once with each version as X; after every game the match's score, its Elo difference with
a 95% interval, a GSPRT's log-likelihood ratio (:mod:`gamelib.play.ratings`) and the gain in final
marks per pair (:func:`margin_gain`) are printed, and the match stops as soon as the test
decides. Games are appended to a match file as they end, so a stopped match resumes where it
stopped.

``benchmarks/strength.py`` is the command line.
"""

from __future__ import annotations

import io
import math
import os
import shlex
import shutil
import stat
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from gamelib.play.arena import balanced_openings, completed, match_tasks, play_task, pool_executor
from gamelib.play.ratings import Sprt, elo_interval
from gamelib.play.records import GameRecord, append_record, resume_records
from gamelib.play.significance import t_quantile

MARGIN_LEVEL = 0.95
"""The confidence level of :class:`MarginGain`'s interval."""

__all__ = ["BASE_COMMIT", "MarginGain", "StrengthReport", "engine_spec", "export_commit", "margin_gain",
           "margin_interval", "package_root", "pair_margins", "private_cache", "report", "run_strength"]

BASE_COMMIT = "629c7bd"
"""The version a strength match plays against by default: main before issue 15's speed work."""


def package_root() -> Path:
    """The folder holding the ``gamelib`` package this process runs (a worktree or an export)."""
    return Path(__file__).resolve().parents[2]


def private_cache() -> Path:
    """This user's private folder for gamelib's cached files: ``gamelib`` in the user's cache folder
    (``$XDG_CACHE_HOME`` if it is an absolute path, else ``~/.cache``), made with mode 0700 if it is
    not there. Before it is used it is checked, never trusted: it must be a folder (not a symlink)
    owned by this user that no one else may read, write or enter, since the code exported into it is
    run. Raises ValueError saying what is wrong with it otherwise (what to do: remove it, or make it
    yours with mode 0700), OSError if it cannot be made."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    folder = (Path(given) if os.path.isabs(given) else Path.home() / ".cache") / "gamelib"
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    problem = ("is not a folder (a symlink?)" if not stat.S_ISDIR(info.st_mode)
               else f"belongs to another user (uid {info.st_uid})" if info.st_uid != os.geteuid()
               else f"may be used by others (mode {stat.S_IMODE(info.st_mode):04o}, not 0700)"
               if stat.S_IMODE(info.st_mode) & 0o077 else None)
    if problem is not None:
        raise ValueError(f"{folder}, where frozen versions of gamelib are kept, {problem}: remove it, or make it "
                         "a folder of yours with mode 0700")
    return folder


def _extract(tar: tarfile.TarFile, folder: Path) -> None:
    """Unpack ``tar`` (a ``git archive``) into ``folder`` with tarfile's "data" filter (no absolute
    paths, no ``..``, no links out, no devices; Python 3.11.4 and newer), or, on an older 3.11, only
    after checking that no member leaves ``folder`` or is anything but a file, folder or symlink inside."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(folder, filter="data")
        return
    root = folder.resolve()
    for member in tar.getmembers():
        target = (root / member.name).resolve()
        link = (target.parent / member.linkname).resolve() if member.issym() else root
        if not (member.isfile() or member.isdir() or member.issym()) or root not in (target, *target.parents) \
                or root not in (link, *link.parents):
            raise ValueError(f"the archive's member {member.name!r} would leave {folder} or is not a plain file")
    tar.extractall(folder)


def export_commit(commit: str, repository: Path | None = None) -> Path:
    """The folder holding ``commit`` of the git ``repository`` (default: the one this gamelib is
    in), exported with ``git archive`` into ``gamelib-frozen-SHA`` in this user's private cache
    (:func:`private_cache`) the first time and reused after (so a resumed match names the same
    engine). Raises ValueError if git does not know the commit or the private cache is not private."""
    repository = repository or package_root()
    found = subprocess.run(["git", "-C", str(repository), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        raise ValueError(f"git knows no commit {commit!r} in {repository}")
    sha = found.stdout.strip()
    cache = private_cache()
    folder = cache / f"gamelib-frozen-{sha}"
    if not (folder / "gamelib" / "__init__.py").exists():
        partial = Path(tempfile.mkdtemp(prefix=f"gamelib-frozen-{sha[:12]}-", suffix=".part", dir=cache))
        archive = subprocess.run(["git", "-C", str(repository), "archive", "--format=tar", sha],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            _extract(tar, partial)
        try:
            partial.rename(folder)
        except OSError:  # another match exported it meanwhile: use that one
            shutil.rmtree(partial, ignore_errors=True)
    return folder


def engine_spec(root: Path, bot: str = "alphabeta") -> str:
    """The arena's spec (``cmd:...``) of an engine serving ``bot`` from the gamelib in the folder
    ``root``: this Python run with ``-P`` (so the working folder's gamelib is not imported first)
    and ``PYTHONPATH`` set to ``root``."""
    command = ["env", f"PYTHONPATH={root}", sys.executable, "-P", "-m", "gamelib", "engine", "--bot", bot]
    return "cmd:" + shlex.join(command)


@dataclass(frozen=True)
class MarginGain:
    """How many more marks A ends with than B, per opening pair: over ``pairs`` finished pairs played
    to the end, the ``mean`` of A's final margin as X plus its margin as O (0 if the versions play
    alike: each opening's advantage to X cancels), with a :data:`MARGIN_LEVEL` Student t interval
    ``low`` to ``high``; ``left_out`` pairs had a game lost by forfeit (no margin to compare).

    Why a second measure beside the Elo: in the Adjacency game at a fraction of a second a move, O
    (who moves second, and last) wins nearly every game from the balanced openings (191 of 200 in
    ``benchmarks/strength.py``'s first match), so most pairs split 1-1 whatever the versions play
    and the points say little. The margin still differs when one version converts its win by more
    marks or loses by fewer: a paired comparison of scores, as Go and Othello programs are also
    compared by their score (disc) differences."""

    pairs: int
    mean: float
    low: float
    high: float
    left_out: int = 0

    def line(self) -> str:
        """``margin +2.50 [+1.70, +3.30] marks a pair (100 pairs)``."""
        return (f"margin {self.mean + 0.0:+.2f} [{self.low + 0.0:+.2f}, {self.high + 0.0:+.2f}] marks a pair "
                f"({self.pairs} pairs{f', {self.left_out} with a forfeit left out' if self.left_out else ''})")


def pair_margins(records: Sequence[GameRecord]) -> tuple[list[int], int]:
    """A's gain in final marks in each finished pair of a strength match's ``records``, in index
    order (A is X in the even-numbered games, whose odd partner plays the same opening with the
    colours swapped): A's margin as X plus its margin as O, from the final counts (``counts``: X's,
    O's); and how many finished pairs were left out because a game ended by forfeit."""
    by_index = {record.index: record for record in records}
    margins: list[int] = []
    left_out = 0
    for index, first in sorted(by_index.items()):
        second = by_index.get(index + 1)
        if index % 2 or second is None:
            continue
        if first.reason != "played" or second.reason != "played":
            left_out += 1
            continue
        margins.append((first.counts[0] - first.counts[1]) + (second.counts[1] - second.counts[0]))
    return margins, left_out


def margin_interval(margins: Sequence[int], left_out: int = 0, *, level: float = MARGIN_LEVEL) -> MarginGain | None:
    """The :class:`MarginGain` of per-pair ``margins`` (:func:`pair_margins`): their mean with a Student t interval
    at confidence ``level`` (default :data:`MARGIN_LEVEL`); None for fewer than two pairs (no interval). Raises
    ValueError for a level outside (0, 1)."""
    if not 0 < level < 1:
        raise ValueError(f"level is {level}: give a confidence between 0 and 1")
    if len(margins) < 2:
        return None
    mean = statistics.fmean(margins)
    quantile = t_quantile((1 + level) / 2, len(margins) - 1)
    half = quantile * statistics.stdev(margins) / math.sqrt(len(margins))
    return MarginGain(len(margins), mean, mean - half, mean + half, left_out)


def margin_gain(records: Sequence[GameRecord]) -> MarginGain | None:
    """The :class:`MarginGain` of a strength match's ``records``: :func:`margin_interval` of their
    :func:`pair_margins`; None with fewer than two finished pairs played to the end."""
    return margin_interval(*pair_margins(records))


@dataclass(frozen=True)
class StrengthReport:
    """Where a strength match of A (the new version) against B stands: ``games`` played,
    ``trinomial`` (A's losses, draws, wins), ``pentanomial`` (finished pairs in which A scored 0,
    1/2, 1, 3/2, 2), A's mean ``score``, the ``elo`` difference with its 95% interval ``low`` to
    ``high`` (pentanomial once a pair is finished, else trinomial), the GSPRT's ``llr`` and its
    ``bounds``, its ``verdict`` ("H1", "H0" or None), and the ``margin``: A's gain in final marks
    per pair (:func:`margin_gain`; None before two pairs are finished)."""

    games: int
    trinomial: tuple[int, ...]
    pentanomial: tuple[int, ...]
    score: float
    elo: float
    low: float
    high: float
    llr: float
    bounds: tuple[float, float]
    verdict: str | None
    margin: MarginGain | None = None

    def line(self) -> str:
        """One progress line: games, W-D-L, score, Elo with its interval, pairs, LLR and verdict."""
        losses, draws, wins = self.trinomial
        said = {"H1": "H1 accepted: A is stronger", "H0": "H0 accepted: A is not stronger", None: "continue"}
        return (f"{self.games} games  A +{wins} ={draws} -{losses}  score {self.score:.3f}  Elo {self.elo + 0.0:+.1f} "
                f"[{self.low + 0.0:+.1f}, {self.high + 0.0:+.1f}]  pairs {'-'.join(map(str, self.pentanomial))}  "
                f"LLR {self.llr:+.2f} ({self.bounds[0]:+.2f}, {self.bounds[1]:+.2f}): {said[self.verdict]}"
                + ("" if self.margin is None else f"  {self.margin.line()}"))


def _a_points(record: GameRecord) -> float:
    """A's points in ``record`` (A plays X in the even-numbered games): 1, 1/2 or 0."""
    a_colour = "X" if record.index % 2 == 0 else "O"
    return 0.5 if record.result == "draw" else float(record.result == a_colour)


def report(records: Sequence[GameRecord], sprt: Sprt) -> StrengthReport:
    """The :class:`StrengthReport` of a strength match's ``records`` (any order) under ``sprt``.
    Raises ValueError if there are none."""
    if not records:
        raise ValueError("no games yet")
    points = {record.index: _a_points(record) for record in records}
    trinomial = tuple(sum(1 for p in points.values() if p == value) for value in (0.0, 0.5, 1.0))
    pairs = [points[i] + points[i + 1] for i in sorted(points) if i % 2 == 0 and i + 1 in points]
    pentanomial = tuple(sum(1 for p in pairs if p == value) for value in (0.0, 0.5, 1.0, 1.5, 2.0))
    counts: Sequence[int] = pentanomial if pairs else trinomial
    elo, low, high = elo_interval(counts)
    ratio = sprt.llr(counts)
    return StrengthReport(len(points), trinomial, pentanomial, sum(points.values()) / len(points),
                          elo, low, high, ratio, sprt.bounds, sprt.verdict(ratio), margin_gain(records))


def run_strength(a: str, b: str, games: int = 200, *, seconds: float = 0.2, sprt: Sprt = Sprt(),
                 out: str | Path | None = None, workers: int = 1, seed: int = 0, rule: int = 8,
                 show: Callable[[str], object] = print) -> StrengthReport:
    """Play a strength match of up to ``games`` games (rounded up to whole pairs) between engine
    specs ``a`` (the new version) and ``b`` at ``seconds`` a move, from ``games / 2``
    :func:`~gamelib.play.arena.balanced_openings` seeded ``seed``, and return where it stands
    when it ends: all games played, or the ``sprt`` decided (no game starts after that; the
    ``workers - 1`` games at most still under way are played out but not counted). Each finished
    game is appended to the match file ``out`` (rerun to resume: the games in it count, the rest
    are played) and a :meth:`StrengthReport.line` goes to ``show``. Runs ``workers`` games at
    once. Raises ValueError for bad settings, MatchFileError for a file of another match, and an
    engine's EngineError if one fails (the games so far stay in ``out``).
    """
    if games < 2 or workers < 1 or not seconds > 0:
        raise ValueError(f"games {games}, workers {workers}, seconds {seconds}: give at least one pair of games, "
                         "one worker and a positive time")
    pairs = (games + 1) // 2
    tasks = match_tasks(a, b, 2 * pairs, 28, rule, seconds, seed, openings=balanced_openings(pairs, seed, rule=rule))
    path = None if out is None else Path(out)
    records = [] if path is None else resume_records(path, [task.settings() for task in tasks])
    if records:
        now = report(records, sprt)
        show(f"resumed {len(records)} games from {path}: " + now.line())
        if now.verdict is not None:
            return now
    done = {record.index for record in records}
    with pool_executor(None, workers) as pool:
        with closing(completed(pool, play_task, [task for task in tasks if task.index not in done])) as finished:
            for record in finished:
                if path is not None:
                    append_record(path, record)
                records.append(record)
                now = report(records, sprt)
                show(now.line())
                if now.verdict is not None:
                    break
    return report(records, sprt)
