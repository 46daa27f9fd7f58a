"""The pruning quiz: grading against seed 003's pruned positions, and the widget's clicks and check.

And what makes the quizzes usable by everyone (WCAG 2.1 AA), computed here, not taken from gamelib:
every colour of their words (and the predictions' words) reaches 4.5:1 on white by WCAG's formula;
right, wrong and missed stay apart for a deuteranope's and a protanope's eye (Machado, Oliveira &
Fernandes 2009's simulation at full severity, then CIEDE2000 in CIELAB); colour is never the only
cue; each position toggle is a button with a name and ``aria-pressed``; the verdict is in a live
region. tests/test_lab_axe.py checks the same in JupyterLab's real page.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.teach import predictions
from gamelib.teach.predictions import Answer, Line
from gamelib.teach.quiz import (
    MISSED,
    QUIZ_CSS,
    RIGHT,
    RIGHT_VERDICT,
    WRONG,
    WRONG_VERDICT,
    PruningQuiz,
    QuizError,
    grade_pruning,
)
from gamelib.view.ui import STYLE_SHEET
from tests.test_painter import contrast

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
    assert quiz.toggles["18"].grade == "" and quiz.toggles["18"].verdict == ""
    quiz.check()
    assert quiz.toggles["18"].grade == "right" and quiz.toggles["18"].verdict == RIGHT_VERDICT  # ringed green, ✓
    assert quiz.toggles["5"].grade == "wrong" and quiz.toggles["5"].verdict == WRONG_VERDICT
    assert marks(quiz.picture.svg)["18"] == "mark-right" and quiz.toggles["6"].grade == ""  # missed: not chosen
    # a choice changed after Check: the answer goes, until Check again
    quiz.toggles["10"].value = True
    assert quiz.grade is None and marks(quiz.picture.svg) == {} and "pruned" not in quiz.picture.svg
    assert quiz.toggles["18"].grade == quiz.toggles["18"].verdict == "" and "Check again" in quiz.result.value


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


# Accessibility (WCAG 2.1 AA).

OLD_RIGHT, OLD_MISSED, OLD_WRONG = "#1a9641", "#e66100", "#d62728"
"""The colours the audit found: green 3.8:1 and orange 3.5:1 on white, and a green and a red that a
deuteranope cannot tell apart as the toggles' fills."""

MACHADO_2009 = {  # linear RGB to linear RGB, severity 1.0 (Machado, Oliveira & Fernandes 2009, table 1)
    "deuteranope": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanope": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}


def linear_rgb(colour: str) -> tuple[float, ...]:
    """A #rrggbb colour's linear-light sRGB channels, 0 to 1 (IEC 61966-2-1)."""
    channels = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def seen_by(colour: str, eye: str | None = None) -> tuple[float, float, float]:
    """``colour`` in CIELAB (D65) as a normal eye, or a ``deuteranope`` or ``protanope``, sees it."""
    red, green, blue = linear_rgb(colour)
    if eye is not None:
        red, green, blue = (min(1.0, max(0.0, row[0] * red + row[1] * green + row[2] * blue))
                            for row in MACHADO_2009[eye])
    x = (0.4124564 * red + 0.3575761 * green + 0.1804375 * blue) / 0.95047
    y = 0.2126729 * red + 0.7151522 * green + 0.0721750 * blue
    z = (0.0193339 * red + 0.1191920 * green + 0.9503041 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e_2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """CIEDE2000 between two CIELAB colours (Sharma, Wu & Dalal 2005's formulation)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = (math.degrees(math.atan2(b, a)) % 360 if c else 0.0 for a, b, c in ((a1, b1, c1), (a2, b2, c2)))
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    r_t = (-2 * math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7))
           * math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2)))))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def apart(one: str, two: str, eye: str | None = None) -> float:
    """How far apart two colours look (CIEDE2000) to a normal eye or to ``eye``."""
    return delta_e_2000(seen_by(one, eye), seen_by(two, eye))


def over_white(colour: str, alpha: float) -> str:
    """``colour`` painted with ``alpha`` over white, as #rrggbb."""
    return "#" + "".join(f"{round(alpha * int(colour[i:i + 2], 16) + (1 - alpha) * 255):02x}" for i in (1, 3, 5))


def test_the_colour_formulas_agree_with_their_sources() -> None:
    # Sharma, Wu & Dalal (2005), table 1, pairs 1 and 7; WCAG's black and white; a grey stays grey.
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert apart("#777777", "#777777", "deuteranope") == 0 and max(map(abs, seen_by("#777777", "protanope")[1:])) < 0.5
    # The audit's findings, found again: the old fills 0.9 apart for a deuteranope, the words 3.8:1 and 3.5:1.
    assert apart(over_white(OLD_RIGHT, 0.28), over_white(OLD_WRONG, 0.22), "deuteranope") < 1
    assert contrast(OLD_RIGHT, "#ffffff") < 4.5 and contrast(OLD_MISSED, "#ffffff") < 4.5


@pytest.mark.parametrize("colour", [RIGHT, MISSED, WRONG])
def test_every_quiz_colour_is_4_5_to_1_on_white(colour: str) -> None:
    # The quizzes write their words in these colours on white (and a ring's words on a white halo);
    # the words are 13 to 14 pixels, not "large", so WCAG 2.1's 1.4.3 asks 4.5:1.
    assert contrast(colour, "#ffffff") >= 4.5


def test_the_quiz_words_are_in_those_colours(broeders: GameTree) -> None:
    quiz = PruningQuiz(broeders)
    quiz.choose("18", "5")
    quiz.check()
    used: set[str] = set(re.findall(r"color:(#[0-9a-f]{6})", quiz.result.value))
    rings = {ring[0].get("stroke", "") for ring in ET.fromstring(quiz.picture.svg).iter(f"{SVG}g")
             if "mark" in ring.get("class", "").split()}  # a ring's first element: its shape
    assert used == rings == {RIGHT, MISSED, WRONG}
    assert all(contrast(colour, "#ffffff") >= 4.5 for colour in used | rings)


@pytest.mark.parametrize("eye", ["deuteranope", "protanope"])
def test_right_wrong_and_missed_stay_apart_for_a_colour_blind_eye(eye: str) -> None:
    # Right against wrong is the pair a student compares after Check: over 20 (the old pair: 6.6 for a
    # deuteranope, its fills 0.9); each against missed over 15 (an orange and a red that reach 4.5:1 would be under 10).
    assert apart(RIGHT, WRONG, eye) > 20
    assert apart(RIGHT, MISSED, eye) > 15 and apart(WRONG, MISSED, eye) > 15
    assert apart(OLD_RIGHT, OLD_WRONG, "deuteranope") < 7


def test_colour_is_never_the_only_cue() -> None:
    # A wrong choice's ring is dashed, a right one's solid; a graded toggle draws no fill of its own
    # over the node's words (the old green one left a pruned node's grey words at 3.4:1) and leaves the
    # ring to show the grade; the chosen toggle's blue ring is 3:1 or more on white (WCAG 2.1, 1.4.11).
    assert re.fullmatch(r"\.gamelib-quiz svg \.mark-wrong > :first-child \{ stroke-dasharray: \d+ \d+; \}", QUIZ_CSS)
    rules = {" ".join(selector.split()): body for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE_SHEET)}
    graded = next(body for selector, body in rules.items() if "gamelib-graded-wrong" in selector)
    assert "gamelib-graded-right" in next(selector for selector in rules if "gamelib-graded-wrong" in selector)
    assert "background: transparent" in graded and "border-color: transparent" in graded
    chosen = rules['.gamelib-node-toggle > button[aria-pressed="true"]']
    assert "solid" in chosen and contrast(re.findall(r"#[0-9a-f]{6}", chosen)[0], "#ffffff") >= 3
    # and in words, for a screen reader
    assert "✓" in RIGHT_VERDICT and "✗" in WRONG_VERDICT and "visited" in WRONG_VERDICT


def test_each_toggle_is_a_named_button_whose_aria_pressed_follows_it(broeders: GameTree) -> None:
    quiz = PruningQuiz(broeders)
    toggle = quiz.toggles["18"]
    assert toggle.label == "position 18" and "gamelib-node-toggle" in toggle._dom_classes
    module = toggle._esm
    for part in ('createElement("button")', 'setAttribute("aria-pressed", model.get("value") ? "true" : "false")',
                 'setAttribute("aria-label", verdict ? `${label}, ${verdict}` : label)', "el.title = label",
                 'classList.toggle("gamelib-graded-right", grade === "right")', "model.save_changes()"):
        assert part in module, part
    toggle.value = True  # a click in the page sets value, and the page's aria-pressed follows it
    assert quiz.chosen == ["18"]


def test_the_verdict_is_in_a_live_region(broeders: GameTree) -> None:
    quiz = PruningQuiz(broeders)
    module = quiz.result._esm
    assert 'setAttribute("role", "status")' in module and 'setAttribute("aria-live", "polite")' in module
    assert "region.innerHTML = model.get(\"value\")" in module  # the region stays; only what it says changes
    quiz.choose("18")
    quiz.check()
    assert quiz.result.value.startswith('<div class="gamelib-words gamelib-quiz-result"><b>1 of 13 found</b>')


def test_branching_and_depth_are_menus_a_screen_reader_can_name() -> None:
    # ipywidgets' sliders give their handle (role="slider") no name (axe: aria-input-field-name); a menu
    # is named by its description's label. Values outside the menu are clamped, as the sliders did.
    quiz = PruningQuiz(branching=5, depth=1, seed=3)
    assert type(quiz.branching).__name__ == type(quiz.depth).__name__ == "Dropdown"
    assert (quiz.branching.description, quiz.branching.value, quiz.depth.description, quiz.depth.value) == (
        "branching", 3, "depth", 2)


@pytest.mark.parametrize("state", [predictions.RIGHT, predictions.WRONG, predictions.UNWRITTEN])
def test_every_prediction_colour_is_4_5_to_1_on_white(state: str) -> None:
    shown = Answer("q", (Line(state, "my_value: right."),))._repr_html_()
    (colour,) = re.findall(r"color:(#[0-9a-f]{6})", shown)
    assert contrast(colour, "#ffffff") >= 4.5, (state, colour)
