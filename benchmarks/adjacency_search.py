"""How fast the course's search core is on the Adjacency game, and the alpha-beta bot (not a test).

Run from the repository root:  .venv/bin/python benchmarks/adjacency_search.py [--quick]

From the opening and from a fixed midgame position (:data:`MIDGAME`, rule 8, X to move, 32 empty
squares and 32 plies left), it prints, with wall times from time.perf_counter on whatever else the
machine is running:

1. Node rates. Plain fixed-depth alpha-beta (``gamelib.search.negamax.alphabeta``: no table, the engine's
   move order a1..h8, window (-64, 64)) beside easyAI's Negamax on the same game through
   ``benchmarks/easyai_adapter.py`` (same order, depth and window, no table): both must enter the
   same nodes and find the same move. gamelib's plain alpha-beta on the plain game runs its bitboard
   inner loop (``gamelib.games.adjacency.native``), while easyAI goes through the adapter's calls to the
   engine, so this compares the two as a user meets them. easyAI
   runs twice: with the adapter's ``unmake_move`` (its fast path) and, at the smallest depth,
   without it (its default: a deep copy of the game for every move).
2. Leaves against the minimal tree. The bot's search (NegaScout with a 2**20-slot table kept from
   depth to depth, the lookahead of ``gamelib.games.adjacency.lookahead``) at each depth: nodes entered,
   static evaluations (leaves, a depth-1 node valued by the lookahead counting as one), the
   leaves had every such node been searched in full ("expanded": the node counts as its moves),
   Knuth & Moore's minimal tree for the moves at each ply (every empty square is a move, so the
   root's move count falls by one a ply; ``benchmarks/minimal_tree.py``),
   and plain alpha-beta's leaves where it finishes quickly.
3. The bot's searches compared: the cumulative seconds each search the bot offers (NegaScout,
   PVS, MTD(f) guessing the previous depth's value, alpha-beta with memory) needs to finish depth
   1, 2, ... (8 from the opening, 9 in the midgame), each with a fresh table, the CPU seconds of
   the whole run, and the value at the last depth.
4. The bot in 5 s from the opening, in a fresh process (imports and the table's allocation in the
   first call): the depth it completed, its value and nodes, and the seconds of ``choose``.
5. Time limits: the largest ``choose`` time as a share of the limit (it must stay under 1.05) over
   every move of games against the hill-climbing bot (the bot X in the first game, O in the
   second) at limits from 0.05 s to 5 s, and over the first move of fresh processes (whose
   start-up, not charged to any move, is printed apart).

``--quick`` runs smaller depths and shorter games (about a minute instead of several).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from easyAI import Negamax  # type: ignore[import-untyped]  # noqa: E402
from easyai_adapter import CopyingEasyAIAdjacency, EasyAIAdjacency  # noqa: E402
from minimal_tree import falling, minimal_tree  # noqa: E402

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState  # noqa: E402
from gamelib.games.adjacency.lookahead import LookaheadGame  # noqa: E402
from gamelib.games.game import Value  # noqa: E402
from gamelib.play.arena import play_game  # noqa: E402
from gamelib.play.bots.alphabeta import SEARCHES, AlphaBetaBot  # noqa: E402
from gamelib.play.bots.hillclimb import HillClimbBot  # noqa: E402
from gamelib.search.negamax import alphabeta  # noqa: E402
from gamelib.search.ttable import TranspositionTable  # noqa: E402

T = TypeVar("T")

MIDGAME = "4OOOO/4OOXO/4OXOO/3XXXXX/3XOOOX/XOX2O2/XOO5/XXX5 X 32 r8"
"""After 24 plies of the alpha-beta bot at depth 3 (X) against the hill-climbing bot seeded 4 (O)."""

FIRST_CALL = """
import sys, time
start = time.perf_counter()
from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.bots.alphabeta import AlphaBetaBot
game, bot = AdjacencyGame(), AlphaBetaBot()
ready = time.perf_counter()
decision = bot.choose(game, game.root, float(sys.argv[1]))
done = time.perf_counter()
print(ready - start, done - ready, decision.depth, decision.value, decision.nodes)
"""
"""A fresh process's first move: prints the start-up seconds, the first choose's seconds (timed
around the call, as the arena times it), its depth, value and nodes."""


def positions() -> list[tuple[str, AdjacencyState]]:
    game = AdjacencyGame()
    return [("opening", game.root), ("midgame", game.from_notation(MIDGAME))]


def timed(run: Callable[[], T]) -> tuple[T, float]:
    """``run()`` and the seconds it took."""
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def best_of(repeats: int, run: Callable[[], T]) -> tuple[T, float]:
    """The last result of ``repeats`` runs and the least seconds one took (the least disturbed)."""
    times = []
    for _ in range(repeats):
        result, seconds = timed(run)
        times.append(seconds)
    return result, min(times)


def easy_negamax(adapter: CopyingEasyAIAdjacency, depth: int) -> tuple[int, int]:
    """easyAI's Negamax to ``depth`` with the window (-64, 64), as gamelib's alpha-beta uses it:
    (the move it chose, the nodes it entered)."""
    move: int = Negamax(depth, win_score=64)(adapter)
    return move, adapter.nodes


def node_rates(depths: dict[str, list[int]], copy_depth: int) -> None:
    print("1. Plain alpha-beta (gamelib) against easyAI's Negamax, same tree, no table (best of 3 runs)")
    print(f"{'position':8} {'d':>2} {'nodes':>9} {'gamelib n/s':>12} {'easyAI n/s':>11} "
          f"{'gamelib/easyAI':>15}   {'easyAI copying n/s':>18} {'gamelib/copying':>16}")
    game = AdjacencyGame()
    for name, state in positions():
        for depth in depths[name]:
            ours, ours_time = best_of(3, lambda: alphabeta(game, state, depth))
            (move, nodes), easy_time = best_of(3, lambda: easy_negamax(EasyAIAdjacency(game, state), depth))
            if nodes != ours.nodes or move != ours.move:
                raise SystemExit(f"different trees: gamelib {ours.nodes} nodes, move {ours.move}; "
                                 f"easyAI {nodes} nodes, move {move}")
            line = (f"{name:8} {depth:>2} {ours.nodes:>9} {ours.nodes / ours_time:>12,.0f} "
                    f"{nodes / easy_time:>11,.0f} {easy_time / ours_time:>15.2f}")
            if depth <= copy_depth:
                _, copy_time = timed(lambda: easy_negamax(CopyingEasyAIAdjacency(game, state), depth))
                line += f"   {nodes / copy_time:>18,.0f} {copy_time / ours_time:>16.2f}"
            print(line)


class _CountingLookahead(LookaheadGame):
    """The lookahead game counting the depth-1 nodes it values (``frontiers``) and the moves they
    have (``covered``): the leaves depth-1 searches there would evaluate without cutoffs."""

    __slots__ = ("covered", "frontiers")

    def __init__(self) -> None:
        super().__init__()
        self.covered = self.frontiers = 0

    def frontier_value(self, state: AdjacencyState) -> int | None:
        value = super().frontier_value(state)
        if value is not None:
            self.frontiers += 1
            self.covered += 64 - (state.x | state.o).bit_count()
        return value


def leaves(max_depth: int, plain_depth: dict[str, int]) -> None:
    print("\n2. The bot's search (NegaScout, table, lookahead) against the minimal tree")
    print(f"{'position':8} {'d':>2} {'value':>5} {'nodes':>9} {'leaves':>8} {'expanded':>9} "
          f"{'minimal tree':>13} {'plain a-b':>10} {'s':>6}")
    for name, state in positions():
        game = _CountingLookahead()
        table = TranspositionTable(1 << 20)
        branching = len(game.legal_moves(state))
        for depth in range(1, max_depth + 1):
            game.covered = game.frontiers = 0
            result, seconds = timed(lambda: SEARCHES["negascout"](game, state, depth, table=table))
            plain = str(alphabeta(AdjacencyGame(), state, depth).leaves) if depth <= plain_depth[name] else ""
            print(f"{name:8} {depth:>2} {result.value:>+5} {result.nodes:>9} {result.leaves:>8} "
                  f"{result.leaves + game.covered - game.frontiers:>9} {minimal_tree(falling(branching, depth)):>13,} "
                  f"{plain:>10} {seconds:>6.2f}")


def searches(max_depth: dict[str, int]) -> None:
    print("\n3. Cumulative seconds to finish each depth (a fresh table each; wall time), the process's CPU")
    print("   seconds for all of them (less disturbed by other work on the machine), and the last value")
    for name, state in positions():
        print(f"{name}: depth " + " ".join(f"{depth:>6}" for depth in range(1, max_depth[name] + 1)) + "    CPU")
        for search, run in SEARCHES.items():
            game, table, total, cells = LookaheadGame(), TranspositionTable(1 << 20), 0.0, []
            guess: Value = 0
            cpu = time.process_time()
            for depth in range(1, max_depth[name] + 1):
                options = {"first_guess": guess} if search == "mtdf" else {}
                result, seconds = timed(lambda: run(game, state, depth, table=table, **options))
                total, guess = total + seconds, result.value
                cells.append(f"{total:6.2f}")
            cpu = time.process_time() - cpu
            print(f"  {search:>9}: " + " ".join(cells) + f" {cpu:6.2f}   value {guess:+}")


def fresh_process(seconds: float) -> list[float]:
    """Run :data:`FIRST_CALL` in a new interpreter; returns its printed numbers."""
    output = subprocess.run([sys.executable, "-c", FIRST_CALL, str(seconds)], capture_output=True, text=True,
                            check=True, cwd=Path(__file__).resolve().parent.parent).stdout
    return [float(word) for word in output.split()]


def bot_from_opening() -> None:
    print("\n4. The bot in 5 s from the opening, first move of a fresh process")
    startup, seconds, depth, value, nodes = fresh_process(5.0)
    print(f"completed depth {depth:.0f}, value {value:+.0f}, {nodes:,.0f} nodes, choose took {seconds:.3f} s "
          f"(start-up and imports before it: {startup:.3f} s)")


def time_limits(limits: dict[float, int], processes: int) -> None:
    print("\n5. The largest choose time as a share of the limit (target: under 1.05)")
    for limit, games in limits.items():
        shares, depths = [], []
        for index in range(games):
            bot = AlphaBetaBot()
            x, o = (bot, HillClimbBot(seed=index)) if index == 0 else (HillClimbBot(seed=index), bot)
            record = play_game(AdjacencyGame(), x, o, seconds=limit, seed=index)
            mine = range(index, len(record.moves), 2)  # the bot is X in game 0, O in game 1
            shares += [record.seconds[ply] / limit for ply in mine]
            depths += [record.depths[ply] or 0 for ply in mine]
        firsts = [fresh_process(limit) for _ in range(processes)]
        first_shares = [seconds / limit for _, seconds, *_ in firsts]
        print(f"limit {limit:5.2f} s: {len(shares)} moves in {games} games, "
              f"share mean {statistics.mean(shares):.3f} "
              f"max {max(shares):.3f}, depth {min(depths)}-{max(depths)}; first move of {processes} fresh "
              f"processes: share max {max(first_shares):.3f} (start-up {max(f[0] for f in firsts):.2f} s)")


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    unknown = [argument for argument in sys.argv[1:] if argument != "--quick"]
    if unknown:
        print(f"unknown argument {unknown[0]!r}: give nothing or --quick", file=sys.stderr)
        raise SystemExit(2)
    node_rates({"opening": [3] if quick else [3, 4], "midgame": [3, 4] if quick else [3, 4, 5]}, copy_depth=3)
    leaves(7 if quick else 8, {"opening": 3 if quick else 4, "midgame": 4 if quick else 5})
    searches({"opening": 7, "midgame": 8} if quick else {"opening": 8, "midgame": 9})
    bot_from_opening()
    time_limits({0.1: 1, 1.0: 1} if quick else {0.05: 2, 0.2: 2, 1.0: 2, 5.0: 1}, processes=2 if quick else 5)


if __name__ == "__main__":
    main()
