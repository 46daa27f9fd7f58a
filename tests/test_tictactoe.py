"""Tic-tac-toe: rules, Zobrist keys, and the game tree's well-known counts.

The counts are brute-force facts, recounted here by a walk independent of gamelib's searches:
549,946 nodes (the empty board included) and 255,168 finished games, of which X wins 131,184,
O wins 77,904 and 46,080 are draws; 5,478 distinct legal positions (Schaeffer's and Bottomley's
tallies; OEIS A008907 gives the games per length). The game is a draw with perfect play.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib import IllegalMoveError, Player, minimax
from gamelib.games.tictactoe import TicTacToe, TicTacToeState
from gamelib.games.zobrist import ZobristKeys

GAME = TicTacToe()


def walk(state: TicTacToeState, outcomes: Counter[int], seen: set[int]) -> int:
    """Nodes below and including ``state``; counts finished games by outcome and distinct keys."""
    seen.add(state.key)
    if GAME.is_terminal(state):
        outcomes[GAME.evaluate(state)] += 1
        return 1
    return 1 + sum(walk(GAME.result(state, move), outcomes, seen) for move in GAME.legal_moves(state))


@pytest.mark.slow  # every game played out (255,168): a long run; lesson 4 counts the tree in make test
def test_the_game_tree_has_its_well_known_size() -> None:
    outcomes: Counter[int] = Counter()
    seen: set[int] = set()
    assert walk(GAME.root, outcomes, seen) == 549_946
    assert sum(outcomes.values()) == 255_168
    assert outcomes == Counter({1: 131_184, -1: 77_904, 0: 46_080})
    assert len(seen) == 5_478  # distinct keys = distinct positions: no two positions collide


def test_perfect_play_draws() -> None:
    assert minimax(GAME, GAME.play_all(["a1", "b2", "c3", "a3", "c1", "b1"])).value == 1  # X completes c1-c2-c3
    assert minimax(GAME, GAME.play_all(["b2"])).value == 0


moves = st.lists(st.integers(0, 8), max_size=9)


@given(moves)
def test_incremental_zobrist_keys_equal_keys_from_scratch(squares: list[int]) -> None:
    keys = ZobristKeys(pieces=2, squares=9)
    state = GAME.root
    for square in squares:
        if square not in GAME.legal_moves(state):
            continue
        state = GAME.result(state, square)
        scratch = keys.of_bitboards((state.x, state.o), second_to_move=GAME.to_move(state) is Player.MIN)
        assert state.key == scratch
        assert GAME.from_id(GAME.node_id(state)) == state


def test_a_transposition_gets_the_same_key() -> None:
    one = GAME.play_all(["a1", "b2", "c3"])
    other = GAME.play_all(["c3", "b2", "a1"])
    assert one == other and GAME.key(one) == GAME.key(other)
    assert GAME.key(one) != GAME.key(GAME.play_all(["a1", "b2"]))


@pytest.mark.parametrize("moves, square, message", [
    (["b2"], 4, "square b2 is taken"),
    ([], 9, "not on the board"),
    (["a1", "a2", "b1", "b2", "c1"], 8, "the game is over"),
])
def test_illegal_moves_are_refused_with_the_reason(moves: list[str], square: int, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        GAME.result(GAME.play_all(moves), square)


@pytest.mark.parametrize("text, message", [("XX", "9 characters"), ("XX.......", "X moves first")])
def test_bad_board_text_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.from_id(text)
