"""The pruning quiz: grading against seed 003's pruned positions, and the widget's clicks and check."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.teach.quiz import PruningQuiz, QuizError, grade_pruning

SVG = "{http://www.w3.org/2000/svg}"


def marks(svg: str) -> dict[str, str]:
    return {ring.get("data-node", ""): ring.get("class", "").split()[-1] for ring in ET.fromstring(svg).iter(f"{SVG}g")
            if "mark" in ring.get("class", "").split()}


def test_broeders_list_is_right(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    grade = grade_pruning(broeders, broeders_printed["alphabeta_pruned"])
    assert grade.ok and grade.pruned == tuple(broeders_printed["alphabeta_pruned"])
    assert (grade.missed, grade.wrong) == ((), ())


def test_reasons_name_the_cutoffs(broeders: GameTree) -> None:
    reasons = grade_pruning(broeders, []).reasons
    assert reasons["18"] == "the cutoff at position 8 (3 <= alpha 4) skipped it"  # seed 003's first cut
    # On paper, with true values (seed 003's leaves): 9 = min(6, 7) = 6 stops 4, and 5 = max(min(1, 10),
    # min(2, 11)) = 2 stops 2; the fail-hard trace reports them as the bounds 4 and 4.
    assert reasons["10"] == ("the cutoff at position 4 (6 >= beta 4 with true values; "
                             "the fail-hard trace shows 4 >= beta 4) skipped it")
    assert reasons["29"] == ("under 6, which the cutoff at position 2 (2 <= alpha 4 with true values; "
                             "the fail-hard trace shows 4 <= alpha 4) skipped")


def test_reasons_on_the_lessons_quiz_tree_give_true_values() -> None:
    # Lesson 2's quiz tree (seed 22) prunes 8 positions. Position 4's first move, 9, has leaves
    # 19 and 20; MIN takes the smaller, which a student works out on paper; fail-hard reports beta.
    tree = classroom_tree(2, 4, seed=22)
    grade = grade_pruning(tree, [])
    assert len(grade.pruned) == 8
    nine = min(tree.evaluate("19"), tree.evaluate("20"))
    assert nine > 3 and grade.reasons["10"] == (f"the cutoff at position 4 ({nine} >= beta 3 with true values; "
                                               "the fail-hard trace shows 3 >= beta 3) skipped it")


def test_a_partly_right_guess(broeders: GameTree) -> None:
    grade = grade_pruning(broeders, ["30", "18", "5"])
    assert grade.right == ("18", "30") and grade.wrong == ("5",) and len(grade.missed) == 13 - 2
    assert not grade.ok and str(grade).startswith("2 of 13 pruned positions found; 1 chosen wrongly.")
    with pytest.raises(QuizError, match="'31' is not in"):
        grade_pruning(broeders, ["31"])


def test_strict_rule_prunes_less(broeders: GameTree) -> None:
    # Lesson 2: with the strict rule position 4 (4 = beta 4) and position 2 (4 = alpha 4) do not cut.
    assert set(grade_pruning(broeders, [], strict=True).pruned) == {"18", "24", "26"}


def test_the_widget_clicks_and_checks(broeders: GameTree) -> None:
    quiz = PruningQuiz(broeders)
    assert len(quiz.toggles) == 31 and quiz.chosen == []
    quiz.toggles["18"].value = True  # a click
    quiz.choose("10", "5")
    assert quiz.chosen == ["5", "10", "18"]
    grade = quiz.check()
    assert grade.right == ("10", "18") and grade.wrong == ("5",)
    ringed = marks(quiz.picture.svg)
    assert ringed["18"] == ringed["10"] == "mark-right" and ringed["5"] == "mark-wrong" and ringed["6"] == "mark-missed"
    items = quiz.result.value.split("<li")[1:]
    assert len(items) == 5 + 1, "one line for each of the five cutoffs, and one for the position chosen wrongly"
    assert items[4].startswith(">Position 2 is MIN&#x27;s") and "(2 &lt;= alpha 4 with true values" in items[4] and (
        '6 (missed)' in items[4]), items[4]
    assert '10 ✓' in items[1] and "5 is visited" in items[5]
    quiz.clear()
    assert quiz.chosen == [] and marks(quiz.picture.svg) == {}
    with pytest.raises(QuizError):
        quiz.choose("99")


def test_a_class_shares_a_tree_by_its_seed() -> None:
    first, second = PruningQuiz(seed=22), PruningQuiz(seed=22)
    assert first.tree == second.tree == classroom_tree(2, 4, seed=22)
    first.seed.value, first.depth.value = 7, 3
    first.new_tree()  # the New tree button
    assert first.tree == classroom_tree(2, 3, seed=7) and len(first.toggles) == 15


def test_nothing_of_the_answer_shows_before_check_and_a_right_choice_turns_green(broeders: GameTree) -> None:
    quiz = PruningQuiz(broeders)
    quiz.choose("18", "5")
    before = quiz.picture.svg
    assert marks(before) == {} and "pruned" not in before and 'class="edge cut"' not in before
    assert "cutoff" not in quiz.result.value and "missed" not in quiz.result.value
    assert "gamelib-graded-right" not in quiz.toggles["18"]._dom_classes
    quiz.check()
    assert "gamelib-graded-right" in quiz.toggles["18"]._dom_classes  # green (the style sheet), ringed green
    assert "gamelib-graded-wrong" in quiz.toggles["5"]._dom_classes and marks(quiz.picture.svg)["18"] == "mark-right"
    # a choice changed after Check: the answer goes, until Check again
    quiz.toggles["10"].value = True
    assert quiz.grade is None and marks(quiz.picture.svg) == {} and "pruned" not in quiz.picture.svg
    assert "gamelib-graded-right" not in quiz.toggles["18"]._dom_classes and "Check again" in quiz.result.value


def test_the_quiz_draws_for_a_projector_and_keeps_the_choices() -> None:
    quiz = PruningQuiz(seed=22)
    quiz.choose("10")
    quiz.check()
    quiz.set_projector(True)
    assert 'font-size="18"' in quiz.picture.svg and "gamelib-projector" in quiz.widget._dom_classes
    assert quiz.chosen == ["10"] and quiz.grade is not None and "gamelib-caption" in quiz.result.value
    quiz.set_projector(False)
    assert 'font-size="13"' in quiz.picture.svg and quiz.chosen == ["10"]


def test_a_page_without_a_kernel_shows_the_bare_tree(broeders: GameTree) -> None:
    bundle = PruningQuiz(broeders)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert 'data-step="0"' in bundle["text/html"] and "pruned" not in bundle["text/html"]
