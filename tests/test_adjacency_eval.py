"""Evaluation functions of the Adjacency game, against hand counts and a hand-written neighbour check."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Mark
from gamelib.games.adjacency.evaluation import DEFAULT_WEIGHTS, FEATURES, Weights, features, material, value_bound, weighted
from tests.test_adjacency import choices, firsts, neighbours, playout, rules

CORNERS = {(0, 0), (7, 0), (0, 7), (7, 7)}


def hand_features(game: AdjacencyGame, state: AdjacencyState) -> dict[str, int]:
    """The features counted square by square with test_adjacency's own neighbour check."""
    text = game.board_string(state)
    board = {(i % 8, 7 - i // 8): c for i, c in enumerate(text)}
    over = game.is_terminal(state)
    counts = {name: 0 for name in FEATURES}
    for (file, rank), mark in board.items():
        if mark == ".":
            continue
        sign = 1 if mark == "X" else -1
        exposed = not over and any(board[n] == "." for n in neighbours(file, rank, game.rule))
        counts["material"] += sign
        counts["frontier" if exposed else "stable"] += sign
        if (file, rank) in CORNERS:
            counts["corners"] += sign
        elif file in (0, 7) or rank in (0, 7):
            counts["edges"] += sign
    return counts


@given(rules, firsts, choices)
def test_features_match_a_square_by_square_count(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    for state in playout(game, picks):
        assert features(game, state) == hand_features(game, state)
        assert material(game, state) == game.evaluate(state)


def mirrored(game: AdjacencyGame, state: AdjacencyState) -> AdjacencyState:
    """The position turned half a circle with the colours swapped: X's start becomes O's."""
    swap = {"X": "O", "O": "X", ".": "."}
    board = "".join(swap[c] for c in reversed(game.board_string(state)))
    return game.from_board(board, state.to_move.other, state.plies_left)


@given(rules, firsts, choices)
def test_swapping_colours_negates_every_feature(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    for state in playout(game, picks):
        assert features(game, mirrored(game, state)) == {k: -v for k, v in features(game, state).items()}
        assert weighted(game, mirrored(game, state)) == -weighted(game, state)


@given(rules, firsts, choices)
def test_weighted_values_are_integers_within_the_bound(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    for state in playout(game, picks):
        value = weighted(game, state)
        assert type(value) is int and abs(value) <= value_bound(DEFAULT_WEIGHTS)


def test_hand_counted_position() -> None:
    game = AdjacencyGame()
    state = game.play(game.root, ["g6"])  # X on g6 flips g7 and h7 (rule 8)
    # X: a1 b1 a2 b2 g6 g7 h7. Only a1 has no empty neighbour (b1 a2 b2): stable 1, frontier 6.
    # O: g8 h8. h8's neighbours g7 g8 h7 are full: stable 1; g8 sees f7 and f8: frontier 1.
    # Corners: X a1, O h8. Edges: X b1 a2 h7, O g8.
    assert features(game, state) == {"material": 7 - 2, "stable": 1 - 1, "frontier": 6 - 1,
                                     "corners": 1 - 1, "edges": 3 - 1}


@pytest.mark.parametrize("rule, stable, frontier", [(8, 0, 3), (4, 1, 2)])
def test_a_diagonal_hole_exposes_a_corner_only_under_rule_8(rule: int, stable: int, frontier: int) -> None:
    # X on a1 b1 a2 with b2 empty: under rule 8 a1 sees the hole at b2; under rule 4 it does not.
    game = AdjacencyGame(rule=rule)
    state = game.from_notation(f"8/8/8/8/8/8/X7/XX6 O 10 r{rule}")
    assert (features(game, state)["stable"], features(game, state)["frontier"]) == (stable, frontier)


def test_every_mark_is_stable_when_the_game_is_over() -> None:
    game = AdjacencyGame()
    state = game.from_notation("8/8/8/8/8/8/X7/XX4OO O 0 r8")  # no plies left
    assert features(game, state) == {"material": 1, "stable": 1, "frontier": 0, "corners": 0, "edges": 1}
    # X a1 b1 a2, O g1 h1: corners a1 and h1 cancel; edges X b1 a2 and O g1 leave 1


@pytest.mark.parametrize("name", FEATURES)
def test_a_unit_weight_picks_out_its_feature(name: str) -> None:
    game = AdjacencyGame()
    state = game.play(game.root, ["g6", "c3", "b3", "h6"])
    assert weighted(game, state, Weights(**{name: 1})) == features(game, state)[name]
    assert weighted(game, state, Weights(**{name: -3})) == -3 * features(game, state)[name]


def test_value_bound_by_hand() -> None:
    # 64 marks, 64 stable, 64 frontier, 4 corners, 24 edge squares (28 border squares less 4 corners)
    assert value_bound(Weights(1, 1, 1, 1, 1)) == 64 + 64 + 64 + 4 + 24
    assert value_bound(Weights(stable=-2, edges=3)) == 2 * 64 + 3 * 24
    full_x = AdjacencyGame().from_board("X" * 64, Mark.O, 0)
    assert weighted(AdjacencyGame(), full_x, Weights(material=1, stable=1, corners=1, edges=1)) == 64 + 64 + 4 + 24
