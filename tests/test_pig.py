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
from gamelib.search.tracing import Exit, RecordingTracer


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


def value_iteration(target: int, turns: int, sides: int) -> dict[tuple[int, int, int, int, int, bool], Fraction]:
    """Every state's value for MAX by value iteration (Neller & Presser 2004 solve Pig this way),
    written from the rules in gamelib/games/pig.py's docstring alone, with none of its code: a
    table of all states (a, b, k, t, m, rolling) with banked scores a (MAX) and b (MIN) below the
    target, turn total k with the mover's a or b + k below the target, t turns left, m the mover
    (0 MAX, 1 MIN), every value 0 at first, then sweeps of the Bellman update over the whole table
    until a sweep changes nothing. The game cannot return to a state, so the sweeps end."""
    def end(a: int, b: int, k: int, t: int, m: int) -> Fraction | None:
        """The outcome if the game is over: a player at the target (score + turn total) wins;
        without turns the higher banked score wins (equal: a draw)."""
        mine = (a, b)[m] + k
        if mine >= target:
            return Fraction(1 if m == 0 else -1)
        if t == 0:
            return Fraction((a > b) - (a < b))
        return None

    states = [(a, b, k, t, m, rolling) for a in range(target) for b in range(target) for t in range(1, turns + 1)
              for m in (0, 1) for k in range(target - (a, b)[m]) for rolling in (False, True)]
    states.sort(key=lambda state: (state[3], -state[2], not state[5]))  # a sweep order in which the values settle fast
    values = dict.fromkeys(states, Fraction(0))

    def value(a: int, b: int, k: int, t: int, m: int, rolling: bool) -> Fraction:
        over = end(a, b, k, t, m)
        return over if over is not None else values[a, b, k, t, m, rolling]

    changed, sweeps = True, 0
    while changed:
        changed, sweeps = False, sweeps + 1
        for a, b, k, t, m, rolling in states:
            if rolling:  # a 1 ends the turn with nothing banked; a face f >= 2 adds f to the turn total
                new = (value(a, b, 0, t - 1, 1 - m, False)
                       + sum(value(a, b, k + face, t, m, False) for face in range(2, sides + 1))) / sides
            else:  # roll, or hold: bank the turn total, the turn passes
                roll = value(a, b, k, t, m, True)
                hold = value(a + k, b, 0, t - 1, 1, False) if m == 0 else value(a, b + k, 0, t - 1, 0, False)
                new = max(roll, hold) if m == 0 else min(roll, hold)
            if new != values[a, b, k, t, m, rolling]:
                values[a, b, k, t, m, rolling], changed = new, True
    assert sweeps <= 3, f"the sweeps should settle at once in this order; took {sweeps}"
    return values


def test_lesson_8s_value_is_the_value_iteration_of_the_rules() -> None:
    # Lesson 8's Pig (target 6, 4 turns, a die of 6) is worth 44899/82944 to MAX. The lesson's own check
    # shares Pig's rules code with the search, so only a computation from the rules alone can catch a rules
    # bug: the value iteration agrees with the dynamic program above, and test_the_start_of_larger_games
    # checks the search's value against that.
    assert value_iteration(6, 4, 6)[0, 0, 0, 4, 0, False] == Fraction(44899, 82944) == exact(Pig(6, 4, 6), Pig().root)
    game, tracer = Pig(target=6, turns=3, sides=6), RecordingTracer()  # and every state of a smaller game
    expectiminimax(game, tracer=tracer)
    iterated = value_iteration(6, 3, 6)
    backed_up = {event.node: event.value for event in tracer.events if isinstance(event, Exit)}
    inner = [state for state in reachable(game) if not game.is_terminal(state)]
    assert len(inner) > 100
    for state in inner:
        key = (*state.scores, state.total, state.turns, 0 if state.mover is Player.MAX else 1, state.rolling)
        assert backed_up[str(state)] == pytest.approx(float(iterated[key]), abs=1e-12), state


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
