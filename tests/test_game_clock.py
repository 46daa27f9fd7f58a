"""The whole-game clock: budgets that never overrun it, more in the middle game, in the arena and the engine."""

from __future__ import annotations

import math

import pytest

from gamelib.cli import main
from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import play_game
from gamelib.play.bots.base import RandomBot
from gamelib.play.engine_protocol import EngineSession
from gamelib.search.time_rules import MIN_MOVE_SECONDS, MOVE_RESERVE, counted_time, move_budget, phase_weight
from tests.test_engine_protocol import TimedBot


def _spend_every_budget(clock: float, total: int) -> list[float]:
    """The budgets of one side's moves in a game of ``total`` plies when each move spends all of its budget."""
    left, budgets = clock, []
    for plies_left in range(total, 0, -2):
        budgets.append(move_budget(left, plies_left, total))
        left -= budgets[-1]
    return budgets


@pytest.mark.parametrize("clock, total", [(120.0, 56), (1.0, 56), (10.0, 8), (0.2, 56)])
def test_budgets_never_add_up_to_more_than_the_clock(clock: float, total: int) -> None:
    budgets = _spend_every_budget(clock, total)
    assert all(budget >= MIN_MOVE_SECONDS for budget in budgets)
    if clock > MOVE_RESERVE * total:  # a clock above the reserves is never overrun
        assert math.fsum(budgets) <= clock


def test_the_middle_game_gets_more_than_the_start_and_the_end() -> None:
    budgets = _spend_every_budget(120.0, 56)  # X's 28 moves
    assert budgets[14] > budgets[0] and budgets[14] > budgets[-2]
    assert max(budgets) in budgets[10:18]
    # by hand: X's first 23 moves weigh 1 + sin(pi j / 28), j = 0..22, and the 5 with 10 plies left or
    # fewer 0.1 each; the sines add up to cot(pi/56) less those of j = 23..27 (sum of sin(pi j/n), j < n,
    # is cot(pi/2n))
    endgame_sines = sum(math.sin(math.pi * j / 28) for j in range(23, 28))
    weights = 23 + 1 / math.tan(math.pi / 56) - endgame_sines + 5 * 0.1
    assert budgets[0] == pytest.approx((120 - 28 * MOVE_RESERVE) / weights)
    assert budgets[-5:] == sorted(budgets[-5:]) and budgets[-6] > 5 * budgets[-5]  # the endgame gets little
    assert budgets[-1] == pytest.approx(120 - math.fsum(budgets[:-1]) - MOVE_RESERVE)  # the last: all but its reserve


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="plies"):
        move_budget(10.0, 0, 56)
    with pytest.raises(ValueError, match="plies"):
        phase_weight(57, 56)


def test_the_arena_gives_each_move_its_budget_and_records_it() -> None:
    game = AdjacencyGame(rounds=4)
    record = play_game(game, RandomBot(seed=1), RandomBot(seed=2), 600.0, 0, game_time=2.0)
    assert record.game_time == 2.0 and len(record.limits) == len(record.moves) == 8
    assert record.limits[0] == pytest.approx(move_budget(2.0, 8, 8))
    assert record.limits[2] == pytest.approx(move_budget(2.0 - record.seconds[0], 6, 8))  # X's clock, less its first move
    capped = play_game(game, RandomBot(seed=1), RandomBot(seed=2), 0.1, 0, game_time=2.0)
    assert max(capped.limits) == 0.1  # --time caps each move


def test_the_alphabeta_bot_stays_within_its_game_clock() -> None:
    """On a counted clock (2 ms every clock reading, which the search makes every 256 nodes), so
    that the machine's load cannot push a move over: what is checked is the bot's budgeting, not
    the machine's speed. (With 5 ms a reading, the arena's own two readings around each move take
    more of the bot's time than its 10 ms margin: a step must stay near the real pace.)"""
    from gamelib.play.bots.alphabeta import AlphaBetaBot

    with counted_time(step=0.002):
        record = play_game(AdjacencyGame(rounds=6), AlphaBetaBot(), AlphaBetaBot(), 600.0, 0, game_time=1.0)
    assert record.reason == "played" and len(record.moves) == 12
    for side in (0, 1):
        assert math.fsum(record.seconds[side::2]) <= 1.0
        assert all(seconds <= limit for seconds, limit in zip(record.seconds[side::2], record.limits[side::2]))


def test_the_engine_keeps_a_game_clock_and_fills_it_for_a_new_game() -> None:
    bot = TimedBot()
    session = EngineSession(bot, game_time=30.0)
    assert session.handle("go 600000").startswith("move")
    session.handle("play c3")
    session.handle("play f6")
    session.handle("go 100")  # capped by the go
    session.handle("position ......OO......OO................................XX......XX...... X 56")
    session.handle("go 600000")
    assert bot.asked[0] == pytest.approx(move_budget(30.0, 56, 56))
    assert bot.asked[1] == 0.1
    assert bot.asked[2] == pytest.approx(move_budget(30.0, 56, 56))  # a new game: the clock is full again
    assert session.clock_left < 30.0


@pytest.mark.parametrize("argv", [
    ["match", "random", "random", "--game-time", "0.5"],
    ["play", "--x", "random", "--game-time", "1e9"],
    ["engine", "--bot", "random", "--game-time", "-3"],
])
def test_the_command_line_refuses_a_bad_game_time(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "--game-time" in capsys.readouterr().err
