"""Killer moves, the history heuristic and enhanced transposition cut-offs (gamelib.search.heuristics).

They may change the work, never the value: every search with them is checked against plain
alpha-beta (Adjacency positions) or minimax (random trees). Their bookkeeping is checked by hand.
"""

from __future__ import annotations

import random
from itertools import product
from typing import TypedDict

import pytest

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.games.game import INF
from gamelib.games.trees import tree_from_dict
from gamelib.search.heuristics import Heuristics
from gamelib.search.deepening import iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import alphabeta, alphabeta_with_memory, minimax, negascout
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import Enter, RecordingTracer, Tracer
from gamelib.search.ttable import TranspositionTable


class Switches(TypedDict):
    """The three switches of :class:`Heuristics`, as keyword arguments."""

    killers: bool
    history: bool
    etc: bool


SWITCHES = [Switches(killers=killers, history=history, etc=etc)
            for killers, history, etc in product([False, True], repeat=3)]
"""Every combination of the three switches."""


class TracerOption(TypedDict, total=False):
    """A search's ``tracer`` keyword, or nothing (the search's own default)."""

    tracer: Tracer


def random_positions(count: int, seed: int) -> list[tuple[LookaheadGame, AdjacencyState]]:
    """Unfinished positions after random playouts of random games (rule, rounds, first player)."""
    rng = random.Random(seed)
    found: list[tuple[LookaheadGame, AdjacencyState]] = []
    while len(found) < count:
        game = LookaheadGame(rounds=rng.randint(4, 28), rule=rng.choice([8, 4]), first=rng.choice("XO"))
        state = game.root
        for _ in range(rng.randint(20, 2 * game.rounds - 1) if game.rounds > 12 else rng.randint(0, 3)):
            state = game.result(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            found.append((game, state))
    return found


def test_a_cut_makes_a_killer_of_its_ply_and_adds_depth_squared_to_its_history() -> None:
    heuristics = Heuristics(killers=True, history=True)
    for move, depth in (("a", 3), ("b", 2), ("a", 1), ("c", 2)):
        heuristics.cut(move, plies=1, depth=depth)
    assert heuristics.killer_moves == {1: ["c", "a"]}  # the two latest, most recent first
    assert heuristics.scores == {"a": 9 + 1, "b": 4, "c": 4}
    heuristics.new_search()
    assert heuristics.killer_moves == {} and heuristics.scores == {"a": 5, "b": 2, "c": 2}


def test_killers_and_history_reorder_moves_within_their_groups_only() -> None:
    heuristics = Heuristics(killers=True, history=True)
    heuristics.killer_moves[2] = ["e", "b"]
    heuristics.scores.update({"d": 5, "c": 1})
    groups = [(7, ["a", "b", "c"]), (3, ["d", "e", "f"])]
    # group 1: killer b first, then by score (c 1, a 0); group 2: killer e, then d (5), f
    assert list(heuristics.arrange(groups, 2)) == [(7, ["b", "c", "a"]), (3, ["e", "d", "f"])]
    assert list(heuristics.arrange(groups, 0)) == [(7, ["c", "a", "b"]), (3, ["d", "e", "f"])]  # no killers at ply 0


@pytest.mark.parametrize("switches", SWITCHES)
def test_the_heuristics_leave_the_value_of_every_search_unchanged(switches: Switches) -> None:
    etc_cutoffs = 0
    for game, state in random_positions(12, seed=len(str(switches))):
        empty = len(game.legal_moves(state))
        depth = 6 if empty < 14 else 4 if empty < 30 else 3
        expected = alphabeta(AdjacencyGame(game.rounds, game.rule, game.first), state, depth).value
        for search in (negascout, alphabeta_with_memory, mtdf):
            heuristics = Heuristics(**switches, etc_depth=2)
            found = iterative_deepening(game, state, depth, search=search, heuristics=heuristics)
            assert found.result is not None and found.result.value == expected, (search, game.to_notation(state))
            etc_cutoffs += heuristics.etc_cutoffs
        single = negascout(game, state, depth, table=TranspositionTable(), heuristics=Heuristics(**switches))
        assert single.value == expected
    assert switches["etc"] or etc_cutoffs == 0


def test_etc_finds_transpositions_in_the_benchmarks_midgame() -> None:
    """Depth 6: transpositions (the same marks reached by moves in another order) three plies down,
    searched 2 plies deep, are in the table when a sibling path reaches them again."""
    game = LookaheadGame()
    state = game.from_notation("4OOOO/4OOXO/4OXOO/3XXXXX/3XOOOX/XOX2O2/XOO5/XXX5 X 32 r8")
    heuristics = Heuristics(etc=True, etc_depth=3)
    found = iterative_deepening(game, state, 6, search=negascout, heuristics=heuristics)
    assert found.result is not None and found.result.value == alphabeta(AdjacencyGame(), state, 6).value
    assert heuristics.etc_cutoffs > 0


def test_a_stored_child_bound_settles_its_parent_before_its_children_are_entered() -> None:
    """Root A (MAX) with children B and C (MIN), each over two MAX nodes over two leaves. By hand:
    B1 = max(5, 6) = 6, B2 = 8, B = 6, so C is searched with alpha 6. A stored upper bound of 3 on
    C's second child D (MAX to move) proves C <= 3 < 6: ETC settles C before entering C1."""
    data = {"root": "A", "children": {"A": ["B", "C"], "B": ["B1", "B2"], "C": ["C1", "D"], "B1": ["b1", "b2"],
                         "B2": ["b3", "b4"], "C1": ["c1", "c2"], "D": ["d1", "d2"]},
            "values": {"b1": 5, "b2": 6, "b3": 7, "b4": 8, "c1": 9, "c2": 9, "d1": 1, "d2": 3}}
    tree = tree_from_dict(data)
    assert minimax(tree).value == 6
    for etc, entered_c1 in ((False, True), (True, False)):
        table = TranspositionTable()
        table.save("D", 1, 3, "upper", None)  # D (MAX to move) is worth at most 3, searched 1 ply
        tracer = RecordingTracer()
        heuristics = Heuristics(etc=etc, etc_depth=2)
        result = alphabeta(tree, depth=3, table=table, heuristics=heuristics, tracer=tracer)
        assert result.value == 6
        entered = {event.node for event in tracer.events if isinstance(event, Enter)}
        assert ("C1" in entered) is entered_c1 and heuristics.etc_cutoffs == int(etc)


def test_heuristics_without_a_table_skip_etc() -> None:
    tree = random_tree(3, 4, seed=1)
    heuristics = Heuristics(etc=True, etc_depth=1)
    assert alphabeta(tree, heuristics=heuristics).value == minimax(tree).value and heuristics.etc_cutoffs == 0
    assert alphabeta(tree, window=(-INF, INF)).value == minimax(tree).value


def test_a_traced_search_with_the_heuristics_enters_the_nodes_of_the_untraced_one() -> None:
    """The tracer only watches: with every heuristic on, traced and untraced searches agree."""
    game = LookaheadGame(rounds=5)
    state = game.play(game.root, ["g6", "c3"])
    runs = []
    for tracer in (RecordingTracer(), None):
        options: TracerOption = {} if tracer is None else {"tracer": tracer}
        heuristics = Heuristics(killers=True, history=True, etc=True, etc_depth=2)
        runs.append(iterative_deepening(game, state, 5, search=negascout, heuristics=heuristics, **options))
    traced, untraced = runs
    assert [(r.value, r.nodes, r.leaves, r.pv) for r in traced.iterations] == [
        (r.value, r.nodes, r.leaves, r.pv) for r in untraced.iterations]
