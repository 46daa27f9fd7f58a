"""Pig with a turn limit, solved: expectiminimax against a separate dynamic program written here
from the rules (gamelib/games/pig.py's docstring), in exact fractions, on every reachable state
of a small game and at the start of larger ones; and two tiny games worked out by hand."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

from gamelib.games.game import IllegalMoveError, Player
from gamelib.games.pig import Pig, PigState
from gamelib.search.expectimax import expectiminimax
from gamelib.search.negamax import SearchError, alphabeta


@cache
def solve(target: int, sides: int) -> Callable[[int, int, int, int, int, bool], Fraction]:
    """V(a, b, k, t, m, rolling): MAX's expected outcome (+1 win, -1 loss, 0 draw), MAX's score a,
    MIN's b, turn total k, t turns left, m = 0 if MAX is rolling else 1, by backward induction."""

    @cache
    def value(a: int, b: int, k: int, t: int, m: int, rolling: bool) -> Fraction:
        if t == 0:
            return Fraction((a > b) - (a < b))
        if (a, b)[m] + k >= target:
            return Fraction(1 if m == 0 else -1)
        if max(a, b) >= target:
            return Fraction((a > b) - (a < b))
        if rolling:
            lost = value(a, b, 0, t - 1, 1 - m, False)
            return (lost + sum(value(a, b, k + face, t, m, False) for face in range(2, sides + 1))) / sides
        banked = (a + k, b) if m == 0 else (a, b + k)
        roll, hold = value(a, b, k, t, m, True), value(*banked, 0, t - 1, 1 - m, False)
        return max(roll, hold) if m == 0 else min(roll, hold)

    return value


def exact(game: Pig, state: PigState) -> Fraction:
    m = 0 if state.mover is Player.MAX else 1
    return solve(game.target, game.sides)(*state.scores, state.total, state.turns, m, state.rolling)


def reachable(game: Pig) -> set[PigState]:
    seen, frontier = {game.root}, [game.root]
    while frontier:
        for move in game.legal_moves(state := frontier.pop()):
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen


def test_one_turn_to_two_with_a_coin() -> None:
    # Target 2, one turn, a two-sided die: rolling gives 1 (turn over, 0-0, a draw: 0) or 2 (a win: +1),
    # so rolling is worth 1/2; holding 0 ends the game 0-0: 0. MAX rolls, worth 1/2.
    result = expectiminimax(Pig(target=2, turns=1, sides=2))
    assert (result.value, result.move) == (0.5, "roll")


def test_holding_wins_when_the_turns_run_out() -> None:
    # Target 3, one turn, coin. After rolling a 2 (total 2): rolling again is 1/2 * 0 + 1/2 * 1 = 1/2,
    # holding banks 2 against 0 with no turn left: +1. So that state is worth 1 by holding,
    # and the start 1/2 * 0 + 1/2 * 1 = 1/2 by rolling (holding at 0 draws: 0).
    game = Pig(target=3, turns=1, sides=2)
    after_two = game.result(game.result(game.root, "roll"), 2)
    assert expectiminimax(game, after_two).move == "hold" and expectiminimax(game, after_two).value == 1
    assert expectiminimax(game).value == 0.5


def test_every_reachable_state_of_a_small_game_has_the_exact_value() -> None:
    game = Pig(target=6, turns=3, sides=6)
    states = reachable(game)
    assert len(states) > 300
    for state in states:
        assert expectiminimax(game, state).value == pytest.approx(float(exact(game, state)), abs=1e-12), state


@pytest.mark.parametrize("target, turns", [(6, 4), (10, 2)])
def test_the_start_of_larger_games_has_the_exact_value(target: int, turns: int) -> None:
    game = Pig(target=target, turns=turns)
    assert expectiminimax(game).value == pytest.approx(float(exact(game, game.root)), abs=1e-12)


def test_rules_and_errors() -> None:
    game = Pig()
    assert (game.target, game.turns, game.sides) == (6, 4, 6)
    rolling = game.result(game.root, "roll")
    assert game.chance_outcomes(rolling) == tuple((face, 1 / 6) for face in range(1, 7))
    assert game.result(rolling, 1) == PigState((0, 0), 0, 3, Player.MIN)  # a 1 loses the turn
    assert game.result(game.result(rolling, 5), "hold") == PigState((5, 0), 0, 3, Player.MIN)
    assert game.is_terminal(game.result(game.result(game.result(rolling, 5), "roll"), 3))  # 8 >= 6: MAX wins
    with pytest.raises(IllegalMoveError, match="'hold' is not a move"):
        game.result(rolling, "hold")
    with pytest.raises(ValueError, match="sides >= 2"):
        Pig(sides=1)
    with pytest.raises(SearchError, match="chance nodes"):
        alphabeta(game, game.root)
