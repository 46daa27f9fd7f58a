"""Transposition tables, AlphaBetaWithMemory, MTD(f) and iterative deepening.

Expected values come from minimax (the definition) and from Plaat et al. (1996): MTD(f) started at
the true value needs exactly two passes.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib import GameTree, Player, RecordingTracer, minimax, tree_from_dict
from gamelib.games.tictactoe import TicTacToe, TicTacToeState
from gamelib.search.algorithms import run_search
from gamelib.search.deepening import GUESSING, iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchResult, SearchTimeout, alphabeta, alphabeta_with_memory, negascout
from gamelib.search.pitfalls import MoveForgettingTable
from gamelib.search.tracing import Bound, MtdPass, TableHit
from gamelib.search.pitfalls import ShortKeyTable
from gamelib.search.ttable import Replacement, TableStats, TranspositionTable, TTEntry
from tests.budget import examples
from tests.strategies import ranged_trees, trees

GAME = TicTacToe()


def entry(key: int, depth: int | None, value: int = 0) -> TTEntry:
    return TTEntry(key, depth, value, Bound.EXACT, None)


# The table on its own ---------------------------------------------------------------------------

def test_always_replace_keeps_the_newest_entry() -> None:
    table = TranspositionTable(size=4, replacement="always")
    table.store(entry(1, 5))
    table.store(entry(5, 1))  # same slot (5 % 4 == 1), shallower
    assert table.probe(1) is None and table.probe(5) == entry(5, 1)
    assert table.stats.overwrites == 1


def test_depth_preferred_keeps_the_deeper_entry() -> None:
    table = TranspositionTable(size=4, replacement="depth")
    table.store(entry(1, 5))
    table.store(entry(5, 1))
    assert table.probe(5) is None and table.probe(1) == entry(1, 5)
    table.store(entry(9, None))  # searched to the end: deeper than any depth
    assert table.probe(9) == entry(9, None) and table.probe(1) is None


def test_two_tier_keeps_the_deep_entry_and_the_newest() -> None:
    table = TranspositionTable(size=4, replacement="two-tier")
    for key, depth in ((1, 5), (5, 1), (9, 2)):
        table.store(entry(key, depth))
    assert table.probe(1) == entry(1, 5)  # depth tier
    assert table.probe(9) == entry(9, 2)  # always tier, which 5 lost to 9
    assert table.probe(5) is None
    assert len(table) == 2


def test_a_new_entry_for_the_same_key_replaces_the_old_even_if_shallower() -> None:
    table = TranspositionTable(size=4, replacement="depth")
    table.store(entry(1, 5, value=3))
    table.store(entry(1, 2, value=4))
    assert table.probe(1) == entry(1, 2, value=4)
    assert table.stats == TableStats(probes=1, hits=1, cutoffs=0, stores=2, overwrites=0)


@pytest.mark.parametrize("replacement", list(Replacement))
def test_a_result_without_a_move_keeps_the_held_entrys_move(replacement: Replacement) -> None:
    """Issue 17: a search that fails low finds no best move; its entry keeps the move the key's
    entry had (chess programs do the same), and a result with a move replaces it."""
    table = TranspositionTable(size=4, replacement=replacement)
    table.store(TTEntry(1, 3, 7, Bound.EXACT, "a"))
    if replacement is Replacement.TWO_TIER:
        table.store(TTEntry(5, 9, 0, Bound.EXACT, "z"))  # deeper, same slot: pushes key 1 to the always tier
    table.store(TTEntry(1, 4, 5, Bound.UPPER, None))
    assert table.probe(1) == TTEntry(1, 4, 5, Bound.UPPER, "a")
    table.store(TTEntry(1, 5, 6, Bound.LOWER, "b"))
    assert table.probe(1) == TTEntry(1, 5, 6, Bound.LOWER, "b")
    table.store(TTEntry(9, 9, 0, Bound.UPPER, None))  # another key in the slot inherits nothing
    assert table.probe(9) == TTEntry(9, 9, 0, Bound.UPPER, None)


def test_the_move_forgetting_table_loses_the_move() -> None:
    table = MoveForgettingTable(size=4)
    table.store(TTEntry(1, 3, 7, Bound.EXACT, "a"))
    table.store(TTEntry(1, 4, 5, Bound.UPPER, None))
    assert table.probe(1) == TTEntry(1, 4, 5, Bound.UPPER, None)


def test_subtree_size_keeps_the_entry_whose_search_entered_more_nodes() -> None:
    table = TranspositionTable(size=4, replacement="subtree")
    table.store(TTEntry(1, 2, 0, Bound.EXACT, None, nodes=40))
    table.store(TTEntry(5, 6, 0, Bound.EXACT, None, nodes=30))  # deeper but smaller: it loses
    assert table.probe(5) is None and table.probe(1) == TTEntry(1, 2, 0, Bound.EXACT, None, nodes=40)
    table.store(TTEntry(9, 1, 0, Bound.EXACT, None, nodes=40))  # as big: the newer wins
    assert table.probe(9) is not None and table.probe(1) is None


def test_aging_replaces_an_entry_from_an_earlier_search_first() -> None:
    table = TranspositionTable(size=4, replacement="aging")
    table.store(entry(1, 5))
    table.store(entry(5, 1))  # the same search: depth-preferred, the shallower entry loses
    assert table.probe(5) is None and table.probe(1) == entry(1, 5)
    table.new_search()
    assert table.probe(1) == entry(1, 5)  # still readable
    table.store(entry(5, 1))  # a new search: the old deep entry gives way
    assert table.probe(1) is None and table.probe(5) == entry(5, 1)
    table.store(entry(9, 0))  # now the same age again: depth-preferred
    assert table.probe(9) is None
    table.clear()
    assert table.age == 0 and len(table) == 0


def test_the_search_stores_each_entrys_subtree_size() -> None:
    # Broeders' tree with alpha-beta: the root's entry counts all 18 nodes entered, a leaf's 1.
    from gamelib.games.data import load_seed_tree
    table = TranspositionTable()
    result = alphabeta(load_seed_tree("broeders31"), table=table)
    root, leaf = table.probe("0"), table.probe("15")
    assert root is not None and leaf is not None and (root.nodes, leaf.nodes) == (result.nodes, 1) == (18, 1)


def test_a_short_key_table_takes_one_position_for_another() -> None:
    # Keys 0x1_0005 and 0x2_0005 agree in their low 16 bits: the full-key table with 2 ** 16 slots
    # puts them in one slot and tells them apart (a miss); the 16-bit table cannot (a wrong hit).
    full, short = TranspositionTable(size=1 << 16), ShortKeyTable(size=1 << 16, bits=16)
    for table in (full, short):
        table.store(TTEntry(0x1_0005, 3, 7, Bound.EXACT, move=12))
    assert full.probe(0x2_0005) is None
    assert short.probe(0x2_0005) == TTEntry(0x0005, 3, 7, Bound.EXACT, None)
    with pytest.raises(ValueError, match="at least 1 bit"):
        ShortKeyTable(bits=0)
    with pytest.raises(TypeError, match="integer keys"):
        short.probe("a1")


@pytest.mark.parametrize("size, replacement, message", [
    (0, "depth", "1 to 4,194,304 slots, not 0"), (4, "newest", "unknown replacement strategy 'newest'")])
def test_bad_table_settings_are_refused(size: int, replacement: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TranspositionTable(size=size, replacement=replacement)


# Every search with a table equals minimax ----------------------------------------------------------

def with_frontier_values(tree: GameTree) -> GameTree:
    return tree.with_values({node: 5 for node in tree.nodes() if not tree.is_terminal(node)})


@examples(200)
@given(trees(), st.one_of(st.none(), st.integers(0, 5)), st.integers(1, 8),
       st.sampled_from(list(Replacement)), st.integers(-2, 12))
def test_every_search_with_a_table_equals_minimax_on_trees(
        tree: GameTree, depth: int | None, size: int, replacement: Replacement, guess: int) -> None:
    if depth is not None:
        tree = with_frontier_values(tree)
    expected = minimax(tree, depth=depth).value

    def table() -> TranspositionTable:
        return TranspositionTable(size=size, replacement=replacement)
    assert alphabeta(tree, depth=depth, table=table()).value == expected
    assert alphabeta(tree, depth=depth, fail_soft=True, table=table()).value == expected
    assert negascout(tree, depth=depth, table=table()).value == expected
    assert negascout(tree, depth=depth, pvs=True, table=table()).value == expected
    assert negascout(tree, depth=depth, fail_soft=True, table=table()).value == expected
    assert alphabeta_with_memory(tree, depth=depth, table=table()).value == expected
    assert mtdf(tree, depth=depth, first_guess=guess, table=table()).value == expected


def random_positions(count: int, min_marks: int, seed: int) -> list[TicTacToeState]:
    """Positions reached by random play with at least ``min_marks`` marks, not finished."""
    rng = random.Random(seed)
    positions: list[TicTacToeState] = []
    while len(positions) < count:
        state = GAME.root
        for _ in range(rng.randint(min_marks, 8)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
        if not GAME.is_terminal(state):
            positions.append(state)
    return positions


@pytest.mark.parametrize("size", [1, 7, 4096])
def test_every_search_with_or_without_a_table_equals_minimax_on_tic_tac_toe(size: int) -> None:
    """Size 1 and 7 force many overwrites: the values must stay right."""
    for state in random_positions(40, min_marks=3, seed=size):
        expected = minimax(GAME, state).value
        for depth in (None, 2):
            target = expected if depth is None else minimax(GAME, state, depth).value
            for name in ("alphabeta", "negascout", "pvs", "negascout_soft", "alphabeta_with_memory", "mtdf"):
                assert run_search(name, GAME, state, depth=depth).value == target, (name, depth)
                table = TranspositionTable(size=size)
                assert run_search(name, GAME, state, depth=depth, table=table).value == target, (name, depth, size)


def test_a_tiny_table_overwrites_and_still_solves_tic_tac_toe() -> None:
    table = TranspositionTable(size=3, replacement="always")
    assert alphabeta_with_memory(GAME, table=table).value == 0  # tic-tac-toe is a draw
    assert table.stats.overwrites > 1000


def test_the_table_saves_work_on_tic_tac_toe() -> None:
    """Transpositions: 549,946 nodes in the game tree but 5,478 positions, so the table must cut
    the nodes alpha-beta alone enters."""
    plain = alphabeta(GAME, fail_soft=True)
    table = TranspositionTable()
    memory = alphabeta_with_memory(GAME, table=table)
    assert memory.nodes < plain.nodes
    assert table.stats.cutoffs > 0 and table.stats.hits >= table.stats.cutoffs
    assert len(table) <= 5478


# MTD(f) -------------------------------------------------------------------------------------------

def passes(tracer: RecordingTracer) -> list[MtdPass]:
    return [event for event in tracer.events if isinstance(event, MtdPass)]


@examples(200)
@given(trees(), st.one_of(st.none(), st.integers(1, 5)))
def test_mtdf_from_the_true_value_takes_exactly_two_passes(tree: GameTree, depth: int | None) -> None:
    """Plaat et al. (1996): with f = the minimax value, one pass proves >= f, one proves <= f."""
    if depth is not None:
        tree = with_frontier_values(tree)
    value = minimax(tree, depth=depth).value
    tracer = RecordingTracer()
    assert mtdf(tree, depth=depth, first_guess=value, tracer=tracer).value == value
    found = passes(tracer)
    assert len(found) == 2
    assert (found[-1].lower, found[-1].upper) == (value, value)


@examples(200)
@given(trees(), st.integers(-20, 20))
def test_mtdf_bounds_close_in_on_the_value(tree: GameTree, guess: int) -> None:
    value = minimax(tree).value
    tracer = RecordingTracer()
    mtdf(tree, first_guess=guess, tracer=tracer)
    found = passes(tracer)
    for before, after in zip(found, found[1:]):
        assert before.lower <= after.lower and after.upper <= before.upper
    for event in found:
        assert event.lower <= value <= event.upper
        assert event.beta - event.alpha == 1
    assert found[-1].lower == found[-1].upper == value


def test_mtdf_on_tic_tac_toe_from_a_wrong_guess() -> None:
    tracer = RecordingTracer()
    assert mtdf(GAME, first_guess=1, tracer=tracer).value == 0
    assert [(p.lower, p.upper) for p in passes(tracer)][-1] == (0, 0)


def test_table_hits_are_traced_with_their_bounds() -> None:
    tracer = RecordingTracer()
    alphabeta_with_memory(GAME, tracer=tracer)
    hits = [event for event in tracer.events if isinstance(event, TableHit)]
    assert hits and any(hit.cutoff for hit in hits)
    assert {hit.bound for hit in hits} <= set(Bound)


# Iterative deepening --------------------------------------------------------------------------------

@functools.cache
def brute_value(state: TicTacToeState, depth: int) -> int:
    """Minimax by the rules alone, to ``depth`` plies (MAX's view): each position is worked out
    once per depth (5,478 positions), not once per path as the course's minimax does (549,946
    nodes at depth 9), so the reference costs milliseconds instead of seconds."""
    if GAME.is_terminal(state) or depth == 0:
        return GAME.evaluate(state)
    values = [brute_value(GAME.result(state, move), depth - 1) for move in GAME.legal_moves(state)]
    return max(values) if GAME.to_move(state) is Player.MAX else min(values)


@functools.cache
def minimax_values_by_depth() -> list[int | float]:
    return [brute_value(GAME.root, depth) for depth in range(1, 10)]


@pytest.mark.parametrize("search", [mtdf, alphabeta, negascout])
def test_iterative_deepening_solves_tic_tac_toe_and_stops(search: object) -> None:
    found = iterative_deepening(GAME, search=search)  # type: ignore[arg-type]
    assert found.result is not None and found.result.value == 0
    assert found.depth == 9  # no game lasts longer than 9 plies, so depth 9 meets no depth limit
    assert [result.value for result in found.iterations] == minimax_values_by_depth()


def test_iterative_deepening_keeps_the_last_finished_depth_when_time_runs_out() -> None:
    found = iterative_deepening(GAME, seconds=0.0)
    assert found.timed_out or found.depth == 9
    if found.timed_out:
        assert found.result is None or found.result.value == minimax(GAME, depth=found.depth).value


def test_a_passed_deadline_stops_a_search() -> None:
    with pytest.raises(SearchTimeout):
        alphabeta(GAME, deadline=0.0)


class WindowSpy:
    """A search for iterative deepening (alpha-beta) that records each call's depth, window and value."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, tuple[float, float] | None, float]] = []

    def __call__(self, game: GameTree, state: str, depth: int, *, window: tuple[float, float] | None = None,
                 **options: object) -> SearchResult:
        result = alphabeta(game, state, depth, window=window, **options)  # type: ignore[arg-type]
        self.calls.append((depth, window, result.value))
        return result


class GuessSpy:
    """A search for iterative deepening (MTD(f)) that records each call's depth and first guess."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, float]] = []

    def __call__(self, game: GameTree, state: str, depth: int, *, first_guess: float = 0,
                 **options: object) -> SearchResult:
        self.calls.append((depth, first_guess))
        return mtdf(game, state, depth, first_guess=first_guess, **options)  # type: ignore[arg-type]


def with_inner_values(tree: GameTree, data: st.DataObject) -> GameTree:
    """``tree`` with static values inside its range on inner nodes, so values change with depth."""
    low, high = tree.value_range
    return tree.with_values({node: data.draw(st.integers(int(low), int(high)))
                             for node in tree.nodes() if not tree.is_terminal(node)})


@examples(200)
@given(ranged_trees(), st.integers(1, 3), st.booleans(), st.data())
def test_an_aspiration_miss_reopens_only_the_side_that_failed(tree: GameTree, width: int, same_parity: bool,
                                                               data: st.DataObject) -> None:
    """Depth d is searched in (g - width, g + width) around the guess g: the previous depth's value,
    or with same_parity the one from two depths back (depth 2: depth 1's). A value v at or below
    the window is an upper bound (the true value is at most v), so the only other search of that
    depth has the window (low, v + 1); at or above, (v - 1, high); (low, high) is the value range."""
    tree = with_inner_values(tree, data)
    spy = WindowSpy()
    found = iterative_deepening(tree, max_depth=5, search=spy, aspiration=width, same_parity=same_parity,
                                table=TranspositionTable(16))
    values = [minimax(tree, depth=depth).value for depth in range(1, found.depth + 1)]
    assert [result.value for result in found.iterations] == values
    low, high = tree.value_range
    calls = iter(spy.calls)
    assert next(calls) == (1, None, values[0])
    for depth in range(2, found.depth + 1):
        guess = values[depth - 3] if same_parity and depth > 2 else values[depth - 2]
        alpha, beta = guess - width, guess + width
        call_depth, window, value = next(calls)
        assert (call_depth, window) == (depth, (alpha, beta))
        if value <= alpha:
            assert values[depth - 1] <= value and next(calls) == (depth, (low, value + 1), values[depth - 1])
        elif value >= beta:
            assert values[depth - 1] >= value and next(calls) == (depth, (value - 1, high), values[depth - 1])
        else:
            assert value == values[depth - 1]
    assert next(calls, None) is None


@examples(100)
@given(ranged_trees(), st.data())
def test_same_parity_gives_mtdf_the_value_from_two_depths_back(tree: GameTree, data: st.DataObject) -> None:
    tree = with_inner_values(tree, data)
    for same_parity in (False, True):
        spy = GuessSpy()
        GUESSING.add(spy)  # declared as a search that takes a first guess, as mtdf is
        try:
            found = iterative_deepening(tree, max_depth=5, search=spy, same_parity=same_parity)
        finally:
            GUESSING.discard(spy)
        values = [result.value for result in found.iterations]
        assert values == [minimax(tree, depth=depth).value for depth in range(1, found.depth + 1)]
        guesses = [values[depth - 3] if same_parity and depth > 2 else values[depth - 2]
                   for depth in range(2, found.depth + 1)]
        assert spy.calls == [(1, 0), *enumerate(guesses, start=2)]


def test_the_strict_rule_with_a_table_stores_no_empty_window_value() -> None:
    """Found by test_properties: with the strict rule, node 1's value 9 equals beta, so node 3 and
    the nodes below it are searched in the empty window (9, 9). Node 6 (worth 3) came back with 9,
    was stored as "at least 9", and a later search of node 3 trusted it: 9 instead of 3."""
    tree = tree_from_dict({
        "root": "0", "to_move": "max", "value_range": [1, 9],
        "children": {"0": ["1"], "1": ["2", "3"], "2": ["4"], "3": ["5", "6"], "4": ["7", "8"], "5": ["9", "10"],
                     "6": ["11", "12"]},
        "values": {"7": 9, "8": 9, "9": 9, "10": 1, "11": 3, "12": 3},
        "players": {"1": "max", "2": "min", "3": "min", "4": "max", "5": "max", "6": "max", "7": "min", "8": "min",
                    "9": "min", "10": "min", "11": "min", "12": "min"}})
    table = TranspositionTable(64)
    assert alphabeta(tree, strict=True, table=table).value == minimax(tree).value == 9
    assert alphabeta(tree, "3", strict=True, table=table).value == minimax(tree, "3").value == 3


def test_a_table_larger_than_the_bound_is_refused_before_it_is_allocated() -> None:
    from gamelib.search.ttable import MAX_SLOTS

    with pytest.raises(ValueError, match="1 to 4,194,304 slots, not 99,999,999,999,999,999,999"):
        TranspositionTable(size=99999999999999999999)
    assert TranspositionTable(size=MAX_SLOTS).size == 1 << 22
