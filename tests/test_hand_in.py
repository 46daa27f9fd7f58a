"""A lesson handed in is graded on its answer cells: each exercise's cell carries the tag ``exercise:NAME`` (as
nbgrader and otter tag theirs), and the grader runs only that cell, in the box, as the lesson's own check does.

The lessons' setup cells import names the box does not offer (lesson 2's ``Bound``, for one): graded whole, a lesson
with the official solution pasted into its answer cell scored 0 ("cannot import name 'Bound'"). Here each lesson,
with the solution pasted in as a student would (the function, its helpers, the imports they need), scores every tree.
"""

from __future__ import annotations

import csv
import inspect
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import solutions.lesson_01_minimax
import solutions.lesson_02_alpha_beta
import solutions.lesson_08_chance
import solutions.lesson_09_mcts
from gamelib.cli import main
from gamelib.teach.exercises import EXERCISES, exercise_trees
from gamelib.teach.grading import ANSWER_TAG, grade_file, grade_folder, notebook_source
from gamelib.teach.hand_in import RosterEntry, Submission, find_submissions, match_roster, read_roster

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

ANSWERS: dict[str, tuple[str, ModuleType, tuple[str, ...]]] = {
    "minimax": ("01_minimax.ipynb", solutions.lesson_01_minimax, ("my_minimax",)),
    "negamax": ("01_minimax.ipynb", solutions.lesson_01_minimax, ("my_negamax",)),
    "alphabeta": ("02_alpha_beta.ipynb", solutions.lesson_02_alpha_beta, ("my_alphabeta",)),
    "expectimax": ("08_chance_and_many_players.ipynb", solutions.lesson_08_chance, ("my_expectimax",)),
    "maxn": ("08_chance_and_many_players.ipynb", solutions.lesson_08_chance, ("my_maxn",)),
    "mcts": ("09_monte_carlo_tree_search.ipynb", solutions.lesson_09_mcts, ("my_mcts", "ucb")),
}
"""Each graded exercise: its lesson, the solution module, and the functions a student would paste."""


def lesson(name: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return notebook


def answer_cells(notebook: dict[str, Any], exercise: str) -> list[dict[str, Any]]:
    return [cell for cell in notebook["cells"] if f"{ANSWER_TAG}{exercise}" in cell.get("metadata", {}).get("tags", [])]


def pasted(exercise: str) -> str:
    """The official solution as a student pastes it: the imports it needs, then its functions."""
    _, module, functions = ANSWERS[exercise]
    imports = "import math\nfrom typing import Any\n\nfrom gamelib import Player, Value\n\n\n"
    return imports + "\n\n".join(inspect.getsource(getattr(module, name)) for name in functions)


def handed_in(tmp_path: Path, exercise: str, answer: str) -> Path:
    """The exercise's lesson, its answer cell holding ``answer``, saved as a student's file."""
    name = ANSWERS[exercise][0]
    notebook = lesson(name)
    (cell,) = answer_cells(notebook, exercise)
    cell["source"] = answer.splitlines(keepends=True)
    path = tmp_path / f"ada_{exercise}.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def test_every_graded_exercise_has_one_answer_cell_in_its_lesson() -> None:
    assert set(ANSWERS) == set(EXERCISES), "every exercise the grader knows should name its lesson here"
    for exercise, (name, _, functions) in ANSWERS.items():
        cells = answer_cells(lesson(name), exercise)
        assert len(cells) == 1, f"{name} should tag one answer cell {ANSWER_TAG}{exercise}; it tags {len(cells)}"
        assert f"def {functions[0]}(" in "".join(cells[0]["source"]), (
            f"{name}'s cell tagged {ANSWER_TAG}{exercise} should be where the student writes {functions[0]}")


@pytest.mark.parametrize("exercise", sorted(ANSWERS))
def test_the_lesson_with_the_solution_pasted_in_scores_every_tree(tmp_path: Path, exercise: str) -> None:
    grade = grade_file(exercise, handed_in(tmp_path, exercise, pasted(exercise)))
    assert (grade.outcome, grade.passed) == ("right", len(EXERCISES[exercise].trees())), (
        f"the lesson with the official {exercise} pasted into its answer cell should be right on every tree; "
        f"got {grade.outcome}, {grade.passed} of {grade.trees}: {grade.verdict}")


def test_the_lesson_graded_whole_would_fail_on_its_setup_cell(tmp_path: Path) -> None:
    """Why only the answer cells run: the setup imports names the box does not offer."""
    path = handed_in(tmp_path, "alphabeta", pasted("alphabeta"))
    whole = notebook_source(path.read_text(encoding="utf-8"))
    assert "Bound" in whole.split("def my_alphabeta")[0], "lesson 2's setup should import Bound, which the box lacks"


def test_the_lesson_as_shipped_says_the_function_is_not_written(tmp_path: Path) -> None:
    name = ANSWERS["alphabeta"][0]
    (cell,) = answer_cells(lesson(name), "alphabeta")
    grade = grade_file("alphabeta", handed_in(tmp_path, "alphabeta", "".join(cell["source"])))
    assert grade.passed == 0 and "Bound" not in grade.verdict and "import" not in grade.verdict, (
        f"the unwritten answer should fail on the function, not on an import; got {grade.verdict!r}")


def test_a_lesson_handed_in_for_another_exercise_says_so(tmp_path: Path) -> None:
    grade = grade_file("mcts", handed_in(tmp_path, "alphabeta", pasted("alphabeta")))
    assert grade.outcome == "error" and "no answer cell for mcts" in grade.verdict and "alphabeta" in grade.verdict, (
        f"a lesson without the exercise's answer cell should be told which cells it has; got {grade.verdict!r}")


def test_a_notebook_without_answer_tags_is_graded_whole(tmp_path: Path) -> None:
    """A student's own notebook: every code cell runs, the helper in another cell included."""
    cells: list[dict[str, Any]] = [
        {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
             for source in ("from gamelib import Player\n", "def pick(values, node, tree):\n"
                            "    return max(values) if tree.to_move(node) is Player.MAX else min(values)\n",
                            "def my_minimax(tree, node):\n    if tree.is_terminal(node):\n"
                            "        return tree.evaluate(node)\n"
                            "    return pick([my_minimax(tree, c) for c in tree.children_of(node)], node, tree)\n")]
    path = tmp_path / "own.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    grade = grade_file("minimax", path)
    assert grade.ok, f"a notebook without answer tags should be graded on all its cells; got {grade.verdict!r}"


def test_files_whose_names_collide_each_keep_their_row(tmp_path: Path) -> None:
    """x.py (right), x.ipynb (a notebook, right) and x.py.py (wrong): three students, three rows; once two of
    them shared the row "x.py" and the right file lost its grade."""
    folder = tmp_path / "class"
    folder.mkdir()
    right = pasted("minimax")
    (folder / "x.py").write_text(right, encoding="utf-8")
    (folder / "x.py.py").write_text("def my_minimax(tree, node):\n    return 0\n", encoding="utf-8")
    cell: dict[str, Any] = {"cell_type": "code", "metadata": {}, "source": right, "outputs": [],
                            "execution_count": None}
    (folder / "x.ipynb").write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                                    encoding="utf-8")
    grades = {grade.file: grade for grade in grade_folder("minimax", folder, tmp_path / "grades.csv", progress=False)}
    assert set(grades) == {"x.py", "x.ipynb", "x.py.py"} and len({grade.student for grade in grades.values()}) == 3, (
        f"each file should keep a row of its own; got {[(grade.student, grade.file) for grade in grades.values()]}")
    assert (grades["x.py"].ok, grades["x.ipynb"].ok, grades["x.py.py"].ok) == (True, True, False), (
        "x.py and x.ipynb should be right and x.py.py wrong, each on its own row")


# ---- Folders as an LMS hands them out -------------------------------------------------------------------------

def make(root: Path, files: dict[str, str]) -> Path:
    """A folder of submissions: each name a file (its text) or, ending in /, an empty folder."""
    for name, text in files.items():
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def by_student(folder: Path) -> dict[str, Submission]:
    return {each.student: each for each in find_submissions(folder)}


def test_a_folder_a_student_gives_each_a_row_saying_what_is_graded(tmp_path: Path) -> None:
    found = by_student(make(tmp_path / "class", {
        "ada/answer.py": "x", "bob/": "", "cy/a.py": "x", "cy/b.ipynb": "{}", "dee/report.pdf": "%PDF",
        "eve/work/deep/answer.ipynb": "{}", ".hidden/answer.py": "x", "loose.py": "x", "notes.txt": "hi"}))
    assert set(found) == {"ada", "bob", "cy", "dee", "eve", "loose", "notes.txt"}, sorted(found)
    assert found["ada"].path == tmp_path / "class/ada/answer.py" and found["ada"].layout == "folder"
    assert found["bob"].path is None and found["bob"].problem == "an empty folder: nothing handed in"
    assert found["cy"].path is None and found["cy"].problem.startswith("several files to grade (a.py, b.ipynb)")
    assert found["dee"].path is None and "no .py or .ipynb file to grade (handed in: report.pdf)" in found["dee"].problem
    assert found["eve"].path == tmp_path / "class/eve/work/deep/answer.ipynb"
    assert found["loose"].path == tmp_path / "class/loose.py" and found["notes.txt"].path is None


def test_canvas_names_give_the_student_and_their_canvas_id(tmp_path: Path) -> None:
    found = by_student(make(tmp_path / "canvas", {
        "lovelaceada_1234_5678_answer.py": "x", "babbagecharles_LATE_2345_6789_alphabeta-1.py": "x",
        "turingalan_3456_7890_answer.py": "x", "turingalan_3456_7891_notes.txt": "x",
        "hoppergrace_4567_8901_a.py": "x", "hoppergrace_4567_8902_b.ipynb": "{}"}))
    assert set(found) == {"1234", "2345", "3456", "4567"}, sorted(found)
    assert (found["1234"].name, found["1234"].student_id, found["1234"].layout) == ("lovelaceada", "1234", "canvas")
    assert found["2345"].path is not None and found["2345"].path.name == "babbagecharles_LATE_2345_6789_alphabeta-1.py"
    assert found["3456"].path is not None and found["3456"].problem == ""  # one file to grade beside a text file
    assert found["4567"].path is None and found["4567"].problem.startswith("several files to grade")


def test_moodle_folders_give_the_full_name_and_participant_id(tmp_path: Path) -> None:
    found = by_student(make(tmp_path / "moodle", {
        "Ada Lovelace_1234_assignsubmission_file_/answer.ipynb": "{}",
        "Bob Smith_2345_assignsubmission_file_/": "",
        "Cy Young_3456_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>"}))
    assert set(found) == {"1234", "2345", "3456"}
    assert (found["1234"].name, found["1234"].layout) == ("Ada Lovelace", "moodle") and found["1234"].path is not None
    assert found["2345"].problem == "an empty folder: nothing handed in"
    assert found["3456"].problem.startswith("no .py or .ipynb file to grade (handed in: onlinetext.html)")


def test_a_roster_gives_every_student_a_row(tmp_path: Path) -> None:
    roster_file = tmp_path / "roster.csv"
    roster_file.write_text("ID,Name,Email\n1234,Ada Lovelace,ada@uni.edu\nS2,Bob Smith,bsmith@uni.edu\n"
                           "S3,Cy Young,cy@uni.edu\nS4,Dee Dee,dd@uni.edu\n", encoding="utf-8")
    roster = read_roster(roster_file)
    found = find_submissions(make(tmp_path / "class", {
        "Ada Lovelace_1234_assignsubmission_file_/a.py": "x", "bsmith.py": "x", "cy young/answer.py": "x",
        "zed.py": "x"}))
    rows = {each.student: each for each in match_roster(found, roster)}
    assert set(rows) == {"1234", "S2", "S3", "S4", "zed"}, sorted(rows)
    assert (rows["1234"].name, rows["S2"].name, rows["S3"].name) == ("Ada Lovelace", "Bob Smith", "Cy Young")
    assert rows["S4"].path is None and rows["S4"].problem == "nothing handed in"
    assert rows["zed"].path is not None and rows["zed"].note == "not on the roster"


@pytest.mark.parametrize("text, message", [
    ("name,email\nAda,a@x\n", "needs the columns id and name"),
    ("id,name\n1,Ada\n1,Bob\n", "line 3: the id 1 is given twice"),
    ("id,name\n,Ada\n", "line 2: no id for Ada"),
])
def test_a_bad_roster_says_what_and_where(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_roster(path)


def test_a_moodle_class_with_a_roster_is_graded_a_row_a_student(tmp_path: Path) -> None:
    folder = make(tmp_path / "moodle", {
        "Ada Lovelace_1234_assignsubmission_file_/answer.py": pasted("minimax"),
        "Bob Smith_2345_assignsubmission_file_/a.py": "def my_minimax(tree, node):\n    return 0\n",
        "Bob Smith_2345_assignsubmission_file_/b.py": "x = 1\n",
        "Cy Young_3456_assignsubmission_file_/": ""})
    roster = [RosterEntry("1234", "Ada Lovelace"), RosterEntry("2345", "Bob Smith"), RosterEntry("3456", "Cy Young"),
              RosterEntry("4567", "Dee Dee")]
    grades = {grade.student: grade for grade in grade_folder("minimax", folder, tmp_path / "grades.csv",
                                                             progress=False, roster=roster)}
    assert set(grades) == {"1234", "2345", "3456", "4567"}
    assert grades["1234"].ok and grades["1234"].file == "Ada Lovelace_1234_assignsubmission_file_/answer.py"
    assert [grades[s].outcome for s in ("2345", "3456", "4567")] == ["error"] * 3
    assert grades["2345"].verdict.startswith("several files to grade") and grades["4567"].verdict == "nothing handed in"
    assert all(grades[s].points == 0 and grades[s].name for s in ("2345", "3456", "4567"))


# ---- Gradebook files ------------------------------------------------------------------------------------------

def test_the_command_writes_canvas_and_moodle_gradebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Canvas's download graded into Canvas's import (points in the assignment's column, the Canvas id in ID), and
    Moodle's into its grading worksheet (Participant N, the grade, the maximum, the feedback)."""
    monkeypatch.chdir(tmp_path)
    canvas = make(tmp_path / "canvas", {"lovelaceada_1234_5678_answer.py": pasted("minimax"),
                                        "babbagecharles_2345_6789_answer.py": "def my_minimax(tree, node):\n    return 0\n"})
    assert main(["grade", "minimax", str(canvas), "--format", "canvas", "--points", "12", "--assignment",
                 "Minimax (99)", "--quiet"]) == 0
    assert "wrote grades-canvas.csv and canvas-canvas.csv" in capsys.readouterr().out
    with open(tmp_path / "canvas-canvas.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Minimax (99)"]
    assert sorted(rows[1:]) == [["babbagecharles", "2345", "", "", "", "0"], ["lovelaceada", "1234", "", "", "", "12"]]

    moodle = make(tmp_path / "moodle", {"Ada Lovelace_1234_assignsubmission_file_/answer.py": pasted("minimax"),
                                        "Bob Smith_2345_assignsubmission_file_/": ""})
    assert main(["grade", "minimax", str(moodle), "--format", "moodle", "--out", "book.csv", "--quiet"]) == 0
    with open(tmp_path / "book.csv", newline="", encoding="utf-8") as file:
        sheet = {row["Identifier"]: row for row in csv.DictReader(file)}
    trees = len(EXERCISES["minimax"].trees())
    assert (sheet["Participant 1234"]["Grade"], sheet["Participant 1234"]["Maximum Grade"]) == (str(trees), str(trees))
    assert sheet["Participant 2345"]["Grade"] == "0" and "nothing handed in" in sheet["Participant 2345"][
        "Feedback comments"]


def test_a_missing_roster_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make(tmp_path / "class", {"ada.py": "x"})
    assert main(["grade", "minimax", str(folder), "--roster", str(tmp_path / "none.csv"), "--quiet"]) == 2
    assert "none.csv" in capsys.readouterr().err


# ---- Trees the class has not seen -----------------------------------------------------------------------------

@pytest.mark.parametrize("exercise", sorted(ANSWERS))
def test_a_seed_adds_trees_of_the_same_shapes_that_no_lesson_shows(exercise: str) -> None:
    public = EXERCISES[exercise].trees()
    seeded = exercise_trees(exercise, 7)[len(public):]
    assert seeded and exercise_trees(exercise, 7)[:len(public)] == public
    assert [tree.name for tree in seeded] == [tree.name for tree in exercise_trees(exercise, 7)[len(public):]]
    other = exercise_trees(exercise, 8)[len(public):]
    assert all(a.values != b.values for a, b in zip(seeded, other)), "another seed should draw other trees"
    assert not {tuple(sorted(tree.values.items())) for tree in seeded} & {
        tuple(sorted(tree.values.items())) for tree in public}, "no seeded tree should be one of the lessons' trees"
    assert all(f"seed={1_000_000 + 16 * 7 + i}" in tree.name for i, tree in enumerate(seeded)), (
        "the i-th seeded tree should come from seed 1,000,000 + 16 × 7 + i, far from any lesson's seed")


def test_the_solution_passes_the_seeded_trees_too(tmp_path: Path) -> None:
    path = tmp_path / "ada.py"
    path.write_text(pasted("alphabeta"), encoding="utf-8")
    grade = grade_file("alphabeta", path, seed=3, possible=9)
    assert (grade.trees, grade.passed, grade.points, grade.seed) == (9, 9, 9, 3), (
        f"the official alpha-beta should pass the 5 public trees and the 4 seeded ones; got {grade.passed} of "
        f"{grade.trees}")


@pytest.mark.parametrize("seed", ["-1", "1000001", "x"])
def test_a_seed_out_of_range_is_one_line_and_exit_2(tmp_path: Path, seed: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ada.py"
    path.write_text("x = 1\n", encoding="utf-8")
    assert main(["grade", "minimax", str(path), "--seed", seed]) == 2 and "--seed" in capsys.readouterr().err


def test_an_answer_cell_importing_the_lessons_names_gets_the_lessons_verdict(tmp_path: Path) -> None:
    """The answer cell with the setup's import of Bound: unused, right (as the lesson's check, which sends the
    function alone, says); used, an error naming it (the lesson's check: NameError too)."""
    unused = "from gamelib import Bound, Player\n\n" + pasted("alphabeta")
    assert grade_file("alphabeta", handed_in(tmp_path, "alphabeta", unused)).ok
    used = unused.replace("    if tree.is_terminal(node):", "    assert Bound.EXACT\n    if tree.is_terminal(node):", 1)
    grade = grade_file("alphabeta", handed_in(tmp_path, "alphabeta", used))
    assert grade.passed == 0 and "NameError: Bound is not available to an answer" in grade.verdict, grade.verdict


# ---- The lesson's check and the grader take the same code -----------------------------------------------------

def cell_function(cells: list[str], name: str, tmp_path: Path) -> Any:
    """``name`` as a notebook defines it: each cell compiled under a name that is no file (as IPython's), kept in
    linecache, run in one namespace."""
    import linecache

    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, text in enumerate(cells):
        filename = str(tmp_path / f"ipykernel_0/{number}.py")  # not on disk, as an IPython cell's
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


HELPER = "def is_max(tree, node):\n    return tree.to_move(node) is Player.MAX\n"
USING_HELPER = pasted("alphabeta").replace("if tree.to_move(node) is Player.MAX:", "if is_max(tree, node):")


@pytest.mark.parametrize("cells, right", [
    ([pasted("alphabeta")], True),  # the answer alone
    ([HELPER + "\n" + USING_HELPER], True),  # its helper in its cell
    ([HELPER, USING_HELPER], False),  # its helper in another cell: checked alone, the cell has no is_max
    (["tried_on = 'Broeders'\n",  # a name of the notebook's, which the box has not: its use in a test is left out
      pasted("alphabeta") + "\nprint(my_alphabeta.__name__, len(tried_on))  # a test call\n"], True),
    (["from gamelib import INF\n" + pasted("alphabeta").replace("value: Value = tree.evaluate(node)",
                                                              "value: Value = tree.evaluate(node) + 0 * (INF > 0)")],
     True),
])
def test_the_lessons_check_and_the_grader_judge_the_same_cell(tmp_path: Path, cells: list[str], right: bool) -> None:
    """What the reading found disagreeing: a helper in another cell passed the lesson's check and failed the
    grade; an import in the cell failed the check and passed the grade. Now both take the answer's cell alone."""
    from gamelib.teach.code_check import check_function

    function = cell_function([f"from gamelib import Player, Value\n{text}" if "def " in text else text
                              for text in cells], "my_alphabeta", tmp_path)
    checked = check_function("alphabeta", function)
    graded = grade_file("alphabeta", handed_in(tmp_path, "alphabeta", cells[-1]))
    assert checked.ok == graded.ok == right, (checked.message or checked, graded.verdict)
    if not right:
        assert "on its own: define or import there what it uses" in graded.verdict and "is_max" in checked.message


def test_answer_source_keeps_definitions_and_line_numbers() -> None:
    from gamelib.teach.code_check import answer_source

    cell = "import math\nLIMIT = 3\ndef f(x):\n    return x\nprint(f(2))\nvalue = f(3)\nBIG = float('inf')\nR = math.sqrt(2)\n"
    assert answer_source(cell) == "import math\nLIMIT = 3\ndef f(x):\n    return x\n\n\nBIG = float('inf')\nR = math.sqrt(2)\n"
    assert answer_source("def f(:\n") == "def f(:\n"


def test_a_class_of_150_in_canvas_and_moodle_layouts_gives_150_rows_and_a_roster_of_160_gives_160(
        tmp_path: Path) -> None:
    """The sizes of a real class, layouts read without grading: 150 students each way, a row each; with a roster
    of 160, 160 rows, the 10 who handed nothing in said so."""
    canvas = make(tmp_path / "canvas", {f"student{n:03d}_{1000 + n}_{5000 + n}_answer.py": "x" for n in range(150)})
    moodle = make(tmp_path / "moodle", {f"Student {n:03d}_{2000 + n}_assignsubmission_file_/answer.ipynb": "{}"
                                        for n in range(150)})
    assert len(find_submissions(canvas)) == len(find_submissions(moodle)) == 150
    roster = [RosterEntry(str(2000 + n), f"Student {n:03d}") for n in range(160)]
    rows = match_roster(find_submissions(moodle), roster)
    missing = [row for row in rows if row.problem == "nothing handed in"]
    assert len(rows) == 160 and len(missing) == 10 and not any(row.note for row in rows)
