"""python -m gamelib trace: the JSON summary, Broeders' text, and one-line errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gamelib.cli import UsageError, build_parser, command_line, main
from gamelib.games.data import DATA_DIR
from tests.bad_inputs import NON_INTEGER, chain, write_tree
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
    (["trace", "alphabeta", BROEDERS, "--depth", "-1"],
     "argument --depth: '-1' is not a number of plies: give a whole number from 0 to 200"),
    (["trace", "alphabeta", BROEDERS, "--depth", "2"], "node '3' has no value"),
    (["trace", "negascout", BROEDERS, "--first-guess", "3"], "--first-guess is an mtdf option"),
    (["trace", "alphabeta", BROEDERS, "--table-size", "8"], "--table-size is an option of"),
    (["trace", "mtdf", BROEDERS, "--table-size", "0"],
     "argument --table-size: '0' is not a number of table slots: give a whole number from 1 to 4,194,304"),
    ([], "required: command"),
    (["trace", "alphabeta", "--course-tree", "broeders"], "argument --course-tree: invalid choice: 'broeders'"),
    (["trace", "alphabeta", BROEDERS, "--course-tree", "broeders31"], "trace needs one tree"),
    (["trace", "alphabeta"], "trace needs one tree: a tree file, --tree TEXT or --course-tree NAME"),
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


def test_a_course_tree_by_name_is_the_file(capsys: pytest.CaptureFixture[str],
                                            broeders_printed: dict[str, Any], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """--course-tree reads the tree from the installed package, from any folder: AlphaBeta0.cpp's printout."""
    monkeypatch.chdir(tmp_path)  # no tree file anywhere near
    status, out, _ = run(capsys, "trace", "alphabeta", "--course-tree", "broeders31", "--text")
    assert status == 0 and words(out) == broeders_printed["AlphaBeta0.cpp"]
    status, out, _ = run(capsys, "trace", "expectimax", "--course-tree", "two_ghosts")
    assert status == 0 and json.loads(out)["tree"] == "two_ghosts"


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


# Bad input that today's command line answered with a traceback or took for something else
# (issue 12). Each gets status 2 and one line naming the problem and the bound.

@pytest.mark.parametrize("args, message", [
    (["trace", "mtdf", BROEDERS, "--table-size", "99999999999999999999"],
     "argument --table-size: '99999999999999999999' is not a number of table slots: give a whole number from 1 to "
     "4,194,304 in ASCII digits"),
    (["trace", "alphabeta", BROEDERS, "--depth", "99999999999999999999"], "argument --depth: '99999999999999999999' "
     "is not a number of plies: give a whole number from 0 to 200"),
    (["trace", "alphabeta", BROEDERS, "--depth", "٣"], "argument --depth: '٣' is not a number of plies"),
    (["trace", "alphabeta", BROEDERS, "--depth", "²"], "argument --depth: '²' is not a number of plies"),
    (["trace", "alphabeta", BROEDERS, "--depth", "1_0"], "argument --depth: '1_0' is not"),
    (["trace", "mtdf", BROEDERS, "--first-guess", "10000000000"],
     "argument --first-guess: '10000000000' is not a first guess: give a whole number from -1,000,000,000 to "
     "1,000,000,000"),
    (["trace", "mtdf", BROEDERS, "--first-guess", "٤"], "argument --first-guess: '٤' is not a first guess"),
])
def test_numbers_are_ascii_and_bounded(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
    assert "Traceback" not in err and "_plies" not in err


def test_the_largest_numbers_allowed_work(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "trace", "mtdf", BROEDERS, "--table-size", "4194304", "--first-guess", "-1000000000",
                         "--depth", "200")
    assert status == 0 and json.loads(out)["value"] == 4  # seed 003: the value is 4


def tree_file(tmp_path: Path, content: str | bytes) -> str:
    return str(write_tree(tmp_path, content))


def chain_text(plies: int) -> str:
    return json.dumps(chain(plies))

BAD_TREES: dict[str, tuple[str | bytes, str]] = {
    "not UTF-8": (b'{"root": "r", "name": "caf\xe9", "values": {"r": 1}}', "not UTF-8 text: byte 0xe9 at offset 26"),
    "10,000 plies": (chain_text(10_000), "the tree is 10000 plies deep"),
    "100,000 plies": (chain_text(100_000), "the tree is 100000 plies deep"),
    "1e400": ('{"root": "r", "children": {"r": ["a"]}, "values": {"a": 1e400}}', "the value of node 'a' is inf"),
    "-Infinity": ('{"root": "r", "children": {"r": ["a"]}, "values": {"a": -Infinity}}', "not valid JSON: -Infinity"),
    "NaN": ('{"root": "r", "children": {"r": ["a"]}, "values": {"a": NaN}}', "not valid JSON: NaN"),
    "duplicate value": ('{"root": "r", "children": {"r": ["a"]}, "values": {"a": 1, "a": 2}}',
                        "key 'a' appears twice in 'values'"),
    "duplicate children": ('{"root": "r", "children": {"r": ["a"], "r": ["b"]}, "values": {"a": 1, "b": 2}}',
                           "key 'r' appears twice in 'children'"),
}


@pytest.mark.parametrize("name", BAD_TREES)
def test_bad_tree_files_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    content, message = BAD_TREES[name]
    status, out, err = run(capsys, "trace", "alphabeta", tree_file(tmp_path, content))
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_200_ply_chain_is_searched(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for algorithm in ("minimax", "alphabeta", "negascout", "mtdf"):
        status, out, _ = run(capsys, "trace", algorithm, tree_file(tmp_path, chain_text(200)))
        summary = json.loads(out)
        assert status == 0 and summary["value"] == 1 and len(summary["pv"]) == 200  # one line, 200 moves


def gamelib_command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m gamelib ARGS`` in a fresh process, its memory capped at 2 GB, ended after ``timeout``."""
    def limit_memory() -> None:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
    return subprocess.run([sys.executable, "-m", "gamelib", *args], capture_output=True, text=True, timeout=timeout,
                          check=False, preexec_fn=limit_memory)


@pytest.mark.parametrize("name", ["not UTF-8", "100,000 plies", "NaN"])
def test_bad_tree_files_in_a_real_process(tmp_path: Path, name: str) -> None:
    content, message = BAD_TREES[name]
    done = gamelib_command("trace", "alphabeta", tree_file(tmp_path, content))
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert message in done.stderr and "Traceback" not in done.stderr


def test_huge_numbers_in_a_real_process() -> None:
    done = gamelib_command("trace", "mtdf", BROEDERS, "--table-size", "99999999999999999999")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "4,194,304" in done.stderr


def test_mtdf_on_values_that_are_not_whole_numbers_stops_with_one_line(tmp_path: Path) -> None:
    done = gamelib_command("trace", "mtdf", tree_file(tmp_path, json.dumps(NON_INTEGER)), timeout=30)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "pass 1's value is 4.01: MTD(f) steps its null window (v - 1, v) one unit at a time" in done.stderr
    # alpha-beta has no null window and gives the value minimax backs up by hand: node 1 =
    # min(max(4.01), max(7, 6.5, 4)) = 4.01, node 2 = min(max(9.99, 3.99), max(2.99, 4.99, 2.01)) = 4.99,
    # the root max(4.01, 4.99) = 4.99.
    fine = gamelib_command("trace", "alphabeta", tree_file(tmp_path, json.dumps(NON_INTEGER)))
    assert fine.returncode == 0 and json.loads(fine.stdout)["value"] == 4.99


# The game commands' numbers: checked by the parser, before any game starts.

@pytest.mark.parametrize("args, message", [
    (["match", "random", "random", "--games", "99999999999999999999"], "argument --games: '99999999999999999999' "
     "is not a number of games: give a whole number from 1 to 10,000"),
    (["match", "random", "random", "--workers", "1000000"], "argument --workers: '1000000' is not a number of "
     "processes: give a whole number from 1 to 32"),
    (["match", "random", "random", "--rounds", "٣"],
     "argument --rounds: '٣' is not a number of rounds: give a whole number from 2 to 28"),
    (["match", "random", "random", "--time", "inf"],
     "argument --time: 'inf' is not a number of seconds: give a number from 0.001 to 600"),
    (["match", "random", "random", "--time", "1e9"], "argument --time: '1e9' is not a number of seconds"),
    (["match", "random", "random", "--time", "nan"], "argument --time: 'nan' is not a number of seconds"),
    (["play", "--time", "601"], "argument --time: '601' is not a number of seconds: give a number from 0.001 to 600"),
    (["play", "--rule", "٨"], "argument --rule: '٨' is not a rule: give a whole number from 4 to 8"),
    (["play", "--seed", "٣"], "argument --seed: '٣' is not a seed: give a whole number from 0 to 4,294,967,295"),
    (["engine", "--bot", "random", "--seed", "99999999999999999999"], "argument --seed: '99999999999999999999'"),
])
def test_game_command_numbers_are_ascii_and_bounded(args: list[str], message: str) -> None:
    with pytest.raises(UsageError) as error:
        build_parser().parse_args(args)
    assert str(error.value).startswith(message)


def test_game_command_numbers_in_bounds_parse() -> None:
    args = build_parser().parse_args(["match", "a", "b", "--games", "10000", "--workers", "32", "--rounds", "2",
                                      "--time", "0.25", "--rule", "4", "--seed", "4294967295"])
    assert (args.games, args.workers, args.rounds, args.time, args.rule, args.seed) == (10000, 32, 2, 0.25, 4, 2**32 - 1)


@pytest.mark.parametrize("platform", ["linux", "emscripten"])
def test_command_line_for_lessons(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     broeders_printed: dict[str, Any], platform: str) -> None:
    """Lesson 2's command line: a child process where there are processes, main() in this process in a
    browser (Pyodide); either way the command, then AlphaBeta0.cpp's printout, and its lines returned."""
    monkeypatch.setattr(sys, "platform", platform)
    lines = command_line("trace alphabeta --course-tree broeders31 --text")
    out = capsys.readouterr().out
    assert out.startswith("$ python -m gamelib trace alphabeta --course-tree broeders31 --text\n")
    assert words("\n".join(lines)) == broeders_printed["AlphaBeta0.cpp"]
    assert lines[-1] == "Pos: 0 Value:  4"  # AlphaBeta0.cpp's last line: the root's value


def test_command_line_in_a_browser_shows_the_one_line_error(capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert command_line("trace alphabeta --course-tree nope") == []
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "invalid choice: 'nope'" in out[1]
