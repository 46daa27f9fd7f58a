"""A tournament's faults as an instructor reads them: one row an entry and kind of fault, with how many, the first
game and what happened there (its line where the detail names one); and no ``nan`` in the standings' CSV."""

from __future__ import annotations

import csv
import io
import math
from types import SimpleNamespace

from gamelib.play.match_stats import FAULT_FIELDS, Standing, fault_table, faults_csv, standings_csv


def game(index: int, x: str, o: str, reason: str = "played", forfeit: str | None = None,
         detail: str = "") -> SimpleNamespace:
    return SimpleNamespace(index=index, x=x, o=o, reason=reason, forfeit=forfeit, detail=detail)


RECORDS = [game(0, "ada", "bob"), game(1, "bob", "ada", "crash", "X", "bot.py, line 12, in choose: ZeroDivisionError"),
           game(2, "ada", "cy", "timeout", "O", "took 3.1 s"), game(3, "cy", "bob", "crash", "O", "line 9: KeyError"),
           game(4, "bob", "cy", "crash", "X", "line 30: IndexError"), game(5, "cy", "ada", "timeout", "X", "took 2 s")]
"""Six games: bob crashes in games 1, 3 and 4 (lines 12, 9, 30), cy times out in 2 and 5; by hand below."""


def test_one_row_an_entry_and_kind_of_fault() -> None:
    rows = [(row.entry, row.reason, row.count, row.first_game, row.line) for row in fault_table(RECORDS)]
    assert rows == [("bob", "crash", 3, 1, 12), ("cy", "timeout", 2, 2, None)]


def test_the_faults_csv_has_its_columns_and_a_row_each() -> None:
    read = list(csv.DictReader(io.StringIO(faults_csv(fault_table(RECORDS)))))
    assert tuple(read[0]) == FAULT_FIELDS and [row["count"] for row in read] == ["3", "2"]
    assert read[1]["line"] == "" and read[0]["example"].startswith("bot.py, line 12")


def test_no_nan_in_the_standings_csv() -> None:
    idle = Standing(1, "idle", "", 2, 0, 0, 2, 0.0, 0.0, -100.0, -300.0, 100.0, 0, 2, "crash 2", math.nan)
    text = standings_csv([idle])
    assert "nan" not in text.lower() and text.splitlines()[1].endswith(",")
