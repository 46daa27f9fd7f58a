"""The claims of lessons 5 and 6 corrected for issue 31 stay corrected.

Each check cell these lessons added for a finding (tagged ``check:<name>``) runs here outside Jupyter,
on the lesson's own input (it passes) and on a broken one (a tampered reservation tree, a swapped pair
of node counts, a fresh table where the lesson keeps one, a uniform branching, a perturbed record, a
shifted sample, a wrong Elo scale: it must fail), so each check could fail if its claim were false.
The old wording of the sentences rewritten stays out.

Inputs that take the lessons seconds to compute (the depth-6 ladder of search enhancements) are
given here as the leaf counts those searches make; nbval runs the real searches in the lessons.
"""

from __future__ import annotations

import math
import random
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

from gamelib import RecordingTracer, minimax
from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.games.adjacency_eval import Weights
from gamelib.games.adjacency_lookahead import LookaheadGame
from gamelib.games.data import read_json
from gamelib.play.bots.alphabeta import searched_game
from gamelib.play.bots.genetic import Evolution, GeneticBot
from gamelib.search.mtdf import iterative_deepening
from gamelib.search.negamax import negascout
from gamelib.search.tracing import Bound, TableHit
from gamelib.search.ttable import TranspositionTable
from tests.lesson_cells import run_check
from tests.test_lesson_claims import cells

GAME = "05_adjacency_game.ipynb"
BOTS = "06_adjacency_bots.ipynb"

RETRACTED = [
    (GAME, "the course's later edition",
     "the 4-neighbour rule is the course's own variant: the seeds (the report) give only the 8-neighbour rule"),
    (GAME, "was searched as deep as the one looking it up will be, and its value can be used as it is",
     "true only within one fixed-depth search: iterative deepening leaves shallower entries, a kept table "
     "deeper ones, and stored values are often bounds"),
    (GAME, "= 109{,}601$ positions", "109,601 are nodes (move sequences); they hold about a tenth as many positions"),
    (GAME, "every one of the 109,601 positions", "109,601 are nodes (move sequences), not distinct positions"),
    (BOTS, "so its table answers a position within one depth only with a search of that depth",
     "the bot keeps its table from move to move, so its next move's shallow depths accept deeper entries"),
    (BOTS, "and with the worst first every leaf minimax does",
     "deep cutoffs survive the worst order: lesson 2's worst-first counts fall short of b^d"),
    (BOTS, "evaluates about twice the minimal tree",
     "with 32, 31, 30, ... moves a ply the depth-6 minimal tree has 51,152 leaves: square order is about 3 times it"),
    (BOTS, "from four times the minimal tree to half of it",
     "the depth-8 minimal tree for 32, 31, ... moves has 1,305,704 leaves: 6.5 times to 0.84 of it"),
    (BOTS, "a node costs the weighted search only a little more time", "never measured"),
    (BOTS, "with nodes of about the same cost", "never measured"),
    (BOTS, "Their intervals overlap, so these games do not",
     "overlapping intervals are no test of a difference; Welch's t test gives p = 0.12"),
]

OPENING = ["h6", "c2", "c1", "b3", "c3", "e4", "f7", "f8", "e8", "a3"]
"""Lesson 6's ten opening moves of a 10-round game: its position for every bot, X to move."""

MIDGAME = "4OOOO/4OOXO/4OXOO/3XXXXX/3XOOOX/XOX2O2/XOO5/XXX5 X 32 r8"
"""Lesson 6's midgame position for the search enhancements (X to move, 32 empty squares)."""

SEED_FEATURES = {"discs": 30, "corners": 2, "stables": 5, "mobility": 15, "frontiers": 10, "parity": 3, "pattern": 20}
SEED_WEIGHTS = {"discs": -3, "corners": 5, "stables": 9, "mobility": 7, "frontiers": -5, "parity": 8, "pattern": 6}
"""Seed 000's worked Othello example: the features after "move 1" and the weights; its score is 164."""


@pytest.mark.parametrize("name, phrase, why", RETRACTED, ids=[phrase[:40] for _, phrase, _ in RETRACTED])
def test_a_retracted_statement_stays_out(name: str, phrase: str, why: str) -> None:
    said = [cell["text"] for cell in cells(name) if phrase in cell["text"]]
    assert not said, f"{name} says again {phrase!r}, which is not true ({why})"


# Lesson 5: the endgame's nodes are move sequences; the distinct positions are far fewer.

def endgame_inputs(plies_left: int) -> dict[str, Any]:
    """Lesson 5's random 28-round game (seed 2), played up to ``plies_left`` plies before its end."""
    full = AdjacencyGame(rounds=28)
    endgame, rng = full.root, random.Random(2)
    for _ in range(2 * 28 - plies_left):
        endgame = full.result(endgame, rng.choice(full.legal_moves(endgame)))
    return {"full": full, "endgame": endgame}


def test_endgame_positions_check_passes_on_the_lessons_endgame() -> None:
    inputs = endgame_inputs(8)
    run_check(GAME, "check:endgame-positions", solved=minimax(inputs["full"], inputs["endgame"]), **inputs)


def test_endgame_positions_check_fails_when_the_positions_are_counted_from_another_position() -> None:
    """Seven plies from the end hold far fewer positions than the 109,601 nodes of eight."""
    with pytest.raises(AssertionError, match="about a tenth as many distinct positions"):
        run_check(GAME, "check:endgame-positions", solved=SimpleNamespace(nodes=109_601), **endgame_inputs(7))


# Lesson 6: the reservation tree is minimax over its sequences.

def lesson_position() -> tuple[AdjacencyGame, AdjacencyState]:
    game = AdjacencyGame(rounds=10)
    return game, game.play(game.root, OPENING)


def reservation_inputs() -> dict[str, Any]:
    game, position = lesson_position()
    run = Evolution(GeneticBot(seed=1, population=8, depth=4), game, position, deadline=math.inf)
    run.evolve(3)
    return {"game": game, "position": position, "evolution": {200: run.tree}}


def test_reservation_check_passes_on_an_evolved_tree() -> None:
    run_check(BOTS, "check:reservation-minimax", **reservation_inputs())


def test_reservation_check_fails_when_a_root_moves_value_is_tampered_with() -> None:
    inputs = reservation_inputs()
    child = next(iter(inputs["evolution"][200].root.children.values()))
    assert child.value is not None
    child.value = child.value + 1
    with pytest.raises(AssertionError, match="minimax over the sequences it holds"):
        run_check(BOTS, "check:reservation-minimax", **inputs)


def test_reservation_check_fails_when_the_root_value_is_tampered_with() -> None:
    inputs = reservation_inputs()
    root = inputs["evolution"][200].root
    assert root.value is not None
    root.value = root.value - 1
    with pytest.raises(AssertionError, match="root value should be minimax"):
        run_check(BOTS, "check:reservation-minimax", **inputs)


# Lesson 6: seed 000's worked example.

def test_seed_score_check_passes_on_the_seeds_numbers() -> None:
    run_check(BOTS, "check:seed-othello-score", SEED_FEATURES=SEED_FEATURES, SEED_WEIGHTS=SEED_WEIGHTS)


def test_seed_score_check_fails_on_a_weight_with_the_wrong_sign() -> None:
    wrong = {**SEED_WEIGHTS, "frontiers": 5}  # 264, not the tutorial's 164
    with pytest.raises(AssertionError, match="should score 164"):
        run_check(BOTS, "check:seed-othello-score", SEED_FEATURES=SEED_FEATURES, SEED_WEIGHTS=wrong)


def test_seed_score_check_fails_when_the_courses_weights_reward_frontier_marks() -> None:
    with pytest.raises(AssertionError, match="point the same way"):
        run_check(BOTS, "check:seed-othello-score", SEED_FEATURES=SEED_FEATURES, SEED_WEIGHTS=SEED_WEIGHTS,
                  DEFAULT_WEIGHTS=Weights(material=4, stable=2, frontier=1))


# Lesson 6: the weighted search enters more nodes for each depth.

def weighted_nodes() -> dict[str, list[list[int]]]:
    """Lesson 6's node counts for depths 1-4 from its first opening (seed 0), both evaluations."""
    eight = AdjacencyGame(rounds=8)
    opening, rng = eight.root, random.Random(0)
    for _ in range(4):
        opening = eight.result(opening, rng.choice(eight.legal_moves(opening)))
    return {name: [[result.nodes for result in iterative_deepening(
        searched_game(eight, name), opening, 4, search=negascout, table=TranspositionTable(1 << 16)).iterations]]
        for name in ("material", "weighted")}


def test_weighted_nodes_check_passes_on_an_opening_of_the_lesson() -> None:
    run_check(BOTS, "check:weighted-nodes", entered=weighted_nodes())


def test_weighted_nodes_check_fails_when_the_evaluations_are_swapped() -> None:
    entered = weighted_nodes()
    with pytest.raises(AssertionError, match="should enter more nodes than material"):
        run_check(BOTS, "check:weighted-nodes", entered={"material": entered["weighted"], "weighted": entered["material"]})


# Lesson 6: the table kept from move to move answers the next move's shallow depths with deeper entries.

@cache
def kept_table_inputs() -> dict[str, Any]:
    """Lesson 6's rule-1 demonstration: depths 1-5 and a traced depth 6 one ply before its position,
    with one table, and the position two plies on (depth 6's principal variation). Made once: the
    tests below replace an input rather than change one (the check's own search only adds entries)."""
    game, _ = lesson_position()
    before = game.play(game.root, OPENING[:9])
    lookahead, table = LookaheadGame.like(game), TranspositionTable(1 << 20)
    iterative_deepening(lookahead, before, 5, search=negascout, table=table)
    traced = RecordingTracer()
    depth_6 = negascout(lookahead, before, 6, table=table, tracer=traced)
    return {"traced": traced, "before": before, "lookahead": lookahead, "table": table,
            "next_move": game.play(before, depth_6.pv[:2])}


def test_kept_table_check_passes_on_the_lessons_searches() -> None:
    run_check(BOTS, "check:kept-table", **kept_table_inputs())


def test_kept_table_check_fails_when_the_next_move_gets_a_fresh_table() -> None:
    inputs = kept_table_inputs()
    with pytest.raises(AssertionError, match="table kept from the move before"):
        run_check(BOTS, "check:kept-table", **{**inputs, "table": TranspositionTable(1 << 16)})


def test_kept_table_check_fails_on_a_deeper_entry_within_the_deepening() -> None:
    """A trace in which the depth-6 search's root was answered by an entry searched seven plies deep."""
    inputs = kept_table_inputs()
    node = inputs["lookahead"].node_id(inputs["before"])
    deeper = SimpleNamespace(events=[TableHit(node=node, depth=7, value=3, bound=Bound.EXACT, move=None, cutoff=True)])
    with pytest.raises(AssertionError, match="within one move's deepening"):
        run_check(BOTS, "check:kept-table", **{**inputs, "traced": deeper})


# Lesson 6: Knuth & Moore's minimal tree for a branching that falls by one a ply.

def midgame_branching(uniform: bool = False) -> list[int]:
    """The moves at plies 1-8 below lesson 6's midgame, down its first line (or 32 at every ply)."""
    lookahead = LookaheadGame()
    state, branching = lookahead.from_notation(MIDGAME), []
    for _ in range(8):
        moves = lookahead.legal_moves(state)
        branching.append(len(moves))
        state = lookahead.result(state, moves[0])
    return [branching[0]] * 8 if uniform else branching


LADDER_LEAVES = {"none": 153_001, "table move": 38_830, "gain order": 544}
"""The leaves lesson 6's depth-6 searches of the midgame evaluate (square order without a table; with
the table's move; with the gain order): its cell takes seconds, so the counts are given here."""


def ladder(leaves: dict[str, int]) -> dict[str, SimpleNamespace]:
    return {name: SimpleNamespace(leaves=count) for name, count in leaves.items()}


def test_ladder_check_passes_on_the_midgames_branching() -> None:
    run_check(BOTS, "check:ladder-minimal-tree", branching=midgame_branching(), ladder=ladder(LADDER_LEAVES))


def test_ladder_check_fails_on_32_moves_at_every_ply() -> None:
    with pytest.raises(AssertionError, match="one fewer each ply"):
        run_check(BOTS, "check:ladder-minimal-tree", branching=midgame_branching(uniform=True),
                  ladder=ladder(LADDER_LEAVES))


def test_ladder_check_fails_when_the_tables_move_stays_above_the_minimal_tree() -> None:
    with pytest.raises(AssertionError, match="below the depth-6 minimal tree"):
        run_check(BOTS, "check:ladder-minimal-tree", branching=midgame_branching(),
                  ladder=ladder({**LADDER_LEAVES, "table move": 55_000}))


def test_depth_8_check_passes_on_the_benchmarks_record() -> None:
    run_check(BOTS, "check:depth-8-minimal-tree", branching=midgame_branching(),
              leaves=read_json("benchmarks", "search_enhancements.json")["leaves"])


def test_depth_8_check_fails_on_32_moves_at_every_ply() -> None:
    """With 32 moves at every ply the minimal tree would have 2,097,151 leaves, the old figure."""
    with pytest.raises(AssertionError, match="1,305,704 leaves at depth 8"):
        run_check(BOTS, "check:depth-8-minimal-tree", branching=midgame_branching(uniform=True),
                  leaves=read_json("benchmarks", "search_enhancements.json")["leaves"])


def test_depth_8_check_fails_on_a_perturbed_record() -> None:
    leaves = read_json("benchmarks", "search_enhancements.json")["leaves"]
    perturbed = {**leaves, "rows": [{**row, "leaves": row["leaves"] * 2} if row["enhancement"] == "table move" else row
                                    for row in leaves["rows"]]}
    with pytest.raises(AssertionError, match="to 0.84"):
        run_check(BOTS, "check:depth-8-minimal-tree", branching=midgame_branching(), leaves=perturbed)


# Lesson 6: a test of the difference between the two faster versions' margins.

def test_faster_versions_check_passes_on_the_strength_record() -> None:
    run_check(BOTS, "check:faster-versions-differ", strength=read_json("benchmarks", "strength.json"))


def test_faster_versions_check_fails_when_one_version_gains_two_marks_more_a_pair() -> None:
    strength = read_json("benchmarks", "strength.json")
    shifted = {**strength, "matches": [{**match, "pair_margins": [margin + 2 for margin in match["pair_margins"]]}
                                       if match["new"] == "5b42b67" else match for match in strength["matches"]]}
    with pytest.raises(AssertionError, match="p = 0.12"):
        run_check(BOTS, "check:faster-versions-differ", strength=shifted)


# Lesson 6: Elo's expected score.

def test_elo_check_passes_on_gamelibs_expected_score() -> None:
    run_check(BOTS, "check:elo-scores")


def test_elo_check_fails_on_a_200_point_scale() -> None:
    with pytest.raises(AssertionError, match="about 0.64"):
        run_check(BOTS, "check:elo-scores", score_of_elo=lambda difference: 1 / (1 + 10 ** (-difference / 200)))
