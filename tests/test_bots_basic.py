"""The random bot and the human player: legal moves, seeding, and typed input with its reasons."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, parse_square, square_name
from gamelib.play.bots import make_bot
from gamelib.play.bots.base import RandomBot
from gamelib.play.bots.human import HumanPlayer
from tests.budget import examples

GAME = AdjacencyGame(rounds=6)


def random_position(seed: int, plies: int) -> AdjacencyState:
    """The position after ``plies`` moves of a seeded random game."""
    bot, state = RandomBot(seed), GAME.root
    for _ in range(plies):
        state = GAME.result(state, bot.choose(GAME, state, 1.0).move)
    return state


@examples(50)
@given(st.integers(0, 10**6), st.integers(0, 11))
def test_random_bot_plays_an_empty_square(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    move = RandomBot(seed + 1).choose(GAME, state, 1.0).move
    assert not (state.x | state.o) >> move & 1


def test_same_seed_same_game_other_seed_other_game() -> None:
    def moves(seed: int) -> list[int]:
        bot, state, played = RandomBot(seed), GAME.root, []
        while not GAME.is_terminal(state):
            played.append(bot.choose(GAME, state, 1.0).move)
            state = GAME.result(state, played[-1])
        return played

    assert moves(3) == moves(3)
    assert moves(3) != moves(4)


def test_random_bot_reaches_every_move() -> None:
    # 56 empty squares at the start (64 minus the seed's 4 X and 4 O); 3000 uniform draws miss a
    # given square with probability (55/56)^3000 < 1e-23.
    bot = RandomBot(seed=11)
    counts = Counter(bot.choose(GAME, GAME.root, 1.0).move for _ in range(3000))
    assert set(counts) == set(GAME.legal_moves(GAME.root)) and len(counts) == 56


def test_random_bot_refuses_a_finished_game() -> None:
    with pytest.raises(ValueError, match="over"):
        RandomBot().choose(GAME, random_position(0, 12), 1.0)


def test_bots_by_name() -> None:
    bot = make_bot("random", seed=2)
    assert isinstance(bot, RandomBot) and bot.seed == 2
    assert isinstance(make_bot("human"), HumanPlayer)


def scripted(text: str) -> tuple[HumanPlayer, io.StringIO]:
    out = io.StringIO()
    return HumanPlayer(input=io.StringIO(text), output=out), out


def test_human_is_asked_again_with_the_reason() -> None:
    human, out = scripted("hello\ni9\nb2\n  C3 \n")
    decision = human.choose(GAME, GAME.root, 5.0)
    assert decision.move == 18  # c3: file c = 2, rank 3 -> 2 + 8 * 2
    lines = out.getvalue().splitlines()
    assert len(lines) == 4  # three refusals, then the prompt that got c3
    assert "bad square 'hello'" in lines[0] and "bad square 'i9'" in lines[1]
    assert "b2 is occupied by X" in lines[2]  # the seed's start: X on a1 b1 a2 b2


def test_human_lists_the_empty_squares() -> None:
    human, out = scripted("?\nh1\n")
    assert square_name(human.choose(GAME, GAME.root, 5.0).move) == "h1"
    listed = out.getvalue().splitlines()[0].split("empty squares: ")[1].split()
    assert len(listed) == 56 and "a1" not in listed and "h8" not in listed and "c3" in listed


def test_human_sees_who_is_to_move() -> None:
    human, out = scripted("d4\n")
    state = GAME.result(GAME.root, parse_square("c3"))
    human.choose(GAME, state, 5.0)
    assert out.getvalue().startswith("O to move")


def test_end_of_input_is_eof_error() -> None:
    human, _ = scripted("a1\n")
    with pytest.raises(EOFError):
        human.choose(GAME, GAME.root, 5.0)
