"""The tests and intervals lesson 7 reads match results with, in pure Python: exact binomial sums,
Student's t from mpmath, the rest from the standard library, so they give the same numbers on the
desktop and in the course's browser site, which has neither scipy nor numpy (it is built from Pyodide's
core; Pyodide's own builds of them are on its CDN, not on PyPI or npm).

- :func:`binomial_pmf`, :func:`binomial_test` (the exact two-sided test; a **sign test** on decisive
  games is ``binomial_test(wins, wins + losses)``) and :func:`clopper_pearson` (the exact interval,
  Clopper & Pearson 1934).
- :func:`t_quantile` and :func:`t_two_sided` (Student's t distribution through the regularised
  incomplete beta function, Abramowitz & Stegun 1964, 26.7.1 with 26.5.27), and the tests on them:
  :func:`paired_t_test`, :func:`welch_t_test` (Welch 1947) and :func:`pearson` (r with the t test of
  r = 0).
- :func:`wilcoxon_signed_rank` (Wilcoxon 1945) by the normal approximation with ties' correction.
- :func:`score_permutation_test`: the exact permutation test of two samples of game scores.

``tests/test_significance.py`` compares every function with scipy.stats (where scipy is installed),
with brute force over small cases, and with values worked by hand.

>>> round(binomial_test(12, 12), 6)  # 12 wins, no loss: 2 / 2**12
0.000488
>>> low, high = clopper_pearson(3, 3)
>>> round(low, 4), high  # 0.025 ** (1/3)
(0.2924, 1.0)
>>> round(t_quantile(0.975, 10), 4)  # the table value
2.2281
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import mpmath  # type: ignore[import-untyped]

__all__ = ["Result", "binomial_pmf", "bisect_root", "binomial_test", "clopper_pearson", "pearson", "paired_t_test",
           "score_permutation_test", "t_cdf", "t_quantile", "t_two_sided", "welch_t_test",
           "wilcoxon_signed_rank"]

_RELATIVE = 1 + 1e-7
"""Outcomes whose probability is within this factor of the observed one count as "as extreme" in
:func:`binomial_test` (as R's binom.test and scipy's binomtest do), so rounding cannot drop a tie."""


@dataclass(frozen=True)
class Result:
    """A test's ``statistic`` (t, r or the signed-rank sum), its degrees of freedom ``df`` where it has
    them (None otherwise) and its two-sided ``pvalue``."""

    statistic: float
    df: float | None
    pvalue: float


def _check_count(k: int, n: int) -> None:
    if not (isinstance(k, int) and isinstance(n, int) and 0 <= k <= n and n >= 1):
        raise ValueError(f"k = {k!r} successes in n = {n!r} trials: give whole numbers with 0 <= k <= n, n >= 1")


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level is {level}: give a confidence between 0 and 1")


def binomial_pmf(k: int, n: int, p: float) -> float:
    """P(X = k) for X ~ Binomial(n, p), 0 <= p <= 1; 0 for k outside 0..n. Exact for n up to 1000 (the
    binomial coefficient times the powers), through logarithms above (where the coefficient alone
    overflows a float; relative error about 1e-13). Raises ValueError for p outside [0, 1]."""
    if not 0 <= p <= 1:
        raise ValueError(f"p is {p}: a probability is between 0 and 1")
    if not 0 <= k <= n:
        return 0.0
    if n <= 1000:
        return math.comb(n, k) * p**k * (1 - p) ** (n - k)
    if p in (0.0, 1.0):
        return float(k == round(n * p))
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_test(k: int, n: int, p: float = 0.5) -> float:
    """The exact two-sided p-value of k successes in n trials if each succeeds with probability ``p``:
    the total probability of the outcomes no more likely than k (the "minimum likelihood" method of R's
    binom.test and scipy's binomtest). Raises ValueError for a count outside 0 <= k <= n or p outside
    (0, 1)."""
    _check_count(k, n)
    if not 0 < p < 1:
        raise ValueError(f"p is {p}: give a probability strictly between 0 and 1")
    observed = binomial_pmf(k, n, p) * _RELATIVE
    return min(1.0, math.fsum(q for q in (binomial_pmf(i, n, p) for i in range(n + 1)) if q <= observed))


def bisect_root(f: Callable[[Any], Any], low: float, high: float) -> float:
    """The root of increasing ``f`` on [low, high] (f(low) < 0 < f(high)), by bisection to 1e-13 (relative
    where the root is larger than 1)."""
    a, b = mpmath.mpf(low), mpmath.mpf(high)
    for _ in range(200):
        middle = (a + b) / 2
        if f(middle) < 0:
            a = middle
        else:
            b = middle
        if b - a < 1e-13 * max(1, abs(a)):
            break
    return float((a + b) / 2)


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson 1934) interval of a success rate from k successes in n trials: the
    rates p for which neither P(X >= k | p) nor P(X <= k | p) is below (1 - level)/2, found as
    quantiles of the beta distribution (its CDF is mpmath's regularised incomplete beta). 0 and 1 are
    the ends when k = 0 or k = n. Raises ValueError for a bad count or level."""
    _check_count(k, n)
    _check_level(level)
    tail = (1 - level) / 2
    low = 0.0 if k == 0 else bisect_root(
        lambda x: mpmath.betainc(k, n - k + 1, 0, x, regularized=True) - tail, 0.0, 1.0)
    high = 1.0 if k == n else bisect_root(
        lambda x: mpmath.betainc(k + 1, n - k, 0, x, regularized=True) - (1 - tail), 0.0, 1.0)
    return low, high


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` > 0 degrees of freedom: 1 - I_x(df/2, 1/2)/2 for t >= 0,
    x = df/(df + t^2) (Abramowitz & Stegun 26.7.1 with 26.5.27), and by symmetry below 0. Raises ValueError for
    df <= 0."""
    if not df > 0:
        raise ValueError(f"df is {df}: Student's t needs more than 0 degrees of freedom")
    tail = float(mpmath.betainc(df / 2, 0.5, 0, df / (df + t * t), regularized=True)) / 2
    return 1 - tail if t >= 0 else tail


def t_two_sided(t: float, df: float) -> float:
    """The two-sided p-value of a t statistic with ``df`` degrees of freedom: P(|T| >= |t|)."""
    if not df > 0:
        raise ValueError(f"df is {df}: Student's t needs more than 0 degrees of freedom")
    return float(mpmath.betainc(df / 2, 0.5, 0, df / (df + t * t), regularized=True))


def t_quantile(q: float, df: float) -> float:
    """The t with P(T <= t) = q, Student's t with ``df`` degrees of freedom (0 < q < 1), by bisection
    on :func:`t_cdf`. Raises ValueError for q outside (0, 1) or df <= 0."""
    if not 0 < q < 1:
        raise ValueError(f"q is {q}: a quantile's probability is between 0 and 1")
    if q < 0.5:
        return -t_quantile(1 - q, df)
    high = 1.0
    while t_cdf(high, df) < q:
        high *= 2
    return bisect_root(lambda t: t_cdf(float(t), df) - q, 0.0, high)


def _paired(x: Sequence[float], y: Sequence[float]) -> list[float]:
    if len(x) != len(y):
        raise ValueError(f"paired samples of {len(x)} and {len(y)} values: give one y for each x")
    return [a - b for a, b in zip(x, y)]


def paired_t_test(x: Sequence[float], y: Sequence[float]) -> Result:
    """The paired t test of mean(x - y) = 0: t = mean(d) / (sd(d)/sqrt(n)), n - 1 degrees of freedom.
    Raises ValueError for samples of different lengths, fewer than 2 pairs, or differences that are
    all equal (no spread: t undefined)."""
    d = _paired(x, y)
    if len(d) < 2 or statistics.stdev(d) == 0:
        raise ValueError(f"{len(d)} pairs whose differences do not vary: the paired t test needs a spread")
    t = statistics.fmean(d) / (statistics.stdev(d) / math.sqrt(len(d)))
    return Result(t, len(d) - 1, t_two_sided(t, len(d) - 1))


def welch_t_test(x: Sequence[float], y: Sequence[float]) -> Result:
    """Welch's (1947) t test of mean(x) = mean(y) for two independent samples with variances not assumed
    equal: t = (mean x - mean y)/sqrt(vx/nx + vy/ny), degrees of freedom by the Welch-Satterthwaite
    formula. Raises ValueError for a sample of fewer than 2 values or two samples with no spread."""
    if len(x) < 2 or len(y) < 2:
        raise ValueError(f"samples of {len(x)} and {len(y)} values: Welch's test needs two of each")
    vx, vy = statistics.variance(x) / len(x), statistics.variance(y) / len(y)
    if vx + vy == 0:
        raise ValueError("neither sample varies: Welch's t is undefined")
    t = (statistics.fmean(x) - statistics.fmean(y)) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    return Result(t, df, t_two_sided(t, df))


def pearson(x: Sequence[float], y: Sequence[float]) -> Result:
    """Pearson's correlation r of paired samples, with the two-sided p-value of r = 0 from
    t = r sqrt((n - 2)/(1 - r^2)) on n - 2 degrees of freedom. Raises ValueError for fewer than 3
    pairs or a sample with no spread."""
    _paired(x, y)
    if len(x) < 3:
        raise ValueError(f"{len(x)} pairs: a correlation's test needs at least 3")
    r = statistics.correlation(x, y)
    if abs(r) >= 1:
        return Result(r, len(x) - 2, 0.0)
    t = r * math.sqrt((len(x) - 2) / (1 - r * r))
    return Result(r, len(x) - 2, t_two_sided(t, len(x) - 2))


def wilcoxon_signed_rank(x: Sequence[float], y: Sequence[float]) -> Result:
    """Wilcoxon's (1945) signed-rank test of paired samples, two-sided: zero differences left out
    (scipy's and R's default, scipy's ``zero_method="wilcox"``), tied |differences| given their mean rank, and the sum of the positive
    differences' ranks W+ compared with its mean n(n+1)/4 by the normal approximation, its variance
    n(n+1)(2n+1)/24 less sum(t^3 - t)/48 over each group of t ties, with no continuity correction (as
    scipy's ``wilcoxon(..., method="asymptotic")``). ``statistic`` is W+. Meant for many pairs (the
    normal approximation; the course's have 100). Raises ValueError for samples of different lengths
    or fewer than one non-zero difference."""
    d = [value for value in _paired(x, y) if value != 0]
    if not d:
        raise ValueError("every difference is zero: the signed-rank test has nothing to rank")
    sizes = sorted(Counter(abs(value) for value in d).items())
    rank_of, below = {}, 0
    for size, count in sizes:
        rank_of[size] = below + (count + 1) / 2
        below += count
    n = len(d)
    positive = math.fsum(rank_of[abs(value)] for value in d if value > 0)
    variance = n * (n + 1) * (2 * n + 1) / 24 - sum(count**3 - count for _, count in sizes) / 48
    z = (positive - n * (n + 1) / 4) / math.sqrt(variance)
    return Result(positive, None, 2 * NormalDist().cdf(-abs(z)))


def score_permutation_test(a: Sequence[float], b: Sequence[float]) -> float:
    """The exact two-sided permutation p-value of mean(a) - mean(b) for game scores (each 0, 1/2 or 1;
    any values work, the count of distinct values sets the cost): the share of all C(n, len(a)) ways to
    split the pooled games into groups of len(a) and len(b) whose difference of means is at least as
    large in size as the observed one. Counted exactly by how many games of each value the first group
    takes (a multivariate hypergeometric sum), not by drawing shuffles. Raises ValueError for an
    empty sample."""
    if not a or not b:
        raise ValueError(f"samples of {len(a)} and {len(b)} values: each needs at least one")
    pooled = sorted(Counter([*a, *b]).items())
    total = sum(a) + sum(b)
    observed = abs(statistics.fmean(a) - statistics.fmean(b))

    def difference(first_sum: float) -> float:
        return abs(first_sum / len(a) - (total - first_sum) / len(b))

    states: dict[tuple[int, float], int] = {(0, 0.0): 1}  # (games taken so far, their sum) -> ways
    for value, count in pooled:
        following: dict[tuple[int, float], int] = {}
        for (size, subtotal), number in states.items():
            for k in range(min(count, len(a) - size) + 1):
                key = (size + k, subtotal + k * value)
                following[key] = following.get(key, 0) + number * math.comb(count, k)
        states = following
    extreme = sum(number for (size, subtotal), number in states.items()
                  if size == len(a) and difference(subtotal) >= observed * (1 - 1e-12))
    return extreme / math.comb(len(a) + len(b), len(a))
