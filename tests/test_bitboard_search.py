"""The bitboard inner loop (gamelib.games.adjacency.native) against the traced skeleton it stands in for.

The traced skeleton (``alphabeta`` with a recording tracer, which never takes the bitboard loop) is
the reference: on thousands of seeded random positions, depths and windows the loop must enter
the same nodes in the same order (watched through the neighbour masks it reads, one per move it
makes), count the same nodes and leaves, and return the same value, move, principal variation
and completeness.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.games.adjacency.native import bitboard_alphabeta
from gamelib.search.negamax import SearchResult, alphabeta
from gamelib.search.tracing import Enter, Leaf, RecordingTracer


class WatchedMasks(tuple[int, ...]):
    """Neighbour masks that write down each square they are read for: the moves made, in order."""

    read: list[int]

    def __getitem__(self, square: int) -> int:  # type: ignore[override]
        self.read.append(square)
        return super().__getitem__(square)


# Seed 0 runs in `make test`; the other seeds (the rest of the thousands of cases) in `make test-slow`.
SEEDS = [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 4))]


def cases(full: int, seed: int) -> int:
    """How many random cases seed ``seed`` checks: ``full`` in each slow seed, a fifth of it in
    ``make test``'s seed 0."""
    return full if seed else full // 5

def watched(game: AdjacencyGame) -> WatchedMasks:
    masks = WatchedMasks(game.masks)
    masks.read = []
    return masks


def traced_path(game: AdjacencyGame, events: tuple[object, ...]) -> list[int]:
    """The squares played to enter each node below the root, in the order the trace enters them."""
    boards: list[int] = []
    path = []
    for event in events:
        if isinstance(event, Enter):
            state = game.from_notation(event.node)
            occupied = state.x | state.o
            del boards[event.ply:]
            if event.ply:
                path.append((occupied & ~boards[-1]).bit_length() - 1)
            boards.append(occupied)
    return path


def random_cases(count: int, seed: int,
                 deeper: int = 0) -> Iterator[tuple[AdjacencyGame, AdjacencyState, int, tuple[int, int]]]:
    """``count`` (game, position, depth, window) cases: random rules, rounds and first players, a
    random playout of random length, a depth kept small where many squares are empty (up to
    ``deeper`` plies more), and a window that is often the value range (the root's floor), else
    random."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = AdjacencyGame(rounds=rng.randint(2, 28), rule=rng.choice([8, 4]), first=rng.choice("XO"))
        state = game.root
        for _ in range(rng.randint(0, 2 * game.rounds)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.result(state, rng.choice(moves))
        empty = len(game.legal_moves(state))
        depth = rng.randint(0, (2 if empty > 20 else 3 if empty > 9 else 5) + deeper)
        if rng.random() < 0.4:
            window = (-64, 64)
        else:
            low = rng.randint(-64, 63)
            window = (low, rng.randint(low + 1, min(64, low + rng.choice([1, 2, 8, 128]))))
        made += 1
        yield game, state, depth, window


def traced(game: AdjacencyGame, state: AdjacencyState, depth: int,
           window: tuple[int, int]) -> tuple[SearchResult, RecordingTracer]:
    tracer = RecordingTracer()
    return alphabeta(game, state, depth, window=window, tracer=tracer), tracer


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_loop_enters_the_skeletons_nodes_in_its_order(seed: int) -> None:
    for game, state, depth, window in random_cases(cases(500, seed), seed):
        reference, tracer = traced(game, state, depth, window)
        player = game.to_move(state)
        low, high = window if player.sign > 0 else (-window[1], -window[0])
        mine, theirs = (state.x, state.o) if player.sign > 0 else (state.o, state.x)
        masks = watched(game)
        found = bitboard_alphabeta(mine, theirs, state.plies_left, depth, low, high, masks)
        case = f"{game.to_notation(state)} depth {depth} window {window}"
        assert masks.read == traced_path(game, tracer.events), case
        assert found.nodes == reference.nodes == sum(isinstance(e, Enter) for e in tracer.events), case
        assert found.leaves == reference.leaves == sum(isinstance(e, Leaf) for e in tracer.events), case
        assert (player.sign * found.value, found.pv) == (reference.value, reference.pv), case


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_plain_alphabeta_takes_the_loop_and_returns_the_skeletons_result(seed: int) -> None:
    for game, state, depth, window in random_cases(cases(400, seed), 100 + seed):
        assert alphabeta(game, state, depth, window=window) == traced(game, state, depth, window)[0]

