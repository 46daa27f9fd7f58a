"""The trusted side is total over the channel (issue 32): whatever a child writes back, in whatever
shape or bytes, ends as a verdict for that submission, never an exception, and never as "right"
unless the answers are the right ones.

Property tests feed the judge of a check (``code_check._Judge``, what ``check_source``,
``check_function``, the app and the grader all judge with) any JSON value, messages of the box's
shapes with parts replaced by any JSON value, and the right answers with such messages among them;
and feed the channel's reader (``read_message``, the kernel's; the sandbox's own parser, whose output
the judge hears) and an engine's move reader (``read_move``) any bytes and any text. Then one check
through the real sandbox per kind of bad message (a few in the fast suite, the rest with ``-m slow``),
and the same through ``check_function``, the app's checker, the kernel's channel and a tournament game.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solutions.lesson_01_minimax
import solutions.lesson_08_chance
from gamelib.games.adjacency import square_name
from gamelib.games.game import format_value
from gamelib.play.box.guard import GUARD_ONLY, ISOLATED, boundary, bwrap_problem
from gamelib.play.engine_protocol import ProtocolError, answer_words, read_move
from gamelib.play.entries import Entry, EntryLimits
from gamelib.play.tournament import TournamentGame, play_tournament_game
from gamelib.play.box.answers import (MAX_MESSAGE_DEPTH, UnreadableMessage, message_problem, read_message,
                                   run_student)
from gamelib.teach.app import CodeChecker
from gamelib.teach.code_check import SourceVerdict, _Judge, check_function, check_in_kernel, check_source, unreadable
from gamelib.teach.exercises import EXERCISES
from gamelib.teach.grading import grade_source
from gamelib.play.box.sandbox import END, Limits, RunEnd, SandboxResult
from tests.budget import examples
from tests.hostile import RIGHT

LIMITS = Limits(seconds=5)
BOX = GUARD_ONLY if bwrap_problem() else ISOLATED

SOLUTIONS = {"minimax": solutions.lesson_01_minimax.my_minimax, "maxn": solutions.lesson_08_chance.my_maxn}


def right_messages(exercise: str) -> list[dict[str, Any]]:
    """The ``answers`` messages the box sends for the exercise's solution, one a tree, in order."""
    found = []
    for index, tree in enumerate(EXERCISES[exercise].trees()):
        referee = EXERCISES[exercise].referee(tree)
        found.append({"answers": index, **run_student(SOLUTIONS[exercise], tree, referee.call).to_data()})
    return found


RIGHT_MESSAGES = {exercise: right_messages(exercise) for exercise in SOLUTIONS}
REFERENCES = {exercise: [(report.reference_visits, report.reference_value) for report in
                         (EXERCISES[exercise].check(SOLUTIONS[exercise], tree) for tree in EXERCISES[exercise].trees())]
              for exercise in SOLUTIONS}
"""Each tree's visits and value as the reference search has them (computed here, never from the judge's
reading of a message)."""

HONEST = [{"tree": 0}, {"tree": 2}, {"ask": {"rollout": "1", "tree": 0}},
          {"syntax": {"line": 1, "message": "expected ':'", "text": "def f()"}},
          {"error": {"stage": "call", "tree": 0, "type": "KeyError", "message": "'x'",
                     "frames": [["<your code>", 3, "my_minimax"]]}},
          {"error": {"stage": "run", "type": "ValueError", "message": "", "frames": []}},
          {"missing": ["minimax", "helper"]},
          {"sandbox_error": {"type": "MemoryError", "message": "", "frames": [["<your code>", None, "<module>"]]}},
          *RIGHT_MESSAGES["minimax"][:2], *RIGHT_MESSAGES["maxn"][:2]]
"""Messages of every shape the box sends, as it sends them: what the strategies below take apart."""


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON-like value: None, bools, ints of any size (past the 4,300 digits Python's json reads
    too), floats with NaN and the infinities, text, lists and objects, nested."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(0, 6000).map(lambda digits: 10**digits),
                        st.floats(), st.text(max_size=12), st.sampled_from(["0", "1", "a1", "<your code>", "max"]))
    return st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)


@st.composite
def taken_apart(draw: st.DrawFn) -> Any:
    """An honest message with one part (at any depth) replaced by any JSON value, a key dropped or
    a key added."""
    message = json.loads(json.dumps(draw(st.sampled_from(HONEST))))
    holder: Any = message
    while True:
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        if not keys:
            return message
        key = draw(st.sampled_from(keys))
        if isinstance(holder[key], (dict, list)) and holder[key] and draw(st.booleans()):
            holder = holder[key]
            continue
        how = draw(st.sampled_from(["replace", "drop", "add"]))
        if how == "replace":
            holder[key] = draw(json_values())
        elif how == "drop":
            del holder[key]
        elif isinstance(holder, dict):
            holder[draw(st.text(max_size=8))] = draw(json_values())
        else:
            holder.append(draw(json_values()))
        return message


@st.composite
def sequences(draw: st.DrawFn, exercise: str) -> list[Any]:
    """What a child might send: anything, or the right answers with anything among them (so a right
    verdict is possible, and a wrong one must win when a message is wrong)."""
    noise = st.one_of(json_values(), taken_apart(), st.sampled_from(HONEST))
    if exercise not in RIGHT_MESSAGES or draw(st.booleans()):
        return draw(st.lists(noise, max_size=8))
    found: list[Any] = list(RIGHT_MESSAGES[exercise])
    for _ in range(draw(st.integers(0, 3))):
        found.insert(draw(st.integers(0, len(found))), draw(noise))
    return found


def right(exercise: str, heard: list[Any]) -> bool:
    """True if ``heard`` holds, for every tree, an answers message for it whose visits and value
    are the reference's (found here, by plain comparison, not by the judge's reading)."""
    if exercise not in REFERENCES:
        return False
    for index, (visits, value) in enumerate(REFERENCES[exercise]):
        if not any(isinstance(message, dict) and type(message.get("answers")) is int and message["answers"] == index
                   and message.get("visits") == list(visits) and _same_value(message.get("value"), value)
                   for message in heard):
            return False
    return True


def _same_value(given: Any, expected: Any) -> bool:
    if isinstance(expected, tuple):
        return isinstance(given, list) and len(given) == len(expected) and all(map(_same_value, given, expected))
    return type(given) in (int, float) and math.isclose(given, expected, rel_tol=1e-9, abs_tol=1e-9)


def judged(exercise: str, messages: list[Any], outcome: RunEnd, garbled: int, returncode: int) -> tuple[SourceVerdict,
                                                                                                        list[Any]]:
    """The judge hears ``messages`` as the sandbox hands them over (up to the first END), then gives
    its verdict on a run that ended with ``outcome``; also what it heard."""
    judge, heard = _Judge(exercise, RIGHT), []
    for message in messages:
        heard.append(message)
        if judge.hear(message) is END:
            break
    result = SandboxResult(outcome=outcome, messages=tuple(messages), stdout="", stderr="", seconds=0.1,
                           returncode=returncode, limits=LIMITS, garbled=garbled, boundary=BOX)
    return judge.verdict(result), heard


# The judge: any messages end in a verdict, right only on the right answers.

@examples(300)
@given(data=st.data(), exercise=st.sampled_from(["minimax", "minimax", "maxn", "mcts"]),
       outcome=st.sampled_from([outcome for outcome in RunEnd if outcome is not RunEnd.STEPS]),  # STEPS: the kernel's
       garbled=st.sampled_from([0, 0, 0, 1, 2]), returncode=st.sampled_from([0, 1, -9, -24]))
def test_any_messages_end_in_a_verdict_that_is_right_only_on_the_right_answers(
        data: st.DataObject, exercise: str, outcome: RunEnd, garbled: int, returncode: int) -> None:
    messages = data.draw(sequences(exercise))
    verdict, heard = judged(exercise, messages, outcome, garbled, returncode)
    assert isinstance(verdict, SourceVerdict) and str(verdict)
    if verdict.report is None:
        assert verdict.message and verdict._repr_html_()
    if verdict.ok:
        assert right(exercise, heard) and garbled == 0, (messages, str(verdict))
        assert all(message_problem(message) is None for message in heard)


def test_the_right_answers_are_right_and_one_bad_message_among_them_is_not() -> None:
    # The property's positive side, pinned: the box's own messages pass; a message the judge cannot
    # read, anywhere before the last tree's answers, makes the verdict that, not right.
    messages = RIGHT_MESSAGES["minimax"]
    assert judged("minimax", messages, RunEnd.ENDED, 0, 0)[0].ok
    for bad, what in [({"answers": 0, "visits": [["a"]], "value": 4, "returned": []},
                       "answers whose visits are not a list of node names"),
                      ({"tree": 0, "ok": True}, "a tree message with the key 'ok', which it does not have"),
                      ({"tree": float("nan")}, "NaN, which JSON does not have"),
                      ([[[[[[[[]]]]]]]], "a message that is a JSON list, not an object"),
                      ({"tree": {"a": [[[[[[]]]]]]}}, f"JSON nested 8 deep, more than {MAX_MESSAGE_DEPTH}"),
                      ({"tree": 10**5000}, "an integer of more than 100 digits"),
                      ({"answers": 3, "visits": [], "value": 1, "returned": []},
                       "answers for tree 4 when tree 2 of 6 was next"),
                      ({"ask": {"rollout": "0", "tree": 0}}, "a question, in an exercise that asks none")]:
        verdict, _ = judged("minimax", [messages[0], bad, *messages[1:]], RunEnd.ENDED, 0, 0)
        assert (verdict.ok, verdict.report, verdict.message) == (False, None, unreadable(what))
    assert judged("minimax", messages, RunEnd.ENDED, 1, 0)[0].message == unreadable("a line that is not JSON")


# The channel's reader, and what the sandbox's own parser hands the judge.

def lines() -> st.SearchStrategy[bytes]:
    """Any bytes, JSON as Python writes it (NaN, huge numbers), honest messages with bytes changed,
    and nesting a parser cannot follow."""
    dumped = json_values().map(lambda value: _dumped(value))
    honest = st.sampled_from(HONEST).map(lambda message: json.dumps(message).encode())
    changed = st.tuples(honest, st.integers(0, 200), st.binary(min_size=1, max_size=3)).map(
        lambda parts: parts[0][:parts[1]] + parts[2] + parts[0][parts[1] + 1:])
    deep = st.tuples(st.integers(1, 100_000), st.sampled_from([b"[", b'{"a":'])).map(lambda parts: parts[1] * parts[0])
    return st.one_of(st.binary(max_size=64), dumped, honest, changed, deep)


def _dumped(value: Any) -> bytes:
    try:
        return json.dumps(value).encode()
    except ValueError:  # an int past the 4,300 digits Python writes
        return b"1" * 5000


@examples(500)
@given(line=lines())
def test_any_line_is_read_or_refused_saying_what_and_the_judge_takes_it(line: bytes) -> None:
    try:
        data = read_message(line)
    except UnreadableMessage as error:
        assert 0 < len(str(error)) < 200
    else:  # strict JSON, bounded: what message_problem then says is all that is left to say
        assert json.loads(json.dumps(data, allow_nan=False)) == data
        problem = message_problem(data)
        assert problem is None or 0 < len(problem) < 200
    judge = _Judge("minimax", RIGHT)
    try:
        lenient = json.loads(line)  # the sandbox's parser: NaN and 4,300-digit numbers get through
    except (ValueError, RecursionError):
        return
    assert judge.hear(lenient) in (None, END)


# An engine's answer to go.

@examples(300)
@given(answer=st.one_of(st.text(max_size=20), st.binary(max_size=20).map(lambda raw: raw.decode("utf-8", "replace")),
                        st.text(alphabet="move abcdefgh12345678\t\u00a0\u2003", max_size=12)))
def test_an_engine_s_answer_is_a_square_only_if_it_says_move_square(answer: str) -> None:
    try:
        square = read_move(answer)
    except ProtocolError as error:
        assert 0 < len(str(error)) < 200
    else:
        assert 0 <= square < 64 and answer_words(answer) == ["move", square_name(square)]


# Each channel, end to end.

def writing(data: bytes | str, then: str = RIGHT) -> str:
    """A submission that writes ``data`` (bytes, or a Python expression for them) on the channel back
    to the checker, then answers rightly."""
    return f"import os, sys\nos.write(int(sys.argv[3]), {data if isinstance(data, str) else repr(data)})\n{then}"


BAD: dict[str, tuple[bytes | str, str]] = {
    "deep nesting": ('b"[" * 100_000 + b"\\n"', "JSON nested too deep to read"),
    "wrong types": (b'{"answers": 0, "visits": [["a"]], "value": 4, "returned": []}\n',
                    "answers whose visits are not a list of node names"),
    "bytes that are not UTF-8, and a partial line": (b'\xff{"tree": 0}\n{"answers": 0, "vis',
                                                     "bytes that are not UTF-8 (byte 0xff at offset 0) (and 1 more line)"),
    "NaN": (b'{"tree": NaN}\n', "NaN, which JSON does not have"),
    "a huge integer": (b'{"tree": 1' + b"0" * 5000 + b"}\n", "an integer of 5,001 digits, more than 100"),
    "a missing key": (b'{"answers": 0, "visits": [], "value": 4}\n', "an answers message without the key 'returned'"),
    "an extra key": (b'{"tree": 0, "verdict": "right"}\n',
                     "a tree message with the key 'verdict', which it does not have"),
    "a forged crash report": (b'{"sandbox_error": {"type": "MemoryError", "message": "", "frames": 5}}\n',
                              "an error report whose type, message or frames are of the wrong kind"),
}
FAST = ("deep nesting", "wrong types", "bytes that are not UTF-8, and a partial line")


@pytest.mark.parametrize("kind", [*FAST, *(pytest.param(kind, marks=pytest.mark.slow)
                                           for kind in BAD if kind not in FAST)])
def test_a_bad_message_through_the_sandbox_is_a_verdict(kind: str) -> None:
    data, what = BAD[kind]
    verdict = check_source("minimax", writing(data), LIMITS)
    assert (verdict.ok, verdict.report, verdict.message, verdict.boundary) == (False, None, unreadable(what), BOX)


def test_the_grader_gives_the_file_its_row_not_the_grader_s_failure() -> None:
    grade = grade_source("minimax", "ada", writing(BAD["deep nesting"][0]), LIMITS)
    assert (grade.outcome, grade.passed, grade.verdict) == ("error", 0, unreadable(BAD["deep nesting"][1]))


def test_nothing_at_all_is_a_verdict_too() -> None:
    verdict = check_source("minimax", "import os\nos._exit(0)\n", LIMITS)
    assert not verdict.ok and verdict.message.startswith("the check ended without a verdict before my_minimax was "
                                                         "called: the checking process exited before it sent answers")


def my_deep_minimax(tree: Any, node: str) -> int:
    """A notebook's function that writes a line nested 100,000 deep on the checker's channel."""
    import os
    import sys
    os.write(int(sys.argv[3]), b"[" * 100_000 + b"\n")
    return 0


def test_check_function_gives_the_verdict() -> None:
    verdict = check_function("minimax", my_deep_minimax, LIMITS)
    assert (verdict.ok, verdict.message) == (False, unreadable("JSON nested too deep to read"))


def test_the_app_shows_the_verdict_not_checking_for_good(monkeypatch: pytest.MonkeyPatch) -> None:
    checker = CodeChecker("minimax", limits=LIMITS)
    checker.code.value = writing(BAD["wrong types"][0])
    assert checker.check().message == unreadable(BAD["wrong types"][1])
    assert "cannot read" in checker.report.value and CodeChecker.CHECKING not in checker.report.value

    def broken(*args: Any, **kwargs: Any) -> SourceVerdict:
        raise RuntimeError("the judge's own bug")

    monkeypatch.setattr("gamelib.teach.app.check_code", broken)  # the checker itself fails: still a verdict
    checker.code.value = RIGHT
    verdict = checker.check()
    assert not verdict.ok and "the checker itself failed" in verdict.message and "RuntimeError" in verdict.message
    assert CodeChecker.CHECKING not in checker.report.value and "the checker itself failed" in checker.report.value
    assert not checker.check_button.disabled and checker.stop_button.disabled


def test_the_kernel_s_channel_gives_the_verdict_too() -> None:
    # In the kernel the channel is an object the code can reach through its frames: what it sends there
    # is read as a line from the box is.
    source = ("import sys\nframe = sys._getframe()\nwhile 'channel' not in frame.f_locals:\n    frame = frame.f_back\n"
              "frame.f_locals['channel'].send({'answers': 0, 'visits': [['a']], 'value': 4, 'returned': []})\n" + RIGHT)
    assert check_in_kernel("minimax", source).message == unreadable("answers whose visits are not a list of node names")
    nan = "import sys\nframe = sys._getframe()\nwhile 'channel' not in frame.f_locals:\n    frame = frame.f_back\n" \
          "frame.f_locals['channel'].send({'tree': float('nan')})\n" + RIGHT
    assert check_in_kernel("minimax", nan).message == unreadable("NaN, which JSON does not have")


ENGINE = """import sys
sys.stdin.readline()
print({board!r} + ' X 56 4 4', flush=True)
for line in sys.stdin:
    if line.startswith('go'):
        sys.stdout.buffer.write({go!r})
        sys.stdout.flush()
    elif line.startswith('quit'):
        break
    else:
        print({ok!r}, flush=True)
"""


def engine_python() -> str:
    """A Python an engine entry can run: ours, except where root runs entries under the guard only as a
    user of their own, who may not reach ours (a venv under /root): then the system's of our version."""
    if os.geteuid() != 0 or boundary() != GUARD_ONLY:
        return sys.executable
    found = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/local/bin:/usr/bin:/bin")
    if found is None:
        pytest.skip("root without bubblewrap runs engines as another user, and no system Python of ours is there")
    return found


@pytest.mark.parametrize(("go", "ok", "detail"), [
    (b"\xff\xfemove c3\n", "ok", "answered go with '\ufffd\ufffdmove c3' is not 'move SQUARE'"),
    pytest.param(b"move c3\n", "ok then", "answered rule with 'ok then', not 'ok'", marks=pytest.mark.slow),
    pytest.param(b"move\xc2\xa0c3\n", "ok", "answered go with 'move\\xa0c3' is not 'move SQUARE'",
                 marks=pytest.mark.slow),
])
def test_an_engine_s_line_that_is_not_a_move_loses_the_game(tmp_path: Path, go: bytes, ok: str, detail: str) -> None:
    script = tmp_path / "engine.py"
    script.write_text(ENGINE.format(board="......OO......OO" + "." * 32 + "XX......XX......", go=go, ok=ok))
    bad, good = Entry(name="bad", command=(engine_python(), str(script))), Entry(name="random", bot="random")
    record = play_tournament_game(TournamentGame(0, 1, bad, good, 8, 2, 0.3, EntryLimits(grace=1.0)))
    assert (record.result, record.reason, record.forfeit) == ("O", "protocol", "X")
    assert detail in record.detail


def test_the_solutions_still_pass_through_the_sandbox() -> None:
    # The strict reader reads what the box honestly writes, vectors and values that are not finite included.
    assert check_source("maxn", inspect.getsource(solutions.lesson_08_chance), LIMITS).ok
    search = RIGHT.replace("def my_minimax(", "def search(").replace("my_minimax(tree, child)", "search(tree, child)")
    infinite = search + ("def my_minimax(tree, node):\n    value = search(tree, node)\n"
                         "    return -math.inf if node == tree.root else value\n")
    verdict = check_source("minimax", infinite, LIMITS)
    assert verdict.report is not None and verdict.report.failure is not None and not verdict.ok
    assert f"but returns {format_value(-math.inf)} at the root; the value is 4" in verdict.report.failure.message
    assert check_in_kernel("minimax", infinite).reports == verdict.reports
