"""How deep a chain each search reaches under Python's recursion limit (not a test).

Run from the repository root:  .venv/bin/python benchmarks/deep_trees.py

The searches recurse, so a deep enough tree raises RecursionError. gamelib refuses trees deeper
than ``MAX_TREE_DEPTH`` plies before any search starts (:mod:`gamelib.games.trees`); this script
lifts that guard for itself and finds, by bisection, the longest chain (a root, one child a node,
a valued leaf at the end) that each search finishes, traced, with the interpreter's current
recursion limit (1,000 by default), called from the top of a script. The margin between these
numbers and ``MAX_TREE_DEPTH`` is what a caller (pytest, a notebook's widget callback) may use.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gamelib.search.negamax as negamax  # noqa: E402
from gamelib.games.game import Player  # noqa: E402
from gamelib.games.trees import MAX_TREE_DEPTH, GameTree  # noqa: E402
from gamelib.search.algorithms import SEARCHES, run_search  # noqa: E402
from gamelib.search.tracing import RecordingTracer  # noqa: E402


def chain(plies: int) -> GameTree:
    """Nodes "0" .. str(plies), each the only child of the one before; the last is worth 1. Built
    directly, as the loader would refuse it past MAX_TREE_DEPTH."""
    players = {str(ply): Player.MAX if ply % 2 == 0 else Player.MIN for ply in range(plies + 1)}
    return GameTree(name=f"chain of {plies}", source="benchmarks/deep_trees.py", root="0",
                    root_player=Player.MAX, children={str(ply): (str(ply + 1),) for ply in range(plies)},
                    values={str(plies): 1}, players=players)


def finishes(name: str, plies: int) -> bool:
    try:
        run_search(name, chain(plies), tracer=RecordingTracer())
    except RecursionError:
        return False
    return True


def deepest(name: str, high: int = 5000) -> int:
    """The longest chain ``name`` finishes (bisection between 1 and ``high``)."""
    low = 1
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if finishes(name, middle) else (low, middle - 1)
    return low


def main() -> None:
    negamax.MAX_TREE_DEPTH = 10**9  # this script measures what the guard protects against
    print(f"recursion limit {sys.getrecursionlimit()}; MAX_TREE_DEPTH {MAX_TREE_DEPTH}")
    for name in SEARCHES:
        print(f"{name:<24} finishes a chain of {deepest(name):>5} plies")


if __name__ == "__main__":
    main()
