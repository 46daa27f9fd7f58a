"""One MAX against two MIN agents (two MIN plies in a row), searched by minimax, alpha-beta,
expectiminimax (with and without Star1) and expectimax, on a tree built by hand; every expected
value is worked out in the comments.

    P (MAX)
    ├── L (MIN, ghost 1)            static 0
    │   ├── L1 (MIN, ghost 2)       static 5:  a 3, b 12
    │   └── L2 (MIN, ghost 2)       static 7:  c 8, d 2
    └── R (MIN, ghost 1)            static 10
        ├── R1 (MIN, ghost 2)       static 6:  e 4, f 6
        └── R2 (MIN, ghost 2)       static 1:  g 1, h 9
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gamelib.games.game import Player
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.negamax import SearchResult, alphabeta, minimax
from gamelib.search.tracing import RecordingTracer, pruned_nodes


@pytest.fixture
def ghosts() -> GameTree:
    return tree_from_dict({
        "name": "two ghosts", "source": "made up for this test", "root": "P", "value_range": [0, 20],
        "children": {"P": ["L", "R"], "L": ["L1", "L2"], "R": ["R1", "R2"], "L1": ["a", "b"], "L2": ["c", "d"],
                     "R1": ["e", "f"], "R2": ["g", "h"]},
        "players": {"L1": "min", "L2": "min", "R1": "min", "R2": "min"},
        "values": {"a": 3, "b": 12, "c": 8, "d": 2, "e": 4, "f": 6, "g": 1, "h": 9,
                   "L": 0, "R": 10, "L1": 5, "L2": 7, "R1": 6, "R2": 1}})


def test_the_tree_has_two_min_plies_in_a_row(ghosts: GameTree) -> None:
    assert [ghosts.to_move(node) for node in ("P", "L", "L1", "a")] == [Player.MAX, Player.MIN, Player.MIN,
                                                                       Player.MAX]


# Full depth: L1 = min(3, 12) = 3, L2 = min(8, 2) = 2, L = min(3, 2) = 2;
# R1 = min(4, 6) = 4, R2 = min(1, 9) = 1, R = 1; P = max(2, 1) = 2 by L, then L2, then d.
@pytest.mark.parametrize("search", [minimax, alphabeta, expectiminimax])
def test_every_min_ply_backs_up_its_minimum(ghosts: GameTree, search: Callable[..., SearchResult]) -> None:
    result = search(ghosts)
    assert (result.value, result.pv) == (2, ("L", "L2", "d"))


def test_star1_gives_the_same_value(ghosts: GameTree) -> None:
    assert expectiminimax(ghosts, star1=True).value == 2


# depth 2 plies: L = min(L1 5, L2 7) = 5, R = min(R1 6, R2 1) = 1: P = 5 by L.
# depth 1 ply: L 0, R 10: P = 10 by R.
@pytest.mark.parametrize("search", [minimax, alphabeta, expectiminimax])
def test_depth_counts_plies_one_per_agent(ghosts: GameTree, search: Callable[..., SearchResult]) -> None:
    two = search(ghosts, depth=2)
    one = search(ghosts, depth=1)
    assert (two.value, two.move, one.value, one.move) == (5, "L", 10, "R")


def test_alphabeta_cuts_at_the_second_ghost_only_on_alpha(ghosts: GameTree) -> None:
    # L is worth 2, so R is searched with alpha = 2. R1: 4, 6 (no cut, nothing below 2).
    # R2 (window alpha 2, beta 4): g = 1 <= alpha, so h is cut. R's beta 4 cuts nothing at a MIN node.
    tracer = RecordingTracer()
    alphabeta(ghosts, tracer=tracer)
    assert pruned_nodes(ghosts, tracer.events) == ["h"]


def test_expectimax_treats_each_ghost_as_a_fair_die(ghosts: GameTree) -> None:
    # L1 = (3 + 12) / 2 = 7.5, L2 = (8 + 2) / 2 = 5, L = (7.5 + 5) / 2 = 6.25;
    # R1 = (4 + 6) / 2 = 5, R2 = (1 + 9) / 2 = 5, R = 5; P = 6.25 by L.
    result = expectimax(ghosts)
    assert (result.value, result.move) == (6.25, "L")
