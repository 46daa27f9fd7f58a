"""The alpha-beta bot's bitboard NegaScout loop (gamelib.games.adjacency.native) against the skeleton.

The traced skeleton (``negascout`` with a recording tracer, which never takes the loop) is the
reference: on thousands of seeded random positions, depths, windows and tables the loop must
enter the same nodes in the same order (watched through the neighbour masks it reads, one per
child it makes), leave the same table behind (every slot and every counter), tell a deadline the
same root moves and read it at the same node counts, and return the same value, move, principal
variation, node and leaf counts and completeness.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from gamelib.games.adjacency import AdjacencyState
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.games.adjacency.native import bitboard_negascout
from gamelib.games.game import Value
from gamelib.search.deepening import iterative_deepening
from gamelib.search.negamax import SearchResult, SearchTimeout, negascout
from gamelib.search.tracing import Bound, RecordingTracer, Research
from gamelib.search.ttable import TranspositionTable
from tests.test_bitboard_search import SEEDS, cases, traced_path, watched
from tests.test_bitboard_search import random_cases as plain_cases


class SkeletonLookahead(LookaheadGame):
    """The lookahead game under another name: the loop takes LookaheadGame itself only, so a
    search of this one runs the skeleton (untraced)."""

    __slots__ = ()


class Watch:
    """A deadline that stops the search once it has entered ``limit`` nodes, writing down each
    node count it is asked at and each root move it is told."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.heard: list[tuple[Any, ...]] = []

    def passed(self, nodes: int) -> bool:
        self.heard.append(("asked", nodes))
        return nodes >= self.limit

    def root_move(self, move: Any, value: Value, bound: Bound, first: bool) -> None:
        self.heard.append((move, value, bound, first))


def random_cases(count: int, seed: int) -> Iterator[tuple[LookaheadGame, AdjacencyState, int, tuple[int, int], bool]]:
    """``count`` (game, position, depth, window, pvs) cases: those of the plain loop's tests (random
    rules, rounds, first players, playouts and windows) a ply deeper, on the lookahead game, with
    PVS a third of the time."""
    rng = random.Random(seed)
    for game, state, depth, window in plain_cases(count, seed, deeper=1):
        yield LookaheadGame.like(game), state, depth, window, rng.random() < 0.3


def made_path(game: LookaheadGame, events: tuple[object, ...]) -> list[int]:
    """The squares played to make each child, in the order the trace enters them: every node
    below the root, but a child searched again after a NegaScout test (the Enter right after a
    Research event) is the child already made, entered a second time."""
    kept = tuple(event for event, before in zip(events, (None, *events)) if not isinstance(before, Research))
    return traced_path(game, kept)


def tables_equal(one: TranspositionTable, other: TranspositionTable) -> bool:
    return one._slots == other._slots and one.stats == other.stats


def traced(game: LookaheadGame, state: AdjacencyState, depth: int, window: tuple[int, int], pvs: bool,
           table: TranspositionTable) -> tuple[SearchResult, RecordingTracer]:
    tracer = RecordingTracer()
    return negascout(game, state, depth, window=window, pvs=pvs, table=table, tracer=tracer), tracer


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_loop_enters_the_skeletons_nodes_and_leaves_its_table(seed: int) -> None:
    """Each case searches depth - 1 first, then depth, on a table each side keeps, so the second
    search meets table moves, bounds that narrow its windows and entries that settle nodes."""
    for game, state, depth, window, pvs in random_cases(cases(400, seed), seed):
        ours, theirs = TranspositionTable(1 << 10), TranspositionTable(1 << 10)
        for searched in sorted({max(depth - 1, 0), depth}):
            reference, tracer = traced(game, state, searched, window, pvs, theirs)
            player = game.to_move(state)
            low, high = window if player.sign > 0 else (-window[1], -window[0])
            mine, other = (state.x, state.o) if player.sign > 0 else (state.o, state.x)
            masks = watched(game)
            found = bitboard_negascout(game, mine, other, state.plies_left, state.key, player.sign > 0, searched,
                                       low, high, -64, ours, pvs, masks=masks)
            case = f"{game.to_notation(state)} depth {searched} window {window} pvs {pvs}"
            assert masks.read == made_path(game, tracer.events), case
            assert found.nodes == reference.nodes and found.leaves == reference.leaves, case
            assert (player.sign * found.value, found.horizons == 0) == (reference.value, reference.complete), case
            assert found.pv == reference.pv[:len(found.pv)], case  # the skeleton's result extends it by the table
            assert ours._slots == theirs._slots, case  # (the extension probes the table: counters differ)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_negascout_takes_the_loop_and_returns_the_skeletons_result(seed: int) -> None:
    for game, state, depth, window, pvs in random_cases(cases(300, seed), 100 + seed):
        ours, theirs = TranspositionTable(1 << 10), TranspositionTable(1 << 10)
        found = negascout(game, state, depth, window=window, pvs=pvs, table=ours)
        assert found == traced(game, state, depth, window, pvs, theirs)[0]
        assert tables_equal(ours, theirs)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_deadline_hears_the_same_and_stops_the_search_at_the_same_node(seed: int) -> None:
    """A node limit inside the search: the same clock readings and root moves, the same node
    count in the timeout, the same table left behind; a limit past the end: the same result."""
    rng = random.Random(200 + seed)
    for game, state, depth, window, pvs in random_cases(cases(150, seed), 200 + seed):
        limit = rng.choice([256, 512, 1024, 1 << 20])
        outcomes = []
        for searched in (game, SkeletonLookahead(game.rounds, game.rule, game.first)):
            watch, table = Watch(limit), TranspositionTable(1 << 10)
            try:
                outcome: object = negascout(searched, state, depth + 1, window=window, pvs=pvs, table=table,
                                            deadline=watch)
            except SearchTimeout as timeout:
                outcome = timeout.nodes
            outcomes.append((outcome, watch.heard, table._slots, table.stats))
        assert outcomes[0] == outcomes[1], f"{game.to_notation(state)} depth {depth + 1} limit {limit}"


def test_iterative_deepening_as_the_bot_runs_it_is_the_skeletons() -> None:
    """The bot's deepening (one table for all depths) to depth 6 from three positions: the same
    results at every depth and the same table."""
    rng = random.Random(7)
    for rule in (8, 4):
        game = LookaheadGame(rule=rule)
        state = game.root
        for _ in range(3):
            runs = []
            for searched in (game, SkeletonLookahead(rule=rule)):
                table = TranspositionTable(1 << 12)
                found = iterative_deepening(searched, state, 6, search=negascout, table=table)
                runs.append((found.iterations, table._slots, table.stats))
            assert runs[0] == runs[1], game.to_notation(state)
            state = game.play(state, rng.sample(game.legal_moves(state), 8))


@pytest.mark.parametrize("replacement", ["two-tier", "always", "aging"])
def test_other_tables_give_the_skeletons_result_and_table(replacement: str) -> None:
    """The loop reads a one-tier table's slots itself and calls a two-tier table's lookup: both
    leave the table (slots and counters) as the skeleton does."""
    for game, state, depth, window, pvs in random_cases(100, 300):
        ours, theirs = (TranspositionTable(1 << 8, replacement=replacement) for _ in range(2))
        for searched in sorted({max(depth - 1, 0), depth}):  # the second search meets the first's entries
            found = negascout(game, state, searched, window=window, pvs=pvs, table=ours)
            assert found == traced(game, state, searched, window, pvs, theirs)[0]
            assert tables_equal(ours, theirs), replacement
