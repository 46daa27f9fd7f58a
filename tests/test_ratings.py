"""Bradley-Terry ratings on simulated tournaments of known strengths: the fitted order is the true
order, and the 95% intervals cover the true ratings at about the stated rate."""

from __future__ import annotations

import random

import pytest

from gamelib.play.ratings import expected_score, fit_ratings

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
