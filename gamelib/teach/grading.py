"""Grade a class: every student's file checked on an exercise's trees, each in the sandbox.

:func:`grade_folder` takes a folder with one ``.py`` or ``.ipynb`` file per student, checks each with
:func:`gamelib.teach.code_check.check_source` (a child process with time and memory limits: never in
the grader's process) and writes one CSV row per student (:data:`CSV_FIELDS`) and, per student, a
file in the shape of Gradescope's autograder ``results.json`` (``score``, ``tests`` with ``name``,
``score``, ``max_score``, ``status``, ``output``; see
https://gradescope-autograders.readthedocs.io/en/latest/specs/). :func:`grade_file` grades one
file, as Gradescope's autograder does one submission at a time. A submission that is broken, loops
forever or ends its own process costs at most its time limit and becomes a row saying so; the run
goes on. The checks run on a pool of threads, each waiting on its sandbox child. Each row says
which boundary the check ran in (``isolated``: bubblewrap's box, or ``guard only``), or, for a file
whose code never ran (not a regular file, too big, unreadable, not UTF-8, too long), ``not run``
and why; and which folder it graded: a CSV of another folder's grades is never replaced.

Files are read safely: a symlink, a hard link (a regular file with more than one name, which may
be a file outside the folder), a FIFO, a socket, a device, a folder or any other file that is not a
regular file of its own gets a row saying why it was not graded, and is never read (a submission is
opened without following links, so nothing outside the folder is read). A cell a spreadsheet could
read as a formula (:func:`gamelib.games.user_text.spreadsheet_safe`: ``=``, ``+``, ``-`` or
``@``, ASCII or fullwidth, after any blanks or line breaks, or a tab or a carriage return at the
start) is written with a ``'`` before it, and read back without it.

The CSV is only ever replaced whole (:func:`write_atomically`: a temporary file in its folder,
then ``os.replace``): at the start, at most once a second while checks finish, so a killed run
keeps the rows so far, and a last time after the pool has shut down, when every check's child is
gone. A rerun skips every
student whose row it wrote itself and whose file has the same hash (resuming). It knows its own
rows by their ``signature``, the last column: an HMAC-SHA256 of the row's other cells under a key
kept beside the CSV in ``.CSV-NAME.key`` (:func:`grading_key`: 32 random bytes, created with
``O_EXCL`` and mode 0600, used only while it is a regular file of this user that no one else may
read). A row whose signature does not verify (changed after the grader wrote it, or from a CSV
written before rows were signed) is graded again. What this protects against: code running as
another user or in bubblewrap's box, which cannot read the key, so cannot write a row a rerun
trusts. What it does not: code under the guard only runs as you, can read the key and sign any row
it likes; the guard only is no boundary (the README's Security section).

Every tree is checked (:func:`grade_source`): where the student's search departs from the reference, raises
an error or meets a limit on a tree, that tree fails and the check goes on from the next tree in a new run,
all within the submission's time. The score is the share of the exercise's trees passed, the points that
share of ``--points`` (one a tree by default), and each row gives the outcome on every tree and the checker's
words on every tree that failed. What a submission prints is capped and dropped, never a failure.

>>> source = "def my_minimax(tree, node):\\n    return 0\\n"
>>> grade = grade_source("minimax", "ada", source)
>>> grade.ok, grade.passed, grade.trees, grade.tree
(False, 0, 6, "Broeders' 31-node binary tree")
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import math
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gamelib.games.user_text import spreadsheet_safe, spreadsheet_text
from gamelib.play.arena import progress_bar
from gamelib.play.box.guard import GUARD_ONLY, NOT_RUN, boundary
from gamelib.play.box.sandbox import Limits
from gamelib.play.records import write_atomically
from gamelib.teach.code_check import answer_source, check_trees, function_name
from gamelib.teach.exercises import (
    EXERCISES,
    UnknownExerciseError,
    exercise_trees,
)
from gamelib.teach.hand_in import (
    RosterEntry,
    Submission,
    find_submissions,
    match_roster,
)

__all__ = ["ANSWER_TAG", "CSV_FIELDS", "GRADE_FIELDS", "KEY_BYTES", "MAX_FILE_BYTES", "MAX_GRADING_WORKERS", "MAX_POINTS",
           "MAX_SUBMISSION_SECONDS", "NOT_RUN", "OUTCOMES", "Grade", "TreeResult", "default_out", "failed_grade", "grade",
           "grade_file", "grade_folder", "grade_source", "gradescope_results", "grading_key", "key_path", "notebook_source",
           "sign_row", "submission_source", "write_atomically"]

MAX_FILE_BYTES = 16 * 2**20
"""The largest submission file read, in bytes (a notebook with big outputs fits; the code in it
must still be at most :data:`gamelib.teach.code_check.MAX_SOURCE_CHARACTERS` characters)."""

MAX_GRADING_WORKERS = 32
"""The most submissions checked at once (each a sandbox child)."""

OUTCOMES = ("right", "wrong", "timeout", "error")
"""How a submission's check can end (the CSV's ``outcome``)."""

GRADE_FIELDS = ("student", "id", "name", "exercise", "file", "sha256", "score", "passed", "trees", "ok", "outcome",
                "tree", "verdict", "seconds", "boundary", "folder", "points", "possible", "per_tree", "failing", "note", "seed")
"""A grade's columns in the grades CSV (all of them before rows were signed): ``score`` (passed /
trees, 0 to 1), ``outcome`` one of ``right``, ``wrong`` (the search departs from the reference:
``verdict`` says where, ``tree`` on which tree), ``timeout`` (it ran out of time) or ``error`` (it
did not run: a syntax error, no function, a crash, a file that is not graded or cannot be read;
``verdict`` says what), ``seconds`` of wall-clock time the check took, ``boundary`` the box it ran
in (``isolated`` or ``guard only``) or ``not run: WHY`` for code that never ran, ``folder`` the
folder of submissions graded (its full path); ``exercise`` and the file's ``sha256`` tell a rerun
which rows still hold; ``points`` earned of ``possible`` (``--points``; by default one a tree), ``per_tree`` the
outcome on each tree in order (``right wrong right ...``), and ``failing`` the checker's words on every tree that
failed, each after ``tree N of M (NAME):``, a blank line apart; ``seed`` the ``--seed`` that added trees no lesson shows
(empty: the public trees only)."""

CSV_FIELDS = (*GRADE_FIELDS, "signature")
"""The columns of the grades CSV: :data:`GRADE_FIELDS`, then the row's ``signature``
(:func:`sign_row`: 64 hexadecimal digits), last, so that imports reading the columns by name or by
position find the others where they were."""


_OLDER_FIELDS = (("student", "exercise", "file", "sha256", "score", "passed", "trees", "ok", "outcome", "tree",
                  "verdict", "seconds", "boundary", "folder", "signature"),
                 ("student", "exercise", "file", "sha256", "score", "passed", "trees", "ok", "outcome", "tree",
                  "verdict", "seconds", "boundary", "folder", "points", "possible", "per_tree", "failing", "signature"),
                 ("student", "id", "name", "exercise", "file", "sha256", "score", "passed", "trees", "ok", "outcome",
                  "tree", "verdict", "seconds", "boundary", "folder", "points", "possible", "per_tree", "failing", "note",
                  "signature"))
"""Headers of grades CSVs written by earlier versions: read (their rows are graded again), never refused."""

MAX_SUBMISSION_SECONDS = 600.0
"""The longest wall-clock time a submission may be given (``--time``; Gradescope's own default limit is 10 minutes)."""

MAX_POINTS = 10_000.0
"""The most points an exercise may be worth (``--points``)."""

KEY_BYTES = 32
"""The length of the key that signs the rows, in bytes (as long as SHA-256's output)."""

_LEAST_RUN_SECONDS = 0.5
"""A new run for the trees after a failing one starts only with this much of the submission's time left."""

_SAVE_SECONDS = 1.0
"""While checks run, the CSV is written again at most this often (seconds): a killed run loses at
most the rows of the last second, and a class of 500 is not written 500 times (38 ms each)."""

_SIGNED = "gamelib grades row v1"
"""What a signature signs besides the row's cells: the kind and version of the row."""


@dataclass(frozen=True)
class TreeResult:
    """A grade's result on one tree: its ``name``, its ``outcome`` (one of :data:`OUTCOMES`) and, unless it is
    right, the checker's ``words`` on it."""

    name: str
    outcome: str
    words: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome == "right"


@dataclass(frozen=True)
class Grade:
    """One student's result on ``exercise``: ``passed`` of the exercise's ``trees``, every tree checked
    (``results``, one :class:`TreeResult` a tree); ``outcome`` and ``verdict`` as :data:`CSV_FIELDS` says, of
    the first tree that failed (``tree`` its name, or empty); ``file`` and ``sha256`` the file graded and its
    hash (for resuming); ``possible`` the points the exercise is worth (None: one a tree); ``student_id``,
    ``name`` and ``note`` as the hand-in's layout and roster give them (:mod:`gamelib.teach.hand_in`)."""

    student: str
    exercise: str
    file: str
    sha256: str
    passed: int
    trees: int
    outcome: str
    tree: str
    verdict: str
    seconds: float
    boundary: str = GUARD_ONLY
    folder: str = ""
    results: tuple[TreeResult, ...] = ()
    possible: float | None = None
    student_id: str = ""
    name: str = ""
    note: str = ""
    seed: int | None = None

    @property
    def score(self) -> float:
        """The share of trees passed, 0 to 1 (1.0 only when every tree passes)."""
        return self.passed / self.trees if self.trees else 0.0

    @property
    def points(self) -> float:
        """The points earned: :attr:`possible` times the share of trees passed."""
        return self.max_points * self.score

    @property
    def max_points(self) -> float:
        """The points possible: :attr:`possible`, or one a tree."""
        return float(self.trees) if self.possible is None else self.possible

    @property
    def ok(self) -> bool:
        """True if the search agrees with the reference on every tree."""
        return self.outcome == "right"

    @property
    def ran(self) -> bool:
        """True unless the code never ran (``boundary`` is ``not run: WHY``)."""
        return not self.boundary.startswith(NOT_RUN)

    def failing_text(self) -> str:
        """The checker's words on every tree that failed, each after ``tree N of M (NAME):``, a blank line apart; ``seed`` the ``--seed`` that added trees no lesson shows
(empty: the public trees only)."""
        return "\n\n".join(f"tree {number} of {self.trees} ({result.name}): {result.outcome}: {result.words}"
                            for number, result in enumerate(self.results, start=1) if not result.ok)

    def row(self) -> dict[str, str]:
        """The CSV row without its signature (:data:`GRADE_FIELDS`), every cell
        :func:`~gamelib.games.user_text.spreadsheet_safe`."""
        data = {**asdict(self), "score": f"{self.score:.4g}", "ok": str(self.ok).lower(),
                "seconds": f"{self.seconds:.2f}", "points": f"{self.points:.4g}", "possible": f"{self.max_points:g}",
                "per_tree": " ".join(result.outcome for result in self.results), "failing": self.failing_text(),
                "id": self.student_id, "seed": "" if self.seed is None else str(self.seed)}
        return {name: spreadsheet_safe(str(data[name])) for name in GRADE_FIELDS}


def sign_row(key: bytes, row: dict[str, str]) -> str:
    """The signature of the grades CSV's ``row`` (its :data:`GRADE_FIELDS` cells as written):
    HMAC-SHA256 under ``key`` of the cells in order, as 64 hexadecimal digits."""
    cells = json.dumps([_SIGNED, *(row.get(name, "") for name in GRADE_FIELDS)], ensure_ascii=True)
    return hmac.new(key, cells.encode("ascii"), hashlib.sha256).hexdigest()


ANSWER_TAG = "exercise:"
"""The cell tag that marks an exercise's answer cell in a lesson, ``exercise:NAME`` (``exercise:alphabeta``), as
nbgrader and otter-grader tag theirs: a lesson handed in is graded on those cells alone."""


def notebook_source(raw: str, exercise: str | None = None) -> str:
    """The Python code of a notebook (its JSON text) for ``exercise``: the code cells tagged
    ``exercise:EXERCISE`` (:data:`ANSWER_TAG`) if any cell carries an answer tag, as a lesson does, each taken as
    the lesson's own check takes it (:func:`~gamelib.teach.code_check.answer_source`: its imports, functions,
    classes and constants; a test call in it is left out), while its setup cell and the lesson's own code are not
    run: an answer has ``Player``, ``Value``, ``math`` and ``Any`` without
    importing them, and may import :mod:`gamelib.play.box.student_api`'s names, as when the lesson checks it); a notebook without answer tags, a student's own, gives all its code
    cells. The cells come in order, one blank line apart, without IPython's extras: a cell starting with a cell
    magic (``%%time``) is left out, and so are lines of line magics (``%matplotlib``), shell commands
    (``!pip``) and help (``len?``). Raises ValueError if the text is not a notebook, or if it tags answers
    but none for ``exercise`` (saying which it tags)."""
    try:
        notebook = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"not a notebook: its JSON is invalid ({error})") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: it has no list of cells")
    code = [cell for cell in cells if isinstance(cell, dict) and cell.get("cell_type") == "code"]
    tagged = {id(cell): _answer_tags(cell) for cell in code}
    if exercise is not None and any(tagged.values()):
        code = [cell for cell in code if exercise in tagged[id(cell)]]
        if not code:
            others = sorted({name for names in tagged.values() for name in names})
            raise ValueError(f"this notebook has no answer cell for {exercise} (a cell tagged {ANSWER_TAG}{exercise}); "
                             f"its answer cells are for {', '.join(others)}: hand in the lesson of the exercise")
    answers = exercise is not None and any(tagged.values())
    sources: list[str] = []
    for cell in code:
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        if text.lstrip().startswith("%%"):
            continue
        text = "\n".join(line for line in text.splitlines() if not _ipython_only(line))
        sources.append(answer_source(text).rstrip("\n") if answers else text)
    return "\n\n".join(sources) + "\n"


def _answer_tags(cell: dict[str, Any]) -> set[str]:
    """The exercises a code cell answers, from its tags ``exercise:NAME``."""
    metadata = cell.get("metadata")
    tags = metadata.get("tags") if isinstance(metadata, dict) else None
    if not isinstance(tags, list):
        return set()
    return {tag.removeprefix(ANSWER_TAG) for tag in tags if isinstance(tag, str) and tag.startswith(ANSWER_TAG)}


def _ipython_only(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("%", "!")) or (stripped.endswith("?") and not stripped.startswith("#"))


def submission_source(path: Path, exercise: str | None = None) -> str:
    """The Python code of a submission for ``exercise``: a ``.py`` file's text, or a notebook's code
    (:func:`notebook_source`: a lesson's answer cells for ``exercise``). Raises ValueError for a file that is too
    big, not a regular file (a symlink is not followed), not UTF-8, not a notebook or a lesson without an answer
    cell for ``exercise``, OSError if it cannot be read."""
    return _source_of(path, _read_submission(path), exercise)


def _read_submission(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (at most :data:`MAX_FILE_BYTES` + 1), looked at
    without following a symlink and opened only if it is a regular file with no other name (and
    then without following a symlink and without blocking, and looked at again once open). Raises
    ValueError for anything else (saying what it is), OSError if it cannot be read."""
    odd = _odd_file(os.lstat(path))
    if odd is not None:
        raise ValueError(odd)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if path.is_symlink():  # swapped for a symlink since it was looked at
            raise ValueError(_odd_file(path.lstat()) or "it changed while it was read") from None
        raise error
    with os.fdopen(fd, "rb") as file:
        odd = _odd_file(os.fstat(fd))
        if odd is not None:
            raise ValueError(odd)
        return file.read(MAX_FILE_BYTES + 1)


def _odd_file(info: os.stat_result) -> str | None:
    """Why a file with the status ``info`` is not graded (what kind of file it is), or None for a
    regular file with one name."""
    mode = info.st_mode
    if stat.S_ISREG(mode):
        if info.st_nlink == 1:
            return None
        return (f"not graded: it is a hard link (one file with {info.st_nlink} names, maybe one outside the "
                "folder), not a file of its own; submit a copy of the file itself")
    kinds = ((stat.S_ISLNK, "a symlink"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISDIR, "a folder"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"not graded: it is {kind}, not a regular file; submit the file itself"


def _source_of(path: Path, raw: bytes, exercise: str | None = None) -> str:
    """The code in the bytes ``raw`` of the submission ``path``, for ``exercise``."""
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"the file is larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte {raw[error.start]:#04x} at offset {error.start})") from None
    return notebook_source(text, exercise) if path.suffix == ".ipynb" else text


def grade_source(exercise: str, student: str, source: str, limits: Limits = Limits(), *, file: str = "",
                 sha256: str = "", possible: float | None = None, seed: int | None = None) -> Grade:
    """Check ``source`` for ``exercise`` in the sandbox within ``limits`` on every one of the exercise's trees and
    grade it: a tree where the search departs or raises an error fails, and the check goes on from the next tree
    in a new run (at most one run a tree), all of them within ``limits.seconds`` together: a tree the time runs
    out on fails, and so does every tree after it (not checked); code that fails before any
    tree (a syntax error, no function, an error as it runs, unreadable answers) fails every tree with that
    message. Code the checker refuses to run (too long) or cannot run (no sandbox here, or the sandbox's own
    ``not run: ...``) is an ``error`` whose ``boundary`` is ``not run: WHY``. ``possible``: the points the
    exercise is worth (None: one a tree); ``seed``: add the trees of :func:`~gamelib.teach.exercises.exercise_trees`
    that no lesson shows. Raises UnknownExerciseError for an unknown exercise, ValueError for a seed out of
    range."""
    trees = exercise_trees(exercise, seed)
    started, results, box = time.monotonic(), list[TreeResult](), GUARD_ONLY
    while len(results) < len(trees):
        first = len(results)  # the first run has the whole time; a later one what is left, "7.3 s", not "7.29999 s"
        left = limits.seconds if first == 0 else math.floor((limits.seconds - (time.monotonic() - started)) * 10) / 10
        if left < _LEAST_RUN_SECONDS:  # the submission's time is spent: the trees left are not checked
            results += [TreeResult(tree.name, "timeout", f"not checked: the submission's {limits.seconds:g} s ran "
                                   f"out before tree {first + 1}") for tree in trees[first:]]
            break
        run, run_started = replace(limits, seconds=left, cpu_seconds=limits.cpu_seconds), time.monotonic()
        verdict = check_trees(exercise, source, trees[first:], run, first=first, total=len(trees))
        outcome = "timeout" if time.monotonic() - run_started >= run.seconds else "error"
        box = verdict.boundary
        if verdict.reports:  # judged: right up to a tree where it departed, if any; then go on after it
            results += [TreeResult(name, "right" if report.ok else "wrong", "" if report.ok else verdict.failure_text)
                        for name, report in zip(verdict.tree_names, verdict.reports)]
        elif verdict.stopped_on is not None:  # stopped on a tree (an error raised there, a limit): it fails
            results += [TreeResult(tree.name, "right") for tree in trees[first:first + verdict.judged_right]]
            stopped = first + max(verdict.stopped_on, verdict.judged_right)
            results += [TreeResult(tree.name, outcome, "not checked: the run before it stopped on tree "
                                   f"{stopped + 1}") for tree in trees[len(results):stopped]]
            results.append(TreeResult(trees[stopped].name, outcome, verdict.message))
        else:  # stopped before any tree (a syntax error, no function, an error as it ran): so for every tree left
            results += [TreeResult(tree.name, outcome, verdict.message) for tree in trees[first:]]
    return replace(_grade(exercise, student, file, sha256, time.monotonic() - started, box, tuple(results), possible),
                   seed=seed)


def _grade(exercise: str, student: str, file: str, sha256: str, seconds: float, box: str,
           results: tuple[TreeResult, ...], possible: float | None) -> Grade:
    failed = next((result for result in results if not result.ok), None)
    passed = sum(result.ok for result in results)
    if failed is None:
        return Grade(student, exercise, file, sha256, passed, len(results), "right", "", "", seconds, box, "",
                     results, possible)
    return Grade(student, exercise, file, sha256, passed, len(results), failed.outcome, failed.name, failed.words,
                 seconds, box, "", results, possible)


def grade_file(exercise: str, path: str | Path, limits: Limits = Limits(), *, student: str | None = None,
               possible: float | None = None, seed: int | None = None) -> Grade:
    """Grade one submission file (``.py`` or ``.ipynb``) on every tree (:func:`grade_source`; ``possible`` the
    points it is worth, None for one a tree; ``seed`` adds unseen trees); a file that is not read (not a regular file of its own, too big,
    unreadable, not UTF-8, not a notebook) is an ``error`` grade whose ``boundary`` is ``not run: WHY``, not an
    exception. Raises UnknownExerciseError for an unknown exercise."""
    path = Path(path)
    name = student if student is not None else path.stem
    _check_exercise(exercise)
    try:
        raw = _read_submission(path)
        digest = hashlib.sha256(raw).hexdigest()
        source = _source_of(path, raw, exercise)
    except (OSError, ValueError) as error:
        said = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        verb = "" if said.startswith("not graded") else "cannot read it: "
        why = f"cannot read it ({said})" if isinstance(error, OSError) else said.removeprefix("not graded: ")
        return failed_grade(exercise, name, path.name, f"{path.name}: {verb}{said}", f"{NOT_RUN}: {why}", possible, seed)
    return grade_source(exercise, name, source, limits, file=path.name, sha256=digest, possible=possible, seed=seed)


def failed_grade(exercise: str, student: str, file: str, why: str, box: str, possible: float | None = None,
                 seed: int | None = None) -> Grade:
    """The ``error`` grade of a submission that was not checked, ``why`` on every tree."""
    results = tuple(TreeResult(tree.name, "error", why) for tree in exercise_trees(exercise, seed))
    return replace(_grade(exercise, student, file, "", 0.0, box, results, possible), seed=seed)


def gradescope_results(exercise: str, grade: Grade) -> dict[str, Any]:
    """The grade in the shape of Gradescope's autograder ``results.json``: ``score`` (the points earned),
    ``output`` (a summary), and one test a tree (``name``, ``score`` and ``max_score``, its share of the points,
    ``status`` ``passed`` or ``failed``, ``output`` the checker's words on it)."""
    share = grade.max_points / grade.trees if grade.trees else 0.0
    tests = [{"name": f"{function_name(exercise)} on tree {number} of {grade.trees}: {result.name}",
              "score": share if result.ok else 0.0, "max_score": share,
              "status": "passed" if result.ok else "failed",
              "output": "right: the same visits and value as the reference" if result.ok
              else f"{result.outcome}: {result.words}"}
             for number, result in enumerate(grade.results, start=1)]
    summary = (f"{exercise}: right on all {grade.trees} trees." if grade.ok
               else f"{exercise}: right on {grade.passed} of {grade.trees} trees; the first that failed, "
                    f"{grade.tree}: {grade.outcome}. {grade.verdict}")
    return {"score": round(grade.points, 4), "execution_time": round(grade.seconds, 2), "output": summary,
            "tests": tests}


def grade(exercise: str, path: str | Path, out: str | Path | None = None, results: str | Path | None = None,
          limits: Limits = Limits(), *, workers: int = 2, progress: bool = True,
          possible: float | None = None, seed: int | None = None) -> list[Grade]:
    """Grade a class's hand-in for ``exercise``, the one entry point for it: a folder of submissions
    (:func:`grade_folder`, its CSV written to ``out``, by default :func:`default_out` of the
    folder, and Gradescope results to ``results``) or one file (:func:`grade_file`; ``out`` and
    ``results`` do not apply); ``possible`` the points the exercise is worth (None: one a tree), ``seed`` adds
    trees no lesson shows (:func:`~gamelib.teach.exercises.exercise_trees`). Returns the
    grades, sorted by student. Raises what those raise, and ValueError for points outside 0 to
    :data:`MAX_POINTS`."""
    _check_points(possible)
    if Path(path).is_dir():
        return grade_folder(exercise, path, default_out(path) if out is None else out, results, limits,
                            workers=workers, progress=progress, possible=possible, seed=seed)
    return [grade_file(exercise, path, limits, possible=possible, seed=seed)]


def _check_points(possible: float | None) -> None:
    if possible is not None and not (0 < possible <= MAX_POINTS and math.isfinite(possible)):
        raise ValueError(f"points is {possible}: give more than 0 and at most {MAX_POINTS:g}")


def grade_folder(exercise: str, folder: str | Path, out: str | Path, results: str | Path | None = None,
                 limits: Limits = Limits(), *, workers: int = 2, progress: bool = True,
                 possible: float | None = None, roster: Sequence[RosterEntry] | None = None,
                 seed: int | None = None, executor: Executor | None = None) -> list[Grade]:
    """Grade a class's hand-in in ``folder``, in any layout :func:`gamelib.teach.hand_in.find_submissions` reads
    (a file or a folder a student, Canvas's or Moodle's download), matched to ``roster`` if given
    (:func:`~gamelib.teach.hand_in.match_roster`), and write the CSV ``out`` (:data:`CSV_FIELDS`, sorted by
    student) and, if ``results`` is a folder name, one Gradescope ``STUDENT.json`` there. Every student and
    every other entry gets a row, whatever another does: one with nothing to grade (an empty folder, several
    files, a file of another kind, a student on the roster who handed in nothing) an ``error`` row saying why; a
    file that is not a regular file of its own (a symlink, a hard link, a FIFO, a socket, a device) an ``error``
    row saying why, unread. Students already in ``out`` with the same exercise, file and hash, worth the same
    ``possible`` points and on the same trees (``seed``), in a row whose signature verifies under the key :func:`grading_key` keeps for ``out``,
    are not checked again; any other row is checked again. ``out`` is replaced whole (:func:`write_atomically`)
    at the start, at most once a second as checks finish, and once more after every check's child is gone.
    ``workers`` (1 to :data:`MAX_GRADING_WORKERS`) checks run at once on a pool of threads here, or each check
    runs on ``executor`` (a dask.distributed cluster's, whose workers must see the folder at the same path, as a
    LocalCluster's or a shared file system's do; the same rows either way); ``progress`` shows a tqdm bar
    on stderr. Returns the grades, sorted by student. Raises UnknownExerciseError, ValueError for a
    bad ``workers`` or points, an ``out`` that exists and is not this exercise's and this folder's grades CSV,
    or a key file that is not this user's private file, NotADirectoryError if ``folder`` is not a
    folder."""
    _check_exercise(exercise)
    _check_points(possible)
    exercise_trees(exercise, seed)  # a seed out of range is refused before anything is written
    if not 1 <= workers <= MAX_GRADING_WORKERS:
        raise ValueError(f"workers is {workers}: give 1 to {MAX_GRADING_WORKERS}")
    folder, out = Path(folder), Path(out)
    where = str(folder.resolve())
    found = find_submissions(folder)
    submissions = {each.student: each for each in (match_roster(found, list(roster)) if roster is not None else found)}
    earlier = _earlier_rows(out, exercise, where)
    key = grading_key(out)
    kept = {student: grade for student, (grade, row, signature) in earlier.items()
            if _signed(key, row, signature) and student in submissions and grade.sha256
            and _same_hand_in(grade, submissions[student], folder) and grade.possible == possible
            and grade.seed == seed}
    grades = dict(kept)
    for student, each in submissions.items():  # nothing to grade: a row saying why
        if each.path is None:
            grades[student] = _described(failed_grade(exercise, student, "", each.problem,
                                                      f"{NOT_RUN}: {each.problem}", possible, seed), each, where)
    todo = {student: (each, each.path) for student, each in submissions.items()
            if student not in grades and each.path is not None}  # every one left has a file to grade
    _write_csv(out, grades, key)
    saved = time.monotonic()
    with _pool(workers, executor) as pool, progress_bar(
            total=len(submissions), initial=len(grades), disable=not progress, desc=f"grading {exercise}",
            unit="student") as bar:
        futures = {pool.submit(grade_file, exercise, path, limits, student=student, possible=possible,
                               seed=seed): student
                   for student, (_, path) in sorted(todo.items())}
        for future in as_completed(futures):
            student = futures[future]
            each, path = todo[student]
            grade = _safely(future.result, student, exercise, path, possible, seed)
            grades[student] = _described(replace(grade, file=_relative(path, folder)), each, where)
            if time.monotonic() - saved >= _SAVE_SECONDS:  # so a killed run keeps what it has graded
                _write_csv(out, grades, key)
                saved = time.monotonic()
            bar.update(1)
    # the pool has shut down: every check has returned, and each killed its child before returning
    _write_csv(out, grades, key)
    ordered = [grades[student] for student in sorted(grades)]
    if results is not None:
        _write_results(exercise, Path(results), ordered)
    return ordered


@contextmanager
def _pool(workers: int, executor: Executor | None) -> Iterator[Executor]:
    """``executor`` as it is (its owner shuts it down), or a pool of ``workers`` threads, shut down after."""
    if executor is not None:
        yield executor
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        yield pool


def _described(grade: Grade, submission: Submission, folder: str) -> Grade:
    """``grade`` with the hand-in's id, name and note, and the folder graded."""
    return replace(grade, student_id=submission.student_id, name=submission.name, note=submission.note,
                   folder=folder)


def _relative(path: Path, folder: Path) -> str:
    """The file's name within the folder graded (``ada/answer.py`` in a student's folder)."""
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return path.name


def _same_hand_in(grade: Grade, submission: Submission, folder: Path) -> bool:
    """Whether an earlier grade is of this very file, unchanged."""
    return (submission.path is not None and grade.file == _relative(submission.path, folder)
            and grade.sha256 == _hash(submission.path))


def _safely(result: Callable[[], Grade], student: str, exercise: str, path: Path,
            possible: float | None = None, seed: int | None = None) -> Grade:
    """The grade, or an ``error`` grade naming the file if grading itself failed (it never stops the run)."""
    try:
        return result()
    except Exception as error:  # noqa: BLE001 - one student's failure must not stop the class's
        return failed_grade(exercise, student, path.name,
                            f"{path.name}: the grader failed on this file: {type(error).__name__}: {error}", boundary(),
                            possible, seed)


def _check_exercise(exercise: str) -> None:
    if exercise not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {exercise!r}: use one of {', '.join(EXERCISES)}")


def _hash(path: Path) -> str:
    try:
        return hashlib.sha256(_read_submission(path)).hexdigest()
    except (OSError, ValueError):
        return ""


def default_out(folder: str | Path) -> Path:
    """The grades CSV of ``folder`` unless another is named: ``grades-FOLDER.csv`` in the working
    folder, one a folder of submissions."""
    return Path(f"grades-{Path(folder).resolve().name or 'root'}.csv")


def _signed(key: bytes, row: dict[str, str], signature: str | None) -> bool:
    """True if ``signature`` is the signature of the ``row`` read back (its cells as written)."""
    return signature is not None and hmac.compare_digest(sign_row(key, row), signature)


_Earlier = tuple[Grade, dict[str, str], str | None]
"""A grade read back, with its row's cells as written and its signature (None if it has none)."""


def _earlier_rows(out: Path, exercise: str, folder: str) -> dict[str, _Earlier]:
    """The grades already in the CSV ``out``, each with its row as written and its signature (a
    CSV written before rows were signed, without the column, is read too: no row of it has a
    signature). Raises ValueError if ``out`` exists but is not a grades CSV, or holds grades of
    another exercise or of another folder (rather than replace either)."""
    if not out.exists():
        return {}
    grades: dict[str, _Earlier] = {}
    with out.open(newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        if reader.fieldnames is not None and tuple(reader.fieldnames) not in (CSV_FIELDS, GRADE_FIELDS,
                                                                               *_OLDER_FIELDS):
            raise ValueError(f"{out} exists and is not a grades CSV of this version: give another --out")
        for raw in reader:
            written = {name: value or "" for name, value in raw.items() if isinstance(name, str)}
            row = {name: spreadsheet_text(value) for name, value in written.items()}
            try:
                grade = _grade_of_row(row)
            except (KeyError, ValueError, TypeError):
                continue  # a row of an earlier version, or not a row: graded again
            grades[grade.student] = (grade, written, raw.get("signature"))
    others = sorted({grade.exercise for grade, _, _ in grades.values()} - {exercise})
    if others:
        raise ValueError(f"{out} holds grades of the {others[0]} exercise: give another --out for {exercise}")
    folders = sorted({grade.folder for grade, _, _ in grades.values()} - {folder})
    if folders:
        raise ValueError(f"{out} holds the grades of another folder, {folders[0]}: give another --out for {folder}")
    return grades


def _grade_of_row(row: dict[str, str]) -> Grade:
    """The grade a row of the grades CSV holds (read back as written). Raises KeyError, ValueError or TypeError
    for a row that does not hold one."""
    trees, outcomes = int(row["trees"]), row["per_tree"].split()
    if len(outcomes) != trees or not set(outcomes) <= set(OUTCOMES):
        raise ValueError("per_tree does not give an outcome a tree")
    seed = int(row["seed"]) if row["seed"] else None
    names = [tree.name for tree in exercise_trees(row["exercise"], seed)]
    if len(names) != trees:
        raise ValueError("not this version's trees")
    failing, words = row["failing"], {}
    failed = [number for number, outcome in enumerate(outcomes, start=1) if outcome != "right"]
    for position, number in enumerate(failed):
        head = f"tree {number} of {trees} ({names[number - 1]}): {outcomes[number - 1]}: "
        start = failing.find(head)
        following = (f"\n\ntree {failed[position + 1]} of {trees} ({names[failed[position + 1] - 1]}): "
                     if position + 1 < len(failed) else None)
        end = failing.find(following, start) if following is not None and start >= 0 else -1
        words[number] = failing[start + len(head):end if end >= 0 else len(failing)] if start >= 0 else ""
    results = tuple(TreeResult(name, outcome, words.get(number, ""))
                    for number, (name, outcome) in enumerate(zip(names, outcomes), start=1))
    possible = float(row["possible"])
    grade = Grade(row["student"], row["exercise"], row["file"], row["sha256"], int(row["passed"]), trees,
                  row["outcome"], row["tree"], row["verdict"], float(row["seconds"]), row["boundary"], row["folder"],
                  results, None if possible == trees else possible, row["id"], row["name"], row["note"], seed)
    if not (0 < possible <= MAX_POINTS and math.isfinite(possible)):
        raise ValueError("points possible out of range")
    return grade


def key_path(out: str | Path) -> Path:
    """Where the key that signs the rows of the grades CSV ``out`` is kept: ``.NAME.key`` beside
    it (``grades.csv``: ``.grades.csv.key``)."""
    out = Path(out)
    return out.parent / f".{out.name}.key"


def grading_key(out: str | Path) -> bytes:
    """The key (:data:`KEY_BYTES` bytes) that signs the rows of the grades CSV ``out``, read from
    :func:`key_path`, or, if there is no such file, made (``secrets``) and written there in a new
    file (``O_CREAT | O_EXCL``, never through a symlink) of mode 0600. A key file is used only if it
    is a regular file with one name, owned by this user, that no one else may read or write, holding
    the key as hexadecimal digits. Raises ValueError saying what is wrong with it otherwise (delete
    it: the next run makes a new key and checks every student again), OSError if it cannot be
    written or read."""
    path = key_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | flags, 0o600)
    except FileExistsError:
        return _read_key(path)
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(key.hex() + "\n")
        file.flush()
        os.fsync(file.fileno())
    return key


def _read_key(path: Path) -> bytes:
    """The key in the existing key file ``path``; ValueError if it is not this user's private file
    holding a key."""
    def refused(why: str) -> ValueError:
        return ValueError(f"{path}, the key that signs the grades, {why}: delete it and run again (every student "
                          "is then checked again)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if path.is_symlink():
            raise refused("is a symlink") from None
        raise error
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            raise refused("is not a regular file with one name")
        if info.st_uid != os.geteuid():
            raise refused(f"belongs to another user (uid {info.st_uid})")
        if stat.S_IMODE(info.st_mode) & 0o077:
            raise refused(f"may be read or written by others (mode {stat.S_IMODE(info.st_mode):04o}, not 0600)")
        text = file.read(4 * KEY_BYTES).decode("ascii", "replace").strip()
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise refused(f"does not hold a key ({2 * KEY_BYTES} hexadecimal digits)")
    return key


def _write_csv(out: Path, grades: dict[str, Grade], key: bytes) -> None:
    """Write ``grades`` to ``out`` (:func:`write_atomically`), sorted by student, each row signed."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=CSV_FIELDS)
    writer.writeheader()
    for student in sorted(grades):
        row = grades[student].row()
        writer.writerow({**row, "signature": sign_row(key, row)})
    write_atomically(out, text.getvalue())


def _write_results(exercise: str, folder: Path, grades: Iterable[Grade]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for grade in grades:
        (folder / f"{grade.student}.json").write_text(
            json.dumps(gradescope_results(exercise, grade), indent=1), encoding="utf-8")
