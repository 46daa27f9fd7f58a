"""Limits for child processes that run code we do not trust: resource limits, a minimal
environment, and killing a child's whole process group.

Shared by the tournament's entries (:mod:`gamelib.play.entries`, each entry a child process) and the
teaching sandbox (:mod:`gamelib.teach.sandbox`). POSIX only: ``resource`` and process groups.
:func:`limited_command` wraps any command so that it starts with an address-space limit (and, if
asked, a CPU-time limit): a short
Python trampoline sets the limit, then ``exec``\\ s the command (safer than ``preexec_fn``, which may
deadlock in a parent with threads, as a dask worker has).

>>> limited_command(["./bot"], 2**30)[-2:]
['--', './bot']
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping, Sequence

__all__ = ["CPU_HARD_EXTRA", "die_with_parent", "kill_group", "limited_command", "lower_limits", "minimal_environment"]


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


CPU_HARD_EXTRA = 5
"""Seconds of CPU time between the soft limit (SIGXCPU, which ends the process and says why) and
the hard one (SIGKILL, for a process that catches SIGXCPU)."""

_TRAMPOLINE = ("import os, resource, sys; from gamelib.play.limits import die_with_parent, lower_limits; "
               "n, c, f, p = map(int, sys.argv[1:5]); die_with_parent(); "
               "lower_limits({resource.RLIMIT_AS: (n, n), resource.RLIMIT_CORE: (0, 0), "
               "**({resource.RLIMIT_FSIZE: (f, f)} if f else {}), **({resource.RLIMIT_NPROC: (p, p)} if p else {}), "
               f"**({{resource.RLIMIT_CPU: (c, c + {CPU_HARD_EXTRA})}} if c else {{}})}}); "
               "os.execvp(sys.argv[6], sys.argv[6:])")


def limited_command(command: Sequence[str], memory_bytes: int, cpu_seconds: int | None = None, *,
                    file_bytes: int | None = None, processes: int | None = None) -> list[str]:
    """``command`` run with at most ``memory_bytes`` of address space, no core files and, if
    ``cpu_seconds`` is given, that much CPU time (all its threads together; past it the kernel
    sends SIGXCPU, which ends the process, and SIGKILL :data:`CPU_HARD_EXTRA` seconds later), files
    (its logs included) of at most ``file_bytes`` and at most ``processes`` processes and threads
    (where the kernel counts them for its user: not root's), dying with its parent
    (:func:`die_with_parent`): this Python sets the limits, then replaces itself with ``command``
    (the child needs this gamelib on its ``PYTHONPATH``). Raises ValueError for an empty command or
    a limit that is not positive."""
    limits = (memory_bytes, cpu_seconds, file_bytes, processes)
    if not command or memory_bytes < 1 or any(limit is not None and limit < 1 for limit in limits):
        raise ValueError(f"need a command and positive limits, not {list(command)!r} and {limits}")
    return [sys.executable, "-c", _TRAMPOLINE, *(str(limit or 0) for limit in limits), "--", *command]
