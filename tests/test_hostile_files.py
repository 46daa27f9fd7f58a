"""Attacks through files rather than code (issue 32): cells a spreadsheet would run as formulas, in
the grades CSV and a tournament's standings.csv; a hard link and special files in a folder of
submissions; a grades CSV row rewritten after the grader wrote it; a key file planted or left open;
and files that never ran, which must not be reported as run under any boundary.

Each test names the attack it tries and asserts what the grader wrote or refused, so it fails if
the defence is taken away (each says how).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.cli import main
from gamelib.games.user_text import formula_like, spreadsheet_row, spreadsheet_safe, spreadsheet_text
from gamelib.play.box import sandbox
from gamelib.play.box.guard import GUARD_ONLY, ISOLATED, bwrap_problem
from gamelib.play.box.sandbox import Limits, SandboxUnavailableError
from gamelib.play.match_stats import standings, standings_csv
from gamelib.teach import grading
from gamelib.teach.code_check import MAX_SOURCE_CHARACTERS
from gamelib.teach.grading import (
    CSV_FIELDS,
    GRADE_FIELDS,
    NOT_RUN,
    grade_folder,
    grading_key,
    key_path,
    sign_row,
    write_atomically,
)
from tests.budget import examples
from tests.hostile import SECRET, WRONG

LIMITS = Limits(seconds=5)
WHY_NOT = bwrap_problem()

FORMULA_STARTS = "=+-@＝＋－＠"
"""The characters OWASP's advice and issue 32 name: ASCII and fullwidth."""

BLANKS = " \n\r\t\x0b\x0c\xa0\u2003\u3000\u2028\ufeff\u200b"
"""Blank characters a spreadsheet may skip before it looks for a formula: spaces, line breaks, tabs,
a no-break and an ideographic space, a line separator, a byte-order mark, a zero-width space."""

HOSTILE_NAMES = ["=1+1", " =1+1", "\n=1+1", "\r\n=1+1", "＝1+1", "\t1", "\r1", "@SUM(1)", "-2+3", "+1", "＋1",
                 "－1", "＠x", "\u3000=1", "\ufeff=1"]
"""Student names (file stems) and team names a spreadsheet would run as formulas, one of each kind."""


def dangerous(cell: str) -> bool:
    """The test's own reading of the rule, written apart from the library's: a tab or a carriage
    return first, or a formula character after any run of the blanks above or Unicode white space."""
    return cell.startswith(("\t", "\r")) or re.match(r"[\s\ufeff\u200b]*[=+\-@＝＋－＠]", cell) is not None


def is_negative_number(cell: str) -> bool:
    """True for a negative decimal number as Python writes a float (-35.25, -1.5e-07)."""
    return re.fullmatch(r"-\d+\.\d+(e-\d+)?", cell) is not None


def cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return {row["student"]: row for row in csv.DictReader(file)}


def write_rows(path: Path, fields: tuple[str, ...], table: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=fields)
        writer.writeheader()
        writer.writerows({name: row[name] for name in fields} for row in table)


# The rule itself, over any text.

@examples(500)
@given(st.text(alphabet=BLANKS, max_size=4), st.sampled_from(FORMULA_STARTS), st.text(max_size=20))
def test_every_dangerous_start_gets_a_quote(blanks: str, start: str, rest: str) -> None:
    # fails if a blank, a line break or a fullwidth form lets a formula through (the old rule's holes)
    cell = blanks + start + rest
    assert spreadsheet_safe(cell) == "'" + cell
    assert spreadsheet_text(spreadsheet_safe(cell)) == cell


@examples(500)
@given(st.text(max_size=30))
def test_any_text_is_written_harmless_and_read_back_as_it_was(text: str) -> None:
    safe = spreadsheet_safe(text)
    assert not dangerous(safe)  # nothing a spreadsheet runs is ever written
    assert spreadsheet_text(safe) == text  # and the course reads back exactly what it wrote
    assert safe in (text, "'" + text)
    if dangerous(text):
        assert safe == "'" + text


@examples(500)
@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Nd"]), min_size=1, max_size=1), st.text(max_size=20))
def test_a_safe_cell_is_unchanged(first: str, rest: str) -> None:
    # a cell starting with a letter or a digit: a name, a verdict, a number in text
    assert not formula_like(first + rest)
    assert spreadsheet_safe(first + rest) == first + rest


def test_numbers_stay_numbers_and_text_that_looks_like_one_does_not() -> None:
    # the judgement call: a number the program computed (a negative rating) is written as a number;
    # text from outside that looks like one, and -inf (no number to a spreadsheet), get the quote
    assert spreadsheet_row([-1.5, -3, 0.25, True, "-1.5", "-1+2", float("-inf"), float("nan"), "ada"]) == [
        -1.5, -3, 0.25, True, "'-1.5", "'-1+2", "'-inf", "nan", "ada"]
    assert spreadsheet_safe("\u2212" + "1") == "'\u22121" and spreadsheet_safe("﹦1") == "'﹦1"  # minus sign, small =


# The grades CSV.

def test_formula_names_of_every_kind_are_neutralised_in_the_grades_csv(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for number, name in enumerate(HOSTILE_NAMES):  # a few run; the rest are not UTF-8 (no child: quicker)
        (folder / f"{name}.py").write_bytes(WRONG.encode() if number % 5 == 0 else b"\xff\n")
    out = tmp_path / "grades.csv"
    grades = grade_folder("minimax", folder, out, limits=LIMITS, workers=2, progress=False)
    assert sorted(grade.student for grade in grades) == sorted(HOSTILE_NAMES)
    written = cells(out)
    assert [cell for row in written for cell in row if dangerous(cell)] == []  # the old rule let 8 of these through
    assert sorted(row[0] for row in written[1:]) == sorted("'" + name for name in HOSTILE_NAMES)
    assert sorted(grade.outcome for grade in grades) == ["error"] * 12 + ["wrong"] * 3
    again = grade_folder("minimax", folder, out, limits=LIMITS, progress=False)  # read back, signed: kept
    assert [grade.row() for grade in again] == [grade.row() for grade in grades]


# The standings CSV.

def test_a_team_named_as_a_formula_is_neutralised_and_ratings_stay_numbers() -> None:
    entries = [SimpleNamespace(name="a", team="=1+1"), SimpleNamespace(name="b", team="\n=HYPERLINK(\"x\")"),
               SimpleNamespace(name="c", team="＠c")]
    record = SimpleNamespace(x="a", o="b", result="X", reason="played", forfeit=None, seconds=(0.1, 0.2))
    loss = SimpleNamespace(x="c", o="b", result="O", reason="timeout", forfeit="X", seconds=(0.1,))
    table = standings(entries, [record, record, loss])
    written = list(csv.DictReader(io.StringIO(standings_csv(table))))
    assert {row["name"]: row["team"] for row in written} == {"a": "'=1+1", "b": "'\n=HYPERLINK(\"x\")", "c": "'＠c"}
    numbers = [cell for row in written for cell in row.values() if dangerous(cell)]
    assert numbers and all(is_negative_number(cell) for cell in numbers)  # negative ratings, nothing else
    lowest = min(written, key=lambda row: float(row["rating"]))
    assert float(lowest["rating"]) < 0 and lowest["rating"].startswith("-")  # a number, not "'-..."


@pytest.mark.slow
def test_the_tournament_command_writes_a_harmless_standings_csv(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    teams = ["=1+1", " =1+1", "\n=1+1", "＝1+1"]
    (folder / "entries.toml").write_text("".join(  # a JSON string is a TOML basic string
        f'[[entry]]\nname = "bot{number}"\nteam = {json.dumps(team)}\nbot = "random"\n'
        for number, team in enumerate(teams)), encoding="utf-8")
    assert main(["tournament", str(folder), "--out", str(out), "--games", "1", "--rounds", "2", "--time", "0.5",
                 "--workers", "1", "--quiet"]) == 0
    capsys.readouterr()
    written = cells(out / "standings.csv")
    header = written[0]
    assert sorted(row[header.index("team")] for row in written[1:]) == sorted("'" + team for team in teams)
    assert all(is_negative_number(cell) for row in written for cell in row if dangerous(cell))


# Hard links and special files: a row each, never opened.

@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every path this process opens with os.open while the test runs."""
    paths: list[str] = []
    real = os.open

    def spy(path: Any, *arguments: Any, **options: Any) -> int:
        paths.append(os.fsdecode(path))
        return real(path, *arguments, **options)

    monkeypatch.setattr(os, "open", spy)
    yield paths


def test_a_hard_link_to_a_file_outside_is_never_read(tmp_path: Path, opened: list[str]) -> None:
    folder, outside = tmp_path / "class", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    secret = outside / "answers.py"
    secret.write_text(f"{SECRET} = (\n", encoding="utf-8")  # a syntax error: its line would be quoted
    os.link(secret, folder / "linked.py")
    (folder / "copied.py").write_bytes(secret.read_bytes())  # the same bytes, a file of its own
    out = tmp_path / "grades.csv"
    grades = {grade.student: grade for grade in grade_folder("minimax", folder, out, limits=LIMITS, progress=False)}
    linked = grades["linked"]
    assert linked.outcome == "error" and linked.verdict.startswith("linked.py: not graded: it is a hard link")
    assert linked.boundary.startswith(f"{NOT_RUN}: it is a hard link") and not linked.ran
    assert str(folder / "linked.py") not in opened  # looked at, never opened
    assert SECRET not in rows(out)["linked"]["verdict"]
    # the control: read, the same bytes put the secret in the verdict (so the check above can fail)
    assert str(folder / "copied.py") in opened and SECRET in grades["copied"].verdict


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def _device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # what /dev/null is


@pytest.mark.parametrize("kind, make", [("a socket", _socket), ("a FIFO (named pipe)", os.mkfifo),
                                        ("a character device", _device)])
def test_a_special_file_gets_a_row_and_is_never_opened(tmp_path: Path, opened: list[str], kind: str,
                                                       make: Any) -> None:
    folder = tmp_path / "c"  # short: a socket's path has at most 107 bytes
    folder.mkdir()
    try:
        make(folder / "odd.py")
    except PermissionError:
        pytest.skip(f"this user cannot make {kind}")
    out = tmp_path / "grades.csv"
    [grade] = grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert grade.verdict == f"odd.py: not graded: it is {kind}, not a regular file; submit the file itself"
    assert grade.boundary.startswith(f"{NOT_RUN}: it is {kind}")
    assert str(folder / "odd.py") not in opened  # the old reader opened a FIFO before it looked


# Files that never ran.

@pytest.mark.parametrize("box", [ISOLATED, GUARD_ONLY])
def test_a_file_refused_for_its_size_is_labelled_not_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], box: str) -> None:
    if box == ISOLATED and WHY_NOT is not None:
        pytest.skip(f"bubblewrap cannot run here: {WHY_NOT}")
    if box == GUARD_ONLY:  # as where bubblewrap cannot run: the old grader then said code ran unboxed
        monkeypatch.setattr(sandbox, "boundary", lambda: GUARD_ONLY)
        monkeypatch.setattr(grading, "boundary", lambda: GUARD_ONLY)
        monkeypatch.setattr("gamelib.cli.bwrap_problem", lambda: "forced by the test")
    monkeypatch.setattr(grading, "MAX_FILE_BYTES", 1000)
    folder, out = tmp_path / "class", tmp_path / "grades.csv"
    folder.mkdir()
    (folder / "big.py").write_text(WRONG + "#" * 2000 + "\n", encoding="utf-8")
    assert main(["grade", "minimax", str(folder), "--out", str(out), "--quiet"]) == 0
    said = capsys.readouterr().out
    assert said == (f"graded 1 rows (1 error); no student code ran; 1 file not run (the boundary column says "
                    f"why); wrote {out}\n")  # the old summary said code ran isolated or under the guard only
    assert rows(out)["big"]["boundary"] == f"{NOT_RUN}: the file is larger than 1,000 bytes"


def test_files_that_never_ran_are_not_counted_as_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, out = tmp_path / "class", tmp_path / "grades.csv"
    folder.mkdir()
    (folder / "ran.py").write_text(WRONG, encoding="utf-8")
    (folder / "latin1.py").write_bytes(b"# caf\xe9\n")
    (folder / "long.py").write_text("#" * (MAX_SOURCE_CHARACTERS + 1), encoding="utf-8")
    (folder / "notebook.ipynb").write_text("{]", encoding="utf-8")
    (folder / "linked.py").symlink_to(folder / "ran.py")
    assert main(["grade", "minimax", str(folder), "--out", str(out), "--quiet"]) == 0
    box = "isolated (bubblewrap)" if WHY_NOT is None else f"guard only ({WHY_NOT})"
    assert capsys.readouterr().out == (f"graded 5 rows (1 wrong, 4 error); student code ran {box}; 4 files not "
                                       f"run (the boundary column says why); wrote {out}\n")
    got = {student: row["boundary"] for student, row in rows(out).items()}
    assert got.pop("notebook").startswith(f"{NOT_RUN}: not a notebook: its JSON is invalid")
    assert got == {"ran": ISOLATED if WHY_NOT is None else GUARD_ONLY,
                   "latin1": f"{NOT_RUN}: not UTF-8 text (byte 0xe9 at offset 5)",
                   "long": f"{NOT_RUN}: your code has {MAX_SOURCE_CHARACTERS + 1:,} characters; the checker takes at "
                           f"most {MAX_SOURCE_CHARACTERS:,}",
                   "linked": f"{NOT_RUN}: it is a symlink, not a regular file; submit the file itself"}


def test_a_run_the_sandbox_refuses_is_labelled_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # the sandbox's own refusal (as root with no user to run the code as, say) is a verdict whose boundary
    # says so (check_source labels it), and the grade keeps it
    refused = "not run: as root, the guard runs code only as another user, and none can be had"

    def refuse(*args: object, **kwargs: object) -> None:
        raise SandboxUnavailableError(refused)

    monkeypatch.setattr(sandbox, "run_in_sandbox", refuse)
    grade = grading.grade_source("minimax", "ada", WRONG)
    assert (grade.outcome, grade.boundary, grade.ran) == ("error", refused, False)


# Rows written by someone else: re-graded on resume.

@pytest.fixture
def graded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path, list[str]]]:
    """A class of two wrong submissions graded once; then each later grade_file call is counted
    (the list of students checked again)."""
    folder, out = tmp_path / "class", tmp_path / "grades.csv"
    folder.mkdir()
    for name in ("ada", "bob"):
        (folder / f"{name}.py").write_text(WRONG, encoding="utf-8")
    grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    checked: list[str] = []
    grade_file = grading.grade_file

    def counted(exercise: str, path: Path, limits: Limits, *, student: str, **options: Any) -> Any:
        checked.append(student)
        return grade_file(exercise, path, limits, student=student, **options)

    monkeypatch.setattr(grading, "grade_file", counted)
    yield folder, out, checked


def as_right(row: dict[str, str]) -> dict[str, str]:
    """``row`` rewritten as a submission that escaped its run would write it: full marks."""
    return {**row, "score": "1", "passed": row["trees"], "ok": "true", "outcome": "right", "tree": "", "verdict": ""}


def test_a_row_rewritten_after_the_run_is_graded_again(graded: tuple[Path, Path, list[str]]) -> None:
    # the red team's attack: a submission outlived the grader and rewrote its own row to "right"
    folder, out, checked = graded
    table = rows(out)
    assert set(table["ada"]) == set(CSV_FIELDS) and re.fullmatch("[0-9a-f]{64}", table["ada"]["signature"])
    write_rows(out, CSV_FIELDS, [as_right(table["ada"]), table["bob"]])
    again = {grade.student: grade for grade in grade_folder("minimax", folder, out, limits=LIMITS, progress=False)}
    assert checked == ["ada"]  # the forged row is checked again; bob's, untouched and signed, is kept
    assert again["ada"].outcome == "wrong" and rows(out)["ada"]["outcome"] == "wrong"


def test_a_row_signed_with_another_key_is_graded_again(graded: tuple[Path, Path, list[str]]) -> None:
    folder, out, checked = graded
    table = rows(out)
    forged = as_right(table["bob"])
    forged["signature"] = sign_row(b"\0" * 32, forged)  # a key the attacker guessed
    write_rows(out, CSV_FIELDS, [table["ada"], forged])
    grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert checked == ["bob"] and rows(out)["bob"]["outcome"] == "wrong"


def test_rows_written_before_signing_are_all_graded_again(graded: tuple[Path, Path, list[str]]) -> None:
    folder, out, checked = graded
    write_rows(out, GRADE_FIELDS, list(rows(out).values()))  # the CSV as the grader wrote it before issue 32
    grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert sorted(checked) == ["ada", "bob"]
    assert list(next(iter(rows(out).values()))) == list(CSV_FIELDS)  # and now signed


def test_the_key_is_private_and_a_planted_one_is_refused(graded: tuple[Path, Path, list[str]]) -> None:
    folder, out, checked = graded
    key = key_path(out)
    info = key.lstat()
    assert key.name == ".grades.csv.key" and stat.S_ISREG(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid == os.geteuid()
    before = out.read_bytes()
    key.chmod(0o644)  # readable by others: whoever read it could sign rows
    with pytest.raises(ValueError, match=r"may be read or written by others \(mode 0644"):
        grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    key.unlink()
    planted = folder.parent / "planted.key"
    planted.write_text("00" * 32 + "\n", encoding="utf-8")
    planted.chmod(0o600)
    key.symlink_to(planted)  # a key someone else chose, through a symlink
    with pytest.raises(ValueError, match="is a symlink"):
        grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert out.read_bytes() == before and checked == []  # nothing graded, nothing written
    key.unlink()
    grade_folder("minimax", folder, out, limits=LIMITS, progress=False)  # a new key: every row checked again
    assert sorted(checked) == ["ada", "bob"] and stat.S_IMODE(key.lstat().st_mode) == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_key_file_of_another_user_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "grades.csv"
    grading_key(out)
    os.chown(key_path(out), 65534, 65534)
    with pytest.raises(ValueError, match="belongs to another user"):
        grading_key(out)


def test_the_csv_is_replaced_whole_never_written_in_place(graded: tuple[Path, Path, list[str]],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # a second name for the CSV's file sees no write: each write is a new file renamed over the old
    folder, out, _ = graded
    second = out.parent / "second-name.csv"
    os.link(out, second)
    before = second.read_bytes()
    (folder / "cy.py").write_text(WRONG, encoding="utf-8")
    children: list[set[psutil.Process]] = []
    write = grading.write_atomically

    def watched(path: str | Path, text: str) -> None:
        children.append(set(psutil.Process().children(recursive=True)))
        write(path, text)

    monkeypatch.setattr(grading, "write_atomically", watched)
    already = set(psutil.Process().children(recursive=True))  # whatever earlier tests left this process
    grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    assert second.read_bytes() == before and out.read_bytes() != before
    assert sorted(path.name for path in out.parent.iterdir()) == [".grades.csv.key", "class", "grades.csv",
                                                                  "second-name.csv"]  # no temporary file left
    assert len(children) >= 2 and children[-1] <= already  # the last write came after the check's child was gone


def test_an_atomic_write_that_fails_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "grades.csv"
    write_atomically(path, "old\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # grades are personal: new files are this user's only
    path.chmod(0o640)
    write_atomically(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n" and stat.S_IMODE(path.stat().st_mode) == 0o640

    def broken(*arguments: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="No space"):
        write_atomically(path, "half\n")
    assert path.read_text(encoding="utf-8") == "new\n" and [item.name for item in tmp_path.iterdir()] == ["grades.csv"]


# The key against the code being graded.

THIEF = """
import os

def my_minimax(tree, node):
    try:
        said = open(KEY).read()
    except OSError as error:
        said = f"refused: {error}"
    raise RuntimeError(f"uid {os.getuid()}: {said}")
"""
"""A submission that reads the key and shows what it read in its verdict, with its uid."""


def steal_the_key(tmp_path: Path) -> tuple[str, grading.Grade]:
    folder, out = tmp_path / "class", tmp_path / "grades.csv"
    folder.mkdir()
    key = grading_key(out).hex()
    (folder / "thief.py").write_text(THIEF.replace("KEY", repr(str(key_path(out)))), encoding="utf-8")
    [grade] = grade_folder("minimax", folder, out, limits=LIMITS, progress=False)
    return key, grade


@pytest.mark.skipif(WHY_NOT is not None, reason=f"bubblewrap cannot run here: {WHY_NOT}")
def test_code_in_bubblewraps_box_cannot_read_the_key(tmp_path: Path) -> None:
    key, grade = steal_the_key(tmp_path)
    assert grade.boundary == ISOLATED and "refused: [Errno 2] No such file or directory" in grade.verdict
    assert key not in (tmp_path / "grades.csv").read_text(encoding="utf-8")


def test_under_the_guard_only_only_another_uid_keeps_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # what the README says: under the guard only, code that runs as you reads the key (no boundary);
    # code the guard runs as another user (the grader run by root) cannot
    monkeypatch.setattr(sandbox, "boundary", lambda: GUARD_ONLY)
    key, grade = steal_the_key(tmp_path)
    found = re.search(r"uid (\d+): ", grade.verdict)
    assert grade.boundary == GUARD_ONLY and found is not None, grade.verdict
    if int(found.group(1)) == os.geteuid():
        assert key in grade.verdict
    else:
        assert key not in grade.verdict and "refused: [Errno 13] Permission denied" in grade.verdict
