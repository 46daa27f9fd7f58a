"""Bradley-Terry ratings on simulated tournaments of known strengths: the fitted order is the true
order, and the 95% intervals cover the true ratings at about the stated rate; the penalised fit
agrees with an independent computation (Hunter's MM algorithm, written here) and with a two-entry
example worked by hand; the prior decides the ratings of entries that never scored against the
rest; equal ratings share a rank in the standings."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace
from typing import Any

import pytest

from gamelib.play.match_stats import standings
from gamelib.play.ratings import ELO_SCALE, expected_score, fit_ratings

TRUE = [-300.0, -150.0, -50.0, 50.0, 150.0, 300.0]
"""Known strengths, Elo points, averaging 0 (the fitted ratings' origin)."""


def simulate(rng: random.Random, games: int, draws: float = 0.1) -> list[tuple[int, int, float]]:
    """A round robin of ``games`` games a pairing between entries of strengths TRUE: each game a
    draw with probability ``draws``, else a win with the probability that makes the expected score
    the model's (p - draws/2 a win, so the mean is p)."""
    results = []
    for i in range(len(TRUE)):
        for j in range(i + 1, len(TRUE)):
            p = expected_score(TRUE[i] - TRUE[j])
            for _ in range(games):
                u = rng.random()
                results.append((i, j, 1.0 if u < p - draws / 2 else 0.5 if u < p + draws / 2 else 0.0))
    return results


def test_the_fitted_order_is_the_true_order() -> None:
    ratings = fit_ratings([str(k) for k in range(len(TRUE))], simulate(random.Random(1), 200))
    assert sorted(range(len(TRUE)), key=lambda k: ratings[k].rating) == list(range(len(TRUE)))
    assert abs(sum(rating.rating for rating in ratings)) < 1e-6  # relative to the field's average


@pytest.mark.slow  # 200 simulated tournaments fitted: a long run
def test_the_intervals_cover_the_truth_at_about_95_percent() -> None:
    rng = random.Random(2026)
    covered = total = 0
    for _ in range(200):
        ratings = fit_ratings([str(k) for k in range(len(TRUE))], simulate(rng, 20))
        covered += sum(rating.low <= truth <= rating.high for rating, truth in zip(ratings, TRUE))
        total += len(TRUE)
    assert 0.90 <= covered / total <= 0.99, covered / total


def test_an_entry_that_wins_every_game_has_a_finite_rating() -> None:
    ratings = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 10)
    assert 0 < ratings[0].low < ratings[0].rating < ratings[0].high < 2000


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError, match="two different entries"):
        fit_ratings(["a", "b"], [(0, 0, 1.0)])


def mm_ratings(n: int, results: list[tuple[int, int, float]], prior_draws: float = 1.0) -> list[float]:
    """The same penalised Bradley-Terry fit by another algorithm: Hunter's MM iteration (Zermelo's;
    Hunter 2004, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32),
    written here without gamelib. A game's points s count as s wins for i and 1 - s for j; the
    prior is ``prior_draws`` games of each entry against a virtual entry of strength 1 (rating 0),
    half of them won. Each step sets gamma_i to its wins over the sum of its games divided by
    (gamma_i + gamma_opponent), until nothing moves; returns the ratings in Elo points, centred."""
    wins = [prior_draws / 2] * n
    games: dict[tuple[int, int], float] = {}
    for i, j, points in results:
        wins[i] += points
        wins[j] += 1 - points
        games[i, j] = games.get((i, j), 0.0) + 1
    gamma = [1.0] * n
    for _ in range(100_000):
        new = []
        for k in range(n):
            denominator = prior_draws / (gamma[k] + 1) + sum(
                count / (gamma[i] + gamma[j]) for (i, j), count in games.items() if k in (i, j))
            new.append(wins[k] / denominator)
        done = max(abs(math.log(a / b)) for a, b in zip(new, gamma)) < 1e-13
        gamma = new
        if done:
            break
    logs = [math.log(value) for value in gamma]
    return [400 / math.log(10) * (value - sum(logs) / n) for value in logs]


@pytest.mark.parametrize("seed", range(3))
def test_the_fit_is_the_independent_mm_computation(seed: int) -> None:
    rng = random.Random(seed)
    results = [(i, j, points) for i, j, points in simulate(rng, 3) if rng.random() < 0.7]  # uneven counts
    for prior in (1.0, 0.3):
        fitted = [rating.rating for rating in fit_ratings([str(k) for k in range(len(TRUE))], results, prior_draws=prior)]
        assert fitted == pytest.approx(mm_ratings(len(TRUE), results, prior), abs=0.01)


def test_two_entries_worked_by_hand() -> None:
    # a scores 30 of 40 against b. Without a prior the maximum-likelihood difference is the log-odds:
    # 400 log10(30/10) = 190.85 Elo. With the prior (one virtual draw each against an entry rated 0),
    # symmetry gives a = t, b = -t (natural-log units), and the penalised likelihood's derivative in t is zero
    # where 30 - 40 sigma(2t) + (1/2 - sigma(t)) = 0: solved here by bisection.
    def sigma(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    low, high = 0.0, 5.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if 30 - 40 * sigma(2 * middle) + 0.5 - sigma(middle) > 0 else (low, middle)
    a, b = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
    assert a.rating - b.rating == pytest.approx(ELO_SCALE * 2 * low, abs=1e-4)
    assert a.rating - b.rating < 400 * math.log10(3) == pytest.approx(190.85, abs=0.01)
    tiny = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10, prior_draws=1e-6)
    assert tiny[0].rating - tiny[1].rating == pytest.approx(400 * math.log10(3), abs=0.01)


def test_entries_that_never_score_against_the_rest_are_rated_by_the_prior() -> None:
    # c and d lose every game to a and b (and split their own): no maximum-likelihood estimate exists,
    # and the gap grows without bound as the prior's weight shrinks.
    results = [(0, 1, 1.0), (1, 0, 1.0), (2, 3, 1.0), (3, 2, 1.0)]
    results += [(winner, loser, 1.0) for winner in (0, 1) for loser in (2, 3)] * 2
    gaps = []
    for prior in (1.0, 0.1, 0.01, 0.001):
        ratings = fit_ratings(list("abcd"), results, prior_draws=prior)
        gaps.append(ratings[0].rating - ratings[2].rating)
    assert all(later > earlier + 150 for earlier, later in zip(gaps, gaps[1:])), gaps


def test_equal_ratings_share_a_rank() -> None:
    # a and b each beat c twice and drew each other twice: the same results against the same opponents.
    def game(x: str, o: str, result: str) -> SimpleNamespace:
        return SimpleNamespace(x=x, o=o, result=result, reason="played", forfeit=None, seconds=(0.1, 0.1))

    records = [game("a", "c", "X"), game("c", "a", "O"), game("b", "c", "X"), game("c", "b", "O"),
               game("a", "b", "draw"), game("b", "a", "draw")]
    entries = [SimpleNamespace(name=name, team="") for name in ("b", "c", "a")]
    table = standings(entries, records)
    assert [(row.rank, row.name) for row in table] == [(1, "a"), (1, "b"), (3, "c")]


def test_numpy_and_mpmath_give_the_same_ratings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit's linear algebra by numpy (the desktop) and by mpmath (the browser, which has no numpy): the same
    ratings and intervals."""
    import gamelib.play.ratings as ratings

    results = simulate(random.Random(5), 2)
    names = [str(k) for k in range(len(TRUE))]
    for prior in (1.0, 0.01):
        with_numpy = fit_ratings(names, results, prior_draws=prior)
        monkeypatch.setattr(ratings, "USE_NUMPY", False)
        without = fit_ratings(names, results, prior_draws=prior)
        monkeypatch.undo()
        for a, b in zip(with_numpy, without):
            assert (a.rating, a.low, a.high) == pytest.approx((b.rating, b.low, b.high), abs=1e-9)


def test_the_fit_is_scipys_optimum_and_near_a_separation_better() -> None:
    """scipy's BFGS on the penalised log-likelihood written out here reaches the same ratings, and at a tiny prior,
    near a separation (two entries that never score), the fit's likelihood is at least BFGS's and its gradient 0."""
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")

    def minus(theta: Any, results: list[tuple[int, int, float]], prior: float) -> float:
        total = 0.0
        for i, j, s in results:
            d = theta[i] - theta[j]
            total += s * np.logaddexp(0, -d) + (1 - s) * np.logaddexp(0, d)
        return float(total + prior * sum(np.logaddexp(0, -t) + np.logaddexp(0, t) for t in theta) / 2)

    results = simulate(random.Random(8), 2)
    names = [str(k) for k in range(len(TRUE))]
    best = optimize.minimize(minus, np.zeros(len(TRUE)), args=(results, 1.0), method="BFGS", options={"gtol": 1e-10})
    centred = ELO_SCALE * (best.x - best.x.mean())
    assert [r.rating for r in fit_ratings(names, results)] == pytest.approx(list(centred), abs=1e-3)

    separated = [(0, 1, 1.0), (1, 0, 0.5), (0, 2, 1.0), (1, 2, 1.0), (0, 3, 1.0), (1, 3, 1.0), (2, 3, 0.5)]
    from gamelib.play.ratings import penalised_strengths

    theta = penalised_strengths(4, separated, 1e-6)
    bfgs = optimize.minimize(minus, np.zeros(4), args=(separated, 1e-6), method="BFGS", options={"gtol": 1e-9})
    assert -minus(np.array(theta), separated, 1e-6) >= -bfgs.fun - 1e-12
    gradient = [1e-6 * (0.5 - 1 / (1 + math.exp(-t))) for t in theta]
    for i, j, s in separated:
        surprise = s - 1 / (1 + math.exp(-(theta[i] - theta[j])))
        gradient[i] += surprise
        gradient[j] -= surprise
    assert max(map(abs, gradient)) < 1e-12
