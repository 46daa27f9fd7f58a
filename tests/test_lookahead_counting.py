"""The lookahead's counting (gamelib.games.adjacency.lookahead) against brute-force per-square counts.

Every figure the lookahead derives from its bit-sliced counts (the counts themselves, the frontier
value, the moves grouped by gain, the depth-2 bounds) is recomputed here square by square with
``int.bit_count`` on each square's neighbour mask, on thousands of seeded random positions under
rule 8 and rule 4. The positions are random pairs of disjoint bitboards at random densities (the
counting is defined for any such pair, reachable or not), so the sparse and the crowded boards
of a game are both covered.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from gamelib.games.adjacency import neighbour_mask
from gamelib.games.adjacency.lookahead import LookaheadGame, gain_counts
from gamelib.games.game import INF

POSITIONS = 3000
"""Random positions per rule in ``make test-slow``; ``make test`` checks the first :data:`FAST`."""

FAST = 600

SIZES = [FAST, pytest.param(POSITIONS, marks=pytest.mark.slow)]
"""How many of the random positions a test checks: the first 600 in ``make test``, all 3,000 in
``make test-slow`` (the same seed, so the slow run checks the fast one's positions and more)."""


def random_positions(rule: int, seed: int, count: int = POSITIONS) -> Iterator[tuple[int, int, int]]:
    """``count`` seeded (mine, theirs, plies left): disjoint bitboards, each square taken with
    a probability drawn per position, and 0 to 56 plies left."""
    chooser = random.Random(seed * 10 + rule)
    for _ in range(count):
        full, share = chooser.random(), chooser.random()
        mine = theirs = 0
        for square in range(64):
            if chooser.random() < full:
                if chooser.random() < share:
                    mine |= 1 << square
                else:
                    theirs |= 1 << square
        yield mine, theirs, chooser.randrange(57)


def brute_count(marks: int, square: int, rule: int) -> int:
    """The marks next to ``square`` under ``rule``, plus the square itself under rule 8 (see
    :func:`gain_counts`), counted on the square's own neighbour mask."""
    count = (marks & neighbour_mask(square, rule)).bit_count()
    return count + (marks >> square & 1 if rule == 8 else 0)


def empty_squares(mine: int, theirs: int) -> list[int]:
    return [square for square in range(64) if not (mine | theirs) >> square & 1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rule", [8, 4])
def test_the_bit_sliced_counts_are_the_per_square_counts(rule: int, size: int) -> None:
    for mine, theirs, _ in random_positions(rule, 1, size):
        for marks in (mine, theirs, mine | theirs):
            planes = gain_counts(marks, rule)
            for square in range(64):
                count = sum((plane >> square & 1) << digit for digit, plane in enumerate(planes))
                assert count == brute_count(marks, square, rule), (hex(marks), square)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rule", [8, 4])
def test_the_frontier_value_is_material_plus_the_best_brute_gain(rule: int, size: int) -> None:
    game = LookaheadGame(rule=rule)
    for mine, theirs, plies in random_positions(rule, 2, size):
        empty = empty_squares(mine, theirs)
        expected = None
        if plies >= 2 and len(empty) >= 2:  # the opponent's marks next to a square, two points each, plus the mark
            best = max((theirs & neighbour_mask(square, rule)).bit_count() for square in empty)
            expected = mine.bit_count() - theirs.bit_count() + 1 + 2 * best
        assert game.frontier(mine, theirs, plies) == expected, (hex(mine), hex(theirs), plies)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rule", [8, 4])
def test_unbounded_groups_are_the_empty_squares_by_brute_gain(rule: int, size: int) -> None:
    game = LookaheadGame(rule=rule)
    for mine, theirs, plies in random_positions(rule, 3, size):
        gains = {square: (theirs & neighbour_mask(square, rule)).bit_count() for square in empty_squares(mine, theirs)}
        levels = sorted(set(gains.values()), reverse=True) if plies > 0 else []
        expected = [(INF, sum(1 << square for square, gain in gains.items() if gain == level)) for level in levels]
        assert list(game.groups(mine, theirs, plies, None)) == expected, (hex(mine), hex(theirs), plies)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rule", [8, 4])
def test_depth_2_bounds_are_the_brute_force_bounds(rule: int, size: int) -> None:
    """At depth 2 move m's bound is material + 2 * (m's gain - the opponent's best gain on the
    other empty squares), per :meth:`LookaheadGame._two_ply`; each move comes once, bounds never
    increase, and a group's moves share one gain."""
    game = LookaheadGame(rule=rule)
    for mine, theirs, _ in random_positions(rule, 4, size):
        empty = empty_squares(mine, theirs)
        if len(empty) <= 2:
            continue
        gain = {square: (theirs & neighbour_mask(square, rule)).bit_count() for square in empty}
        reply = {square: (mine & neighbour_mask(square, rule)).bit_count() for square in empty}
        material = mine.bit_count() - theirs.bit_count()
        groups = list(game.groups(mine, theirs, 56, 2))
        seen = []
        for bound, board in groups:
            squares = [square for square in range(64) if board >> square & 1]
            assert len({gain[square] for square in squares}) == 1
            for square in squares:
                best_reply = max(reply[other] for other in empty if other != square)
                assert bound == material + 2 * (gain[square] - best_reply), (hex(mine), hex(theirs), square)
            seen += squares
        assert sorted(seen) == empty
        assert [bound for bound, _ in groups] == sorted((bound for bound, _ in groups), reverse=True)


def test_the_random_positions_reach_crowded_and_sparse_boards() -> None:
    """The generator is not degenerate: some boards nearly full, some nearly empty, both sides."""
    fills = [(mine | theirs).bit_count() for mine, theirs, _ in random_positions(8, 1)]
    assert min(fills) <= 4 and max(fills) >= 60
