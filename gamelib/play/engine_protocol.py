"""The engine line protocol: a bot behind a text pipe, one command a line, one answer a line.

Any program that reads these commands on its standard input and answers on its standard output
can play in gamelib's arena, and gamelib's bots can play in anyone's (``docs/engine_protocol.md``
is the full description; the design follows the UCI chess protocol, made strictly one answer per
command so a client never has to guess how many lines to read):

==============================  ======================================  ========================
command                         answer                                  effect
==============================  ======================================  ========================
``rule 8`` / ``rule 4``         ``ok``                                  the neighbourhood
``position BOARD SIDE PLIES``   ``ok``                                  set the position
``play SQUARE``                 ``ok``                                  the side to move plays
``board``                       ``BOARD SIDE PLIES XCOUNT OCOUNT``      none
``go MILLISECONDS``             ``move SQUARE``                         none (the move is not played)
``info``                        ``info depth D value V nodes N ...``    none (about the last ``go``)
``quit``                        ``ok``                                  the engine exits
==============================  ======================================  ========================

Anything wrong gets ``error MESSAGE`` and changes nothing; a message quotes at most a short prefix
of what was sent, and a line longer than :data:`MAX_LINE_CHARS` is read only that far and refused.
``go`` takes 1 to 600,000 milliseconds (:data:`MAX_MOVE_SECONDS`). :class:`EngineSession` answers single
lines (the server, testable in-process), :func:`serve` runs it over streams (``python -m gamelib
engine --bot NAME``), and :class:`ExternalBot` runs a program speaking the protocol as a
:class:`~gamelib.play.bots.base.Bot`. ExternalBot reads what the program answers strictly
(:func:`answer_words`, :func:`read_move`): ``ok`` where ``ok`` is due, ``move SQUARE`` to ``go``,
words split at spaces and tabs only; any other line (bytes that are not UTF-8 included) is an
:class:`EngineError` with the reason ``"protocol"``, which a tournament records as a loss, never an
error of its own.

>>> from gamelib.play.bots.base import RandomBot
>>> session = EngineSession(RandomBot(seed=1))
>>> session.handle("play c3")
'ok'
>>> session.handle("board")
'......OO......OO................................X.......XX......XX...... O 55 5 4'
>>> session.handle("play c3")
'error c3 is occupied by X'
"""

from __future__ import annotations

import os
import queue
import re
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import IO, Any, TextIO

from gamelib.games.adjacency import MAX_ROUNDS, RULES, AdjacencyGame, AdjacencyState, parse_square, square_name
from gamelib.games.user_text import shown, whole_number
from gamelib.play.bots.base import Bot, Decision
from gamelib.play.box.limits import kill_group
from gamelib.search.time_rules import move_budget

__all__ = ["MAX_LINE_CHARS", "MAX_MOVE_SECONDS", "EngineError", "EngineSession", "ExternalBot", "ProtocolError",
           "answer_words", "info_line", "read_line", "read_move", "serve"]

COMMANDS = ("rule", "position", "play", "board", "go", "info", "quit")
"""The protocol's commands, in the order the documentation gives them."""

MAX_LINE_CHARS = 256
"""The longest line either side reads, in characters without the line end. The longest command,
``position`` with a board, takes 78; of a longer line only this much is kept (the rest is read in
pieces and dropped), and the engine answers it with an error."""

_SQUARES = 64
"""The board's squares, numbered 0 (a1) to 63 (h8): what a bot's move must be."""

MAX_MOVE_SECONDS = 600
"""The longest time ``go`` may ask for: 600 s, so ``go 600000`` at most. A longer ``go`` is an
error at once, so the commands after it (``quit``) are still read."""


class ProtocolError(ValueError):
    """A command the engine cannot carry out; the engine answers ``error`` and this message."""


class EngineError(ValueError):
    """An external engine that cannot be started, answers ``error``, answers nonsense, takes too
    long or exits; the message names the engine and the command. ``reason`` is the fault as a game
    record names it (:data:`gamelib.play.records.REASONS`): ``"timeout"``, ``"crash"`` (it exited,
    or could not start), ``"memory"`` (it exited with a MemoryError on its stderr log), ``"cpu"``
    (its CPU time limit ended it) or
    ``"protocol"`` (an ``error`` answer or a malformed one)."""

    def __init__(self, message: str, reason: str = "protocol") -> None:
        super().__init__(message)
        self.reason = reason


class EngineSession:
    """The server side: the position, the rule and a bot, changed only by commands that succeed.

    Starts at the initial position of a 28-round game (56 plies left), rule 8, X to move.
    ``handle`` answers one line; ``finished`` is True after ``quit``; ``last`` is the Decision of
    the last ``go`` (None before one), which ``info`` reports.

    With ``game_time`` (seconds), the engine keeps a whole-game clock for the side it moves: each
    ``go`` gets the smaller of its MILLISECONDS and the move's budget from what is left on the clock
    (:func:`gamelib.search.time_rules.move_budget`, over the plies of a 28-round game), and the
    move's time is taken off the clock. The clock is full again when a ``go`` comes with more plies
    left than the one before (a new game).
    """

    def __init__(self, bot: Bot, rule: int = 8, game_time: float | None = None) -> None:
        if game_time is not None and not game_time > 0:
            raise ValueError(f"the game time is {game_time} seconds: give a positive number")
        self.bot, self.game_time = bot, game_time
        self.clock_left, self._plies_before = game_time or 0.0, 0
        self.last: Decision | None = None
        self.game = AdjacencyGame(rule=rule)
        self.state: AdjacencyState = self.game.initial_state()
        self.finished = False
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "rule": self._rule, "position": self._position, "play": self._play, "board": self._board,
            "go": self._go, "info": self._info, "quit": self._quit,
        }

    def handle(self, line: str) -> str:
        """The one-line answer to the command ``line`` (without its newline): ``ok``, the board,
        ``move SQUARE``, or ``error MESSAGE`` (and nothing changes) for anything wrong."""
        line = line.rstrip("\r\n")
        if len(line) > MAX_LINE_CHARS:
            return (f"error the line is longer than {MAX_LINE_CHARS} characters, the most a command takes; it "
                    f"begins {shown(line[:20])}")
        try:
            return self._dispatch(line.split())
        except ValueError as error:  # ProtocolError, NotationError, IllegalMoveError, a bot's ValueError
            return "error " + " ".join(str(error).split())[:MAX_LINE_CHARS]

    def _dispatch(self, words: list[str]) -> str:
        """Run the command ``words[0]`` with arguments ``words[1:]``."""
        if not words:
            raise ProtocolError(f"empty line: give a command ({', '.join(COMMANDS)})")
        command = self._commands.get(words[0])
        if command is None:
            raise ProtocolError(f"unknown command {shown(words[0])}: use {', '.join(COMMANDS)}")
        return command(words[1:])

    def _rule(self, args: list[str]) -> str:
        _arguments("rule", args, "8|4")
        if args[0] not in {str(rule) for rule in RULES}:
            raise ProtocolError(f"rule {shown(args[0])} is unknown: give 8 (all neighbours) or 4 (orthogonal only)")
        self.game = AdjacencyGame(rule=int(args[0]))  # a state holds no rule, so the position stays
        return "ok"

    def _position(self, args: list[str]) -> str:
        _arguments("position", args, "BOARD SIDE PLIES")
        board, side, plies = args
        self.state = self.game.from_board(board, side, whole_number(plies, 0, 2 * MAX_ROUNDS, "a number of plies left"))
        return "ok"

    def _play(self, args: list[str]) -> str:
        _arguments("play", args, "SQUARE")
        self.state = self.game.result(self.state, parse_square(args[0]))
        return "ok"

    def _board(self, args: list[str]) -> str:
        _arguments("board", args, "")
        x, o = self.game.counts(self.state)
        return f"{self.game.board_string(self.state)} {self.state.to_move.value} {self.state.plies_left} {x} {o}"

    def _go(self, args: list[str]) -> str:
        _arguments("go", args, "MILLISECONDS")
        milliseconds = whole_number(args[0], 1, MAX_MOVE_SECONDS * 1000, "a time in milliseconds")
        if self.game.is_terminal(self.state):
            raise ProtocolError("the game is over: there is no move to make")
        start = time.perf_counter()
        decision = self.bot.choose(self.game, self.state, self._limit(milliseconds / 1000))
        if self.game_time is not None:
            self.clock_left -= time.perf_counter() - start
        move = getattr(decision, "move", None)
        if type(move) is not int or not 0 <= move < _SQUARES:
            raise ProtocolError(f"not a square: the bot chose {shown(move)} (a Decision's move is a square "
                                f"number, 0 to {_SQUARES - 1}, one of game.legal_moves(state))")
        self.last = decision
        return f"move {square_name(move)}"

    def _limit(self, seconds: float) -> float:
        """The time limit of the move asked for with ``seconds``: those seconds, or under a game
        clock at most the move's budget (the clock is filled again for a new game)."""
        if self.game_time is None:
            return seconds
        plies = self.state.plies_left
        if plies > self._plies_before:
            self.clock_left = self.game_time
        self._plies_before = plies
        return min(seconds, move_budget(self.clock_left, plies, max(plies, 2 * MAX_ROUNDS)))

    def _info(self, args: list[str]) -> str:
        _arguments("info", args, "")
        if self.last is None:
            return "info none: no go yet"
        try:
            return info_line(self.last)
        except (TypeError, AttributeError) as error:  # a bot's Decision-like object without the numbers
            raise ProtocolError(f"the bot's decision cannot be reported: {error}") from None

    def _quit(self, args: list[str]) -> str:
        _arguments("quit", args, "")
        self.finished = True
        return "ok"


def info_line(decision: Decision) -> str:
    """The ``info`` answer about ``decision``: ``info`` then ``depth D``, ``value V`` (X's view),
    ``nodes N``, ``seconds S`` where known, and the bot's note, cut to :data:`MAX_LINE_CHARS`.

    >>> info_line(Decision(3, value=2, depth=8, seconds=0.1234, nodes=900, note="solved: X wins by 2 marks"))
    'info depth 8 value +2 nodes 900 seconds 0.123 solved: X wins by 2 marks'
    """
    words = ["info"]
    if decision.depth is not None:
        words.append(f"depth {decision.depth}")
    if decision.value is not None:
        words.append(f"value {decision.value:+g}")
    words.append(f"nodes {decision.nodes} seconds {decision.seconds:.3g}")
    return " ".join(" ".join(words + [decision.note]).split())[:MAX_LINE_CHARS]


def _arguments(command: str, args: Sequence[str], usage: str) -> None:
    """Raise ProtocolError unless ``args`` has one word for each word of ``usage`` (with "8|4"
    one word)."""
    wanted = len(usage.split())
    if len(args) != wanted:
        shown = f"{command} {usage}".strip()
        raise ProtocolError(f"{command} takes {wanted} argument{'s' * (wanted != 1)}, got {len(args)}: "
                            f"give '{shown}'")


def serve(bot: Bot, input: TextIO, output: TextIO, game_time: float | None = None) -> None:
    """Answer the commands read from ``input`` on ``output``, one line each, flushed at once,
    until ``quit`` or the end of ``input``; ``game_time`` gives the engine a whole-game clock (see
    :class:`EngineSession`).

    >>> import io
    >>> from gamelib.play.bots.base import RandomBot
    >>> out = io.StringIO()
    >>> serve(RandomBot(), io.StringIO("rule 4\\nfly\\nquit\\nboard\\n"), out)
    >>> out.getvalue().splitlines()
    ['ok', "error unknown command 'fly': use rule, position, play, board, go, info, quit", 'ok']
    """
    session = EngineSession(bot, game_time=game_time)
    while (line := read_line(input)) is not None:
        output.write(session.handle(line) + "\n")
        output.flush()
        if session.finished:
            return


def read_line(stream: IO[str]) -> str | None:
    """The next line of ``stream`` without its line end, or None at the end of the stream. A line
    longer than :data:`MAX_LINE_CHARS` comes back cut to MAX_LINE_CHARS + 1 characters (so the
    reader can tell), its rest read in pieces and dropped: memory stays bounded whatever arrives.

    >>> import io
    >>> stream = io.StringIO("go 10\\r\\n" + "x" * 10**6 + "\\nquit")
    >>> read_line(stream), len(read_line(stream) or ""), read_line(stream), read_line(stream)
    ('go 10', 257, 'quit', None)
    """
    line = stream.readline(MAX_LINE_CHARS + 2)  # room for the longest line and its "\r\n"
    if not line:
        return None
    if len(line) == MAX_LINE_CHARS + 2 and not line.endswith("\n"):
        rest = line
        while rest and not rest.endswith("\n"):
            rest = stream.readline(1 << 16)
    line = line.rstrip("\r\n")
    return line[:MAX_LINE_CHARS + 1]


_SEPARATORS = re.compile("[ \t]+")


def answer_words(line: str) -> list[str]:
    """The words of a line of the protocol: split at spaces and tabs only (other whitespace, such as
    a no-break space, is part of a word).

    >>> answer_words("move\tc3 "), answer_words("move\u00a0c3")
    (['move', 'c3'], ['move\xa0c3'])
    """
    return [word for word in _SEPARATORS.split(line) if word]


def read_move(answer: str) -> int:
    """The square (0 to 63) an engine's answer to ``go`` names: ``move SQUARE``, nothing else.
    Raises ProtocolError saying what the answer is instead, quoting at most a short prefix of it.

    >>> read_move("move c3"), read_move("move\th8")
    (18, 63)
    >>> read_move("move c3 c4")
    Traceback (most recent call last):
    ...
    gamelib.play.engine_protocol.ProtocolError: 'move c3 c4' is not 'move SQUARE'
    """
    words = answer_words(answer)
    if len(words) != 2 or words[0] != "move":
        raise ProtocolError(f"{shown(answer)} is not 'move SQUARE'")
    try:
        return parse_square(words[1])
    except ValueError as error:  # NotationError: "bad square 'i9': give a file a-h and a rank 1-8, like 'c3'"
        raise ProtocolError(f"{shown(answer)}: {error}") from None


class ExternalBot:
    """A bot played by another program speaking the protocol, run as a subprocess.

    ``command`` is the program and its arguments (e.g. ``["python", "-m", "gamelib", "engine",
    "--bot", "random"]``). It sends ``board`` once at the start, to wait until the engine is ready
    (not charged to its first move). Each ``choose`` sends ``rule`` (when it changes), ``position`` and ``go``
    and reads the ``move``; the engine gets ``seconds`` as milliseconds and ``grace`` more seconds
    to answer, or ``move_grace`` seconds if given (any other command gets ``grace`` seconds). The
    engine's stderr goes to ours, or is appended to the file ``stderr`` (its tail then goes into the
    message of an EngineError when the engine exits). ``cwd`` and ``env`` are the engine's working
    folder and environment (default: ours); with ``own_group`` it leads a process group of its own,
    which :meth:`close` kills whole.
    Call :meth:`close` (or use ``with``) to end it; a collected ExternalBot ends it too.
    Raises EngineError if the program cannot be started.
    """

    def __init__(self, command: Sequence[str], *, name: str | None = None, grace: float = 10.0,
                 move_grace: float | None = None, cwd: str | None = None, env: dict[str, str] | None = None,
                 stderr: Path | None = None, own_group: bool = False) -> None:
        if not command:
            raise EngineError("the engine command is empty: give a program and its arguments", "crash")
        self.command = list(command)
        self.name = name or "cmd:" + shlex.join(self.command)
        self.grace = grace
        self.move_grace = grace if move_grace is None else move_grace
        self.stderr = stderr
        self._rule: int | None = None
        self._process = _start(self.command, cwd, env, stderr, own_group)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stop = threading.Event()
        self._reader = threading.Thread(target=_read_lines, args=(self._process.stdout, self._lines, self._stop),
                                        daemon=True)
        self._reader.start()
        self._finalizer = weakref.finalize(self, _end, self._process, self._reader, self._stop, own_group=own_group)
        self._own_group = own_group
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        """Ask ``board`` once, so the engine's start-up time is not charged to its first move.
        Ends the engine and raises EngineError if it does not answer within ``grace`` seconds."""
        try:
            answer = self._ask("board", self.grace)
            words = answer_words(answer)
            if len(words) != 5 or len(words[0]) != 64:
                raise EngineError(f"engine {self.name} answered board with {shown(answer)}, not "
                                  "'BOARD SIDE PLIES XCOUNT OCOUNT': does it speak the engine line protocol?")
        except EngineError:
            self.close()
            raise

    def choose(self, game: Any, state: AdjacencyState, seconds: float) -> Decision:
        """The engine's move in ``state`` of ``game`` (an AdjacencyGame), asked with ``go`` and
        ``seconds`` as milliseconds. Raises EngineError if the engine fails to answer properly."""
        start = time.perf_counter()
        if self._rule != game.rule:
            self._ok(f"rule {game.rule}")
            self._rule = game.rule
        self._ok(f"position {game.board_string(state)} {state.to_move.value} {state.plies_left}")
        milliseconds = min(MAX_MOVE_SECONDS * 1000, max(1, round(seconds * 1000)))
        answer = self._ask(f"go {milliseconds}", seconds + self.move_grace)
        try:
            move = read_move(answer)
        except ProtocolError as error:
            raise EngineError(f"engine {self.name} answered go with {error}") from None
        return Decision(move=move, seconds=time.perf_counter() - start, note=f"engine: {answer}")

    def _ok(self, command: str) -> None:
        """Send ``command`` and expect ``ok``. Raises EngineError for any other answer (or none)."""
        answer = self._ask(command, self.grace)
        if answer_words(answer) != ["ok"]:
            raise EngineError(f"engine {self.name} answered {command.split()[0]} with {shown(answer)}, not 'ok'")

    def _ask(self, command: str, timeout: float) -> str:
        """Send ``command`` and return the engine's one-line answer. Raises EngineError on an
        ``error`` answer, on no answer within ``timeout`` seconds, or if the engine has exited."""
        try:
            assert self._process.stdin is not None
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
            answer = self._lines.get(timeout=timeout)
        except (OSError, ValueError):  # a broken pipe, or the bot was closed
            answer = None
        except queue.Empty:
            raise EngineError(f"engine {self.name} did not answer {command!r} within {timeout:g} s", "timeout") from None
        if answer is None:
            raise self._exited(command)
        if answer.startswith("error"):
            raise EngineError(f"engine {self.name} answered {command!r} with {answer!r}")  # at most a line's 257 characters
        return answer

    def _exited(self, command: str) -> EngineError:
        """The error for an engine that exited at ``command``: ``cpu`` if SIGXCPU ended it (its CPU
        time limit), ``memory`` if its stderr log ends with a MemoryError, else a crash; the log's
        last line is in the message, and the file and line of a traceback's innermost frame where the log
        ends with one."""
        try:
            status = self._process.wait(timeout=self.grace)
        except subprocess.TimeoutExpired:  # it closed its stdout but lives on
            status = None
        tail = _tail(self.stderr)
        last = tail.strip().splitlines()[-1:] or [""]
        cpu = status in (-signal.SIGXCPU, 128 + signal.SIGXCPU)  # as a boxed engine's bwrap reports the signal
        reason = "cpu" if cpu else "memory" if "MemoryError" in tail else "crash"
        frames = re.findall(r'File "([^"]+)", line (\d+)', tail)  # a traceback's innermost frame is its last
        where = f" ({Path(frames[-1][0]).name}, line {frames[-1][1]})" if frames else ""
        return EngineError(f"engine {self.name} exited (status {status}) at {command!r}"
                           + (f": {last[0][:200]}" if last[0] else "") + where, reason)

    def close(self, wait: float | None = None) -> None:
        """Send ``quit``, wait up to ``wait`` seconds (default ``grace``) for the engine to exit,
        then kill it (its whole group if it has its own). Safe to call twice."""
        if self._finalizer.detach() is not None:
            _end(self._process, self._reader, self._stop, self.grace if wait is None else wait,
                 own_group=self._own_group)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalBot({self.command!r})"


def _start(command: list[str], cwd: str | None, env: dict[str, str] | None, stderr: Path | None,
           own_group: bool) -> subprocess.Popen[str]:
    """The engine process, with pipes for its stdin and stdout, line-buffered text, its stderr
    appended to the file ``stderr`` if given."""
    try:
        with ExitStack() as stack:
            log = None if stderr is None else stack.enter_context(stderr.open("ab"))
            return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                    bufsize=1, cwd=cwd, env=env, start_new_session=own_group,
                                    errors="replace")
    except OSError as error:
        raise EngineError(f"cannot start engine {shlex.join(command)}: {error.strerror}", "crash") from None


def _tail(path: Path | None, size: int = 2000) -> str:
    """The last ``size`` bytes of the file ``path`` as text ("" if none)."""
    if path is None or not path.exists():
        return ""
    with path.open("rb") as file:
        file.seek(max(0, path.stat().st_size - size))
        return file.read().decode("utf-8", "replace")


_READ_POLL_SECONDS = 0.1
"""How often the reader of an engine's answers looks whether it has been told to stop."""


def _read_lines(stream: IO[str] | None, lines: queue.Queue[str | None], stop: threading.Event) -> None:
    """Put each line of ``stream`` (without its line end, cut to :data:`MAX_LINE_CHARS` + 1
    characters) on ``lines``, then None at its end or once ``stop`` is set. It reads the pipe's
    file descriptor itself, never blocking longer than :data:`_READ_POLL_SECONDS`, so a process the
    engine left behind that keeps the pipe open cannot hold the reader (or whoever waits for it)."""
    assert stream is not None
    try:
        fd = stream.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            pending, dropping = b"", False
            while not stop.is_set():
                if not selector.select(_READ_POLL_SECONDS):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for raw in complete:
                    if not dropping:
                        lines.put(raw.decode("utf-8", "replace").rstrip("\r")[:MAX_LINE_CHARS + 1])
                    dropping = False
                if len(pending) > MAX_LINE_CHARS + 2:  # a line too long: keep its start, drop the rest
                    if not dropping:
                        lines.put(pending.decode("utf-8", "replace")[:MAX_LINE_CHARS + 1])
                    pending, dropping = b"", True
    except (OSError, ValueError):  # the stream was closed under us
        pass
    lines.put(None)


def _end(process: subprocess.Popen[str], reader: threading.Thread, stop: threading.Event, wait: float = 5.0, *,
         own_group: bool = False) -> None:
    """Ask ``process`` to quit, kill it if it has not exited within ``wait`` seconds (and then,
    with ``own_group``, every process of its group), stop the reader of its answers and close its
    pipes, whoever else still holds them."""
    try:
        assert process.stdin is not None
        process.stdin.write("quit\n")
        process.stdin.close()
    except (OSError, ValueError):
        pass
    try:
        process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
    if own_group:
        kill_group(process.pid)  # what it started, too: a group's id is not reused while a member lives
    process.wait()
    stop.set()
    reader.join(timeout=5)
    if process.stdout is not None:
        process.stdout.close()
