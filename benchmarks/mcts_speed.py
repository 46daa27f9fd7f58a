"""Monte Carlo tree search on the Adjacency game, measured (not a test).

Run from the repository root:  .venv/bin/python benchmarks/mcts_speed.py [SECONDS] [--match GAMES]

1. Speed: iterations a second of :func:`gamelib.search.mcts.mcts` from the opening (28 rounds,
   rule 8, outcome rewards), with the bot's shuffled playout (``adjacency_playout``) and with the
   generic ``random_playout``; each searched for SECONDS (default 2) three times, the best kept.
2. With ``--match GAMES``: a match of GAMES games (colours alternating, 28 rounds, rule 8, 0.2 s a
   move, one game at a time) of the ``mcts`` bot against the ``alphabeta`` bot through
   :func:`gamelib.play.arena.run_match`; prints the arena's summary (scores, move times).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame  # noqa: E402
from gamelib.play.arena import run_match  # noqa: E402
from gamelib.play.bots.mcts import adjacency_playout  # noqa: E402
from gamelib.search.mcts import Playout, mcts, random_playout  # noqa: E402


def iterations_per_second(playout: Playout, seconds: float) -> float:
    """The best of three searches from the opening: iterations done over the wall time."""
    game = AdjacencyGame()
    best = 0.0
    for seed in range(3):
        found = mcts(game, seconds=seconds, seed=seed, reward="outcome", playout=playout)
        best = max(best, found.iterations / found.seconds)
    return best


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv and not argv[0].startswith("--") else 2.0
    for name, playout in (("adjacency_playout", adjacency_playout), ("random_playout", random_playout)):
        print(f"{name:18} {iterations_per_second(playout, seconds):8.0f} iterations a second from the opening")
    if "--match" in argv:
        games = int(argv[argv.index("--match") + 1])
        summary = run_match("mcts", "alphabeta", games, 28, rule=8, seconds=0.2, workers=1, progress=False)
        print(summary.table())


if __name__ == "__main__":
    main(sys.argv[1:])
