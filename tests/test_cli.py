"""python -m gamelib trace: the JSON summary, Broeders' text, and one-line errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gamelib.cli import main
from gamelib.games.data import DATA_DIR
from tests.conftest import words

BROEDERS = str(DATA_DIR / "trees" / "broeders31.json")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_alphabeta_json_summary(capsys: pytest.CaptureFixture[str], broeders_printed: dict[str, Any]) -> None:
    status, out, err = run(capsys, "trace", "alphabeta", BROEDERS)
    summary = json.loads(out)
    assert status == 0 and err == ""
    assert (summary["value"], summary["best_move"]) == (4, "1")  # AlphaBeta1.cpp: Value 4 BestPos 1
    assert summary["pruned"] == broeders_printed["alphabeta_pruned"]
    assert summary["visited"][:6] == ["0", "1", "3", "7", "15", "16"]
    assert summary["evaluated"] == ["15", "16", "17", "19", "20", "23", "25"]  # the leaves in the seed's trace
    assert summary["events"][0]["event"] == "enter" and summary["pv"][0] == "1"


def test_alphabeta_text_is_alphabeta0_output(capsys: pytest.CaptureFixture[str], broeders_printed: dict[str, Any]) -> None:
    status, out, _ = run(capsys, "trace", "alphabeta", BROEDERS, "--text")
    assert status == 0 and words(out) == broeders_printed["AlphaBeta0.cpp"]


def test_minimax_text_is_minmax1_table(capsys: pytest.CaptureFixture[str], broeders_printed: dict[str, Any]) -> None:
    status, out, _ = run(capsys, "trace", "minimax", BROEDERS, "--text")
    assert status == 0 and words(out) == broeders_printed["MinMax1.cpp"]


def test_minimax_visits_everything(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "trace", "minimax", BROEDERS)
    summary = json.loads(out)
    assert len(summary["visited"]) == 31 and summary["pruned"] == [] and len(summary["evaluated"]) == 16


def test_options_reach_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    _, strict, _ = run(capsys, "trace", "alphabeta", BROEDERS, "--strict")
    _, soft, _ = run(capsys, "trace", "alphabeta", BROEDERS, "--fail-soft")
    assert "10" not in json.loads(strict)["pruned"]  # node 4's cut needs value 4 >= beta 4 (equality)
    assert json.loads(soft)["pruned"] == json.loads(run(capsys, "trace", "alphabeta", BROEDERS)[1])["pruned"]


def test_depth_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tree = tmp_path / "t.json"
    tree.write_text(json.dumps({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"]},
                                "values": {"a": 6, "b": 2, "a1": 1, "a2": 8}}))
    _, out, _ = run(capsys, "trace", "minimax", str(tree), "--depth", "1")
    summary = json.loads(out)
    assert summary["value"] == 6 and summary["pruned"] == [] and summary["visited"] == ["r", "a", "b"]


@pytest.mark.parametrize("args, message", [
    (["trace", "nope", BROEDERS], "invalid choice: 'nope'"),
    (["trace", "alphabeta", "/no/such/tree.json"], "cannot read /no/such/tree.json: No such file"),
    (["trace", "minimax", BROEDERS, "--strict"], "--strict and --fail-soft are alpha-beta options"),
    (["trace", "alphabeta", BROEDERS, "--depth", "-1"], "'-1' is not a number of plies"),
    (["trace", "alphabeta", BROEDERS, "--depth", "2"], "node '3' has no value"),
    (["trace", "negascout", BROEDERS, "--first-guess", "3"], "--first-guess is an mtdf option"),
    (["trace", "alphabeta", BROEDERS, "--table-size", "8"], "--table-size is an option of"),
    (["trace", "mtdf", BROEDERS, "--table-size", "0"], "'0' is not a number of table slots"),
    ([], "required: command"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_invalid_tree_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"root": "r", "children": {"r": ["a", "b"]}, "values": {"a": 1}}')
    status, _, err = run(capsys, "trace", "alphabeta", str(bad))
    assert status == 2 and "bad.json: leaf 'b' (a child of 'r') has no value" in err


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "gamelib", "trace", "alphabeta", BROEDERS, "--text"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "Pos: 0 Value:  4"
    bad = subprocess.run([sys.executable, "-m", "gamelib", "trace"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("algorithm", ["negascout", "pvs"])
def test_negascout_on_broeders_tree(capsys: pytest.CaptureFixture[str], broeders_printed: dict[str, Any],
                                    algorithm: str) -> None:
    status, out, _ = run(capsys, "trace", algorithm, BROEDERS)
    summary = json.loads(out)
    assert status == 0 and (summary["value"], summary["best_move"]) == (4, "1")
    # Every first move in Broeders' tree is best, so every null-window test fails low: no re-search,
    # and NegaScout enters the same positions as alpha-beta.
    assert summary["researches"] == [] and summary["pruned"] == broeders_printed["alphabeta_pruned"]
    _, text, _ = run(capsys, "trace", algorithm, BROEDERS, "--text")
    assert "pos = 16 alpha =  3 beta =  4" in text  # 16 is tested with the null window (3, 4)


@pytest.mark.parametrize("guess", ["4", "15"])
def test_mtdf_reports_its_passes(capsys: pytest.CaptureFixture[str], guess: str) -> None:
    """Seed 003: the value is 4. Plaat et al. (1996): from the true value, exactly two passes; from
    any guess, at least two (one proves a lower bound, one an upper bound), ending with both at 4."""
    status, out, _ = run(capsys, "trace", "mtdf", BROEDERS, "--first-guess", guess, "--table-size", "64")
    summary = json.loads(out)
    assert status == 0 and summary["value"] == 4
    assert len(summary["passes"]) == 2 if guess == "4" else len(summary["passes"]) >= 2
    last = summary["passes"][-1]
    assert last["lower"] == last["upper"] == 4
    assert summary["table"]["stores"] > 0 and summary["options"]["table_size"] == 64
