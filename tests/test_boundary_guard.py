"""The guard's user of its own (gamelib.play.box.guard.guard_user): as root, each run under the guard
only gets a uid and gid no live process has, drawn from a range of its own, or nobody where the kernel
maps none of those, or no run at all, saying why; a Python that uid can reach; and when the run ends,
every process of that uid is gone and what it left in the shared folders removed. Not root, the code
runs as this user and the result says so.

The tests that start processes under another uid need root and skip, saying so, elsewhere. Every
process they start sleeps and is harmless; each test ends what it started by its id.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamelib.play.box import guard as boundary
from gamelib.play.box.guard import (GUARD_UID_BASE, GUARD_UID_SPAN, NOBODY, GuardUser, NotRunError, guard_python,
                                   guard_user, processes_of, unreachable)
from gamelib.play.box.limits import NOT_RUN_STATUS, dropped_command, limited_command
from tests.processes import settled

ROOT = os.name == "posix" and os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="only root can start a process as another user")
VERSION = "%d.%d" % sys.version_info[:2]


def in_range(uid: int) -> bool:
    return GUARD_UID_BASE <= uid < GUARD_UID_BASE + GUARD_UID_SPAN


def as_user(user: GuardUser, command: list[str]) -> subprocess.Popen[bytes]:
    """``command`` started as ``user`` in a session of its own (as the guard starts a run)."""
    return subprocess.Popen(command, user=user.uid, group=user.gid, extra_groups=[], start_new_session=True,
                            env={}, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)




def end_leftovers(user: GuardUser) -> None:
    """Kill what a broken guard left running as ``user``: only for a uid of the guard's own range,
    which nothing but the test's runs has (never root's, never nobody's)."""
    if not (user.dropped and not user.shared and in_range(user.uid)):
        return
    for pid in processes_of(user.uid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A new folder in the temporary folder, open to other users (pytest's ``tmp_path`` is not)."""
    with tempfile.TemporaryDirectory(prefix="gamelib-guard-test-") as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


@pytest.fixture
def user() -> Iterator[GuardUser]:
    """A user of the guard's own, ended after the test whatever it did."""
    claimed = guard_user()
    yield claimed
    claimed.end()
    end_leftovers(claimed)


# Which user.

@needs_root
def test_as_root_each_run_has_a_uid_of_its_own_from_the_range(user: GuardUser) -> None:
    other = guard_user()
    try:
        assert user.dropped and not user.shared and in_range(user.uid) and user.gid == user.uid
        assert in_range(other.uid) and other.uid != user.uid  # two runs at once never share a uid
        assert processes_of(user.uid) == [] and processes_of(other.uid) == []  # no live process has it
        assert user.identity == f"uid {user.uid}"
    finally:
        other.end()


@needs_root
def test_where_the_kernel_maps_no_uid_of_the_range_the_guard_falls_back_to_nobody(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boundary, "_id_map", lambda kind: "0 0 65536\n")  # a container's user namespace
    fallback = guard_user()
    assert (fallback.uid, fallback.gid, fallback.shared, fallback.dropped) == (NOBODY, NOBODY, True, True)
    assert fallback.identity == "uid 65534 (nobody, shared)"
    assert not boundary._claimed  # the refused uid of the range is not held


@needs_root
def test_where_the_kernel_maps_neither_the_run_does_not_happen_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boundary, "_id_map", lambda kind: "0 0 1000\n")
    with pytest.raises(NotRunError) as refused:
        guard_user()
    said = str(refused.value)
    assert said.startswith("not run: as root, the guard runs code only as another user")
    assert f"maps no uid {NOBODY}" in said and "it maps 0-999" in said
    assert not boundary._claimed


@pytest.mark.parametrize("text, uid, mapped", [
    ("0 0 4294967295\n", GUARD_UID_BASE, True),
    ("0 100000 65536\n", GUARD_UID_BASE, False),
    ("0 100000 65536\n", NOBODY, True),
    ("0 1000 1\n1 100000 65536\n", 65536, True),
    ("0 1000 1\n1 100000 65536\n", 65537, False),
])
def test_a_uid_is_taken_only_where_the_user_namespace_maps_it(monkeypatch: pytest.MonkeyPatch, text: str, uid: int,
                                                               mapped: bool) -> None:
    monkeypatch.setattr(boundary, "_id_map", lambda kind: text)
    assert (boundary._unmapped(uid) is None) == mapped


@pytest.fixture
def no_process_starts(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The guard's helpers are recorded, never started: a test of what must not be swept is safe
    even where the guard is broken."""
    started: list[object] = []
    monkeypatch.setattr(subprocess, "run", lambda *arguments, **options: started.append(arguments))
    return started


def test_not_root_the_code_runs_as_this_user_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                         no_process_starts: list[object]) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr(os, "getuid", lambda: 1000)
    plain = guard_user()
    assert (plain.uid, plain.dropped, plain.python) == (1000, False, sys.executable)
    assert plain.identity == "uid 1000, this user (not root: the guard cannot change user)"
    plain.end()  # nothing to end: it must not kill this user's processes (the test's own among them)
    assert no_process_starts == []


@pytest.mark.parametrize("uid", [0, 1000, NOBODY, GUARD_UID_BASE - 1, GUARD_UID_BASE + GUARD_UID_SPAN])
def test_only_a_uid_of_the_guards_own_range_is_ever_swept(uid: int, no_process_starts: list[object]) -> None:
    GuardUser(uid, uid, sys.executable).end()  # as if dropped, and not shared: still not swept
    assert no_process_starts == []
    with pytest.raises(ValueError, match="only uids of its own range"):
        boundary._end_processes(uid, uid)
    with pytest.raises(ValueError, match="only of uids of its own range"):
        boundary._remove_leftovers(uid)
    assert no_process_starts == []


# Which Python.

def test_a_folder_closed_to_others_on_the_way_makes_a_path_unreachable(open_folder: Path) -> None:
    closed, open_ = open_folder / "closed", open_folder / "open"
    for folder, mode in ((closed, 0o700), (open_, 0o755)):
        folder.mkdir()
        (folder / "python").write_text("#!/bin/sh\n", encoding="ascii")
        (folder / "python").chmod(0o755)
        folder.chmod(mode)
    assert unreachable(closed / "python", execute=True) == f"{closed} is closed to other users (mode 0700)"
    (open_ / "python").chmod(0o750)
    assert unreachable(open_ / "python", execute=True) == (f"{open_ / 'python'} is not readable and runnable by "
                                                           "other users (mode 0750)")
    (open_ / "python").chmod(0o644)
    assert unreachable(open_ / "python") is None and unreachable(open_ / "python", execute=True) is not None
    link = open_ / "link"
    link.symlink_to(closed / "python")  # an open way to a closed place: closed
    assert unreachable(link) == f"{closed} is closed to other users (mode 0700)"


@needs_root
def test_the_python_is_ours_if_reachable_else_a_system_one_of_the_same_version(
        monkeypatch: pytest.MonkeyPatch, user: GuardUser) -> None:
    monkeypatch.setattr(boundary, "_pythons", {})
    python = guard_python(user.uid, user.gid)
    assert unreachable(python, execute=True) is None
    if unreachable(sys.executable, execute=True) is not None:  # here: the venv's Python lives under /root
        assert python != sys.executable and os.path.dirname(python) in ("/usr/local/bin", "/usr/bin", "/bin")
    said = subprocess.run([python, "-I", "-S", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                          user=user.uid, group=user.gid, extra_groups=[], capture_output=True, text=True, check=True)
    assert said.stdout.strip() == VERSION


@needs_root
def test_no_python_that_uid_can_reach_means_no_run(monkeypatch: pytest.MonkeyPatch, user: GuardUser) -> None:
    monkeypatch.setattr(boundary, "_pythons", {})
    monkeypatch.setattr(boundary, "unreachable", lambda path, execute=False: "/root is closed to other users")
    with pytest.raises(NotRunError, match=f"not run: no Python {VERSION} that uid {user.uid} can run: "
                                          ".*/root is closed to other users"):
        guard_python(user.uid, user.gid)


@needs_root
def test_a_python_of_another_version_will_not_do(monkeypatch: pytest.MonkeyPatch, user: GuardUser) -> None:
    monkeypatch.setattr(boundary, "_pythons", {})
    python = guard_python(user.uid, user.gid)  # one the uid can run, of our version
    monkeypatch.setattr(boundary, "_pythons", {})
    monkeypatch.setattr(sys, "version_info", (2, 7, 18, "final", 0))
    monkeypatch.setattr(sys, "executable", python)
    monkeypatch.setattr(shutil, "which", lambda name, path=None: python)  # as if it were python2.7
    with pytest.raises(NotRunError, match=f"{python} is not a working Python 2.7 for uid {user.uid}"):
        guard_python(user.uid, user.gid)


# Giving up root.

@needs_root
def test_the_trampoline_leaves_nothing_of_root(user: GuardUser) -> None:
    shown = ("import os; status = open('/proc/self/status').read().splitlines(); "
             "print(os.getresuid(), os.getresgid(), os.getgroups(), os.getsid(0) == os.getpid(), "
             "[line.split()[1] for line in status if line.startswith(('CapEff', 'CapPrm', 'NoNewPrivs'))])")
    said = subprocess.run(dropped_command([user.python, "-I", "-S", "-c", shown], user.uid, user.gid),
                          capture_output=True, text=True, start_new_session=True, check=True)
    ids = (user.uid,) * 3
    assert said.stdout.strip() == f"{ids} {ids} [] True ['0000000000000000', '0000000000000000', '1']"


@needs_root
def test_a_uid_the_kernel_refuses_ends_the_trampoline_before_the_command_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = dropped_command(["/usr/bin/touch", str(marker)], 2**32 - 1, 2**32 - 1)  # (uid_t) -1: never mapped
    said = subprocess.run(command, capture_output=True, text=True)
    assert said.returncode == NOT_RUN_STATUS and said.stderr.startswith("not run: cannot become uid 4294967295")
    assert not marker.exists()


def test_no_trampoline_makes_root_its_user() -> None:
    with pytest.raises(ValueError, match="other than root"):
        dropped_command(["/bin/true"], 0, 0)
    with pytest.raises(ValueError, match="cannot be root"):
        limited_command(["/bin/true"], 2**30, user=(0, 1))


# Ending a run.

@needs_root
def test_ending_a_user_ends_its_detached_processes_and_only_its(user: GuardUser) -> None:
    detached = "setsid sh -c 'sleep 4711.5 & sleep 4711.5' & sleep 4711.5"
    started = as_user(user, ["/bin/sh", "-c", detached])
    bystander = subprocess.Popen(["sleep", "4711.5"], start_new_session=True)  # root's, started by the test
    try:
        assert settled(lambda: len(processes_of(user.uid)) >= 4)
        started_pid = started.pid
        user.end()
        started.wait(timeout=5)
        assert processes_of(user.uid) == [] and started.returncode == -signal.SIGKILL and started_pid
        assert bystander.poll() is None  # another user's process is untouched
    finally:
        end_leftovers(user)
        bystander.kill()
        bystander.wait()


@needs_root
def test_ending_a_user_removes_what_it_left_in_the_shared_folders(user: GuardUser) -> None:
    handle, left = tempfile.mkstemp(prefix="gamelib-guard-test-")
    os.close(handle)
    os.chown(left, user.uid, user.gid)
    folder = tempfile.mkdtemp(prefix="gamelib-guard-test-")
    (Path(folder) / "inside").write_text("x", encoding="ascii")
    os.chown(folder, user.uid, user.gid)
    handle, ours = tempfile.mkstemp(prefix="gamelib-guard-test-")  # root's: stays
    os.close(handle)
    try:
        user.end()
        assert not os.path.exists(left) and not os.path.exists(folder)
        assert os.path.exists(ours)
    finally:
        os.unlink(ours)
        shutil.rmtree(folder, ignore_errors=True)
        if os.path.exists(left):
            os.unlink(left)


@needs_root
def test_ending_a_user_removes_its_system_v_ipc(user: GuardUser) -> None:
    make = ("import ctypes; libc = ctypes.CDLL(None); create = 0o1000 | 0o600; "  # IPC_PRIVATE, IPC_CREAT
            "print(libc.shmget(0, 2**20, create), libc.semget(0, 1, create), libc.msgget(0, create))")
    made = subprocess.run([user.python, "-I", "-S", "-c", make], user=user.uid, group=user.gid, extra_groups=[],
                          capture_output=True, text=True, check=True)  # each outlives the process that made it
    shm, sem, msg = map(int, made.stdout.split())
    kinds = ("shm", "sem", "msg")
    assert [boundary._sysv_of(kind, user.uid) for kind in kinds] == [[shm], [sem], [msg]]
    user.end()
    assert [boundary._sysv_of(kind, user.uid) for kind in kinds] == [[], [], []]


@needs_root
def test_the_shared_nobody_is_not_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boundary, "_id_map", lambda kind: "0 0 65536\n")
    fallback = guard_user()
    other_run = as_user(fallback, ["sleep", "4711.5"])  # as if another run under nobody
    try:
        fallback.end()
        time.sleep(0.1)
        assert other_run.poll() is None  # ending one nobody run must not end another's
    finally:
        other_run.kill()
        other_run.wait()
