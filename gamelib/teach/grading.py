"""Grade a class: every student's file checked on an exercise's trees, each in the sandbox.

:func:`grade_folder` takes a folder with one ``.py`` or ``.ipynb`` file per student, checks each with
:func:`gamelib.teach.code_check.check_source` (a child process with time and memory limits: never in
the grader's process) and writes one CSV row per student (:data:`CSV_FIELDS`) and, per student, a
file in the shape of Gradescope's autograder ``results.json`` (``score``, ``tests`` with ``name``,
``score``, ``max_score``, ``status``, ``output``; see
https://gradescope-autograders.readthedocs.io/en/latest/specs/). :func:`grade_file` grades one
file, as Gradescope's autograder does one submission at a time. A submission that is broken, loops
forever or ends its own process costs at most its time limit and becomes a row saying so; the run
goes on. Rows are appended to the CSV as they finish, and a rerun skips every student whose row
has the same file hash (resuming); the checks run on a pool of threads, each waiting on its
sandbox child. Each row says which boundary the check ran in (``isolated``: bubblewrap's box, or
``guard only``), and which folder it graded: a CSV of another folder's grades is never replaced.

Files are read safely: a symlink, a FIFO, a folder or any other file that is not a regular file
gets a row saying why it was not graded, and is never opened (a submission is opened without
following links, so nothing outside the folder is read). A cell a spreadsheet would read as a
formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a
``'`` before it, and read back without it.

The score is the share of the exercise's trees passed. The checker stops at the first tree where
the student's search departs from the reference (:func:`gamelib.teach.exercises.check_exercise`),
so the trees after it count as not passed: a score of 2/5 says "right on the first two trees".

>>> source = "def my_minimax(tree, node):\\n    return 0\\n"
>>> grade = grade_source("minimax", "ada", source)
>>> grade.ok, grade.passed, grade.trees, grade.tree
(False, 0, 6, "Broeders' 31-node binary tree")
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gamelib.play.arena import progress_bar
from gamelib.play.boundary import GUARD_ONLY, boundary
from gamelib.teach.code_check import SourceVerdict, check_source, function_name
from gamelib.teach.exercises import EXERCISES, UnknownExerciseError
from gamelib.teach.sandbox import Limits

__all__ = ["CSV_FIELDS", "MAX_FILE_BYTES", "MAX_GRADING_WORKERS", "OUTCOMES", "Grade", "default_out", "grade_file",
           "grade_folder", "grade_source", "gradescope_results", "notebook_source", "spreadsheet_safe",
           "submission_source"]

MAX_FILE_BYTES = 16 * 2**20
"""The largest submission file read, in bytes (a notebook with big outputs fits; the code in it
must still be at most :data:`gamelib.teach.code_check.MAX_SOURCE_CHARACTERS` characters)."""

MAX_GRADING_WORKERS = 32
"""The most submissions checked at once (each a sandbox child)."""

OUTCOMES = ("right", "wrong", "timeout", "error")
"""How a submission's check can end (the CSV's ``outcome``)."""

CSV_FIELDS = ("student", "exercise", "file", "sha256", "score", "passed", "trees", "ok", "outcome", "tree", "verdict",
              "seconds", "boundary", "folder")
"""The columns of the grades CSV: ``score`` (passed / trees, 0 to 1), ``outcome`` one of ``right``,
``wrong`` (the search departs from the reference: ``verdict`` says where, ``tree`` on which tree),
``timeout`` (it ran out of time) or ``error`` (it did not run: a syntax error, no function, a
crash, a file that is not graded or cannot be read; ``verdict`` says what), ``seconds`` of
wall-clock time the check took, ``boundary`` the box it ran in (``isolated`` or ``guard only``),
``folder`` the folder of submissions graded (its full path); ``exercise`` and the file's ``sha256``
tell a rerun which rows still hold."""


@dataclass(frozen=True)
class Grade:
    """One student's result on ``exercise``: ``passed`` of the exercise's ``trees``; ``outcome`` and ``verdict`` as
    :data:`CSV_FIELDS` says; ``tree`` the name of the tree where the search first departs (or
    empty); ``file`` and ``sha256`` the file graded and its hash (for resuming)."""

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

    @property
    def score(self) -> float:
        """The share of trees passed, 0 to 1 (1.0 only when every tree passes)."""
        return self.passed / self.trees if self.trees else 0.0

    @property
    def ok(self) -> bool:
        """True if the search agrees with the reference on every tree."""
        return self.outcome == "right"

    def row(self) -> dict[str, str]:
        """The CSV row, every cell :func:`spreadsheet_safe`."""
        data = {**asdict(self), "score": f"{self.score:.4g}", "ok": str(self.ok).lower(),
                "seconds": f"{self.seconds:.2f}"}
        return {name: spreadsheet_safe(str(data[name])) for name in CSV_FIELDS}


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def spreadsheet_safe(cell: str) -> str:
    """``cell`` with a ``'`` before it if a spreadsheet would read it as a formula (it starts with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return; OWASP's advice on CSV injection) or starts
    with ``'`` itself; :func:`_unsafe` undoes it.

    >>> print(spreadsheet_safe('=HYPERLINK("http://x", "ok")'), spreadsheet_safe("ada"))
    '=HYPERLINK("http://x", "ok") ada
    """
    return "'" + cell if cell.startswith(_FORMULA_STARTS) else cell


def _unsafe(cell: str) -> str:
    """The cell as it was before :func:`spreadsheet_safe`."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA_STARTS) else cell


def notebook_source(raw: str) -> str:
    """The Python code of a notebook (its JSON text): the code cells' sources, in order, one blank
    line apart, without IPython's extras: a cell starting with a cell magic (``%%time``) is left
    out, and so are lines of line magics (``%matplotlib``), shell commands (``!pip``) and help
    (``len?``). Raises ValueError if the text is not a notebook."""
    try:
        notebook = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"not a notebook: its JSON is invalid ({error})") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise ValueError("not a notebook: it has no list of cells")
    sources: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        if text.lstrip().startswith("%%"):
            continue
        sources.append("\n".join(line for line in text.splitlines() if not _ipython_only(line)))
    return "\n\n".join(sources) + "\n"


def _ipython_only(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("%", "!")) or (stripped.endswith("?") and not stripped.startswith("#"))


def submission_source(path: Path) -> str:
    """The Python code of a submission: a ``.py`` file's text, or a notebook's code
    (:func:`notebook_source`). Raises ValueError for a file that is too big, not a regular file (a
    symlink is not followed), not UTF-8 or not a notebook, OSError if it cannot be read."""
    return _source_of(path, _read_submission(path))


def _read_submission(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (at most :data:`MAX_FILE_BYTES` + 1), opened without
    following a symlink and without blocking on a FIFO. Raises ValueError for anything but a
    regular file (saying what it is), OSError if it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if path.is_symlink():
            raise ValueError(_odd_file(path)) from None
        raise error
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ValueError(_odd_file(path))
    with os.fdopen(fd, "rb") as file:
        return file.read(MAX_FILE_BYTES + 1)


def _odd_file(path: Path) -> str:
    """Why ``path`` is not graded: what kind of file it is."""
    try:
        mode = path.lstat().st_mode
    except OSError as error:
        return f"it cannot be looked at ({error.strerror})"
    kinds = ((stat.S_ISLNK, "a symlink"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISDIR, "a folder"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"not graded: it is {kind}, not a regular file; submit the file itself"


def _source_of(path: Path, raw: bytes) -> str:
    """The code in the bytes ``raw`` of the submission ``path``."""
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"the file is larger than {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte {raw[error.start]:#04x} at offset {error.start})") from None
    return notebook_source(text) if path.suffix == ".ipynb" else text


def grade_source(exercise: str, student: str, source: str, limits: Limits = Limits(), *, file: str = "",
                 sha256: str = "") -> Grade:
    """Check ``source`` for ``exercise`` in the sandbox within ``limits`` and grade it. Raises
    UnknownExerciseError for an unknown exercise."""
    started = time.monotonic()
    verdict = check_source(exercise, source, limits)
    seconds = time.monotonic() - started
    return _grade(verdict, student, file, sha256, seconds, timed_out=seconds >= limits.seconds)


def _grade(verdict: SourceVerdict, student: str, file: str, sha256: str, seconds: float, *,
           timed_out: bool) -> Grade:
    trees = len(EXERCISES[verdict.exercise].trees())
    report, box = verdict.report, verdict.boundary
    if report is None:
        outcome = "timeout" if timed_out else "error"
        return Grade(student, verdict.exercise, file, sha256, 0, trees, outcome, "", verdict.message, seconds, box)
    passed = sum(each.ok for each in report.reports)
    if report.ok:
        return Grade(student, verdict.exercise, file, sha256, passed, trees, "right", "", "", seconds, box)
    failure = report.reports[-1]
    return Grade(student, verdict.exercise, file, sha256, passed, trees, "wrong", report.tree_name or "",
                 str(failure), seconds, box)


def grade_file(exercise: str, path: str | Path, limits: Limits = Limits(), *, student: str | None = None) -> Grade:
    """Grade one submission file (``.py`` or ``.ipynb``); an unreadable file is an ``error`` grade,
    not an exception. Raises UnknownExerciseError for an unknown exercise."""
    path = Path(path)
    name = student if student is not None else path.stem
    _check_exercise(exercise)
    try:
        raw = _read_submission(path)
        digest = hashlib.sha256(raw).hexdigest()
        source = _source_of(path, raw)
    except (OSError, ValueError) as error:
        trees = len(EXERCISES[exercise].trees())
        said = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        verb = "" if said.startswith("not graded") else "cannot read it: "
        return Grade(name, exercise, path.name, "", 0, trees, "error", "", f"{path.name}: {verb}{said}", 0.0,
                     boundary())
    return grade_source(exercise, name, source, limits, file=path.name, sha256=digest)


def gradescope_results(exercise: str, grade: Grade) -> dict[str, Any]:
    """The grade in the shape of Gradescope's autograder ``results.json``: ``score`` (trees
    passed), ``output`` (the verdict), and one test a tree (``name``, ``score``, ``max_score`` 1,
    ``status`` ``passed`` or ``failed``, ``output``)."""
    names = [tree.name for tree in EXERCISES[exercise].trees()]
    tests = []
    for index, name in enumerate(names):
        passed = index < grade.passed
        if passed:
            said = "right: the same visits and value as the reference"
        elif index == grade.passed:  # where it departed, or what stopped it
            said = grade.verdict
        else:
            said = f"not checked: the check stops at the first tree that fails (tree {grade.passed + 1})"
        tests.append({"name": f"{function_name(exercise)} on tree {index + 1} of {len(names)}: {name}",
                      "score": int(passed), "max_score": 1, "status": "passed" if passed else "failed",
                      "output": said})
    summary = (f"{exercise}: right on all {grade.trees} trees." if grade.ok
               else f"{exercise}: {grade.outcome} ({grade.passed} of {grade.trees} trees). {grade.verdict}")
    return {"score": grade.passed, "execution_time": round(grade.seconds, 2), "output": summary, "tests": tests}


def grade_folder(exercise: str, folder: str | Path, out: str | Path, results: str | Path | None = None,
                 limits: Limits = Limits(), *, workers: int = 2, progress: bool = True) -> list[Grade]:
    """Grade every ``.py`` and ``.ipynb`` file directly in ``folder`` (one per student, named by the
    file's stem; by the whole file name when two files share a stem) and write the CSV ``out``
    (:data:`CSV_FIELDS`, sorted by student) and, if ``results`` is a folder name, one Gradescope
    ``STUDENT.json`` there. Every file gets a row, whatever another file does; a file that is not a
    regular file (a symlink, a FIFO, a folder) gets an ``error`` row saying why, unopened. Students
    already in ``out`` with the same exercise and file hash are not checked again. ``workers`` (1 to :data:`MAX_GRADING_WORKERS`) checks run at once; ``progress`` shows a
    tqdm bar on stderr. Returns the grades, sorted by student. Raises UnknownExerciseError,
    ValueError for a bad ``workers`` or an ``out`` that exists and is not this exercise's and this
    folder's grades CSV, NotADirectoryError if ``folder`` is not a folder."""
    _check_exercise(exercise)
    if not 1 <= workers <= MAX_GRADING_WORKERS:
        raise ValueError(f"workers is {workers}: give 1 to {MAX_GRADING_WORKERS}")
    folder, out = Path(folder), Path(out)
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder of submissions")
    where = str(folder.resolve())
    submissions = _submissions(folder)
    earlier = _earlier_grades(out, exercise, where)
    kept = {student: grade for student, grade in earlier.items()
            if student in submissions and grade.sha256 and grade.sha256 == _hash(submissions[student])}
    todo = {student: path for student, path in submissions.items() if student not in kept}
    _write_csv(out, kept.values())
    lock = threading.Lock()
    grades = dict(kept)
    with ThreadPoolExecutor(max_workers=workers) as pool, progress_bar(
            total=len(submissions), initial=len(kept), disable=not progress, desc=f"grading {exercise}",
            unit="student") as bar:
        futures = {pool.submit(grade_file, exercise, path, limits, student=student): student
                   for student, path in sorted(todo.items())}
        for future in as_completed(futures):
            grade = replace(_safely(future.result, futures[future], exercise, todo[futures[future]]), folder=where)
            with lock:
                grades[grade.student] = grade
                _append_csv(out, grade)
            bar.update(1)
    ordered = [grades[student] for student in sorted(grades)]
    _write_csv(out, ordered)
    if results is not None:
        _write_results(exercise, Path(results), ordered)
    return ordered


def _safely(result: Callable[[], Grade], student: str, exercise: str, path: Path) -> Grade:
    """The grade, or an ``error`` grade naming the file if grading itself failed (it never stops the run)."""
    try:
        return result()
    except Exception as error:  # noqa: BLE001 - one student's failure must not stop the class's
        return Grade(student, exercise, path.name, "", 0, len(EXERCISES[exercise].trees()), "error", "",
                     f"{path.name}: the grader failed on this file: {type(error).__name__}: {error}", 0.0, boundary())


def _check_exercise(exercise: str) -> None:
    if exercise not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {exercise!r}: use one of {', '.join(EXERCISES)}")


def _submissions(folder: Path) -> dict[str, Path]:
    """The submissions directly in ``folder``, by student: every name ending in ``.py`` or ``.ipynb``,
    whatever kind of file it is (odd ones get a row saying why they were not graded), looked at
    without following symlinks."""
    with os.scandir(folder) as entries:
        files = sorted(folder / entry.name for entry in entries if entry.name.endswith((".py", ".ipynb")))
    stems = [path.stem for path in files]
    return {(path.stem if stems.count(path.stem) == 1 else path.name): path for path in files}


def _hash(path: Path) -> str:
    try:
        return hashlib.sha256(_read_submission(path)).hexdigest()
    except (OSError, ValueError):
        return ""


def default_out(folder: str | Path) -> Path:
    """The grades CSV of ``folder`` unless another is named: ``grades-FOLDER.csv`` in the working
    folder, one a folder of submissions."""
    return Path(f"grades-{Path(folder).resolve().name or 'root'}.csv")


def _earlier_grades(out: Path, exercise: str, folder: str) -> dict[str, Grade]:
    """The grades already in the CSV ``out``. Raises ValueError if ``out`` exists but is not a
    grades CSV, or holds grades of another exercise or of another folder (rather than replace
    either)."""
    if not out.exists():
        return {}
    grades: dict[str, Grade] = {}
    with out.open(newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        if reader.fieldnames is not None and tuple(reader.fieldnames) != CSV_FIELDS:
            raise ValueError(f"{out} exists and is not a grades CSV of this version: give another --out")
        for raw in reader:
            row = {name: _unsafe(value or "") for name, value in raw.items() if isinstance(name, str)}
            try:
                grades[row["student"]] = Grade(
                    row["student"], row["exercise"], row["file"], row["sha256"], int(row["passed"]),
                    int(row["trees"]), row["outcome"], row["tree"], row["verdict"], float(row["seconds"]),
                    row["boundary"], row["folder"])
            except (KeyError, ValueError, TypeError):
                continue
    others = sorted({grade.exercise for grade in grades.values()} - {exercise})
    if others:
        raise ValueError(f"{out} holds grades of the {others[0]} exercise: give another --out for {exercise}")
    folders = sorted({grade.folder for grade in grades.values()} - {folder})
    if folders:
        raise ValueError(f"{out} holds the grades of another folder, {folders[0]}: give another --out for {folder}")
    return grades


def _write_csv(out: Path, grades: Iterable[Grade]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(grade.row() for grade in grades)


def _append_csv(out: Path, grade: Grade) -> None:
    with out.open("a", newline="", encoding="utf-8") as file:
        csv.DictWriter(file, fieldnames=CSV_FIELDS).writerow(grade.row())


def _write_results(exercise: str, folder: Path, grades: Iterable[Grade]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for grade in grades:
        (folder / f"{grade.student}.json").write_text(
            json.dumps(gradescope_results(exercise, grade), indent=1), encoding="utf-8")
