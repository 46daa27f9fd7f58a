"""The boundary around code we do not trust: bubblewrap's namespaces where they work, the guard elsewhere.

Every run of code we did not write (a student's function in :mod:`gamelib.play.box.sandbox`, a
tournament entry in :mod:`gamelib.play.entries`) starts through :func:`boxed_command` when
:func:`bwrap_problem` finds that bubblewrap (``bwrap``, Debian's ``bubblewrap`` package; ``make``
installs it as it does graphviz, ``scripts/ensure_bubblewrap.sh``) can run here. The probe runs once
a process: ``bwrap`` with the same options a real run has, around ``true``. Inside the box the code
has

- new user, PID, network, IPC and UTS namespaces (and cgroup, where the kernel has them): it sees
  only its own processes, cannot signal ours, has no network but its own loopback, and runs as an
  unprivileged uid (:data:`BOX_UID`) with every capability dropped and no user namespaces of its
  own (``--disable-userns``);
- an empty environment: ``bwrap`` itself is started with none, so not even ``/proc/1/environ`` (bwrap's
  own process inside the box) shows ours, and the command gets only the variables it is given;
- a file system of read-only binds of only what it needs (``/usr`` and its symlinks, the Python
  installation, the folders the caller names), a fresh ``/proc`` and a minimal ``/dev``; every
  folder it may write is a tmpfs of a capped size, each counted in the machine's shared memory
  while the box lives and gone with it: its working folder ``/tmp`` (``scratch_bytes``: 16 MB for a
  sandboxed check, 64 MB for a tournament entry), ``/dev/shm`` (:data:`SHM_BYTES`), and nothing
  else: ``/dev`` itself (``--dev``'s tmpfs, uncapped) is remounted read-only, its device nodes
  working as before, and there is no ``/dev/mqueue``; POSIX message queues live in the box's own IPC
  namespace, at most :data:`gamelib.play.box.limits.MQUEUE_BYTES` of them (``RLIMIT_MSGQUEUE``, set by
  the child's trampoline); a folder the caller hides is a read-only 4 KB tmpfs;
- ``--die-with-parent`` and ``--new-session``: when whoever started it dies, the box dies, and it
  cannot reach our terminal.

Where a pids cgroup can be made (root, with the cgroup file system writable), :func:`process_cap`
puts the run in a cgroup of its own with at most a given number of processes, and ends every process
left in it when the run ends; elsewhere the run's own ``RLIMIT_NPROC`` caps an unprivileged user's
box. Where bwrap cannot run, :func:`boundary` says :data:`GUARD_ONLY`: the code runs with only the
guard's limits (its rlimits, a scratch folder, an empty environment, its process group killed), and,
as root, never as root (:func:`guard_user`, after Jobe's runguard):

- each run gets a user of its own: uid and gid ``0x7E000000`` plus a random 24-bit number that no
  live process has (:data:`GUARD_UID_BASE`), no supplementary groups, no capabilities, no new
  privileges, its own session. ``kill(-1, SIGKILL)`` from it reaches only its own processes, and
  ``RLIMIT_NPROC`` counts only them. Where the kernel maps no such uid (a container whose user
  namespace maps only 0-65535) it falls back to ``nobody`` (:data:`NOBODY`, 65534), shared with
  every other run and the machine's own ``nobody`` processes (say so: ``identity``); where it
  cannot have that either, the run does not happen (:class:`NotRunError`, "not run: ...");
- its scratch folder is made for that user; nothing else of ours is writable to it (grades,
  submissions and the checkout are root's and not world-writable), though what is world-readable
  stays readable;
- it runs a Python that user can reach (:func:`guard_python`: ours if every folder on its way is
  open to others, else a system Python of the same major.minor, whose standard library is all
  the box's library needs; none: not run);
- when the run ends, every process of that uid is ended (a helper of that uid calls
  ``kill(-1, SIGKILL)`` until ``/proc`` shows none), besides its process group and cgroup, and
  what it left in ``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/dev/mqueue`` and System V IPC is removed.
  The fallback ``nobody`` gets none of this sweep (it would end other runs): only its process group
  and cgroup.

Not root, and without bubblewrap, the code runs as this user (``identity`` says so): the guard
cannot give it another.

>>> boundary() in (ISOLATED, GUARD_ONLY)
True
"""

from __future__ import annotations

import functools
import itertools
import os
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

__all__ = ["BOX_IDENTITY", "BOX_UID", "GUARD_ONLY", "GUARD_UID_BASE", "GUARD_UID_SPAN", "ISOLATED", "NOBODY",
           "NOT_RUN", "SCRATCH", "SHM_BYTES", "GuardUser", "NotRunError", "boundary", "boxed_command", "bwrap_problem",
           "guard_python", "guard_user", "interpreter_binds", "process_cap", "processes_of", "site_packages",
           "unreachable"]

ISOLATED = "isolated"
"""The boundary's name when bubblewrap boxes the code."""

GUARD_ONLY = "guard only"
"""The boundary's name where bubblewrap cannot run: only the guard's limits hold."""

NOT_RUN = "not run"
"""The start of the boundary's name for code that never ran (``not run: WHY``): refused before it
started (too long, a file not read) or with nowhere to run (no sandbox here, no user to run it as)."""

BOX_UID = 65534
"""The uid (and gid) the code has inside the box: ``nobody``'s, never root's."""

BOX_IDENTITY = f"uid {BOX_UID} in bubblewrap's box"
"""Who the code is in the box, as a result's ``identity`` says it."""

SCRATCH = "/tmp"
"""The box's working folder: a tmpfs of a capped size, its ``HOME`` and ``TMPDIR``."""

SHM_BYTES = 4 * 2**20
"""The size of the box's ``/dev/shm``, a tmpfs of its own (POSIX shared memory, semaphores)."""

GUARD_UID_BASE = 0x7E000000
"""The first uid (and gid) the guard gives a run as root: each run has ``GUARD_UID_BASE`` plus a
random number below :data:`GUARD_UID_SPAN`, one no live process has."""

GUARD_UID_SPAN = 2**24
"""How many uids the guard draws a run's from."""

NOBODY = 65534
"""The guard's fallback uid and gid (``nobody``, ``nogroup``) where the kernel maps none of its own."""

_PROBE_SECONDS = 20.0

_SYSTEM = ("/usr",)
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Top-level folders a program needs: bound read-only, or, where the host has them as symlinks into
``/usr`` (a merged /usr), made the same symlinks."""


def _options(scratch_bytes: int) -> list[str]:
    """bwrap's options for every box: namespaces, identity, session, environment, file system."""
    options = ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--uid", str(BOX_UID), "--gid", str(BOX_UID), "--disable-userns",
               "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv"]
    for folder in _SYSTEM:
        options += ["--ro-bind", folder, folder]
    for folder in _SYSTEM_LINKS:
        if os.path.islink(folder):
            options += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            options += ["--ro-bind", folder, folder]
    options += ["--proc", "/proc", "--dev", "/dev", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm",
                "--remount-ro", "/dev", "--size", str(scratch_bytes), "--tmpfs", SCRATCH, "--chdir", SCRATCH]
    return options


def interpreter_binds(*, site_packages: bool) -> list[tuple[str, str]]:
    """The read-only binds a box needs to run this Python, as (host folder, box folder), the same path
    in the box: its installation (``sys.base_prefix``) unless it is under ``/usr``, and with
    ``site_packages`` the virtual environment too (``sys.prefix``)."""
    folders = [sys.base_prefix] + ([sys.prefix] if site_packages and sys.prefix != sys.base_prefix else [])
    return [(folder, folder) for folder in dict.fromkeys(os.path.realpath(each) for each in folders)
            if not any(folder == system or folder.startswith(system + "/") for system in _SYSTEM)]


def site_packages() -> list[str]:
    """The site-packages folders of this Python's installation (``sys.base_prefix``) that exist: a box
    that needs none covers them (``hide``), so nothing installed there, gamelib included, is in it."""
    base = sys.base_prefix
    folders = {sysconfig.get_path(name, vars={"base": base, "platbase": base}) for name in ("purelib", "platlib")}
    return sorted(folder for folder in folders if os.path.isdir(folder))


def boxed_command(command: Sequence[str], *, binds: Sequence[tuple[str, str]] = (),
                  env: Mapping[str, str] | None = None, scratch_bytes: int = 16 * 2**20,
                  hide: Sequence[str] = ()) -> list[str]:
    """``command`` run inside bubblewrap's box (see the module's docstring): ``binds`` are
    (host path, box path) pairs bound read-only, ``env`` the only environment variables it has
    (``HOME`` and ``TMPDIR`` are the scratch folder), ``scratch_bytes`` the size of its tmpfs
    working folder (its ``/dev/shm`` has :data:`SHM_BYTES`, its ``/dev`` is read-only), ``hide``
    folders inside the binds covered by an empty tmpfs (say, an installation's site-packages). Start it with an empty environment (``env={}``) so that bwrap's
    own process shows none. Raises ValueError for an empty command or a scratch size that is not
    positive."""
    if not command or scratch_bytes < 1:
        raise ValueError(f"need a command and a positive scratch size, not {list(command)!r} and {scratch_bytes}")
    options = _options(scratch_bytes)
    for source, target in binds:
        options += ["--ro-bind", source, target]
    for folder in hide:
        options += ["--size", "4096", "--tmpfs", folder, "--remount-ro", folder]
    variables = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH, "TMPDIR": SCRATCH, "LANG": "C.UTF-8",
                 "LC_ALL": "C.UTF-8", **(env or {})}
    for name, value in variables.items():
        options += ["--setenv", name, value]
    return [_bwrap() or "bwrap", *options, "--", *command]


def _bwrap() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot box code here, or None if it can: probed once a process by running
    ``true`` in a box with every option a real run has (a second of work at most)."""
    if sys.platform != "linux":
        return f"bubblewrap needs Linux, and this is {sys.platform}"
    if _bwrap() is None:
        return "bubblewrap (bwrap) is not installed: run 'sudo apt-get install bubblewrap' (make does it as root)"
    true = shutil.which("true", path="/usr/bin:/bin")
    if true is None:
        return "there is no /usr/bin/true to probe bubblewrap with"
    try:
        probe = subprocess.run(boxed_command([true]), env={}, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=_PROBE_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap did not run: {error}"
    if probe.returncode != 0:
        said = probe.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"status {probe.returncode}"]
        return f"bubblewrap cannot make its namespaces here ({said[0]})"
    return None


def boundary() -> str:
    """:data:`ISOLATED` if bubblewrap can box code here, else :data:`GUARD_ONLY`."""
    return ISOLATED if bwrap_problem() is None else GUARD_ONLY


_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
"""Where a pids cgroup can be made: cgroup v1's pids hierarchy, or v2's unified one."""

_runs = itertools.count()


@functools.cache
def _cgroup_root() -> Path | None:
    """The pids cgroup folder this process may make cgroups in, or None (not root, no pids
    controller, or a read-only cgroup file system)."""
    if sys.platform != "linux" or os.geteuid() != 0:
        return None
    v1, v2 = _CGROUP_ROOTS
    found = ([v1] if (v1 / "cgroup.procs").exists() else []) + (
        [v2] if "pids" in _read(v2 / "cgroup.subtree_control").split() else [])
    for root in found:
        probe = root / f"gamelib-probe-{os.getpid()}"
        try:
            probe.mkdir()
            probe.rmdir()
        except OSError:
            continue
        _sweep(root)
        return root
    return None


def _sweep(root: Path) -> None:
    """Remove the empty cgroups left by runs whose process was killed before it could (``gamelib-PID-N``
    of a PID that is gone)."""
    for group in root.glob("gamelib-*-*"):
        try:
            os.kill(int(group.name.split("-")[1]), 0)
        except (ValueError, PermissionError):
            continue
        except ProcessLookupError:
            _empty(group)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii")
    except OSError:
        return ""


@contextmanager
def process_cap(processes: int) -> Iterator[list[str]]:
    """A cgroup for one run, with at most ``processes`` processes (and threads) in it: yields the
    words to put before the run's command (``/bin/sh`` joins the cgroup, then becomes the command),
    or ``[]`` where no cgroup can be made (see the module's docstring). When the run ends, every
    process still in the cgroup is killed and the cgroup removed."""
    root = _cgroup_root()
    if root is None:
        yield []
        return
    group = root / f"gamelib-{os.getpid()}-{next(_runs)}"
    try:
        group.mkdir()
        (group / "pids.max").write_text(str(processes), encoding="ascii")
    except OSError:
        yield []
        return
    try:
        yield ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', str(group)]
    finally:
        _empty(group)


def _empty(group: Path) -> None:
    """Kill every process in the cgroup ``group`` until none is left (a second at most), then remove it."""
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        pids = [int(word) for word in _read(group / "cgroup.procs").split()]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.01)


class NotRunError(RuntimeError):
    """The guard will not run code: as root it could give the code neither a user of its own nor
    ``nobody``, or that user cannot reach a Python or a file the run needs. The message starts
    with ``not run:`` and says why."""


@dataclass(frozen=True)
class GuardUser:
    """Who code runs as under the guard only (:func:`guard_user`): ``uid`` and ``gid``, the
    ``python`` that user can run (a full path), whether the guard ``dropped`` root for it (False:
    not root, the code runs as this user) and whether the uid is ``shared`` (the fallback
    :data:`NOBODY`). Use it as a context manager, or call :meth:`end` when the run is over."""

    uid: int
    gid: int
    python: str
    dropped: bool = True
    shared: bool = False

    @property
    def identity(self) -> str:
        """Who the code ran as, for a result: ``"uid 2113929216"``, ``"uid 65534 (nobody, shared)"``
        or ``"uid 1000, this user (not root: the guard cannot change user)"``."""
        if not self.dropped:
            return f"uid {self.uid}, this user (not root: the guard cannot change user)"
        return f"uid {self.uid} (nobody, shared)" if self.shared else f"uid {self.uid}"

    def own(self, folder: str | Path, mode: int = 0o700) -> None:
        """Make ``folder`` (a scratch folder of the run) this user's, with ``mode``; nothing if the
        guard did not drop root."""
        if self.dropped:
            os.chown(folder, self.uid, self.gid)
            os.chmod(folder, mode)

    def end(self) -> None:
        """End the run's leftovers: every process of the uid (a helper of that uid calls
        ``kill(-1, SIGKILL)`` until ``/proc`` shows none, 5 s at most), then the files and System V
        IPC it left in the machine's shared folders (:data:`_SHARED_FOLDERS`). Nothing for this
        user (not dropped) or the shared ``nobody``: that would end what is not the run's. Safe to
        call twice."""
        if not self.dropped or self.shared or not _own_range(self.uid):
            return
        try:
            if _end_processes(self.uid, self.gid):
                _remove_leftovers(self.uid)
        finally:
            _release(self.uid)

    def __enter__(self) -> GuardUser:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.end()


_claim_lock = threading.Lock()
_claimed: set[int] = set()
"""The uids this process's runs hold now (so two runs at once never share one)."""

_SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue")
"""Folders anyone may write in, where a run's leftover files are looked for (and the temporary folder)."""

_END_SECONDS = 5.0


def guard_user() -> GuardUser:
    """The user the next run under the guard only runs as (see the module's docstring): as root, a
    uid and gid of its own (:data:`GUARD_UID_BASE` plus a random number no live process has), else
    :data:`NOBODY` where the kernel maps no such uid; not root, this user. Raises NotRunError
    (``not run: ...``) if, as root, neither uid can be had or no Python is reachable by it."""
    if os.name != "posix" or os.geteuid() != 0:
        return GuardUser(os.getuid(), os.getgid(), sys.executable, dropped=False)
    problems = []
    uid = _claim_uid()
    if uid is not None:
        problem = _unmapped(uid)
        if problem is None:
            try:
                return GuardUser(uid, uid, guard_python(uid, uid))
            except BaseException:
                _release(uid)
                raise
        _release(uid)
        problems.append(problem)
    else:
        problems.append(f"no uid from {GUARD_UID_BASE} on is free")
    problem = _unmapped(NOBODY)
    if problem is not None:
        raise NotRunError(f"not run: as root, the guard runs code only as another user, and {'; '.join(problems)}; "
                          f"{problem}")
    return GuardUser(NOBODY, NOBODY, guard_python(NOBODY, NOBODY), shared=True)


def _claim_uid(tries: int = 20) -> int | None:
    """A uid of the guard's range that no live process has and no run of ours holds, now held by
    the caller (until :func:`_release`), or None."""
    taken = _uids_in_use()
    for _ in range(tries):
        uid = GUARD_UID_BASE + secrets.randbelow(GUARD_UID_SPAN)
        with _claim_lock:
            if uid not in taken and uid not in _claimed:
                _claimed.add(uid)
                return uid
    return None


def _release(uid: int) -> None:
    with _claim_lock:
        _claimed.discard(uid)


def _unmapped(uid: int) -> str | None:
    """Why the kernel would refuse ``uid`` as a uid and a gid here (this user namespace's
    ``uid_map`` or ``gid_map`` has no range holding it), or None if it maps it (or there is no
    map to read: not Linux)."""
    for kind in ("uid", "gid"):
        text = _id_map(kind)
        if text is None:
            continue
        ranges = [tuple(map(int, line.split())) for line in text.splitlines() if len(line.split()) == 3]
        if not any(inside <= uid < inside + count for inside, _, count in ranges):
            mapped = ", ".join(f"{inside}-{inside + count - 1}" for inside, _, count in ranges) or "none"
            return f"the kernel maps no {kind} {uid} in this user namespace (it maps {mapped})"
    return None


def _id_map(kind: str) -> str | None:
    """This process's ``/proc/self/uid_map`` (``kind`` ``"uid"``) or ``gid_map``, or None (not Linux)."""
    try:
        return Path(f"/proc/self/{kind}_map").read_text(encoding="ascii")
    except OSError:
        return None


def _proc_status() -> Iterator[tuple[int, str, set[int]]]:
    """Each live process of the machine (as ``/proc`` shows it, Linux only): its pid, state letter
    and uids (real, effective, saved, file system)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    for name in names:
        if not name.isdigit():
            continue
        try:
            text = Path("/proc", name, "status").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        state, uids = "", set()
        for line in text.split("\n", 12):
            if line.startswith("State:"):
                state = line.split()[1]
            elif line.startswith("Uid:"):
                uids = {int(word) for word in line.split()[1:]}
                break
        yield int(name), state, uids


def _uids_in_use() -> set[int]:
    return {uid for _, _, uids in _proc_status() for uid in uids}


def processes_of(uid: int) -> list[int]:
    """The pids of the live processes (not zombies) with ``uid`` as a real, effective, saved or
    file-system uid, as ``/proc`` shows them now (Linux; elsewhere an empty list)."""
    return sorted(pid for pid, state, uids in _proc_status() if uid in uids and state not in ("Z", "X"))


def _own_range(uid: int) -> bool:
    """True if ``uid`` is of the guard's own range: only such a uid is ever swept."""
    return GUARD_UID_BASE <= uid < GUARD_UID_BASE + GUARD_UID_SPAN


def _end_processes(uid: int, gid: int) -> bool:
    """Kill every process of ``uid`` until ``/proc`` shows none (within :data:`_END_SECONDS`):
    True if none is left. The killer is a shell of that uid calling ``kill(-1, SIGKILL)``, which
    reaches every process of the uid and no other (and not itself). Raises ValueError for a uid
    outside the guard's own range: a sweep of root's or nobody's would end what is not the run's."""
    if not _own_range(uid) or not _own_range(gid):
        raise ValueError(f"the guard sweeps only uids of its own range, not {uid} (gid {gid})")
    deadline = time.monotonic() + _END_SECONDS
    while True:
        left = processes_of(uid) if sys.platform.startswith("linux") else [-1]
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        try:
            subprocess.run(["/bin/sh", "-c", "kill -9 -1 2>/dev/null"], user=uid, group=gid, extra_groups=[],
                           env={}, cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=_END_SECONDS, check=False)
        except (OSError, subprocess.SubprocessError):
            pass
        if not sys.platform.startswith("linux"):
            return True
        for _ in range(20):  # SIGKILL is delivered at once, but a process takes a moment to exit
            if not processes_of(uid):
                break
            time.sleep(0.005)


def _remove_leftovers(uid: int) -> None:
    """Remove what ``uid`` left in the machine's shared folders (entries it owns directly in
    :data:`_SHARED_FOLDERS` and the temporary folder, whole) and its System V shared memory,
    semaphores and message queues. Call it only once no process of ``uid`` is left. Raises
    ValueError for a uid outside the guard's own range."""
    if not _own_range(uid):
        raise ValueError(f"the guard removes the leftovers only of uids of its own range, not {uid}")
    for folder in dict.fromkeys([tempfile.gettempdir(), *_SHARED_FOLDERS]):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue
    found = {kind: _sysv_of(kind, uid) for kind in ("shm", "sem", "msg")}
    if any(found.values()):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for ipc in found["shm"]:
            libc.shmctl(ipc, 0, None)  # 0: IPC_RMID
        for ipc in found["sem"]:
            libc.semctl(ipc, 0, 0)
        for ipc in found["msg"]:
            libc.msgctl(ipc, 0, None)


def _sysv_of(kind: str, uid: int) -> list[int]:
    """The ids of the System V IPC objects of ``kind`` (``shm``, ``sem``, ``msg``) that ``uid`` owns
    or made, from ``/proc/sysvipc``."""
    lines = _read(Path("/proc/sysvipc", kind)).splitlines()
    if not lines:
        return []
    header = lines[0].split()
    try:
        id_column, owners = header.index(f"{kind}id" if kind != "msg" else "msqid"), (header.index("uid"),
                                                                                     header.index("cuid"))
    except ValueError:
        return []
    found = []
    for line in lines[1:]:
        words = line.split()
        if len(words) == len(header) and any(int(words[column]) == uid for column in owners):
            found.append(int(words[id_column]))
    return found


def unreachable(path: str | Path, *, execute: bool = False) -> str | None:
    """Why a user of its own (no group of ours, so only the "others" permission bits count) cannot
    reach ``path``, or None if it can: every folder on its way, as given and as resolved
    (symlinks followed), must be open to others (x), and the file readable (r, and x if
    ``execute``; a folder r and x).

    >>> unreachable("/")
    """
    given, real = Path(os.path.abspath(path)), Path(os.path.realpath(path))
    try:
        info = os.stat(real)
    except OSError as error:
        return f"{path}: {error.strerror}"
    for folder in dict.fromkeys([*reversed(given.parents), *reversed(real.parents)]):
        try:
            mode = os.stat(folder).st_mode
        except OSError as error:
            return f"{folder}: {error.strerror}"
        if not mode & stat.S_IXOTH:
            return f"{folder} is closed to other users (mode {stat.S_IMODE(mode):04o})"
    wanted = stat.S_IROTH | (stat.S_IXOTH if execute or stat.S_ISDIR(info.st_mode) else 0)
    if info.st_mode & wanted != wanted:
        need = "readable" if wanted == stat.S_IROTH else "readable and runnable" if execute else "readable and open"
        return f"{real} is not {need} by other users (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


_pythons_lock = threading.Lock()
_pythons: dict[str, str] = {}

_PYTHON_PROBE = "import json, resource, selectors, sys; print('%d.%d' % sys.version_info[:2])"

_SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def guard_python(uid: int, gid: int) -> str:
    """A Python of our major.minor that ``uid`` and ``gid`` can run (its full path): ours
    (``sys.executable``) if :func:`unreachable` finds its way open, else ``pythonX.Y`` on
    ``/usr/local/bin:/usr/bin:/bin``; each tried once by running it as that user (which also shows
    the kernel takes the uid). Found once a process. Raises NotRunError naming each one tried and
    why it would not do."""
    with _pythons_lock:
        if "found" in _pythons:
            return _pythons["found"]
        version = "%d.%d" % sys.version_info[:2]
        candidates = [sys.executable, *(shutil.which(f"python{version}", path=folder) or ""
                                        for folder in _SYSTEM_PATH.split(":"))]
        problems = []
        for python in dict.fromkeys(os.path.realpath(each) if each != sys.executable else each
                                    for each in candidates if each):
            problem = unreachable(python, execute=True) or _probe(python, uid, gid, version)
            if problem is None:
                _pythons["found"] = python
                return python
            problems.append(problem)
        raise NotRunError(f"not run: no Python {version} that uid {uid} can run: " + "; ".join(problems))


def _probe(python: str, uid: int, gid: int, version: str) -> str | None:
    """Why ``python`` will not do as ``uid`` (it does not start, or is not Python ``version``), or None."""
    try:
        probe = subprocess.run([python, "-I", "-S", "-c", _PYTHON_PROBE], user=uid, group=gid, extra_groups=[],
                               env={}, cwd="/", stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=_PROBE_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{python} does not start as uid {uid}: {error}"
    said = probe.stdout.decode("ascii", "replace").strip()
    if probe.returncode != 0 or said != version:
        why = probe.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"it says {said!r}"]
        return f"{python} is not a working Python {version} for uid {uid} ({why[0]})"
    return None
