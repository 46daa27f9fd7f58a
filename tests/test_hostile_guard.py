"""The red team's attacks on the boundary (issue 32), each now stopped.

Under the guard only (bubblewrap hidden), as root, student code runs as a uid of its own: a
``kill(-1, SIGKILL)`` ends only its own run, a detached double fork is gone when the run ends, and it
cannot write a root-owned file nor the grades CSV; where no uid can be had the run does not happen
and says why. A tournament entry cannot name a path outside its folder (a symlink, ``..``, an
absolute path). In bubblewrap's box every writable tmpfs is capped: writing past each cap grows the
machine's shared memory by no more than the caps.

Safety: the ``kill(-1)`` submission kills only after checking, itself, that it runs as a uid of the
guard's range with no capabilities, so that the kernel lets it reach no process but its own run's;
anywhere else it only prints why it did not. The tests that need root or bubblewrap skip, saying why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest

from gamelib.play import entries
from gamelib.play.box import guard as boundary
from gamelib.play.box.guard import (GUARD_ONLY, GUARD_UID_BASE, GUARD_UID_SPAN, ISOLATED, SHM_BYTES, GuardUser,
                                   bwrap_problem, processes_of)
from gamelib.play.engine_protocol import EngineError, ExternalBot
from gamelib.play.entries import Entry, EntryError, EntryLimits, load_entries, start_entry
from gamelib.play.box.limits import MQUEUE_BYTES
from gamelib.play.box import sandbox
from gamelib.teach.code_check import check_source
from gamelib.teach.grading import grade_folder, grade_source
from gamelib.play.box.sandbox import END, Limits, SandboxUnavailableError, run_in_sandbox
from tests.hostile import RIGHT
from tests.processes import alive_children, settled, sleeping

ROOT = os.name == "posix" and os.geteuid() == 0
WHY_NOT = bwrap_problem()
needs_root = pytest.mark.skipif(not ROOT, reason="the guard gives code a user of its own only as root")
needs_bwrap = pytest.mark.skipif(WHY_NOT is not None, reason=f"bubblewrap cannot box code here: {WHY_NOT}")

MARKER = "4711.125"
"""What a process a submission leaves behind sleeps for: no other process uses it."""

KILL_EVERYTHING = f'''
import os, signal, time
uid = os.getuid()
with open("/proc/self/status") as status:
    capabilities = [int(line.split()[1], 16) for line in status if line.startswith(("CapEff:", "CapPrm:"))]
own = {GUARD_UID_BASE} <= uid < {GUARD_UID_BASE + GUARD_UID_SPAN} and os.geteuid() == uid and not any(capabilities)
sibling = os.fork()
if sibling == 0:
    os.execv("/bin/sleep", ["sleep", "{MARKER}"])
time.sleep(0.3)
if own:  # an unprivileged uid's kill(-1) reaches only that uid's processes: this run's
    os.kill(-1, signal.SIGKILL)
    print("killed every process of uid", uid)
else:
    print("not killing: uid", uid, "capabilities", capabilities)
_, ended = os.waitpid(sibling, 0)
print("sibling ended by signal", os.WTERMSIG(ended) if os.WIFSIGNALED(ended) else None)
''' + RIGHT

DOUBLE_FORK = f'''
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "{MARKER}"])
    os._exit(0)
os.wait()
''' + RIGHT

FILL = '''
import json, os, sys, time
def fill(folder, most=384 * 2**20):
    written, number, chunk = 0, 0, bytes(2**20)
    while written < most:
        try:
            fd = os.open(os.path.join(folder, "fill-%d" % number), os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError as error:
            return [written, error.strerror]
        number += 1
        try:
            for _ in range(8):
                written += os.write(fd, chunk)
        except OSError as error:
            return [written, error.strerror]
        finally:
            os.close(fd)
    return [written, "wrote it all"]
filled = {folder: fill(folder) for folder in ("/tmp", "/dev/shm", "/dev")}
'''

MESSAGE_QUEUES = '''
import ctypes, os
library = ctypes.CDLL(None, use_errno=True)
if not hasattr(library, "mq_open"):
    library = ctypes.CDLL("librt.so.1", use_errno=True)
class Attributes(ctypes.Structure):
    _fields_ = [(name, ctypes.c_long) for name in ("flags", "maxmsg", "msgsize", "curmsgs")]
library.mq_open.restype = ctypes.c_int
library.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(Attributes)]
attributes, opened, names = Attributes(0, 1, 4096, 0), 0, []
while opened < 300:
    name = b"/gamelib-test-%d-%d" % (os.getpid(), opened)
    if library.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(attributes)) < 0:
        print("refused:", os.strerror(ctypes.get_errno()))
        break
    names.append(name)
    opened += 1
for name in names:
    library.mq_unlink(name)
print("queues", opened)
''' + RIGHT

NOISE_BYTES = 128 * 2**20
"""How much the machine's shared memory may grow by others' doing while a test measures it."""


def marked() -> list[psutil.Process]:
    """The processes a submission left running (``sleep MARKER``)."""
    return sleeping(MARKER)


def kill_by_pid(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass


def end_leftovers(users: list[GuardUser]) -> None:
    """Kill what a broken guard left running as one of ``users``: only for a uid of the guard's own
    range, which nothing but the test's runs has (never root's, never nobody's)."""
    kill_by_pid([pid for user in users if own_uid(user) for pid in processes_of(user.uid)])


def shared_memory() -> int:
    """The machine's shared memory (tmpfs files among it), in bytes: ``Shmem`` of /proc/meminfo."""
    for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
        if line.startswith("Shmem:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no Shmem line in /proc/meminfo")


@pytest.fixture(autouse=True)
def nothing_left_running() -> Iterator[None]:
    yield
    gone = settled(lambda: not marked())
    left = marked()
    kill_by_pid([process.pid for process in left])  # ours: it sleeps MARKER
    assert gone, f"a submission's process outlived its run: {left}"
    assert settled(lambda: not alive_children()), f"left running: {alive_children()}"


@pytest.fixture
def guard_only(monkeypatch: pytest.MonkeyPatch) -> list[GuardUser]:
    """Student code and entries run under the guard only, as where bubblewrap cannot run; the list
    fills with each run's user as it is given one."""
    users: list[GuardUser] = []

    def recorded() -> GuardUser:
        user = boundary.guard_user()
        users.append(user)
        return user

    for module in (sandbox, entries):
        monkeypatch.setattr(module, "boundary", lambda: GUARD_ONLY)
        monkeypatch.setattr(module, "guard_user", recorded)
    return users


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A new folder of root's in the temporary folder, open to others (read, not write), as a
    class's folder is; pytest's ``tmp_path`` is closed to them."""
    with tempfile.TemporaryDirectory(prefix="gamelib-hostile-guard-") as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


def own_uid(user: GuardUser) -> bool:
    """True if ``user`` is a uid of the guard's own range (so nothing but its run has it)."""
    return user.dropped and not user.shared and GUARD_UID_BASE <= user.uid < GUARD_UID_BASE + GUARD_UID_SPAN


# Under the guard only, as root: a user of its own.

@needs_root
def test_kill_minus_one_ends_only_its_own_run(guard_only: list[GuardUser], open_folder: Path) -> None:
    done = open_folder / "done"  # the other run lives until the killing run is over, and no longer
    waiting = (f"import os, time\nstarted = time.monotonic()\nwhile not os.path.exists({str(done)!r}) "
               "and time.monotonic() < started + 15:\n    time.sleep(0.02)\nprint('still here')\n")
    bystander = subprocess.Popen(["sleep", "4711.25"], start_new_session=True)  # root's: the machine's
    verdicts: dict[str, Any] = {}
    other_run = threading.Thread(target=lambda: verdicts.update(
        other=check_source("minimax", waiting + RIGHT, Limits(seconds=20))))
    try:
        other_run.start()
        assert settled(lambda: bool(guard_only) and bool(processes_of(guard_only[0].uid)), 10)
        verdict = check_source("minimax", KILL_EVERYTHING, Limits(seconds=10))
        done.touch()
        other_run.join()
        assert len(guard_only) == 2 and all(own_uid(user) for user in guard_only)
        assert f"killed every process of uid {guard_only[1].uid}" in verdict.output
        assert "sibling ended by signal 9" in verdict.output  # its own run's processes: killed
        assert verdict.ok, verdict.message  # and its own check carried on
        assert verdicts["other"].ok, verdicts["other"].message  # another run: untouched
        assert verdicts["other"].output == "still here\n"
        assert bystander.poll() is None  # the machine's: untouched
        assert guard_only[0].uid != guard_only[1].uid
    finally:
        done.touch()
        other_run.join()
        bystander.kill()
        bystander.wait()


@needs_root
def test_a_detached_double_fork_is_gone_after_the_run(guard_only: list[GuardUser],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    @contextmanager
    def no_cgroup(processes: int) -> Iterator[list[str]]:
        yield []

    monkeypatch.setattr(sandbox, "process_cap", no_cgroup)  # so only the uid's sweep can find it
    try:
        verdict = check_source("minimax", DOUBLE_FORK, Limits(seconds=5))
        assert verdict.ok, verdict.message
        (user,) = guard_only
        assert own_uid(user)
        assert processes_of(user.uid) == [] and marked() == []
    finally:
        end_leftovers(guard_only)


@needs_root
def test_the_code_cannot_write_a_root_file_it_could_write_as_root(guard_only: list[GuardUser], tmp_path: Path,
                                                                   open_folder: Path) -> None:
    closed, open_, new = tmp_path / "root.txt", open_folder / "root.txt", open_folder / "new.txt"
    for path in (closed, open_):
        path.write_text("root's\n", encoding="utf-8")
        path.chmod(0o644)
    attempt = (f"for path in {[str(closed), str(open_), str(new)]!r}:\n"
               "    try:\n        with open(path, 'a') as file:\n            file.write('forged')\n"
               "        print('wrote', path)\n"
               "    except OSError as error:\n        print('refused', path, type(error).__name__)\n")
    verdict = check_source("minimax", attempt + RIGHT, Limits(seconds=5))
    assert verdict.output.splitlines() == [f"refused {closed} PermissionError", f"refused {open_} PermissionError",
                                           f"refused {new} PermissionError"]
    assert closed.read_text(encoding="utf-8") == open_.read_text(encoding="utf-8") == "root's\n"
    assert not new.exists()
    assert os.access(open_, os.W_OK)  # as root (the code before issue 32), it could


@needs_root
def test_a_submission_cannot_touch_the_grades_csv(guard_only: list[GuardUser], open_folder: Path) -> None:
    folder, out = open_folder / "class", open_folder / "grades.csv"
    folder.mkdir()
    folder.chmod(0o755)
    (folder / "a_right.py").write_text(RIGHT, encoding="utf-8")
    forger = (f"try:\n    with open({str(out)!r}, 'a') as grades:\n        grades.write('b_forger,minimax,forged\\n')\n"
              "    wrote = True\nexcept OSError:\n    wrote = False\n"
              f"{RIGHT}\nif wrote:\n    my_minimax = lambda tree, node: 0\n")
    (folder / "b_forger.py").write_text(forger, encoding="utf-8")
    grades = {grade.student: grade for grade in grade_folder("minimax", folder, out, limits=Limits(seconds=5),
                                                             workers=1, progress=False)}
    assert grades["b_forger"].outcome == "right", grades["b_forger"].verdict  # "wrong" had its write gone through
    assert "forged" not in out.read_text(encoding="utf-8")
    assert all(own_uid(user) for user in guard_only) and len(guard_only) == 2


@needs_root
def test_where_no_user_can_be_had_nothing_runs_and_the_verdict_says_why(guard_only: list[GuardUser],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boundary, "_id_map", lambda kind: "0 0 1000\n")  # neither the range nor nobody
    with pytest.raises(SandboxUnavailableError, match="^not run: as root, the guard runs code only as another user"):
        run_in_sandbox("gamelib.play.box.child:echo", {"say": "hello"})
    verdict = check_source("minimax", RIGHT)
    assert verdict.report is None and verdict.message.startswith("not run: ")
    grade = grade_source("minimax", "ada", RIGHT)
    assert grade.outcome == "error" and grade.verdict.startswith("not run: ")


@needs_root
def test_the_result_names_the_user_the_code_ran_as(guard_only: list[GuardUser]) -> None:
    result = run_in_sandbox("gamelib.play.box.child:echo", {"say": "hello"})
    (user,) = guard_only
    assert result.boundary == GUARD_ONLY and result.uid == user.uid
    assert result.where == f"guard only (uid {user.uid})"


# Tournament entries under the guard only, as root.

ENTRY = '''
import os, sys
print("uid", os.getuid(), "in", os.getcwd(), file=sys.stderr)
for path in PATHS:
    try:
        with open(path, "a") as file:
            file.write("forged")
        print("wrote", path, file=sys.stderr)
    except OSError as error:
        print("refused", path, type(error).__name__, file=sys.stderr)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "MARKER"])
    os._exit(0)
os.wait()
'''

BOT = '''
from gamelib.play.bots.base import Decision


class HostileBot:
    def choose(self, game, state, seconds):
        return Decision(move=game.legal_moves(state)[0])
'''


@needs_root
def test_an_entry_runs_as_a_user_of_its_own_and_leaves_nothing(guard_only: list[GuardUser],
                                                               open_folder: Path) -> None:
    log_folder = open_folder / "scratch"
    log_folder.mkdir()
    grades = open_folder / "standings.csv"
    grades.write_text("root's\n", encoding="utf-8")
    path = open_folder / "hostile.py"
    path.write_text(ENTRY.replace("PATHS", repr([str(grades)])).replace("MARKER", MARKER) + BOT, encoding="utf-8")
    bot = start_entry(Entry(name="hostile", file=str(path), class_name="HostileBot"), 1, str(log_folder),
                      EntryLimits(grace=2.0), cpu_seconds=30)
    assert isinstance(bot, ExternalBot)
    try:
        (user,) = guard_only
        assert own_uid(user) and getattr(bot, "identity", "") == f"uid {user.uid}"
        assert settled(lambda: len(marked()) == 1)  # its detached sleeper runs, as that uid
        assert [process.uids().real for process in marked()] == [user.uid]
    finally:
        bot.close()
    log = (log_folder / "stderr.log").read_text(encoding="utf-8")
    assert f"uid {user.uid} in {log_folder / 'work'}" in log and f"refused {grades} PermissionError" in log
    assert grades.read_text(encoding="utf-8") == "root's\n"
    assert processes_of(user.uid) == [] and marked() == []
    assert oct(log_folder.stat().st_mode & 0o777) == "0o711" and (log_folder / "stderr.log").stat().st_uid == 0


@needs_root
def test_an_entry_its_user_cannot_reach_is_not_run(guard_only: list[GuardUser], tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    closed.mkdir()
    closed.chmod(0o700)  # closed to other users
    path = closed / "bot.py"
    path.write_text("class Bot:\n    pass\n", encoding="utf-8")
    scratch = tempfile.mkdtemp(prefix="gamelib-hostile-guard-")
    try:
        with pytest.raises(EngineError, match=r"^entry bot: not run: uid \d+ cannot reach .* is closed to other "
                                              r"users \(mode 0700\)$") as refused:
            start_entry(Entry(name="bot", file=str(path), class_name="Bot"), 1, scratch)
        assert refused.value.reason == "crash"
    finally:
        shutil.rmtree(scratch)
    assert processes_of(guard_only[0].uid) == []


# Paths an entry names.

@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the submissions folder, with a secret in it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret").write_text("canary-32\n", encoding="utf-8")
    (folder / "bot.py").write_text("class Bot:\n    pass\n", encoding="utf-8")
    return folder


def manifest(folder: Path, entry: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "entries.toml").write_text(f"[[entry]]\nname = 'sneaky'\n{entry}\n\n[[entry]]\nname = 'random'\n"
                                         "bot = 'random'\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("entry, named", [
    ("command = ['team/secret']", "command word 'team/secret'"),  # a symlink to a file outside
    ("command = ['./run', 'team/secret']", "command word 'team/secret'"),  # as an argument, too
    ("command = ['cat', '../outside/secret']", "command word '../outside/secret'"),
    ("command = ['cat', 'OUTSIDE/secret']", "command word 'OUTSIDE/secret'"),  # absolute
    ("command = ['team/out/secret']", "command word 'team/out/secret'"),  # through a symlinked folder
    ("file = 'team/bot.py'\nclass = 'Bot'", "file 'team/bot.py'"),
    ("file = '../outside/bot.py'\nclass = 'Bot'", "file '../outside/bot.py'"),
])
def test_a_path_an_entry_names_must_resolve_inside_its_folder(tmp_path: Path, outside: Path, entry: str,
                                                              named: str) -> None:
    folder = tmp_path / "submissions"
    (folder / "team").mkdir(parents=True)
    (folder / "run").write_text("#!/bin/sh\n", encoding="ascii")
    (folder / "team" / "secret").symlink_to(outside / "secret")
    (folder / "team" / "bot.py").symlink_to(outside / "bot.py")
    (folder / "team" / "out").symlink_to(outside)
    manifest(folder, entry.replace("OUTSIDE", str(outside)))
    named = named.replace("OUTSIDE", str(outside))
    with pytest.raises(EntryError) as refused:
        load_entries(folder)
    said = str(refused.value)
    assert "\n" not in said and "(sneaky)" in said and named in said  # one line, naming the entry and the path
    assert f"resolves to {outside}" in said and f"outside the submissions folder {folder}" in said


def test_a_path_inside_the_folder_is_its_real_path_symlinks_and_dots_resolved(tmp_path: Path) -> None:
    folder = tmp_path / "submissions"
    (folder / "team").mkdir(parents=True)
    (folder / "team" / "bot").write_text("#!/bin/sh\n", encoding="ascii")
    (folder / "link").symlink_to(folder / "team" / "bot")
    manifest(folder, "command = ['./link', '--fast', 'team/../team/bot', 'python3']")
    sneaky = load_entries(folder)[0]
    real = str((folder / "team" / "bot").resolve())
    assert sneaky.command == (real, "--fast", real, "python3")
    assert entries._entry_binds(sneaky)[-1] == (str((folder / "team").resolve()),) * 2


# Bubblewrap's box: every writable tmpfs capped.

@needs_bwrap
def test_writing_past_each_cap_in_the_checkers_box_grows_shared_memory_by_no_more_than_the_caps() -> None:
    limits = Limits(seconds=20)
    source = FILL + "os.write(int(sys.argv[3]), (json.dumps({'filled': filled}) + '\\n').encode())\ntime.sleep(15)\n"
    heard: dict[str, Any] = {}

    def listen(message: Any) -> Any:
        if isinstance(message, dict) and "filled" in message:
            heard.update(message["filled"], grown=shared_memory() - before)  # while the box holds it all
            return END
        return None

    before = shared_memory()
    result = run_in_sandbox("gamelib.play.box.answers:answer_in_box", {"function": "f", "source": source, "call": "value",
                                                                    "trees": []}, limits, listen=listen)
    assert result.boundary == ISOLATED and heard, (result.outcome, result.stderr)
    assert heard["/tmp"][0] <= limits.file_bytes and heard["/tmp"][1] == "No space left on device"
    assert heard["/dev/shm"][0] <= SHM_BYTES and heard["/dev/shm"][1] == "No space left on device"
    assert heard["/dev"] == [0, "Read-only file system"]
    assert heard["grown"] < limits.file_bytes + SHM_BYTES + NOISE_BYTES, heard


@needs_bwrap
@pytest.mark.slow
def test_writing_past_each_cap_in_an_entrys_box_grows_shared_memory_by_no_more_than_the_caps(
        open_folder: Path) -> None:
    path = open_folder / "filler.py"
    path.write_text(FILL + "print(json.dumps({'filled': filled}), file=sys.stderr)\n" + BOT, encoding="utf-8")
    limits = EntryLimits(grace=2.0)
    scratch = open_folder / "scratch"
    scratch.mkdir()
    before = shared_memory()
    bot = start_entry(Entry(name="filler", file=str(path), class_name="HostileBot"), 1, str(scratch), limits,
                      cpu_seconds=60)
    assert isinstance(bot, ExternalBot)
    try:
        grown = shared_memory() - before  # it has started: it wrote all it could, and its box holds it
    finally:
        bot.close()
    line = next(line for line in (scratch / "stderr.log").read_text(encoding="utf-8").splitlines()
                if line.startswith('{"filled"'))
    filled = json.loads(line)["filled"]
    assert filled["/tmp"][0] <= limits.file_bytes and filled["/tmp"][1] == "No space left on device"
    assert filled["/dev/shm"][0] <= SHM_BYTES and filled["/dev/shm"][1] == "No space left on device"
    assert filled["/dev"] == [0, "Read-only file system"]
    assert grown < limits.file_bytes + SHM_BYTES + NOISE_BYTES, (grown, filled)


@pytest.mark.parametrize("box", [pytest.param(ISOLATED, marks=needs_bwrap), GUARD_ONLY])
def test_message_queues_are_capped(box: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "boundary", lambda: box)
    verdict = check_source("minimax", MESSAGE_QUEUES, Limits(seconds=10))
    assert verdict.ok and verdict.boundary == box, verdict.message
    opened = int(re.search(r"queues (\d+)", verdict.output).group(1))  # type: ignore[union-attr]
    assert "refused:" in verdict.output and 1 <= opened and opened * 4096 <= MQUEUE_BYTES, verdict.output
