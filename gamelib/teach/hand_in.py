"""A class's hand-in as an LMS gives it out: who handed in which file, read from the folder's layout and a roster.

:func:`find_submissions` reads a folder of submissions in any of the layouts instructors download:

- **one file per student**, named by the student (``ada.py``, ``bob.ipynb``): the student is the file's stem, or
  its whole name where a stem would name two files (``x.py``, ``x.ipynb`` and ``x.py.py`` are three students);
- **one folder per student** (``ada/answer.py``), the student the folder's name;
- **Canvas**'s download: one file per submission named ``name_ID_SUBMISSION_file`` (``name_LATE_ID_...`` when
  late), ``ID`` the student's Canvas user id;
- **Moodle**'s download with "download submissions in folders": one folder per student named
  ``Full Name_ID_assignsubmission_file_`` (or ``..._onlinetext_``), ``ID`` the participant's number, which is
  also the ``Participant ID`` identifier of Moodle's grading worksheet.

Every entry becomes a :class:`Submission`, and so a row: a student's folder with one ``.py`` or ``.ipynb`` file
is that file; with none, with several, or empty, it is a row saying so (``problem``); a file of another kind at
the top (``notes.txt``) is a row saying it is not graded. Hidden entries (a name starting with ``.``) are
skipped. Nothing is read here but names and kinds (:func:`os.scandir`, never following a symlink): the grader
reads each file safely (:mod:`gamelib.teach.grading`).

:func:`read_roster` reads a roster CSV (columns ``id`` and ``name``, optionally ``email``), and
:func:`match_roster` gives every student on it a row: a submission matched by id, by e-mail's user name or by
name (case and spacing aside) takes the roster's id and name; a student who handed in nothing gets a row saying
so; a submission that matches no one keeps its row, noted "not on the roster".
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ["GRADED_SUFFIXES", "MAX_ROSTER_ROWS", "RosterEntry", "Submission", "find_submissions", "folder_submission",
           "match_roster", "read_roster"]

GRADED_SUFFIXES = (".py", ".ipynb")
"""The kinds of file the grader grades."""

MAX_ROSTER_ROWS = 10_000
"""The most students a roster may hold."""

_MAX_DEPTH = 4
"""How deep inside a student's folder files are looked for (Moodle keeps a submission's own folders)."""

_CANVAS = re.compile(r"^(?P<name>[^_]+?)(?:_LATE)?_(?P<id>\d+)_(?P<submission>\d+)_(?P<file>.+)$")
"""A Canvas download's file name: the student's name in lower case without spaces, LATE if late, the Canvas
user id, the submission's id, then the file's own name (Canvas may add ``-1`` before a resubmission's suffix)."""

_MOODLE = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_?$")
"""A Moodle download's folder name: the full name, the participant id, the submission plugin."""


@dataclass(frozen=True)
class Submission:
    """One row of a class's hand-in: ``student`` the row's key (the id where the layout or roster gives one, else
    a name), ``name`` and ``student_id`` as the layout or roster give them, ``path`` the file to grade (None when
    there is nothing to grade, and ``problem`` says why), ``layout`` where the row came from (``file``,
    ``folder``, ``canvas``, ``moodle`` or ``roster``), ``note`` a remark for the instructor ("not on the
    roster")."""

    student: str
    name: str
    student_id: str
    path: Path | None
    problem: str = ""
    layout: str = "file"
    note: str = ""
    email: str = ""


@dataclass(frozen=True)
class RosterEntry:
    """A student on the roster: ``student_id``, ``name`` and ``email`` (may be empty)."""

    student_id: str
    name: str
    email: str = ""


def find_submissions(folder: str | Path) -> list[Submission]:
    """Every submission in ``folder``, one a student and one for every other entry (see the module's docstring),
    sorted by ``student``; each ``student`` distinct. Raises NotADirectoryError if ``folder`` is not a folder."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder of submissions")
    with os.scandir(folder) as scan:
        entries = sorted((entry for entry in scan if not entry.name.startswith(".")), key=lambda entry: entry.name)
    files = [entry for entry in entries if not entry.is_dir(follow_symlinks=False)]
    folders = [entry for entry in entries if entry.is_dir(follow_symlinks=False)]
    found = _canvas_or_files(folder, files) + [folder_submission(folder / entry.name) for entry in folders]
    return _distinct(found)


def _canvas_or_files(folder: Path, files: list[os.DirEntry[str]]) -> list[Submission]:
    """The loose files: Canvas's when every graded one is named as Canvas names them, else one a student."""
    graded = [entry.name for entry in files if entry.name.endswith(GRADED_SUFFIXES)]
    if graded and all(_CANVAS.match(name) for name in graded):
        return _canvas(folder, files)
    names = {entry.name for entry in files}
    stems = [Path(name).stem for name in graded]
    found = []
    for entry in files:
        path = folder / entry.name
        if not entry.name.endswith(GRADED_SUFFIXES):
            found.append(Submission(entry.name, "", "", None, _not_graded(entry.name), "file"))
            continue
        stem = path.stem
        student = stem if stems.count(stem) == 1 and stem not in names else entry.name
        found.append(Submission(student, "", "", path, "", "file"))
    return found


def _canvas(folder: Path, files: list[os.DirEntry[str]]) -> list[Submission]:
    """Canvas's files, grouped by user id: one graded file a student is that file; several, a row saying so."""
    by_id: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    found = []
    for entry in files:
        match = _CANVAS.match(entry.name)
        if match is None:
            found.append(Submission(entry.name, "", "", None, _not_graded(entry.name), "canvas"))
            continue
        by_id.setdefault(match["id"], []).append(entry.name)
        names[match["id"]] = match["name"]
    for student_id, handed in sorted(by_id.items()):
        graded = [name for name in handed if name.endswith(GRADED_SUFFIXES)]
        path = folder / graded[0] if len(graded) == 1 else None
        found.append(Submission(student_id, names[student_id], student_id, path,
                                _choice_problem(graded, handed), "canvas"))
    return found


def folder_submission(path: Path) -> Submission:
    """A student's folder (Moodle's, or named by the student, or Gradescope's submission folder): its one graded
    file, or why there is none."""
    match = _MOODLE.match(path.name)
    name, student_id, layout = (match["name"], match["id"], "moodle") if match else (path.name, "", "folder")
    inside = _files_inside(path)
    graded = [relative for relative in inside if relative.endswith(GRADED_SUFFIXES)]
    chosen = path / graded[0] if len(graded) == 1 else None
    return Submission(student_id or path.name, name, student_id, chosen, _choice_problem(graded, inside), layout)


def _files_inside(folder: Path) -> list[str]:
    """The files (of any kind but folders; hidden ones left out) in ``folder`` and below, as paths relative to it,
    at most :data:`_MAX_DEPTH` levels down, looked at without following symlinks."""
    found: list[str] = []
    waiting = [(folder, 0)]
    while waiting:
        current, depth = waiting.pop()
        try:
            with os.scandir(current) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 < _MAX_DEPTH:
                    waiting.append((current / entry.name, depth + 1))
            else:
                found.append(str((current / entry.name).relative_to(folder)))
    return sorted(found)


def _choice_problem(graded: list[str], handed: list[str]) -> str:
    """Why a student's files give no one file to grade, or "" when they do."""
    if len(graded) == 1:
        return ""
    if len(graded) > 1:
        return f"several files to grade ({', '.join(graded[:10])}): hand in one .py or .ipynb file"
    if handed:
        return f"no .py or .ipynb file to grade (handed in: {', '.join(handed[:10])})"
    return "an empty folder: nothing handed in"


def _not_graded(name: str) -> str:
    kind = Path(name).suffix or "a file without a suffix"
    return f"not graded: {kind} files are not graded; hand in a .py or .ipynb file"


def _distinct(found: list[Submission]) -> list[Submission]:
    """The submissions, sorted by student, each key made distinct (a second ``ada`` becomes ``ada (2)``)."""
    seen: dict[str, int] = {}
    distinct = []
    for submission in sorted(found, key=lambda each: (each.student, each.path is None, str(each.path))):
        count = seen.get(submission.student, 0) + 1
        seen[submission.student] = count
        distinct.append(submission if count == 1 else replace(submission, student=f"{submission.student} ({count})"))
    return sorted(distinct, key=lambda each: each.student)


def read_roster(path: str | Path) -> list[RosterEntry]:
    """The students of the roster CSV ``path``: a header row naming ``id`` and ``name`` (and optionally
    ``email``; other columns are ignored, names are read whatever their case), then a row a student. Raises
    ValueError saying what and where for a file that is not such a CSV, a row without an id, an id given twice
    or more than :data:`MAX_ROSTER_ROWS` rows; OSError if it cannot be read."""
    path = Path(path)
    with path.open(newline="", encoding="utf-8-sig") as file:
        reader = csv.DictReader(file)
        columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
        if "id" not in columns or "name" not in columns:
            raise ValueError(f"{path}: a roster needs the columns id and name (and may have email); its header has "
                             f"{', '.join(name for name in columns if name) or 'none'}")
        entries: list[RosterEntry] = []
        ids: set[str] = set()
        for line, row in enumerate(reader, start=2):
            if len(entries) >= MAX_ROSTER_ROWS:
                raise ValueError(f"{path}: more than {MAX_ROSTER_ROWS:,} students")
            student_id = (row.get(columns["id"]) or "").strip()
            name = " ".join((row.get(columns["name"]) or "").split())
            email = (row.get(columns["email"]) or "").strip() if "email" in columns else ""
            if not student_id and not name and not email:
                continue  # a blank line
            if not student_id:
                raise ValueError(f"{path}, line {line}: no id for {name or email}")
            if student_id in ids:
                raise ValueError(f"{path}, line {line}: the id {student_id} is given twice")
            ids.add(student_id)
            entries.append(RosterEntry(student_id, name, email))
    return entries


def match_roster(submissions: list[Submission], roster: list[RosterEntry]) -> list[Submission]:
    """``submissions`` with the roster's ids and names (matched by id, by the e-mail's user name, or by name, case
    and spacing aside; each roster entry matched at most once, in that order), a row for each student on the
    roster who handed in nothing, and those matching no one noted so. Sorted by student, each distinct."""
    left = list(roster)
    matched: list[Submission] = []
    for submission in submissions:
        if submission.path is None and submission.layout == "file":  # a loose file of another kind: no student's
            matched.append(submission)
            continue
        entry = _find(submission, left)
        if entry is None:
            matched.append(replace(submission, note="not on the roster"))
            continue
        left.remove(entry)
        matched.append(replace(submission, student=entry.student_id, student_id=entry.student_id,
                               name=entry.name or submission.name, email=entry.email))
    matched += [Submission(entry.student_id, entry.name, entry.student_id, None, "nothing handed in", "roster",
                           email=entry.email) for entry in left]
    return _distinct(matched)


def _normal(text: str) -> str:
    """A name or id as compared with the roster's: lower case, ``_`` as a space, runs of spaces as one."""
    return " ".join(text.lower().replace("_", " ").split())


def _find(submission: Submission, roster: list[RosterEntry]) -> RosterEntry | None:
    """The roster entry ``submission`` is: the first with its id, else its key or name as the entry's id, the
    user name of the entry's e-mail, or the entry's name."""
    keys = {_normal(text) for text in (submission.student, submission.name) if text}
    if submission.student_id:
        found = next((entry for entry in roster if entry.student_id == submission.student_id), None)
        if found is not None:
            return found
    for field in ("id", "email", "name"):
        for entry in roster:
            text = {"id": entry.student_id, "email": entry.email.split("@")[0], "name": entry.name}[field]
            if text and _normal(text) in keys:
                return entry
    return None
