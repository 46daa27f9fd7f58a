"""Lessons 7 and 10 check their claims in cells tagged ``check:<name>``; each test here runs one such
cell on the lesson's own data (it passes) and on a broken input (it must fail), so that every check
could fail if its claim were false. RETRACTED keeps the old wording of the sentences these checks
replaced out of the lessons (issue 31)."""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import combinations
from types import SimpleNamespace
from typing import Any

import pytest
from scipy.stats import binomtest  # type: ignore[import-untyped]

from gamelib.games.data import DATA_DIR, read_json
from gamelib.play.arena import run_match
from gamelib.play.match_stats import MatchSummary, wilson_interval
from gamelib.play.ratings import fit_ratings
from gamelib.play.records import GameRecord, read_records
from gamelib.play.standings import Standing, standings
from tests.lesson_cells import python_of, run_check, setup_namespace, tagged_cell
from tests.test_lesson_claims import cells

L7 = "07_tournament.ipynb"
L10 = "10_class_tournament.ipynb"

RETRACTED = [
    (L7, "for every move: it grows as the board fills",
     "the mean depth peaks near 10 at ply 45-46, then falls to 1 as the kept table answers the root at once"),
    (L10, "the interval says how sure the ranking is",
     "the standings' intervals are per entry; the order rests on differences, with intervals of their own"),
    (L10, "keeps it out of the ratings",
     "swapping colours removes the colour as a bias between entries, not its effect on each game"),
    (L10, "in the Adjacency game the last move is worth a lot",
     "676 of 700 is rule 8, 28 rounds, versions of one bot; under rule 4 O won 19 of lesson 9's 40 games"),
]


@pytest.mark.parametrize("name, phrase, why", RETRACTED, ids=[phrase[:40] for _, phrase, _ in RETRACTED])
def test_a_retracted_statement_stays_out(name: str, phrase: str, why: str) -> None:
    said = [cell["text"] for cell in cells(name) if phrase in cell["text"]]
    assert not said, f"{name} says again {phrase!r}, which its data does not support ({why})"


# ---- Lesson 7 ---------------------------------------------------------------------------------------

def exact_interval(wins: int, games: int, confidence: float = 0.95) -> Any:
    return binomtest(wins, games).proportion_ci(confidence_level=confidence, method="exact")


def n_of_n_inputs() -> dict[str, Any]:
    return {"three": exact_interval(3, 3), "forty": exact_interval(40, 40),
            "three_wilson": wilson_interval(3, 3), "forty_wilson": wilson_interval(40, 40)}


def test_n_of_n_intervals_hold_for_the_real_intervals() -> None:
    run_check(L7, "check:n-of-n-intervals", **n_of_n_inputs())


@pytest.mark.parametrize("broken, match", [
    ({"three_wilson": (1.0, 1.0)}, "Wilson"),  # the Student's t interval that collapses at 3 of 3
    ({"three": exact_interval(3, 3, confidence=0.90)}, "Clopper-Pearson"),  # a 90% interval
    ({"forty_wilson": (40 / (40 + 1.645**2), 1.0)}, "Wilson"),  # Wilson's formula at 90%
])
def test_n_of_n_intervals_fail_on_a_wrong_interval(broken: dict[str, Any], match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        run_check(L7, "check:n-of-n-intervals", **(n_of_n_inputs() | broken))


@cache
def alphabeta_moves() -> tuple[tuple[int, int, int, int], ...]:
    """(rule, ply, depth, nodes) of the alpha-beta bot's moves in lesson 7's matches, read here (the
    bot records a depth for every move it makes)."""
    spec = "alphabeta:evaluation=weighted"
    return tuple((rule, ply, game.depths[ply] or 0, game.nodes[ply])
                 for rule in (8, 4) for other in ("hillclimb", "genetic")
                 for game in read_records(DATA_DIR / "tournaments" / f"alphabeta_vs_{other}_rule{rule}.jsonl")
                 for ply in range(0 if game.x == spec else 1, len(game.moves), 2))


def test_depth_by_ply_holds_for_the_records() -> None:
    run_check(L7, "check:depth-by-ply", alphabeta_moves=list(alphabeta_moves()))


Move = tuple[int, int, int, int]


def _changed(moves: list[Move], rule: int, ply: int, depth: int, nodes: int | None = None) -> list[Move]:
    """``moves`` with the first move at (``rule``, ``ply``) given ``depth`` (and ``nodes``)."""
    k = next(k for k, move in enumerate(moves) if move[:2] == (rule, ply))
    return moves[:k] + [(rule, ply, depth, moves[k][3] if nodes is None else nodes)] + moves[k + 1:]


@pytest.mark.parametrize("perturb, match", [
    (lambda moves: _changed(moves, 8, 50, 2, 500), "table's answer"),  # a shallow search after ply 47, 500 nodes
    (lambda moves: _changed(moves, 4, 30, 26), "before ply 45"),  # one search to the end of the game at ply 30
    (lambda moves: [(r, p, d + 3, n) for r, p, d, n in moves], "grow from under 5"),  # every depth 3 deeper
])
def test_depth_by_ply_fails_on_perturbed_records(perturb: Callable[[list[Move]], list[Move]], match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        run_check(L7, "check:depth-by-ply", alphabeta_moves=perturb(list(alphabeta_moves())))


def quick_match(rounds: int) -> MatchSummary:
    """A match of 4 games as the lesson's quick one, between random bots (fast), of ``rounds`` rounds."""
    with ThreadPoolExecutor(1) as pool:
        return run_match("random", "random", 4, rounds=rounds, seconds=0.05, executor=pool, progress=False)


def test_quick_match_holds_for_four_games_of_four_rounds() -> None:
    run_check(L7, "check:quick-match", mine=quick_match(4))


def test_quick_match_fails_on_short_games_or_a_lost_game() -> None:
    with pytest.raises(AssertionError, match="16 moves"):
        run_check(L7, "check:quick-match", mine=quick_match(3))
    four = quick_match(4)
    with pytest.raises(AssertionError, match="4 games"):
        run_check(L7, "check:quick-match", mine=dataclasses.replace(four, a=dataclasses.replace(four.a, wins=four.a.wins + 1)))


# ---- Lesson 10 --------------------------------------------------------------------------------------

NAMES = ("alphabeta", "hillclimb", "greedy", "slow", "crashy")  # the manifest's order
FAULTS = {"slow": "timeout", "crashy": "crash"}
PLAYED = {("alphabeta", "hillclimb"): ("draw", "O"), ("alphabeta", "greedy"): ("O", "O"),
          ("hillclimb", "greedy"): ("O", "draw")}
"""The games between the working entries in a run of lesson 10 (2 games a pairing, colours swapped);
the games with a faulty entry are decided by the faults, the same in every run."""


def tournament(played: dict[tuple[str, str], tuple[str, str]] = PLAYED, repeat: int = 1) -> SimpleNamespace:
    """Lesson 10's round robin as records and standings, its played games' results ``played``, all
    games ``repeat`` times over."""
    records: list[SimpleNamespace] = []
    for a, b in combinations(NAMES, 2):
        for game, (x, o) in enumerate(((a, b), (b, a))):
            faulty = [side for side, name in (("X", x), ("O", o)) if name in FAULTS]
            if faulty:  # the first faulty entry to move loses: X if both are faulty
                loser = faulty[0]
                result, reason = ("O" if loser == "X" else "X"), FAULTS[x if loser == "X" else o]
            else:
                result, reason, loser = played[a, b][game], "played", None
            records.append(SimpleNamespace(index=len(records), x=x, o=o, result=result, reason=reason, forfeit=loser,
                                           seconds=(0.1, 0.1)))
    records *= repeat
    entries = [SimpleNamespace(name=name, team="") for name in NAMES]
    return SimpleNamespace(records=tuple(records), table=tuple(standings(entries, records)))


def results_of(run: SimpleNamespace) -> list[tuple[int, int, float]]:
    return [(NAMES.index(r.x), NAMES.index(r.o), 1.0 if r.result == "X" else 0.5 if r.result == "draw" else 0.0)
            for r in run.records]


@cache
def helpers() -> dict[str, Any]:
    """The lesson's penalised_fit and difference, defined by its cell tagged helper:penalised-fit."""
    namespace = setup_namespace(L10)
    exec(compile(python_of(tagged_cell(L10, "helper:penalised-fit")), f"{L10}:helper", "exec"), namespace)
    return namespace


def difference_inputs(run: SimpleNamespace, prior_draws: float = 1.0) -> dict[str, Any]:
    fit, difference = helpers()["penalised_fit"], helpers()["difference"]
    results = results_of(run)
    order = ["alphabeta", "hillclimb", "greedy"]
    lopsided_results = [(i, j, float(order.index(NAMES[i]) < order.index(NAMES[j]))
                         if NAMES[i] in order and NAMES[j] in order else s) for i, j, s in results]
    lopsided_fit = fit(lopsided_results, len(NAMES))
    lopsided = {(u, v): difference(lopsided_fit, NAMES.index(u), NAMES.index(v)) for u, v in combinations(order, 2)}
    return {"names": list(NAMES), "result": run, "difference": difference, "lopsided": lopsided,
            "plain": fit(results, len(NAMES), prior_draws=prior_draws)}


def test_difference_intervals_hold_for_a_run() -> None:
    run_check(L10, "check:difference-intervals", **difference_inputs(tournament()))


def test_difference_intervals_fail_on_another_prior_or_more_games() -> None:
    run = tournament()
    with pytest.raises(AssertionError, match="the standings' rating"):  # the fit with twice the prior
        run_check(L10, "check:difference-intervals", **(difference_inputs(run) | {"plain": difference_inputs(run, 2.0)["plain"]}))
    with pytest.raises(AssertionError, match="should not order two working entries"):  # 20 games a pairing
        run_check(L10, "check:difference-intervals", **difference_inputs(tournament(repeat=10)))


def test_difference_intervals_fail_when_a_complete_order_would_separate() -> None:
    inputs = difference_inputs(tournament())
    separated = {pair: (d, d / 2, d * 2) for pair, (d, low, high) in inputs["lopsided"].items()}
    with pytest.raises(AssertionError, match="ordered the working entries completely"):
        run_check(L10, "check:difference-intervals", **(inputs | {"lopsided": separated}))


def colour_inputs(run: SimpleNamespace) -> dict[str, Any]:
    fit = helpers()["penalised_fit"]
    played = [float(record.reason == "played") for record in run.records]
    return {"names": list(NAMES), "difference": helpers()["difference"],
            "plain": fit(results_of(run), len(NAMES)), "coloured": fit(results_of(run), len(NAMES), first_move=played)}


def test_colour_term_holds_for_a_run() -> None:
    run_check(L10, "check:colour-term", **colour_inputs(tournament()))


def test_colour_term_fails_on_swapped_fits_or_more_games() -> None:
    inputs = colour_inputs(tournament())
    with pytest.raises(AssertionError, match="never together"):  # the fits swapped: the term would draw them together
        run_check(L10, "check:colour-term", **(inputs | {"plain": inputs["coloured"], "coloured": inputs["plain"]}))
    every_game_to_o = {pair: ("O", "O") for pair in PLAYED}
    with pytest.raises(AssertionError, match="first move's worth"):  # O wins every game, ten times over
        run_check(L10, "check:colour-term", **colour_inputs(tournament(every_game_to_o, repeat=10)))


def test_shared_rank_holds_for_a_run() -> None:
    run_check(L10, "check:shared-rank", result=tournament())


def test_shared_rank_fails_on_a_split_rank_or_different_results() -> None:
    run = tournament()
    split = tuple(dataclasses.replace(row, rank=5) if row.name == "slow" else row for row in run.table)
    with pytest.raises(AssertionError, match="share one rating and one rank"):  # ordinal ranking: 4 and 5
        run_check(L10, "check:shared-rank", result=SimpleNamespace(records=run.records, table=split))
    records = [copy.copy(record) for record in run.records]
    drawn = next(record for record in records if (record.x, record.o) == ("slow", "crashy"))
    drawn.result, drawn.reason, drawn.forfeit = "draw", "played", None
    entries = [SimpleNamespace(name=name, team="") for name in NAMES]
    with pytest.raises(AssertionError, match="same results"):
        run_check(L10, "check:shared-rank", result=SimpleNamespace(records=tuple(records),
                                                                   table=tuple(standings(entries, records))))


def hand_worked_inputs(points: int = 30, prior_draws: float = 1.0) -> dict[str, Any]:
    """The lesson's case, ``points`` of 40 for a, fitted; ``by_hand`` from the derivative by bisection here."""
    def sigma(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    low, high = 0.0, 5.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if 30 - 40 * sigma(2 * middle) + 0.5 - sigma(middle) > 0 else (low, middle)
    games = [(0, 1, 1.0)] * points + [(0, 1, 0.0)] * (40 - points)
    a, b = fit_ratings(["a", "b"], games, prior_draws=prior_draws)
    return {"a": a, "b": b, "by_hand": 2 * low * 400 / math.log(10),
            "nearly_none": fit_ratings(["a", "b"], [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10, prior_draws=1e-6)}


def test_hand_worked_fit_holds() -> None:
    run_check(L10, "check:hand-worked-fit", **hand_worked_inputs())


def test_hand_worked_fit_fails_on_other_games_or_the_prior_kept() -> None:
    with pytest.raises(AssertionError, match="worked by hand"):  # 31 points of 40, not 30
        run_check(L10, "check:hand-worked-fit", **hand_worked_inputs(points=31))
    inputs = hand_worked_inputs()
    with pytest.raises(AssertionError, match="almost no prior"):  # the fit with the prior, as if without
        run_check(L10, "check:hand-worked-fit", **(inputs | {"nearly_none": [inputs["a"], inputs["b"]]}))


@cache
def colour_data() -> tuple[dict[str, Any], tuple[GameRecord, ...]]:
    return read_json("benchmarks", "strength.json"), tuple(read_records(DATA_DIR / "tournaments" / "alphabeta_vs_mcts_rule4.jsonl"))


def test_colour_figures_hold_for_the_data() -> None:
    strength, mcts = colour_data()
    run_check(L10, "check:colour-figures", strength=strength, mcts_rule4=list(mcts))


def test_colour_figures_fail_on_perturbed_data() -> None:
    strength, mcts = colour_data()
    fewer = copy.deepcopy(strength)
    fewer["matches"][0]["winners"]["O"] -= 1
    with pytest.raises(AssertionError, match="676 of 700"):
        run_check(L10, "check:colour-figures", strength=fewer, mcts_rule4=list(mcts))
    first_o = next(k for k, record in enumerate(mcts) if record.result == "O")
    flipped = [dataclasses.replace(record, result="X") if k == first_o else record for k, record in enumerate(mcts)]
    with pytest.raises(AssertionError, match="19 of 40"):
        run_check(L10, "check:colour-figures", strength=strength, mcts_rule4=flipped)
    rule8 = [dataclasses.replace(record, rule=8) for record in mcts]
    with pytest.raises(AssertionError, match="rule 4"):
        run_check(L10, "check:colour-figures", strength=strength, mcts_rule4=rule8)


def test_the_tournament_here_is_the_lessons_schedule() -> None:
    """The records these tests build have the lesson's schedule (every entry X once and O once against
    every other) and the faulty entries' results as the lesson's own Checks assert them."""
    run = tournament()
    assert sorted((r.x, r.o) for r in run.records) == sorted((x, o) for x in NAMES for o in NAMES if x != o)
    rows: dict[str, Standing] = {row.name: row for row in run.table}
    assert rows["slow"].points == rows["crashy"].points == 1.0 and rows["slow"].rank == rows["crashy"].rank == 4
