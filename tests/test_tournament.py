"""The class tournament: entries, faults that lose a game, schedules, resuming after kill -9, the
CLI, the leaderboard, and the dask path giving the same games as the process pool."""

from __future__ import annotations

import csv
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psutil
import pytest

from gamelib.play import engine_protocol
from gamelib.play.box.guard import bwrap_problem
from gamelib.play.entries import Entry, EntryError, EntryLimits, course_entry, load_entries
from gamelib.play.match_stats import head_to_head, standings_csv
from gamelib.play.records import GameRecord, read_records
from gamelib.play.tournament import GAMES_FILE, TournamentGame, play_tournament_game, run_tournament, swiss_round
from gamelib.view.leaderboard import leaderboard_html

ROOT = Path(__file__).resolve().parent.parent

GOOD = """
from gamelib.play.bots.base import Decision

class Greedy:
    name = "greedy"

    def choose(self, game, state, seconds):
        side = 0 if state.to_move.value == "X" else 1
        return Decision(move=max(game.legal_moves(state), key=lambda m: game.counts(game.result(state, m))[side]))
"""

FAULTS = {  # name: (source of the bot's choose body, the reason its game must be lost with)
    "loop": ("while True:\n            pass", "timeout"),
    "crash": ("return 1 / 0", "crash"),
    "illegal": ("from gamelib.play.bots.base import Decision\n        "
                "return Decision(move=next(m for m in range(64) if m not in game.legal_moves(state)))", "illegal"),
    "hog": ("self.block = bytearray(2 * 2**30)\n        return Decision(move=game.legal_moves(state)[0])", "memory"),
}

GARBAGE = "#!/bin/sh\nwhile read line; do echo \"%%% not a move %%%\"; done\n"


def write_bot(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(f"from gamelib.play.bots.base import Decision\n\nclass Bot:\n    name = {name!r}\n\n"
                    f"    def choose(self, game, state, seconds):\n        {body}\n", encoding="utf-8")
    return path


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    """A folder with a good file entry, the four faulty file entries, a garbage-printing program
    and a course bot, described by entries.toml."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "greedy.py").write_text(GOOD, encoding="utf-8")
    lines = ['[[entry]]\nname = "greedy"\nteam = "Team 1"\nfile = "greedy.py"\nclass = "Greedy"\n']
    for name, (body, _) in FAULTS.items():
        write_bot(folder, name, body)
        lines.append(f'[[entry]]\nname = "{name}"\nfile = "{name}.py"\nclass = "Bot"\n')
    (folder / "garbage.sh").write_text(GARBAGE, encoding="utf-8")
    (folder / "garbage.sh").chmod(0o755)
    lines.append('[[entry]]\nname = "garbage"\ncommand = ["garbage.sh"]\n')
    lines.append('[[entry]]\nname = "random"\nbot = "random"\n')
    (folder / "entries.toml").write_text("\n".join(lines), encoding="utf-8")
    return folder


def entry_processes(folder: Path) -> list[psutil.Process]:
    """Processes still running code of the submissions ``folder``."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        if any(str(folder) in word for word in process.info["cmdline"] or []):
            found.append(process)
    return found


def test_the_manifest_gives_each_kind_of_entry(submissions: Path) -> None:
    entries = {entry.name: entry for entry in load_entries(submissions)}
    assert entries["greedy"].kind == "file" and entries["greedy"].team == "Team 1"
    assert entries["garbage"].command == (str(submissions / "garbage.sh"),)  # a file of the folder: its full path
    assert entries["random"] == Entry(name="random", team="course", bot="random")


@pytest.mark.parametrize("text, message", [
    ("", r"no \[\[entry\]\]"),
    ("[[entry]]\nname = 'a'\nbot = 'random'\n[[entry]]\nname = 'a'\nbot = 'random'\n", "a used twice"),
    ("[[entry]]\nname = 'a'\nfile = 'missing.py'\nclass = 'Bot'\n", "must exist"),
    ("[[entry]]\nname = 'a'\nbot = 'nobody'\n", "unknown bot"),
    ("[[entry]\n", "not valid TOML"),
])
def test_a_bad_manifest_is_named(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "entries.toml").write_text(text, encoding="utf-8")
    with pytest.raises(EntryError, match=message):
        load_entries(tmp_path)


REAPED_SECONDS = 60.0
"""How long a test waits for the processes a game started to be gone after the game returns: the
kernel ends a killed process, and a box's PID namespace, a moment later, and under load that
moment can be long. A process left running (an entry's endless loop) is still there after it."""


def started_processes(monkeypatch: pytest.MonkeyPatch) -> list[psutil.Process]:
    """The process of every external entry started from now on (the one the engine client starts:
    the entry itself, or its box), recorded as psutil handles as it starts, so a reused pid is not
    mistaken for one of them; an entry that fails to start is recorded too."""
    found: list[psutil.Process] = []
    real = engine_protocol._start

    def recorded(*arguments: Any, **options: Any) -> Any:
        process = real(*arguments, **options)
        with contextlib.suppress(psutil.NoSuchProcess):
            found.append(psutil.Process(process.pid))
        return process

    monkeypatch.setattr(engine_protocol, "_start", recorded)
    return found


def alive(processes: Sequence[psutil.Process]) -> list[psutil.Process]:
    """Those of ``processes`` still running (a zombie has ended: only its exit status is left)."""
    def running(process: psutil.Process) -> bool:
        try:
            return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False
    return [process for process in processes if running(process)]


def reaped(processes: Sequence[psutil.Process], seconds: float = REAPED_SECONDS) -> list[psutil.Process]:
    """Wait up to ``seconds`` for ``processes`` to end; those still running then."""
    deadline = time.monotonic() + seconds
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive(processes)


@pytest.mark.parametrize("name", [*FAULTS, "garbage"])
def test_a_fault_loses_with_its_reason_in_time_and_leaves_no_process(submissions: Path, name: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    entries = {entry.name: entry for entry in load_entries(submissions)}
    reason = FAULTS[name][1] if name in FAULTS else "protocol"
    limits, seconds = EntryLimits(grace=0.5), 0.3
    started = started_processes(monkeypatch)

    record = play_tournament_game(TournamentGame(0, 1, entries[name], entries["random"], 8, 2, seconds, limits))
    assert (record.result, record.reason, record.forfeit, record.moves) == ("O", reason, "X", ()), record.detail
    if name == "crash":  # write_bot puts choose's body on line 7 of crash.py
        assert record.detail.endswith("(crash.py, line 7)"), record.detail
    assert started, "the game started no process of the entry"
    # the run's own processes: the entry's, and whatever runs code of this test's own folder (its box,
    # its Python); each is waited for until it ends (the kernel takes a moment), not raced
    assert reaped([*started, *entry_processes(submissions)]) == []
    assert entry_processes(submissions) == []


@pytest.mark.slow
def test_a_tournament_goes_on_past_every_fault(submissions: Path, tmp_path: Path) -> None:
    result = run_tournament(load_entries(submissions), games=2, rounds=2, seconds=0.2, out=tmp_path / "out",
                            workers=2, progress=False)
    assert len(result.records) == 7 * 6 // 2 * 2
    rows = {row.name: row for row in result.table}
    for name, (_, reason) in FAULTS.items():
        assert rows[name].faults.startswith(f"{reason} "), rows[name]  # it lost each of its games by it,
        assert rows[name].forfeits >= 12 - 2 * 5 + 2  # except those against another faulty entry that failed first
    assert rows["loop"].timeouts == rows["loop"].forfeits
    assert rows["greedy"].points == 12 and rows["greedy"].rank == 1  # won every game
    assert [line.split(",")[1] for line in standings_csv(result.table).splitlines()[1:3]] == ["greedy", "random"]
    assert entry_processes(submissions) == []


def test_old_match_files_still_load() -> None:
    # Lesson 7's six files and lesson 9's four MCTS files (1 s and 5 s, both rules): 40 games each,
    # every one played to its end.
    folder = ROOT / "gamelib" / "data" / "tournaments"
    files = sorted(path for path in folder.glob("*.jsonl") if not path.name.startswith("class_tournament"))
    assert len(files) == 10
    for path in files:
        records = read_records(path)
        assert len(records) == 40, path.name
        assert {(r.reason, r.forfeit, r.detail) for r in records} == {("played", None, "")}, path.name
    # Lesson 10's class tournament: five entries, two games a pairing; slow loses every game it is in
    # by timeout and crashy by crash (the first faulty side to move loses when both are in), the six
    # games between the three working entries are played out.
    games = read_records(folder / "class_tournament_lesson10.jsonl")
    assert len(games) == 20 and sorted(game.index for game in games) == list(range(20))
    faulty = {"slow": "timeout", "crashy": "crash"}
    for game in games:
        sides = [name for name in (game.x, game.o) if name in faulty]
        assert game.reason == ("played" if not sides else faulty[game.x if game.x in faulty else game.o]), game.index
    assert sum(game.reason == "played" for game in games) == 6


def test_swiss_rounds_pair_equal_scores_without_rematches() -> None:
    entries = [course_entry("random", f"r{k}") for k in range(5)]
    first = swiss_round(entries, [], 0, 2, 2, 8, 1.0, 0)
    # Round 0, all on 0 points, manifest order: r4 sits out, r0-r1 and r2-r3 each play 2 games.
    assert [(task.index, task.x.name, task.o.name) for task in first] == [
        (0, "r0", "r1"), (1, "r1", "r0"), (2, "r2", "r3"), (3, "r3", "r2")]
    played = [GameRecord(t.index, t.seed, t.x.name, t.o.name, 8, 2, 1.0, (), (0, 0), "X", (), (), (), ())
              for t in first]  # X won each: every player of round 0 has 1 point
    second = swiss_round(entries, played, 1, 2, 2, 8, 1.0, 0)
    # Ranked r0, r1, r2, r3 (1 point, manifest order), r4 (0): round 1's bye is the second from the
    # bottom, r3; r0 has met r1, so meets r2; r1 meets r4.
    assert [(task.index, task.x.name, task.o.name) for task in second[::2]] == [(4, "r0", "r2"), (6, "r1", "r4")]


def test_a_swiss_tournament_runs_and_resumes(tmp_path: Path) -> None:
    entries = [course_entry("random", f"r{k}") for k in range(5)]
    options = dict(games=2, rounds=2, seconds=0.5, out=tmp_path, schedule="swiss", swiss_rounds=3, progress=False)
    with ThreadPoolExecutor(2) as pool:
        first = run_tournament(entries, executor=pool, **options)  # type: ignore[arg-type]
        lines = (tmp_path / GAMES_FILE).read_text().splitlines()
        second = run_tournament(entries, executor=pool, **options)  # type: ignore[arg-type]
    assert len(first.records) == 3 * 2 * 2 == len(lines)
    assert second.records == first.records and (tmp_path / GAMES_FILE).read_text().splitlines() == lines


@pytest.mark.slow
def test_kill_9_then_resume_plays_every_game_once(tmp_path: Path) -> None:
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "greedy.py").write_text(GOOD, encoding="utf-8")
    (folder / "entries.toml").write_text(
        '[[entry]]\nname = "greedy"\nfile = "greedy.py"\nclass = "Greedy"\n\n'
        '[[entry]]\nname = "random"\nbot = "random"\n\n[[entry]]\nname = "hillclimb"\nbot = "hillclimb"\n')
    out = tmp_path / "out"
    command = [sys.executable, "-m", "gamelib", "tournament", str(folder), "--games", "8", "--rounds", "3",
               "--time", "0.05", "--out", str(out), "--workers", "2", "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    games = out / GAMES_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or len(games.read_bytes().splitlines()) < 4):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the tournament and its workers, mid-tournament
    process.wait()
    killed_with = len(read_records(games))
    assert 4 <= killed_with < 24
    with (out / "standings.csv").open(newline="", encoding="utf-8") as file:  # rewritten as games end: still there
        played = sum(int(row["games"]) for row in csv.DictReader(file))
    assert 2 <= played <= 2 * killed_with, f"the killed run should leave standings of games it played; got {played}"
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    problem = bwrap_problem()  # the summary says where the submission ran
    assert ("submissions ran isolated (bubblewrap)" if problem is None
            else f"submissions ran under the guard only ({problem})") in finished.stdout.splitlines()
    indices = [record.index for record in read_records(games)]
    assert sorted(indices) == list(range(3 * 8))  # every game exactly once
    assert (out / "leaderboard.html").exists() and (out / "standings.csv").exists()


def test_the_cli_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "gamelib", "tournament", str(tmp_path), "--out", str(tmp_path / "o")],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"python -m gamelib: error: {tmp_path} has no entries.toml and no team "
                                          "folders: give a subfolder per team, each with its bot's Python file, or "
                                          "describe the entries in entries.toml"]


def test_the_leaderboard_shows_standings_ratings_matrix_and_times() -> None:
    entries = [course_entry("random"), course_entry("hillclimb")]
    with ThreadPoolExecutor(1) as pool:
        result = run_tournament(entries, games=4, rounds=2, seconds=0.5, executor=pool, progress=False)
    page = leaderboard_html(result)
    assert page.count("<svg") == 2 and "<h2>Head to head</h2>" in page and "<table class=matrix>" in page
    for row in result.table:
        assert f"<td class=l>{row.name}</td>" in page and f"[{row.low:.0f}, {row.high:.0f}]" in page
    matrix = head_to_head([row.name for row in result.table], result.records)
    assert matrix[0][0] is None and matrix[0][1] is not None and matrix[0][1] + matrix[1][0] == 1.0  # type: ignore[operator]
    assert f">{matrix[0][1]:.2f}</td>" in page and f">{matrix[1][0]:.2f}</td>" in page  # the table shows each score


DASK_ENTRIES = [course_entry("random"), course_entry("hillclimb"), course_entry("random:", "random2")]
DASK_OPTIONS: dict[str, Any] = dict(games=2, rounds=3, seconds=0.5, seed=7, progress=False)


def games_of(records: Sequence[GameRecord]) -> list[list[Any]]:
    """What must agree between two runs of the same seeded games: all but the move times."""
    return [[r.index, r.x, r.o, list(r.moves), r.result, r.reason] for r in records]


def dask_games() -> None:
    """Print the games of the tournament played on a LocalCluster of two worker processes, as JSON
    (run in a child process: the cluster's multiprocessing leaves a resource tracker behind)."""
    import distributed

    # distributed's LocalCluster and Client are unannotated
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                                   host="127.0.0.1", dashboard_address=None) as cluster,
          distributed.Client(cluster) as client):  # type: ignore[no-untyped-call]
        result = run_tournament(DASK_ENTRIES, executor=client.get_executor(), **DASK_OPTIONS)
    print(json.dumps(games_of(result.records)))


@pytest.mark.slow  # starts a dask LocalCluster in a child process: seconds
def test_dask_plays_the_same_games_as_the_process_pool() -> None:
    pytest.importorskip("distributed")
    pooled = run_tournament(DASK_ENTRIES, workers=2, **DASK_OPTIONS)
    child = subprocess.run([sys.executable, "-c", "from tests.test_tournament import dask_games; dask_games()"],
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                           timeout=180)
    assert child.returncode == 0, child.stderr[-2000:]
    on_dask = json.loads(child.stdout.splitlines()[-1])
    assert on_dask == games_of(pooled.records) and len(on_dask) == 6


def test_an_entry_over_its_cpu_time_loses_with_reason_cpu(tmp_path: Path) -> None:
    # The bot burns CPU in its move until the kernel's 1 s CPU limit ends it, long before its
    # 5 s move limit: the game is lost with the reason "cpu", and its process is gone.
    write_bot(tmp_path, "burner", "import time\n        while time.process_time() < 30:\n            pass")
    burner = Entry(name="burner", file=str(tmp_path / "burner.py"), class_name="Bot")
    limits = EntryLimits(grace=0.5, cpu_seconds=1)
    record = play_tournament_game(TournamentGame(0, 1, burner, Entry(name="random", bot="random"), 8, 2, 5.0, limits))
    assert (record.result, record.reason, record.forfeit) == ("O", "cpu", "X"), record.detail  # not "timeout"
    assert entry_processes(tmp_path) == []


def test_the_cpu_budget_is_twice_the_wall_time_of_the_entrys_moves() -> None:
    # 10 s to start, then 2 x 28 moves x (1 s + 0.5 s grace) = 84 s: 94 s in all (by hand).
    assert EntryLimits().cpu_budget(28, 1.0) == 94
    assert EntryLimits(start_seconds=0, grace=0).cpu_budget(3, 0.1) == 1  # 0.6 s, rounded up
    assert EntryLimits(cpu_seconds=7).cpu_budget(28, 1.0) == 7


def test_on_game_sees_every_game_as_it_ends(tmp_path: Path) -> None:
    """The standings can be rewritten as games end: on_game gets the records so far, one more each time."""
    seen: list[int] = []
    entries = [course_entry("random"), course_entry("hillclimb")]
    with ThreadPoolExecutor(1) as pool:
        result = run_tournament(entries, games=4, rounds=2, seconds=0.5, executor=pool, progress=False,
                                on_game=lambda records: seen.append(len(records)))
    assert seen == list(range(1, len(result.records) + 1)) == [1, 2, 3, 4]
