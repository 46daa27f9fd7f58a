"""The search at Python's speed limit, and what each enhancement buys (issue 15, goals 1-3; not a test).

Run from the repository root:  .venv/bin/python benchmarks/search_enhancements.py [--quick]

It prints three tables and writes them, with their provenance (date, commit, machine, command),
to ``gamelib/data/benchmarks/search_enhancements.json``, which lesson 6 reads:

1. **Node rates.** The course's plain alpha-beta (``gamelib.search.negamax.alphabeta`` on the plain
   ``AdjacencyGame``: no table, moves a1..h8, window (-64, 64); it runs the bitboard loop of
   ``gamelib.games.adjacency.native``) against :func:`yardstick`, a minimal pure-Python bitboard negamax
   of the kind a student would write in 40 lines (kept here as a yardstick only; the course never
   uses it), and against the traced skeleton run without a tracer (the same game as a subclass,
   which the bitboard loop does not take). Same positions and depths, in one process,
   interleaved, best of 5 rounds (a small search repeated to last 0.2 s); the three must enter
   the same number of nodes and find the same value. Target: alpha-beta at 0.7x the yardstick's
   rate or more.
2. **Depth in 5 s.** The alpha-beta bot's completed depth in 5 s from the opening and from
   :data:`MIDGAME`, under rule 8 and rule 4 (the midgame's marks read as a rule-4 position).
   ``benchmarks/bot_search_speed.py`` prints the same beside a commit from before the bot's
   bitboard loop (``gamelib.games.adjacency.native``), with both versions' node rates.
3. **Leaves against the minimal tree.** At depth 8 in the midgame: NegaScout with iterative
   deepening on the lookahead game (depth-1 nodes valued by the lookahead count as one
   evaluation), the static evaluations made at depth 8 (all evaluations of deepening to 8 less those
   of deepening to 7: the depth-8 search alone, except with aspiration windows, where depth 8's
   window fails high and the figure counts that failed search and its re-search, 5,244 and 295 of
   the 5,539) against Knuth & Moore's minimal tree b1 b3 b5 b7 + b2 b4 b6 b8 - 1
   for the moves at each ply (32, 31, ..., 25 from the midgame: 1,305,704;
   ``benchmarks/minimal_tree.py``), with each
   enhancement switched on in turn: none (square order, no table), the table's move (a
   2^20-slot table kept from depth to depth), the lookahead's gain order (and its bounds), killer
   moves, the history heuristic, enhanced transposition cut-offs, aspiration windows (half-width
   1 around the value two depths back, whose last move is the same side's). Also the CPU seconds
   of deepening to 8 and the depth each setting completes in 5 s. ``--quick`` leaves out "none"
   (about 10 million nodes, minutes) and the 5 s depths.

Measured on the course's 2-core machine, shared with other jobs, on 23 November 2026 (the full
run whose figures ``gamelib/data/benchmarks/search_enhancements.json`` holds; wall-time figures vary by
30% or more from run to run there, CPU seconds less):

* node rates: plain alpha-beta 3.7-4.1 M nodes/s, the yardstick 2.5-2.8 M: a ratio of 1.48-1.62
  (target 0.7; the issue measured 0.22 before the bitboard loop, and earlier runs on a busier
  machine gave 1.1-1.6); the untraced skeleton 0.46-0.58 M;
* depth in 5 s: the bot completed depth 8 from the opening and 9 in the midgame under rule 8, and
  8 and 9 under rule 4; each time its clock did not start the next depth, predicted to need more
  than the time left (depth 9 from the opening: 4.96 s predicted, 3.1 s left);
* leaves at depth 8 in the midgame (minimal tree 1,305,704): none 8,476,652 (6.49x), table move
  1,097,162 (0.84x), gain order 5,377 (0.0041x), killers 5,804, history 5,799, ETC 5,481,
  aspiration 5,539, its failed-window search included (all 0.0041-0.0044x); CPU seconds of
  deepening to 8: 37.4, 5.2, 0.43, 0.63, 0.74, 1.15, 1.42; depth in 5 s: 6, 7, 9, 9, 9, 8, 8. The
  bot keeps killers, history, ETC and aspiration off: they buy no leaves once the gain order is on
  (all of depth 8's work counted), and cost time.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.minimal_tree import falling, minimal_tree  # noqa: E402
from benchmarks.provenance import provenance, quick_argument  # noqa: E402
from gamelib.games.adjacency import FULL, AdjacencyGame, AdjacencyState  # noqa: E402
from gamelib.games.adjacency.lookahead import LookaheadGame  # noqa: E402
from gamelib.play.bots.alphabeta import AlphaBetaBot  # noqa: E402
from gamelib.search.deepening import iterative_deepening  # noqa: E402
from gamelib.search.heuristics import Heuristics  # noqa: E402
from gamelib.search.negamax import alphabeta, negascout  # noqa: E402
from gamelib.search.ttable import TranspositionTable  # noqa: E402

MIDGAME = "4OOOO/4OOXO/4OXOO/3XXXXX/3XOOOX/XOX2O2/XOO5/XXX5 X 32 r8"
"""The midgame position of ``benchmarks/adjacency_search.py`` (X to move, 32 empty squares)."""

DATA = ROOT / "gamelib" / "data" / "benchmarks" / "search_enhancements.json"


def yardstick(mine: int, theirs: int, plies: int, depth: int, masks: Sequence[int]) -> tuple[int, int]:
    """A minimal bitboard negamax with alpha-beta (fail-hard, window (-64, 64), moves a1..h8): the
    value for the side to move and the nodes entered. The yardstick of table 1, nothing more."""
    nodes = 0

    def negamax(mine: int, theirs: int, plies: int, depth: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if not depth or not plies or mine | theirs == FULL:
            return mine.bit_count() - theirs.bit_count()
        empty = FULL ^ (mine | theirs)
        while empty:
            low = empty & -empty
            empty ^= low
            flipped = theirs & masks[low.bit_length() - 1]
            value = -negamax(theirs ^ flipped, mine | low | flipped, plies - 1, depth - 1, -beta, -alpha)
            if value > alpha:
                if value >= beta:
                    return value
                alpha = value
        return alpha

    return negamax(mine, theirs, plies, depth, -64, 64), nodes


class SkeletonGame(AdjacencyGame):
    """The plain Adjacency game under another name: plain alpha-beta takes the bitboard loop only
    for AdjacencyGame itself, so this runs the skeleton (untraced)."""

    __slots__ = ()


def positions(rule: int = 8) -> dict[str, AdjacencyState]:
    game = AdjacencyGame(rule=rule)
    board, side, plies, _ = MIDGAME.split()
    return {"opening": game.root, "midgame": game.from_notation(f"{board} {side} {plies} r{rule}")}


def node_rates(depths: dict[str, list[int]], rounds: int) -> list[dict[str, Any]]:
    print("1. Nodes per second: plain alpha-beta, the yardstick, the untraced skeleton (best of "
          f"{rounds} interleaved rounds)")
    print(f"{'position':8} {'d':>2} {'nodes':>9} {'alpha-beta':>11} {'yardstick':>10} {'ratio':>6} {'skeleton':>9}")
    game, skeleton = AdjacencyGame(), SkeletonGame()
    rows = []
    for name, state in positions().items():
        for depth in depths[name]:
            best = {"alphabeta": math.inf, "yardstick": math.inf, "skeleton": math.inf}
            repeats = 1
            for _ in range(rounds):
                found, seconds = timed(lambda: alphabeta(game, state, depth), repeats)
                best["alphabeta"] = min(best["alphabeta"], seconds)
                repeats = max(1, math.ceil(0.2 / seconds))  # a small search is timed over 0.2 s or more
                (value, nodes), seconds = timed(
                    lambda: yardstick(state.x, state.o, state.plies_left, depth, game.masks), repeats)
                best["yardstick"] = min(best["yardstick"], seconds)
                slow, seconds = timed(lambda: alphabeta(skeleton, state, depth))
                best["skeleton"] = min(best["skeleton"], seconds)
                if not found.nodes == nodes == slow.nodes or not found.value == value == slow.value:
                    raise SystemExit(f"different trees at {name} depth {depth}: {found}, {(value, nodes)}, {slow}")
            rates = {search: found.nodes / seconds for search, seconds in best.items()}
            ratio = rates["alphabeta"] / rates["yardstick"]
            print(f"{name:8} {depth:>2} {found.nodes:>9,} {rates['alphabeta']:>11,.0f} {rates['yardstick']:>10,.0f} "
                  f"{ratio:>6.2f} {rates['skeleton']:>9,.0f}")
            rows.append({"position": name, "depth": depth, "nodes": found.nodes, "ratio": round(ratio, 2),
                         **{f"{search}_nodes_per_second": round(rate) for search, rate in rates.items()}})
    return rows


def timed(run: Callable[[], Any], repeats: int = 1) -> tuple[Any, float]:
    """``run()``'s result and the seconds one call took, averaged over ``repeats`` calls."""
    start = time.perf_counter()
    for _ in range(repeats):
        result = run()
    return result, (time.perf_counter() - start) / repeats


def bot_depths(seconds: float) -> list[dict[str, Any]]:
    print(f"\n2. The alpha-beta bot's completed depth in {seconds:g} s (a fresh bot each)")
    rows = []
    for rule in (8, 4):
        for name, state in positions(rule).items():
            decision = AlphaBetaBot().choose(AdjacencyGame(rule=rule), state, seconds)
            print(f"rule {rule} {name:8} depth {decision.depth}, {decision.seconds:.2f} s, {decision.nodes:,} nodes "
                  f"({decision.note})")
            rows.append({"rule": rule, "position": name, "depth": decision.depth,
                         "seconds": round(decision.seconds, 2), "nodes": decision.nodes, "note": decision.note})
    return rows


class CountingGame(LookaheadGame):
    """The lookahead game counting static evaluations: ``evaluate`` calls and the depth-1 nodes the
    lookahead values (each one evaluation, as the search counts them)."""

    __slots__ = ("evaluations",)

    def __init__(self) -> None:
        super().__init__()
        self.evaluations = 0

    def evaluate(self, state: AdjacencyState) -> int:
        self.evaluations += 1
        return super().evaluate(state)

    def frontier_value(self, state: AdjacencyState) -> int | None:
        value = super().frontier_value(state)
        self.evaluations += value is not None
        return value


LADDER: list[tuple[str, dict[str, Any]]] = [
    ("none", {"table": False, "order": "square"}),
    ("table move", {"order": "square"}),
    ("gain order", {}),
    ("killer moves", {"killers": True}),
    ("history heuristic", {"killers": True, "history": True}),
    ("ETC", {"killers": True, "history": True, "etc": True}),
    ("aspiration windows", {"killers": True, "history": True, "etc": True, "aspiration": 1}),
]
"""Each enhancement switched on in turn, on top of those before it."""


def deepen(options: dict[str, Any], depth: int, seconds: float | None = None) -> tuple[int, float, Any]:
    """Iterative deepening of the midgame with ``options`` to ``depth`` (or for ``seconds``):
    (static evaluations, CPU seconds, the Deepening)."""
    game = CountingGame()
    state = game.from_notation(MIDGAME)
    switches = {name: options.get(name, False) for name in ("killers", "history", "etc")}
    aspiration = options.get("aspiration")
    start = time.process_time()
    found = iterative_deepening(
        game, state, depth, search=negascout, seconds=seconds,
        table=TranspositionTable(1 << 20) if options.get("table", True) else _NoTable(),
        order=(lambda game, state, moves: moves) if options.get("order") == "square" else None,
        heuristics=Heuristics(**switches) if any(switches.values()) else None,
        aspiration=aspiration, same_parity=aspiration is not None)
    return game.evaluations, time.process_time() - start, found


class _NoTable(TranspositionTable):
    """A table that keeps nothing (iterative deepening always has one): every lookup misses."""

    def __init__(self) -> None:
        super().__init__(1)

    def save(self, key: Any, depth: int | None, value: Any, bound: str, move: Any, nodes: int = 1) -> None:
        """Keep nothing."""


def ladder(depth: int, quick: bool, seconds: float) -> dict[str, Any]:
    state = AdjacencyGame().from_notation(MIDGAME)
    minimal = minimal_tree(falling(len(AdjacencyGame().legal_moves(state)), depth))
    print(f"\n3. Depth {depth} in the midgame: static evaluations against the minimal tree ({minimal:,}), each "
          "enhancement on in turn")
    print(f"{'enhancements up to':20} {'leaves':>10} {'ratio':>7} {'CPU s':>7} {'value':>5} "
          f"{f'depth in {seconds:g} s':>13}")
    rows = []
    for name, options in LADDER:
        if quick and name == "none":
            continue
        total, cpu, found = deepen(options, depth)
        before = deepen(options, depth - 1)[0]
        reached = None if quick else deepen(options, 64, seconds)[2].depth
        leaves = total - before
        print(f"{name:20} {leaves:>10,} {leaves / minimal:>7.4f} {cpu:>7.2f} {found.result.value:>+5} "
              f"{'' if reached is None else reached:>13}")
        rows.append({"enhancement": name, "leaves": leaves, "ratio": round(leaves / minimal, 5),
                     "cpu_seconds": round(cpu, 2), "value": found.result.value, "depth_in_time": reached})
    return {"depth": depth, "minimal_tree": minimal, "rows": rows}


def main() -> None:
    quick = quick_argument(sys.argv[1:])
    rates = node_rates({"opening": [4] if quick else [4, 5], "midgame": [5] if quick else [5, 6]}, 3 if quick else 5)
    depths = [] if quick else bot_depths(5.0)
    leaves = ladder(8, quick, 5.0)
    if not quick:
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps({"provenance": provenance("python benchmarks/search_enhancements.py"), "node_rates": rates, "bot_depths": depths,
                                    "leaves": leaves}, indent=1) + "\n")
        print(f"\nwritten to {DATA.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
