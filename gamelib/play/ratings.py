"""Elo: ratings of many entries with uncertainty (Bradley-Terry), and one version against another (SPRT).

Ratings with uncertainty: a Bradley-Terry model on the Elo scale, fitted by penalised maximum likelihood.

The model (Bradley & Terry 1952; on Elo's scale, Elo 1978): entry i scores against entry j with
expectation p_ij = 1 / (1 + 10^(-(r_i - r_j)/400)). A game's points s (win 1, draw 1/2, loss 0, as
seed 002's rule makes a game with equal marks a draw) enter the log-likelihood as
s log p_ij + (1 - s) log(1 - p_ij), so a draw counts as half a win and half a loss (the usual
quasi-likelihood for draws). :func:`fit_ratings` maximises it by Newton's method, plus a weak prior: each
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

Elo from a match, its 95% interval, and the sequential probability ratio test engine testers run.

Engine developers test a change by playing the new version against the old one (fishtest for
Stockfish, OpenBench, fastchess, cutechess-cli). The games come in pairs: one opening, played once
with each version as the first player. This module turns such a match into numbers:

- :func:`elo`: the logistic Elo difference of a mean score s, -400 log10(1/s - 1): on Elo's
  scale (Elo 1978, whose own tables used the normal curve), in the logistic form of the US Chess
  Federation's winning expectancy and of fishtest; 0.75 is +190.8, 400 log10 3.
- :func:`elo_interval`: the score's mean and its ``confidence`` interval from the spread of the
  results, turned into Elo. *Trinomial*: each game a win, draw or loss. *Pentanomial*: each game
  pair scores 0, 1/2, 1, 3/2 or 2 points; a pair removes the opening's bias (an opening good for X
  gives each version one good game), so its interval is narrower and right (the trinomial model
  treats the two games of a pair as independent; Laskos, TalkChess 2019; Van den Bergh, "The
  pentanomial model", fishtest's documentation).
- :func:`llr` and :class:`Sprt`: the generalized sequential probability ratio test (GSPRT) of
  H0: Elo = elo0 against H1: Elo = elo1 in logistic Elo, with its log-likelihood ratio computed as
  fishtest and fastchess compute it: for each hypothesis the maximum-likelihood distribution of
  the results whose mean score is the hypothesis's (Van den Bergh, "Comments on Normalized Elo",
  proposition 1.1: p_i = p̂_i / (1 + θ (a_i - s)), θ solving Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0;
  a result never seen counts 0.001 times, as in fastchess), then
  LLR = N Σ p̂_i log(p1_i / p0_i). The test stops when the LLR leaves
  (log(β / (1 - α)), log((1 - β) / α)), ±2.94 for α = β = 0.05 (Wald 1945): above, H1 is accepted
  (the new version is at least elo1 stronger, or so with error at most α); below, H0.

Outcomes are counted from the point of view of the first version, A: ``trinomial`` (losses,
draws, wins) and ``pentanomial`` (pairs with 0, 1/2, 1, 3/2, 2 points).

>>> round(elo(0.75), 1)
190.8
>>> round(llr((21184, 40708, 21404), 0.5, 2.5), 2)  # fastchess's test "logistic trinomial 1"
-1.57
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from gamelib.play.significance import bisect_root

__all__ = ["elo", "elo_interval", "ELO_SCALE", "expected_score", "fit_ratings", "information", "llr",
           "penalised_log_likelihood", "penalised_strengths", "Rating", "Sprt", "UNSEEN"]


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
    i and j indices into ``names``, by penalised maximum likelihood (see the module; maximised by
    :func:`penalised_strengths`), with ``confidence`` intervals from the observed information. Raises
    ValueError for an index out of range, a game of an entry against itself, points outside [0, 1], or
    ``prior_draws`` <= 0."""
    n = len(names)
    if not prior_draws > 0 or not 0 < confidence < 1:
        raise ValueError(f"prior_draws must be positive and confidence in (0, 1), not {prior_draws}, {confidence}")
    for i, j, points in results:
        if not (0 <= i < n and 0 <= j < n and i != j and 0 <= points <= 1):
            raise ValueError(f"result ({i}, {j}, {points}): need two different entries of {n} and points in [0, 1]")
    theta = penalised_strengths(n, results, prior_draws)
    inverse = _inverse(information(theta, results, prior_draws))
    average = math.fsum(theta) / n
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    ratings = []
    for k, name in enumerate(names):
        # the variance of theta_k less the average: C[k][k] - 2 mean_j C[k][j] + mean of all C
        variance = (inverse[k][k] - 2 * math.fsum(inverse[k]) / n + math.fsum(map(math.fsum, inverse)) / n**2)
        rating, se = ELO_SCALE * (theta[k] - average), ELO_SCALE * math.sqrt(max(variance, 0.0))
        ratings.append(Rating(name, rating, se, rating - z * se, rating + z * se))
    return ratings


def _sigmoid(x: float) -> float:
    """1 / (1 + e^-x), without overflow."""
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _log1pexp(x: float) -> float:
    """log(1 + e^x), without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def penalised_log_likelihood(theta: Sequence[float], results: Sequence[tuple[int, int, float]],
                             prior_draws: float) -> float:
    """The module's penalised log-likelihood at strengths ``theta`` (natural-log odds, one an entry):
    each game's s log P + (1 - s) log(1 - P), and each entry's ``prior_draws`` virtual draws against a
    virtual entry of strength 0."""
    games = math.fsum(points * _log1pexp(theta[j] - theta[i]) + (1 - points) * _log1pexp(theta[i] - theta[j])
                      for i, j, points in results)
    prior = math.fsum(_log1pexp(-t) + _log1pexp(t) for t in theta) * prior_draws / 2
    return -(games + prior)


def information(theta: Sequence[float], results: Sequence[tuple[int, int, float]],
                prior_draws: float) -> list[list[float]]:
    """The observed information (minus the Hessian of the penalised log-likelihood) at ``theta``, an
    n x n list of rows: each game adds p(1-p) to [i][i] and [j][j] and subtracts it from [i][j] and
    [j][i]; the prior adds prior_draws·q(1-q) to each [k][k], q the expectation against the virtual
    entry."""
    n = len(theta)
    matrix = [[0.0] * n for _ in range(n)]
    for i, j, _ in results:
        p = _sigmoid(theta[i] - theta[j])
        weight = p * (1 - p)
        matrix[i][i] += weight
        matrix[j][j] += weight
        matrix[i][j] -= weight
        matrix[j][i] -= weight
    for k, t in enumerate(theta):
        q = _sigmoid(t)
        matrix[k][k] += prior_draws * q * (1 - q)
    return matrix


def penalised_strengths(n: int, results: Sequence[tuple[int, int, float]], prior_draws: float) -> list[float]:
    """The strengths (natural-log odds) of n entries that maximise :func:`penalised_log_likelihood`, by
    Newton's method from all zeros, each step halved while it would lower the log-likelihood, until
    no strength moves by 1e-9 or a step gains less than 1e-13 of the log-likelihood (on lesson 10's
    games the gain rule stops it, after 6 to 19 steps at priors 1 to 1e-6, within 2e-9 of the maximum).
    The log-likelihood is strictly concave (the prior makes it so), so there is one maximum and
    Newton's steps climb to it, even near a separation (a tiny prior, an entry that lost every game),
    where Hunter's MM iteration (Hunter 2004), whose every step is simpler, takes hundreds of thousands
    (``tests/test_ratings.py`` checks the two agree at priors where MM converges). Raises
    ArithmeticError if 200 steps do not get there."""
    theta = [0.0] * n
    here = penalised_log_likelihood(theta, results, prior_draws)
    for _ in range(200):
        gradient = [prior_draws * (0.5 - _sigmoid(t)) for t in theta]
        for i, j, points in results:
            surprise = points - _sigmoid(theta[i] - theta[j])
            gradient[i] += surprise
            gradient[j] -= surprise
        step = _solve(information(theta, results, prior_draws), gradient)
        scale = 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step)]
            there = penalised_log_likelihood(trial, results, prior_draws)
            if there >= here - 1e-12 * abs(here) or scale < 1e-6:
                break
            scale /= 2
        gain, theta, here = there - here, trial, there
        if max(map(abs, step), default=0.0) * scale < 1e-9 or gain < 1e-13 * max(1.0, abs(here)):
            return theta
    raise ArithmeticError(f"the ratings' fit did not converge in 200 Newton steps (prior_draws {prior_draws})")


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector (matrix symmetric positive definite): numpy's solver where numpy is
    installed (the desktop: fast for a class of hundreds), else mpmath's LU solver (the browser, whose
    Python has no numpy); ``tests/test_ratings.py`` checks both give the same ratings."""
    np = _numpy()
    if np is not None:
        return [float(x) for x in np.linalg.solve(np.array(matrix), np.array(vector))]
    from mpmath import fp  # type: ignore[import-untyped]  # mpmath's floating-point context: 2.5 times its mp's speed

    return [float(x) for x in fp.lu_solve(fp.matrix(matrix), fp.matrix(vector))]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of ``matrix``, by numpy where it is installed, else by mpmath (as :func:`_solve`)."""
    np = _numpy()
    if np is not None:
        return [[float(x) for x in row] for row in np.linalg.inv(np.array(matrix))]
    from mpmath import fp

    inverse = fp.inverse(fp.matrix(matrix))
    return [[float(inverse[r, c]) for c in range(len(matrix))] for r in range(len(matrix))]


def _numpy() -> Any:
    """numpy if it can be imported and :data:`USE_NUMPY` is True, else None."""
    if not USE_NUMPY:
        return None
    try:
        import numpy
    except ImportError:
        return None
    return numpy


USE_NUMPY = True
"""Whether the fit's linear algebra may use numpy where it is installed; the tests set it False to
check that mpmath's path (the browser's) gives the same numbers."""


UNSEEN = 1e-3
"""The count given to a result never seen, so that the maximum-likelihood distributions exist
(fastchess's ``regularize``)."""


def elo(score: float) -> float:
    """The logistic Elo difference of a mean ``score`` per game (0 to 1): -400 log10(1/score - 1),
    -inf at 0 and +inf at 1. Raises ValueError outside [0, 1].

    >>> round(elo(0.5), 6) + 0.0, round(elo(0.25), 1)
    (0.0, -190.8)
    """
    if not 0 <= score <= 1:
        raise ValueError(f"score {score}: give a mean score from 0 to 1")
    if score in (0, 1):
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def _scores(counts: Sequence[float]) -> list[float]:
    """The score per game of each result class: (0, 1/2, 1) for 3 classes, (0, 1/4, ..., 1) for 5."""
    if len(counts) not in (3, 5) or any(count < 0 for count in counts) or sum(counts) <= 0:
        raise ValueError(f"counts {list(counts)}: give 3 (losses, draws, wins) or 5 (pairs scoring 0, 1/2, 1, 3/2, 2) "
                         "counts, none negative, not all zero")
    return [i / (len(counts) - 1) for i in range(len(counts))]


def elo_interval(counts: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """(Elo, low, high): the Elo difference of the mean score of ``counts`` (trinomial or
    pentanomial, A's view) and the ends of its ``confidence`` interval, the normal interval
    mean ± z·sd/√N of the score per game (trinomial, N games) or per pair (pentanomial, N pairs,
    score per game = pair points / 2), each end turned into Elo by :func:`elo` (as fishtest's
    ``get_elo``). Raises ValueError for bad counts or a confidence outside (0, 1).

    >>> [round(x, 1) for x in elo_interval((10, 20, 30))]  # 40 of 60 points; see tests/test_strength.py
    [120.4, 50.6, 201.2]
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence}: give a number between 0 and 1")
    scores = _scores(counts)
    total = math.fsum(counts)
    mean = math.fsum(score * count for score, count in zip(scores, counts)) / total
    variance = math.fsum(count * (score - mean) ** 2 for score, count in zip(scores, counts)) / total
    half = NormalDist().inv_cdf((1 + confidence) / 2) * math.sqrt(variance / total)
    return elo(mean), elo(max(0.0, mean - half)), elo(min(1.0, mean + half))


def _closest(scores: Sequence[float], seen: Sequence[float], target: float) -> list[float]:
    """The distribution nearest to ``seen`` (in likelihood) whose mean score is ``target``:
    p_i = seen_i / (1 + θ (a_i - target)), θ the root of Σ seen_i (a_i - target) / (1 + θ (a_i - target))
    (Van den Bergh, proposition 1.1), found by bisection between its poles, where the sum falls from
    +inf to -inf."""
    def falling(theta: float) -> float:
        return -math.fsum(p * (a - target) / (1 + theta * (a - target)) for a, p in zip(scores, seen))

    low, high = -1 / (scores[-1] - target), -1 / (scores[0] - target)
    margin = 1e-12 * (high - low)
    theta = bisect_root(lambda t: falling(float(t)), low + margin, high - margin)
    return [p / (1 + theta * (a - target)) for a, p in zip(scores, seen)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio of H1: Elo = ``elo1`` against H0: Elo = ``elo0`` (logistic
    Elo, elo0 < elo1) for the results ``counts`` (trinomial or pentanomial, A's view), computed as
    the module says. Positive values favour H1. Raises ValueError for bad counts or bounds.

    >>> round(llr((223, 9863, 21279, 10037, 246), 0.5, 2.5), 2)  # fastchess "logistic pentanomial 1"
    -3.07
    """
    if not elo0 < elo1:
        raise ValueError(f"elo0 {elo0} and elo1 {elo1}: give elo0 < elo1")
    scores = _scores(counts)
    regular = [count if count > 0 else UNSEEN for count in counts]
    total = math.fsum(regular)
    seen = [count / total for count in regular]
    p0 = _closest(scores, seen, expected_score(elo0))
    p1 = _closest(scores, seen, expected_score(elo1))
    return total * math.fsum(p * (math.log(b) - math.log(a)) for p, a, b in zip(seen, p0, p1))


@dataclass(frozen=True)
class Sprt:
    """A GSPRT of H0: Elo = ``elo0`` against H1: Elo = ``elo1`` (logistic Elo of A over B) with
    error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds).
    Raises ValueError for elo0 >= elo1 or rates outside (0, 1) or adding to 1 or more.

    >>> test = Sprt(0, 10)
    >>> [round(bound, 3) for bound in test.bounds], test.verdict(3.0), test.verdict(0.0)
    ([-2.944, 2.944], 'H1', None)
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1 or not 0 < self.alpha < 1 or not 0 < self.beta < 1 or self.alpha + self.beta >= 1:
            raise ValueError(f"SPRT elo0={self.elo0}, elo1={self.elo1}, alpha={self.alpha}, beta={self.beta}: give "
                             "elo0 < elo1 and error rates between 0 and 1 that add up to less than 1")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: (log(β / (1 - α)), log((1 - β) / α))."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        """The log-likelihood ratio of ``counts`` (see :func:`llr`)."""
        return llr(counts, self.elo0, self.elo1)

    def verdict(self, ratio: float) -> str | None:
        """"H1" (A is at least elo1 stronger) once ``ratio`` reaches the upper bound, "H0" once it
        reaches the lower one, None while the test goes on."""
        low, high = self.bounds
        return "H1" if ratio >= high else "H0" if ratio <= low else None
