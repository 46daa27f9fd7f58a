"""Lessons 8 and 9 after the expert readings of issue 31: the checks that replace claims found false,
unsupported or unable to fail, each shown able to fail, and the old wording kept out.

Each check cell (tagged ``check:NAME``) runs here outside Jupyter (``tests/lesson_cells.py``): on the
lesson's own inputs, or on inputs computed apart from gamelib's searches (the Star1 of tests/test_expectimax.py,
in exact fractions and in floats; a Star1 in floats, an alpha-beta, an expectiminimax and UCTs of this file's own;
a permutation test by numpy, and one counted exactly, of this file's own; scipy's Mann-Whitney test), where it must pass; and on a broken input (a wrong tree, a swapped player, a perturbed record, a shifted count), where it must raise
AssertionError.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest

from gamelib import Pig, Player, alphabeta, expectiminimax, random_tree, tree_from_dict
from gamelib.games.adjacency import AdjacencyGame
from gamelib.games.data import data_file, load_seed_tree
from gamelib.games.multiplayer import MultiPlayerTree, paranoid_tree
from gamelib.games.pig import PigMove, PigState
from gamelib.games.trees import GameTree
from gamelib.play.bots.mcts import MctsBot
from gamelib.play.records import GameRecord, read_records
from gamelib.search.mcts import DEFAULT_C, mcts
from gamelib.search.negamax import minimax
from gamelib.search.random_trees import random_multiplayer_tree
from gamelib.search.tracing import MctsBackup, MctsRollout, MctsSelect, RecordingTracer
from gamelib.teach.exercises import EXERCISES
from gamelib.view.mcts_replay import root_choices, settled_at
from tests.lesson_cells import run_check
from tests.test_expectimax import in_fractions, pig_count, tree_count
from tests.test_lesson_claims import cells

L8 = "08_chance_and_many_players.ipynb"
L9 = "09_monte_carlo_tree_search.ipynb"

RETRACTED = [
    (L8, "and beta only if it is worth less than",
     "backwards: the chance node is sure to reach beta once the outcome is worth at least (beta - S - R L)/p"),
    (L8, "about a third on Pig, whose bounds are tight",
     "the random trees' bounds [0, 99] are as tight; Pig's leaves lie at its bounds (told [-99, 198] the random trees "
     "save 6-13%, with their leaves at 0 or 99 19-29%)"),
    (L8, "so it saves a little less than exact arithmetic would",
     "the shortfall on the random trees came from windows not clamped to [L, U]; clamped, rounding costs under 1% of a "
     "tree (Pig: 78,829 nodes in floats against 77,700 in exact fractions)"),
    (L8, "Star1 saves 16-26% on the same shapes",
     "those were the counts of Star1 without the clamp; Star1 as Hauk, Buro & Schaeffer write it saves 19-29%"),
    (L8, "b1 is searched with (2, ∞), not with b's own (6, ∞)",
     "Star1 clamps the window to the values' range: b1 is searched with (2, 10)"),
    (L8, "three seeded random trees (payoffs 0 to 3, so that children tie for the player moving; one with uneven "
         "branching; one of four players)",
     "the four players' tree has payoffs 0 to 9 (random_multiplayer_tree's default), not 0 to 3"),
    (L8, "and mostly in life", "nothing supports it"),
    (L8, "it wins about 0.54 more often than it loses",
     "the value is P(MAX wins) - P(MIN wins) = 0.54; in the seeded games MAX won about 77% and lost about 23%"),
    (L8, "Checks compare all these counts with a Star1 written apart from",
     "only Pig's float count (78,829) is compared with an independent Star1 in floats; the random trees' float counts "
     "with their leaves at the bounds are only held within 1% of the exact ones; a float count depends on rounding "
     "(counted down from 1, an independent Star1 takes 78,913 on Pig)"),
    (L8, "so alpha-beta prunes it as usual",
     "on the three players' tree alpha-beta prunes nothing of the paranoid reduction (15 of 15 nodes); on the random "
     "tree b=3 d=3 seed=2 it visits 23 of 40"),
    (L8, "(one with one to three moves a position, one with MIN to move at the root)",
     "random_tree((1, 3), 4, seed=2, chance=True) was a six-node chain with no position of three moves; the checker "
     "now uses seed 5 (34 nodes, one to three moves and outcomes)"),
    (L8, "fearing the worst, goes East and expects 0.1225 less on average",
     "the minimax agent is sure of 3.02; East gets 0.1225 less than West only against random ghosts"),
    (L8, "allows only *shallow* pruning, when the payoffs' sum is bounded (Sturtevant & Korf 2000)",
     "shallow pruning is Korf (1991) and needs a lower bound on each payoff too; Sturtevant & Korf (2000) add "
     "alpha-beta branch-and-bound, Sturtevant (2003) last-branch and speculative pruning"),
    (L9, "its leaves are worth 0 to 15", "Broeders' leaves are 1 to 14; 0 to 15 is the range the rewards scale"),
    (L9, "--rule R --time T --seed 2026 --workers 1`",
     "the README: the rule 4 file at 5 s played games 3-39 two at a time (--workers 2)"),
    (L9, "although the bot stopped its search in time", "nothing in the records shows it"),
    (L9, "random games for each move of the opening",
     "(nodes - 1)/56 is the average a move; UCT gives the moves that look weak fewer"),
    (L9, "at least fifty to a hundred-odd games a move. The mean",
     "an average over the opening's moves, not each move's count"),
    (L9, "only when $n$ is large beside that does the better move take most of the visits",
     "Auer et al.'s bound is on the worse arm's expected plays, for fixed arms; in this run move 1 has two thirds of "
     "the visits from iteration 663 on"),
    (L9, "and by about the same factor, so speed does not explain the difference between the rules",
     "the rule 8 file at 1 s ran on a slower machine (MCTS 6,227 nodes a second against 9,773 under rule 4)"),
    (L9, "how often does shuffling the 80 games' labels (1 s or 5 s) give a difference",
     "the test ignored colour: within colour p = 0.18 and 0.03, not 0.42 and 0.05"),
    (L9, "Under rule 4 its p lies between 0.01 and 0.1: weak evidence, and from one of two comparisons",
     "within colour p = 0.03, one of three tests, none below 0.05/3"),
    (L9, "under rule 8 alpha-beta is the stronger, at 95%; under rule 4",
     "one of four intervals: at 98.75% (Bonferroni for four) rule 8's interval at 1 s, [0.466, 0.816], holds 0.5"),
    (L9, "Within a file the comparison is fair",
     "the machine's speed changed from game to game within a file (MCTS from 14,804 to 2,714 nodes a second in rule 8's "
     "1 s file), more than between the files' medians"),
    (L9, "whose weights were chosen and measured under rule 8 only",
     "DEFAULT_WEIGHTS were set by reasoning and then measured (18-2 at depth 2, rule 8); nothing records tuning"),
    (L9, "an evaluation tuned under rule 8 only", "nothing records tuning the weights; they were measured under rule 8"),
    (L9, "whose estimates keep improving with every iteration",
     "Browne et al. (2012): it can stop at any time and more iterations generally improve the result; here, with "
     "c = 3, move 2 stayed the choice until iteration 674"),
    (L9, "about three and a half minutes at 5 s",
     "the recorded move times add up to a median of 191 s (rule 8) and 199 s (rule 4) a game"),
    (L9, "Kocsis & Szepesvari", "spelled Szepesvári"),
    (L9, "for the chance of any false alarm among three to stay under 5%",
     "four pairs of files differ in one setting: the rules at 5 s were untested (p = 4e-7 within colour)"),
    (L9, "UCB1's theory does not say when this happens",
     "Auer et al.'s bound gives a time: with Delta = 2/15 it falls to n/2 from n = 8,110 and n/3 from n = 12,778"),
    (L9, "never when the better one takes over",
     "a bound on the worse arm's expected plays gives a time for the better arm's share"),
    (L9, "games 20 to 27, the first played beside the rule 4 match",
     "ranges picked to fit: games 20-39 (beside the rule 4 match) against 0-19, Mann-Whitney p = 0.26"),
    (L9, "more iterations generally improve its choice, though not at every iteration",
     "the c = 3 example shows slow improvement, not a choice getting worse"),
    (L9, "and explain its result with measured figures",
     "the lesson shows the files cannot say why the results differ"),
    (L8, "only below 2 is b sure to stay under 6",
     "Star1 cuts at v <= A = 2: at or below 2 b is sure to be worth at most 6, which is all the cut needs"),
    (L8, "no cut there hangs on equality",
     "an exact Star1 finds three cuts on the drawn trees that hold only with equality ((4, 4) seed 9 node 64, (3, 6) "
     "seeds 0 and 11, nodes 258 and 143); rounding happened not to break them"),
    (L8, "no cut on the trees as drawn hangs on equality", "the check's message repeated the false reason"),
    (L8, "less than the 25-30% of Ballard's analysis",
     "not like for like: Ballard's abstract does not say on which trees; the lesson counts every node of 4- and 6-level "
     "trees with unequal probabilities"),
    (L8, "What Pig has is values *at* its bounds",
     "leaves at the bounds raise the random trees' saving to 19-29% only, short of Pig's 33.9%: part of the gap, not all"),
    (L8, "so it also does minimax and Pig",
     "Pig has no children_of, and its chance_outcomes gives faces: my_expectimax as specified cannot run on it"),
    (L9, "the games cannot tell the bots apart",
     "it is the unstratified interval that cannot: the colour-aware test gives p = 0.0083 under rule 8 at 1 s"),
    (L9, "only one verdict survives",
     "one interval keeps its verdict at 98.75%; the colour-aware test at 0.0125 keeps two (rule 8 at 1 s too)"),
    (L9, "though not at the 98.75% four files need",
     "by the colour-aware test alpha-beta is the stronger under rule 8 at 1 s even as one of four (p = 0.0083)"),
    (L9, "it has to earn every point", "MCTS was the stronger under rule 4 at 5 s"),
    (L9, "MIN then explores the moves that are best for MAX", "selection, not exploration: MIN then selects them"),
    (L9, "for the player who chooses, plus a bonus",
     "W is the sum of MAX's rewards: W/n is MAX's mean; MIN's is (n - W)/n"),
    (L9, "and less again in the rule 4 file at 5 s",
     "alpha-beta ran faster there than in the rule 8 file at 1 s (67,204 against 64,164 nodes a second): two slow "
     "files against two fast, no order between the slow ones"),
    (L9, "rule 8 file shows none at its game 20",
     "both bots' speeds fell sharply at game 20 (41% and 44% from game 19, each one's largest fall; games 10-19 all "
     "faster than games 20-29, U = 0 of 100, p = 1.1e-5); only as a group did games 20-39 not run slower (p = 0.26)"),
    (L9, "it moved as much while the file ran beside other work as while it ran beside the rule 4 match",
     "the tens' medians hide the sharpest change, at game 20; it is no larger than the rise at game 10 or the "
     "recovery from game 27, which is what the speeds can say"),
    (L9, "less at 5 s (40% and 45%): it does not start a depth",
     "leaves out the endgame: in plies 40-55, 36-46% of alpha-beta's moves were searched to the end of the game; "
     "over the moves not searched to the end its share is 60%, 56%, 44% and 50%"),
    (L9, "So at the level four files need, two verdicts stand",
     "the colour-aware test was brought in after the interval gave no verdict; among all eight tests rule 8's p at "
     "1 s (0.008316) fails Bonferroni's 0.00625 and passes Holm's 0.05/6 by 2e-5"),
    (L9, "by the colour-aware test even as one of four",
     "as one of eight tests the verdict holds by Holm's method only, not by Bonferroni's correction"),
    (L9, "so alpha-beta is the stronger even as one of four tests",
     "the verdict depends on the family: as one of eight it holds by Holm's method, not by Bonferroni's"),
    (L9, "cannot show that games 0 to 2 ran alone",
     "the README says one at a time within their match; at about 57% of the fastest games elsewhere their speed agrees "
     "with faster than two at a time, not with running alone on the machine"),
    (L9, "Within a game both bots met the same machine",
     "inferred from how the speeds move across games, not measured within a game"),
    (L9, "90% by {sorted(settled)[int(0.9 * len(settled))]}",
     "the 63rd of 69 sorted values: 91%, not 90%"),
    (L9, 'assert sorted({len(tree.players) for tree in small_trees}) == [31, 40]',
     "fixed by the two shapes (a full binary tree of depth 4, a full ternary tree of depth 3): it cannot fail"),
    (L8, "only one kind of change commutes with that",
     "every affine map commutes with weighted sums; a > 0 is what keeps the order"),
    (L8, "draw the smallest such tree", "nothing supports 'smallest'"),
]


@pytest.mark.parametrize("name, phrase, why", RETRACTED, ids=[phrase[:40] for _, phrase, _ in RETRACTED])
def test_a_retracted_statement_stays_out(name: str, phrase: str, why: str) -> None:
    said = [cell["text"] for cell in cells(name) if phrase in cell["text"]]
    assert not said, f"{name} says again {phrase!r}, which is false or unsupported ({why})"


# Lesson 8: changes of the leaves that keep their order ---------------------------------------------------------


def aima_changed(maps: dict[str, Callable[[int], int]]) -> tuple[GameTree, dict[str, GameTree]]:
    aima = load_seed_tree("textbook_aima_fig5_12")
    return aima, {name: aima.with_values({leaf: change(int(v)) for leaf, v in aima.values.items()})
                  for name, change in maps.items()}


LESSON_CHANGES: dict[str, Callable[[int], int]] = {
    "3v + 7": lambda v: 3 * v + 7, "v ** 4": lambda v: v**4,
    "2 3 1 4 -> 20 30 1 400": lambda v: {1: 1, 2: 20, 3: 30, 4: 400}[v]}


def test_order_check_passes_on_the_lessons_changes() -> None:
    aima, changed = aima_changed(LESSON_CHANGES)
    run_check(L8, "check:order-not-enough", aima=aima, changed=changed)


def test_order_check_fails_on_a_change_that_reverses_the_order() -> None:
    aima, changed = aima_changed({**LESSON_CHANGES, "v ** 4": lambda v: (5 - v) ** 4})
    with pytest.raises(AssertionError, match="order"):
        run_check(L8, "check:order-not-enough", aima=aima, changed=changed)


def test_order_check_fails_when_a_linear_change_is_swapped_for_v4() -> None:
    aima, changed = aima_changed({**LESSON_CHANGES, "3v + 7": lambda v: v**4})
    with pytest.raises(AssertionError, match="by hand"):
        run_check(L8, "check:order-not-enough", aima=aima, changed=changed)


# Lesson 8: the paranoid reduction ----------------------------------------------------------------------------


def three_players() -> MultiPlayerTree:
    tree = load_seed_tree("three_players")
    assert isinstance(tree, MultiPlayerTree)
    return tree


def test_paranoid_check_passes_on_player_1s_reduction() -> None:
    three = three_players()
    run_check(L8, "check:paranoid-reduction", three=three, reduced=paranoid_tree(three, 1))


def test_paranoid_check_fails_on_player_2s_reduction() -> None:
    three = three_players()
    with pytest.raises(AssertionError, match="player 1's payoff"):
        run_check(L8, "check:paranoid-reduction", three=three, reduced=paranoid_tree(three, 2))


def test_paranoid_check_fails_on_a_tree_with_a_payoff_changed() -> None:
    wrong = three_players().with_payoffs({"d2": (5, 2, 1)})
    with pytest.raises(AssertionError, match="player 1's payoff"):
        run_check(L8, "check:paranoid-reduction", three=wrong, reduced=paranoid_tree(wrong, 1))


def own_paranoid_nodes(tree: MultiPlayerTree) -> int:
    """The nodes a fail-soft alpha-beta of this file's own visits on player 1's paranoid reduction of ``tree``."""
    count = 0

    def search(node: str, alpha: float, beta: float) -> float:
        nonlocal count
        count += 1
        if not tree.children_of(node):
            return float(tree.payoff(node)[0])
        mine, best = tree.mover(node) == 1, -math.inf if tree.mover(node) == 1 else math.inf
        for kid in tree.children_of(node):
            best = max(best, search(kid, max(alpha, best), beta)) if mine else min(best, search(kid, alpha, min(beta, best)))
            if (best >= beta) if mine else (best <= alpha):
                break
        return best

    search(tree.root, -math.inf, math.inf)
    return count


def paranoid_inputs(player: int = 1) -> dict[str, Any]:
    three, bigger = three_players(), random_multiplayer_tree(3, 3, high=3, seed=2)
    return {"three": three, "paranoid": alphabeta(paranoid_tree(three, player)), "bigger": bigger,
            "bigger_paranoid": alphabeta(paranoid_tree(bigger, player))}


def test_paranoid_prunes_check_passes_on_alpha_betas_counts() -> None:
    # This file's own alpha-beta: all 15 nodes of the three players' tree, 23 of the random tree's 40.
    assert (own_paranoid_nodes(three_players()), own_paranoid_nodes(random_multiplayer_tree(3, 3, high=3, seed=2))) == (15, 23)
    run_check(L8, "check:paranoid-prunes", **paranoid_inputs())


def test_paranoid_prunes_check_fails_on_a_search_that_prunes_nothing() -> None:
    bigger = random_multiplayer_tree(3, 3, high=3, seed=2)
    with pytest.raises(AssertionError, match="fewer than all"):
        run_check(L8, "check:paranoid-prunes", **{**paranoid_inputs(), "bigger_paranoid": minimax(paranoid_tree(bigger, 1))})


def test_paranoid_prunes_check_fails_on_player_2s_reduction() -> None:
    with pytest.raises(AssertionError, match="player 1's paranoid reduction"):
        run_check(L8, "check:paranoid-prunes", **paranoid_inputs(player=2))


def own_expectiminimax(tree: GameTree, node: str) -> Fraction:
    """Expectiminimax by its definition, in exact fractions, over the tree's children, players and probabilities."""
    kids = tree.children_of(node)
    if not kids:
        return Fraction(tree.values[node])
    values = [own_expectiminimax(tree, kid) for kid in kids]
    mover = tree.to_move(node)
    if mover is Player.CHANCE:
        return sum((Fraction(tree.probabilities[node][kid]) * value for kid, value in zip(kids, values)), Fraction(0))
    return max(values) if mover is Player.MAX else min(values)


def test_expectimax_trees_check_passes_on_the_checkers_trees() -> None:
    trees = EXERCISES["expectimax"].trees()
    assert own_expectiminimax(trees[3], trees[3].root) == Fraction(7954, 195)  # as worked by hand in the check
    run_check(L8, "check:expectimax-trees", expectimax_trees=trees)


def test_expectimax_trees_check_fails_on_the_old_six_node_chain() -> None:
    trees = list(EXERCISES["expectimax"].trees())
    trees[3] = random_tree((1, 3), 4, seed=2, chance=True)
    with pytest.raises(AssertionError, match="one to three moves"):
        run_check(L8, "check:expectimax-trees", expectimax_trees=tuple(trees))


def test_expectimax_trees_check_fails_with_the_last_two_trees_swapped() -> None:
    trees = list(EXERCISES["expectimax"].trees())
    trees[3], trees[4] = trees[4], trees[3]
    with pytest.raises(AssertionError, match="one to three moves"):
        run_check(L8, "check:expectimax-trees", expectimax_trees=tuple(trees))


# Lesson 8: what makes Star1 cut --------------------------------------------------------------------------------
# The independent Star1 (tests/test_expectimax.py): written apart from gamelib, each outcome's window clamped to the
# value range as Hauk, Buro & Schaeffer (2006) write Star1, in exact fractions (or, for Pig, in floats too).

SHAPES = [(3, 4), (4, 4)]  # the lesson's third shape, (3, 6), takes a few seconds: test_star1_counts_of_every_shape


@cache
def lesson_trees(shape: tuple[int, int], variant: str) -> tuple[GameTree, ...]:
    """The lesson's 20 random trees of ``shape``: as drawn, told [-99, 198] ("loose"), or with their leaves moved to
    their bounds ("edges")."""
    trees = [random_tree(*shape, seed=seed, chance=True) for seed in range(20)]
    if variant == "loose":
        return tuple(tree_from_dict({**tree.to_dict(), "value_range": [-99, 198]}) for tree in trees)
    if variant == "edges":
        return tuple(tree.with_values({leaf: 0 if v < 50 else 99 for leaf, v in tree.values.items()}) for tree in trees)
    return tuple(trees)


@cache
def independent_counts(variant: str, shapes: tuple[tuple[int, int], ...] = tuple(SHAPES),
                       clamp: bool = True) -> dict[tuple[int, int], tuple[int, int]]:
    """(nodes of plain expectiminimax, which visits every node; nodes of the independent Star1 in exact fractions),
    summed over the 20 trees of each shape."""
    counts = {}
    for shape in shapes:
        trees = lesson_trees(shape, variant)
        counts[shape] = (sum(len(tree.nodes()) for tree in trees), sum(tree_count(tree, clamp=clamp)[1] for tree in trees))
    return counts


@cache
def gamelib_counts(variant: str) -> dict[tuple[int, int], tuple[int, int]]:
    """What the lesson counts: gamelib's plain expectiminimax and Star1 (in floats), summed over the same 20 trees."""
    return {shape: (sum(expectiminimax(tree).nodes for tree in lesson_trees(shape, variant)),
                    sum(expectiminimax(tree, star1=True).nodes for tree in lesson_trees(shape, variant)))
            for shape in SHAPES}


def tree_inputs(source: Callable[[str], dict[tuple[int, int], tuple[int, int]]]) -> dict[str, Any]:
    return {"star1_counts": source("exact"), "loose_counts": source("loose"), "edge_counts": source("edges")}


def test_star1_trees_check_passes_on_the_independent_star1s_counts() -> None:
    run_check(L8, "check:star1-at-bounds", **tree_inputs(independent_counts))


def test_star1_trees_check_passes_on_gamelibs_counts_in_floats() -> None:
    run_check(L8, "check:star1-at-bounds", **tree_inputs(gamelib_counts))


def test_star1_in_exact_fractions_counts_what_the_independent_star1_counts() -> None:
    # gamelib's Star1 on the same trees with exact Fraction probabilities: the same nodes on every variant.
    for variant in ("exact", "loose", "edges"):
        found = {shape: (sum(len(tree.nodes()) for tree in lesson_trees(shape, variant)),
                         sum(expectiminimax(in_fractions(tree), star1=True).nodes for tree in lesson_trees(shape, variant)))
                 for shape in SHAPES}
        assert found == independent_counts(variant), variant


def test_star1_trees_check_fails_on_windows_not_clamped() -> None:
    # Star1 without the clamp (as gamelib's was): with the leaves at 0 or 99 it saves 16.0% and 25.7%, not 19.1%, 29.3%.
    inputs = {**tree_inputs(independent_counts), "edge_counts": independent_counts("edges", clamp=False)}
    with pytest.raises(AssertionError, match="rounding should cost"):
        run_check(L8, "check:star1-at-bounds", **inputs)


def test_star1_trees_check_fails_with_the_loose_and_edge_counts_swapped() -> None:
    inputs = tree_inputs(independent_counts)
    inputs["loose_counts"], inputs["edge_counts"] = inputs["edge_counts"], inputs["loose_counts"]
    with pytest.raises(AssertionError, match="told"):
        run_check(L8, "check:star1-at-bounds", **inputs)


@pytest.mark.slow  # the third shape's 20 trees of 1,093 nodes, three ways, in fractions: a few seconds
def test_star1_counts_of_every_shape() -> None:
    every = ((3, 4), (4, 4), (3, 6))
    run_check(L8, "check:star1-at-bounds", **tree_inputs(lambda variant: independent_counts(variant, every)))
    # The reviewer's own exact Star1 (issue 31) counted 1,958, 4,820 and 15,442 with the leaves at their bounds.
    assert [pruned for _, pruned in independent_counts("edges", every).values()] == [1958, 4820, 15442]


def equality_cuts(tree: GameTree) -> list[tuple[str, str, Fraction]]:
    """The chance-node cuts that hold only with equality when a Star1 of this file's own (fail-soft, each outcome's
    window clamped to the value range, in exact fractions) searches ``tree``: (the chance node, "A" if the outcome's
    value equals the bound (alpha - S - R U)/p below which the node cannot rise above alpha, "B" if it equals
    (beta - S - R L)/p, the value)."""
    low, high = (Fraction(bound) for bound in tree.value_range)
    found: list[tuple[str, str, Fraction]] = []

    def search(node: str, alpha: Fraction | float, beta: Fraction | float) -> Fraction:
        kids = tree.children_of(node)
        if not kids:
            return Fraction(tree.values[node])
        mover = tree.to_move(node)
        if mover is Player.CHANCE:
            odds = [Fraction(tree.probabilities[node][kid]) for kid in kids]
            total = Fraction(0)
            for index, (kid, p) in enumerate(zip(kids, odds)):
                rest = sum(odds[index + 1:], Fraction(0))
                below = (alpha - total - rest * high) / p if alpha != -math.inf else -math.inf
                above = (beta - total - rest * low) / p if beta != math.inf else math.inf
                value = search(kid, max(below, low), min(above, high))
                if value <= below or value >= above:
                    if value in (below, above):
                        found.append((node, "A" if value == below else "B", value))
                    return total + p * value + rest * (high if value <= below else low)
                total += p * value
            return total
        best: Fraction | None = None
        for kid in kids:
            if mover is Player.MAX:
                value = search(kid, alpha if best is None else max(alpha, best), beta)
                best = value if best is None else max(best, value)
                if best >= beta:
                    break
            else:
                value = search(kid, alpha, beta if best is None else min(beta, best))
                best = value if best is None else min(best, value)
                if best <= alpha:
                    break
        assert best is not None
        return best

    search(tree.root, -math.inf, math.inf)
    return found


def test_a_few_cuts_on_the_drawn_trees_hold_only_with_equality() -> None:
    # Lesson 8: on the random trees as drawn "a few of their cuts hold only with equality too, but rounding happened to
    # break none". The reviewer's exact Star1 (issue 31) found these three: (4, 4) seed 9 at node 64 (v = B = 67),
    # (3, 6) seed 0 at node 258 (v = A = 3), seed 11 at node 143 (v = A = 49).
    found = {(shape, seed): equality_cuts(random_tree(*shape, seed=seed, chance=True))
             for shape in ((3, 4), (4, 4), (3, 6)) for seed in range(20)}
    assert {key: cuts for key, cuts in found.items() if cuts} == {
        ((4, 4), 9): [("64", "B", Fraction(67))], ((3, 6), 0): [("258", "A", Fraction(3))],
        ((3, 6), 11): [("143", "A", Fraction(49))]}
    # and gamelib's Star1 in floats counts on those trees what the independent one counts in exact fractions
    for shape, seed in ((4, 4), 9), ((3, 6), 0), ((3, 6), 11):
        tree = random_tree(*shape, seed=seed, chance=True)
        assert expectiminimax(tree, star1=True).nodes == tree_count(tree)[1]


PIG_COUNTS = {"plain": 119_169, "Star1, floats": 78_829, "Star1, exact fractions": 77_700}
PIG_TOLD = {2: 96_587, 3: 106_924, 10: 113_627}  # gamelib's Star1 in floats, told [-t, t]
"""What lesson 8 computes with gamelib for Pig; test_pig_counts_are_gamelibs_and_the_checks_are_independent holds them."""


@cache
def independent_pig() -> tuple[int, Counter[int]]:
    """Pig to 6 in 4 turns: the nodes plain expectiminimax visits and the values of the leaves it reads, by a walk
    of this file's own (each position's counts worked out once)."""
    pig = Pig(target=6, turns=4, sides=6)

    @cache
    def walk(state: PigState) -> tuple[int, Counter[int]]:
        if pig.is_terminal(state):
            return 1, Counter({int(pig.evaluate(state)): 1})
        nodes, leaves = 1, Counter[int]()
        for move in pig.legal_moves(state):
            more, found = walk(pig.result(state, move))
            nodes, leaves = nodes + more, leaves + found
        return nodes, leaves

    return walk(pig.root)


def pig_inputs(**changes: Any) -> dict[str, Any]:
    plain, leaves = independent_pig()
    assert plain == PIG_COUNTS["plain"] and sum(leaves.values()) == 89_377
    counts = tree_inputs(independent_counts)
    return {"pig_counts": dict(PIG_COUNTS), "pig_told": dict(PIG_TOLD), "pig_leaves": leaves,
            "star1_counts": counts["star1_counts"], **changes}


def test_star1_pig_check_passes_on_the_lessons_counts() -> None:
    run_check(L8, "check:star1-pig", **pig_inputs())


def test_star1_pig_check_fails_on_the_count_of_a_star1_without_the_clamp() -> None:
    # The independent Star1 in exact fractions without the clamp searches 78,140 nodes of Pig.
    with pytest.raises(AssertionError, match="77,700 in exact fractions"):
        run_check(L8, "check:star1-pig", **pig_inputs(pig_counts={**PIG_COUNTS, "Star1, exact fractions": 78_140}))


def test_star1_pig_check_fails_on_a_told_count_below_exact_arithmetics() -> None:
    with pytest.raises(AssertionError, match="told"):
        run_check(L8, "check:star1-pig", **pig_inputs(pig_told={**PIG_TOLD, 3: 96_000}))


def test_star1_pig_check_fails_if_pigs_leaves_were_mostly_draws() -> None:
    leaves = independent_pig()[1]
    with pytest.raises(AssertionError, match="nine in ten"):
        run_check(L8, "check:star1-pig", **pig_inputs(pig_leaves=Counter({-1: leaves[1], 0: leaves[-1], 1: leaves[0]})))


@pytest.mark.slow  # Star1 on Pig's 119,169-node tree seven times, in fractions and floats: about twenty seconds
def test_pig_counts_are_gamelibs_and_the_checks_are_independent() -> None:
    @dataclasses.dataclass(frozen=True)
    class Told(Pig):
        told: int = 1

        @property
        def value_range(self) -> tuple[int, int]:
            return (-self.told, self.told)

    pig = Pig(target=6, turns=4, sides=6)
    assert {told: expectiminimax(Told(6, 4, 6, told), star1=True).nodes for told in PIG_TOLD} == PIG_TOLD
    assert expectiminimax(pig, star1=True).nodes == PIG_COUNTS["Star1, floats"] == pig_count(pig, exact=False)[1]
    assert pig_count(pig)[1] == PIG_COUNTS["Star1, exact fractions"]
    namespace = run_check(L8, "check:star1-pig", **pig_inputs())
    assert namespace["exact_told"] == {told: pig_count(pig, told)[1] for told in PIG_TOLD}


def float_star1_on_pig(rest_from_one: bool) -> int:
    """The nodes a Star1 in floats of this file's own (fail-soft, windows clamped to [-1, 1]) searches of Pig to 6 in 4
    turns: after each face (probability the float 1/6), the probability left is the floats 1/6 still to come added up,
    or (``rest_from_one``) counted down from 1.0, 1 - 1/6 - 1/6 ... Each rounds its sums differently."""
    pig, count, face = Pig(target=6, turns=4, sides=6), 0, 1 / 6

    def search(state: PigState, alpha: float, beta: float) -> float:
        nonlocal count
        count += 1
        if pig.is_terminal(state):
            return float(pig.evaluate(state))
        mover = pig.to_move(state)
        if mover is Player.CHANCE:
            faces: list[PigMove] = list(pig.legal_moves(state))
            total, left = 0.0, 1.0
            for index, move in enumerate(faces):
                left = left - face if rest_from_one else sum([face] * (len(faces) - index - 1), 0.0)
                below, above = (alpha - total - left) / face, (beta - total + left) / face
                value = search(pig.result(state, move), max(below, -1.0), min(above, 1.0))
                if value <= below:
                    return total + face * value + left
                if value >= above:
                    return total + face * value - left
                total += face * value
            return total
        best = -math.inf if mover is Player.MAX else math.inf
        for move in pig.legal_moves(state):
            if mover is Player.MAX:
                best = max(best, search(pig.result(state, move), max(alpha, best), beta))
                if best >= beta:
                    break
            else:
                best = min(best, search(pig.result(state, move), alpha, min(beta, best)))
                if best <= alpha:
                    break
        return best

    search(pig.root, -math.inf, math.inf)
    return count


def test_a_count_in_floats_depends_on_the_rounding() -> None:
    # Lesson 8: "that independent Star1, with the probability left after each outcome counted down from 1 ... searches
    # another number of Pig's nodes". Added up from the floats still to come it counts gamelib's 78,829; from 1, 78,913
    # (the reviewer's Star1 of issue 31 counted 78,913 too).
    assert (float_star1_on_pig(rest_from_one=False), float_star1_on_pig(rest_from_one=True)) == (78_829, 78_913)


# Lesson 8: the max^n checker's trees --------------------------------------------------------------------------


def test_maxn_trees_check_passes_on_the_checkers_trees() -> None:
    run_check(L8, "check:maxn-trees", maxn_trees=EXERCISES["maxn"].trees())


def test_maxn_trees_check_fails_if_the_four_players_had_payoffs_0_to_3() -> None:
    trees = list(EXERCISES["maxn"].trees())
    trees[3] = random_multiplayer_tree(2, 4, players=4, high=3, seed=3)
    with pytest.raises(AssertionError, match="0 to 9"):
        run_check(L8, "check:maxn-trees", maxn_trees=tuple(trees))


def test_maxn_trees_check_fails_if_the_uneven_tree_came_first() -> None:
    trees = list(EXERCISES["maxn"].trees())
    trees[1], trees[2] = trees[2], trees[1]
    with pytest.raises(AssertionError, match="uneven"):
        run_check(L8, "check:maxn-trees", maxn_trees=tuple(trees))


@pytest.mark.parametrize("index, tree, claim", [
    (3, random_multiplayer_tree(2, 4, players=4, high=8, seed=3), "0 to 9"),
    (1, random_multiplayer_tree(3, 3, high=2, seed=2), "0 to 3")],
    ids=["four players' payoffs 0 to 8", "three players' payoffs 0 to 2"])
def test_maxn_trees_check_fails_on_payoffs_of_another_range(index: int, tree: MultiPlayerTree, claim: str) -> None:
    # The old check (a maximum above 3) passed payoffs 0 to 8; the payoffs must span the range the text gives.
    trees = list(EXERCISES["maxn"].trees())
    trees[index] = tree
    with pytest.raises(AssertionError, match=claim):
        run_check(L8, "check:maxn-trees", maxn_trees=tuple(trees))


# Lesson 9: UCB1's bonus at iteration 3 --------------------------------------------------------------------------


def root_scores(c: float) -> dict[str, Any]:
    tracer = RecordingTracer()
    mcts(load_seed_tree("broeders31"), iterations=3, c=c, seed=1, tracer=tracer)
    select = next(event for event in tracer.events if isinstance(event, MctsSelect))
    rewards = [event.reward for event in tracer.events if isinstance(event, MctsRollout)][:2]
    return {"select_scores": select.scores, "rewards": rewards}


def test_root_bonus_check_passes_on_the_traced_search() -> None:
    run_check(L9, "check:root-bonus", **root_scores(DEFAULT_C))


def test_root_bonus_check_fails_on_a_search_with_another_constant() -> None:
    with pytest.raises(AssertionError, match="1.1774"):
        run_check(L9, "check:root-bonus", **root_scores(1.0))


# Lesson 9: when the better move takes over -----------------------------------------------------------------------


def independent_share(iterations: int) -> list[float]:
    """Move 1's share of the root's visits on Broeders' tree after each iteration, by a UCT of this file's own (UCB1
    with c = sqrt 2 from the chooser's side, MIN's wins n - W; the first untried child expanded; the first of equal
    scores), whose rollouts end at the leaves gamelib's traced search (seed 1) reached: the only random part. Each
    rollout must start where this UCT expanded, so the selection, expansion and backup are this file's own."""
    tree = load_seed_tree("broeders31")
    tracer = RecordingTracer()
    mcts(tree, iterations=iterations, seed=1, tracer=tracer)
    low, high = tree.value_range
    visits, wins, share = {tree.root: 0}, {tree.root: 0.0}, []
    for rollout in (event for event in tracer.events if isinstance(event, MctsRollout)):
        node, path = tree.root, [tree.root]
        while not tree.is_terminal(node) and all(kid in visits for kid in tree.children_of(node)):
            parent, sign = node, tree.to_move(node) is Player.MAX

            def score(kid: str, parent: str = parent, sign: bool = sign) -> float:
                mean = wins[kid] / visits[kid]
                return (mean if sign else 1 - mean) + math.sqrt(2) * math.sqrt(math.log(visits[parent]) / visits[kid])

            node = max(tree.children_of(node), key=score)
            path.append(node)
        if not tree.is_terminal(node):
            node = next(kid for kid in tree.children_of(node) if kid not in visits)
            visits[node], wins[node] = 0, 0.0
            path.append(node)
        assert rollout.path[-1] == node, (rollout.iteration, rollout.path, path)
        leaf = rollout.moves[-1] if rollout.moves else node
        reward = (tree.evaluate(leaf) - low) / (high - low)
        for visited in path:
            visits[visited] += 1
            wins[visited] += reward
        share.append(visits["1"] / (visits["1"] + visits.get("2", 0)))
    return share


def gamelib_share(c: float) -> list[float]:
    tracer = RecordingTracer()
    mcts(load_seed_tree("broeders31"), iterations=2400, c=c, seed=1, tracer=tracer)
    visits, share = Counter[str](), []
    for event in tracer.events:
        if isinstance(event, MctsBackup):
            visits[event.path[1]] += 1
            share.append(visits["1"] / (visits["1"] + visits["2"]))
    return share


def test_takeover_check_passes_on_an_independent_uct() -> None:
    share = independent_share(2400)
    assert share == gamelib_share(DEFAULT_C)
    run_check(L9, "check:better-move-takes-over", share=share)


def test_takeover_check_fails_on_a_search_that_explores_more() -> None:
    with pytest.raises(AssertionError, match="663"):
        run_check(L9, "check:better-move-takes-over", share=gamelib_share(3.0))


def test_takeover_check_fails_on_a_record_one_iteration_off() -> None:
    share = independent_share(2400)
    with pytest.raises(AssertionError, match="663"):
        run_check(L9, "check:better-move-takes-over", share=share[1:] + share[-1:])


def first_at(part: int, gap: Fraction = Fraction(2, 15)) -> int:
    """The first n at which Auer et al.'s bound, 8 ln n / gap^2 + 1 + pi^2/3, is at most n / part: by bisection over
    [1000, 10^6], where n / part - the bound only grows (its slope 1/part - 8 / (gap^2 n) is positive there)."""
    def holds(n: int) -> bool:
        return 8 * math.log(n) / float(gap) ** 2 + 1 + math.pi**2 / 3 <= n / part

    low, high = 1000, 10**6
    assert not holds(low) and holds(high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if holds(middle) else (middle, high)
    return high


def auer_inputs(**changes: Any) -> dict[str, Any]:
    # 663: when move 1 first keeps two thirds, by this file's own UCT (test_takeover_check_passes_on_an_independent_uct).
    return {"gap": 4 / 15 - 2 / 15, "half_from": first_at(2), "third_from": first_at(3), "two_thirds_from": 663, **changes}


def test_auer_check_passes_on_the_bound_solved_by_bisection() -> None:
    assert (first_at(2), first_at(3)) == (8110, 12778)
    run_check(L9, "check:auer-bound", **auer_inputs())


@pytest.mark.parametrize("changes, claim", [
    ({"half_from": 8111}, "first fall to n/2"), ({"third_from": 12777}, "first fall to n/3"),
    ({"gap": 1 / 15, "half_from": first_at(2, Fraction(1, 15)), "third_from": first_at(3, Fraction(1, 15))}, "2/15 apart"),
    ({"two_thirds_from": 1000}, "nearly twenty times")],
    ids=["half one late", "a third one early", "moves 1/15 apart", "two thirds at 1,000"])
def test_auer_check_fails_on_a_shifted_input(changes: dict[str, Any], claim: str) -> None:
    with pytest.raises(AssertionError, match=claim):
        run_check(L9, "check:auer-bound", **auer_inputs(**changes))


# Lesson 9: the match files --------------------------------------------------------------------------------------


@cache
def match_records() -> dict[tuple[int, int], list[GameRecord]]:
    files = data_file("tournaments")
    return {(rule, seconds): read_records(str(files / f"alphabeta_vs_mcts_rule{rule}{'_5s' if seconds == 5 else ''}.jsonl"))
            for seconds in (1, 5) for rule in (8, 4)}


def test_file_order_check_passes_on_the_files() -> None:
    run_check(L9, "check:file-order", records=match_records())


def test_file_order_check_fails_if_rule_4s_5_s_games_had_ended_in_order() -> None:
    records = {**match_records(), (4, 5): sorted(match_records()[4, 5], key=lambda game: game.index)}
    with pytest.raises(AssertionError, match="game 4 should be the first"):
        run_check(L9, "check:file-order", records=records)


def test_file_order_check_fails_if_games_3_and_4_had_ended_in_order() -> None:
    games = sorted(match_records()[4, 5][:5], key=lambda game: game.index) + list(match_records()[4, 5][5:])
    with pytest.raises(AssertionError, match="game 4 should be the first"):
        run_check(L9, "check:file-order", records={**match_records(), (4, 5): games})


def test_file_order_check_fails_if_two_of_rule_8s_5_s_games_had_ended_out_of_order() -> None:
    games = list(match_records()[8, 5])
    games[5], games[6] = games[6], games[5]
    with pytest.raises(AssertionError, match="in the order"):
        run_check(L9, "check:file-order", records={**match_records(), (8, 5): games})


def test_four_intervals_check_passes_on_the_files() -> None:
    run_check(L9, "check:four-intervals", records=match_records())


def test_four_intervals_check_fails_if_alpha_beta_had_won_two_more_games_under_rule_8_at_1_s() -> None:
    # 28.5 points of 40: Wilson's 98.75% interval [0.515, 0.853] lies above 0.5, so the verdict would survive.
    games, turned = [], 0
    for game in match_records()[8, 1]:
        lost = game.result == ("O" if game.x != "mcts" else "X")
        if lost and turned < 2:
            game, turned = dataclasses.replace(game, result="X" if game.x != "mcts" else "O"), turned + 1
        games.append(game)
    with pytest.raises(AssertionError, match="only rule 4 at 5 s"):
        run_check(L9, "check:four-intervals", records={**match_records(), (8, 1): games})


def test_speed_by_game_check_passes_on_the_files() -> None:
    run_check(L9, "check:speed-by-game", records=match_records())


def scaled_nodes(game: GameRecord, factor: float) -> GameRecord:
    return dataclasses.replace(game, nodes=tuple(None if n is None else round(n * factor) for n in game.nodes))


def test_speed_by_game_check_fails_if_rule_4s_first_5_s_games_had_run_at_half_speed() -> None:
    games = [scaled_nodes(game, 0.5) if game.index < 3 else game for game in match_records()[4, 5]]
    with pytest.raises(AssertionError, match="games 0-2"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (4, 5): games})


def test_speed_by_game_check_fails_if_the_bots_speeds_did_not_move_together() -> None:
    # Alpha-beta's moves of rule 8's 1 s games given in the reverse order of the games: its fast games meet MCTS's slow.
    games = list(match_records()[8, 1])
    ab_nodes = [[n for ply, n in enumerate(g.nodes) if (g.x if ply % 2 == 0 else g.o) != "mcts"] for g in games][::-1]
    mixed = []
    for game, theirs in zip(games, ab_nodes):
        nodes, mine = list(game.nodes), iter(theirs)
        for ply in range(len(nodes)):
            if (game.x if ply % 2 == 0 else game.o) != "mcts":
                nodes[ply] = next(mine)
        mixed.append(dataclasses.replace(game, nodes=tuple(nodes)))
    with pytest.raises(AssertionError, match="rise and fall together"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 1): mixed})


def test_speed_by_game_check_fails_if_a_file_had_run_at_one_speed() -> None:
    even = [dataclasses.replace(game, nodes=tuple(None if n is None else round(9000 * s) for n, s in zip(game.nodes, game.seconds)))
            for game in match_records()[8, 1]]
    with pytest.raises(AssertionError, match="twice as fast"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 1): even})


def mcts_speed(game: GameRecord) -> float:
    """The MCTS bot's median nodes a second over its moves in ``game``."""
    return float(np.median([n / s for ply, (n, s) in enumerate(zip(game.nodes, game.seconds))
                            if (game.x if ply % 2 == 0 else game.o) == "mcts" and s > 0]))


def test_the_rank_tests_of_the_5_s_files_by_scipy() -> None:
    # Lesson 9 prints Mann-Whitney's U and its exact p, counted by the lesson: scipy's exact test gives the same.
    from scipy.stats import mannwhitneyu  # type: ignore[import-untyped]  # scipy ships no types; 2 s to import cold

    for key, beside, u, p in (((4, 5), range(3, 40), 3, 0.0014), ((8, 5), range(20, 40), 158, 0.2648)):
        speeds = {game.index: mcts_speed(game) for game in match_records()[key]}
        found = mannwhitneyu([speeds[g] for g in beside], [v for g, v in speeds.items() if g not in beside], method="exact")
        assert (found.statistic, round(found.pvalue, 4)) == (u, p)


def test_speed_by_game_check_fails_if_rule_8s_games_beside_the_rule_4_match_had_run_slower() -> None:
    games = [scaled_nodes(game, 0.6) if game.index >= 20 else game for game in match_records()[8, 5]]
    with pytest.raises(AssertionError, match="rule 8, 5 s: games 20-39"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 5): games})


def renumbered(games: Sequence[GameRecord], numbers: dict[int, int]) -> list[GameRecord]:
    """The games with their numbers changed by ``numbers`` (the others kept), in the order of the new numbers."""
    return sorted((dataclasses.replace(game, index=numbers.get(game.index, game.index)) for game in games),
                  key=lambda game: game.index)


def test_speed_by_game_check_fails_if_rule_8s_5_s_speed_had_not_dropped_at_game_20() -> None:
    # Games 0-9 and 10-19 exchanged: the first half keeps its games (the group test is the same), but games 10-19 are
    # now the slow ones, and nothing drops at game 20.
    games = renumbered(match_records()[8, 5], {g: (g + 10) % 20 for g in range(20)})
    with pytest.raises(AssertionError, match="every one of games 10-19"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 5): games})


def test_speed_by_game_check_fails_if_rule_8s_5_s_speed_had_not_risen_at_game_10() -> None:
    # Game 9 two fifths faster: the rise from it to game 10 is then smaller than the drop at game 20.
    games = [scaled_nodes(game, 1.4) if game.index == 9 else game for game in match_records()[8, 5]]
    with pytest.raises(AssertionError, match="the rise from game 9 to game 10"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 5): games})


def test_speed_by_game_check_fails_if_game_27_had_run_at_game_22s_speed() -> None:
    # Games 22 and 27 exchanged: games 27-31 no longer all faster than games 22-26.
    games = renumbered(match_records()[8, 5], {22: 27, 27: 22})
    with pytest.raises(AssertionError, match="at games 10, 27 and 28"):
        run_check(L9, "check:speed-by-game", records={**match_records(), (8, 5): games})


def test_the_jumps_of_rule_8s_5_s_file_by_scipy() -> None:
    # The lesson's U and p for games 20-29 against 10-19, and for five games against the five before them, by scipy.
    from scipy.stats import mannwhitneyu

    for bot in ("mcts", "alphabeta:evaluation=weighted"):
        speeds = {game.index: float(np.median([n / s for ply, (n, s) in enumerate(zip(game.nodes, game.seconds))
                                               if (game.x if ply % 2 == 0 else game.o) == bot and s > 0]))
                  for game in match_records()[8, 5]}
        found = mannwhitneyu([speeds[g] for g in range(20, 30)], [speeds[g] for g in range(10, 20)], method="exact")
        assert found.statistic == 0 and math.isclose(found.pvalue, 2 / math.comb(20, 10))
        extreme = {g for g in range(5, 36) if mannwhitneyu([speeds[h] for h in range(g, g + 5)],
                                                           [speeds[h] for h in range(g - 5, g)],
                                                           method="exact").pvalue < 0.008}
        assert extreme == ({10, 20, 27, 28, 30} if bot == "mcts" else {10, 20, 27, 28})


def test_time_and_load_check_fails_if_rule_8s_1_s_moves_had_taken_a_tenth_less_time() -> None:
    shorter = [dataclasses.replace(game, seconds=tuple(0.9 * s for s in game.seconds)) for game in match_records()[8, 1]]
    with pytest.raises(AssertionError, match="95% of its time"):
        run_check(L9, "check:time-and-load", records={**match_records(), (8, 1): shorter})


def test_time_and_load_check_passes_on_the_files() -> None:
    run_check(L9, "check:time-and-load", records=match_records())


def test_time_and_load_check_fails_if_rule_8s_1_s_file_had_run_as_fast_as_the_others() -> None:
    faster = [dataclasses.replace(game, nodes=tuple(round(n * 1.6) for n in game.nodes)) for game in match_records()[8, 1]]
    with pytest.raises(AssertionError, match="slower"):
        run_check(L9, "check:time-and-load", records={**match_records(), (8, 1): faster})


def points(games: Sequence[GameRecord]) -> list[tuple[str, float]]:
    """(alpha-beta's colour, its points) in each game, read from who played X."""
    return [("X" if game.x != "mcts" else "O",
             0.5 if game.result == "draw" else float((game.result == "X") == (game.x != "mcts"))) for game in games]


def shuffled_p(first: Sequence[GameRecord], second: Sequence[GameRecord], within_colour: bool = True,
               shuffles: int = 9999) -> float:
    """Two-sided permutation p of the difference of alpha-beta's mean points, by numpy's shuffles: the labels
    shuffled within colour, or (``within_colour=False``) across all games."""
    rng, one, two = np.random.default_rng(1), points(first), points(second)
    sums = np.zeros(shuffles)
    for colour in ("XO" if within_colour else "*"):
        pooled = np.array([p for c, p in one + two if colour in ("*", c)])
        size = sum(colour in ("*", c) for c, _ in one)
        sums += rng.permuted(np.tile(pooled, (shuffles, 1)), axis=1)[:, :size].sum(axis=1)
    total, first_sum = sum(p for _, p in one + two), sum(p for _, p in one)
    gaps = np.abs(sums / len(one) - (total - sums) / len(two))
    observed = abs(first_sum / len(one) - (total - first_sum) / len(two))
    return (int(np.sum(gaps >= observed - 1e-12)) + 1) / (shuffles + 1)


def rule_ps(records: dict[tuple[int, int], list[GameRecord]], within_colour: bool = True) -> dict[int, float]:
    return {seconds: shuffled_p(records[8, seconds], records[4, seconds], within_colour) for seconds in (1, 5)}


def test_permutation_check_passes_on_numpys_shuffles_within_colour() -> None:
    records = match_records()
    drop = {rule: shuffled_p(records[rule, 1], records[rule, 5]) for rule in (8, 4)}
    run_check(L9, "check:colour-stratified-test", records=records, drop=drop, rule_p=rule_ps(records))


def test_permutation_check_fails_on_shuffles_that_ignore_colour() -> None:
    records = match_records()
    drop = {rule: shuffled_p(records[rule, 1], records[rule, 5], within_colour=False) for rule in (8, 4)}
    with pytest.raises(AssertionError, match="within 0.01"):
        run_check(L9, "check:colour-stratified-test", records=records, drop=drop, rule_p=rule_ps(records, False))


def test_permutation_check_fails_if_rule_4s_5_s_file_had_gone_like_its_1_s_file() -> None:
    records = {**match_records(), (4, 5): [dataclasses.replace(game, result=one.result)
                                           for game, one in zip(match_records()[4, 5], match_records()[4, 1])]}
    drop = {rule: shuffled_p(records[rule, 1], records[rule, 5]) for rule in (8, 4)}
    with pytest.raises(AssertionError, match="within chance"):
        run_check(L9, "check:colour-stratified-test", records=records, drop=drop, rule_p=rule_ps(records))


def test_time_and_load_check_fails_if_rule_4s_5_s_file_had_run_as_fast_as_the_fast_files() -> None:
    # "Two files ran slow and two fast": rule 4's 5 s file half as fast again is no longer slow beside the others.
    faster = [dataclasses.replace(game, nodes=tuple(round(n * 1.5) for n in game.nodes)) for game in match_records()[4, 5]]
    with pytest.raises(AssertionError, match="slower"):
        run_check(L9, "check:time-and-load", records={**match_records(), (4, 5): faster})


# Lesson 9: the colour-aware test --------------------------------------------------------------------------------


def colour_aware(games: Sequence[GameRecord], one_sided: bool = False) -> tuple[float, float, float]:
    """(alpha-beta's points a game as X, MCTS's, p): does X's result depend on which bot held X? Exact, by enumerating
    how many of X's wins, draws and losses go to alpha-beta's side through a polynomial product (numpy), two-sided, or
    ``one_sided`` (alpha-beta's mean at least as high as the file's)."""
    held = [game.x != "mcts" for game in games]
    doubled = [{"X": 2, "draw": 1, "O": 0}[game.result] for game in games]
    size, count = sum(held), len(games)
    # poly[k, s]: the ways to choose k games whose X results, doubled, add up to s
    poly = np.zeros((size + 1, 2 * count + 1), dtype=object)
    poly[0, 0] = 1
    for points in doubled:
        shifted = np.zeros_like(poly)
        shifted[1:, points:] = poly[:-1, :2 * count + 1 - points]
        poly = poly + shifted
    mine, total = sum(d for d, h in zip(doubled, held) if h), sum(doubled)
    means = [Fraction(s, size) - Fraction(total - s, count - size) for s in range(2 * count + 1)]
    far = [s for s in range(2 * count + 1)
           if (means[s] >= means[mine] if one_sided else abs(means[s]) >= abs(means[mine]))]
    p = Fraction(int(sum(poly[size, s] for s in far)), math.comb(count, size))
    return mine / (2 * size), (total - mine) / (2 * (count - size)), float(p)


def x_tests(records: dict[tuple[int, int], list[GameRecord]], one_sided: bool = False) -> dict[tuple[int, int], Any]:
    return {key: colour_aware(games, one_sided) for key, games in records.items()}


def test_colour_aware_check_passes_on_numpys_count() -> None:
    found = x_tests(match_records())
    # The reviewer's exact test (issue 31): 0.0083, 0.47, 0.23 and 3.3e-6 (rule 8 1 s, rule 4 1 s, rule 8 5 s, rule 4 5 s).
    assert {key: float(f"{p:.2g}") for key, (_, _, p) in found.items()} == {
        (8, 1): 0.0083, (4, 1): 0.47, (8, 5): 0.23, (4, 5): 3.3e-6}
    run_check(L9, "check:colour-aware-test", records=match_records(), x_tests=found)


def test_colour_aware_check_fails_on_a_one_sided_p() -> None:
    with pytest.raises(AssertionError, match="as counted over the games"):
        run_check(L9, "check:colour-aware-test", records=match_records(), x_tests=x_tests(match_records(), True))


def test_colour_aware_check_fails_if_alpha_beta_had_lost_one_of_its_wins_as_x_under_rule_8_at_1_s() -> None:
    # One win as X turned into a loss: p = 0.020, no longer below 0.0125.
    games, turned = [], False
    for game in match_records()[8, 1]:
        if not turned and game.x != "mcts" and game.result == "X":
            game, turned = dataclasses.replace(game, result="O"), True
        games.append(game)
    records = {**match_records(), (8, 1): games}
    assert round(x_tests(records)[8, 1][2], 3) == 0.020
    with pytest.raises(AssertionError, match="should say 'alpha-beta'"):
        run_check(L9, "check:colour-aware-test", records=records, x_tests=x_tests(records))


def test_colour_aware_check_fails_if_the_bots_had_swapped_colours_under_rule_8_at_1_s() -> None:
    swapped = [dataclasses.replace(game, x=game.o, o=game.x) for game in match_records()[8, 1]]
    records = {**match_records(), (8, 1): swapped}
    with pytest.raises(AssertionError, match="should say 'alpha-beta'"):
        run_check(L9, "check:colour-aware-test", records=records, x_tests=x_tests(records))


# Lesson 9: the eight tests as one family; alpha-beta's time near the end ------------------------------------------


def exact_within_colour(first: Sequence[GameRecord], second: Sequence[GameRecord]) -> float:
    """Two-sided exact p of the difference of alpha-beta's mean points, the labels shuffled within colour: in each
    colour, how many ways each total of the first label's points can arise, combined over the colours (exact)."""
    one, two = points(first), points(second)
    chances: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for colour in "XO":
        pooled = [Fraction(p) for c, p in one + two if c == colour]
        size = sum(c == colour for c, _ in one)
        ways: list[Counter[Fraction]] = [Counter({Fraction(0): 1})] + [Counter() for _ in range(size)]
        for value in pooled:
            for k in range(size, 0, -1):
                for total, n in list(ways[k - 1].items()):
                    ways[k][total + value] += n
        combined: dict[Fraction, Fraction] = {}
        for total, chance in chances.items():
            for more, n in ways[size].items():
                combined[total + more] = combined.get(total + more, Fraction(0)) + chance * Fraction(
                    n, math.comb(len(pooled), size))
        chances = combined
    everything, mine = sum((Fraction(p) for _, p in one + two), Fraction(0)), sum((Fraction(p) for _, p in one), Fraction(0))

    def gap(total: Fraction) -> Fraction:
        return abs(total / len(one) - (everything - total) / len(two))

    return float(sum((chance for total, chance in chances.items() if gap(total) >= gap(mine)), Fraction(0)))


def family_inputs(records: dict[tuple[int, int], list[GameRecord]], exact: bool = False) -> dict[str, Any]:
    """The eight p-values as lesson 9 names them: the colour-aware tests (numpy's count), the tests within colour
    (numpy's shuffles, or counted exactly)."""
    test = exact_within_colour if exact else shuffled_p
    return {"x_tests": x_tests(records), "drop": {rule: test(records[rule, 1], records[rule, 5]) for rule in (8, 4)},
            "rule_p": {seconds: test(records[8, seconds], records[4, seconds]) for seconds in (1, 5)}}


def test_eight_tests_check_passes_on_numpys_counts_and_shuffles() -> None:
    run_check(L9, "check:eight-tests", **family_inputs(match_records()))


def test_eight_tests_check_passes_on_the_tests_within_colour_counted_exactly() -> None:
    inputs = family_inputs(match_records(), exact=True)
    # The reviewer's exact values (issue 31): 0.176, 0.0297, 0.0222 and 3.9e-7.
    assert [float(f"{p:.3g}") for p in (*inputs["drop"].values(), *inputs["rule_p"].values())] == [
        0.176, 0.0297, 0.0222, 3.85e-7]
    run_check(L9, "check:eight-tests", **inputs)


def test_eight_tests_check_fails_if_alpha_beta_had_lost_one_of_its_wins_as_x_under_rule_8_at_1_s() -> None:
    games, turned = [], False
    for game in match_records()[8, 1]:
        if not turned and game.x != "mcts" and game.result == "X":
            game, turned = dataclasses.replace(game, result="O"), True
        games.append(game)
    with pytest.raises(AssertionError, match="third smallest"):
        run_check(L9, "check:eight-tests", **family_inputs({**match_records(), (8, 1): games}))


def test_eight_tests_check_fails_if_rule_8s_p_at_1_s_had_passed_bonferronis_limit() -> None:
    inputs = family_inputs(match_records())
    mine, theirs, _ = inputs["x_tests"][8, 1]
    inputs["x_tests"] = {**inputs["x_tests"], (8, 1): (mine, theirs, 0.006)}
    with pytest.raises(AssertionError, match="above Bonferroni's"):
        run_check(L9, "check:eight-tests", **inputs)


def test_eight_tests_check_fails_if_holm_had_kept_a_fourth_verdict() -> None:
    # The rules' difference at 1 s at p = 0.009: fourth smallest, below Holm's 0.05/5 = 0.01.
    inputs = family_inputs(match_records())
    inputs["rule_p"] = {**inputs["rule_p"], 1: 0.009}
    with pytest.raises(AssertionError, match="Holm those"):
        run_check(L9, "check:eight-tests", **inputs)


def alpha_beta_moves_changed(games: Sequence[GameRecord], change: Callable[[int, int, float, float], tuple[int, float]]
                             ) -> list[GameRecord]:
    """Each alpha-beta move's (depth, seconds) replaced by ``change(depth, plies left, seconds, limit)``."""
    changed = []
    for game in games:
        depths, seconds = list(game.depths), list(game.seconds)
        for ply in range(len(game.moves)):
            depth = depths[ply]
            if (game.x if ply % 2 == 0 else game.o) != "mcts" and depth is not None:
                depths[ply], seconds[ply] = change(depth, len(game.moves) - ply, seconds[ply], game.time_limit)
        changed.append(dataclasses.replace(game, depths=tuple(depths), seconds=tuple(seconds)))
    return changed


def test_endgame_check_passes_on_the_files() -> None:
    run_check(L9, "check:endgame-time", records=match_records())


def test_endgame_check_fails_if_the_searches_to_the_end_had_taken_the_whole_limit() -> None:
    games = alpha_beta_moves_changed(match_records()[8, 1], lambda d, left, s, limit: (d, limit if d >= left else s))
    with pytest.raises(AssertionError, match="in plies 40 to 55"):
        run_check(L9, "check:endgame-time", records={**match_records(), (8, 1): games})


def test_endgame_check_fails_if_no_search_had_reached_the_end() -> None:
    games = alpha_beta_moves_changed(match_records()[4, 5], lambda d, left, s, limit: (min(d, left - 1), s))
    with pytest.raises(AssertionError, match="in plies 40 to 55"):
        run_check(L9, "check:endgame-time", records={**match_records(), (4, 5): games})


def test_endgame_check_fails_if_the_moves_before_ply_40_had_taken_a_tenth_less_time() -> None:
    # Plies 0-39 (more than 16 plies left) a tenth shorter: plies 40-55 as they were, the moves not searched to the end
    # shorter.
    games = alpha_beta_moves_changed(match_records()[8, 5], lambda d, left, s, limit: (d, 0.9 * s if left > 16 else s))
    with pytest.raises(AssertionError, match="not searched to the end"):
        run_check(L9, "check:endgame-time", records={**match_records(), (8, 5): games})


# Lesson 9: one node an iteration; every search settles ---------------------------------------------------------


@cache
def bot_trees() -> dict[str, tuple[int, int]]:
    """As lesson 9 runs it: the MCTS bot with 300 iterations, from the opening and three plies before the end."""
    board = AdjacencyGame()
    near_end = board.root
    for _ in range(board.root.plies_left - 3):
        near_end = board.result(near_end, board.legal_moves(near_end)[0])
    return {name: (300, MctsBot(seed=0, iterations=300).choose(board, state, 1.0).nodes)
            for name, state in (("opening", board.root), ("three plies left", near_end))}


def test_one_node_check_passes_on_the_bots_trees() -> None:
    run_check(L9, "check:one-node-an-iteration", bot_trees=bot_trees())


def test_one_node_check_fails_on_a_bot_that_adds_two_nodes_an_iteration() -> None:
    trees = {name: (games, 2 * nodes - 1) for name, (games, nodes) in bot_trees().items()}
    with pytest.raises(AssertionError, match="one node"):
        run_check(L9, "check:one-node-an-iteration", bot_trees=trees)


def test_one_node_check_fails_on_a_tree_that_does_not_stop_at_the_end() -> None:
    trees = {**bot_trees(), "three plies left": (300, 31)}
    with pytest.raises(AssertionError, match="16 positions"):
        run_check(L9, "check:one-node-an-iteration", bot_trees=trees)


def test_settle_check_passes_on_an_independent_uct() -> None:
    # The lesson's 27 and 608 come from gamelib's mcts; here every search is run by own_uct_choices (below), and the
    # first iteration from which the root's choice is minimax's best to the end counted here.
    settled: list[int | None] = []
    for tree, best in small_trees():
        for seed in range(3):
            chosen = own_uct_choices(tree, 1000, DEFAULT_C, seed)
            wrong = [iteration for iteration, move in enumerate(chosen, start=1) if move != best]
            settled.append(None if wrong and wrong[-1] == len(chosen) else (wrong[-1] + 1 if wrong else 1))
    run_check(L9, "check:every-search-settles", settled=settled)


def test_settle_check_agrees_with_gamelibs_replay_on_one_search() -> None:
    # The lesson counts with gamelib's settled_at over the trace; on the first tree and seed it agrees with this file's.
    tree, best = small_trees()[0]
    tracer = RecordingTracer()
    mcts(tree, iterations=200, c=DEFAULT_C, seed=0, tracer=tracer)
    traced = root_choices(tracer.events, tree.to_move(tree.root))
    assert traced == own_uct_choices(tree, 200, DEFAULT_C, 0)
    wrong = [iteration for iteration, move in enumerate(traced, start=1) if move != best]
    assert settled_at(traced, best) == (wrong[-1] + 1 if wrong else 1)


@pytest.mark.parametrize("settled", [[27] * 35 + [608] * 33 + [None], [27] * 35 + [607] * 34, [28] * 35 + [608] * 34],
                         ids=["one search unsettled", "the slowest one iteration early", "the median one late"])
def test_settle_check_fails_on_a_shifted_count(settled: list[int | None]) -> None:
    with pytest.raises(AssertionError, match="settle"):
        run_check(L9, "check:every-search-settles", settled=settled)


def own_uct_choices(tree: GameTree, iterations: int, c: float, seed: int) -> list[str]:
    """The root's most visited move after each iteration, by a UCT of this file's own: UCB1 from the chooser's side
    (MIN's wins n - W), the first of equal scores; the first untried child expanded; rollouts drawing each move with
    random.Random(seed).choice among the children, as gamelib's random_playout does; rewards scaled from the tree's
    lowest leaf to its highest."""
    leaves = [value for node, value in tree.values.items() if not tree.children_of(node)]
    low, high = min(leaves), max(leaves)
    rng, chosen, root_visits = random.Random(seed), [], Counter[str]()
    visits, wins, tried = {tree.root: 0}, {tree.root: 0.0}, {tree.root: 0}
    for _ in range(iterations):
        node, path = tree.root, [tree.root]
        while tree.children_of(node) and tried[node] == len(tree.children_of(node)):
            parent, mine = node, tree.to_move(node) is Player.MAX

            def score(kid: str, parent: str = parent, mine: bool = mine) -> float:
                mean = wins[kid] / visits[kid]
                return (mean if mine else 1 - mean) + c * math.sqrt(math.log(visits[parent]) / visits[kid])

            node = max(tree.children_of(node), key=score)
            path.append(node)
        if tree.children_of(node):
            kid = tree.children_of(node)[tried[node]]
            tried[node] += 1
            visits[kid], wins[kid], tried[kid] = 0, 0.0, 0
            node = kid
            path.append(kid)
        while tree.children_of(node):
            node = rng.choice(tree.children_of(node))
        reward = (tree.values[node] - low) / (high - low)
        for visited in path:
            visits[visited] += 1
            wins[visited] += reward
        root_visits[path[1]] += 1
        sign = tree.to_move(tree.root).sign
        chosen.append(max(root_visits, key=lambda move: (root_visits[move], sign * wins[move] / visits[move])))
    return chosen


@cache
def small_trees() -> tuple[tuple[GameTree, str], ...]:
    """Lesson 9's 23 small random trees with one best root move, each with that move."""
    trees = []
    for shape in ((2, 4), (3, 3)):
        for seed in range(12):
            tree = random_tree(*shape, seed=seed)
            sign = tree.to_move(tree.root).sign
            values = sorted((sign * minimax(tree, kid).value for kid in tree.children_of(tree.root)), reverse=True)
            if len(values) == 1 or values[0] > values[1]:
                trees.append((tree, minimax(tree).move))
    return tuple(trees)


@pytest.mark.slow  # 276 searches of 600 iterations in pure Python: a few seconds
def test_the_exploration_constants_table_by_an_independent_uct() -> None:
    # Lesson 9 asserts, after 600 iterations: c = 0 right in 41 of 69 searches (as after 200), 0.5 in 68, sqrt(2) in 69,
    # 3 in 62. Here they are counted by this file's own UCT on the same trees and seeds.
    right = {}
    for c in (0.0, 0.5, DEFAULT_C, 3.0):
        runs = [[move == best for move in own_uct_choices(tree, 600, c, seed)]
                for tree, best in small_trees() for seed in range(3)]
        right[c] = (sum(run[199] for run in runs), sum(run[599] for run in runs))
    assert right == {0.0: (41, 41), 0.5: (65, 68), DEFAULT_C: (65, 69), 3.0: (57, 62)}
