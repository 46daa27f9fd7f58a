"""A class tournament's entries: a folder of submissions described by ``entries.toml``.

Each ``[[entry]]`` of the manifest (``docs/tournament.md``) is one of

- a Python file defining a bot class with the course's interface, ``choose(game, state, seconds) ->
  Decision`` (``file = "greedy.py"``, ``class = "GreedyBot"``);
- an executable speaking the engine line protocol, in any language (``command = ["./bot"]``; a word
  naming a file of the submissions folder becomes its full path);
- one of the course's bots by its spec (``bot = "alphabeta:evaluation=weighted"``).

Submissions run as child processes (:func:`start_entry`): a Python file is served by ``python -m
gamelib.play.serve_file PATH NAME SEED`` (what ``python -m gamelib engine --bot-file PATH --bot-class
NAME`` does, with less to import), which loads the file in that child only (its
``print`` goes to its log: the protocol has a channel of its own). Where bubblewrap runs
(:mod:`gamelib.play.box.guard`), each child starts in a box: its own user, PID, network and IPC
namespaces, an unprivileged uid, an empty environment, read-only binds of only the interpreter, its
site-packages, gamelib and the entry's own folder, a size-capped tmpfs as its working folder; it dies
with the worker. Elsewhere it runs under the guard only: its own empty scratch folder as working
folder, a minimal environment, a process group of its own, and, where we are root, a user of its own
(:func:`gamelib.play.box.guard.guard_user`): its trampoline sets its limits, then gives up root before
the entry runs, in a Python that user can reach; its working folder (``work`` in the scratch folder)
is that user's, its log root's; every process of that uid is ended when its game ends. An entry that
user cannot reach (a folder on the way closed to others) is not run, and loses saying why. Not
root, it runs as this user. Either way it has address-space, file-size
and CPU limits, dies with its parent, and its whole process group (and box, and cgroup where one can
be made) is killed when its game ends; the arena enforces the move time from outside. The course's
bots are trusted and play inside the worker. ``docs/tournament.md`` says what is guaranteed.

Every path the manifest names (``file``, and each word of ``command`` that names something in the
folder or, absolute, anywhere) is resolved, symlinks and ``..`` included, and must lie inside the
submissions folder: else :func:`load_entries` refuses the entry, naming it, so no entry's box ever
holds a folder from outside.

>>> entry = Entry(name="greedy", team="Team 3", file="/sub/greedy.py", class_name="GreedyBot")
>>> entry.kind, entry_command(entry, seed=4)[1:]
('file', ['-m', 'gamelib.play.serve_file', '/sub/greedy.py', 'GreedyBot', '4'])
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import sys
import sysconfig
import tomllib
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelib.play.arena import build_bot
from gamelib.play.bots.base import Bot
from gamelib.play.box.guard import (ISOLATED, GuardUser, NotRunError, boundary, boxed_command, guard_user,
                                   interpreter_binds, unreachable)
from gamelib.play.engine_protocol import EngineError, ExternalBot
from gamelib.play.box.limits import limited_command, minimal_environment

__all__ = ["MANIFEST", "Entry", "EntryError", "EntryLimits", "course_entry", "entry_command", "load_entries",
           "load_file_bot", "start_entry"]

MANIFEST = "entries.toml"
"""The manifest's file name in a submissions folder."""

_PACKAGE = Path(__file__).resolve().parent.parent
_PACKAGE_ROOT = str(_PACKAGE.parent)
"""The folder holding this gamelib, the children's PYTHONPATH, so they run the same code."""

_BOX_LIBRARY = "/box"
"""Where this gamelib is bound in an entry's box (its PYTHONPATH there)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


class EntryError(ValueError):
    """A manifest or an entry that cannot be used; the message names the file and the entry."""


@dataclass(frozen=True)
class Entry:
    """One contestant: its unique ``name`` (letters, digits, ``-_.``, at most 40), its ``team``,
    and exactly one of: ``file`` (full path of a Python file) with ``class_name``, ``command`` (a
    program and its arguments) or ``bot`` (a course bot's spec)."""

    name: str
    team: str = ""
    file: str = ""
    class_name: str = ""
    command: tuple[str, ...] = ()
    bot: str = ""

    @property
    def kind(self) -> str:
        """``"file"``, ``"command"`` or ``"bot"``."""
        return "file" if self.file else "command" if self.command else "bot"


@dataclass(frozen=True)
class EntryLimits:
    """What an entry's process may use: ``memory_bytes`` of address space; ``grace`` seconds
    beyond the move's time limit before a move is a timeout; ``start_seconds`` to start up and
    answer its first command; ``cpu_seconds`` of CPU time for its whole game (all its threads and
    children together), or None for :meth:`cpu_budget`'s share. A process over it is ended by the
    kernel and loses with the reason ``cpu``. ``file_bytes`` caps each file it writes (its log
    included) and, in bubblewrap's box, its working folder; ``processes`` the processes and threads
    it may have (see :func:`gamelib.play.box.limits.limited_command`)."""

    memory_bytes: int = 2**30
    grace: float = 0.5
    start_seconds: float = 10.0
    cpu_seconds: int | None = None
    file_bytes: int = 64 * 2**20
    processes: int = 64

    def cpu_budget(self, rounds: int, time_limit: float) -> int:
        """The CPU seconds an entry may use in a game of ``rounds`` moves a side at ``time_limit``
        seconds a move: ``cpu_seconds`` if set, else the start-up time plus twice the wall time all
        its moves may take (each limit plus the grace), rounded up. Enough for a bot that thinks on
        one core, even through its opponent's turns; not for one that keeps several cores busy.

        >>> EntryLimits().cpu_budget(28, 1.0)
        94
        """
        if self.cpu_seconds is not None:
            return self.cpu_seconds
        return math.ceil(self.start_seconds + 2 * rounds * (time_limit + self.grace))


def course_entry(spec: str, name: str | None = None) -> Entry:
    """The course's bot ``spec`` as an entry called ``name`` (default: the spec). Raises EntryError
    for an unknown bot.

    >>> course_entry("alphabeta:evaluation=weighted", "alphabeta")
    Entry(name='alphabeta', team='course', file='', class_name='', command=(), bot='alphabeta:evaluation=weighted')
    """
    try:
        build_bot(spec)
    except ValueError as error:
        raise EntryError(str(error)) from None
    return Entry(name=name or spec, team="course", bot=spec)


def load_entries(folder: str | Path) -> list[Entry]:
    """The entries of the submissions ``folder``, in the order of its ``entries.toml``. Raises
    EntryError, naming the file and the entry, for a missing or malformed manifest, a missing
    file, a path that resolves outside ``folder`` (see the module's docstring), an unknown bot or a
    name used twice."""
    root = Path(folder)
    manifest = root / MANIFEST
    if not root.is_dir():
        raise EntryError(f"{root} is not a folder: give the folder of submissions holding {MANIFEST}")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EntryError(f"{root} has no {MANIFEST}: describe each entry there (see docs/tournament.md)") from None
    except tomllib.TOMLDecodeError as error:
        raise EntryError(f"{manifest} is not valid TOML: {error}") from None
    tables = data.get("entry")
    if not isinstance(tables, list) or not tables:
        raise EntryError(f"{manifest} has no [[entry]] tables: give one per submission")
    entries = [_entry(root, manifest, number, table) for number, table in enumerate(tables, start=1)]
    names = [entry.name for entry in entries]
    twice = sorted({name for name in names if names.count(name) > 1})
    if len(entries) < 2 or twice:
        raise EntryError(f"{manifest}: give at least two entries with different names"
                         + (f" ({', '.join(twice)} used twice)" if twice else ""))
    return entries


def _entry(root: Path, manifest: Path, number: int, table: Any) -> Entry:
    """Entry ``number`` of ``manifest`` from its TOML ``table``."""
    where = f"{manifest} entry {number}"
    if not isinstance(table, dict):
        raise EntryError(f"{where} is not a table")
    unknown = set(table) - {"name", "team", "file", "class", "command", "bot"}
    name = table.get("name")
    if unknown or not isinstance(name, str) or not _NAME.fullmatch(name):
        raise EntryError(f"{where}: give name = \"...\" (letters, digits, - _ ., at most 40) and only the keys "
                         f"name, team, file, class, command, bot" + (f"; unknown: {', '.join(sorted(unknown))}" if unknown else ""))
    kinds = [key for key in ("file", "command", "bot") if key in table]
    if len(kinds) != 1:
        raise EntryError(f"{where} ({name}): give exactly one of file (with class), command, bot")
    team = str(table.get("team", ""))
    if "bot" in table:
        return Entry(name=name, team=team or "course", bot=course_entry(str(table["bot"])).bot)
    if "command" in table:
        return Entry(name=name, team=team, command=_command(root, f"{where} ({name})", table["command"]))
    path, class_name = root / str(table["file"]), table.get("class")
    if not path.is_file() or not isinstance(class_name, str) or not class_name.isidentifier():
        raise EntryError(f"{where} ({name}): file {table['file']!r} must exist in {root} and class name its bot class")
    return Entry(name=name, team=team, file=_inside(root, f"{where} ({name}): file", str(table["file"])),
                 class_name=class_name)


def _inside(root: Path, what: str, word: str) -> str:
    """The real path of ``word`` (relative to ``root``, or absolute), symlinks and ``..`` resolved.
    Raises EntryError, naming ``what``, if it lies outside ``root``."""
    real, folder = os.path.realpath(root / word), os.path.realpath(root)
    if os.path.commonpath([real, folder]) != folder:
        raise EntryError(f"{what} {word!r} resolves to {real}, outside the submissions folder {folder}: an entry "
                         "may name only what is inside it (a program on PATH by its bare name, like python3)")
    return real


def _command(root: Path, where: str, command: Any) -> tuple[str, ...]:
    """The command of a manifest entry: a word naming a file of ``root`` becomes its real path; a
    word naming anything outside it (a symlink out, ``..``, an absolute path) is refused."""
    if not isinstance(command, list) or not command or not all(isinstance(word, str) for word in command):
        raise EntryError(f"{where}: command must be a list of words, e.g. [\"./bot\", \"--fast\"]")
    words = []
    for word in command:
        path = root / word
        named = bool(word) and (os.path.lexists(path) or os.path.isabs(word))
        real = _inside(root, f"{where}: command word", word) if named else word
        words.append(real if named and os.path.isfile(real) else word)
    return tuple(words)


def entry_command(entry: Entry, seed: int, python: str = sys.executable) -> list[str]:
    """The command line that serves a file or command ``entry`` over the engine protocol (a file
    entry's bot built by its class with ``seed`` if its class takes one, run by ``python``)."""
    if entry.kind == "command":
        return list(entry.command)
    if entry.kind == "file":
        return [python, "-m", "gamelib.play.serve_file", entry.file, entry.class_name, str(seed)]
    raise EntryError(f"entry {entry.name} is a course bot ({entry.bot}): it plays in-process, not as a command")


def start_entry(entry: Entry, seed: int, scratch: str, limits: EntryLimits = EntryLimits(),
                cpu_seconds: int | None = None, cap: Sequence[str] = ()) -> Bot:
    """``entry`` ready to play, built with ``seed``: a course bot in this process, any other in a
    child process (in bubblewrap's box where it runs, else under the guard only in the folder
    ``scratch``, as a user of its own where we are root (its working folder ``scratch/work``); its
    stderr, and a Python file's stdout, logged to ``stderr.log`` in ``scratch``) with ``limits`` and
    at most ``cpu_seconds`` of CPU time (None: no CPU limit), behind the cgroup's ``cap`` words
    (:func:`gamelib.play.box.guard.process_cap`). Closing the bot ends its process, and under a user
    of its own every process of that user (the bot's ``identity`` names the user). Raises
    EngineError (with its reason) if the child cannot start or does not answer, or, ``not run:
    ...``, if the guard will not run it (see :func:`gamelib.play.box.guard.guard_user`)."""
    if entry.kind == "bot":
        bot = build_bot(entry.bot, seed)
        return bot
    if boundary() == ISOLATED:
        command = limited_command(entry_command(entry, seed), limits.memory_bytes, cpu_seconds,
                                  file_bytes=limits.file_bytes, processes=limits.processes)
        command = boxed_command(command, binds=_entry_binds(entry), env={"PYTHONPATH": _BOX_LIBRARY},
                                scratch_bytes=limits.file_bytes)
        return ExternalBot([*cap, *command], name=entry.name, grace=limits.start_seconds, move_grace=limits.grace,
                           cwd="/", env={}, stderr=Path(scratch) / "stderr.log", own_group=True)
    try:
        user = guard_user()
    except NotRunError as error:
        raise EngineError(f"entry {entry.name}: {error}", "crash") from None
    try:
        return _start_guarded(entry, seed, scratch, limits, cpu_seconds, cap, user)
    except BaseException:
        user.end()
        raise


def _start_guarded(entry: Entry, seed: int, scratch: str, limits: EntryLimits, cpu_seconds: int | None,
                   cap: Sequence[str], user: GuardUser) -> Bot:
    """``entry`` started under the guard only as ``user`` (see :func:`start_entry`)."""
    log = Path(scratch) / "stderr.log"
    if not user.dropped:
        command = limited_command(entry_command(entry, seed), limits.memory_bytes, cpu_seconds,
                                  file_bytes=limits.file_bytes, processes=limits.processes)
        env = minimal_environment(scratch, PYTHONPATH=_PACKAGE_ROOT)
        return ExternalBot([*cap, *command], name=entry.name, grace=limits.start_seconds, move_grace=limits.grace,
                           cwd=scratch, env=env, stderr=log, own_group=True)
    work = Path(scratch) / "work"
    work.mkdir(exist_ok=True)
    user.own(work)
    os.chmod(scratch, 0o711)  # the user passes through to its working folder, and cannot touch its log
    problem = _out_of_reach(entry, scratch)
    if problem is not None:
        raise EngineError(f"entry {entry.name}: not run: uid {user.uid} cannot reach {problem}", "crash")
    paths = [_PACKAGE_ROOT] + ([] if user.python == sys.executable else _site_packages())
    command = limited_command(entry_command(entry, seed, user.python), limits.memory_bytes, cpu_seconds,
                              file_bytes=limits.file_bytes, processes=limits.processes, user=(user.uid, user.gid))
    env = minimal_environment(str(work), PYTHONPATH=os.pathsep.join(paths))
    return _GuardedBot([*cap, *command], user, name=entry.name, grace=limits.start_seconds, move_grace=limits.grace,
                       cwd=str(work), env=env, stderr=log, own_group=True)


def _out_of_reach(entry: Entry, scratch: str) -> str | None:
    """What of ``entry``'s run a user of its own cannot reach (gamelib, the entry's file and its
    folder, its program, its scratch folder), with why, or None."""
    wanted = [(_PACKAGE_ROOT, False), (str(_PACKAGE), False), (os.path.dirname(scratch), False)]
    if entry.kind == "file":
        wanted += [(entry.file, False), (os.path.dirname(entry.file), False)]
    elif os.path.isabs(entry.command[0]):
        wanted.append((entry.command[0], True))
    for path, execute in wanted:
        problem = unreachable(path, execute=execute)
        if problem is not None:
            return f"{path}: {problem}"
    return None


def _site_packages() -> list[str]:
    """This environment's site-packages folders that a user of its own can read: what a file entry
    imports besides gamelib when it runs in another Python of the same version."""
    folders = dict.fromkeys(sysconfig.get_path(name) for name in ("purelib", "platlib"))
    return [folder for folder in folders if os.path.isdir(folder) and unreachable(folder) is None]


class _GuardedBot(ExternalBot):
    """An entry's process run as a user of its own (``user``): closing it, or collecting it, also ends
    every process of that user (:meth:`gamelib.play.box.guard.GuardUser.end`)."""

    def __init__(self, command: Sequence[str], user: GuardUser, **options: Any) -> None:
        self.user = user
        self.identity = user.identity
        super().__init__(command, **options)
        self._user_finalizer = weakref.finalize(self, user.end)

    def close(self, wait: float | None = None) -> None:
        """End the entry's process (:meth:`ExternalBot.close`), then every process of its user."""
        try:
            super().close(wait)
        finally:
            finalizer = getattr(self, "_user_finalizer", None)  # None: closed while it started
            if finalizer is None or finalizer.detach() is not None:
                self.user.end()


def _entry_binds(entry: Entry) -> list[tuple[str, str]]:
    """What an entry's box holds, read-only: the interpreter and its site-packages, this gamelib (at
    :data:`_BOX_LIBRARY`), and the folder of the entry's file or of each file its command names, at
    the same path."""
    files = [entry.file] if entry.kind == "file" else [word for word in entry.command if os.path.isabs(word)
                                                       and os.path.isfile(word)]
    folders = dict.fromkeys(os.path.dirname(os.path.realpath(file)) for file in files)
    return [*interpreter_binds(site_packages=True), (str(_PACKAGE), f"{_BOX_LIBRARY}/gamelib"),
            *((folder, folder) for folder in folders)]


def load_file_bot(path: str, class_name: str, seed: int = 0) -> Bot:
    """An instance of class ``class_name`` defined in the Python file ``path`` (its folder put
    first on ``sys.path``, for its own helper modules), built with ``seed=seed`` if it takes a seed.
    Runs the file's code: call it only in the entry's own child process. Raises EntryError if the
    file has no such class."""
    folder = str(Path(path).resolve().parent)
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("submission", path)
    if spec is None or spec.loader is None:
        raise EntryError(f"cannot load {path} as a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    factory = getattr(module, class_name, None)
    if not callable(factory):
        raise EntryError(f"{path} defines no class {class_name}")
    try:
        bot: Bot = factory(seed=seed)
    except TypeError:
        bot = factory()
    return bot
