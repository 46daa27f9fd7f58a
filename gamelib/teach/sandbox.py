"""Run untrusted code in a short-lived child process with limits: the guard around what a student types.

:func:`run_in_sandbox` starts a fresh ``python -I`` in a new, empty scratch directory with a minimal
environment (``PATH``, ``HOME`` and ``TMPDIR`` in the scratch directory, a UTF-8 locale: none of the
server's variables), writes a JSON payload to its stdin, and has it call an entry function named
``"module:function"`` (``gamelib.teach.code_check`` uses one) with the payload and a
:class:`Channel`. The entry reports back JSON messages through that channel, a pipe of its own
(never pickles, never stdout). Before the entry runs, the child limits itself with POSIX
``resource`` limits: CPU seconds, address space, the size of any file it writes, no core files. The
parent enforces the wall-clock limit and the output limit, honours a Stop (a
:class:`threading.Event`), and when the run ends, for whatever reason, kills the child's whole
process group, so nothing the code started is left behind. What happened comes back as data, a
:class:`SandboxResult`: how the run ended (:class:`Outcome`), the messages, what was printed.

The sandbox is a teaching guard, not a security boundary. It stops an endless loop, a memory bomb
or a flood of output from hanging or filling the checking process, and keeps the server's
environment variables and working directory out of a careless submission's reach. Code written to
escape can still do whatever the user running it may: read and write that user's files, use the
network, start a process that leaves the group, or write a forged verdict to the channel; as root it
can even raise its own limits. Serve the app only to people you would let run code under your
account (see the README).

>>> result = run_in_sandbox("gamelib.teach.sandbox:echo", {"say": "hello"})
>>> result.outcome, result.messages
(<Outcome.FINISHED: 'finished'>, ({'said': 'hello'},))
>>> run_in_sandbox("gamelib.teach.sandbox:echo", {"say": "x" * 2000},
...                Limits(output_bytes=1000)).outcome  # echo prints what it says, too
<Outcome.OUTPUT: 'output'>
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from gamelib.play.limits import kill_group, lower_limits, minimal_environment

__all__ = ["Channel", "Limits", "Outcome", "SandboxResult", "SandboxUnavailableError", "echo", "run_in_sandbox",
           "sandbox_problem"]

_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)
"""The folder holding this gamelib, put first on the child's path so it runs the same code."""

_BOOTSTRAP = ("import sys; sys.path.insert(0, sys.argv[1]); "
              "from gamelib.teach.sandbox import _child_main; _child_main(sys.argv[2:])")

_POLL_SECONDS = 0.05
"""How often the parent looks at the clock, the Stop event and the child's exit while it waits."""

_CHANNEL_BYTES = 4 * 2**20
"""The most the child may send on its channel."""


class SandboxUnavailableError(RuntimeError):
    """This platform cannot run the sandbox (it needs POSIX process groups and ``resource``)."""


class Outcome(str, Enum):
    """How a sandboxed run ended."""

    FINISHED = "finished"   # the child exited by itself with status 0
    TIMEOUT = "timeout"     # it ran longer than the wall-clock limit and was killed
    CPU_LIMIT = "cpu"       # it used up its CPU seconds (SIGXCPU)
    MEMORY = "memory"       # it asked for more memory than its address-space limit (MemoryError)
    OUTPUT = "output"       # it printed (or sent) more than the output limit and was killed
    STOPPED = "stopped"     # the caller's Stop event was set and it was killed
    CRASHED = "crashed"     # it exited with another status, or a signal not sent by the sandbox killed it


@dataclass(frozen=True)
class Limits:
    """What a sandboxed run may use: ``seconds`` of wall-clock time (from the start of the child,
    its start-up included), ``cpu_seconds`` of CPU time (default: ``seconds`` rounded up, plus 1),
    ``memory_bytes`` of address space, ``output_bytes`` printed on stdout and stderr together, and
    files of at most ``file_bytes``. Raises ValueError for a limit that is not positive."""

    seconds: float = 5.0
    cpu_seconds: int | None = None
    memory_bytes: int = 512 * 2**20
    output_bytes: int = 2**20
    file_bytes: int = 16 * 2**20

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if value is not None and not value > 0:
                raise ValueError(f"sandbox limit {name} must be positive, not {value!r}")

    @property
    def cpu(self) -> int:
        """The CPU-time limit in whole seconds."""
        return self.cpu_seconds if self.cpu_seconds is not None else math.ceil(self.seconds) + 1


@dataclass(frozen=True)
class SandboxResult:
    """What became of a sandboxed run: ``outcome``; ``messages``, the JSON values the entry sent,
    in order (lines that were not JSON are dropped and counted in ``garbled``); ``stdout`` and
    ``stderr`` as printed, cut at the output limit; ``seconds`` of wall-clock time; ``returncode``,
    the child's exit status (negative: the signal that ended it, as :mod:`subprocess` reports it)."""

    outcome: Outcome
    messages: tuple[Any, ...]
    stdout: str
    stderr: str
    seconds: float
    returncode: int | None
    limits: Limits
    garbled: int = 0

    @property
    def signal_name(self) -> str | None:
        """The name of the signal that ended the child (``"SIGKILL"``), or None."""
        if self.returncode is None or self.returncode >= 0:
            return None
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    @property
    def error(self) -> dict[str, Any] | None:
        """What the entry raised and did not catch, as the child reported it (``{"type", "message",
        "frames"}``, frames ``[file, line, function]``), or None."""
        for message in self.messages:
            error = message.get("sandbox_error") if isinstance(message, dict) else None
            if isinstance(error, dict):
                return error
        return None

    def describe(self) -> str:
        """How the run ended, in a few words: "ran longer than 5 s", "the checking process was killed
        by SIGSEGV", "the checking process exited with status 0"."""
        limits = self.limits
        if self.outcome in (Outcome.FINISHED, Outcome.CRASHED):
            error = self.error
            if error is not None:
                return f"the sandboxed code raised {error.get('type')}: {error.get('message')}"
            how = f"was killed by {self.signal_name}" if self.signal_name else f"exited with status {self.returncode}"
            return f"the checking process {how}"
        return {
            Outcome.TIMEOUT: f"ran longer than {limits.seconds:g} s",
            Outcome.CPU_LIMIT: f"used more than {limits.cpu} s of CPU time",
            Outcome.MEMORY: f"asked for more than the {_megabytes(limits.memory_bytes)} of memory allowed",
            Outcome.OUTPUT: f"printed more than {_megabytes(limits.output_bytes)}",
            Outcome.STOPPED: f"was stopped after {self.seconds:.1f} s",
        }[self.outcome]


def _megabytes(size: int) -> str:
    return f"{size / 2**20:g} MB"


def sandbox_problem() -> str | None:
    """Why this platform cannot run the sandbox, or None if it can (POSIX, with ``resource``)."""
    if sys.platform == "emscripten":  # Pyodide in a browser: its `resource` is a stand-in with no spec
        return ("code is checked in a child process with time and memory limits, and Python in a browser "
                "(Pyodide) cannot start one")
    if os.name != "posix" or importlib.util.find_spec("resource") is None:
        return ("code is checked only on Linux or macOS: the sandbox needs POSIX process groups and the "
                "resource module for its time and memory limits, and this Python has no resource module")
    return None


def run_in_sandbox(entry: str, payload: Any, limits: Limits = Limits(), *,
                   cancel: threading.Event | None = None) -> SandboxResult:
    """Run ``entry`` (``"package.module:function"``, called as ``function(payload, channel)``) in
    a child process with ``limits``, and return how it ended.

    ``payload`` is JSON-serialisable data, the only thing the child is given. Setting ``cancel``
    (from another thread) kills the child within about 0.05 s (outcome STOPPED). Always returns
    within ``limits.seconds`` plus the time to kill and reap the child; the child's process group
    is killed before it returns (also on KeyboardInterrupt). Raises SandboxUnavailableError where
    :func:`sandbox_problem` says the platform cannot run it.
    """
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailableError(problem)
    data = json.dumps(payload).encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="gamelib-sandbox-", ignore_cleanup_errors=True) as scratch:
        started = time.monotonic()
        process, channel = _spawn(entry, limits, scratch)
        watch: _Watch | None = None
        try:
            watch = _Watch(process, channel, data, limits)
            outcome = watch.run(started, cancel)
        finally:
            kill_group(process.pid)
            process.wait()
            if watch is not None:
                watch.close()
        return watch.result(outcome, process.returncode, time.monotonic() - started)


def _spawn(entry: str, limits: Limits, scratch: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start the child in its own session (so its process group can be killed), in ``scratch``,
    with a minimal environment; returns it and the read end of its channel."""
    read_end, write_end = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-u", "-c", _BOOTSTRAP, _PACKAGE_ROOT, entry, str(write_end),
             json.dumps(asdict(limits))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=scratch,
            env=minimal_environment(scratch), pass_fds=(write_end,), start_new_session=True)
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    return process, read_end


class _Watch:
    """The parent's side of one run: feeds stdin, collects stdout, stderr and the channel, and
    decides when to stop."""

    def __init__(self, process: subprocess.Popen[bytes], channel: int, data: bytes, limits: Limits) -> None:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        self.process, self.limits, self.data = process, limits, data
        self.selector = selectors.DefaultSelector()
        self.received: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray(), "channel": bytearray()}
        self.fds = {"stdin": process.stdin.fileno(), "stdout": process.stdout.fileno(),
                    "stderr": process.stderr.fileno(), "channel": channel}
        for name, fd in self.fds.items():
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_WRITE if name == "stdin" else selectors.EVENT_READ, name)

    def run(self, started: float, cancel: threading.Event | None) -> Outcome | None:
        """Wait until the child exits (None) or a limit or Stop ends the run (that outcome)."""
        deadline = started + self.limits.seconds
        while True:
            if cancel is not None and cancel.is_set():
                return Outcome.STOPPED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Outcome.TIMEOUT
            for key, _ in self.selector.select(min(remaining, _POLL_SECONDS)):
                self._serve(key.data)
            if self._too_much():
                return Outcome.OUTPUT
            if self._exited():
                for name in ("stdout", "stderr", "channel"):
                    self._read(name)
                return Outcome.OUTPUT if self._too_much() else None

    def _serve(self, name: str) -> None:
        if name == "stdin":
            self._write()
        else:
            self._read(name)

    def _write(self) -> None:
        try:
            written = os.write(self.fds["stdin"], self.data[:65536])
        except BlockingIOError:
            return
        except BrokenPipeError:
            written = len(self.data)
        self.data = self.data[written:]
        if not self.data:
            self._close("stdin")

    def _read(self, name: str) -> None:
        """Read what is there now, keeping at most one byte more than the limit (to notice it)."""
        if name not in self.fds:
            return
        cap = (_CHANNEL_BYTES if name == "channel" else self.limits.output_bytes) + 1
        while True:
            try:
                chunk = os.read(self.fds[name], 65536)
            except BlockingIOError:
                return
            if not chunk:
                self._close(name)
                return
            room = cap - len(self.received[name])
            self.received[name] += chunk[:max(room, 0)]
            if room <= len(chunk):
                return

    def _too_much(self) -> bool:
        printed = len(self.received["stdout"]) + len(self.received["stderr"])
        return printed > self.limits.output_bytes or len(self.received["channel"]) > _CHANNEL_BYTES

    def _exited(self) -> bool:
        """True once the child has exited, without reaping it (so its group id stays its own)."""
        return os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None

    def _close(self, name: str) -> None:
        """Stop watching pipe ``name``; close it unless Popen owns it (stdout and stderr are closed
        through their file objects in :meth:`close`, never twice)."""
        fd = self.fds.pop(name, None)
        if fd is None:
            return
        self.selector.unregister(fd)
        if name == "channel":
            os.close(fd)
        elif name == "stdin" and self.process.stdin is not None:
            self.process.stdin.close()

    def close(self) -> None:
        """Close every pipe still open."""
        for name in list(self.fds):
            self._close(name)
        self.selector.close()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def result(self, outcome: Outcome | None, returncode: int, seconds: float) -> SandboxResult:
        """The run's result; an exit without a limit's outcome is judged by its status."""
        lines = bytes(self.received["channel"]).splitlines()
        messages, garbled = [], 0
        for line in lines:
            try:
                messages.append(json.loads(line))
            except ValueError:
                garbled += 1
        if outcome is None:
            outcome = _judge_exit(messages, returncode)
        output = self.limits.output_bytes
        return SandboxResult(outcome, tuple(messages), self.received["stdout"][:output].decode("utf-8", "replace"),
                             self.received["stderr"][:output].decode("utf-8", "replace"), seconds,
                             returncode, self.limits, garbled)


def _judge_exit(messages: list[Any], returncode: int) -> Outcome:
    """The outcome of a child that exited by itself."""
    for message in messages:
        if isinstance(message, dict) and isinstance(message.get("sandbox_error"), dict):
            return Outcome.MEMORY if message["sandbox_error"].get("type") == "MemoryError" else Outcome.CRASHED
    if returncode == -signal.SIGXCPU:
        return Outcome.CPU_LIMIT
    return Outcome.FINISHED if returncode == 0 else Outcome.CRASHED


class Channel:
    """The child's end of the pipe back to the parent: :meth:`send` writes one JSON value a line."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, message: Any) -> None:
        """Send ``message`` (JSON-serialisable data) to the parent. Raises TypeError for data JSON
        cannot hold."""
        data = (json.dumps(message) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]


def _child_main(argv: list[str]) -> None:
    """The child: limit itself, read the payload from stdin, run the entry, and report an error the
    entry did not catch (its type, message and the frames it passed through) on the channel."""
    entry, fd, limits = argv
    _limit_self(Limits(**json.loads(limits)))
    channel = Channel(int(fd))
    payload = json.loads(sys.stdin.buffer.read())
    module, _, name = entry.partition(":")
    function: Callable[[Any, Channel], None] = getattr(importlib.import_module(module), name)
    try:
        function(payload, channel)
    except Exception as error:  # noqa: BLE001 - whatever the entry lets through is reported, not printed
        frames = [[frame.filename, frame.lineno, frame.name] for frame in traceback.extract_tb(error.__traceback__)]
        channel.send({"sandbox_error": {"type": type(error).__name__, "message": str(error)[:1000],
                                        "frames": frames[-50:]}})
        raise SystemExit(1) from None


def _limit_self(limits: Limits) -> None:
    """Set the child's CPU, address-space, file-size and core-file limits (never above a hard limit
    already in force), and an alarm that ends it 2 s after its wall-clock limit should the parent
    die before it can kill it."""
    import resource

    signal.alarm(math.ceil(limits.seconds) + 2)

    wanted = {resource.RLIMIT_CPU: (limits.cpu, limits.cpu + 1), resource.RLIMIT_AS: (limits.memory_bytes,) * 2,
              resource.RLIMIT_FSIZE: (limits.file_bytes,) * 2, resource.RLIMIT_CORE: (0, 0)}
    lower_limits(wanted)


def echo(payload: Any, channel: Channel) -> None:
    """A sandbox entry for trying the sandbox: prints ``payload["say"]`` and sends it back as
    ``{"said": ...}``."""
    print(payload["say"])
    channel.send({"said": payload["say"]})
