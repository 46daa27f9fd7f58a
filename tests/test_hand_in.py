"""A lesson handed in is graded on its answer cells: each exercise's cell carries the tag ``exercise:NAME`` (as
nbgrader and otter tag theirs), and the grader runs only that cell, in the box, as the lesson's own check does.

The lessons' setup cells import names the box does not offer (lesson 2's ``Bound``, for one): graded whole, a lesson
with the official solution pasted into its answer cell scored 0 ("cannot import name 'Bound'"). Here each lesson,
with the solution pasted in as a student would (the function, its helpers, the imports they need), scores every tree.
"""

from __future__ import annotations

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
from gamelib.teach.exercises import EXERCISES
from gamelib.teach.grading import ANSWER_TAG, grade_file, grade_folder, notebook_source

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
