"""Exact endgame solving: the alpha-beta bot's solved results against a brute-force minimax."""

from __future__ import annotations

import random

import pytest

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.play.arena import random_line
from gamelib.play.bots.alphabeta import AlphaBetaBot, solved_text
from gamelib.play.engine_protocol import EngineSession


def brute_force(game: AdjacencyGame, state: AdjacencyState) -> int:
    """X's marks minus O's at the end of best play: every line to the end of the game, no pruning."""
    if game.is_terminal(state):
        x, o = game.counts(state)
        return x - o
    values = [brute_force(game, game.result(state, move)) for move in game.legal_moves(state)]
    return max(values) if state.to_move.value == "X" else min(values)


def endgame_positions(rule: int, count: int, seed: int) -> list[AdjacencyState]:
    """``count`` positions of random games with 1 to 6 plies left (seeded)."""
    game, rng = AdjacencyGame(rule=rule), random.Random(seed)
    positions = []
    for _ in range(count):
        line = random_line(game, rng, 56)
        positions.append(game.play(game.root, line[:56 - rng.randint(1, 6)]))
    return positions


@pytest.mark.parametrize("rule", [8, 4])
def test_the_bot_solves_endgames_exactly_and_says_so(rule: int) -> None:
    game = AdjacencyGame(rule=rule)
    for state in endgame_positions(rule, 12, seed=rule):
        bot = AlphaBetaBot()
        decision = bot.choose(game, state, 5.0)
        exact = brute_force(game, state)
        assert decision.value == exact, game.to_notation(state)
        assert decision.note.endswith(solved_text(exact))
        assert brute_force(game, game.result(state, decision.move)) == exact  # the move keeps the result


def test_solved_text_says_who_wins_by_how_much() -> None:
    assert solved_text(1) == "solved: X wins by 1 mark"
    assert solved_text(-6) == "solved: O wins by 6 marks"
    assert solved_text(0) == "solved: a draw"


def test_no_claim_without_reaching_the_end() -> None:
    game = AdjacencyGame()
    assert "solved" not in AlphaBetaBot().choose(game, game.root, 0.05).note
    state = endgame_positions(8, 1, seed=1)[0]
    assert "solved" not in AlphaBetaBot(evaluation="weighted").choose(game, state, 5.0).note  # values are not marks


def test_the_engine_info_line_reports_the_solution() -> None:
    game = AdjacencyGame()
    state = endgame_positions(8, 1, seed=5)[0]
    session = EngineSession(AlphaBetaBot())
    assert session.handle("info") == "info none: no go yet"
    session.handle(f"position {game.board_string(state)} {state.to_move.value} {state.plies_left}")
    assert session.handle("go 5000").startswith("move ")
    info = session.handle("info")
    assert info.startswith("info depth ") and info.endswith(solved_text(brute_force(game, state)))


def test_the_depth_that_solves_the_game_is_never_skipped_on_a_prediction() -> None:
    import time

    from gamelib.games.game import Player
    from gamelib.search.time_rules import ENGINE_RULES, MoveClock

    clock = MoveClock(1.0, None, ENGINE_RULES, Player.MAX, time.perf_counter())
    times = [0.01, 0.1, 0.2]  # predicts 0.2 * 10,000 / 1,000 = 2 s, more than the second left
    nodes = [1000, 10000, 20000]  # the factor into depth 2: 10
    skipped = clock.skip(4, times, nodes)
    assert skipped is not None and skipped.predicted == pytest.approx(2.0)
    assert clock.skip(4, times, nodes, end=4) is None  # depth 4 reaches the end of the game
    later = [0.01, 0.1, 0.15]  # predicts 1.5 s
    assert clock.skip(4, later, nodes, end=5) is None  # one ply before the end: (5-4+1)/(5-4+3) of it, 0.75 s, fits
    far = clock.skip(4, later, nodes, end=40)
    assert far is not None and far.predicted == pytest.approx(1.5 * 37 / 39)

