"""Run untrusted code in a short-lived child process inside a box: the boundary around what a student types.

:func:`run_in_sandbox` starts a fresh ``python -I -S`` and has it call an entry function named
``"module:function"`` (:func:`gamelib.play.box.answers.answer_in_box` is the checker's) with a JSON
payload, written to its stdin, and a :class:`~gamelib.play.box.child.Channel`, a pipe of its own
on which the entry reports JSON messages (never pickles, never stdout) and may ask the parent
questions (``listen`` answers them). What the child may import is the box's library
(:func:`box_library`): :mod:`gamelib.play.box.child`, :mod:`gamelib.play.box.answers` and the
game-tree API of :mod:`gamelib.games.game` (``from gamelib import Player`` works); none of the
course's searches, checkers, exercises or ``solutions/``, and no site-packages.

Where bubblewrap runs (:func:`gamelib.play.box.guard.bwrap_problem`, probed once), the child starts in
its box (:func:`gamelib.play.box.guard.boxed_command`): new user, PID, network, IPC and UTS
namespaces, an unprivileged uid, no capabilities, an empty environment, read-only binds of only the
interpreter and the box's library, a size-capped tmpfs as its working folder; the result's
``boundary`` says ``"isolated"``. Elsewhere it is ``"guard only"``: the child runs in an empty scratch
folder with a minimal environment and only the limits below, and, where we are root, as a user of
its own (:func:`gamelib.play.box.guard.guard_user`: a uid no other process has, no groups, no
capabilities), its scratch folder made for it, in a Python that user can run; when the run ends,
every process of that uid is ended and what it left in the machine's shared folders removed. Not
root, it runs as this user. The result's ``identity`` says which (``"uid 2113929216"``); a run the
guard cannot give a user other than root does not happen (SandboxUnavailableError, ``not run:
...``). Either way the child limits itself with
POSIX ``resource`` limits before the entry runs (CPU seconds, address space, file size, processes, no
core files); where a pids cgroup can be made (:func:`gamelib.play.box.guard.process_cap`) the run has
its own, capping its processes. The parent enforces the wall-clock limit and the output limit,
honours a Stop (a :class:`threading.Event`), and when the run ends, for whatever reason, kills the
child's process group, the box (its PID namespace ends every process in it), the cgroup and (as
root, under the guard only) every process of its uid, so nothing the code started is left behind. What happened comes back as data, a :class:`SandboxResult`:
how the run ended (:class:`RunEnd`), the messages, what was printed.

Nothing the child sends is a verdict: the caller judges the raw data (see
:mod:`gamelib.teach.code_check`). What the boundary guarantees, and what it does not, is in the
README's security section.

>>> result = run_in_sandbox("gamelib.play.box.child:echo", {"say": "hello"})
>>> result.outcome, result.messages
(<RunEnd.FINISHED: 'finished'>, ({'said': 'hello'},))
>>> run_in_sandbox("gamelib.play.box.child:echo", {"say": "x" * 2000},
...                Limits(output_bytes=1000)).outcome  # echo prints what it says, too
<RunEnd.OUTPUT: 'output'>
"""

from __future__ import annotations

import atexit
import compileall
import importlib.util
import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, Final, Protocol

from gamelib.play.box.guard import (BOX_IDENTITY, GUARD_ONLY, ISOLATED, GuardUser, NotRunError, boundary, boxed_command,
                                   guard_user, interpreter_binds, process_cap, site_packages, unreachable)
from gamelib.play.box.limits import MQUEUE_BYTES, dropped_command, kill_group, minimal_environment
from gamelib.play.box.answers import read_message
from gamelib.play.box.child import BOX_PROCESSES

__all__ = ["CHANNEL_BYTES", "END", "Limits", "Listener", "RunEnd", "Runner", "SandboxResult", "SandboxUnavailableError",
           "box_library", "in_box", "run_in_sandbox", "sandbox_problem"]

_BOX = "/box"
"""Where the box's library is bound inside bubblewrap's box."""

_BOOTSTRAP = ("import sys; sys.path.insert(0, sys.argv[1]); "
              "from gamelib.play.box.limits import lower_limits, resource_limit; "
              f"lower_limits({{resource_limit('RLIMIT_MSGQUEUE'): ({MQUEUE_BYTES}, {MQUEUE_BYTES})}}); "
              "from gamelib.play.box.child import child_main; child_main(sys.argv[2:])")

_POLL_SECONDS = 0.05
"""How often the parent looks at the clock, the Stop event and the child's exit while it waits."""

CHANNEL_BYTES = 4 * 2**20
"""The most the child may send on its channel (past it, the outcome is OUTPUT)."""

_CGROUP_PROCESSES = 64
"""The most processes a run's cgroup may hold (bwrap's two and the child's own among them)."""


class SandboxUnavailableError(RuntimeError):
    """This platform cannot run the sandbox (it needs POSIX process groups and ``resource``)."""


class RunEnd(str, Enum):
    """How a sandboxed run ended."""

    FINISHED = "finished"   # the child exited by itself with status 0
    ENDED = "ended"         # the caller's listener had what it needed and ended the run
    TIMEOUT = "timeout"     # it ran longer than the wall-clock limit and was killed
    CPU_LIMIT = "cpu"       # it used up its CPU seconds (SIGXCPU)
    MEMORY = "memory"       # it asked for more memory than its address-space limit (MemoryError)
    OUTPUT = "output"       # it printed (or sent) more than the output limit and was killed
    STOPPED = "stopped"     # the caller's Stop event was set and it was killed
    STEPS = "steps"         # it ran more steps than its budget (a run in the kernel: gamelib.play.box.stepped)
    CRASHED = "crashed"     # it exited with another status, or a signal not sent by the sandbox killed it


class _End:
    def __repr__(self) -> str:
        return "END"


END: Final = _End()
"""What a listener returns to end the run (outcome ENDED)."""

Listener = Callable[[Any], Any]
"""Called in the parent with each JSON message the child sends, as it arrives: returns None (no
answer), :data:`END` (end the run), or data to send back to the child as one JSON line on its stdin
(the answer to :meth:`~gamelib.play.box.child.Channel.ask`)."""


@dataclass(frozen=True)
class Limits:
    """What a sandboxed run may use: ``seconds`` of wall-clock time (from the start of the child,
    its start-up included), ``cpu_seconds`` of CPU time (default: ``seconds`` rounded up, plus 1),
    ``memory_bytes`` of address space, ``output_bytes`` printed on stdout and stderr together,
    files of at most ``file_bytes`` (in bubblewrap's box, all its files together: its tmpfs's size)
    and at most ``processes`` processes. Raises ValueError for a limit that is not positive."""

    seconds: float = 5.0
    cpu_seconds: int | None = None
    memory_bytes: int = 512 * 2**20
    output_bytes: int = 2**20
    file_bytes: int = 16 * 2**20
    processes: int = BOX_PROCESSES

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if value is not None and not value > 0:
                raise ValueError(f"sandbox limit {name} must be positive, not {value!r}")

    @property
    def cpu(self) -> int:
        """The CPU-time limit in whole seconds."""
        return self.cpu_seconds if self.cpu_seconds is not None else math.ceil(self.seconds) + 1

    def for_child(self) -> str:
        """The limits the child sets itself, as JSON."""
        return json.dumps({"seconds": self.seconds, "cpu": self.cpu, "memory_bytes": self.memory_bytes,
                           "file_bytes": self.file_bytes, "processes": self.processes})


@dataclass(frozen=True)
class SandboxResult:
    """What became of a sandboxed run: ``outcome``; ``messages``, the JSON values the entry sent,
    in order (lines :func:`~gamelib.play.box.answers.read_message` cannot read are dropped and counted in
    ``garbled``, the first one's fault said in ``unreadable``); ``stdout`` and
    ``stderr`` as printed, cut at the output limit; ``seconds`` of wall-clock time; ``returncode``,
    the child's exit status (negative: the signal that ended it, as :mod:`subprocess` reports it);
    ``boundary``, ``"isolated"`` (bubblewrap's box) or ``"guard only"``; ``identity``, who the code
    ran as (:data:`gamelib.play.box.guard.BOX_IDENTITY` in the box; under the guard only
    :attr:`gamelib.play.box.guard.GuardUser.identity`: ``"uid 2113929216"``, a uid of its own,
    ``"uid 65534 (nobody, shared)"`` or ``"uid 1000, this user (not root: ...)"``) and ``uid``, its
    uid as the machine sees it (None in the box, where it is the box's)."""

    outcome: RunEnd
    messages: tuple[Any, ...]
    stdout: str
    stderr: str
    seconds: float
    returncode: int | None
    limits: Limits
    garbled: int = 0
    unreadable: str = ""
    boundary: str = GUARD_ONLY
    identity: str = ""
    uid: int | None = None

    @property
    def where(self) -> str:
        """The boundary and who the code ran as, in a few words: ``"guard only (uid 2113929216)"``,
        ``"isolated (uid 65534 in bubblewrap's box)"``."""
        return f"{self.boundary} ({self.identity})" if self.identity else self.boundary

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
        if self.outcome in (RunEnd.FINISHED, RunEnd.CRASHED, RunEnd.ENDED):
            error = self.error
            if error is not None:
                return f"the sandboxed code raised {error.get('type')}: {error.get('message')}"
            how = f"was killed by {self.signal_name}" if self.signal_name else f"exited with status {self.returncode}"
            return f"the checking process {how}"
        return {
            RunEnd.TIMEOUT: f"ran longer than {limits.seconds:g} s",
            RunEnd.CPU_LIMIT: f"used more than {limits.cpu} s of CPU time",
            RunEnd.MEMORY: f"asked for more than the {_megabytes(limits.memory_bytes)} of memory allowed",
            RunEnd.OUTPUT: f"printed more than {_megabytes(limits.output_bytes)}",
            RunEnd.STOPPED: f"was stopped after {self.seconds:.1f} s",
        }[self.outcome]


def _megabytes(size: int) -> str:
    return f"{size / 2**20:g} MB"


def sandbox_problem() -> str | None:
    """Why this platform cannot run the sandbox, or None if it can (POSIX, with ``resource``)."""
    if sys.platform == "emscripten":  # Pyodide in a browser: its `resource` is a stand-in with no spec
        return ("code is checked in a child process with time and memory limits, and Python in a browser "
                "(Pyodide) cannot start one (check_function and the app's checker check in the kernel there)")
    if os.name != "posix" or importlib.util.find_spec("resource") is None:
        return ("code is checked only on Linux or macOS: the sandbox needs POSIX process groups and the "
                "resource module for its time and memory limits, and this Python has no resource module")
    return None


_BOX_FILES = {"gamelib/__init__.py": "play/box/student_api.py", "gamelib/games/__init__.py": "games/__init__.py",
              "gamelib/games/game.py": "games/game.py", "gamelib/play/__init__.py": "play/__init__.py",
              "gamelib/play/box/__init__.py": "play/box/__init__.py", "gamelib/play/box/limits.py": "play/box/limits.py",
              "gamelib/play/box/child.py": "play/box/child.py", "gamelib/play/box/answers.py": "play/box/answers.py"}
"""The box's library: its path in the box -> the file of this gamelib it is a copy of."""

_library_lock = threading.Lock()
_library: list[Path] = []


def box_library() -> Path:
    """The folder the child imports from (made once a process, removed at exit): a ``gamelib`` of
    only :data:`_BOX_FILES`, its ``__init__`` :mod:`gamelib.play.box.student_api`, compiled."""
    with _library_lock:
        if _library and _library[0].is_dir():
            return _library[0]
        folder = Path(tempfile.mkdtemp(prefix="gamelib-box-"))
        os.chmod(folder, 0o755)
        package = Path(__file__).resolve().parent.parent.parent
        for target, source in _BOX_FILES.items():
            (folder / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(package / source, folder / target)
        compileall.compile_dir(str(folder), quiet=2)
        for path in folder.rglob("*"):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _library[:] = [folder]
        return folder


class Runner(Protocol):
    """One way to run untrusted code: the box's entry on ``payload`` (JSON data) within ``limits``,
    ``listen`` hearing each message as it arrives, returning how the run ended and what came back
    as data, for the trusted side to judge. :func:`in_box` makes the runner of a child process in
    the box; :func:`gamelib.play.box.stepped.in_kernel` the runner of this process under a step
    budget (a browser, which cannot start a process)."""

    def __call__(self, payload: Any, limits: Limits, listen: Listener | None) -> SandboxResult:
        """Run once; raises SandboxUnavailableError where this runner cannot run here."""
        ...


def in_box(entry: str, cancel: threading.Event | None = None) -> Runner:
    """The :class:`Runner` that runs ``entry`` in a child process in the box (:func:`run_in_sandbox`);
    setting ``cancel`` stops the run."""

    def run(payload: Any, limits: Limits, listen: Listener | None) -> SandboxResult:
        return run_in_sandbox(entry, payload, limits, cancel=cancel, listen=listen)

    return run


def run_in_sandbox(entry: str, payload: Any, limits: Limits = Limits(), *,
                   cancel: threading.Event | None = None, listen: Listener | None = None) -> SandboxResult:
    """Run ``entry`` (``"gamelib.play.box.module:function"`` of the box's library, called as
    ``function(payload, channel)``) in a child process in the box with ``limits``, and return how
    it ended.

    ``payload`` is JSON-serialisable data, the only thing the child is given. ``listen`` (see
    :data:`Listener`) hears each message as it arrives, answers questions and may end the run.
    Setting ``cancel`` (from another thread) kills the child within about 0.05 s (outcome STOPPED).
    Always returns within ``limits.seconds`` plus the time to kill and reap the child; the child's
    process group, box and cgroup are killed before it returns (also on KeyboardInterrupt). Raises
    SandboxUnavailableError where :func:`sandbox_problem` says the platform cannot run it.
    """
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailableError(problem)
    data = (json.dumps(payload) + "\n").encode("utf-8")
    isolated = boundary() == ISOLATED
    with ExitStack() as stack:
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="gamelib-sandbox-",
                                                                  ignore_cleanup_errors=True))
        user = None if isolated else stack.enter_context(_guard_user(scratch))
        cap = stack.enter_context(process_cap(_CGROUP_PROCESSES))
        started = time.monotonic()
        process, channel = _spawn(entry, limits, scratch, cap, user)
        watch: _Watch | None = None
        try:
            watch = _Watch(process, channel, data, limits, listen)
            outcome = watch.run(started, cancel)
        finally:
            kill_group(process.pid)
            process.wait()
            if watch is not None:
                watch.close()
        returncode = process.returncode
        if isolated and returncode > 128:  # bwrap reports a signal that ended its command as 128 + its number
            returncode = 128 - returncode
        result = watch.result(outcome, returncode, time.monotonic() - started, ISOLATED if isolated else GUARD_ONLY)
        if user is None:
            return replace(result, identity=BOX_IDENTITY)
        return replace(result, identity=user.identity, uid=user.uid)


def _guard_user(scratch: str) -> GuardUser:
    """The user a run under the guard only runs as (:func:`gamelib.play.box.guard.guard_user`), its
    ``scratch`` folder made its own and the box's library checked within its reach. Raises
    SandboxUnavailableError (``not run: ...``) where the guard refuses the run."""
    try:
        user = guard_user()
    except NotRunError as error:
        raise SandboxUnavailableError(str(error)) from None
    problem = next(filter(None, (unreachable(folder) for folder in (box_library(), os.path.dirname(scratch)))),
                   None) if user.dropped else None
    if problem is not None:
        user.end()
        raise SandboxUnavailableError(f"not run: uid {user.uid} cannot reach what the run needs: {problem}")
    user.own(scratch)
    return user


def _spawn(entry: str, limits: Limits, scratch: str, cap: list[str],
           user: GuardUser | None) -> tuple[subprocess.Popen[bytes], int]:
    """Start the child in its own session (so its process group can be killed), in the box (no
    ``user``) or in ``scratch`` as ``user`` (dropped there from root by a trampoline, after the
    cgroup's ``cap`` words, since joining the cgroup takes root); returns it and the read end of
    its channel."""
    library = box_library()
    read_end, write_end = os.pipe()
    if user is None:
        python = os.path.realpath(sys.executable)
        child = [python, "-I", "-S", "-u", "-c", _BOOTSTRAP, _BOX, entry, str(write_end), limits.for_child()]
        command = boxed_command(child, binds=[*interpreter_binds(site_packages=False), (str(library), _BOX)],
                                scratch_bytes=limits.file_bytes, hide=site_packages())
        env: dict[str, str] = {}
        cwd = "/"
    else:
        python = user.python if user.dropped else os.path.realpath(sys.executable)
        command = [python, "-I", "-S", "-u", "-c", _BOOTSTRAP, str(library), entry, str(write_end), limits.for_child()]
        if user.dropped:
            command = dropped_command(command, user.uid, user.gid)
        env, cwd = minimal_environment(scratch), scratch
    try:
        process = subprocess.Popen([*cap, *command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, cwd=cwd, env=env, pass_fds=(write_end,),
                                   start_new_session=True)
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    return process, read_end


class _Watch:
    """The parent's side of one run: feeds stdin (the payload, then the listener's answers),
    collects stdout, stderr and the channel's messages, and decides when to stop."""

    def __init__(self, process: subprocess.Popen[bytes], channel: int, data: bytes, limits: Limits,
                 listen: Listener | None) -> None:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        self.process, self.limits, self.data, self.listen = process, limits, data, listen
        self.selector = selectors.DefaultSelector()
        self.received: dict[str, bytearray] = {"stdout": bytearray(), "stderr": bytearray()}
        self.channel_bytes, self.pending = 0, bytearray()
        self.messages: list[Any] = []
        self.garbled, self.ended, self.writing = 0, False, True
        self.unreadable = ""
        self.fds = {"stdin": process.stdin.fileno(), "stdout": process.stdout.fileno(),
                    "stderr": process.stderr.fileno(), "channel": channel}
        for name, fd in self.fds.items():
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_WRITE if name == "stdin" else selectors.EVENT_READ, name)

    def run(self, started: float, cancel: threading.Event | None) -> RunEnd | None:
        """Wait until the child exits (None) or a limit, the listener or Stop ends the run (that outcome)."""
        deadline = started + self.limits.seconds
        while True:
            if cancel is not None and cancel.is_set():
                return RunEnd.STOPPED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return RunEnd.TIMEOUT
            for key, _ in self.selector.select(min(remaining, _POLL_SECONDS)):
                self._serve(key.data)
                if self.ended:
                    self._drain()  # what the child printed before the message that ended it is kept
                    return RunEnd.ENDED
            if self._too_much():
                return RunEnd.OUTPUT
            if self._exited():
                for name in ("stdout", "stderr", "channel"):
                    self._read(name)
                return RunEnd.ENDED if self.ended else RunEnd.OUTPUT if self._too_much() else None

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
            if self.listen is None:
                self._close("stdin")
            elif self.writing and "stdin" in self.fds:
                self.selector.unregister(self.fds["stdin"])
                self.writing = False

    def _answer(self, reply: Any) -> None:
        """Queue ``reply`` as one JSON line for the child's stdin."""
        if "stdin" not in self.fds:
            return
        self.data += (json.dumps(reply) + "\n").encode("utf-8")
        if not self.writing:
            self.selector.register(self.fds["stdin"], selectors.EVENT_WRITE, "stdin")
            self.writing = True

    def _read(self, name: str) -> None:
        """Read what is there now, keeping at most one byte more than the limit (to notice it)."""
        if name not in self.fds:
            return
        while not self.ended:
            try:
                chunk = os.read(self.fds[name], 65536)
            except BlockingIOError:
                return
            if not chunk:
                self._close(name)
                return
            if name == "channel":
                self._hear(chunk)
                if self.channel_bytes > CHANNEL_BYTES:
                    return
                continue
            room = self.limits.output_bytes + 1 - len(self.received[name])
            self.received[name] += chunk[:max(room, 0)]
            if room <= len(chunk):
                return

    def _drain(self) -> None:
        """Read what stdout and stderr hold now, up to the output limit, without waiting: the listener has
        ended the run on a message, and what the child printed before it may not have been read yet
        (the pipes are served in whatever order they are ready)."""
        for name in ("stdout", "stderr"):
            fd = self.fds.get(name)
            while fd is not None and len(self.received[name]) <= self.limits.output_bytes:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if not chunk:
                    break
                self.received[name] += chunk[:self.limits.output_bytes + 1 - len(self.received[name])]

    def _hear(self, chunk: bytes) -> None:
        """Take the channel's complete lines as messages, each heard by the listener at once; a line
        :func:`gamelib.play.box.answers.read_message` cannot read is counted in ``garbled``."""
        self.channel_bytes += len(chunk)
        if self.channel_bytes > CHANNEL_BYTES:
            return
        self.pending += chunk
        *lines, rest = bytes(self.pending).split(b"\n")
        self.pending = bytearray(rest)
        for line in lines:
            try:
                message = read_message(line)
            except ValueError as error:  # UnreadableMessage: not UTF-8, not strict JSON, too deep or too big
                self.garbled += 1
                self.unreadable = self.unreadable or str(error)
                continue
            self.messages.append(message)
            if self.listen is not None and not self.ended:
                reply = self.listen(message)
                if reply is END:
                    self.ended = True
                elif reply is not None:
                    self._answer(reply)

    def _too_much(self) -> bool:
        printed = len(self.received["stdout"]) + len(self.received["stderr"])
        return printed > self.limits.output_bytes or self.channel_bytes > CHANNEL_BYTES

    def _exited(self) -> bool:
        """True once the child has exited, without reaping it (so its group id stays its own)."""
        return os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None

    def _close(self, name: str) -> None:
        """Stop watching pipe ``name``; close it unless Popen owns it (stdout and stderr are closed
        through their file objects in :meth:`close`, never twice)."""
        fd = self.fds.pop(name, None)
        if fd is None:
            return
        if name != "stdin" or self.writing:
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
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def result(self, outcome: RunEnd | None, returncode: int, seconds: float, boundary: str) -> SandboxResult:
        """The run's result; an exit without a limit's outcome is judged by its status."""
        if outcome is None:  # the child exited by itself: a last line it never ended is unreadable
            if self.pending.strip() and self.channel_bytes <= CHANNEL_BYTES:
                self.garbled += 1
                self.unreadable = self.unreadable or "a last line the child never ended"
                self.pending.clear()
            outcome = _judge_exit(self.messages, returncode)
        output = self.limits.output_bytes
        return SandboxResult(outcome, tuple(self.messages), self.received["stdout"][:output].decode("utf-8", "replace"),
                             self.received["stderr"][:output].decode("utf-8", "replace"), seconds,
                             returncode, self.limits, self.garbled, self.unreadable, boundary)


def _judge_exit(messages: list[Any], returncode: int) -> RunEnd:
    """The outcome of a child that exited by itself."""
    for message in messages:
        if isinstance(message, dict) and isinstance(message.get("sandbox_error"), dict):
            return RunEnd.MEMORY if message["sandbox_error"].get("type") == "MemoryError" else RunEnd.CRASHED
    if returncode == -signal.SIGXCPU:
        return RunEnd.CPU_LIMIT
    return RunEnd.FINISHED if returncode == 0 else RunEnd.CRASHED
