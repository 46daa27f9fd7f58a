"""The window quiz: grading alpha and beta at chosen positions, worked by hand on AIMA's Figure 5.2,
and the widget's boxes and check."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.teach.quiz import (
    QUIZ_CSS,
    RIGHT,
    WRONG,
    QuizError,
    WindowQuiz,
    grade_windows,
    read_bound,
)
from tests.test_painter import contrast
from tests.test_quiz import apart

SVG = "{http://www.w3.org/2000/svg}"
INF = math.inf

# Russell & Norvig's Figure 5.2, nodes numbered breadth first: MIN nodes B, C, D = 1, 2, 3 under the
# MAX root 0; B's leaves 4, 5, 6 = 3, 12, 8; C's 7, 8, 9 = 2, 4, 6; D's 10, 11, 12 = 14, 5, 2.
AIMA = "((3 12 8) (2 4 6) (14 5 2))"


@pytest.fixture()
def aima() -> GameTree:
    return GameTree.from_text(AIMA)


def test_right_windows_worked_by_hand(aima: GameTree) -> None:
    # By hand: the root starts at (-inf, inf) and passes it to B and B's first leaf; B (MIN) takes
    # 3 from leaf 4, so leaves 5 and 6 get beta 3. The root then has alpha 3: C, its leaf 7, D and
    # leaf 10 get (3, inf); D takes 14 and then 5, so leaf 11 gets (3, 14) and leaf 12 (3, 5).
    # C's leaf 7 is 2 <= alpha 3: C stops, leaves 8 and 9 are never entered.
    answers = {"0": (-INF, INF), "1": (-INF, INF), "5": (-INF, 3), "6": (-INF, 3), "2": (3, INF), "7": (3, INF),
               "3": (3, INF), "10": (3, INF), "11": (3, 14), "12": (3, 5), "8": None, "9": None}
    grade = grade_windows(aima, answers)
    assert grade.ok and grade.wrong == () and len(grade.right) == 12
    assert str(grade) == "12 of 12 windows right."


def test_wrong_windows_get_words(aima: GameTree) -> None:
    answers = {"11": (3, INF), "12": (-INF, 5), "8": (3, INF), "5": None, "4": (-INF, INF)}
    grade = grade_windows(aima, answers)
    assert grade.right == ("4",) and grade.wrong == ("5", "8", "11", "12")
    assert grade.expected["8"] is None and grade.expected["11"] == (3, 14)
    assert grade.feedback == {
        "5": "position 5 is entered, with alpha −∞ and beta 3: no cutoff above it prunes it",
        "8": "position 8 is never entered: the cutoff at position 2 (2 <= alpha 3) prunes it",
        "11": "position 11: beta is 14, not ∞: position 3 (MIN) lowered it to 14 with its move 10",
        "12": "position 12: alpha is 3, not −∞: position 0 (MAX) raised it to 3 with its move 1",
    }
    assert str(grade).splitlines()[0] == "1 of 5 windows right."


def test_the_start_of_the_window_is_named(aima: GameTree) -> None:
    grade = grade_windows(aima, {"10": (3, 14)})
    assert grade.feedback["10"] == "position 10: beta is ∞, not 14: it is the root's starting beta, passed down unchanged"


def test_broeders_printout_is_all_right(broeders: GameTree, broeders_printed: dict[str, object]) -> None:
    # AlphaBeta0.cpp's lines "pos = 8 alpha = 4 beta = 15" (seed 003), read as answers.
    words = str(broeders_printed["AlphaBeta0.cpp"]).split()
    answers = {words[i + 2]: (int(words[i + 5]), int(words[i + 8])) for i, word in enumerate(words)
               if word == "pos" and words[i + 3] == "alpha"}
    assert len(answers) == 18 and grade_windows(broeders, answers).ok


def test_an_unknown_position_is_refused(aima: GameTree) -> None:
    with pytest.raises(QuizError, match="'13' is not in"):
        grade_windows(aima, {"13": (0, 1)})


@pytest.mark.parametrize(("text", "value"), [("4", 4), (" -2 ", -2), ("2.5", 2.5), ("inf", INF), ("−∞", -INF),
                                             ("-inf", -INF), ("∞", INF)])
def test_read_bound(text: str, value: float) -> None:
    assert read_bound(text) == value


@pytest.mark.parametrize("text", ["", "four", "nan", "1e999"])
def test_read_bound_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="is not a number"):
        read_bound(text)


def test_the_widget_checks_typed_windows(aima: GameTree) -> None:
    quiz = WindowQuiz(aima, ["2", "3", "8", "11"])
    quiz.answer("2", "3", "inf")
    quiz.answer("3", "3", "∞")
    quiz.answer("11", "3", "5")
    grade = quiz.check()  # 8 left empty: "never entered", right
    assert grade is not None and grade.right == ("2", "3", "8") and grade.wrong == ("11",)
    rings = {g.get("data-node"): g.get("class", "").split()[-1] for g in ET.fromstring(quiz.picture.svg).iter(f"{SVG}g")
             if "mark" in g.get("class", "").split()}
    assert rings == {"2": "mark-right", "3": "mark-right", "8": "mark-right", "11": "mark-wrong"}
    assert "lowered it to 14" in quiz.result.value
    quiz.answer("11", "3", "fourteen")
    assert quiz.check() is None and "fourteen&#x27; is not a number" in quiz.result.value
    with pytest.raises(QuizError, match="'1' is not asked"):
        quiz.answer("1", "0", "1")


def test_the_widget_asks_the_inner_positions_by_default() -> None:
    quiz = WindowQuiz(branching=2, depth=3, seed=22)
    assert list(quiz.boxes) == ["1", "2", "3", "4", "5", "6"]


def test_lesson_2s_quiz_tree_worked_by_hand() -> None:
    # Lesson 2's window quiz asks positions 4, 6, 10, 12 and 13 of classroom tree 2, 4, seed 22; the
    # lesson shows no answer before the student's, so the worked answer is checked here. Leaves
    # 15..30: 5 3 2 7 10 19 17 13 9 13 5 3 19 10 5 12. Position 1 (MIN) takes 3 = max(min(5, 3),
    # min(2, 7)) from its first move 3, so its second move 4 is entered with (-inf, 3); 4's first
    # move 9 = min(10, 19) = 10 >= 3 cuts, so 10 is never entered. The root has alpha 3 for move 2,
    # whose first move 5 (MAX) finds 11 = min(9, 13) = 9: 12 is entered with (9, inf); 12 = min(5, 3)
    # cuts, 5 is worth 9 and lowers beta at 2 to 9, so 6 and its first move 13 get (3, 9).
    tree = classroom_tree(2, 4, seed=22)
    right = {"4": (-INF, 3), "6": (3, 9), "10": None, "12": (9, INF), "13": (3, 9)}
    assert grade_windows(tree, right).ok
    mistaken = grade_windows(tree, {"4": (-INF, INF), "12": (3, INF)})
    assert mistaken.expected == {"4": (-INF, 3), "12": (9, INF)} and mistaken.wrong == ("4", "12")
    assert mistaken.feedback["4"] == "position 4: beta is 3, not ∞: position 1 (MIN) lowered it to 3 with its move 3"


def test_check_adds_words_under_the_boxes_and_moves_nothing(aima: GameTree) -> None:
    quiz = WindowQuiz(aima, ["1", "2"])
    layout = [child.model_id for child in quiz.widget.children]
    assert "window" not in quiz.picture.svg.replace('class="gamelib-tree"', "")  # no window drawn before Check
    quiz.answer("1", "-inf", "inf")
    quiz.check()
    assert [child.model_id for child in quiz.widget.children] == layout and quiz.widget.children[-1] is quiz.result
    assert quiz.picture.widget in quiz.widget.children and quiz.check_button.layout.width == "auto"


def test_the_window_quiz_is_usable_by_everyone(aima: GameTree) -> None:
    # WCAG 2.1 AA: its words and rings in colours 4.5:1 on white that a deuteranope tells apart, a wrong
    # ring dashed (its style in the widget), the verdict in a live region.
    quiz = WindowQuiz(aima, ["2", "11"])
    quiz.answer("2", "3", "inf")
    quiz.answer("11", "3", "5")
    quiz.check()
    rings = {g.get("data-node"): (g.get("class", "").split()[-1], g[0].get("stroke"))  # g[0]: the ring's shape
             for g in ET.fromstring(quiz.picture.svg).iter(f"{SVG}g") if "mark" in g.get("class", "").split()}
    assert rings == {"2": ("mark-right", RIGHT), "11": ("mark-wrong", WRONG)}
    assert f'<li style="color:{WRONG}">' in quiz.result.value
    assert min(contrast(RIGHT, "#ffffff"), contrast(WRONG, "#ffffff")) >= 4.5 and apart(RIGHT, WRONG, "deuteranope") > 20
    assert any(QUIZ_CSS in getattr(child, "value", "") for child in quiz.widget.children)
    assert 'setAttribute("role", "status")' in quiz.result._esm and quiz.widget.children[-1] is quiz.result
