"""Elo from a match, its 95% interval, and the sequential probability ratio test engine testers run.

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

from scipy.optimize import brentq  # type: ignore[import-untyped]

from gamelib.play.ratings import expected_score

__all__ = ["UNSEEN", "Sprt", "elo", "elo_interval", "llr"]

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
    (Van den Bergh, proposition 1.1), found by Brent's method between its poles."""
    def slope(theta: float) -> float:
        return math.fsum(p * (a - target) / (1 + theta * (a - target)) for a, p in zip(scores, seen))

    low, high = -1 / (scores[-1] - target), -1 / (scores[0] - target)
    margin = 1e-12 * (high - low)
    theta = brentq(slope, low + margin, high - margin, xtol=1e-14)
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
