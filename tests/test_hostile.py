"""Hostile submissions (tests/hostile.py) through every way student code runs: the grader, check_source,
the app's checker and a tournament entry. Correct work is right; no hostile file is; the canary outside
the box is never read; nothing is written outside it; nothing reaches 127.0.0.1; nothing is left
running; every file gets a row; and the judge (the grader, the kernel, the tournament) goes on.

The verdict is decided outside the student's process on every platform, so the attacks on the verdict
(forged channel messages, exec, monkeypatching, importing the answers, fork and memory bombs, output
floods) are tried under the guard only as well. The attacks on the machine (reading and writing
outside, the network, killing the parent, a detached double fork, a disk fill) are stopped only by
bubblewrap's box: those tests are skipped, saying why, where bubblewrap cannot run. The fast suite
runs the grader over every file once and a few of each route; ``-m slow`` runs every attack through
every route, and kills a tournament's runner with SIGKILL.
"""

from __future__ import annotations

import inspect
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

import solutions.lesson_01_minimax
from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import play_game
from gamelib.play.bots.base import RandomBot
from gamelib.play.box import sandbox
from gamelib.play.box.guard import GUARD_ONLY, ISOLATED, bwrap_problem
from gamelib.play.box.sandbox import Limits
from gamelib.play.engine_protocol import EngineError
from gamelib.play.entries import Entry, EntryLimits, start_entry
from gamelib.play.tournament import TournamentGame, play_tournament_game
from gamelib.teach.app import CodeChecker
from gamelib.teach.code_check import SourceVerdict, check_source
from gamelib.teach.grading import grade_folder
from tests.hostile import (
    EVERYWHERE,
    ISOLATED_ONLY,
    MALFORMED_MOVES,
    MARKER,
    RIGHT,
    SECRET,
    WRONG,
    entry,
    malformed,
    submission,
)
from tests.processes import alive_children, settled, sleeping

ROOT = Path(__file__).resolve().parent.parent
LIMITS = Limits(seconds=3)
WHY_NOT = bwrap_problem()
needs_bwrap = pytest.mark.skipif(WHY_NOT is not None, reason=f"bubblewrap cannot box code here: {WHY_NOT}")


@dataclass
class Scene:
    """What the attacks aim at: the canary (a file outside the box), a folder outside it, the class's
    folder, and a listener on 127.0.0.1 that records whatever reaches it."""

    canary: Path
    outside: Path
    folder: Path
    port: int
    received: list[bytes] = field(default_factory=list)

    def fill(self, text: str) -> str:
        return submission(text, canary=self.canary, outside=self.outside, folder=self.folder, port=self.port,
                          root=ROOT)

    def untouched(self, *texts: str) -> None:
        """The canary never shows up, nothing was written outside, nothing reached the listener."""
        for text in texts:
            assert SECRET not in text, "a submission read the canary"
        assert not (self.outside / "written.txt").exists(), "a submission wrote outside its box"
        assert self.received == [], f"a submission reached 127.0.0.1: {self.received}"


@pytest.fixture
def scene(tmp_path: Path) -> Iterator[Scene]:
    outside, folder = tmp_path / "outside", tmp_path / "class"
    outside.mkdir()
    folder.mkdir()
    canary = outside / "canary.txt"
    canary.write_text(SECRET, encoding="utf-8")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        scene = Scene(canary, outside, folder, server.getsockname()[1])
        stop = threading.Event()

        def listen() -> None:
            while not stop.is_set():
                try:
                    connection, _ = server.accept()
                except OSError:
                    continue
                with connection:
                    scene.received.append(connection.recv(1000) or b"(connected)")

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        yield scene
        stop.set()
        listener.join()


def marked() -> list[psutil.Process]:
    """The processes a submission left running (``sleep MARKER``)."""
    return sleeping(MARKER)


@pytest.fixture(autouse=True)
def nothing_left_running() -> Iterator[None]:
    yield
    assert settled(lambda: not marked()), f"a submission's process outlived its run: {marked()}"
    assert settled(lambda: not alive_children()), f"left running: {alive_children()}"


@pytest.fixture
def guard_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Student code runs under the guard only, as where bubblewrap cannot run."""
    monkeypatch.setattr(sandbox, "boundary", lambda: GUARD_ONLY)


def never_right(verdict: SourceVerdict) -> None:
    assert not verdict.ok and (verdict.report is None or not verdict.report.ok)
    assert "right on all" not in str(verdict) and "agrees with" not in str(verdict)


# The grader: every file, one run.

@pytest.mark.slow  # every hostile file, each tree in a run of its own: 6 s; make test-slow runs it
def test_the_grader_grades_every_file_and_no_hostile_one_is_right(scene: Scene, tmp_path: Path) -> None:
    hostile = {**EVERYWHERE, **(ISOLATED_ONLY if WHY_NOT is None else {})}
    files = {"right": RIGHT, "wrong": WRONG, **hostile}
    for name, text in files.items():
        (scene.folder / f"{name}.py").write_text(scene.fill(text), encoding="utf-8")
    right_before = (scene.folder / "right.py").read_bytes()
    out = tmp_path / "grades.csv"
    grades = {grade.student: grade for grade in grade_folder("minimax", scene.folder, out, limits=LIMITS, workers=2,
                                                             progress=False)}
    assert sorted(grades) == sorted(files)  # every file graded, whatever the others did
    assert grades["right"].outcome == "right" and grades["wrong"].outcome == "wrong"
    assert {name: grades[name].outcome for name in hostile if grades[name].ok} == {}
    box = ISOLATED if WHY_NOT is None else GUARD_ONLY
    assert {grade.boundary for grade in grades.values()} == {box}
    scene.untouched(out.read_text(encoding="utf-8"), *(grade.verdict for grade in grades.values()))
    assert (scene.folder / "right.py").read_bytes() == right_before, "a submission overwrote another's file"


# check_source: the verdict's rules under the guard only, the machine's in the box.

@pytest.mark.parametrize("name", ["forged_channel", "exec", "monkeypatch", "import_answers"])
def test_attacks_on_the_verdict_fail_under_the_guard_only(name: str, scene: Scene, guard_only: None) -> None:
    verdict = check_source("minimax", scene.fill(EVERYWHERE[name]), LIMITS)
    assert verdict.boundary == GUARD_ONLY
    never_right(verdict)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EVERYWHERE))
@pytest.mark.parametrize("box", [GUARD_ONLY, ISOLATED])
def test_every_attack_on_the_verdict_fails_in_either_boundary(name: str, box: str, scene: Scene,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if box == ISOLATED and WHY_NOT is not None:
        pytest.skip(f"bubblewrap cannot box code here: {WHY_NOT}")
    monkeypatch.setattr(sandbox, "boundary", lambda: box)
    verdict = check_source("minimax", scene.fill(EVERYWHERE[name]), LIMITS)
    assert verdict.boundary == box
    never_right(verdict)
    assert check_source("minimax", RIGHT, LIMITS).ok  # and the checker still checks


@needs_bwrap
@pytest.mark.parametrize("name", sorted(ISOLATED_ONLY))
def test_the_box_keeps_the_machine_out_of_reach(name: str, scene: Scene) -> None:
    verdict = check_source("minimax", scene.fill(ISOLATED_ONLY[name]), LIMITS)
    assert verdict.boundary == ISOLATED
    never_right(verdict)
    scene.untouched(verdict.output, verdict.message)
    if name == "read_outside":  # it ran, and found nothing of ours
        assert "/etc/passwd refused" in verdict.output and "/etc/shadow refused" in verdict.output
        assert "environment {'PATH'" in verdict.output and "kernel-" not in verdict.output
    if name == "network":
        assert "refused:" in verdict.output


# The app's checker: a misbehaving check never takes the kernel down, nor says right.

@needs_bwrap
def test_the_apps_checker_survives_and_keeps_answering(scene: Scene) -> None:
    checker = CodeChecker("minimax", limits=LIMITS)
    for name, text in {"kill_parent": ISOLATED_ONLY["kill_parent"], "forged_channel": EVERYWHERE["forged_channel"],
                       "read_outside": ISOLATED_ONLY["read_outside"]}.items():
        checker.code.value = scene.fill(text)
        verdict = checker.check()
        never_right(verdict)
        assert "right on all" not in checker.report.value, name
        scene.untouched(checker.report.value)
    checker.code.value = inspect.getsource(solutions.lesson_01_minimax)
    assert checker.check().ok and "right on all 6 trees" in checker.report.value


# Tournament entries.

def play_entry(folder: Path, text: str, scratch: Path, seconds: float = 0.2) -> tuple[str | None, str | None, str]:
    """Play one 2-round game of an entry with ``text`` as X against the random bot: its result, the
    reason, and its log."""
    path = folder / "hostile_entry.py"
    path.write_text(text, encoding="utf-8")
    hostile = Entry(name="hostile", file=str(path), class_name="HostileBot")
    try:
        bot = start_entry(hostile, 1, str(scratch), EntryLimits(grace=1.0), cpu_seconds=30)
    except EngineError as error:  # it could not even start (say, its disk filled up): it loses at once
        return "X", error.reason, (scratch / "stderr.log").read_text(encoding="utf-8", errors="replace")
    try:
        record = play_game(AdjacencyGame(rounds=2), bot, RandomBot(seed=2), seconds, 0, grace=1.0)
    finally:
        getattr(bot, "close", lambda: None)()
    log = (scratch / "stderr.log").read_text(encoding="utf-8", errors="replace")
    return record.forfeit, record.reason, log


@pytest.mark.slow
def test_a_printing_entry_plays_and_its_print_goes_to_its_log(scene: Scene, tmp_path: Path) -> None:
    forfeit, reason, log = play_entry(scene.folder, entry("print('hello from the entry')"), tmp_path)
    assert forfeit is None, reason  # a whole game, the prints in the log
    assert "hello from the entry" in log and "thinking..." in log


@pytest.mark.parametrize("move", [MALFORMED_MOVES[-1], *(pytest.param(move, marks=pytest.mark.slow)
                                                        for move in MALFORMED_MOVES[:-1])])
def test_a_malformed_move_loses_the_game_with_its_reason(scene: Scene, tmp_path: Path, move: object) -> None:
    path = scene.folder / "bad.py"
    path.write_text(malformed(move), encoding="utf-8")
    bad, good = Entry(name="bad", file=str(path), class_name="HostileBot"), Entry(name="random", bot="random")
    record = play_tournament_game(TournamentGame(0, 1, bad, good, 8, 2, 0.3, EntryLimits(grace=1.0)))
    assert (record.result, record.reason, record.forfeit) == ("O", "protocol", "X")
    assert "not a square" in record.detail


@needs_bwrap
@pytest.mark.slow
@pytest.mark.parametrize("name", ["read_outside", "network", "double_fork", "kill_parent"])
def test_a_hostile_entry_reaches_nothing(name: str, scene: Scene, tmp_path: Path) -> None:
    attack = scene.fill(ISOLATED_ONLY[name]).replace(WRONG, "")
    forfeit, _, log = play_entry(scene.folder, entry(attack), tmp_path)
    assert forfeit is None  # it played on, harmlessly, and we are still here
    scene.untouched(log)


@pytest.mark.slow
@needs_bwrap
@pytest.mark.parametrize("name", sorted(set(ISOLATED_ONLY) - {"import_course"}) + ["fork_bomb_at_import"])
def test_every_hostile_entry_reaches_nothing(name: str, scene: Scene, tmp_path: Path) -> None:
    text = "import os\nif os.fork() == 0:\n    while True:\n        try:\n            os.fork()\n" \
           "        except OSError:\n            pass\n" if name == "fork_bomb_at_import" else ISOLATED_ONLY[name]
    _, _, log = play_entry(scene.folder, entry(scene.fill(text).replace(WRONG, "")), tmp_path)
    scene.untouched(log)


@pytest.mark.slow
def test_kill_9_of_a_tournament_runner_leaves_no_worker_nor_entry(scene: Scene, tmp_path: Path) -> None:
    (scene.folder / "slow.py").write_text(
        "import time\nfrom gamelib.play.bots.base import Decision\n\n\nclass SlowBot:\n    name = 'slow'\n\n"
        "    def choose(self, game, state, seconds):\n        time.sleep(seconds * 0.9)\n"
        "        return Decision(move=game.legal_moves(state)[0])\n", encoding="utf-8")
    (scene.folder / "entries.toml").write_text(
        "[[entry]]\nname = 'a'\nfile = 'slow.py'\nclass = 'SlowBot'\n\n"
        "[[entry]]\nname = 'b'\nfile = 'slow.py'\nclass = 'SlowBot'\n", encoding="utf-8")
    runner = subprocess.Popen([sys.executable, "-m", "gamelib", "tournament", str(scene.folder), "--out",
                               str(tmp_path / "out"), "--games", "4", "--time", "1", "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def descendants() -> list[psutil.Process]:
        try:
            return psutil.Process(runner.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def playing() -> list[psutil.Process]:
        return [process for process in psutil.process_iter(["cmdline"])
                if any("slow.py" in word for word in process.info["cmdline"] or [])]

    try:
        assert settled(lambda: len(playing()) >= 2, 60), "the tournament's entries never started"
        workers = descendants()
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
        assert settled(lambda: not playing(), 10), f"entries outlived the runner: {playing()}"
        assert settled(lambda: not any(worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE
                                       for worker in workers), 10), "workers outlived the runner"
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()
