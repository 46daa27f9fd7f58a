"""Transposition-table replacement strategies over several positions (lesson 4; not a test).

Run from the repository root:  .venv/bin/python benchmarks/replacement.py [--quick]

Searches each position of the Adjacency game (10 rounds) with iterative deepening and MTD(f), as
lesson 4 does, with a table of each replacement strategy and size (``gamelib.search.ttable``):
to depth 3 with every strategy at 16, 64 and 256 slots, and to depth 5 with the four strategies
that differ within one search (always, depth, two-tier, subtree; aging counts exactly as depth
there) at 256 and 4,096 slots. The positions are lesson 4's (X c3, O f6, X d4, O e5, X c5, O f4)
and seven more of six random moves each (``gamelib.play.arena.random_line`` seeded by
"replacement/K"). It records the nodes each search entered over all its depths (deterministic:
the same on every machine), its value, the value of alpha-beta without a table, and the CPU
seconds (which vary), and writes them with their provenance (date, commit, machine, load, command)
to ``gamelib/data/benchmarks/replacement.json``, which lesson 4 reads. ``--quick`` searches two
positions and writes nothing.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.provenance import provenance, quick_argument  # noqa: E402
from gamelib.games.adjacency import AdjacencyGame, AdjacencyState  # noqa: E402
from gamelib.play.arena import random_line  # noqa: E402
from gamelib.search.deepening import iterative_deepening  # noqa: E402
from gamelib.search.negamax import alphabeta  # noqa: E402
from gamelib.search.ttable import Replacement, TranspositionTable  # noqa: E402

DATA = ROOT / "gamelib" / "data" / "benchmarks" / "replacement.json"
LESSON_LINE = ("c3", "f6", "d4", "e5", "c5", "f4")
"""Lesson 4's position: six moves of a 10-round game."""
RANDOM_POSITIONS = 7
SETTINGS = ((3, tuple(Replacement), (16, 64, 256)),
            (5, (Replacement.ALWAYS, Replacement.DEPTH, Replacement.TWO_TIER, Replacement.SUBTREE), (256, 4096)))
"""(depth, strategies, table sizes) of each comparison."""


def positions(count: int) -> list[tuple[str, ...]]:
    """Lesson 4's line, then ``count - 1`` random lines of six moves, the same on every run."""
    game = AdjacencyGame(rounds=10)
    return [LESSON_LINE] + [random_line(game, random.Random(f"replacement/{k}"), 6) for k in range(1, count)]


def measure(game: AdjacencyGame, state: AdjacencyState, depth: int, strategy: Replacement, size: int) -> dict[str, Any]:
    """One search: nodes over all depths, the value, CPU seconds."""
    start = time.process_time()
    found = iterative_deepening(game, state, max_depth=depth, table=TranspositionTable(size=size, replacement=strategy))
    return {"nodes": sum(result.nodes for result in found.iterations), "value": found.result.value,
            "cpu_seconds": round(time.process_time() - start, 3)}


def run(count: int) -> list[dict[str, Any]]:
    game = AdjacencyGame(rounds=10)
    rows = []
    for line in positions(count):
        state = game.play(game.root, list(line))
        for depth, strategies, sizes in SETTINGS:
            plain = alphabeta(game, state, depth=depth).value
            for size in sizes:
                for strategy in strategies:
                    row = {"position": " ".join(line), "depth": depth, "strategy": strategy.value, "size": size,
                           **measure(game, state, depth, strategy, size), "value_without_table": plain}
                    rows.append(row)
                    print(f"{row['position']:20} depth {depth} {strategy.value:9} {size:5} slots: {row['nodes']:8,} nodes, "
                          f"value {row['value']:+} ({plain:+} without a table), {row['cpu_seconds']:.2f} s", flush=True)
    return rows


def main() -> None:
    quick = quick_argument(sys.argv[1:])
    rows = run(2 if quick else 1 + RANDOM_POSITIONS)
    if not quick:
        DATA.parent.mkdir(parents=True, exist_ok=True)
        made = provenance("python benchmarks/replacement.py", note="the load average at the end; CPU seconds vary with it, "
                          "node counts do not")
        DATA.write_text(json.dumps({"provenance": made, "rows": rows}, indent=1) + "\n")
        print(f"\nwritten to {DATA.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
