"""Limits for child processes that run code we do not trust: resource limits, a minimal
environment, and killing a child's whole process group.

Shared by the tournament's entries (:mod:`gamelib.play.entries`, each entry a child process) and the
teaching sandbox (:mod:`gamelib.play.box.sandbox`). POSIX only: ``resource`` and process groups.
:func:`limited_command` wraps any command so that it starts with an address-space limit (and, if
asked, a CPU-time limit): a short
Python trampoline sets the limit, then ``exec``\\ s the command (safer than ``preexec_fn``, which may
deadlock in a parent with threads, as a dask worker has). Started as root with a ``user`` (a uid
and gid of its own, :func:`gamelib.play.box.guard.guard_user`), the trampoline sets the limits, then
gives up root for good (:func:`become`) before it runs the command; :func:`dropped_command` does only
that, for a child that limits itself. Every child of either trampoline has at most
:data:`MQUEUE_BYTES` of POSIX message queues.

>>> limited_command(["./bot"], 2**30)[-2:]
['--', './bot']
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping, Sequence

__all__ = ["CPU_HARD_EXTRA", "MQUEUE_BYTES", "NOT_RUN_STATUS", "become", "die_with_parent", "dropped_command",
           "kill_group", "limited_command", "lower_limits", "minimal_environment", "resource_limit"]

MQUEUE_BYTES = 64 * 2**10
"""The most bytes of POSIX message queues (``RLIMIT_MSGQUEUE``) a child's user may hold: the kernel
counts them per user, so in bubblewrap's box and under a uid of its own, per run."""

NOT_RUN_STATUS = 126
"""The exit status of a trampoline that could not give up root (:func:`become` failed): the command
did not run, and one line on stderr, starting ``not run:``, says why."""


def minimal_environment(scratch: str, **extra: str) -> dict[str, str]:
    """The environment of a child: ``PATH`` (the system's default), ``HOME`` and ``TMPDIR`` in its
    ``scratch`` folder, a UTF-8 locale, and the ``extra`` variables; nothing inherited from us."""
    return {"PATH": os.defpath, "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            **extra}


def kill_group(pid: int) -> None:
    """SIGKILL every process in the process group ``pid`` (a child started with
    ``start_new_session=True`` leads its own group). Call it before reaping the child, so its pid
    cannot have been reused; a group that is gone already is no error."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def lower_limits(wanted: Mapping[int, tuple[int, int]]) -> None:
    """Set each ``resource`` limit in ``wanted`` (``RLIMIT_*`` -> (soft, hard)) in this process,
    never above a hard limit already in force (only root may raise one)."""
    import resource

    for kind, (soft, hard) in wanted.items():
        if kind < 0:  # resource_limit's "no such limit here"
            continue
        _, current = resource.getrlimit(kind)
        if current != resource.RLIM_INFINITY:
            soft, hard = min(soft, current), min(hard, current)
        resource.setrlimit(kind, (soft, hard))


def die_with_parent() -> None:
    """Have the kernel SIGKILL this process when its parent dies (Linux's ``PR_SET_PDEATHSIG``; it
    outlives ``exec``), and end it now if the parent is gone already. Elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def become(uid: int, gid: int) -> None:
    """Give up root for good in this process: no supplementary groups, real, effective and saved gid
    ``gid`` and uid ``uid``, no capabilities left, and no new privileges for whatever it runs (a
    set-uid program runs as ``uid``, Linux's ``PR_SET_NO_NEW_PRIVS``). Raises OSError if the kernel
    refuses (say, ``uid`` is not mapped in this user namespace), RuntimeError if anything of root is
    left afterwards. Changing the uid clears :func:`die_with_parent`'s signal: call that after."""
    linux = sys.platform.startswith("linux")
    if linux:
        import ctypes  # now: after the drop, root's Python installation may be out of reach

        libc = ctypes.CDLL(None, use_errno=True)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    left = []
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid) or os.getgroups():
        left.append(f"ids {os.getresuid()}, {os.getresgid()}, groups {os.getgroups()}")
    if linux:
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # 38: PR_SET_NO_NEW_PRIVS
            left.append(f"no_new_privs refused (errno {ctypes.get_errno()})")
        with open("/proc/self/status", encoding="utf-8", errors="replace") as status:
            capabilities = [line.split()[1] for line in status if line.startswith(("CapPrm:", "CapEff:"))]
        if any(int(mask, 16) for mask in capabilities):
            left.append(f"capabilities {capabilities}")
    if left:
        raise RuntimeError(f"still privileged after becoming uid {uid}: {'; '.join(left)}")


_DROP = ("import importlib.util, os, sys\n"
         "spec = importlib.util.spec_from_file_location('gamelib_limits', sys.argv[1])\n"
         "limits = importlib.util.module_from_spec(spec); spec.loader.exec_module(limits)\n"
         "u, g, q = map(int, sys.argv[2:5])\n"
         "try:\n"
         "    limits.lower_limits({limits.resource_limit('RLIMIT_MSGQUEUE'): (q, q)})\n"
         "    limits.become(u, g)\n"
         "except (OSError, RuntimeError) as error:\n"
         "    sys.stderr.write(f'not run: cannot become uid {u}: {error}\\n'); os._exit(limits.NOT_RUN_STATUS)\n"
         "os.execv(sys.argv[6], sys.argv[6:])\n")


def resource_limit(name: str) -> int:
    """The ``resource`` module's constant ``name`` (``"RLIMIT_MSGQUEUE"``), or -1 where this platform
    has none (:func:`lower_limits` skips it)."""
    import resource

    return int(getattr(resource, name, -1))


def dropped_command(command: Sequence[str], uid: int, gid: int) -> list[str]:
    """``command`` run as ``uid`` and ``gid`` (:func:`become`) by a trampoline started as root: this
    Python, isolated (``-I -S``), loads this file alone, lowers ``RLIMIT_MSGQUEUE`` to
    :data:`MQUEUE_BYTES`, drops root and replaces itself with ``command`` (its first word a full
    path the uid can run). If it cannot drop root it exits with :data:`NOT_RUN_STATUS`. Raises
    ValueError for an empty command or a uid or gid of root.

    >>> dropped_command(["/usr/bin/python3", "-c", "pass"], 2113929216, 2113929216)[-4:]
    ['--', '/usr/bin/python3', '-c', 'pass']
    """
    if not command or uid <= 0 or gid <= 0:
        raise ValueError(f"need a command and a uid and gid other than root's, not {list(command)!r}, {uid}, {gid}")
    return [sys.executable, "-I", "-S", "-c", _DROP, os.path.abspath(__file__), str(uid), str(gid),
            str(MQUEUE_BYTES), "--", *command]


CPU_HARD_EXTRA = 5
"""Seconds of CPU time between the soft limit (SIGXCPU, which ends the process and says why) and
the hard one (SIGKILL, for a process that catches SIGXCPU)."""

_TRAMPOLINE = ("import os, resource, sys\n"
               "from gamelib.play.box.limits import NOT_RUN_STATUS, become, die_with_parent, lower_limits, resource_limit\n"
               "n, c, f, p, q, u, g = map(int, sys.argv[1:8])\n"
               "lower_limits({resource.RLIMIT_AS: (n, n), resource.RLIMIT_CORE: (0, 0), "
               "resource_limit('RLIMIT_MSGQUEUE'): (q, q), "
               "**({resource.RLIMIT_FSIZE: (f, f)} if f else {}), **({resource.RLIMIT_NPROC: (p, p)} if p else {}), "
               f"**({{resource.RLIMIT_CPU: (c, c + {CPU_HARD_EXTRA})}} if c else {{}})}})\n"
               "if u >= 0:\n"
               "    try:\n"
               "        become(u, g)\n"
               "    except (OSError, RuntimeError) as error:\n"
               "        sys.stderr.write(f'not run: cannot become uid {u}: {error}\\n'); os._exit(NOT_RUN_STATUS)\n"
               "die_with_parent()\n"
               "os.execvp(sys.argv[9], sys.argv[9:])\n")


def limited_command(command: Sequence[str], memory_bytes: int, cpu_seconds: int | None = None, *,
                    file_bytes: int | None = None, processes: int | None = None,
                    user: tuple[int, int] | None = None) -> list[str]:
    """``command`` run with at most ``memory_bytes`` of address space, no core files and, if
    ``cpu_seconds`` is given, that much CPU time (all its threads together; past it the kernel
    sends SIGXCPU, which ends the process, and SIGKILL :data:`CPU_HARD_EXTRA` seconds later), files
    (its logs included) of at most ``file_bytes`` and at most ``processes`` processes and threads
    (where the kernel counts them for its user: not root's), at most :data:`MQUEUE_BYTES` of message
    queues, dying with its parent (:func:`die_with_parent`): this Python sets the limits, then, with
    ``user`` = (uid, gid) and started as root, becomes that user (:func:`become`; if it cannot, it
    exits with :data:`NOT_RUN_STATUS` and says why on stderr), then replaces itself with ``command``
    (the child needs this gamelib on its ``PYTHONPATH``; ``-P``: never the working folder). Raises
    ValueError for an empty command, a limit that is not positive or a ``user`` of root."""
    limits = (memory_bytes, cpu_seconds, file_bytes, processes)
    if not command or memory_bytes < 1 or any(limit is not None and limit < 1 for limit in limits):
        raise ValueError(f"need a command and positive limits, not {list(command)!r} and {limits}")
    if user is not None and min(user) <= 0:
        raise ValueError(f"the user a command becomes cannot be root: {user}")
    uid, gid = user or (-1, -1)
    return [sys.executable, "-P", "-c", _TRAMPOLINE, *(str(limit or 0) for limit in limits), str(MQUEUE_BYTES),
            str(uid), str(gid), "--", *command]
