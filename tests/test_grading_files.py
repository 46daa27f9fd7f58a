"""Files and names in grading: a name a spreadsheet would read as a formula is written harmless and
read back as it was; symlinks, FIFOs and folders get a row saying why they were not graded and are
never opened; a grades CSV is never replaced by another folder's grades; every error names its file;
the tree notation refuses digits other than ASCII's, naming the column."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from gamelib.cli import main
from gamelib.games.user_text import spreadsheet_safe
from gamelib.play.box.sandbox import Limits
from gamelib.teach.grading import default_out, grade_folder
from tests.hostile import RIGHT, SECRET

LIMITS = Limits(seconds=5)
FORMULA = '=HYPERLINK("http:\\\\evil";"full marks")'
"""A student name (a file's stem) that a spreadsheet would run as a formula."""


def cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def test_formula_cells_are_neutralised_and_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / f"{FORMULA}.py").write_text(RIGHT, encoding="utf-8")
    (folder / "+1.py").write_text("def my_minimax(tree, node)\n", encoding="utf-8")  # a syntax error
    out = tmp_path / "grades.csv"
    grades = grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert {grade.student: grade.outcome for grade in grades} == {FORMULA: "right", "+1": "error"}
    written = cells(out)
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in written for cell in row)
    assert [row[0] for row in written[1:]] == sorted([spreadsheet_safe("+1"), spreadsheet_safe(FORMULA)])
    again = grade_folder("minimax", folder, out, limits=LIMITS, progress=False)  # resumed: nothing re-checked
    assert [grade.row() for grade in again] == [grade.row() for grade in grades]


def test_odd_files_get_a_row_and_are_never_opened(tmp_path: Path) -> None:
    folder, outside = tmp_path / "class", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (outside / "answer.py").write_text(RIGHT + f"# {SECRET}\n", encoding="utf-8")
    (folder / "linked.py").symlink_to(outside / "answer.py")
    (folder / "dangling.py").symlink_to(outside / "missing.py")
    os.mkfifo(folder / "piped.py")  # opening it for reading would wait for a writer for ever
    (folder / "folder.py").mkdir()
    (folder / "latin1.py").write_bytes(b"# caf\xe9\n")
    out = tmp_path / "grades.csv"
    grades = {grade.student: grade for grade in grade_folder("minimax", folder, out, limits=LIMITS, progress=False)}
    said = {student: grade.verdict for student, grade in grades.items()}
    assert said == {
        "dangling": "dangling.py: not graded: it is a symlink, not a regular file; submit the file itself",
        "folder.py": "an empty folder: nothing handed in",  # a folder is a student's folder, whatever its name
        "latin1": "latin1.py: cannot read it: not UTF-8 text (byte 0xe9 at offset 5)",
        "linked": "linked.py: not graded: it is a symlink, not a regular file; submit the file itself",
        "piped": "piped.py: not graded: it is a FIFO (named pipe), not a regular file; submit the file itself"}
    assert {grade.outcome for grade in grades.values()} == {"error"}
    assert SECRET not in out.read_text(encoding="utf-8")


def test_a_grades_csv_is_never_replaced_by_another_folders_grades(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "monday", tmp_path / "tuesday"
    for folder in (first, second):
        folder.mkdir()
        (folder / "ada.py").write_text(RIGHT, encoding="utf-8")
    out = tmp_path / "grades.csv"
    assert main(["grade", "minimax", str(first), "--out", str(out), "--quiet"]) == 0
    before = out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["grade", "minimax", str(second), "--out", str(out), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert f"holds the grades of another folder, {first.resolve()}" in error and error.count("\n") == 1
    assert out.read_text(encoding="utf-8") == before
    assert default_out(first) == Path("grades-monday.csv") != default_out(second)


@pytest.mark.parametrize("text, column", [("(٣ 1)", 2), ("((1 2) (3 ۴))", 11), ("[0 ١٥] (1 2)", 4)])
def test_digits_other_than_ascii_are_refused_with_their_column(capsys: pytest.CaptureFixture[str], text: str,
                                                               column: int) -> None:
    assert main(["trace", "minimax", "--tree", text]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert f"column {column}: " in captured.err and "ASCII digits 0-9" in captured.err
