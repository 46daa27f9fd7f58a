"""Monte Carlo tree search with UCT: UCB1 by hand, convergence to minimax, seeds, the trace.

Expected numbers come from hand computations (UCB1) and from minimax (the best root move), never
from the search's own output. The iteration budgets of the convergence tests are set from a
measurement, reported in each test: the last iteration at which the most visited root move was
still not minimax's best, read from the trace.
"""

from __future__ import annotations

import json
import math
import random

import pytest

from gamelib.games.adjacency import AdjacencyGame
from gamelib.games.data import load_seed_tree
from gamelib.games.game import Player
from gamelib.games.trees import GameTree, TreeFormatError, tree_from_dict
from gamelib.search.mcts import MAX_ITERATIONS, MAX_SECONDS, mcts, random_playout, ucb1, uct_choice
from gamelib.search.negamax import SearchError, minimax
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import (
    MCTS_EVENTS,
    MctsBackup,
    MctsExpand,
    MctsRollout,
    MctsSelect,
    RecordingTracer,
    event_from_dict,
)
from gamelib.view.mcts_explorer import mcts_svg, show_mcts
from gamelib.view.mcts_replay import MctsReplay, MctsReplayError, Phase, describe_mcts
from gamelib.view.replay import Replay, ReplayError, describe

SQRT2 = math.sqrt(2)


# (a) UCB1 by hand.

def test_ucb1_on_the_three_node_example() -> None:
    # Parent visits N = 10, ln 10 = 2.30258509; children (wins 3, visits 4) and (wins 2, visits 6), c = sqrt 2.
    # Child 1: 3/4 + 1.41421356 * sqrt(2.30258509 / 4) = 0.75 + 1.41421356 * 0.75871356 = 0.75 + 1.07298302
    #          = 1.82298302
    # Child 2: 2/6 + 1.41421356 * sqrt(2.30258509 / 6) = 0.33333333 + 1.41421356 * 0.61948703
    #          = 0.33333333 + 0.87608696 = 1.20942029
    # (Check: sqrt(2) * sqrt(x / 4) = sqrt(x / 2) = sqrt(1.15129255) = 1.07298302, and sqrt(x / 3) = 0.87608696.)
    # UCT selects child 1 (index 0), the higher score.
    assert ucb1(3, 4, 10, SQRT2) == pytest.approx(1.82298302, abs=1e-7)
    assert ucb1(2, 6, 10, SQRT2) == pytest.approx(1.20942029, abs=1e-7)
    index, scores = uct_choice([(3, 4), (2, 6)], 10, SQRT2)
    assert index == 0 and scores == pytest.approx((1.82298302, 1.20942029), abs=1e-7)


def test_exploration_picks_the_less_visited_child() -> None:
    # N = 10; children (wins 3, visits 7): mean 0.42857143, and (wins 1, visits 3): mean 0.33333333.
    # c = sqrt 2: 0.42857143 + 1.41421356 * sqrt(2.30258509 / 7) = 0.42857143 + 1.41421356 * 0.57353355
    #             = 0.42857143 + 0.81109893 = 1.23967036
    #             0.33333333 + 1.41421356 * sqrt(2.30258509 / 3) = 0.33333333 + 1.41421356 * 0.87608696
    #             = 0.33333333 + 1.23897406 = 1.57230739
    # so the bonus of the less visited child wins; with c = 0 the means alone decide: child 1.
    index, scores = uct_choice([(3, 7), (1, 3)], 10, SQRT2)
    assert index == 1 and scores == pytest.approx((1.23967036, 1.57230739), abs=1e-7)
    index, scores = uct_choice([(3, 7), (1, 3)], 10, 0.0)
    assert index == 0 and scores == pytest.approx((3 / 7, 1 / 3))


def test_equal_scores_select_the_first_child() -> None:
    assert uct_choice([(1, 2), (1, 2), (1, 2)], 6)[0] == 0


def tiny(to_move: str, values: dict[str, int]) -> GameTree:
    return tree_from_dict({"name": "tiny", "source": "made up", "root": "r", "to_move": to_move,
                           "children": {"r": list(values)}, "values": values})


@pytest.mark.parametrize("to_move, best", [("max", "b"), ("min", "a")])
def test_each_side_chooses_for_itself(to_move: str, best: str) -> None:
    # Leaves a = 1, b = 9 (MAX's view): MAX wants b, MIN wants a; the rewards are for MAX, so MIN
    # must turn them around (visits - wins) or it would prefer b too.
    result = mcts(tiny(to_move, {"a": 1, "b": 9}), iterations=40, seed=0)
    assert result.move == best
    assert dict(result.means) == {"a": 0.0, "b": 1.0}  # rewards scaled between the tree's values 1 and 9


# (b) Convergence to minimax's best move.

def unique_best(tree: GameTree) -> bool:
    """True if one root move is strictly better than the others for the side to move."""
    sign = tree.to_move(tree.root).sign
    values = sorted((sign * minimax(tree, child).value for child in tree.children_of(tree.root)), reverse=True)
    return len(values) == 1 or values[0] > values[1]


CONVERGENCE_TREES = [tree for shape in ((2, 4), (3, 3)) for seed in range(12)
                     if unique_best(tree := random_tree(*shape, seed=seed))]


@pytest.mark.parametrize("tree", CONVERGENCE_TREES, ids=lambda tree: tree.name)
def test_the_root_choice_converges_to_minimax(tree: GameTree) -> None:
    # Measured on these 23 trees (branching 2 depth 4 and branching 3 depth 3, tree seeds 0-11 with a
    # unique best move) with search seeds 0-2 (settled_at, 4,000 iterations): the most visited move is
    # minimax's for good from iteration 1 to 608 (median 27 of the 69 runs; 608 on b=2 d=4 seed 2, 247 on
    # b=3 d=3 seed 1, the rest at most 170). 2,000 iterations leave a margin of more than three times.
    best = minimax(tree).move
    for seed in range(3):
        assert mcts(tree, iterations=2000, seed=seed).move == best


def settled_at(tree: GameTree, iterations: int, seed: int) -> int:
    """The first iteration from which the most visited root move (ties: the higher mean for the
    side to move, then the first) is minimax's best to the end, counted from the trace's backups."""
    tracer = RecordingTracer()
    mcts(tree, iterations=iterations, seed=seed, tracer=tracer)
    best, sign = minimax(tree).move, tree.to_move(tree.root).sign
    visits: dict[str, int] = {}
    totals: dict[str, float] = {}
    wrong = 0
    for event in tracer.events:
        if isinstance(event, MctsBackup):
            child = event.path[1]
            visits[child] = visits.get(child, 0) + 1
            totals[child] = totals.get(child, 0.0) + event.reward
            top = max(visits, key=lambda move: (visits[move], sign * totals[move] / visits[move]))
            if top != best:
                wrong = event.iteration
    return wrong + 1


def test_broeders_tree_settles_on_minimax_within_a_few_hundred_iterations() -> None:
    # Measured: for good from iteration 108 to 164 for search seeds 0-4 (minimax's move is '1', value 4);
    # the doctest of gamelib.search.mcts relies on 500 iterations being enough.
    tree = load_seed_tree("broeders31")
    assert minimax(tree).move == "1"
    settled = [settled_at(tree, 600, seed) for seed in range(5)]
    assert max(settled) <= 300 and min(settled) > 10


# (c) Seeds.

def test_the_same_seed_gives_the_same_search_and_trace() -> None:
    tree = random_tree(3, 4, seed=5)
    traces = []
    for seed in (4, 4, 5):
        tracer = RecordingTracer()
        traces.append((mcts(tree, iterations=300, seed=seed, tracer=tracer), tracer.events))
    assert traces[0] == traces[1]
    assert traces[0][1] != traces[2][1]  # another seed rolls out otherwise


def test_a_traced_search_is_the_untraced_one() -> None:
    tree = random_tree(3, 3, seed=2)
    assert mcts(tree, iterations=200, seed=1, tracer=RecordingTracer()) == mcts(tree, iterations=200, seed=1)


# (d) The trace.

def traced(tree: GameTree, iterations: int, seed: int = 0) -> tuple[object, RecordingTracer]:
    tracer = RecordingTracer()
    return mcts(tree, iterations=iterations, seed=seed, tracer=tracer), tracer


def test_the_replay_ends_with_the_final_tree() -> None:
    tree = random_tree(3, 3, seed=1)
    tracer = RecordingTracer()
    result = mcts(tree, iterations=150, seed=2, tracer=tracer)
    done = MctsReplay(tracer.events).snapshot(len(tracer.events))
    root = (tree.root,)
    assert done.finished and done.iteration == result.iterations == 150
    assert done.visits[root] == 150
    assert sum(done.visits[child] for child in done.children(root)) == 150  # every iteration passes one root child
    assert [done.visits.get(root + (move,), 0) for move, _ in result.visits] == [n for _, n in result.visits]
    assert {path[-1]: mean for path, mean in done.mean.items() if len(path) == 2} == pytest.approx(dict(result.means))
    assert len(done.visits) == result.nodes
    for node, visits in done.visits.items():  # a node's own rollout, then one per visit of a child
        if node != root and not tree.is_terminal(node[-1]):
            assert visits == 1 + sum(done.visits[child] for child in done.children(node))


def test_each_selection_records_the_scores_of_the_tree_before_it() -> None:
    # The scores in a MctsSelect event are UCB1 of the visits and means the replay has just before it,
    # turned to the point of view of the side to move at the node.
    tree = random_tree(2, 4, seed=3)
    tracer = RecordingTracer()
    mcts(tree, iterations=60, seed=1, c=1.0, tracer=tracer)
    replay = MctsReplay(tracer.events)
    checked = 0
    for step, event in enumerate(replay.events):
        if isinstance(event, MctsSelect):
            before = replay.snapshot(step)
            node = event.path
            mine = tree.to_move(node[-1]) is Player.MAX
            for child, score in zip(event.children, event.scores):
                path, visits = node + (child,), before.visits[node + (child,)]
                wins = visits * (before.mean[path] if mine else 1 - before.mean[path])
                assert score == pytest.approx(ucb1(wins, visits, before.visits[node], 1.0))
            assert event.scores.index(max(event.scores)) == event.children.index(event.child)
            checked += 1
    assert checked > 60  # more than one selection an iteration on average


def test_every_iteration_has_its_phases_in_order() -> None:
    tree = random_tree(2, 3, seed=0)  # 8 leaves, 15 nodes: the tree is complete after 14 expansions
    _, tracer = traced(tree, 40)
    by_iteration: dict[int, list[str]] = {}
    for event in tracer.events:
        by_iteration.setdefault(event.iteration, []).append(event.kind)  # type: ignore[union-attr]
    assert sorted(by_iteration) == list(range(1, 41))
    for kinds in by_iteration.values():
        selects = kinds.count("mcts_select")
        assert kinds[:selects] == ["mcts_select"] * selects
        assert kinds[selects:] in (["mcts_expand", "mcts_rollout", "mcts_backup"], ["mcts_rollout", "mcts_backup"])
    expansions = sum(kinds.count("mcts_expand") for kinds in by_iteration.values())
    assert expansions == 14


def test_the_snapshot_shows_the_current_iteration() -> None:
    tree = load_seed_tree("broeders31")
    _, tracer = traced(tree, 10, seed=1)
    replay = MctsReplay(tracer.events)
    expand = next(step for step, event in enumerate(replay.events, 1)
                  if isinstance(event, MctsExpand) and event.iteration == 3)
    picture = replay.snapshot(expand)
    assert picture.phase is Phase.EXPAND and picture.iteration == 3
    assert picture.expanded is not None and picture.visits[picture.expanded] == 0 and picture.rollout is None
    after = replay.snapshot(expand + 1)
    assert after.phase is Phase.ROLLOUT and after.rollout is not None and after.value == tree.evaluate(
        (after.expanded + after.rollout)[-1])  # type: ignore[operator]
    start = replay.snapshot(0)
    assert start.visits == {("0",): 0} and start.phase is None and start.selected == ("0",)


def test_the_events_round_trip_through_json() -> None:
    _, tracer = traced(random_tree(3, 3, seed=4), 30)
    text = json.dumps(tracer.to_json(), allow_nan=False)
    again = tuple(event_from_dict(data) for data in json.loads(text))
    assert again == tracer.events
    assert {type(event) for event in again} == {MctsSelect, MctsExpand, MctsRollout, MctsBackup}


def test_the_events_read_in_words() -> None:
    _, tracer = traced(load_seed_tree("broeders31"), 5)
    words = [describe(event) for event in tracer.events]
    first = tracer.events[0]
    assert isinstance(first, MCTS_EVENTS) and words[0] == describe_mcts(first) == "iteration 1, expand: add 1 under 0"
    assert words[-1].startswith("iteration 5, back up reward")


def test_replays_refuse_the_other_kind_of_trace() -> None:
    tree = load_seed_tree("broeders31")
    _, tracer = traced(tree, 5)
    with pytest.raises(ReplayError, match="MctsReplay"):
        Replay(tree, tracer.events)
    minimax_tracer = RecordingTracer()
    minimax(tree, tracer=minimax_tracer)
    with pytest.raises(MctsReplayError, match="not a Monte Carlo"):
        MctsReplay(minimax_tracer.events)
    with pytest.raises(MctsReplayError, match="outside"):
        MctsReplay(tracer.events).snapshot(len(tracer.events) + 1)


# Rollouts, rewards, budgets and errors.

def test_rollout_plies_stop_the_rollouts_and_evaluate() -> None:
    game = AdjacencyGame(rounds=4)
    for plies in (0, 2):
        tracer = RecordingTracer()
        mcts(game, iterations=30, rollout_plies=plies, tracer=tracer)
        lengths = {len(event.moves) for event in tracer.events if isinstance(event, MctsRollout)}
        assert lengths == {plies}


def test_a_tree_without_inner_values_cannot_cut_rollouts() -> None:
    with pytest.raises(TreeFormatError, match="has no value"):
        mcts(random_tree(2, 3, seed=0), iterations=5, rollout_plies=1)


def test_outcome_rewards_count_wins_draws_and_losses() -> None:
    # MAX to move, leaves worth -3 (a loss), 0 (a draw) and 5 (a win): rewards 0, 1/2 and 1.
    result = mcts(tiny("max", {"a": -3, "b": 0, "c": 5}), iterations=30, reward="outcome")
    assert dict(result.means) == {"a": 0.0, "b": 0.5, "c": 1.0}
    assert result.move == "c" and result.value == 1.0


def test_the_value_is_the_best_moves_mean_in_the_games_units() -> None:
    # Broeders' tree declares value_range (0, 15); a leaf reached as a move is valued exactly.
    result = mcts(tiny("min", {"a": 2, "b": 7}), iterations=30, bounds=(0, 10))
    assert result.move == "a" and result.value == pytest.approx(2.0)


def test_a_seconds_budget_stops_the_search() -> None:
    result = mcts(AdjacencyGame(), seconds=0.05, reward="outcome")
    assert 0 < result.iterations < MAX_ITERATIONS and sum(n for _, n in result.visits) == result.iterations


def test_the_generic_playout_plays_legal_moves_to_the_end() -> None:
    game = AdjacencyGame(rounds=5)
    final, moves = random_playout(game, game.root, random.Random(3))
    assert game.is_terminal(final) and len(moves) == 10 and game.play(game.root, moves) == final


@pytest.mark.parametrize("options, message", [
    ({"iterations": 0}, "iterations is 0"),
    ({"iterations": MAX_ITERATIONS + 1}, "iterations is 10000001"),
    ({"iterations": 2.5}, "whole number"),
    ({"seconds": 0}, "seconds is 0"),
    ({"seconds": -1.0}, "seconds is -1.0"),
    ({"seconds": math.nan}, "seconds is nan"),
    ({"seconds": MAX_SECONDS + 1}, "at most 3600"),
    ({"c": -0.5}, "c is -0.5"),
    ({"c": math.inf}, "c is inf"),
    ({"rollout_plies": -1}, "rollout_plies is -1"),
    ({"reward": "margin"}, "reward is 'margin'"),
    ({"bounds": (5, 1)}, r"bounds \(5, 1\)"),
])
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(SearchError, match=message):
        mcts(load_seed_tree("broeders31"), **options)  # type: ignore[arg-type]


def test_values_outside_the_bounds_are_refused() -> None:
    with pytest.raises(SearchError, match="outside the bounds"):
        mcts(tiny("max", {"a": 1, "b": 9}), iterations=5, bounds=(0, 5))


def test_a_finished_game_is_refused() -> None:
    tree = load_seed_tree("broeders31")
    with pytest.raises(SearchError, match="the game is over"):
        mcts(tree, "15")


# The picture.

def test_the_picture_shows_the_tree_the_path_and_the_rollout() -> None:
    tree = load_seed_tree("broeders31")
    tracer = RecordingTracer()
    mcts(tree, iterations=12, seed=1, tracer=tracer)
    replay = MctsReplay(tracer.events)
    step = max(step for step, event in enumerate(replay.events, 1) if isinstance(event, MctsRollout))
    picture = replay.snapshot(step)
    assert picture.expanded is not None and picture.rollout  # a new node and a rollout below it
    assert len(picture.selected) >= 2  # a path selected below the root
    svg = mcts_svg(tree, picture)
    assert svg.count(" in-tree") == 2 * len(picture.visits) - 1  # every node of the search tree, and its edge
    new = picture.expanded[-1]
    assert f'<g id="node-{new}" class="node {tree.to_move(new).value} in-tree expanded">' in svg
    for parent, child in zip(picture.selected, picture.selected[1:]):
        assert f'<g id="edge-{parent}-{child}" class="edge in-tree selected">' in svg
    assert f'<g id="edge-{picture.expanded[-2]}-{new}" class="edge in-tree expanded">' in svg
    assert picture.expanded[:-1] == picture.selected
    line = (new, *picture.rollout)
    for parent, child in zip(line, line[1:]):
        assert f'<g id="edge-{parent}-{child}" class="edge rollout">' in svg
    assert svg.count('class="ucb"') == len(picture.ucb)
    assert f'<g class="node-stats" data-node="0"><text class="stats"' in svg and "rollout from" in svg
    assert f">n={picture.visits[('0',)]}</tspan>" in svg


def test_show_mcts_draws_the_last_step() -> None:
    tree = random_tree(2, 3, seed=0)
    _, tracer = traced(tree, 20)
    svg = str(show_mcts(tree, tracer.events))
    assert 'data-step="' + str(len(tracer.events)) + '"' in svg and "back up reward" in svg
