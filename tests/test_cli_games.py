"""python -m gamelib match, engine and play: output, resumable files, and one-line endings."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gamelib.cli import main
from gamelib.play.records import read_records


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("python -m gamelib: error: ") and "Traceback" not in err


def test_match_prints_the_table_and_writes_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "m.jsonl"
    status, out, _ = run(capsys, "match", "random", "hillclimb", "--games", "4", "--rounds", "3", "--rule", "4",
                         "--out", str(out_file), "--workers", "1", "--quiet", "--seed", "3")
    assert status == 0 and len(read_records(out_file)) == 4
    assert {record.rule for record in read_records(out_file)} == {4}
    rows = [line.split() for line in out.splitlines()]
    everyone = [row for row in rows if "all" in row]
    assert len(everyone) == 2  # one row of totals per bot
    games = [int(row[row.index("all") + 1]) for row in everyone]
    assert games == [4, 4]
    a_wins = int(everyone[0][everyone[0].index("all") + 2])
    b_losses = int(everyone[1][everyone[1].index("all") + 4])
    assert a_wins == b_losses


def test_match_rerun_with_other_settings_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = str(tmp_path / "m.jsonl")
    common = ["match", "random", "random", "--games", "2", "--out", out_file, "--workers", "1", "--quiet"]
    assert run(capsys, *common, "--rounds", "2")[0] == 0
    status, _, err = run(capsys, *common, "--rounds", "3")
    assert status == 2 and one_line_error(err) and "other settings" in err


@pytest.mark.parametrize("args", [
    ["match", "random", "human", "--quiet"],
    ["match", "random", "nobody", "--quiet", "--games", "1", "--rounds", "2", "--workers", "1"],
    ["match", "random", "random", "--rule", "6"],
    ["match", "random", "random", "--games", "0"],
    ["match", "random", "random", "--time", "-1"],
    ["match", "random", "random", "--rounds", "40", "--quiet"],
    ["match", "random", "cmd:", "--quiet", "--games", "1", "--rounds", "2", "--workers", "1"],
    ["engine", "--bot", "human"],
    ["engine"],
    ["play", "--x", "nobody"],
    ["play", "--rounds", "1"],
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and one_line_error(err)


def test_match_with_an_external_engine(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    engine = "cmd:" + shlex.join([sys.executable, "-m", "gamelib", "engine", "--bot", "random"])
    status, out, _ = run(capsys, "match", engine, "random", "--games", "2", "--rounds", "2", "--workers", "1",
                         "--quiet", "--out", str(tmp_path / "m.jsonl"))
    assert status == 0 and "A cmd:" in out
    assert [record.x for record in read_records(tmp_path / "m.jsonl")] == [engine, "random"]


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: Any,
         *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", stdin)
    return run(capsys, "play", *args)


def test_play_bots_to_the_end(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = play(capsys, monkeypatch, io.StringIO(""), "--x", "random", "--o", "hillclimb",
                            "--rounds", "2", "--seed", "4")
    assert status == 0 and err == ""
    moves = re.findall(r"^([XO]) \((\w+)\) plays ([a-h][1-8]): .*s", out, flags=re.M)
    assert [(side, bot) for side, bot, _ in moves] == [("X", "random"), ("O", "hillclimb")] * 2
    final = re.findall(r"^X (\d+), O (\d+); ", out, flags=re.M)[-1]  # the last board's counts
    last = out.strip().splitlines()[-1]
    x, o = int(final[0]), int(final[1])
    assert last.endswith(f"{x} to {o}") and x + o == 8 + 4  # 8 marks at the start, one a move
    assert last.startswith("draw" if x == o else "X (random) wins" if x > o else "O (hillclimb) wins")
    assert "2 rounds left; O (hillclimb) to move" in out and "1 round left; X (random) to move" in out


def test_play_as_a_human(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    typed = io.StringIO("a1\nc3\nh1\na8\nd5\ne5\n")  # a1 is X's own; later squares in case O took one
    status, out, _ = play(capsys, monkeypatch, typed, "--o", "random", "--rounds", "2")
    assert status == 0 and "a1 is occupied by X" in out
    assert "X (human) plays c3: " in out and len(re.findall(r"^X \(human\) plays", out, flags=re.M)) == 2


def test_end_of_input_stops_cleanly(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = play(capsys, monkeypatch, io.StringIO("c3\n"), "--o", "random", "--rounds", "3")
    assert status == 1 and err == "game stopped: the input ended\n"


class CtrlC(io.StringIO):
    # typeshed's StringIO.readline itself returns str over _IOBase's bytes with this same ignore
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_stops_cleanly(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = play(capsys, monkeypatch, CtrlC(), "--o", "random", "--rounds", "3")
    assert status == 130 and err == "game stopped (Ctrl-C)\n"


def test_engine_command_is_served_by_main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("play c3\nboard\nquit\n"))
    status, out, _ = run(capsys, "engine", "--bot", "hillclimb", "--seed", "2")
    lines = out.splitlines()
    assert status == 0 and lines[0] == "ok" and lines[1].endswith(" O 55 5 4") and lines[2] == "ok"


def test_play_help_from_a_real_process() -> None:
    done = subprocess.run([sys.executable, "-m", "gamelib", "play", "--help"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and "--rounds" in done.stdout and "--time" in done.stdout
