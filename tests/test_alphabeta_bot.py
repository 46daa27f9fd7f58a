"""The alpha-beta bot and the lookahead it searches with, on the Adjacency game.

Expected values come from plain alpha-beta on the plain :class:`AdjacencyGame` (every move
generated, in square order, no table), whose value is minimax's (tests/test_properties.py), from
minimax itself, and from brute-force counts of neighbours. Timing is not tested here (the machine is
shared); ``benchmarks/adjacency_search.py`` measures it. The deadline logic is tested with a fake
clock instead.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamelib.play.bots.alphabeta as bot_module
from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, neighbour_mask, parse_square, square_name
from gamelib.games.adjacency.lookahead import LookaheadGame, gain_counts
from gamelib.games.game import INF
from gamelib.play.arena import play_game
from gamelib.play.bots.alphabeta import SEARCHES, AlphaBetaBot, WeightedGame
from gamelib.play.bots.base import RandomBot
from gamelib.search.deepening import Deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, SearchResult, alphabeta, minimax, negascout
from gamelib.search.random_trees import random_tree
from gamelib.search.time_rules import Partial, predict_seconds, shrinking
from gamelib.search.tracing import Bound, RecordingTracer
from gamelib.search.ttable import TranspositionTable
from tests.budget import examples
from tests.conftest import SetClock


@st.composite
def positions(draw: st.DrawFn, most_empty: int = 56) -> tuple[AdjacencyGame, AdjacencyState]:
    """A game (rule, rounds, first player) and an unfinished position of it reached by random
    moves, with at most ``most_empty`` empty squares."""
    fewest = max(4, (57 - most_empty + 1) // 2)  # rounds enough to play 56 - most_empty plies and one more
    game = AdjacencyGame(rounds=draw(st.integers(fewest, 28)), rule=draw(st.sampled_from([8, 4])),
                         first=draw(st.sampled_from(["X", "O"])))
    plies = draw(st.integers(max(0, 56 - most_empty), 2 * game.rounds - 1))
    picks = draw(st.lists(st.integers(0, 10_000), min_size=plies, max_size=plies))
    state = game.root
    for pick in picks:
        state = game.result(state, game.legal_moves(state)[pick % len(game.legal_moves(state))])
    return game, state


def plain_value(game: AdjacencyGame, state: AdjacencyState, depth: int) -> int:
    """The depth-``depth`` minimax value for the side to move, by plain alpha-beta."""
    return game.to_move(state).sign * int(alphabeta(game, state, depth).value)


# The lookahead ---------------------------------------------------------------------------------

@examples(100)
@given(st.integers(0, (1 << 64) - 1), st.sampled_from([8, 4]))
def test_gain_counts_count_the_neighbours(marks: int, rule: int) -> None:
    planes = gain_counts(marks, rule)
    for square in range(64):
        if not marks >> square & 1:
            count = sum((plane >> square & 1) << digit for digit, plane in enumerate(planes))
            assert count == (marks & neighbour_mask(square, rule)).bit_count(), square


@examples(150)
@given(positions())
def test_the_frontier_value_is_a_depth_1_search(position: tuple[AdjacencyGame, AdjacencyState]) -> None:
    game, state = position
    value = LookaheadGame.like(game).frontier_value(state)
    empty = 64 - (state.x | state.o).bit_count()
    assert (value is None) == (state.plies_left < 2 or empty < 2)
    if value is not None:
        assert value == plain_value(game, state, 1)


@examples(40)
@given(positions(most_empty=24), st.sampled_from([2, 3, 4]))
def test_move_groups_cover_the_moves_and_bound_their_values(position: tuple[AdjacencyGame, AdjacencyState],
                                                            depth: int) -> None:
    """Each finite bound is at least the depth - 1 value of every move of its group (checked for
    the first two moves of each group), and bounds never increase."""
    game, state = position
    groups = list(LookaheadGame.like(game).move_groups(state, depth))
    assert sorted(move for _, moves in groups for move in moves) == game.legal_moves(state)
    bounds = [bound for bound, _ in groups]
    assert bounds == sorted(bounds, reverse=True)
    for bound, moves in groups:
        for move in moves[:2] if bound < INF else ():
            assert -plain_value(game, game.result(state, move), depth - 1) <= bound


@examples(40)
@given(positions(most_empty=30), st.integers(1, 4))
def test_every_search_with_the_lookahead_equals_plain_alphabeta(position: tuple[AdjacencyGame, AdjacencyState],
                                                               depth: int) -> None:
    """No pruning by the lookahead changes a fixed-depth value, with or without a table."""
    game, state = position
    expected = alphabeta(game, state, depth).value
    lookahead = LookaheadGame.like(game)
    assert alphabeta(lookahead, state, depth).value == expected
    assert alphabeta(lookahead, state, depth, fail_soft=True, table=TranspositionTable(4096)).value == expected
    assert negascout(lookahead, state, depth).value == expected
    assert negascout(lookahead, state, depth, pvs=True, table=TranspositionTable(64)).value == expected
    assert mtdf(lookahead, state, depth, first_guess=3).value == expected


def test_a_traced_lookahead_search_is_the_untraced_one() -> None:
    game = LookaheadGame(rounds=6)
    state = game.play(game.root, ["d4", "e5", "c3"])
    tracer = RecordingTracer()
    traced, untraced = negascout(game, state, 4, tracer=tracer), negascout(game, state, 4)
    assert (traced.value, traced.move, traced.nodes) == (untraced.value, untraced.move, untraced.nodes)
    assert sum(event.kind == "enter" for event in tracer.events) == traced.nodes
    assert traced.value == alphabeta(AdjacencyGame(rounds=6), state, 4).value


# The bot at a fixed depth -------------------------------------------------------------------------

@examples(30)
@given(positions(most_empty=30), st.integers(1, 4), st.sampled_from(sorted(SEARCHES)))
def test_the_bot_at_a_fixed_depth_plays_a_minimax_move(position: tuple[AdjacencyGame, AdjacencyState],
                                                       depth: int, search: str) -> None:
    game, state = position
    decision = AlphaBetaBot(search=search, depth=depth).choose(game, state, 1.0)
    expected = alphabeta(game, state, depth).value
    assert decision.value == expected  # MAX's point of view
    assert decision.move in game.legal_moves(state)
    after = game.result(state, decision.move)
    assert game.to_move(state).sign * alphabeta(game, after, depth - 1).value == plain_value(game, state, depth)


@examples(15)
@given(positions(most_empty=9))
def test_the_bot_equals_minimax_near_the_end(position: tuple[AdjacencyGame, AdjacencyState]) -> None:
    game, state = position
    assert AlphaBetaBot(depth=3).choose(game, state, 1.0).value == minimax(game, state, 3).value


@examples(15)
@given(positions(most_empty=16), st.integers(1, 2))
def test_the_weighted_bot_equals_minimax_on_the_weighted_evaluation(
        position: tuple[AdjacencyGame, AdjacencyState], depth: int) -> None:
    game, state = position
    weighted = WeightedGame(game.rounds, game.rule, game.first)
    decision = AlphaBetaBot(evaluation="weighted", depth=depth).choose(game, state, 1.0)
    assert decision.value == minimax(weighted, state, depth).value


def test_the_weighted_window_covers_values_beyond_material() -> None:
    """X holds 58 squares, O 2: the weighted value (at least 4 a mark of material) is far above 64,
    where the material window ends, and the bot must still report it exactly."""
    game = AdjacencyGame(rounds=28)
    state = game.from_board("OO" + "X" * 58 + "....", "X", 4)
    decision = AlphaBetaBot(evaluation="weighted", depth=2).choose(game, state, 1.0)
    expected = minimax(WeightedGame(), state, 2).value
    assert expected > 64 and decision.value == expected


def test_the_same_seed_and_depth_give_the_same_moves() -> None:
    game = AdjacencyGame(rounds=6)
    first, second = AlphaBetaBot(seed=3, depth=3), AlphaBetaBot(seed=3, depth=3)
    state = game.root
    while not game.is_terminal(state):
        move = first.choose(game, state, 1.0).move
        assert second.choose(game, state, 1.0).move == move
        state = game.result(state, move)


def test_the_table_is_kept_between_moves_and_cleared_for_other_rules() -> None:
    bot, game = AlphaBetaBot(depth=4), AdjacencyGame(rounds=8)
    first = bot.choose(game, game.root, 1.0)
    again = bot.choose(game, game.root, 1.0)
    assert again.nodes < first.nodes and (again.move, again.value) == (first.move, first.value)
    rule4 = AdjacencyGame(rounds=8, rule=4)  # the same boards, other values: the table must go
    fresh = AlphaBetaBot(depth=4).choose(rule4, rule4.root, 1.0)
    kept = bot.choose(rule4, rule4.root, 1.0)
    assert (kept.move, kept.value, kept.nodes) == (fresh.move, fresh.value, fresh.nodes)


ISSUE_12_GAME = ("g6 h6 f7 f8 f6 e8 e7 e6 d6 d7 d8 a3 b3 c7 c8 c6 d5 c5 e5 f5 g5 h5 b6 b7 b8 c2 c1 a8 a7 a6 b5 a5 "
                 "c4 c3 d3 d4 e4 f4 g4 h4 e3 f3 g3 h3 e2 e1 b4 a4 g2 g1 f2 f1").split()
"""A rule-8, 28-round game (52 plies) in which the bot once played d1 at ply 52 with value None."""


def test_after_solving_the_game_the_bot_still_plays_a_best_move() -> None:
    """Issue 12: one bot asked at X's plies 44, 46, 48 and 50 of this game solves it at ply 44
    (12 plies left) and keeps end-of-game bounds in its table. At ply 52 a stored lower bound
    narrowed the root's window, no move beat it, the root stored a bound without a move, and the
    bot played its first legal move, d1, with value None and the note "no search finished in time".
    ``depth=12`` solves the game at ply 44 whatever the machine's load (``AlphaBetaBot()`` with 5 s
    a move did the same in about 1.5 s). The oracles search to the end of the game without a
    table: minimax for the four moves at ply 52, plain alpha-beta (minimax's value) from ply 48."""
    game, bot = AdjacencyGame(rounds=28, rule=8), AlphaBetaBot(depth=12)
    state, decisions = game.root, {}
    for ply, square in enumerate(ISSUE_12_GAME):
        if ply in (44, 46, 48, 50):
            decisions[ply] = state, bot.choose(game, state, 5.0)
        state = game.play(state, [square])
    decisions[52] = state, bot.choose(game, state, 5.0)
    assert decisions[44][1].depth == 12  # solved: the search reached the end of the game everywhere
    by_move = {square_name(move): minimax(game, game.result(state, move)).value for move in game.legal_moves(state)}
    assert by_move["d1"] == -16 and by_move["h2"] == -10 == max(by_move.values())  # the issue's values
    for position, decision in (decisions[48], decisions[50], decisions[52]):
        assert decision.depth is not None and "no search finished" not in decision.note
        assert decision.value == alphabeta(game, position).value  # MAX's (X's) point of view
        assert alphabeta(game, game.result(position, decision.move)).value == decision.value


@examples(30)
@given(positions())
def test_the_bot_never_plays_an_illegal_move(position: tuple[AdjacencyGame, AdjacencyState]) -> None:
    game, state = position
    decision = AlphaBetaBot(depth=2).choose(game, state, 1.0)
    assert decision.move in game.legal_moves(state) and decision.depth is not None


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bot_beats_the_random_bot(seed: int) -> None:
    game = AdjacencyGame(rounds=4)
    as_x = play_game(game, AlphaBetaBot(depth=2), RandomBot(seed=seed), seconds=1.0, seed=seed)
    as_o = play_game(game, RandomBot(seed=seed), AlphaBetaBot(depth=2), seconds=1.0, seed=seed)
    assert (as_x.result, as_o.result) == ("X", "O")


@pytest.mark.parametrize("options, message", [
    ({"search": "scout"}, "unknown search 'scout'"), ({"evaluation": "mobility"}, "unknown evaluation"),
    ({"depth": 0}, "must be >= 1"), ({"clock": "sudden"}, "unknown clock 'sudden'")])
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(SearchError, match=message):
        AlphaBetaBot(**options)  # type: ignore[arg-type]


def test_bad_calls_are_refused() -> None:
    game = AdjacencyGame(rounds=2)
    with pytest.raises(SearchError, match="seconds is 0"):
        AlphaBetaBot().choose(game, game.root, 0)
    end = game.play(game.root, ["c3", "f6", "d4", "e5"])
    with pytest.raises(SearchError, match="the game is over"):
        AlphaBetaBot().choose(game, end, 1.0)


# The clock, faked ----------------------------------------------------------------------------------

class FakeClock:
    """``perf_counter()`` for the bot, iterative deepening and the search core: each reading moves
    time on by ``step`` seconds, so a search's progress, not the machine, decides when time is up."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def clock(set_clock: SetClock) -> FakeClock:
    fake = FakeClock(step=0.01)
    set_clock(fake.perf_counter)
    return fake


def test_the_plain_bot_answers_with_the_last_depth_that_finished(clock: FakeClock) -> None:
    """The core reads the clock every 256 nodes; 0.01 s a reading and a 1 s limit stop the search
    in some depth k + 1 (after ~24,000 nodes from the opening). The answer is depth k's, exactly as
    a fixed-depth search finds it, and the fake time used stays within the limit."""
    game = AdjacencyGame()
    start = clock.now
    decision = AlphaBetaBot(clock="plain").choose(game, game.root, 1.0)
    assert clock.now - start <= 1.0
    assert decision.depth is not None and decision.depth >= 2
    assert f"no time to finish depth {decision.depth + 1}" in decision.note
    fixed = AlphaBetaBot(depth=decision.depth).choose(game, game.root, 1.0)
    assert (decision.move, decision.value) == (fixed.move, fixed.value)
    assert decision.nodes > fixed.nodes  # the unfinished depth's nodes count too


def test_with_no_depth_finished_the_bot_plays_the_first_move(clock: FakeClock) -> None:
    """A root with 300 moves: depth 1 needs 301 nodes, and the first clock reading (node 256) is
    past the deadline, so no depth finishes."""
    clock.step = 10.0
    tree = random_tree(300, 1, seed=1)
    decision = AlphaBetaBot().choose(tree, tree.root, 1.0)
    assert (decision.move, decision.value, decision.depth) == (tree.legal_moves(tree.root)[0], None, None)
    assert decision.nodes == 256 and "no search finished" in decision.note


def test_the_engine_bot_does_not_start_the_depth_the_plain_bot_could_not_finish(clock: FakeClock) -> None:
    """Under the same fake clock, the plain bot spends its second on a depth it throws away; the
    engine bot predicts that depth from the depths before (``predict_seconds``) and stops. 3 s (of
    fake time: about 77,000 nodes) reach depth 7, whose prediction has depths of enough nodes to
    go on (depth 5 entered more than MIN_NODES)."""
    game = AdjacencyGame()
    start = clock.now
    plain = AlphaBetaBot(clock="plain").choose(game, game.root, 3.0)
    plain_seconds, start = clock.now - start, clock.now
    bot = AlphaBetaBot()
    engine = bot.choose(game, game.root, 3.0)
    assert plain.depth is not None and engine.depth == plain.depth
    assert f"no time to finish depth {plain.depth + 1}" in plain.note
    match = re.search(r"did not start depth (\d+): predicted ([\d.]+) s > ([\d.]+) s left", engine.note)
    assert match is not None and int(match[1]) == plain.depth + 1 and float(match[2]) > float(match[3])
    assert bot.last_search is not None
    predicted = predict_seconds(bot.last_search.times, [result.nodes for result in bot.last_search.iterations])
    assert predicted is not None and float(match[2]) == pytest.approx(  # the note's 3 digits; 56 plies to the end
        predicted * shrinking(int(match[1]), game.root.plies_left), rel=0.01)
    assert clock.now - start < plain_seconds
    assert (engine.move, engine.value) == (plain.move, plain.value)


def test_a_proven_move_of_an_unfinished_depth_is_played_and_said() -> None:
    """The Decision for a deepening whose depth 3 proved c3 better than depth 2's d4."""
    game = AdjacencyGame(rounds=4)
    depth_2 = SearchResult(value=1, move=parse_square("d4"), pv=(), nodes=50, leaves=40, complete=False)
    found = Deepening(depth_2, 2, (depth_2, depth_2), True, 0.5, unfinished_nodes=300,
                      partial=Partial(3, parse_square("c3"), 4, Bound.LOWER, parse_square("d4")))
    decision = bot_module._decision(game, game.root, found, 0.5, "negascout")
    assert (square_name(decision.move), decision.value, decision.depth, decision.nodes) == ("c3", 4, 2, 400)
    assert "depth 3 unfinished but proved c3 better than d4 (value >= +4): played it" in decision.note
