"""The hill-climbing bot plays one of the moves with the best immediate gain (seed 002, 2.3.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, parse_square
from gamelib.play.bots import make_bot
from gamelib.play.bots.hillclimb import HillClimbBot
from gamelib.search.negamax import SearchError
from tests.budget import examples


def names(*squares: str) -> set[int]:
    return {parse_square(square) for square in squares}


# Hand calculation from the start (X a1 b1 a2 b2, O g7 h7 g8 h8), rule 8: X on g6, h6, f7 or f8
# touches two O marks (g6: g7 h7; h6: g7 h7; f7: g7 g8; f8: g7 g8) and flips both, a gain of
# 1 + 2 * 2 = 5; no empty square touches three. X - O goes from 0 to 5.
# Rule 4: the same four squares touch one O mark orthogonally: gain 3, X - O = 3.
# O moving first is the mirror image: a3, b3, c1 or c2 flip two X marks; X - O = -5.
START_BEST = [
    (AdjacencyGame(rule=8), names("g6", "h6", "f7", "f8"), 5),
    (AdjacencyGame(rule=4), names("g6", "h6", "f7", "f8"), 3),
    (AdjacencyGame(rule=8, first="O"), names("a3", "b3", "c1", "c2"), -5),
]


@pytest.mark.parametrize(("game", "best", "value"), START_BEST)
def test_from_the_start_it_plays_a_hand_computed_best_move(game: AdjacencyGame, best: set[int],
                                                           value: int) -> None:
    moves = {HillClimbBot(seed=seed).choose(game, game.root, 1.0).move for seed in range(30)}
    decision = HillClimbBot(seed=0).choose(game, game.root, 1.0)
    assert moves == best  # every tied move is played by some seed, and only those
    assert decision.value == value
    assert decision.depth == 1 and decision.nodes == 56


@st.composite
def positions(draw: st.DrawFn) -> tuple[AdjacencyGame, AdjacencyState]:
    """A position reached by random moves in a game with a random rule and first player."""
    game = AdjacencyGame(rounds=draw(st.integers(2, 28)), rule=draw(st.sampled_from([8, 4])),
                         first=draw(st.sampled_from(["X", "O"])))
    state = game.root
    for _ in range(draw(st.integers(0, 2 * game.rounds - 1))):
        state = game.result(state, draw(st.sampled_from(game.legal_moves(state))))
    return game, state


@examples(60)
@given(positions(), st.integers(0, 1000))
def test_its_move_has_the_best_gain_of_the_seed(position: tuple[AdjacencyGame, AdjacencyState],
                                                 seed: int) -> None:
    game, state = position
    gains = {move: game.gain(state, move) for move in game.legal_moves(state)}  # the seed's addSymbol
    decision = HillClimbBot(seed=seed).choose(game, state, 1.0)
    assert gains[decision.move] == max(gains.values())
    assert decision.value == game.evaluate(state) + game.to_move(state).sign * gains[decision.move]


def test_the_same_seed_gives_the_same_moves() -> None:
    game = AdjacencyGame()
    first, second = HillClimbBot(seed=5), HillClimbBot(seed=5)
    assert [first.choose(game, game.root, 1.0).move for _ in range(10)] == \
        [second.choose(game, game.root, 1.0).move for _ in range(10)]


def test_a_finished_game_has_no_move() -> None:
    game = AdjacencyGame(rounds=2)
    state = game.play(game.root, ["c3", "f6", "d4", "e5"])
    with pytest.raises(SearchError, match="game is over"):
        HillClimbBot().choose(game, state, 1.0)


def test_it_is_the_hillclimb_bot_by_name() -> None:
    bot = make_bot("hillclimb", seed=3)
    assert isinstance(bot, HillClimbBot) and bot.name == "hillclimb" and repr(bot) == "HillClimbBot(seed=3)"
