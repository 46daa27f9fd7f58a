"""Time management: the root's reports to the deadline, and the three rules of gamelib.search.time_rules.

Expected root reports are worked out by hand on small trees; "proven better" is checked against
independent fixed-depth alpha-beta searches of the moves; the clock's arithmetic against numbers
computed by hand. No test depends on the machine's speed: the clock is either not read (node
limits) or its readings are faked.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.search.time_rules import PLAIN_RULES, MoveClock, TimeRules, predict_seconds
from gamelib.search.deepening import iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, alphabeta, negascout
from gamelib.search.tracing import Bound
from gamelib.search.random_trees import random_tree
from gamelib.search.ttable import TranspositionTable
from tests.budget import examples
from tests.conftest import SetClock
from tests.test_alphabeta_bot import positions


class Listener:
    """A Deadline that never passes and records what the root reports."""

    def __init__(self) -> None:
        self.reports: list[tuple[Any, Value, Bound, bool]] = []

    def passed(self, nodes: int) -> bool:
        return False

    def root_move(self, move: Any, value: Value, bound: Bound, first: bool) -> None:
        self.reports.append((move, value, bound, first))


def three_moves() -> GameTree:
    """MAX chooses a (worth min(3, 4) = 3), b (min(6, 7) = 6) or c (min(1, 8) = 1)."""
    return tree_from_dict({"root": "r", "children": {"r": ["a", "b", "c"], "a": ["a1", "a2"], "b": ["b1", "b2"],
                                                     "c": ["c1", "c2"]},
                           "values": {"a1": 3, "a2": 4, "b1": 6, "b2": 7, "c1": 1, "c2": 8}})


# The core's reports ---------------------------------------------------------------------------------

def test_negascout_reports_the_first_move_and_each_proven_improvement() -> None:
    """By hand: a is searched with the full window (0, 8): exact 3. b's null-window test (3, 4)
    fails high (fail-hard: exactly 4), proven better than a before its re-search (4, 8) finds 6.
    c's test (6, 7) fails low (c1 = 1): not reported."""
    listener = Listener()
    assert negascout(three_moves(), deadline=listener).value == 6
    assert listener.reports == [("a", 3, Bound.EXACT, True), ("b", 4, Bound.LOWER, False),
                                ("b", 6, Bound.EXACT, False)]


def test_alphabeta_reports_a_move_that_beats_the_best_so_far() -> None:
    listener = Listener()
    alphabeta(three_moves(), deadline=listener)
    assert listener.reports == [("a", 3, Bound.EXACT, True), ("b", 6, Bound.EXACT, False)]


def test_each_mtdf_pass_reports_its_first_move() -> None:
    """First guess 0: pass 1 (window (-1, 0)) fails high at once on a (3 >= 0, a lower bound);
    pass 2 (2, 3) again; pass 3 (3, 4): a is at most 3 (its a1), b at least 6 >= 4: proven;
    pass 4 (6, 7) starts with b (the table's move), 6 < 7: b is at most 6, a and c fail low too."""
    listener = Listener()
    assert mtdf(three_moves(), first_guess=0, deadline=listener).value == 6
    firsts = [(move, bound) for move, _, bound, first in listener.reports if first]
    assert firsts[-1] == ("b", Bound.UPPER)
    assert ("b", 6, Bound.LOWER, False) in listener.reports


def test_a_min_root_reports_values_for_the_side_to_move() -> None:
    """The same tree with MIN to move at the root and MAX below: a is max(3, 4) = 4 for MAX, -4
    for MIN; c is max(1, 8) = 8; b is 7: MIN prefers a."""
    data = {"root": "r", "to_move": "min", "children": {"r": ["b", "c", "a"], "a": ["a1", "a2"],
                                                         "b": ["b1", "b2"], "c": ["c1", "c2"]},
            "values": {"a1": 3, "a2": 4, "b1": 6, "b2": 7, "c1": 1, "c2": 8}}
    listener = Listener()
    assert alphabeta(tree_from_dict(data), deadline=listener).value == 4
    assert listener.reports == [("b", -7, Bound.EXACT, True), ("a", -4, Bound.EXACT, False)]


@examples(20)
@given(positions(most_empty=20), st.integers(1, 4))
def test_listening_changes_nothing(position: tuple[AdjacencyGame, AdjacencyState], depth: int) -> None:
    game, state = position
    lookahead = LookaheadGame.like(game)
    plain = negascout(lookahead, state, depth, table=TranspositionTable(4096))
    heard = negascout(lookahead, state, depth, table=TranspositionTable(4096), deadline=Listener())
    assert (heard.value, heard.move, heard.nodes) == (plain.value, plain.move, plain.nodes)


# Rule 1: keep what an unfinished depth proved --------------------------------------------------------

def test_a_proven_move_is_kept_only_after_the_previous_best_was_searched_first() -> None:
    clock = MoveClock(None, None, TimeRules(), Player.MAX, 0.0)
    clock.begin(5, [2, 3], "a", 0)
    clock.root_move("a", 1, Bound.EXACT, True)
    clock.root_move("b", 2, Bound.LOWER, False)
    kept = clock.partial()
    assert kept is not None and (kept.depth, kept.move, kept.value, kept.bound, kept.replaces) == (
        5, "b", 2, Bound.LOWER, "a")
    clock.begin(6, [2, 3, 1], "a", 0)
    clock.root_move("c", 9, Bound.EXACT, True)  # the search began with another move: proves nothing
    clock.root_move("b", 10, Bound.LOWER, False)
    assert clock.partial() is None
    plain = MoveClock(None, None, PLAIN_RULES, Player.MAX, 0.0)
    plain.begin(5, [2, 3], "a", 0)
    plain.root_move("a", 1, Bound.EXACT, True)
    plain.root_move("b", 2, Bound.LOWER, False)
    assert plain.partial() is None


def test_a_later_root_search_that_starts_with_the_proven_move_is_trusted() -> None:
    """MTD(f)'s next pass (or a re-search) starts with the move proven last; what it proves better
    than that move is better than the previous best too. MIN to move: bounds turn for MAX."""
    clock = MoveClock(None, None, TimeRules(), Player.MIN, 0.0)
    clock.begin(4, [0, 1], "a", 0)
    clock.root_move("a", -2, Bound.UPPER, True)
    clock.root_move("b", -1, Bound.LOWER, False)
    clock.root_move("b", -1, Bound.UPPER, True)
    clock.root_move("c", 0, Bound.LOWER, False)
    kept = clock.partial()
    assert kept is not None and (kept.move, kept.value, kept.bound) == ("c", 0, Bound.UPPER)


def test_the_node_limit_counts_the_finished_depths() -> None:
    clock = MoveClock(None, 1000, TimeRules(), Player.MAX, 0.0)
    clock.begin(3, [1, 2], "a", 900)
    assert not clock.passed(100) and clock.passed(101)


def valued_tree(seed: int, to_move: str = "max") -> GameTree:
    """A random tree (``seed``) of depth 4 with 4..7 children a node and a static value (0..99)
    on every node, so that searches of any depth can stop anywhere; 500 to 3,000 nodes, more
    than the 256 between two looks at the limit."""
    tree = random_tree(branching=(4, 7), depth=4, seed=seed, to_move=to_move)
    rng, data = random.Random(seed), tree.to_dict()
    data["values"] = {node: rng.randint(0, 99) for node in tree.nodes()} | data["values"]
    return tree_from_dict(data)


@examples(100)
@given(st.integers(0, 10**6), st.sampled_from(["max", "min"]), st.integers(1, 800),
       st.sampled_from([negascout, alphabeta, mtdf]))
def test_an_interrupted_depth_keeps_only_a_move_proven_better(seed: int, to_move: str, limit: int,
                                                              search: Any) -> None:
    """Stopped by a node limit, the deepening plays a move of the unfinished depth d only if a
    full-width search proves it: that move's depth-d value reaches the reported bound and beats
    the previous best's depth-d value, for the side to move."""
    tree = valued_tree(seed, to_move)
    found = iterative_deepening(tree, max_depth=4, search=search, nodes=limit, table=TranspositionTable(64))
    kept = found.partial
    if kept is None:
        assert found.move == (None if found.result is None else found.result.move)
        return
    sign = tree.to_move(tree.root).sign

    def worth(move: str) -> Value:  # the depth-d value of ``move`` for the side to move
        return sign * alphabeta(tree, move, kept.depth - 1).value

    assert found.result is not None and found.move == kept.move != kept.replaces == found.result.move
    assert kept.depth == found.depth + 1 and worth(kept.move) > worth(kept.replaces)
    if kept.bound is Bound.EXACT:
        assert worth(kept.move) == sign * kept.value
    else:
        assert worth(kept.move) >= sign * kept.value


def test_some_interrupted_depths_prove_a_better_move() -> None:
    """The rule is not idle: on 40 seeded trees, NegaScout stopped after 300 nodes keeps a move
    of the unfinished depth on some (the test above checks each is proven)."""
    kept = 0
    for seed in range(40):
        found = iterative_deepening(valued_tree(seed), max_depth=4, search=negascout, nodes=300)
        kept += found.partial is not None
    assert kept > 0


def test_a_node_limit_below_one_is_refused() -> None:
    with pytest.raises(SearchError, match="nodes is 0"):
        iterative_deepening(three_moves(), nodes=0)


# Rule 2: do not start a depth that cannot finish ------------------------------------------------------

NODES = [1000, 1200, 12000, 30000]
"""Nodes of depths 5-8, with the odd-even effect: 10x into odd depth 7, 2.5x into even depth 8."""


def test_the_prediction_uses_the_step_of_the_same_parity() -> None:
    """By hand: depths 5-8 entered 1,000, 1,200, 12,000 and 30,000 nodes, depth 8 took 0.423 s;
    depth 9 (odd) is predicted at 0.423 * 12,000 / 1,200 = 4.23 s, with the factor into depth 7,
    not at 0.423 * 30,000 / 12,000 = 1.06 s with the factor into depth 8."""
    assert predict_seconds([0.016, 0.016, 0.170, 0.423], NODES) == pytest.approx(4.23)
    assert predict_seconds([0.170, 0.423], NODES[2:]) is None  # too few depths
    assert predict_seconds([0.001, 0.016, 0.170], [499, 1200, 12000]) is None  # 499 nodes: too few to predict from
    assert predict_seconds([0.001, 0.016, 0.170], [500, 1200, 12000]) == pytest.approx(0.408)  # times do not matter


def test_a_depth_predicted_past_the_deadline_is_skipped(set_clock: SetClock) -> None:
    set_clock(lambda: 100.6)
    clock = MoveClock(1.0, None, TimeRules(extension=0.2), Player.MAX, 100.0)  # normal deadline 100.8
    skip = clock.skip(9, [0.016, 0.016, 0.170, 0.423], NODES)
    assert skip is not None and skip.depth == 9 and skip.left == pytest.approx(0.2)
    assert skip.predicted == pytest.approx(4.23)
    assert clock.skip(9, [0.016, 0.016, 0.010, 0.010], NODES) is None  # predicted 0.1 s: it fits
    assert MoveClock(1.0, None, PLAIN_RULES, Player.MAX, 100.0).skip(9, [0.016, 0.016, 0.170, 0.423], NODES) is None


def test_the_longest_gap_between_readings_is_kept_back(set_clock: SetClock) -> None:
    # normal deadline 100.9 (a tenth held back); readings at 100.1 and 100.2 (gaps 0.1), then a
    # stall of 0.3 s (the process had no core): 100.5 + 0.3 = 100.8 still fits, but at 100.65 the
    # next reading may come 0.3 s later, at 100.95, past the deadline: the search stops now
    readings = iter([100.0, 100.1, 100.2, 100.5, 100.65])
    set_clock(lambda: next(readings))
    clock = MoveClock(1.0, None, TimeRules(extension=0.1), Player.MAX, 100.0)
    assert [clock.passed(256 * k) for k in range(1, 5)] == [False, False, False, True]
    assert clock.gap == pytest.approx(0.3)


def test_without_stalls_the_stop_is_within_one_gap_of_the_deadline(set_clock: SetClock) -> None:
    # readings every millisecond: at 100.899 the next reading, one gap later, is 100.9, which is not
    # past the deadline 100.9; at 100.9 the next would be: the search stops at 100.9 (without the
    # gap kept back it would stop at 100.901, a millisecond late)
    now = [100.0]

    def tick() -> float:
        now[0] = round(now[0] + 0.001, 6)
        return now[0]

    set_clock(tick)
    clock = MoveClock(1.0, None, TimeRules(extension=0.1), Player.MAX, 100.0)
    readings = 0
    while not clock.passed(readings):
        readings += 1
    assert now[0] == pytest.approx(100.9) and clock.gap == pytest.approx(0.001)


# Rule 3: extend on a fail low --------------------------------------------------------------------------

def test_a_fail_low_of_the_previous_best_moves_the_deadline_to_the_hard_limit() -> None:
    clock = MoveClock(1.0, None, TimeRules(extension=0.25), Player.MAX, 0.0)
    assert (clock.at, clock.hard) == (0.75, 1.0)
    clock.begin(7, [5, -2, 3], "a", 0)
    clock.root_move("a", -1, Bound.EXACT, True)  # -1 < +3? no: the reference is -2, two depths back
    assert clock.at == 0.75 and clock.fail_low is None
    clock.root_move("a", -3, Bound.UPPER, True)  # at most -3 < -2: it failed low
    assert clock.at == 1.0 and clock.fail_low is not None
    assert (clock.fail_low.depth, clock.fail_low.value, clock.fail_low.reference) == (7, -3, -2)
    assert clock.fail_low.extra == pytest.approx(0.25)


def test_only_the_previous_best_with_a_value_or_upper_bound_fails_low() -> None:
    clock = MoveClock(1.0, None, TimeRules(extension=0.2), Player.MAX, 0.0)
    clock.begin(4, [5, 0, 3], "a", 0)
    clock.root_move("b", -9, Bound.EXACT, True)  # not the previous best
    clock.root_move("a", -9, Bound.LOWER, True)  # at least -9 says nothing
    assert clock.fail_low is None and clock.at == 0.8


def test_no_fail_low_without_a_value_of_the_same_parity() -> None:
    """Depth 2 has only depth 1 before it, of the other parity: lesson 6's +7 then -2 is the
    odd-even effect, not a fail low."""
    clock = MoveClock(1.0, None, TimeRules(), Player.MAX, 0.0)
    clock.begin(2, [7], "a4", 0)
    clock.root_move("a4", -2, Bound.EXACT, True)
    assert clock.fail_low is None


def test_extension_shares_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="extension 1"):
        TimeRules(extension=1.0)


# Rule 4: finish a depth whose first move is back -------------------------------------------------------

def test_a_depth_runs_on_to_the_hard_limit_only_with_its_first_move_back(set_clock: SetClock) -> None:
    """A 1 s move from 100.0 (normal deadline 100.9, hard 101.0), the clock read every millisecond:
    the search stops at the normal deadline unless the depth's first move is back and rule 4 is on."""
    now = [100.0]

    def tick() -> float:
        now[0] = round(now[0] + 0.001, 6)
        return now[0]

    set_clock(tick)
    for rules, first_back, stop in [(TimeRules(extension=0.1), False, 100.9), (TimeRules(extension=0.1), True, 101.0),
                                    (TimeRules(extension=0.1, finish=False), True, 100.9)]:
        now[0] = 100.0 - 0.001
        clock = MoveClock(1.0, None, rules, Player.MAX, 100.0)
        clock.begin(9, [3, 1, 4], "a", 0)
        if first_back:
            clock.root_move("a", 4, Bound.EXACT, True)
        readings = 0
        while not clock.passed(readings):
            readings += 1
        assert now[0] == pytest.approx(stop), (rules, first_back)
        assert clock.fail_low is None  # +4 is not below +1 (two depths back): this is not rule 3
        if stop == 101.0:
            assert clock.run_on is not None and clock.run_on.depth == 9 and clock.run_on.extra == pytest.approx(0.1)
        else:
            assert clock.run_on is None


def test_the_next_depth_starts_without_its_first_move_back() -> None:
    clock = MoveClock(1.0, None, TimeRules(), Player.MAX, 0.0)
    clock.begin(5, [3, 1, 4, 1], "a", 0)
    clock.root_move("a", 4, Bound.EXACT, True)
    assert clock.first_back
    clock.begin(6, [3, 1, 4, 1, 5], "a", 100)
    assert not clock.first_back and clock.run_on is None


def test_plain_rules_never_run_on() -> None:
    assert not PLAIN_RULES.finish and TimeRules().finish
