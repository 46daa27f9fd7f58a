"""The lessons' answer checks (``check_answer``): each says right to the answer in ``solutions/answers.py``,
which is held here to a count made apart from gamelib's searches; each says something specific to a wrong
answer; none says anything of the answer before one is written."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import binomtest  # type: ignore[import-untyped]

from gamelib import AdjacencyGame, load_seed_tree, random_tree
from gamelib.games.data import data_file
from gamelib.games.tictactoe import TicTacToe
from gamelib.play.entries import load_entries
from gamelib.play.match_stats import summarise
from gamelib.play.records import read_records
from gamelib.play.tournament import run_tournament
from gamelib.teach.predictions import UnknownQuestionError
from gamelib.teach.questions import FULL_GAME, NARROW_WINDOW, QUESTIONS, SAME_PARITY, SUBMISSIONS, check_answer
from solutions.answers import ANSWERS, HOW
from tests.test_lesson_claims_03_04 import backed_up, my_negascout_tests, reversed_broeders, with_values

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSON_6_OPENING = ["h6", "c2", "c1", "b3", "c3", "e4", "f7", "f8", "e8", "a3"]
SEQUENCES = [("a4", "h1"), ("b4", "d2"), ("a4", "b4"), ("e3", "d2")]


def lesson_5() -> dict[str, Any]:
    game = AdjacencyGame(rounds=8)
    return {"game": game, "position": game.play(game.root, ["c3", "f6", "d4", "e5", "c5", "f4"])}


def lesson_6() -> dict[str, Any]:
    game = AdjacencyGame(rounds=10)
    return {"game": game, "position": game.play(game.root, LESSON_6_OPENING)}


def lesson_4_adjacency() -> dict[str, Any]:
    game = AdjacencyGame(rounds=10)
    return {"game": game, "position": game.play(game.root, ["c3", "f6", "d4", "e5", "c5", "f4"])}


def corner_replies() -> list[Any]:
    game = TicTacToe()
    corner = game.play_all(["a1"])
    return [game.result(corner, reply) for reply in game.legal_moves(corner)]


def recorded_summaries() -> dict[tuple[str, str, int], Any]:
    pairs = [("alphabeta", "hillclimb"), ("alphabeta", "genetic"), ("hillclimb", "genetic")]
    return {(a, b, rule): summarise(read_records(str(data_file("tournaments", f"{a}_vs_{b}_rule{rule}.jsonl"))))
            for a, b in pairs for rule in (8, 4)}


def context(question: str) -> dict[str, Any]:
    """What the lesson passes to the question's check, built here as the lesson builds it."""
    broeders = load_seed_tree("broeders31")
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        "root-after-change": lambda: {"tree": broeders.with_values({"25": 9, "26": 10})},
        "null-window-tests": lambda: {"tree": reversed_broeders()},
        "research-after-change": lambda: {"tree": broeders.with_values({"23": 9})},
        "negascout-or-pvs": lambda: {"trees": [random_tree(3, 6, low=0, high=99, seed=seed) for seed in range(40)]},
        "mtdf-passes": lambda: {"tree": broeders, "first_guess": 10},
        "node-types": lambda: {"tree": random_tree((2, 3), 3, seed=4, order="best_first")},
        "boundless-memory": lambda: {"game": TicTacToe(), "positions": corner_replies()},
        "one-slot": lambda: {"game": TicTacToe()},
        "same-parity": lesson_4_adjacency,
        "biggest-gain": lesson_5,
        "flips": lambda: {"position": lesson_5()["position"], "square": "g6"},
        "full-game": dict,
        "corners": dict,
        "two-ply": lesson_6,
        "reservation-g6": lambda: {**lesson_6(), "sequences": SEQUENCES},
        "more-time": lesson_6,
        "weights": dict,
        "depth-9": lambda: {"nodes": [10, 30, 200, 600, 4_000, 12_000, 80_000, 240_000]},
        "games-to-prove": dict,
        "colours": lambda: {"summaries": recorded_summaries()},
        "own-match": dict,
        "own-entry": dict,
        "deadline": dict,
    }
    return builders[question]()


RIGHT_ANSWERS = {**ANSWERS,
                 "depth-9": {"my_by_last_factor": 240_000 * 3, "my_by_factor_two_back": 240_000 * 80_000 / 12_000}}
"""Right answers: solutions/answers.py's, and depth 9's from a table of nodes made up here (by hand: 240,000 x 240,000 /
80,000 and 240,000 x 80,000 / 12,000)."""


ON_FOLDERS = {"own-entry", "deadline", "own-match"}
"""The questions on the student's own runs (lesson 7's match, lesson 10's folders): checked by tests of their own."""


def test_every_question_has_a_right_answer_and_a_lesson_cell() -> None:
    assert set(RIGHT_ANSWERS) | ON_FOLDERS == set(QUESTIONS) == set(ANSWERS) | set(HOW)
    code = " ".join("".join(cell["source"]) for path in NOTEBOOKS.glob("*.ipynb")
                    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "code")
    asked = set(re.findall(r'check_answer\("([\w-]+)"', code))
    assert asked == set(QUESTIONS), f"questions no lesson asks: {set(QUESTIONS) - asked}; unknown: {asked - set(QUESTIONS)}"


@pytest.mark.parametrize("question", sorted(set(QUESTIONS) - ON_FOLDERS))
def test_the_right_answer_is_right(question: str) -> None:
    answer = check_answer(question, **RIGHT_ANSWERS[question], **context(question))
    assert answer.ok and not answer.unwritten, str(answer)
    assert all(line.text.split(": ", 1)[1].startswith("right") for line in answer.lines), str(answer)


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_nothing_of_the_answer_before_one_is_written(question: str) -> None:
    names = QUESTIONS[question][0]
    answer = check_answer(question, **dict.fromkeys(names), **context(question))
    assert answer.unwritten and not answer.ok
    assert str(answer) == "\n".join(f"{name} is not written yet: write it above, then run this cell." for name in names)
    assert "#767676" in answer._repr_html_() and "italic" in answer._repr_html_() and "#b2182b" not in answer._repr_html_(), (
        "not written is no error")


WRONG: dict[str, tuple[dict[str, Any], str, str]] = {
    "root-after-change": ({"my_value": 4, "my_move": "1"}, "my_value: not quite: 4 is too low.",
                          "the move to 1 is not MAX's best"),
    "null-window-tests": ({"my_tested_at_root": {"1"}, "my_failing_high_at_root": set()},
                          "my_failing_high_at_root: not quite: there is one, and you have none of them.", "best so far"),
    "research-after-change": ({"my_researched": {"7"}}, "my_researched: not quite: 7 is not searched again; one more "
                              "is to find.", "from the leaves up"),
    "negascout-or-pvs": ({"my_fewer_nodes": "PVS", "my_why": "B"}, "my_fewer_nodes: not quite: it is NegaScout, not PVS.",
                         NARROW_WINDOW.why_not["B"]),
    "node-types": ({"my_cut_nodes": {"2", "4"}, "my_all_nodes": {"3", "6", "11", "13"}},
                   "my_all_nodes: not quite: three of yours are right; 3 is not among the all nodes.",
                   "my_cut_nodes: not quite: two of yours are right; five more are to find."),
    "mtdf-passes": ({"my_passes": 3, "my_windows": [(9, 10), (4, 5)]}, "my_windows: not quite: pass 2's window is not "
                    "(4, 5).", "my_passes: not quite: 3 is too high."),
    "boundless-memory": ({"my_wrong_somewhere": True}, "my_wrong_somewhere: not quite: it is False, not True.",
                         "gets 0 of the 8 positions wrong"),
    "one-slot": ({"my_value_right": False, "my_overwrites": 1}, "my_value_right: not quite: it is True, not False.",
                 "my_overwrites: not quite: 1 is too low."),
    "same-parity": ({"my_failing_depths": {2, 3}, "my_why": "C"}, "my_failing_depths: not quite: one of yours is right; 3 is not failing.",
                    SAME_PARITY.why_not["C"]),
    "biggest-gain": ({"my_best_squares": {"f5", "e6"}}, "my_best_squares: not quite: one of yours is right; e6 is not "
                     "among the squares with the biggest gain; two more are to find.", "2 for each mark it turns"),
    "flips": ({"my_flips_rule8": {"f6", "g7", "h7"}, "my_flips_rule4": {"f6", "g7", "h7"}},
              "my_flips_rule4: not quite: two of yours are right; h7 is not turned under rule 4.", "the four beside"),
    "full-game": ({"my_marks": 56, "my_why": "C"}, "my_marks: not quite: 56 is too low.", FULL_GAME.why_not["C"]),
    "corners": ({"my_rule8": 3, "my_rule4": 2, "my_harder_rule": 8}, "my_harder_rule: not quite: it is 4, not 8.",
                "the fewer the neighbours"),
    "two-ply": ({"my_two_ply_moves": {"a4"}}, "my_two_ply_moves: not quite: a4 is not among the best moves two plies "
                "ahead; one more is to find.", "whose worst reply is best"),
    "reservation-g6": ({"my_sequence": ("a4", "a8")}, "my_sequence: not quite: the best move is", "worst of the replies"),
    "more-time": ({"my_depth_2s": 8, "my_depth_5s": 9}, "my_depth_5s: not quite: 9 is too high.", "predicted time"),
    "weights": ({"my_weight": "frontier"}, "my_weight: not quite: \"frontier\" counts marks next to an empty square",
                "can still be turned"),
    "depth-9": ({"my_by_last_factor": 720_000, "my_by_factor_two_back": 720_000},
                "my_by_factor_two_back: not quite: 720,000 is too low for depth 8's nodes times the factor into depth 7",
                "N8 × N7 / N6"),
    "games-to-prove": ({"my_games": 14}, "my_games: not quite: 14 wins of 14 give an interval from 0.768",
                       "is not above 0.8 yet"),
    "colours": ({"my_match": ("alphabeta", "genetic", 8)}, "my_match: not quite: alphabeta scores 1.00 as X and 1.00 "
                "as O", "another match's is wider"),
}
"""A wrong answer to each question, a line the check should say, and words of its reason (answers not given here are
the right ones)."""


@pytest.mark.parametrize("question", sorted(set(QUESTIONS) - ON_FOLDERS))
def test_a_wrong_answer_is_told_what_is_wrong_and_why(question: str) -> None:
    wrong, said, why = WRONG[question]
    answer = check_answer(question, **{**RIGHT_ANSWERS[question], **wrong}, **context(question))
    assert not answer.ok and said in str(answer) and why in str(answer), str(answer)
    assert "#b2182b" in answer._repr_html_()


@pytest.mark.parametrize("question, wrong", [
    ("biggest-gain", {"my_best_squares": {"e6"}}), ("two-ply", {"my_two_ply_moves": {"a4"}}),
    ("flips", {"my_flips_rule8": {"f6"}, "my_flips_rule4": set()}), ("corners", {"my_rule8": 4, "my_rule4": 4}),
    ("full-game", {"my_marks": 56, "my_why": "B"}), ("more-time", {"my_depth_2s": 7, "my_depth_5s": 9}),
])
def test_a_wrong_answer_is_not_told_the_right_one(question: str, wrong: dict[str, Any]) -> None:
    """Items of the answer not given, and right numbers, stay out of the words until the answer is right."""
    said = str(check_answer(question, **{**RIGHT_ANSWERS[question], **wrong}, **context(question)))
    right = RIGHT_ANSWERS[question]
    for name, value in wrong.items():
        hidden = set(map(str, right[name])) - set(map(str, value)) if isinstance(value, (set, tuple)) else (
            set() if value == right[name] or isinstance(value, str) else {str(right[name])})
        line = next(line for line in said.splitlines() if line.startswith(name))
        assert not any(re.search(rf"\b{re.escape(item)}\b", line) for item in hidden), line


@pytest.mark.parametrize("question, odd, said", [
    ("games-to-prove", {"my_games": 16.9}, "my_games: give a whole number, like 3, not 16.9."),
    ("mtdf-passes", {"my_passes": "2"}, "my_passes: give a whole number, like 3, not '2'."),
    ("boundless-memory", {"my_wrong_somewhere": "False"}, "my_wrong_somewhere: give True or False, not 'False'."),
    ("two-ply", {"my_two_ply_moves": "b4"}, "my_two_ply_moves: give a set, like {\"a4\"}, not 'b4'."),
    ("null-window-tests", {"my_tested_at_root": "1"}, "my_tested_at_root: give a set, like {\"x\"}, not '1'."),
    ("mtdf-passes", {"my_windows": (9, 10)}, "my_windows: give a list of windows, each (alpha, beta) in whole numbers"),
    ("colours", {"my_match": "hillclimb"}, "my_match: give a key of summaries, (a, b, rule)"),
    ("reservation-g6", {"my_sequence": ("g6",)}, "my_sequence: give two moves, X's then O's"),
    ("negascout-or-pvs", {"my_fewer_nodes": "Alpha-beta"}, 'my_fewer_nodes: give "NegaScout" or "PVS"'),
])
def test_an_answer_of_the_wrong_kind_is_told_what_kind_to_give(question: str, odd: dict[str, Any], said: str) -> None:
    answer = check_answer(question, **{**RIGHT_ANSWERS[question], **odd}, **context(question))
    assert not answer.ok and said in str(answer), str(answer)


@pytest.mark.parametrize("question, answers", [
    ("negascout-or-pvs", {"my_fewer_nodes": "negascout", "my_why": "a"}),
    ("biggest-gain", {"my_best_squares": {"F5", "f7", "G6"}}), ("two-ply", {"my_two_ply_moves": {"B4"}}),
    ("reservation-g6", {"my_sequence": ("G6", "A8")}), ("weights", {"my_weight": "Stable"}),
    ("colours", {"my_match": ("Hillclimb", "Genetic", 8)}), ("colours", {"my_match": ("genetic", "hillclimb", 8)}),
])
def test_names_are_read_whatever_their_case(question: str, answers: dict[str, Any]) -> None:
    answer = check_answer(question, **answers, **context(question))
    assert answer.ok, str(answer)


def test_numpy_numbers_are_numbers() -> None:
    import numpy as np
    assert check_answer("games-to-prove", my_games=np.int64(17)).ok
    assert check_answer("depth-9", my_by_last_factor=np.float64(720_000), my_by_factor_two_back=np.int64(1_600_000),
                        **context("depth-9")).ok
    assert check_answer("boundless-memory", my_wrong_somewhere=np.bool_(False), **context("boundless-memory")).ok


def test_a_part_of_the_wrong_kind_leaves_the_others_judged() -> None:
    answer = check_answer("root-after-change", my_value="9", my_move="2", **context("root-after-change"))
    assert [line.state for line in answer.lines] == ["wrong", "right"], str(answer)
    assert "give a whole number" in answer.lines[0].text
    assert "give a number of games, 1 or more" in str(check_answer("games-to-prove", my_games=0))
    assert "give a list of windows" in str(check_answer("mtdf-passes", my_passes=2, my_windows=[(9.7, 10.2), ("3", "4")],
                                                        **context("mtdf-passes")))
    assert "give 8 or 4, not 4.0" in str(check_answer("corners", my_rule8=3, my_rule4=2, my_harder_rule=4.0))


def test_every_wrong_letter_is_told_why_and_a_letter_not_offered_is_refused() -> None:
    for choice in (NARROW_WINDOW, SAME_PARITY, FULL_GAME):
        assert set(choice.why_not) == set(choice.options) - {choice.key}
        for letter in choice.why_not:
            assert choice.judge("my_why", letter.lower(), "").text == f"my_why: not quite: {choice.why_not[letter]}"
        assert "choose one of the letters" in choice.judge("my_why", "Z", "").text


def test_the_lessons_offer_the_choices_the_checks_judge() -> None:
    lessons = {path.name[:2]: json.loads(path.read_text(encoding="utf-8"))
               for path in NOTEBOOKS.glob("0*.ipynb")}
    for number, choice in (("03", NARROW_WINDOW), ("04", SAME_PARITY), ("05", FULL_GAME)):
        text = " ".join("".join(cell["source"]) for cell in lessons[number]["cells"] if cell["cell_type"] == "markdown")
        for letter, option in choice.options.items():
            assert f"- **{letter}.** {option}" in text, f"lesson {number} should offer {letter}: {option}"


def test_an_unknown_question_or_a_missing_answer_is_an_error_that_says_so() -> None:
    with pytest.raises(UnknownQuestionError, match="no question 'nope'"):
        check_answer("nope")
    with pytest.raises(TypeError, match="needs the answers my_move"):
        check_answer("root-after-change", my_value=9)


# The answers in solutions/answers.py, counted again here apart from gamelib's searches.

def test_the_root_after_the_change_by_my_minimax() -> None:
    values = backed_up(load_seed_tree("broeders31").with_values({"25": 9, "26": 10}))
    assert values["0"] == ANSWERS["root-after-change"]["my_value"] == values["2"] > values["1"]


def test_the_null_window_tests_and_researches_by_my_negascout() -> None:
    reversed_tree = reversed_broeders()
    at_root = {move for node, move, _ in my_negascout_tests(reversed_tree) if node == reversed_tree.root}
    answer = ANSWERS["null-window-tests"]
    assert at_root == answer["my_failing_high_at_root"] == set(reversed_tree.children_of(reversed_tree.root)[1:])
    changed = with_values(load_seed_tree("broeders31"), {"23": 9})
    assert {move for _, move, again in my_negascout_tests(changed) if again} == ANSWERS["research-after-change"][
        "my_researched"]


def my_soft_scout(data: dict[str, Any], pvs: bool) -> int:
    """Positions entered by fail-soft NegaScout (or PVS) on a tree's JSON form: a move after the first tested with
    (low, low + 1), re-searched if the test fails high inside the window with more than two plies below the node
    (below that the value is exact, Reinefeld 1983), from t (NegaScout) or low (PVS)."""
    children: dict[str, list[str]] = data["children"]
    entered = 0

    def height(node: str) -> int:
        return 1 + max((height(kid) for kid in children.get(node, [])), default=-1)

    def search(node: str, sign: int, alpha: float, beta: float) -> float:
        nonlocal entered
        entered += 1
        kids = children.get(node, [])
        if not kids:
            return float(sign * data["values"][node])
        best = -math.inf
        for i, kid in enumerate(kids):
            low = max(alpha, best)
            if i == 0:
                t = -search(kid, -sign, -beta, -low)
            else:
                t = -search(kid, -sign, -(low + 1), -low)
                if low < t < beta and height(node) > 2:
                    t = -search(kid, -sign, -beta, -(low if pvs else t))
            best = max(best, t)
            if best >= beta:
                break
        return best

    search(data["root"], 1, -math.inf, math.inf)
    return entered


def test_the_minimal_tree_s_nodes_are_those_my_alpha_beta_enters() -> None:
    """On the tree of lesson 3's exercise 4, whose moves come best first, an alpha-beta written here enters the PV
    nodes (the first moves down from the root), the cut and the all nodes of solutions/answers.py, and no other."""
    data = random_tree((2, 3), 3, seed=4, order="best_first").to_dict()
    entered: list[str] = []

    def search(node: str, sign: int, alpha: float, beta: float) -> float:
        entered.append(node)
        kids = data["children"].get(node, [])
        if not kids:
            return float(sign * data["values"][node])
        best = -math.inf
        for kid in kids:
            best = max(best, -search(kid, -sign, -beta, -max(alpha, best)))
            if best >= beta:
                break
        return best

    search(data["root"], 1, -math.inf, math.inf)
    answer = ANSWERS["node-types"]
    assert set(entered) == {"0", "1", "3", "9"} | answer["my_cut_nodes"] | answer["my_all_nodes"]
    assert not answer["my_cut_nodes"] & answer["my_all_nodes"]


def test_negascout_enters_fewer_nodes_than_pvs_by_my_count() -> None:
    trees = context("negascout-or-pvs")["trees"]
    counts = {name: sum(my_soft_scout(tree.to_dict(), pvs) for tree in trees) for name, pvs in (("NegaScout", False),
                                                                                             ("PVS", True))}
    assert min(counts, key=counts.__getitem__) == ANSWERS["negascout-or-pvs"]["my_fewer_nodes"], counts


def my_soft_alphabeta(data: dict[str, Any], node: str, sign: int, alpha: float, beta: float) -> float:
    kids = data["children"].get(node, [])
    if not kids:
        return float(sign * data["values"][node])
    best = -math.inf
    for kid in kids:
        best = max(best, -my_soft_alphabeta(data, kid, -sign, -beta, -max(alpha, best)))
        if best >= beta:
            break
    return best


def test_the_mtdf_passes_by_my_mtdf() -> None:
    """MTD(f) (Plaat et al. 1996) on a fail-soft alpha-beta written here, from the first guess 10."""
    data, windows = load_seed_tree("broeders31").to_dict(), []
    low, high, guess = -math.inf, math.inf, 10.0
    while low < high:
        beta = guess + 1 if guess == low else guess
        windows.append((int(beta - 1), int(beta)))
        guess = my_soft_alphabeta(data, data["root"], 1, beta - 1, beta)
        low, high = (guess, high) if guess >= beta else (low, guess)
    assert ANSWERS["mtdf-passes"] == {"my_passes": len(windows), "my_windows": windows}, windows


def my_tictactoe_search(game: TicTacToe, state: Any, table: dict[Any, float] | None) -> tuple[float, int]:
    """Fail-soft alpha-beta in negamax form over the game's rules, in the window of the game's value range, with an
    optional table that keeps each value as exact (no bound flags), stored on the way out; returns MAX's value and
    the positions entered."""
    entered = 0

    def search(state: Any, alpha: float, beta: float) -> float:
        nonlocal entered
        entered += 1
        sign = game.to_move(state).sign
        if table is not None and game.key(state) in table:
            return table[game.key(state)]
        if game.is_terminal(state):
            return sign * game.evaluate(state)
        best = -math.inf
        for move in game.legal_moves(state):
            best = max(best, -search(game.result(state, move), -beta, -max(alpha, best)))
            if best >= beta:
                break
        if table is not None:
            table[game.key(state)] = best
        return best

    low, high = game.value_range  # the root's window, MAX's view, as gamelib's searches start
    sign = game.to_move(state).sign
    value = search(state, *((low, high) if sign > 0 else (-high, -low)))
    return sign * value, entered


def test_no_bound_flags_and_one_slot_by_my_search() -> None:
    game = TicTacToe()
    right = [my_tictactoe_search(game, state, None)[0] for state in corner_replies()]
    boundless = [my_tictactoe_search(game, state, {})[0] for state in corner_replies()]
    assert (boundless != right) == ANSWERS["boundless-memory"]["my_wrong_somewhere"], (boundless, right)
    value, entered = my_tictactoe_search(game, game.root, None)
    assert ANSWERS["one-slot"] == {"my_value_right": True, "my_overwrites": entered - 1}, entered


def my_adjacency_value(game: AdjacencyGame, state: Any, depth: int) -> int:
    """X's value of ``state`` searched ``depth`` plies by a fail-soft alpha-beta written here (negamax form, the
    game's own evaluation at the horizon and at the end: its rules, not its searches)."""
    def search(state: Any, depth: int, alpha: float, beta: float) -> float:
        sign = game.to_move(state).sign
        if depth == 0 or game.is_terminal(state):
            return sign * game.evaluate(state)
        best = -math.inf
        for move in game.legal_moves(state):
            best = max(best, -search(game.result(state, move), depth - 1, -beta, -max(alpha, best)))
            if best >= beta:
                break
        return best

    return int(game.to_move(state).sign * search(state, depth, -math.inf, math.inf))


def test_the_failing_depths_by_the_rule_of_two_depths_back() -> None:
    """The guess for depth d is depth d - 2's value (depth 2: depth 1's), the window (guess - 2, guess + 2); the values
    by depth from the alpha-beta written here."""
    setting = lesson_4_adjacency()
    values = [my_adjacency_value(setting["game"], setting["position"], depth) for depth in range(1, 5)]
    guesses = {depth: values[depth - 3] if depth > 2 else values[0] for depth in (2, 3, 4)}
    failing = {depth for depth, guess in guesses.items() if not guess - 2 < values[depth - 1] < guess + 2}
    assert values == [7, 0, 7, 0] and failing == ANSWERS["same-parity"]["my_failing_depths"], (values, failing)


def board_of(game: AdjacencyGame, state: Any) -> dict[str, str]:
    """The board read from the game's text diagram: square name -> 'X', 'O' or '.'."""
    rows = [line.split()[1:9] for line in game.render_text(state).splitlines()[1:9]]
    return {f"{'abcdefgh'[file]}{8 - rank}": mark for rank, row in enumerate(rows) for file, mark in enumerate(row)}


def neighbours(square: str, rule: int) -> list[str]:
    file, rank = "abcdefgh".index(square[0]), int(square[1])
    steps = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0) and (rule == 8 or 0 in (df, dr))]
    return [f"{'abcdefgh'[file + df]}{rank + dr}" for df, dr in steps if 0 <= file + df < 8 and 1 <= rank + dr <= 8]


def test_the_gains_and_flips_by_my_reading_of_the_board() -> None:
    setting = lesson_5()
    board = board_of(setting["game"], setting["position"])
    gains = {square: 1 + 2 * sum(board[n] == "O" for n in neighbours(square, 8)) for square, mark in board.items()
             if mark == "."}
    assert {s for s, gain in gains.items() if gain == max(gains.values())} == ANSWERS["biggest-gain"]["my_best_squares"]
    for rule in (8, 4):
        assert {n for n in neighbours("g6", rule) if board[n] == "O"} == ANSWERS["flips"][f"my_flips_rule{rule}"]
    assert [len(neighbours("a1", rule)) for rule in (8, 4)] == [ANSWERS["corners"]["my_rule8"],
                                                                ANSWERS["corners"]["my_rule4"]]


def test_the_best_move_two_plies_ahead_by_my_search() -> None:
    """Material (X's marks minus O's) after X's move and O's best reply, each move placing a mark and turning the
    opponent's marks next to it (rule 8)."""
    setting = lesson_6()
    board = board_of(setting["game"], setting["position"])

    def play(board: dict[str, str], square: str, mark: str) -> dict[str, str]:
        after = {**board, square: mark}
        for n in neighbours(square, 8):
            if after[n] not in (".", mark):
                after[n] = mark
        return after

    def material(board: dict[str, str]) -> int:
        return sum(mark == "X" for mark in board.values()) - sum(mark == "O" for mark in board.values())

    empty = [square for square, mark in board.items() if mark == "."]
    two_ply = {move: min(material(play(play(board, move, "X"), reply, "O")) for reply in empty if reply != move)
               for move in empty}
    assert {m for m, v in two_ply.items() if v == max(two_ply.values())} == ANSWERS["two-ply"]["my_two_ply_moves"]


def test_the_games_to_prove_by_scipy_s_exact_interval() -> None:
    proves = [n for n in range(1, 40) if binomtest(n, n).proportion_ci(method="exact").low > 0.8]
    assert proves[0] == ANSWERS["games-to-prove"]["my_games"]


def test_the_colour_gap_by_my_reading_of_the_files() -> None:
    gaps = {}
    for a, b in [("alphabeta", "hillclimb"), ("alphabeta", "genetic"), ("hillclimb", "genetic")]:
        for rule in (8, 4):
            lines = data_file("tournaments", f"{a}_vs_{b}_rule{rule}.jsonl").read_text(encoding="utf-8").splitlines()
            games = [json.loads(line) for line in lines if line.strip()]
            points: dict[str, list[float]] = {"X": [], "O": []}  # a's points by a's colour
            for game in games:
                colour = "X" if game["x"].split(":")[0] == a else "O"
                points[colour].append(0.5 if game["result"] == "draw" else float(game["result"] == colour))
            gaps[a, b, rule] = abs(sum(points["X"]) / len(points["X"]) - sum(points["O"]) / len(points["O"]))
    assert max(gaps, key=gaps.__getitem__) == ANSWERS["colours"]["my_match"], gaps


# Lesson 10: an entry of the student's own, and slow.py given a deadline (solutions/lesson_10_slow.py).

def submissions_copy(folder: Path, entries: str | None = None) -> Path:
    shutil.copytree(SUBMISSIONS, folder)
    if entries is not None:
        (folder / "entries.toml").write_text(entries, encoding="utf-8")
    return folder


OWN_ENTRIES = """[[entry]]\nname = "hillclimb"\nbot = "hillclimb"\n\n[[entry]]\nname = "mine"\nfile = "mine.py"
class = "GreedyBot"\n"""


@pytest.mark.slow  # plays games in boxed processes: make test-slow
def test_an_own_entry_that_played_its_games_is_right_and_one_short_of_them_is_not_yet(tmp_path: Path) -> None:
    folder = submissions_copy(tmp_path / "my_class", OWN_ENTRIES)
    shutil.copy(folder / "greedy.py", folder / "mine.py")
    games = tmp_path / "my_tournament"
    run_tournament(load_entries(folder), games=2, rounds=2, seconds=0.2, out=games, workers=1, progress=False)
    answer = check_answer("own-entry", my_folder=str(folder), my_games=str(games))
    assert answer.ok and str(answer).startswith("my_games: right: mine: 2 games,") and "rank" in str(answer), str(answer)
    lines = (games / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (games / "games.jsonl").write_text(lines[0], encoding="utf-8")
    short = check_answer("own-entry", my_folder=str(folder), my_games=str(games))
    assert not short.ok and "not yet: mine: 1 games" in str(short) and "of the 2 games" in str(short), str(short)


def test_an_own_entry_is_told_what_is_missing(tmp_path: Path) -> None:
    shipped = submissions_copy(tmp_path / "copy")
    answer = check_answer("own-entry", my_folder=str(shipped), my_games=str(tmp_path / "nothing"))
    assert "is one the course ships" in str(answer) and "add your bot as a file" in str(answer), str(answer)
    folder = submissions_copy(tmp_path / "my_class", OWN_ENTRIES)
    shutil.copy(folder / "greedy.py", folder / "mine.py")
    unplayed = check_answer("own-entry", my_folder=str(folder), my_games=str(tmp_path / "nothing"))
    assert "my_games: no games to read there" in str(unplayed) and "out=" in str(unplayed), str(unplayed)
    assert "is not a folder" in str(check_answer("own-entry", my_folder=str(tmp_path / "no"), my_games="x"))


@pytest.mark.slow  # plays games in boxed processes: make test-slow
def test_slow_with_a_deadline_is_right_and_without_one_is_told_it_timed_out(tmp_path: Path) -> None:
    folder = submissions_copy(tmp_path / "my_class")
    before = check_answer("deadline", my_folder=str(folder))
    assert not before.ok and "slow lost 2 of its 2 games by its own faults (timeout 2)" in str(before), str(before)
    shutil.copy(Path(__file__).resolve().parents[1] / "solutions" / "lesson_10_slow.py", folder / "slow.py")
    after = check_answer("deadline", my_folder=str(folder), seconds=1.0)
    assert after.ok and "lost no game by a fault" in str(after), str(after)


@pytest.mark.slow  # plays games in boxed processes: make test-slow
def test_slow_that_answers_at_once_is_told_it_does_not_use_its_time(tmp_path: Path) -> None:
    """greedy.py as slow: one ply, answered in milliseconds, is in time but is no deadline."""
    folder = submissions_copy(tmp_path / "my_class")
    (folder / "slow.py").write_text((folder / "greedy.py").read_text(encoding="utf-8").replace("GreedyBot", "SlowBot"),
                                    encoding="utf-8")
    quick = check_answer("deadline", my_folder=str(folder), seconds=1.0)
    assert not quick.ok and "it does not search until the time is nearly used up" in str(quick), str(quick)


LATE = """import time

from gamelib.play.bots.base import Decision


class SlowBot:
    name = "slow"

    def choose(self, game, state, seconds):
        time.sleep(seconds + 0.2)
        return Decision(move=game.legal_moves(state)[0])
"""


@pytest.mark.slow  # plays games in boxed processes: make test-slow
def test_slow_that_answers_late_but_within_the_grace_is_told_it_was_late(tmp_path: Path) -> None:
    """Sleeping 0.2 s past a 0.2 s move is within the tournament's grace (0.5 s): no fault, yet not in time."""
    folder = submissions_copy(tmp_path / "my_class")
    (folder / "slow.py").write_text(LATE, encoding="utf-8")
    late = check_answer("deadline", my_folder=str(folder), seconds=0.2)
    assert not late.ok and "over the 0.2 s a move allows" in str(late), str(late)


def my_wilson(points: float, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


@pytest.mark.slow  # plays games in boxed processes: make test-slow
def test_an_own_match_is_read_from_its_games(tmp_path: Path) -> None:
    """A short match played here, read again from its file: the genetic bot's points and Wilson's interval by this
    test's own arithmetic decide what is right; another match is told which match to play."""
    from gamelib.play.arena import run_match
    out = tmp_path / "games.jsonl"
    summary = run_match("genetic", "hillclimb", 4, rounds=8, rule=4, seconds=0.05, workers=1, progress=False, out=out)
    games = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    points = sum(0.5 if g["result"] == "draw" else float(g["result"] == ("X" if g["x"] == "genetic" else "O"))
                 for g in games)
    low, high = my_wilson(points, len(games))
    right = {"my_genetic_wins": points / len(games) > 0.5, "my_leaves_out_half": not low <= 0.5 <= high}
    assert check_answer("own-match", my_summary=summary, **right).ok
    flipped = check_answer("own-match", my_summary=summary, **{name: not value for name, value in right.items()})
    assert not flipped.ok and "interval is [" in str(flipped), str(flipped)
    other = dataclasses.replace(summary, rule=8)
    assert "play the genetic bot first against the hill climber, rule 4, 8 rounds" in str(
        check_answer("own-match", my_summary=other, **right))


def test_a_set_given_with_many_wrong_items_is_told_how_many_not_which() -> None:
    """Every item given at once must not be answered with exactly the wrong ones (the rest being the answer)."""
    from gamelib.teach.predictions import NAMED_EXTRAS, set_line

    right, every = {"a4", "b4"}, {"a4", "b4", "c4", "d4", "e4", "f4"}
    line = set_line("my_moves", every, right, "among the best moves")
    assert "four of yours are not among the best moves" in line.text and not any(
        square in line.text for square in every - right), line.text
    few = set_line("my_moves", {"a4", "c4", "d4"}, right, "among the best moves")
    assert "c4 and d4 are not among the best moves" in few.text and NAMED_EXTRAS == 3, few.text
