"""The alpha-beta bot's search before and after a change, side by side in one process (issue 15, goal 2; not a test).

Run from the repository root:  .venv/bin/python benchmarks/bot_search_speed.py [COMMIT] [--quick] [--five N]
[--only-five]

``COMMIT`` (default ``8d5fc8a``, main before the lazy depth-3 bounds of
``gamelib.games.adjacency_lookahead`` (now ``gamelib.games.adjacency.lookahead``) and the loop's own
table lookups; ``e2a74ee`` is main before the bot's bitboard loop, now
``gamelib.games.adjacency.native``) is exported with ``git archive`` to a
temporary directory and its ``gamelib`` imported beside the working tree's (each set of modules kept apart in
``sys.modules``), so both run in this process, interleaved, on the same load. It prints:

1. **Node rates of the bot's search**: iterative deepening with NegaScout on the lookahead game and
   a fresh 2^20-slot table, as the bot runs it (``LookaheadGame`` itself, so the working tree takes
   the loop), to depth 8 from the opening and from the midgame position of
   ``benchmarks/search_enhancements.py``, under rule 8 and rule 4; best of the rounds' CPU
   seconds (``time.process_time``: on a shared machine less noisy than wall time), with the
   garbage collector off, as the bot runs. Both versions must enter the same nodes and find the
   same value and line.
2. **Deepening to 9 from the opening under rule 8**: the CPU seconds of each round (goal 2 asks
   for depth 9 in 5 s; full runs only).
3. **Depth completed in 5 s**: a fresh bot of each version (``AlphaBetaBot().choose`` with 5 s)
   from the same four positions, with the Decision's note (why it stopped).

The load average (``os.getloadavg``) is printed with the figures: on the course's 2-core machine
other jobs take one or both cores, and wall-time figures then vary by 30% or more.

Measured on 23 November 2026 at a load average of 2.7 (two long experiments on the two cores),
against ``e2a74ee``: deepening to 8 takes 1.58-1.68x less CPU time (rule 8 opening 1.13 s -> 0.67
s, 151,000 -> 253,000 nodes/s; midgame 1.61x; rule 4 1.68x and 1.58x). In 5 s the bot completes,
before -> after: rule 8 opening 8 -> 8 (depth 9 now starts and gets 834,000 of its 975,000 nodes
done: deepening to 9 takes 4.4-4.8 CPU s, against 7.2-7.5 before, and the bot has 4.3 s), rule 8
midgame 9 -> 9 (depth 10 predicted 4.3 s with 2.6 s left), rule 4 opening 8 -> 9, rule 4 midgame
10 -> 10 (depth 11: 13.6 CPU s to deepen to it; rule 8's 30.5 s).

Measured on 23 November 2026 at a load average of 2.9-3.0, against ``8d5fc8a`` (the same nodes,
values and lines): deepening to 8 takes 1.13x less CPU time from the rule 8 opening (0.72 s ->
0.63 s, 238,000 -> 269,000 nodes/s), 1.09x in the rule 8 midgame, 1.00x and 1.06x under rule 4
(an earlier run of the same code: 1.23x, 1.12x, 1.04x, 1.08x; the load moves such figures by
10%). Deepening to 9 from the rule 8 opening: 5.31, 5.04, 5.13 CPU s before, 4.97, 4.26, 4.69
after (1.09-1.18x). The bot still completes depth 8 there in 5 s (it stops at 4.31 s of wall time
with 976,000 of the 1,145,298 nodes of deepening to 9 done, against 811,000 before): at this load
depth 9 is about 1.1-1.15x out of reach. Elsewhere in 5 s, before -> after: rule 8 midgame 9 -> 9
(1.86 s -> 1.69 s), rule 4 opening 9 -> 9 (4.29 s -> 3.44 s), rule 4 midgame 10 -> 10 (3.20 s ->
2.70 s). Where the time goes now (rule 8 opening, depth 8): the lookahead's groups about 0.15-0.2
s of 0.58 s, its frontier values about 0.04 s, the loop and the table the rest; keeping the counts
(:class:`gamelib.games.adjacency.lookahead._Remembered`: 73% of its requests answered from it at
depth 8) saves about 8%, and a larger memory for them (2^17 or 2^18 bitboards) saved nothing measurable at
depth 9.

Measured on 23 November 2026 (load average 2.6-2.8: three matches on the two cores), what is left
at depth 9 from the rule 8 opening (1,145,298 nodes in all, 974,630 in depth 9 itself, of which
338,219 leaves; 5.5-6.0 CPU s at that load). A sampling profile (py-spy, 500 Hz) puts about half
the time in the loop's own lines, 24% in the groups (16% in the depth-2 bounds, called at 421,298
nodes), 12% in frontier values (380,963), 15% in counting bitboards not yet remembered, 5% in the
table's save. The table is not the limit: 2^22 slots instead of 2^20, or any replacement scheme,
changes the nodes by 1-3% (1,127,476 to 1,163,839). Two changes tried and not kept: (1) asking a
depth-2 node without a table move for its groups' first bound alone and failing low on it before
making the groups: at depth 8 that bound fails low at 20,216 of the 60,122 such nodes, so the other
two in three computed the bounds twice, and the search took 9% more CPU time; (2) the frontier
value's highest count written out instead of calling the counting helper: no gain beyond the
noise of two runs of the same code (up to 10% a case, 1% over the four cases). On the idle
machine, a third: the table's save written out in the loop for a depth-preferred one-tier table
(no method call, no replacement-strategy call): deepening to 9 from the rule 8 opening best of
four 4.14 -> 4.21 CPU s, rule 8 midgame to 9 1.41 -> 1.38 s, rule 4 opening to 8 0.35 -> 0.34 s:
from 2% slower to 4% faster, not worth a second copy of the save. A count memory of 2^18
bitboards instead of 2^16, twice on the idle machine: 4.5% faster to depth 9 from the rule 8
opening (best of four), then 6% slower; keeping the emptied memory as a second generation: 4-7%
slower. Between runs of the same code the best of four moves by 5-10% here, so nothing under
about 10% can be shown this way, and the memory stays at 2^16.

On an idle machine (load average 0.5, 23 November 2026, 17:22 UTC) the bot's 5 s search
(``AlphaBetaBot().choose``) completes: rule 8 opening depth 8, with depth 9 at 1,066,924 of its
1,145,298 nodes when the normal deadline (4.31 s) came: 1.07x short; rule 8 midgame 9 (depth 10
predicted 2.92 s with 2.87 s left, so not started); rule 4 opening 9; rule 4 midgame 10 (depth 11
predicted 12.4 s).

Rule 4 of the clock (:mod:`gamelib.search.time_rules`: a depth whose first root move is back when the
normal deadline comes runs on to the hard limit, 4.79 s of the 5) measured with ``898e826 --only-five
--five 3`` on the idle machine (load 0.2-0.7, 23 November 2026, 18:32 UTC), three rounds of fresh
bots, before -> after: rule 8 opening 8, 9, 8 -> 8, 9, 9 (depth 9 finished in its run-on at 4.38
s; the other run-on ended at 1,062,060 of 1,145,298 nodes); rule 8 midgame 10, 10, 10 -> 10, 10,
10 (depth 11 predicted 20-25 s); rule 4 opening 9, 8, 9 -> 9, 9, 9 (the 8: depth 9 not started,
predicted 4.39 s with 3.9 s left, from a depth 6 of a few milliseconds); rule 4 midgame 10 -> 10
(depth 11 predicted 10.2-13.6 s). Depth 11 in the midgame is 2.1-2.8x (rule 4) and 4.2-5.3x (rule
8) out of reach of this search in pure Python.

Nor is the move order the limit. Counted in depth 9's search (nodes by depth left and by what
they returned): of the 539,378 nodes that failed high, 99.7% did so on their first move. The work
is in the 46,370 depth-3 nodes that fail low: they try 379,547 moves (8.2 each; 19,431 of them
try nine or more), nearly all "near" moves, which :meth:`~gamelib.games.adjacency.lookahead.LookaheadGame.move_groups`
leaves unbounded; each such move is a depth-2 node that fails high on its first reply (359,311 of
them, each one frontier value). What could cut that work is a finite bound for each near move
(the frontier value after the opponent's best reply to it), but it costs about what the child's
own first step costs (two counts and two maxima), and the groups must come in falling bound order,
so every near move's bound would be paid for before the first is tried, at the 99,462 depth-3
nodes that fail high on their first move too. Not tried: it needs a move order that is not sorted
by bound, in the skeleton as well, and changes the nodes every search of the lookahead game enters
(lesson 6's figures with them). Nor could it close goal 2's gap: those children are 359,311 of the
1,145,298 nodes (31%), so a bound at half a child's cost would save about 15% at most, where depth
11 in the midgame needs 2-5x.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gamelib.games.user_text import whole_number
from gamelib.play.commands import option

ROOT = Path(__file__).resolve().parent.parent
BASE = "8d5fc8a"
MIDGAME = "4OOOO/4OOXO/4OXOO/3XXXXX/3XOOOX/XOX2O2/XOO5/XXX5 X 32 r8"
"""The midgame position of ``benchmarks/adjacency_search.py`` (X to move, 32 empty squares)."""


def load(path: Path) -> dict[str, Any]:
    """The classes and functions this benchmark needs from the ``gamelib`` under ``path``, imported
    after dropping any ``gamelib`` modules already loaded (the caller's references keep theirs)."""
    for name in [name for name in sys.modules if name == "gamelib" or name.startswith("gamelib.")]:
        del sys.modules[name]
    sys.path.insert(0, str(path))
    try:
        from gamelib.games.adjacency import AdjacencyGame
        try:
            from gamelib.games.adjacency.lookahead import LookaheadGame
        except ImportError:  # a commit before the game's package (issue 37)
            from gamelib.games.adjacency_lookahead import LookaheadGame  # type: ignore[no-redef]
        from gamelib.play.bots.alphabeta import AlphaBetaBot
        try:
            from gamelib.search.deepening import iterative_deepening
        except ImportError:  # a commit before iterative deepening had its own module (issue 37)
            from gamelib.search.mtdf import iterative_deepening  # type: ignore[attr-defined,no-redef]
        from gamelib.search.negamax import negascout
        from gamelib.search.ttable import TranspositionTable
    finally:
        sys.path.remove(str(path))
    return {"game": AdjacencyGame, "lookahead": LookaheadGame, "bot": AlphaBetaBot, "deepen": iterative_deepening,
            "negascout": negascout, "table": TranspositionTable}


def position(version: dict[str, Any], game: Any, name: str, rule: int) -> Any:
    if name == "opening":
        return game.root
    board, side, plies, _ = MIDGAME.split()
    return game.from_notation(f"{board} {side} {plies} r{rule}")


def deepening(version: dict[str, Any], rule: int, name: str, depth: int) -> tuple[float, int, Any, Any]:
    """CPU seconds, nodes, value and line of the bot's deepening to ``depth``."""
    game = version["lookahead"](rule=rule)
    state = position(version, game, name, rule)
    start = time.process_time()
    found = version["deepen"](game, state, depth, search=version["negascout"], table=version["table"](1 << 20))
    seconds = time.process_time() - start
    return seconds, sum(result.nodes for result in found.iterations), found.result.value, found.result.pv


CASES = [(8, "opening"), (8, "midgame"), (4, "opening"), (4, "midgame")]


def node_rates(versions: dict[str, dict[str, Any]], depth: int, rounds: int) -> None:
    print(f"1. The bot's search, deepening to {depth}: CPU seconds and nodes per second, best of {rounds} "
          f"interleaved rounds (load {os.getloadavg()[0]:.1f})")
    print(f"{'rule':>4} {'position':8} {'nodes':>9} {'before s':>9} {'before/s':>9} {'after s':>8} {'after/s':>9} "
          f"{'speed-up':>8}")
    for rule, name in CASES:
        best: dict[str, float] = {}
        found: dict[str, tuple[int, Any, Any]] = {}
        for _ in range(rounds):
            for label, version in versions.items():
                seconds, nodes, value, pv = deepening(version, rule, name, depth)
                best[label] = min(best.get(label, float("inf")), seconds)
                found[label] = (nodes, value, pv)
        if found["before"] != found["after"]:
            raise SystemExit(f"different searches at rule {rule} {name}: {found}")
        nodes = found["after"][0]
        print(f"{rule:>4} {name:8} {nodes:>9,} {best['before']:>9.2f} {nodes / best['before']:>9,.0f} "
              f"{best['after']:>8.2f} {nodes / best['after']:>9,.0f} {best['before'] / best['after']:>7.2f}x")


def opening_depth_9(versions: dict[str, dict[str, Any]], rounds: int) -> None:
    """The figure goal 2 turns on: CPU seconds to deepen to 9 from the opening under rule 8, which
    must fit in the wall time the bot's search gets in 5 s (it stops at about 4.3 s: part 3)."""
    print(f"\n2. Deepening to 9 from the opening under rule 8: CPU seconds, {rounds} interleaved rounds "
          f"(load {os.getloadavg()[0]:.1f})")
    for _ in range(rounds):
        seconds = {label: deepening(version, 8, "opening", 9)[0] for label, version in versions.items()}
        print("  ".join(f"{label} {spent:.2f} s" for label, spent in seconds.items()))


def depths(versions: dict[str, dict[str, Any]], seconds: float) -> None:
    print(f"\n3. Depth completed in {seconds:g} s by a fresh bot (load {os.getloadavg()[0]:.1f})")
    for rule, name in CASES:
        for label, version in versions.items():
            game = version["game"](rule=rule)
            decision = version["bot"]().choose(game, position(version, game, name, rule), seconds)
            print(f"rule {rule} {name:8} {label:6} depth {decision.depth:>2}, {decision.seconds:.2f} s, "
                  f"{decision.nodes:>9,} nodes; {decision.note.split('; ', 1)[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commit", nargs="?", default=BASE, help=f"the version to compare with (default {BASE})")
    parser.add_argument("--quick", action="store_true", help="part 1 only, to depth 7 in two rounds")
    parser.add_argument("--five", type=option(whole_number, 0, 20, "a number of rounds"), default=1,
                        help="how many rounds of part 3 (fresh bots given 5 s; default 1; 0 leaves it out)")
    parser.add_argument("--only-five", action="store_true", help="part 3 alone")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", arguments.commit, "gamelib"], cwd=ROOT, capture_output=True)
        if archive.returncode:
            print(f"cannot export {arguments.commit!r}: {archive.stderr.decode().strip()}", file=sys.stderr)
            raise SystemExit(2)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        versions = {"before": load(Path(folder)), "after": load(ROOT)}  # the folder stays for lazy imports
        print(f"before: {arguments.commit}; after: the working tree")
        if not arguments.only_five:
            gc.disable()  # as the bot searches (gamelib.play.bots.base.pause_collector)
            node_rates(versions, 7 if arguments.quick else 8, 2 if arguments.quick else 3)
            if not arguments.quick:
                opening_depth_9(versions, 3)
            gc.enable()
        if not arguments.quick:
            for _ in range(arguments.five):
                depths(versions, 5.0)


if __name__ == "__main__":
    main()
