"""Strength match files summed up into one small data file that lessons 7 and 10 read (not a test).

Run from the repository root:

    .venv/bin/python benchmarks/strength_summary.py MATCH.jsonl [MATCH.jsonl ...] --out gamelib/data/benchmarks/strength.json
        [--load "about 3"] [--command "benchmarks/strength.py ..."]

A match file of ``benchmarks/strength.py`` holds a few hundred kilobytes a game pair (every move's
time, depth and nodes); the lesson needs only, per match, which commits played (read from the
engines' frozen folders, ``gamelib-frozen-SHA``), the time a move, the points (A's losses, draws
and wins, the finished pairs by A's score, and the games won by X, by O and drawn) and A's gain
in final marks in each pair (:func:`gamelib.play.strength.pair_margins`), from which it computes
the Elo and margin intervals itself. The data file records where and when (``--load``: the
machine's load average while the matches ran, as measured then; ``--command``: how they were
played).
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import re
import sys
from pathlib import Path
from typing import Any

from gamelib.play.ratings import Sprt
from gamelib.play.records import GameRecord, read_records
from gamelib.play.strength import pair_margins, report

FROZEN = re.compile(r"gamelib-frozen-([0-9a-f]{7,40})")


def commit_of(spec: str) -> str:
    """The short commit of an engine spec that runs a frozen export, or the spec itself."""
    found = FROZEN.search(spec)
    return found.group(1)[:7] if found else spec


def summary(path: Path) -> dict[str, Any]:
    """One match file's entry in the data file."""
    records: list[GameRecord] = read_records(path)
    if not records:
        raise ValueError(f"{path}: no games")
    first = min(records, key=lambda record: record.index)  # game 0: A plays X
    found = report(records, Sprt())
    margins, left_out = pair_margins(records)
    return {"file": path.name, "new": commit_of(first.x), "base": commit_of(first.o), "seconds": first.time_limit,
            "rule": first.rule, "games": found.games, "trinomial": list(found.trinomial),
            "pentanomial": list(found.pentanomial), "winners": {side: sum(record.result == side for record in records)
                                                                for side in ("X", "O", "draw")},
            "pair_margins": margins, "pairs_left_out": left_out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="match files of benchmarks/strength.py")
    parser.add_argument("--out", type=Path, required=True, help="the data file to write (JSON)")
    parser.add_argument("--load", default="not recorded", help="the load average while the matches ran")
    parser.add_argument("--command", default="not recorded", help="the command lines that played the matches")
    args = parser.parse_args(argv)
    try:
        matches = [summary(path) for path in args.files]
    except (OSError, ValueError) as error:
        print(f"strength_summary: error: {error}", file=sys.stderr)
        return 2
    data = {"provenance": {"date": datetime.date.today().isoformat(), "machine": f"{platform.machine()}, "
                           f"{platform.python_implementation()} {platform.python_version()}", "load": args.load,
                           "command": args.command},
            "matches": matches}
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[\s+(-?\d[-\d,\s]*?)\s+\]", lambda found: "[" + " ".join(found.group(1).split()) + "]", text)
    args.out.write_text(text + "\n")  # a list of numbers on one line
    for match in matches:
        print(f"{match['new']} vs {match['base']}: {match['games']} games, pairs {match['pentanomial']}, "
              f"margins of {len(match['pair_margins'])} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
