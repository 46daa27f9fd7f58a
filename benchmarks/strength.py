"""Strength of the alpha-beta bot against a frozen earlier version: a match with Elo and an SPRT.

Run from the repository root:

    .venv/bin/python benchmarks/strength.py [--base 629c7bd] [--new .] [--games 200] [--time 0.2]
        [--out benchmarks/results/strength.jsonl] [--workers 1] [--elo0 0 --elo1 10]

The new version (``--new``: ``.`` for this working tree, or a git commit) plays the base version
(``--base``, a git commit exported with ``git archive`` into the temporary directory), both as
engines over the line protocol (``cmd:``), ``--games`` games at ``--time`` seconds a move in
pairs from balanced random openings (:mod:`gamelib.play.arena`), each opening once with each
version as X. After every game it prints the score, the Elo difference with its 95% interval
(pentanomial, over finished pairs), the GSPRT's log-likelihood ratio of H0: Elo = elo0 against
H1: Elo = elo1 (:mod:`gamelib.play.ratings`) and the new version's gain in final marks per opening
pair with its 95% interval; it stops as soon as the test decides (on the points). Games are
appended to ``--out`` as they end: run the same command again to resume. See
:mod:`gamelib.play.strength`.

Both engines share the machine with whatever else runs; give ``--workers 1`` on a busy machine so
that the two versions' moves are not slowed by each other's games.

Measured (2026-11-23, 2-core machine with another match running beside it, load average about 3):
commit e2a74ee (a whole-game clock, unused by these matches at a fixed 0.2 s a move; exact endgame solving and
the clock's end-of-game rules; the enhancements off) against 629c7bd, 200 games at 0.2 s, seed 0: A +97 =3 -100, score 0.492, Elo
-5.2 [-16.5, +6.0], pairs 2-1-95-2-0, LLR -2.82 (bounds -2.94, +2.94): no change in strength
shown. 95 of the 100 pairs scored 1-1 (a win each, or two draws):
from most openings O, the side that moves second and last, wins whatever either version plays
(O won 191 of the 200 games, X 6), so a pair only counts when one version fails to convert.
Then, the same way, 200 games each:

- 8d5fc8a (the bot's bitboard NegaScout loop, 1.6-1.7x the nodes a second): A +102 =1 -97,
  score 0.512, Elo +8.7 [-1.4, +18.8], pairs 0-0-97-1-2, LLR +1.75: undecided.
- 5b42b67 (also the lazy lookahead, 1.00-1.23x less CPU time over two runs of benchmarks/bot_search_speed.py): A +99 =4 -97, score 0.505, Elo +3.5 [-1.3, +8.2],
  pairs 0-0-98-2-0, LLR -0.72: undecided. The intervals are narrow only because nearly every pair
  splits 1-1; openings closer to a draw would let the versions' play decide more games.

The same three match files read again for the final margins (:func:`gamelib.play.strength.margin_gain`:
A's marks over B's per opening pair, its own margin as X plus as O, with a 95% t interval over
the 100 pairs), which tell the versions apart where the points cannot: e2a74ee -0.54 [-1.65, +0.57]
(no difference shown), 8d5fc8a +1.54 [+0.60, +2.48], 5b42b67 +2.50 [+1.70, +3.30]: this issue's
final bot ends a pair of games 2.5 marks further ahead of 629c7bd (1.25 a game), a difference the
interval separates from zero. A control, 37ae784 against itself the same way (100 games, 0.2 s, seed
0, ``--alpha 1e-9`` so the test never stops it; load average 4-5): A +50 =1 -49, pairs 1-1-46-0-2,
margin +0.12 [-1.27, +1.51] marks a pair over 50 pairs: no difference, as it must be.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gamelib.games.user_text import decimal_number, whole_number
from gamelib.play.bots.alphabeta import AlphaBetaBot  # noqa: F401  (fails early if this gamelib is broken)
from gamelib.play.commands import MAX_GAMES, MAX_SEED, MAX_WORKERS, option
from gamelib.play.engine_protocol import MAX_MOVE_SECONDS
from gamelib.play.ratings import Sprt
from gamelib.play.records import MatchFileError
from gamelib.play.strength import (
    BASE_COMMIT,
    engine_spec,
    export_commit,
    package_root,
    run_strength,
)

MAX_ELO = 1000.0
"""The largest Elo difference the SPRT's hypotheses may name (a score of 0.997)."""


def main(argv: list[str] | None = None) -> int:
    """Parse the options, play (or resume) the match, print its progress and final line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default=BASE_COMMIT, help=f"the frozen version's git commit (default {BASE_COMMIT})")
    parser.add_argument("--new", default=".", help="the new version: . for this working tree (default) or a git commit")
    parser.add_argument("--bot", default="alphabeta", help="the bot spec both engines serve (default alphabeta)")
    parser.add_argument("--games", type=option(whole_number, 2, MAX_GAMES, "a number of games"), default=200,
                        help=f"games at most, in pairs (default 200, 2 to {MAX_GAMES:,})")
    parser.add_argument("--time", type=option(decimal_number, 0.001, MAX_MOVE_SECONDS, "a number of seconds"),
                        default=0.2, help=f"seconds a move (default 0.2, 0.001 to {MAX_MOVE_SECONDS:g})")
    parser.add_argument("--workers", type=option(whole_number, 1, MAX_WORKERS, "a number of processes"), default=1,
                        help=f"games at once (default 1, at most {MAX_WORKERS})")
    parser.add_argument("--seed", type=option(whole_number, 0, MAX_SEED, "a seed"), default=0,
                        help="the openings' seed (default 0)")
    parser.add_argument("--elo0", type=option(decimal_number, -MAX_ELO, MAX_ELO, "an Elo difference"), default=0.0,
                        help=f"the SPRT's H0 Elo (default 0, -{MAX_ELO:g} to {MAX_ELO:g})")
    parser.add_argument("--elo1", type=option(decimal_number, -MAX_ELO, MAX_ELO, "an Elo difference"), default=10.0,
                        help=f"the SPRT's H1 Elo (default 10, -{MAX_ELO:g} to {MAX_ELO:g})")
    parser.add_argument("--alpha", type=option(decimal_number, 1e-12, 0.5, "an error rate"), default=0.05,
                        help="the SPRT's error rates alpha = beta (default 0.05, above 0 up to 0.5)")
    parser.add_argument("--out", default=None, help="the match file (default benchmarks/results/strength-NEW-BASE-TIME.jsonl)")
    args = parser.parse_args(argv)
    try:
        new_root = package_root() if args.new == "." else export_commit(args.new)
        base_root = export_commit(args.base)
        sprt = Sprt(args.elo0, args.elo1, args.alpha, args.alpha)
        out = Path(args.out or Path("benchmarks/results") / f"strength-{args.new.strip('.') or 'tree'}-{args.base}-{args.time:g}s.jsonl")
        out.parent.mkdir(parents=True, exist_ok=True)
        print(f"A: {args.bot} from {new_root}\nB: {args.bot} from {base_root} ({args.base})\n"
              f"{args.games} games at {args.time:g} s a move, SPRT elo0={args.elo0:g} elo1={args.elo1:g} "
              f"alpha=beta={args.alpha:g}; games in {out}", flush=True)
        final = run_strength(engine_spec(new_root, args.bot), engine_spec(base_root, args.bot), args.games,
                             seconds=args.time, sprt=sprt, out=out, workers=args.workers, seed=args.seed,
                             show=lambda line: print(line, flush=True))
    except (ValueError, MatchFileError) as error:
        print(f"strength: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstopped: run the same command to resume", file=sys.stderr)
        return 130
    print("final: " + final.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
