"""The engine line protocol: the server in-process, a real subprocess pair, and ExternalBot's errors."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import play_game
from gamelib.play.bots.base import Decision, RandomBot
from gamelib.play.engine_protocol import EngineError, EngineSession, ExternalBot, serve
from tests.budget import examples

# The start position as the task's protocol description writes it: rank 8 first, files a..h.
START = "......OO......OO" + "." * 32 + "XX......XX......"
ENGINE = [sys.executable, "-m", "gamelib", "engine", "--bot", "random"]


def session() -> EngineSession:
    return EngineSession(RandomBot(seed=1))


def test_board_at_the_start() -> None:
    assert session().handle("board") == f"{START} X 56 4 4"


def test_play_then_board() -> None:
    engine = session()
    assert engine.handle("play c3") == "ok"
    # c3 is rank 3 (the sixth row from the top), file c (third): index 5 * 8 + 2 = 42.
    expected = START[:42] + "X" + START[43:]
    assert engine.handle("board") == f"{expected} O 55 5 4"


def test_rule_4_flips_only_orthogonal_neighbours() -> None:
    # X g6 next to O's g7 (above) and h7 (diagonal): rule 8 flips both (X 7, O 2), rule 4 only g7 (6, 3).
    eight, four = session(), session()
    assert four.handle("rule 4") == "ok"
    for engine in (eight, four):
        assert engine.handle("play g6") == "ok"
    assert eight.handle("board").endswith(" 7 2") and four.handle("board").endswith(" 6 3")


def test_a_new_position_keeps_the_rule() -> None:
    engine = session()
    for line in ("rule 4", "play d4", f"position {START} X 56", "play g6"):
        assert engine.handle(line) == "ok"
    assert engine.handle("board").endswith(" 6 3")


def test_position_then_board_round_trips() -> None:
    engine = session()
    board = "X" * 8 + "O" * 8 + "." * 47 + "X"
    assert engine.handle(f"position {board} O 3") == "ok"
    assert engine.handle("board") == f"{board} O 3 9 8"


def test_go_answers_a_legal_move_and_plays_nothing() -> None:
    engine = session()
    answer = engine.handle("go 100")
    word, square = answer.split()
    assert word == "move" and START[8 * (8 - int(square[1])) + "abcdefgh".index(square[0])] == "."
    assert engine.handle("board") == f"{START} X 56 4 4"


@pytest.mark.parametrize("line", [
    "play a1", "play b2", "play z9", "play", "play c3 d4",                # occupied, off the board, arguments
    "position XXX X 56", f"position {START[:-1]}Q X 56", f"position {START} Z 56",
    f"position {START} X 57", f"position {START} X many", f"position {START} X",
    "rule 6", "rule", "rule 8 4", "go", "go 0", "go -5", "go soon", "board now", "quit now",
    "dance", "", "   ", "PLAY c3",
])
def test_bad_input_is_one_error_line_and_changes_nothing(line: str) -> None:
    engine = session()
    engine.handle("play c3")
    before = engine.handle("board")
    answer = engine.handle(line)
    assert answer.startswith("error ") and "\n" not in answer and len(answer) > len("error ")
    assert engine.handle("board") == before and not engine.finished


def test_no_move_after_the_end() -> None:
    engine = session()
    assert engine.handle(f"position {START} X 0") == "ok"
    assert engine.handle("play c3").startswith("error ") and engine.handle("go 100").startswith("error ")
    full = "X" * 32 + "O" * 32
    assert engine.handle(f"position {full} O 6") == "ok"  # plies left, but no empty square
    assert engine.handle("go 100").startswith("error ")


def test_quit_answers_ok_and_ends_serving() -> None:
    out = io.StringIO()
    serve(RandomBot(), io.StringIO("board\nquit\nboard\n"), out)
    assert out.getvalue().splitlines() == [f"{START} X 56 4 4", "ok"]


@examples(100)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                        max_size=30), max_size=12))
def test_every_line_gets_exactly_one_line(lines: list[str]) -> None:
    lines = [line for line in lines if line.split()[:1] != ["quit"]]
    out = io.StringIO()
    serve(RandomBot(), io.StringIO("".join(line + "\n" for line in lines)), out)
    assert len(out.getvalue().splitlines()) == len(lines)


# A real subprocess pair: gamelib's engine behind ExternalBot.

def test_external_engine_moves_as_the_bot_inside_it() -> None:
    game = AdjacencyGame(rounds=3)
    with ExternalBot([*ENGINE, "--seed", "5"]) as bot:
        first = bot.choose(game, game.root, 0.2).move
    assert first == RandomBot(seed=5).choose(game, game.root, 0.2).move  # same seed, same draw


def test_external_engine_plays_a_game_and_is_closed() -> None:
    game = AdjacencyGame(rounds=3, rule=4)
    bot = ExternalBot(ENGINE)
    try:
        record = play_game(game, bot, RandomBot(2), 0.5, seed=0)
    finally:
        bot.close()
    assert bot._process.poll() == 0  # it answered quit and exited
    assert len(record.moves) == 6 and record.rule == 4
    assert game.counts(game.play(game.root, list(record.moves))) == record.counts
    bot.close()  # twice is harmless


def fake_engine(tmp_path: Path, body: str) -> list[str]:
    """A tiny engine: answers the start-up ``board`` properly, then runs ``body`` on each line."""
    script = tmp_path / "engine.py"
    script.write_text("import sys, time\n"
                      "sys.stdin.readline()\n"
                      f"print({START!r} + ' X 56 4 4', flush=True)\n"
                      "for line in sys.stdin:\n"
                      f"    {body}\n")
    return [sys.executable, str(script)]


@pytest.mark.parametrize("body, message", [
    ("print('error no thanks', flush=True)", "answered 'rule 8' with 'error no thanks'"),
    ("print('move i9' if line.startswith('go') else 'ok', flush=True)", "bad square 'i9'"),
    ("print('pass' if line.startswith('go') else 'ok', flush=True)", "not 'move SQUARE'"),
    ("print('move c3 c4' if line.startswith('go') else 'ok', flush=True)", "'move c3 c4' is not 'move SQUARE'"),
    ("print('move\\u00a0c3' if line.startswith('go') else 'ok', flush=True)", "is not 'move SQUARE'"),
    ("print('ok then', flush=True)", "answered rule with 'ok then', not 'ok'"),  # only ok where ok is due
    ("print('move c3', flush=True)", "answered rule with 'move c3', not 'ok'"),  # one answer a command, in step
    ("sys.exit(3)", "exited"),
    ("time.sleep(0 if not line.startswith('go') else 60); print('ok', flush=True)", "did not answer 'go 100'"),
])
def test_a_misbehaving_engine_is_an_engine_error(tmp_path: Path, body: str, message: str) -> None:
    game = AdjacencyGame(rounds=2)
    bot = ExternalBot(fake_engine(tmp_path, body), grace=10)
    bot.grace = bot.move_grace = 0.5  # only the slow engine waits this long
    try:
        with pytest.raises(EngineError, match=message):
            bot.choose(game, game.root, 0.1)
    finally:
        bot.close()
    assert bot._process.poll() is not None


def test_a_program_that_is_no_engine(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot start"):
        ExternalBot([str(tmp_path / "missing")])
    with pytest.raises(EngineError, match="exited"):
        ExternalBot([sys.executable, "-c", "pass"])
    with pytest.raises(EngineError, match="does it speak"):
        ExternalBot([sys.executable, "-c", "print('hello', flush=True); import sys; sys.stdin.read()"])
    with pytest.raises(EngineError, match="empty"):
        ExternalBot([])


def test_engine_command_over_a_pipe() -> None:
    lines = ["rule 4", "play c3", "board", "play c3", "go 50", "quit"]
    done = subprocess.run(ENGINE, input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                          timeout=60, check=False)
    answers = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == "" and len(answers) == len(lines)
    assert answers[0:2] == ["ok", "ok"] and answers[2].split()[1:] == ["O", "55", "5", "4"]
    assert answers[3] == "error c3 is occupied by X" and answers[4].startswith("move ") and answers[5] == "ok"


def test_the_documented_session_is_what_the_engine_says() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "engine_protocol.md").read_text()
    session_block = text.split("## A session")[1].split("```")[1]
    sent = [line[2:] for line in session_block.splitlines() if line.startswith("> ")]
    answers = [line[2:] for line in session_block.splitlines() if line.startswith("< ")]
    engine = session()
    assert len(sent) == len(answers) == 6
    for command, answer in zip(sent, answers):
        got = engine.handle(command)
        assert got.split()[0] == "move" if command.startswith("go") else got == answer, command


# Bounds (issue 12): a go that would never end, and lines too long to echo or to keep.

class TimedBot(RandomBot):
    """A random bot that notes the seconds each ``choose`` is given."""

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.asked: list[float] = []

    def choose(self, game: Any, state: Any, seconds: float) -> Decision:
        self.asked.append(seconds)
        return super().choose(game, state, seconds)


@pytest.mark.parametrize("line", ["go 99999999999999999999999999", "go 600001", "go ٣٠٠", "go 1_000", "go +5"])
def test_go_time_is_ascii_and_at_most_ten_minutes(line: str) -> None:
    bot = TimedBot()
    answer = EngineSession(bot).handle(line)
    assert answer.startswith("error ") and "from 1 to 600,000" in answer and bot.asked == []


def test_go_at_the_bound_asks_the_bot_for_600_seconds() -> None:
    bot = TimedBot()
    assert EngineSession(bot).handle("go 600000").startswith("move ") and bot.asked == [600.0]


def test_plies_are_ascii_digits() -> None:
    answer = session().handle(f"position {START} X ٣")
    assert answer.startswith("error '٣' is not a number of plies left: give a whole number from 0 to 56")


def test_a_long_line_is_refused_with_a_short_quote() -> None:
    engine = session()
    answer = engine.handle("x" * 10**6)
    assert answer.startswith("error the line is longer than 256 characters") and len(answer) < 150
    assert engine.handle("y" * 250).startswith("error unknown command 'yyyy") and len(engine.handle("y" * 250)) < 150


def test_the_alphabeta_engine_refuses_an_endless_go_and_reads_quit() -> None:
    command = [sys.executable, "-m", "gamelib", "engine", "--bot", "alphabeta"]
    done = subprocess.run(command, input="go 99999999999999999999999999\nquit\n", capture_output=True, text=True,
                          timeout=60, check=False)
    answers = done.stdout.splitlines()
    assert done.returncode == 0 and len(answers) == 2 and answers[1] == "ok"
    assert answers[0].startswith("error '99999999999999999999999999' is not a time in milliseconds: give a whole "
                                 "number from 1 to 600,000")


def test_a_100_mb_line_gets_a_short_answer_and_the_engine_goes_on() -> None:
    done = subprocess.run(ENGINE, input="x" * 100 * 10**6 + "\nboard\nquit\n", capture_output=True, text=True,
                          timeout=120, check=False)
    answers = done.stdout.splitlines()
    assert done.returncode == 0 and len(answers) == 3 and len(answers[0]) < 150
    assert answers[0].startswith("error the line is longer than 256 characters")
    assert answers[1] == f"{START} X 56 4 4" and answers[2] == "ok"


def test_a_huge_answer_from_an_engine_is_quoted_short(tmp_path: Path) -> None:
    game = AdjacencyGame(rounds=2)
    with ExternalBot(fake_engine(tmp_path, "print('x' * 10**7 if line.startswith('go') else 'ok', flush=True)")) as bot:
        with pytest.raises(EngineError, match="answered go with 'xxx") as error:
            bot.choose(game, game.root, 0.1)
    assert len(str(error.value)) < 300
