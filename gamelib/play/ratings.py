"""Ratings with uncertainty: a Bradley-Terry model on the Elo scale, fitted by penalised maximum likelihood.

The model (Bradley & Terry 1952; on Elo's scale, Elo 1978): entry i scores against entry j with
expectation p_ij = 1 / (1 + 10^(-(r_i - r_j)/400)). A game's points s (win 1, draw 1/2, loss 0, as
seed 002's rule makes a game with equal marks a draw) enter the log-likelihood as
s log p_ij + (1 - s) log(1 - p_ij), so a draw counts as half a win and half a loss (the usual
quasi-likelihood for draws). :func:`fit_ratings` maximises it with scipy, plus a weak prior: each
entry is also credited with ``prior_draws`` virtual draws against a virtual entry rated 0, which
keeps an entry that won (or lost) every game at a finite rating (a penalised maximum likelihood).
Without it no maximum-likelihood estimate exists whenever some entries never scored against the
others (the likelihood grows without bound as their ratings fall apart): then those entries'
ratings and intervals say what the prior says, and shrink without bound with ``prior_draws``.
Since ratings are told relative to the field's average, so do every other entry's rating and
interval: only differences between entries that scored against each other come from the games.
The likelihood only knows rating differences, so ratings are reported relative to the field's
average: they sum to 0.

Intervals: the 95% interval of each rating is r ± 1.96·se, se from the observed Fisher information
(the inverse of the negative Hessian of the penalised log-likelihood at its maximum; Agresti,
*Categorical Data Analysis*, 2002, §6.5 on Bradley-Terry; the usual Wald interval), for the rating
less the field's average (covariance P·C·P, P the centring matrix). It is an
asymptotic interval: with few games per entry it can be too narrow; near a separation (an entry that
won or lost every game against some others) the Wald statistic shrinks as the estimate grows (Hauck &
Donner 1977), and a likelihood-ratio test is the one to use (lesson 10); ``tests/test_ratings.py``
measures its coverage on simulated tournaments of known strengths.

>>> ratings = fit_ratings(["a", "b"], [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
>>> a, b = ratings
>>> round(a.rating - b.rating)  # 3:1 odds: 400·log10(3) = 191, shrunk a little by the prior
188
>>> a.low < a.rating < a.high
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is imported where ratings are fitted: the browser's course (make lite) has none
    import numpy as np

__all__ = ["ELO_SCALE", "Rating", "expected_score", "fit_ratings"]

ELO_SCALE = 400 / math.log(10)
"""Rating points per natural-log unit of odds: 400 points are odds of 10 to 1."""


@dataclass(frozen=True)
class Rating:
    """One entry's fitted ``rating`` (Elo points above the field's average), its standard error
    ``se`` and the ends ``low`` and ``high`` of its 95% interval."""

    name: str
    rating: float
    se: float
    low: float
    high: float


def expected_score(difference: float) -> float:
    """The expected points of an entry rated ``difference`` Elo points above its opponent.

    >>> expected_score(0), round(expected_score(400), 4)
    (0.5, 0.9091)
    """
    return 1 / (1 + 10 ** (-difference / 400))


def fit_ratings(names: Sequence[str], results: Sequence[tuple[int, int, float]], *, prior_draws: float = 1.0,
                confidence: float = 0.95) -> list[Rating]:
    """The ratings of ``names`` from ``results``, each (i, j, points of i against j: 1, 1/2 or 0),
    i and j indices into ``names``, by penalised maximum likelihood (see the module), with
    ``confidence`` intervals from the observed information. Raises ValueError for an index out of
    range, a game of an entry against itself, points outside [0, 1], or ``prior_draws`` <= 0."""
    n = len(names)
    if not prior_draws > 0 or not 0 < confidence < 1:
        raise ValueError(f"prior_draws must be positive and confidence in (0, 1), not {prior_draws}, {confidence}")
    for i, j, points in results:
        if not (0 <= i < n and 0 <= j < n and i != j and 0 <= points <= 1):
            raise ValueError(f"result ({i}, {j}, {points}): need two different entries of {n} and points in [0, 1]")
    import numpy as np

    first = np.array([i for i, _, _ in results], dtype=int)
    second = np.array([j for _, j, _ in results], dtype=int)
    scores = np.array([s for _, _, s in results], dtype=float)

    def negative(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """Minus the penalised log-likelihood, and its gradient, at strengths ``theta`` (natural-log odds)."""
        diff = theta[first] - theta[second]
        p = 1 / (1 + np.exp(-diff))
        prior_p = 1 / (1 + np.exp(-theta))
        value = -(np.sum(scores * _log_sigmoid(diff) + (1 - scores) * _log_sigmoid(-diff))
                  + prior_draws * np.sum(0.5 * _log_sigmoid(theta) + 0.5 * _log_sigmoid(-theta)))
        gradient = -(np.bincount(first, scores - p, n) - np.bincount(second, scores - p, n)
                     + prior_draws * (0.5 - prior_p))
        return float(value), gradient

    from scipy.optimize import minimize  # type: ignore[import-untyped]  # 0.35 s to import: only when fitting

    theta = minimize(negative, np.zeros(n), jac=True, method="BFGS", options={"gtol": 1e-9}).x
    centre = np.eye(n) - 1 / n
    covariance = centre @ np.linalg.inv(_information(theta, first, second, prior_draws)) @ centre
    theta = theta - theta.mean()
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    ratings = []
    for k, name in enumerate(names):
        rating, se = ELO_SCALE * theta[k], ELO_SCALE * math.sqrt(covariance[k, k])
        ratings.append(Rating(name, float(rating), float(se), float(rating - z * se), float(rating + z * se)))
    return ratings


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(1 / (1 + e^-x)), without overflow."""
    import numpy as np

    result: np.ndarray = -np.logaddexp(0, -x)
    return result


def _information(theta: np.ndarray, first: np.ndarray, second: np.ndarray, prior_draws: float) -> np.ndarray:
    """The observed information (minus the Hessian of the penalised log-likelihood) at ``theta``:
    each game adds p(1-p) to [i,i] and [j,j] and subtracts it from [i,j] and [j,i]; the prior adds
    prior_draws·q(1-q) to each [k,k], q the expectation against the virtual entry."""
    import numpy as np

    n = len(theta)
    p = 1 / (1 + np.exp(-(theta[first] - theta[second])))
    weight = p * (1 - p)
    information = np.zeros((n, n))
    np.add.at(information, (first, first), weight)
    np.add.at(information, (second, second), weight)
    np.add.at(information, (first, second), -weight)
    np.add.at(information, (second, first), -weight)
    q = 1 / (1 + np.exp(-theta))
    information[np.diag_indices(n)] += prior_draws * q * (1 - q)
    return information
