"""Answers to the lessons' questions that are not code: what to write in each exercise's cell.

``ANSWERS[question]`` holds the answers (the cell's ``my_...`` variables) that
``check_answer(question, ...)`` takes as right. Each is worked out here by hand, or counted by a
search written apart from gamelib in ``tests/test_predictions.py``, which holds every one of them
to that count and to the check.
"""

from __future__ import annotations

from typing import Any

ANSWERS: dict[str, dict[str, Any]] = {
    # Lesson 1, exercise 1: worked by hand in lesson_01_minimax.py (PREDICTION).
    "root-after-change": {"my_value": 9, "my_move": "2"},
    # Lesson 3, exercise 1, by hand: the reversed root searches its first move, 2 (worth 2), with the full
    # window, then tests 1 with the null window (2, 3); 1 is worth 4 (lesson 1), so the test fails high.
    "null-window-tests": {"my_tested_at_root": {"1"}, "my_failing_high_at_root": {"1"}},
    # Lesson 3, exercise 2, by hand: leaf 23 sits under 11 (MIN) beside 24, worth 10: 11 = min(9, 10) = 9, 12 =
    # min(2, 11) = 2, 5 = max(9, 2) = 9; 6 = max(min(12, 13), min(14, 14)) = 14; 2 = min(9, 14) = 9. The root's
    # first move, 1, is worth 4 (lesson 1), so its null-window test of 2, (4, 5), fails high inside the root's
    # window (0, 15): 2 is searched again. No other test fails high inside its window (the test's NegaScout).
    "research-after-change": {"my_researched": {"2"}},
    # Lesson 3, exercise 3: NegaScout enters fewer nodes (the test's fail-soft NegaScout and PVS count them); the
    # narrower window is safe because a test that fails high returns a lower bound on the move's value.
    "negascout-or-pvs": {"my_fewer_nodes": "NegaScout", "my_why": "A"},
    # Lesson 3, exercise 4, by hand from the rule on the tree's shape (show_tree draws it): 0 has moves 1, 2; 1 has
    # 3, 4, 5; 2 has 6, 7, 8; 3 has 9, 10; 4 has 11, 12; 5 has 13, 14, 15; 6 has 16, 17, 18; the rest are leaves
    # or not in the minimal tree. PV nodes 0, 1, 3, 9 (the first moves); cut nodes the PV nodes' other children, 2,
    # 4, 5, 10, and the children of the all node 6, 16 to 18; all nodes the first children of the cut nodes 2, 4, 5:
    # 6, 11, 13 (10 is a leaf). The test's alpha-beta enters exactly these 14 positions on this best-first tree.
    "node-types": {"my_cut_nodes": {"2", "4", "5", "10", "16", "17", "18"}, "my_all_nodes": {"6", "11", "13"}},
    # Lesson 4, exercise 1: from 10, (9, 10) fails low with 4, then (3, 4) fails high with 4: the bounds meet.
    "mtdf-passes": {"my_passes": 2, "my_windows": [(9, 10), (3, 4)]},
    # Lesson 4, exercise 2: alpha-beta with memory gets all eight right without bound flags (the test's search).
    "boundless-memory": {"my_wrong_somewhere": False},
    # Lesson 4, exercise 3: a table only saves work, so the value is right; with one slot every store after the
    # first overwrites, and alpha-beta with memory stores once each time it enters a position, 16,811 times (the
    # test's alpha-beta counts them): 16,810 overwrites.
    "one-slot": {"my_value_right": True, "my_overwrites": 16_810},
    # Lesson 4, exercise 4, by hand from the values by depth, 7, 0, 7, 0 (lesson 4): depth 2 has no value two
    # depths back and takes depth 1's, 7: (5, 9) misses 0. Depth 3 from depth 1's 7: (5, 9) holds 7; depth 4
    # from depth 2's 0: (-2, 2) holds 0.
    "same-parity": {"my_failing_depths": {2}, "my_why": "A"},
    # Lesson 5, exercise 1, by hand from the board (the test counts it again): f5 (next to f4, e5, f6), f7 (f6,
    # g7, g8) and g6 (f6, g7, h7) each have three O neighbours, a gain of 1 + 2 x 3 = 7; no square has more.
    "biggest-gain": {"my_best_squares": {"f5", "f7", "g6"}},
    # Lesson 5, exercise 2, by hand from the board: g6's O neighbours are f6 and g7 (beside and above it) and h7
    # (diagonal): rule 8 turns all three, rule 4 the two orthogonal ones.
    "flips": {"my_flips_rule8": {"f6", "g7", "h7"}, "my_flips_rule4": {"f6", "g7"}},
    # Lesson 5, exercise 3, by hand: 64 squares, 8 marked at the start, 56 empty, two filled a round: 28 rounds.
    "full-game": {"my_marks": 64, "my_why": "A"},
    # Lesson 5, exercise 4, by hand: a1's neighbours are b1, a2 (and b2 under rule 8): 3 and 2; rule 4 leaves
    # fewer squares from which a mark placed turns it.
    "corners": {"my_rule8": 3, "my_rule4": 2, "my_harder_rule": 4},
    # Lesson 6, exercise 1: the test's two-ply search on the board: b4 alone.
    "two-ply": {"my_two_ply_moves": {"b4"}},
    # Lesson 6, exercise 2: one O reply to g6 that leaves g6 better than a4, b4 and e3 in the tree; many work.
    "reservation-g6": {"my_sequence": ("g6", "a8")},
    # Lesson 6, exercise 3, from the lesson's counted run: the bot predicts 4.32 counted s for depth 9. With 5 s
    # its deepening gets 5 x (1 - 0.04) - 0.01 = 4.79 s, the normal deadline at 90% of that, 4.31 s, less what
    # depths 1 to 8 used: short of 4.32 s, so it does not start depth 9; with 2 s, still less. Depth 8 both times.
    "more-time": {"my_depth_2s": 8, "my_depth_5s": 8},
    # Lesson 6, exercise 4: the weight of marks that can never be turned again.
    "weights": {"my_weight": "stable"},
    # Lesson 7, exercise 1, by hand: n wins of n give the exact interval's lower end 0.025^(1/n); it passes 0.8
    # when n > ln 0.025 / ln 0.8 = 16.5: 17 games.
    "games-to-prove": {"my_games": 17},
    # Lesson 7, exercise 2, from the recorded files (the test reads them): the hill climber scores 0.05 as X and
    # 0.35 as O against the genetic bot under rule 8, the widest gap; alpha-beta won every game, as X and as O.
    "colours": {"my_match": ("hillclimb", "genetic", 8)},
}
"""The answers by question (a key of ``gamelib.teach.predictions.QUESTIONS``)."""


HOW: dict[str, str] = {
    "depth-9": "From your own table of nodes, N8 x N8 / N7 by the last factor and N8 x N7 / N6 by the factor two "
               "depths back (lesson 6's two rules, N_d the nodes of depth d).",
    "own-match": "From your own match's table: the genetic bot wins if it scores more than 0.5, and its interval "
                 "leaves out 0.5 if both ends are on one side of it.",
    "own-entry": "Your entry's line of the standings, once it has played its 2 x (entries - 1) games.",
    "deadline": "solutions/lesson_10_slow.py: a slow.py that keeps the best move found and returns it before the "
                "time is up.",
}
"""How to work out the answers that depend on the student's own run, by question."""
