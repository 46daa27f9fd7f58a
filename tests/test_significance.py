"""gamelib.play.significance against independent references: scipy.stats where scipy is installed (the
desktop; the browser has none), brute force over small cases, and values worked by hand or from tables."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from gamelib.play.significance import (
    binomial_test, clopper_pearson, paired_t_test, pearson, score_permutation_test, t_cdf, t_quantile, t_two_sided,
    welch_t_test, wilcoxon_signed_rank,
)


def test_hand_values() -> None:
    # n wins in n games: Clopper-Pearson's lower end solves p^n = 0.025; the sign test is 2 / 2^n.
    for n in (1, 3, 40):
        low, high = clopper_pearson(n, n)
        assert abs(low - 0.025 ** (1 / n)) < 1e-9 and high == 1
        assert clopper_pearson(0, n)[0] == 0 and abs(clopper_pearson(0, n)[1] - (1 - 0.025 ** (1 / n))) < 1e-9
        assert binomial_test(n, n) == pytest.approx(min(1.0, 2 / 2**n), rel=1e-12)
    # Student's t tables (e.g. Abramowitz & Stegun, table 26.10): the 97.5% points for 1, 10 and 30 degrees of freedom.
    for df, table in ((1, 12.706), (10, 2.228), (30, 2.042)):
        assert round(t_quantile(0.975, df), 3) == table
    assert t_quantile(0.5, 7) == pytest.approx(0, abs=1e-12) and t_quantile(0.025, 10) == pytest.approx(-2.228, abs=5e-4)
    # With one degree of freedom t is Cauchy: P(T <= t) = 1/2 + atan(t)/pi.
    for t in (-3.0, -0.5, 0.0, 1.0, 7.5):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert t_two_sided(t, 1) == pytest.approx(1 - 2 * math.atan(abs(t)) / math.pi, abs=1e-12)


def test_binomial_test_by_brute_force() -> None:
    # Exact fractions: the outcomes no more likely than the observed one, summed.
    for n in range(1, 16):
        for k in range(n + 1):
            for p in (Fraction(1, 2), Fraction(1, 3)):
                pmf = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
                expected = min(Fraction(1), sum(q for q in pmf if q <= pmf[k]))
                assert binomial_test(k, n, float(p)) == pytest.approx(float(expected), rel=1e-9, abs=1e-15)


def test_clopper_pearson_ends_are_the_tails() -> None:
    # At the lower end, P(X >= k) = 2.5%; at the upper, P(X <= k) = 2.5%: summed term by term here.
    for n, k in ((10, 3), (40, 38), (7, 0), (25, 12)):
        low, high = clopper_pearson(k, n)
        upper_tail = sum(math.comb(n, i) * low**i * (1 - low) ** (n - i) for i in range(k, n + 1))
        lower_tail = sum(math.comb(n, i) * high**i * (1 - high) ** (n - i) for i in range(k + 1))
        assert k == 0 or upper_tail == pytest.approx(0.025, abs=1e-10)
        assert k == n or lower_tail == pytest.approx(0.025, abs=1e-10)


def test_permutation_test_by_enumeration() -> None:
    rng = random.Random(7)
    for _ in range(20):
        a = [rng.choice((0.0, 0.5, 1.0)) for _ in range(rng.randint(1, 6))]
        b = [rng.choice((0.0, 0.5, 1.0)) for _ in range(rng.randint(1, 6))]
        pooled, observed = a + b, abs(sum(a) / len(a) - sum(b) / len(b))
        splits = list(itertools.combinations(range(len(pooled)), len(a)))
        as_extreme = 0
        for chosen in splits:
            first = sum(pooled[i] for i in chosen)
            if abs(first / len(a) - (sum(pooled) - first) / len(b)) >= observed - 1e-12:
                as_extreme += 1
        assert score_permutation_test(a, b) == pytest.approx(as_extreme / len(splits), rel=1e-12)


def test_the_same_numbers_as_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(31)
    for n, k in ((3, 3), (40, 38), (40, 12), (100, 59), (9, 0)):
        exact = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert clopper_pearson(k, n) == pytest.approx((exact.low, exact.high), abs=1e-10)
        assert binomial_test(k, n) == pytest.approx(stats.binomtest(k, n).pvalue, rel=1e-9)
    for q, df in ((0.975, 1), (0.975, 99), (1 - 0.05 / 12, 99), (0.9, 2.5), (0.01, 40)):
        assert t_quantile(q, df) == pytest.approx(float(stats.t.ppf(q, df)), rel=1e-9)
    for _ in range(10):
        n = rng.randint(5, 120)
        x = [rng.randint(-8, 10) for _ in range(n)]
        y = [rng.randint(-8, 8) for _ in range(n)]
        for ours, theirs in ((paired_t_test(x, y), stats.ttest_rel(x, y)),
                             (welch_t_test(x, y[: n // 2 + 2]), stats.ttest_ind(x, y[: n // 2 + 2], equal_var=False)),
                             (pearson(x, y), stats.pearsonr(x, y))):
            assert (ours.statistic, ours.pvalue) == pytest.approx((theirs.statistic, theirs.pvalue), rel=1e-9, abs=1e-12)
        ranked = wilcoxon_signed_rank(x, y)
        theirs = stats.wilcoxon(x, y, method="asymptotic")
        assert ranked.pvalue == pytest.approx(theirs.pvalue, rel=1e-9)
        kept = [a - b for a, b in zip(x, y) if a != b]
        assert min(ranked.statistic, len(kept) * (len(kept) + 1) / 2 - ranked.statistic) == theirs.statistic


@pytest.mark.parametrize("call", [lambda: clopper_pearson(5, 3), lambda: clopper_pearson(1, 3, level=1.0),
                                  lambda: binomial_test(2, 4, p=1.0), lambda: t_quantile(1.0, 3),
                                  lambda: t_cdf(1.0, 0), lambda: paired_t_test([1, 2], [1]),
                                  lambda: paired_t_test([1, 2, 3], [0, 1, 2]), lambda: welch_t_test([1], [1, 2]),
                                  lambda: wilcoxon_signed_rank([1, 2], [1, 2]), lambda: score_permutation_test([], [1]),
                                  lambda: pearson([1, 2], [2, 1])])
def test_bad_input_says_what(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]
