"""A class's grades as the gradebooks instructors upload them to take: Canvas's and Moodle's CSV files.

The grader's own CSV (:mod:`gamelib.teach.grading`) keeps everything a rerun needs; these files keep what an LMS
imports, one row a student, the points earned:

- :func:`canvas_csv`: Canvas's gradebook import, the columns ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section`` (Canvas needs one of the first three to find the student, and the Login ID and
  Section columns present), then one column for the assignment, holding the points. ``ID`` is the student's
  Canvas user id where the hand-in's layout (Canvas's download) or the roster gives one.
- :func:`moodle_csv`: the grading worksheet of a Moodle assignment ("Upload grading worksheet"), the columns
  ``Identifier`` (``Participant N``, the number in the download's folder names), ``Full name``,
  ``Email address``, ``Grade``, ``Maximum Grade`` and ``Feedback comments``.

Rows that are no student's (a loose file of another kind) are left out; so, in Moodle's file, are students
without a participant number, which Moodle could not place (:func:`moodle_csv` says how many). Every cell is
:func:`~gamelib.games.user_text.spreadsheet_safe`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from gamelib.games.user_text import spreadsheet_safe
from gamelib.teach.grading import Grade

__all__ = ["CANVAS_FIELDS", "FORMATS", "MOODLE_FIELDS", "canvas_csv", "moodle_csv", "students"]

FORMATS = ("csv", "canvas", "moodle")
"""The grader's output formats: its own CSV, Canvas's gradebook import, Moodle's grading worksheet."""

CANVAS_FIELDS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""Canvas's gradebook import's columns before the assignments'."""

MOODLE_FIELDS = ("Identifier", "Full name", "Email address", "Grade", "Maximum Grade", "Feedback comments")
"""A Moodle assignment's grading worksheet's columns, as this grader fills them."""


def students(grades: Iterable[Grade]) -> list[Grade]:
    """The grades that are a student's: those of a file graded or of a student the layout or roster names."""
    return [grade for grade in grades if grade.file or grade.student_id or grade.name]


def canvas_csv(grades: Iterable[Grade], assignment: str) -> str:
    """Canvas's gradebook import for ``grades``: :data:`CANVAS_FIELDS`, then the column ``assignment`` (Canvas
    matches it to the assignment by name, or by ``Name (id)`` as its own export writes it) with each student's
    points. Raises ValueError for an empty assignment name."""
    if not assignment.strip():
        raise ValueError("the assignment's column needs a name (--assignment)")
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([*CANVAS_FIELDS, assignment])
    for grade in students(grades):
        writer.writerow([spreadsheet_safe(cell) for cell in (grade.name or grade.student, grade.student_id, "", "", "")]
                        + [f"{grade.points:.4g}"])
    return text.getvalue()


def moodle_csv(grades: Iterable[Grade]) -> tuple[str, int]:
    """A Moodle assignment's grading worksheet for ``grades`` (:data:`MOODLE_FIELDS`): each student with a
    participant number, the points as the grade, the points possible as the maximum, and the first failing tree's
    words as the feedback. Returns the CSV and how many students were left out for want of a participant
    number."""
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(MOODLE_FIELDS)
    left_out = 0
    for grade in students(grades):
        if not grade.student_id.isdigit():
            left_out += 1
            continue
        feedback = "right on every tree" if grade.ok else f"{grade.passed} of {grade.trees} trees right. {grade.verdict}"
        writer.writerow([spreadsheet_safe(cell) for cell in (f"Participant {grade.student_id}", grade.name, "")]
                        + [f"{grade.points:.4g}", f"{grade.max_points:g}", spreadsheet_safe(feedback[:2000])])
    return text.getvalue(), left_out
