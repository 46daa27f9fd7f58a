"""The alpha-beta bot's time rules, before and after (not a test).

Run from the repository root:  .venv/bin/python benchmarks/time_rules.py [--games N] [--five N] [--match GAMES]

The bot with ``clock="plain"`` (deepen until the deadline, throw an unfinished depth away: the bot
before :mod:`gamelib.search.time_rules`) and with ``clock="engine"`` (keep a move the unfinished depth
proved better, do not start a depth predicted not to finish, a tenth of the search's budget, the
limit less the bot's margin, kept for a fail low or a depth whose first move is back) play through
the same positions: ``--games`` games of 28 rounds (rule 8), each from four seeded random moves
continued by the bot at fixed depth 3, every position from the fifth ply to the last move, in game
order, with one bot per setting and game so its table is kept from move to move as in play; the two
bots take turns on each position, so a change in the machine's load hits both alike. It prints, with
wall times from time.perf_counter on whatever else the machine is running:

1. For limits of 0.2 s and 1 s: the mean seconds a move, the mean depth completed, how often the
   move came from an unfinished depth, how often a depth was not started, how often a fail low
   extended the deadline, how often a depth ran on past the normal deadline with its first move
   back (rule 4) and how often it then finished, the positions where one setting completed a
   deeper search than the other, and how many of the depths the engine bot did not start the
   plain bot finished.
2. How well the next depth's time is predicted from the plain bot's own depths (every depth whose
   three predecessors took at least 2 ms): the median and the 90th percentile of the factor by
   which the prediction misses, for the two-back rule in times, time(d-1) * time(d-2) / time(d-3)
   (the clock's rule before 23 November 2026), in nodes, time(d-1) * nodes(d-2) / nodes(d-3)
   (:func:`gamelib.search.time_rules.predict_seconds` now), and for the one-back effective branching
   factor time(d-1)^2 / time(d-2). Measured on the idle machine, 23 November 2026, ``--games 2``:
   in times median 1.45x, 90th percentile 2.08x over 38 depths; in nodes without the clock's
   :data:`~gamelib.search.time_rules.MIN_NODES` 1.40x and 1.95x over the same 38; one back 2.63x and
   7.64x. Again with the clock's rule in nodes (a depth three back of fewer than 500 nodes gives
   no prediction): in times 1.40x and 2.48x over 36 depths, in nodes 1.32x and 2.17x over 29 of
   them, one back 2.58x and 8.16x.
3. The largest ``choose`` time as a share of its limit, over every move of the engine bot at limits
   of 0.05, 0.2, 0.5 and 1 s, and 5 s on ``--five`` positions spread over the games (it should stay
   under 1; the script only prints it and asserts nothing, and on a heavily loaded machine moves have
   gone a few milliseconds over, as recorded below), and the largest and mean share at each limit.
4. With ``--match GAMES``: a match between the two settings at 0.2 s a move, in pairs of games from
   the same four random moves with colours swapped, in this process one game at a time, with the
   engine bot's score (win 1, draw 1/2) and its 95% interval (Student's t on per-game scores,
   :func:`gamelib.play.match_stats.score_interval`), and how many pairs split 1-1 (each bot won
   with the same colour: from one opening the two bots often play the same game).

Part 3 measured on 23 November 2026, ``--games 2 --five 30`` (446 moves: 104 at each of 0.05,
0.2, 0.5 and 1 s, 30 at 5 s). With one other job on the machine (load average about 3; 624 moves,
without 5 s): largest share 0.977. With three 5 s matches and other benchmarks beside it (load
average 4.5 to 5, more than two runnable processes a core): largest shares 1.011 at 0.05 s and
1.030 at 0.5 s (2 moves of 446 over), 0.865 at 5 s (mean 0.362). The clock then learned to keep
back the longest gap between its readings (:meth:`gamelib.search.time_rules.MoveClock.passed`); run
again under the same load: 1.035 at 0.2 s (0.207 s; 1 move of 446 over), 0.794 at 0.05 s, 0.935
at 0.5 s, 0.946 at 1 s, 0.850 at 5 s (mean 0.365). Moves that go over by a few milliseconds then
are stalls of the process itself, waiting for a core after the search has stopped; no deadline
check can see them coming; a tournament's grace (0.5 s a move unless set, ``--grace``) absorbs them.

With rule 4 of the clock (a depth whose first move is back runs on to the hard limit), the same
run: at load 2-3 (a notebook test beside it) the largest share was 1.014 (0.203 s at 0.2 s; 1
move of 446 over); on the idle machine (load 0.1-1.0) 0.963 (0.482 s at 0.5 s), at 5 s 0.953
(mean 0.433). Run-ons (part 1, idle): 23 of 104 moves at 0.2 s, 6 of which finished the depth; 35
at 1 s, 2 finished. With rule 2 in nodes as well, idle: largest share 0.955 (4.774 s at 5 s);
0.907 at 0.2 s, 0.937 at 0.5 s, 0.939 at 1 s, 0.774 at 0.05 s; no move of the 446 over its limit.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState  # noqa: E402
from gamelib.games.user_text import whole_number  # noqa: E402
from gamelib.play.bots.alphabeta import AlphaBetaBot  # noqa: E402
from gamelib.play.commands import option  # noqa: E402
from gamelib.play.match_stats import score_interval  # noqa: E402
from gamelib.search.time_rules import predict_seconds  # noqa: E402

GAME = AdjacencyGame()


@dataclass(frozen=True)
class Move:
    """One ``choose``: its wall seconds, the limit, the depth completed, the note, and the finished
    depths' seconds."""

    seconds: float
    limit: float
    depth: int
    note: str
    times: tuple[float, ...]
    nodes: tuple[int, ...]


def opening(seed: int, plies: int = 4) -> AdjacencyState:
    """The position after ``plies`` random moves drawn with ``random.Random(seed)``."""
    rng, state = random.Random(seed), GAME.root
    for _ in range(plies):
        state = GAME.result(state, rng.choice(GAME.legal_moves(state)))
    return state


def reference_game(seed: int) -> list[AdjacencyState]:
    """The positions of a game from :func:`opening` (``seed``) played on by the bot at depth 3."""
    bot, state, positions = AlphaBetaBot(depth=3), opening(seed), []
    while not GAME.is_terminal(state):
        positions.append(state)
        state = GAME.result(state, bot.choose(GAME, state, 1.0).move)
    return positions


def walk(positions: Sequence[AdjacencyState], clocks: Sequence[str], limit: float) -> dict[str, list[Move]]:
    """One bot for each of ``clocks`` choosing a move in each of ``positions`` in turn with
    ``limit`` seconds, the bots taking turns on each position (so a change in the machine's load
    hits both alike)."""
    bots = {clock: AlphaBetaBot(clock=clock) for clock in clocks}
    moves: dict[str, list[Move]] = {clock: [] for clock in clocks}
    for state in positions:
        for clock, bot in bots.items():
            start = time.perf_counter()
            decision = bot.choose(GAME, state, limit)
            seconds = time.perf_counter() - start
            assert bot.last_search is not None
            moves[clock].append(Move(seconds, limit, decision.depth or 0, decision.note, bot.last_search.times,
                                     tuple(result.nodes for result in bot.last_search.iterations)))
    return moves


def share(moves: Sequence[Move], text: str) -> str:
    """How many of ``moves`` have ``text`` in their note, as "k of n"."""
    return f"{sum(text in move.note for move in moves)} of {len(moves)}"


def compare(games: Sequence[list[AdjacencyState]], limit: float) -> dict[str, list[Move]]:
    """Part 1 at one limit; returns the moves of each setting."""
    walks = [walk(positions, ("plain", "engine"), limit) for positions in games]
    runs = {clock: [move for moves in walks for move in moves[clock]] for clock in ("plain", "engine")}
    print(f"\nlimit {limit} s, {len(runs['plain'])} positions")
    for clock, moves in runs.items():
        print(f"  {clock:6}: mean {statistics.fmean(m.seconds for m in moves):.3f} s a move, "
              f"mean depth {statistics.fmean(m.depth for m in moves):.2f}, "
              f"max {max(m.seconds / m.limit for m in moves):.3f} of the limit; "
              f"unfinished depth played {share(moves, 'unfinished but proved')}, "
              f"depth not started {share(moves, 'did not start')}, "
              f"fail low extended {share(moves, 'failed low')}, ran on with the first move back "
              f"{share(moves, 'ran on')} (finished the depth {share(moves, 'and finished it')})")
    deeper = sum(e.depth > p.depth for p, e in zip(runs["plain"], runs["engine"]))
    shallower = sum(e.depth < p.depth for p, e in zip(runs["plain"], runs["engine"]))
    print(f"  engine deeper than plain on {deeper} positions, shallower on {shallower}")
    skipped = [(p, e) for p, e in zip(runs["plain"], runs["engine"]) if "did not start" in e.note]
    print(f"  of the {len(skipped)} depths the engine bot did not start, the plain bot finished "
          f"{sum(p.depth > e.depth for p, e in skipped)}")
    return runs


MIN_SECONDS = 0.002
"""Part 2 compares the rules on depths whose three predecessors took at least this (seconds), where
the rule in times has a denominator the timer can measure."""

Rule = Callable[[Sequence[float], Sequence[int]], float | None]
"""A prediction of the next depth's seconds from the finished depths' seconds and nodes."""


def prediction_errors(moves: Sequence[Move], rule: Rule) -> list[float]:
    """For every finished depth whose three predecessors took >= MIN_SECONDS: the factor
    max(predicted / actual, actual / predicted) of ``rule``'s prediction from the depths before."""
    factors = []
    for move in moves:
        for depth in range(3, len(move.times)):
            before = move.times[:depth]
            if min(before[-3:]) >= MIN_SECONDS:
                predicted = rule(before, move.nodes[:depth])
                if predicted is not None:
                    factors.append(math.exp(abs(math.log(predicted / move.times[depth]))))
    return factors


def two_back(times: Sequence[float], nodes: Sequence[int]) -> float | None:
    """The clock's prediction from times alone: time(d-1) * time(d-2) / time(d-3)."""
    return times[-1] * times[-2] / times[-3] if len(times) >= 3 else None


def one_back(times: Sequence[float], nodes: Sequence[int]) -> float | None:
    """The one-back effective branching factor's prediction: time(d-1) * time(d-1) / time(d-2)."""
    return times[-1] * times[-1] / times[-2] if len(times) >= 2 else None


def quantiles(factors: Sequence[float]) -> str:
    ordered = sorted(factors)
    return (f"median {statistics.median(ordered):.2f}x, 90th percentile "
            f"{ordered[int(0.9 * (len(ordered) - 1))]:.2f}x over {len(ordered)} depths")


def match(pairs: int, seconds: float) -> None:
    """Part 4: ``pairs`` pairs of games, engine against plain, colours swapped within a pair."""
    scores, start = [], time.perf_counter()
    for pair in range(pairs):
        for engine_side in ("X", "O"):
            bots = {side: AlphaBetaBot(clock="engine" if side == engine_side else "plain") for side in ("X", "O")}
            state = opening(1000 + pair)
            while not GAME.is_terminal(state):
                state = GAME.result(state, bots[state.to_move.value].choose(GAME, state, seconds).move)
            x, o = GAME.counts(state)
            lead = (x - o) if engine_side == "X" else (o - x)
            scores.append(1.0 if lead > 0 else 0.5 if lead == 0 else 0.0)
    interval = score_interval(scores)
    assert interval is not None
    wins, draws = sum(s == 1 for s in scores), sum(s == 0.5 for s in scores)
    split = sum(scores[i] + scores[i + 1] == 1 for i in range(0, len(scores), 2))
    print(f"\nmatch at {seconds} s a move, {len(scores)} games ({time.perf_counter() - start:.0f} s): engine "
          f"{wins} wins, {draws} draws, {len(scores) - wins - draws} losses, score {statistics.fmean(scores):.3f}, "
          f"95% interval [{interval[0]:.3f}, {interval[1]:.3f}]; {split} of {len(scores) // 2} pairs split 1-1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=option(whole_number, 1, 20, "a number of games"), default=2, help="reference games (about 52 positions each)")
    parser.add_argument("--five", type=option(whole_number, 0, 1000, "a number of positions"), default=0,
                        help="positions (spread over the reference games) also played at 5 s a move in part 3")
    parser.add_argument("--match", type=option(whole_number, 0, 10_000, "a number of games"), default=0, help="games of the match (0: none; even)")
    options = parser.parse_args()
    games = [reference_game(seed) for seed in range(options.games)]
    runs = {limit: compare(games, limit) for limit in (0.2, 1.0)}
    plain = [move for run in runs.values() for move in run["plain"]]
    print(f"\nprediction of the next depth's time from the plain bot's depths: two back "
          f"{quantiles(prediction_errors(plain, two_back))}; two back in nodes "
          f"{quantiles(prediction_errors(plain, predict_seconds))}; one back {quantiles(prediction_errors(plain, one_back))}")
    engine = [move for run in runs.values() for move in run["engine"]]
    engine += [move for limit in (0.05, 0.5) for positions in games for move in walk(positions, ["engine"], limit)["engine"]]
    if options.five:
        every = [state for positions in games for state in positions]
        engine += walk(every[::max(1, len(every) // options.five)][:options.five], ["engine"], 5.0)["engine"]
    worst = max(engine, key=lambda move: move.seconds / move.limit)
    print(f"\nlargest time share of the engine bot over {len(engine)} moves at "
          f"{min(m.limit for m in engine):g}-{max(m.limit for m in engine):g} s: "
          f"{worst.seconds / worst.limit:.3f} ({worst.seconds:.3f} s at {worst.limit} s)")
    for limit in sorted({move.limit for move in engine}):
        at = [move.seconds / move.limit for move in engine if move.limit == limit]
        print(f"  at {limit:g} s: {len(at)} moves, largest share {max(at):.3f}, mean {statistics.fmean(at):.3f}")
    if options.match:
        match(options.match // 2, 0.2)


if __name__ == "__main__":
    main()
