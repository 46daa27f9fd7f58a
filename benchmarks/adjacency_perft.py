"""Perft of the Adjacency game: nodes per second of a plain fixed-depth walk (not a test).

Run from the repository root:  .venv/bin/python benchmarks/adjacency_perft.py [DEPTH]

Walks the whole game tree from the start to DEPTH plies (default 3) with ``legal_moves`` and
``result`` only, for both neighbour rules, and prints the leaf count (56 * 55 * 54 = 166,320 at
depth 3: every empty square is a move), the nodes entered, the wall time (time.perf_counter) and
nodes per second. A second line per rule also reads the Zobrist key and the material at each leaf,
as a search would.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState  # noqa: E402


def perft(game: AdjacencyGame, state: AdjacencyState, depth: int) -> tuple[int, int]:
    """(leaves, nodes entered) of the tree below ``state`` to ``depth`` plies."""
    if depth == 0 or game.is_terminal(state):
        return 1, 1
    leaves, nodes = 0, 1
    for move in game.legal_moves(state):
        below = perft(game, game.result(state, move), depth - 1)
        leaves += below[0]
        nodes += below[1]
    return leaves, nodes


def perft_evaluated(game: AdjacencyGame, state: AdjacencyState, depth: int) -> int:
    """Nodes entered, reading the key and the material at every leaf."""
    if depth == 0 or game.is_terminal(state):
        game.key(state)
        game.evaluate(state)
        return 1
    return 1 + sum(perft_evaluated(game, game.result(state, move), depth - 1) for move in game.legal_moves(state))


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for rule in (8, 4):
        game = AdjacencyGame(rule=rule)
        start = time.perf_counter()
        leaves, nodes = perft(game, game.root, depth)
        seconds = time.perf_counter() - start
        print(f"rule {rule} depth {depth}: {leaves:,} leaves, {nodes:,} nodes in {seconds:.2f} s, "
              f"{nodes / seconds:,.0f} nodes/s")
        start = time.perf_counter()
        nodes = perft_evaluated(game, game.root, depth)
        seconds = time.perf_counter() - start
        print(f"rule {rule} depth {depth} with key and material at the leaves: {nodes / seconds:,.0f} nodes/s")


if __name__ == "__main__":
    main()
