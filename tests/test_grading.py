"""Grading a class: a folder of prepared submissions, each checked in the sandbox, gives the rows
that what each submission does predicts; a rerun skips unchanged files; one file gives a
Gradescope results.json.

Broeders' tree (seed 003) is the alpha-beta exercise's first tree. By hand, with the window (0, 15):
node 7 = min(4, 5) = 4, so node 3 has alpha 4 and node 8's first leaf 17 = 3 <= 4 cuts it: the
reference never enters 18. Node 1 then has beta 4; node 9 (window (0, 4), value starting at beta)
reads 19 = 6 and 20 = 7 and stays at 4, so node 4's value 4 >= beta 4 cuts it (an equality cut):
the reference never enters 10. So a search without pruning first departs at 18, and one that cuts
only on value > beta (an off-by-one in the comparison) first departs at 10.
"""

from __future__ import annotations

import csv
import inspect
import json
import math
from pathlib import Path
from typing import Any

import pytest

import solutions.lesson_02_alpha_beta
from gamelib.cli import main
from gamelib.play.box.guard import ISOLATED, boundary, bwrap_problem
from gamelib.teach import grading
from gamelib.teach.grading import CSV_FIELDS, grade_folder, notebook_source
from gamelib.play.box.sandbox import Limits
from gamelib.games.game import Player
from gamelib.teach.exercises import EXERCISES

RIGHT = inspect.getsource(solutions.lesson_02_alpha_beta.my_alphabeta)
HEADER = "from typing import Any\nfrom gamelib import Player, Value\n\n"

OFF_BY_ONE = RIGHT.replace("value >= beta", "value > beta").replace("value <= alpha", "value < alpha")
NO_PRUNING = '''
def my_alphabeta(tree, node, alpha, beta):
    if tree.is_terminal(node):
        return tree.evaluate(node)
    values = [my_alphabeta(tree, child, alpha, beta) for child in tree.children_of(node)]
    return max(values) if tree.to_move(node) is Player.MAX else min(values)
'''
ENDLESS = "def my_alphabeta(tree, node, alpha, beta):\n    while True:\n        pass\n"
CRASH = "import os\nos._exit(3)\n"
SYNTAX = "def my_alphabeta(tree, node, alpha, beta)\n    return 0\n"
SECONDS = 3.0
BOX_WORDS = "isolated (bubblewrap)" if boundary() == ISOLATED else f"guard only ({bwrap_problem()})"
"""How the command line's summary names the boundary student code ran in here."""


def visits(tree: Any, cut: str | None) -> tuple[list[str], Any]:
    """The positions a fail-hard alpha-beta from the tree's value range enters, in order, and its root value,
    written here apart from the course: ``cut`` ">=" cuts at value >= beta (the lesson's rule), ">" only at
    value > beta (the off-by-one), None never (no pruning)."""
    seen: list[str] = []

    def search(node: str, alpha: Any, beta: Any) -> Any:
        seen.append(node)
        if tree.is_terminal(node):
            return tree.evaluate(node)
        maxing = tree.to_move(node) is Player.MAX
        value = alpha if maxing else beta
        for child in tree.children_of(node):
            bound = beta if maxing else alpha
            if cut == ">=" and (value >= bound if maxing else value <= bound):
                break
            if cut == ">" and (value > bound if maxing else value < bound):
                break
            if maxing:
                value = alpha = max(value, search(child, alpha, beta))
            else:
                value = beta = min(value, search(child, alpha, beta))
        return value

    low, high = tree.value_range if cut is not None else (-math.inf, math.inf)  # no pruning: minimax's values
    return seen, search(tree.root, low, high)


def trees_passed(cut: str | None) -> list[bool]:
    """For each of the alpha-beta exercise's trees, whether a search with ``cut`` enters what the lesson's
    alpha-beta enters, in order, and returns its root value: what the checker compares."""
    return [visits(tree, cut) == visits(tree, ">=") for tree in EXERCISES["alphabeta"].trees()]


def notebook(*cells: tuple[str, str]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                       "cells": [{"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True),
                                  **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                                 for kind, text in cells]})


def class_folder(folder: Path) -> Path:
    folder.mkdir()
    for name, text in {"right": HEADER + RIGHT, "off_by_one": HEADER + OFF_BY_ONE, "no_pruning": NO_PRUNING,
                       "endless": ENDLESS, "crash": CRASH, "syntax": SYNTAX}.items():
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    (folder / "notes.txt").write_text("not a submission", encoding="utf-8")
    (folder / "nb_student.ipynb").write_text(notebook(
        ("markdown", "# My alpha-beta"), ("code", "%matplotlib inline\n!pip install nothing\n" + HEADER),
        ("code", "%%time\nthis cell is not Python"), ("code", RIGHT), ("code", "my_alphabeta?")), encoding="utf-8")
    return folder


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return {row["student"]: row for row in csv.DictReader(file)}


def test_a_class_is_graded_as_each_submission_predicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = class_folder(tmp_path / "submissions")
    out, results = tmp_path / "grades.csv", tmp_path / "results"
    grade_folder("alphabeta", folder, out, results, Limits(seconds=SECONDS), workers=3, progress=False)
    got = rows(out)
    assert list(got) == sorted(got) == ["crash", "endless", "nb_student", "no_pruning", "notes.txt", "off_by_one",
                                        "right", "syntax"]  # notes.txt is no submission, but it gets a row
    assert (got["notes.txt"]["outcome"], got["notes.txt"]["points"]) == ("error", "0") and got["notes.txt"][
        "verdict"].startswith("not graded: .txt files are not graded"), got["notes.txt"]
    assert list(next(iter(got.values()))) == list(CSV_FIELDS)
    for student in ("right", "nb_student"):  # the lesson's answer, as a file and inside a notebook
        assert (got[student]["outcome"], got[student]["score"], got[student]["passed"]) == ("right", "1", "5")
    broeders = "Broeders' 31-node binary tree"
    for student, node, cut in (("no_pruning", "18", None), ("off_by_one", "10", ">")):  # the module's docstring
        row, passes = got[student], trees_passed(cut)
        assert not passes[0] and (row["outcome"], row["tree"]) == ("wrong", broeders), (
            f"{student} should first fail on Broeders' tree; got {row['outcome']} on {row['tree']}")
        assert f"your search enters position {node}, which alpha-beta never enters" in row["verdict"]
        assert row["per_tree"].split() == ["right" if ok else "wrong" for ok in passes] and int(row["passed"]) == sum(
            passes), f"{student}: every tree checked, {passes} by a search written here; got {row['per_tree']}"
        assert row["failing"].count("tree ") >= passes.count(False) and row["possible"] == "5"
    assert got["endless"]["per_tree"] == "timeout " * 4 + "timeout", "the time runs out on tree 1: none checked after"
    assert got["endless"]["outcome"] == "timeout" and "an endless loop?" in got["endless"]["verdict"]
    assert float(got["endless"]["seconds"]) >= SECONDS  # it ran to its time limit
    assert got["crash"]["outcome"] == "error" and "status 3" in got["crash"]["verdict"]
    assert got["syntax"]["outcome"] == "error" and got["syntax"]["verdict"].startswith("line 1: expected ':'")
    right = json.loads((results / "right.json").read_text(encoding="utf-8"))
    assert right["score"] == 5 and [test["status"] for test in right["tests"]] == ["passed"] * 5
    wrong = json.loads((results / "off_by_one.json").read_text(encoding="utf-8"))
    assert wrong["score"] == sum(trees_passed(">")) and wrong["tests"][0]["output"] == "wrong: " + got["off_by_one"][
        "verdict"]
    assert all(set(test) >= {"name", "score", "max_score", "output"} for test in wrong["tests"])

    checked: list[str] = []
    grade_file = grading.grade_file

    def counted(exercise: str, path: Path, limits: Limits, *, student: str, **options: Any) -> Any:
        checked.append(student)
        return grade_file(exercise, path, limits, student=student, **options)

    monkeypatch.setattr(grading, "grade_file", counted)
    (folder / "right.py").write_text(HEADER + RIGHT + "\n# resubmitted\n", encoding="utf-8")
    (folder / "syntax.py").unlink()
    grade_folder("alphabeta", folder, out, None, Limits(seconds=SECONDS), workers=2, progress=False)
    assert checked == ["right"]  # unchanged files are not checked again; a changed one is
    again = rows(out)
    assert "syntax" not in again and again["endless"] == got["endless"] and again["right"]["outcome"] == "right"
    assert again["right"]["sha256"] != got["right"]["sha256"]


def test_notebook_source_drops_ipython_lines() -> None:
    text = notebook(("code", "%load_ext x\nx = 1\n!ls"), ("code", "%%bash\necho hi"), ("markdown", "y = 2"),
                    ("code", "len?\nz = 3"))
    assert notebook_source(text) == "x = 1\n\nz = 3\n"
    with pytest.raises(ValueError, match="not a notebook"):
        notebook_source("{]")


def test_one_file_gives_a_gradescope_results_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    submission = tmp_path / "ada.py"
    submission.write_text(NO_PRUNING, encoding="utf-8")
    results = tmp_path / "results.json"
    assert main(["grade", "alphabeta", str(submission), "--results", str(results), "--time", "10"]) == 0
    passes = trees_passed(None)
    assert capsys.readouterr().out.startswith(
        f"ada: wrong, {sum(passes)}/5 trees, {sum(passes)} of 5 points; student code ran {BOX_WORDS}")
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["score"] == sum(passes) and len(data["tests"]) == 5
    assert [test["max_score"] for test in data["tests"]] == [1] * 5
    assert [test["status"] == "passed" for test in data["tests"]] == passes, (
        "every tree should be checked, each test passed where a search without pruning enters what alpha-beta does")


def test_points_are_shared_among_the_trees(tmp_path: Path) -> None:
    submission = tmp_path / "ada.py"
    submission.write_text(HEADER + OFF_BY_ONE, encoding="utf-8")
    grade = grading.grade_file("alphabeta", submission, Limits(seconds=SECONDS), possible=20)
    passes = trees_passed(">")
    assert (grade.max_points, grade.points) == (20, 20 * sum(passes) / 5), (
        f"20 points over 5 trees: 4 a tree passed ({passes}); got {grade.points} of {grade.max_points}")
    with pytest.raises(ValueError, match="points is 0"):
        grading.grade("alphabeta", submission, possible=0)


@pytest.mark.parametrize("args, message", [
    (["grade", "alphabeta", "/no/such/folder.py"], "no such file"),
    (["grade", "alphabeta", "notes.txt"], "give a folder of submissions or one .py or .ipynb file"),
    (["grade", "alphabeta", ".", "--workers", "99"], "argument --workers"),
    (["grade", "quicksort", "."], "argument exercise"),
])
def test_bad_grade_commands_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_grading_a_folder_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(HEADER + RIGHT, encoding="utf-8")
    (folder / "bob.py").write_text(SYNTAX, encoding="utf-8")
    out = tmp_path / "grades.csv"
    assert main(["grade", "alphabeta", str(folder), "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out == f"graded 2 rows (1 right, 1 error); student code ran {BOX_WORDS}; wrote {out}\n"
    assert {student: row["outcome"] for student, row in rows(out).items()} == {"ada": "right", "bob": "error"}
    # the same CSV for another exercise would mix two exercises' grades: refused, nothing overwritten
    assert main(["grade", "minimax", str(folder), "--out", str(out), "--quiet"]) == 2
    assert "holds grades of the alphabeta exercise" in capsys.readouterr().err
    notes = tmp_path / "notes.csv"
    notes.write_text("name,mark\nada,20\n", encoding="utf-8")
    assert main(["grade", "alphabeta", str(folder), "--out", str(notes), "--quiet"]) == 2
    assert "is not a grades CSV" in capsys.readouterr().err and notes.read_text(encoding="utf-8").startswith("name")


def test_grade_is_the_one_entry_point_for_a_folder_or_a_file(tmp_path: Path) -> None:
    from gamelib.teach.grading import grade
    folder = tmp_path / "hand-in"
    folder.mkdir()
    (folder / "ada.py").write_text(inspect.getsource(solutions.lesson_02_alpha_beta), encoding="utf-8")
    (folder / "bob.py").write_text(CRASH, encoding="utf-8")
    grades = grade("alphabeta", folder, tmp_path / "grades.csv", progress=False)
    assert [(each.student, each.outcome) for each in grades] == [("ada", "right"), ("bob", "error")]
    assert (tmp_path / "grades.csv").is_file()
    (one,) = grade("alphabeta", folder / "ada.py")
    assert (one.student, one.outcome) == ("ada", "right")


def test_a_tree_that_raises_fails_alone_and_the_trees_after_it_are_checked(tmp_path: Path) -> None:
    """Right everywhere but on Broeders' tree, the only one checked from the window (0, 15), where it raises: tree 1
    an error, trees 2 to 5 checked in a new run and right."""
    submission = tmp_path / "ada.py"
    submission.write_text(HEADER + RIGHT.replace("    if tree.is_terminal(node):", "    if node == tree.root and alpha == 0:\n"
                                                 "        raise ValueError('not on this tree')\n"
                                                 "    if tree.is_terminal(node):", 1), encoding="utf-8")
    grade = grading.grade_file("alphabeta", submission, Limits(seconds=SECONDS))
    assert [result.outcome for result in grade.results] == ["error", "right", "right", "right", "right"], (
        f"only Broeders' tree should fail; got {grade.results}")
    assert (grade.passed, grade.outcome, grade.tree) == (4, "error", "Broeders' 31-node binary tree")
    assert "ValueError: not on this tree" in grade.verdict and "tree 1 of 5" in grade.failing_text()


def test_a_resumed_row_keeps_its_trees(tmp_path: Path) -> None:
    """A row kept on a rerun (same file, same points) gives the same Gradescope results, tree by tree."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(HEADER + OFF_BY_ONE, encoding="utf-8")
    out, results = tmp_path / "grades.csv", tmp_path / "results"
    first = grade_folder("alphabeta", folder, out, results, Limits(seconds=SECONDS), progress=False)
    before = (results / "ada.json").read_text(encoding="utf-8")
    again = grade_folder("alphabeta", folder, out, results, Limits(seconds=SECONDS), progress=False)
    assert again[0].results == first[0].results and (results / "ada.json").read_text(encoding="utf-8") == before
