"""The boundary around code we do not trust: bubblewrap's namespaces where they work, the guard elsewhere.

Every run of code we did not write (a student's function in :mod:`gamelib.teach.sandbox`, a
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
  installation, the folders the caller names) and a size-capped tmpfs as its working folder
  ``/tmp``; a fresh ``/proc`` and a minimal ``/dev``;
- ``--die-with-parent`` and ``--new-session``: when whoever started it dies, the box dies, and it
  cannot reach our terminal.

Where a pids cgroup can be made (root, with the cgroup file system writable), :func:`process_cap`
puts the run in a cgroup of its own with at most a given number of processes, and ends every process
left in it when the run ends; elsewhere the run's own ``RLIMIT_NPROC`` caps an unprivileged user's
box. Where bwrap cannot run, :func:`boundary` says :data:`GUARD_ONLY`: the code runs with only the
guard's limits (its rlimits, a scratch folder, an empty environment, its process group killed).

>>> boundary() in (ISOLATED, GUARD_ONLY)
True
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["BOX_UID", "GUARD_ONLY", "ISOLATED", "SCRATCH", "boundary", "boxed_command", "bwrap_problem",
           "interpreter_binds", "process_cap", "site_packages"]

ISOLATED = "isolated"
"""The boundary's name when bubblewrap boxes the code."""

GUARD_ONLY = "guard only"
"""The boundary's name where bubblewrap cannot run: only the guard's limits hold."""

BOX_UID = 65534
"""The uid (and gid) the code has inside the box: ``nobody``'s, never root's."""

SCRATCH = "/tmp"
"""The box's working folder: a tmpfs of a capped size, its ``HOME`` and ``TMPDIR``."""

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
    options += ["--proc", "/proc", "--dev", "/dev", "--size", str(scratch_bytes), "--tmpfs", SCRATCH,
                "--chdir", SCRATCH]
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
    working folder, ``hide`` folders inside the binds covered by an empty tmpfs (say, an
    installation's site-packages). Start it with an empty environment (``env={}``) so that bwrap's
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
