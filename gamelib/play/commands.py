"""The game commands of ``python -m gamelib``: ``match``, ``tournament``, ``engine`` and ``play``.

``match A B`` plays a match (:func:`gamelib.play.arena.run_match`) and prints its summary;
``tournament SUBMISSIONS/`` plays a class tournament (:func:`gamelib.play.tournament.run_tournament`);
``engine --bot NAME`` serves a bot over the engine line protocol on stdin/stdout
(:mod:`gamelib.play.engine_protocol`); ``play`` plays one game in the terminal, printing the board, the
scores and each bot's thinking. Each runner returns the exit status; bad input raises ValueError
(the caller prints it as one line and exits 2). Ctrl-C and the end of input stop with a one-line
message and status 130 or 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TextIO, TypeVar

from gamelib.games.adjacency import (
    MAX_ROUNDS,
    MIN_ROUNDS,
    RULES,
    AdjacencyGame,
    square_name,
)
from gamelib.games.game import format_value
from gamelib.games.user_text import decimal_number, whole_number
from gamelib.play.arena import build_bot, play_game, run_match
from gamelib.play.bots.base import BOT_NAMES
from gamelib.play.box.guard import bwrap_problem
from gamelib.play.engine_protocol import MAX_MOVE_SECONDS, serve
from gamelib.play.entries import MANIFEST, EntryLimits, course_entry, load_file_bot
from gamelib.play.match_stats import fault_table, faults_csv, standings, standings_csv, standings_text
from gamelib.play.records import GameRecord, Turn, write_atomically
from gamelib.play.serve_file import own_channel
from gamelib.play.team_folders import draft_manifest, find_entries
from gamelib.play.tournament import (
    GAMES_FILE,
    SCHEDULES,
    TournamentResult,
    run_tournament,
)

__all__ = ["MAX_GAME_SECONDS", "MAX_GAMES", "MAX_MEMORY_MB", "MAX_SEED", "MAX_WORKERS", "MIN_GAME_SECONDS",
           "add_game_commands", "dask_executor", "move_seconds", "option", "run_engine", "run_match_command", "run_play",
           "run_tournament_command"]

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as shells report it)."""

MAX_GAMES = 10_000
"""The most games ``match --games`` plays in one run (lesson 7's tournament plays 40 a pairing)."""

MAX_WORKERS = 32
"""The most worker processes ``match --workers`` starts."""

MAX_SEED = 2**32 - 1
"""Seeds are whole numbers from 0 to 2**32 - 1, as the arena's per-game seeds are."""

Number = TypeVar("Number", int, float)


def option(parse: Callable[[str, Number, Number, str], Number], low: Number, high: Number,
           what: str) -> Callable[[str], Number]:
    """An argparse ``type`` reading ``what`` (a number from ``low`` to ``high``) with ``parse``
    (:func:`~gamelib.games.user_text.whole_number` or ``decimal_number``); its error becomes
    argparse's, which names the option: "argument --depth: '٣' is not a number of plies: give a
    whole number from 0 to 200 in ASCII digits"."""
    def read(text: str) -> Number:
        try:
            return parse(text, low, high, what)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return read


MAX_MEMORY_MB = 16_384
"""The most address space, in MB, ``tournament --memory`` lets an entry use."""

_SEED = option(whole_number, 0, MAX_SEED, "a seed")
_GAMES = option(whole_number, 1, MAX_GAMES, "a number of games")
_WORKERS = option(whole_number, 1, MAX_WORKERS, "a number of processes")

MIN_GAME_SECONDS, MAX_GAME_SECONDS = 1.0, 86_400.0
"""The shortest and longest whole-game clock (``--game-time``), in seconds a side: a second (of
which a 28-round game's reserve, :data:`gamelib.search.time_rules.MOVE_RESERVE` a move, takes
0.28 s) to a day."""

_GAME_TIME = option(decimal_number, MIN_GAME_SECONDS, MAX_GAME_SECONDS, "a number of seconds")


def add_game_commands(commands: Any) -> None:
    """Add ``match``, ``engine`` and ``play`` to ``commands`` (argparse sub-parsers)."""
    bots = f"a bot: {', '.join(BOT_NAMES)}, or cmd:COMMAND for an engine speaking docs/engine_protocol.md"
    match = commands.add_parser("match", help="play a tournament between two bots and print its summary")
    match.add_argument("a", metavar="BOT_A", help=bots)
    match.add_argument("b", metavar="BOT_B", help="the other bot, named the same way")
    match.add_argument("--games", type=_GAMES, default=10, metavar="N",
                       help=f"games to play (default 10, at most {MAX_GAMES})")
    match.add_argument("--out", metavar="FILE.jsonl", help="append each game here; rerun to resume")
    match.add_argument("--workers", type=_WORKERS, default=2,
                       metavar="K", help=f"processes (default 2, at most {MAX_WORKERS})")
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_game_options(match, seconds=1.0, clock=True)
    engine = commands.add_parser("engine", help="serve a bot over the engine line protocol on stdin/stdout")
    served = engine.add_mutually_exclusive_group(required=True)
    served.add_argument("--bot", metavar="BOT", help=f"the bot: {', '.join(n for n in BOT_NAMES if n != 'human')}, "
                        "with options as in match (alphabeta:evaluation=weighted)")
    served.add_argument("--bot-file", metavar="FILE.py", help="a Python file defining a bot class (a submission)")
    engine.add_argument("--bot-class", metavar="NAME", help="with --bot-file: the bot class in it")
    engine.add_argument("--seed", type=_SEED, default=0, metavar="S", help=f"the bot's seed (default 0, at most {MAX_SEED})")
    engine.add_argument("--game-time", type=_GAME_TIME, default=None, metavar="S",
                        help="keep a whole-game clock of S seconds: each go gets at most its share of what is left "
                        f"({MIN_GAME_SECONDS:g} to {MAX_GAME_SECONDS:g})")
    _add_tournament_command(commands)
    play = commands.add_parser("play", help="play one game in the terminal")
    play.add_argument("--x", default="human", metavar="BOT", help=f"X's player, {bots} (default human)")
    play.add_argument("--o", default="alphabeta", metavar="BOT", help="O's player (default alphabeta)")
    _add_game_options(play, seconds=5.0, clock=True)


def _add_tournament_command(commands: Any) -> None:
    """``tournament SUBMISSIONS/``: its options."""
    tournament = commands.add_parser("tournament", help="play a class tournament between a folder of submissions")
    tournament.add_argument("folder", metavar="SUBMISSIONS",
                            help=f"a folder of submissions: with its {MANIFEST}, or a subfolder per team, each with "
                            "one bot file (a class with a choose method)")
    tournament.add_argument("--games", type=_GAMES, default=2, metavar="N",
                            help=f"games a pairing, colours alternating (default 2, at most {MAX_GAMES})")
    tournament.add_argument("--out", metavar="FOLDER",
                            help=f"results: {GAMES_FILE} (rerun to resume), standings.csv, leaderboard.html")
    tournament.add_argument("--init", action="store_true",
                            help=f"write a draft {MANIFEST} from the team folders (a subfolder per team) to review, "
                            "and play nothing")
    tournament.add_argument("--schedule", choices=SCHEDULES, default="round-robin", help="(default round-robin)")
    tournament.add_argument("--swiss-rounds", type=option(whole_number, 1, MAX_GAMES, "a number of rounds"),
                            metavar="K", help="rounds of a Swiss system")
    tournament.add_argument("--bot", action="append", default=[], metavar="SPEC",
                            help="also enter a course bot (alphabeta, hillclimb, ...); repeat for more")
    tournament.add_argument("--workers", type=_WORKERS, default=2, metavar="K",
                            help=f"processes (default 2, at most {MAX_WORKERS})")
    tournament.add_argument("--scheduler", metavar="tcp://HOST:8786",
                            help="play on a dask.distributed cluster instead (see docs/tournament.md)")
    tournament.add_argument("--memory", type=option(whole_number, 64, MAX_MEMORY_MB, "a number of megabytes"),
                            default=1024, metavar="MB",
                            help=f"address space an entry may use (default 1024 MB, 64 to {MAX_MEMORY_MB})")
    tournament.add_argument("--grace", type=option(decimal_number, 0.0, 60.0, "a number of seconds"), default=0.5,
                            metavar="S", help="seconds beyond --time before a move is a timeout (default 0.5, at most 60)")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_game_options(tournament, seconds=1.0)


def _add_game_options(parser: argparse.ArgumentParser, seconds: float, clock: bool = False) -> None:
    """--rounds, --rule, --time and --seed, shared by match and play; with ``clock``, --game-time
    too, and --time then caps each move (default: no cap; see :func:`move_seconds`)."""
    parser.add_argument("--rounds", type=option(whole_number, MIN_ROUNDS, MAX_ROUNDS, "a number of rounds"), default=28,
                        metavar="R", help=f"rounds a game, {MIN_ROUNDS} to {MAX_ROUNDS} (default 28)")
    parser.add_argument("--rule", type=option(whole_number, min(RULES), max(RULES), "a rule"), choices=RULES,
                        default=8, help="neighbours that flip: 8 or 4 (default 8)")
    parser.add_argument("--time", type=option(decimal_number, 0.001, MAX_MOVE_SECONDS, "a number of seconds"),
                        default=None if clock else seconds, metavar="S",
                        help=f"seconds a move (default {seconds:g}, 0.001 to {MAX_MOVE_SECONDS:g})"
                        + ("; with --game-time, the most a move may take (default no cap)" if clock else ""))
    if clock:
        parser.set_defaults(default_time=seconds)
        parser.add_argument("--game-time", type=_GAME_TIME, default=None, metavar="S",
                            help="a whole-game clock: each side has S seconds for all its moves, spent more in the "
                            f"middle game ({MIN_GAME_SECONDS:g} to {MAX_GAME_SECONDS:g}; default: --time a move)")
    parser.add_argument("--seed", type=_SEED, default=0, metavar="S", help=f"the seed (default 0, at most {MAX_SEED})")


def move_seconds(args: argparse.Namespace) -> float:
    """The limit a move of ``match`` or ``play``: --time, or without it the command's default, or
    under --game-time no cap (:data:`MAX_MOVE_SECONDS`).

    >>> move_seconds(argparse.Namespace(time=None, game_time=60.0, default_time=1.0))
    600.0
    """
    if args.time is not None:
        return float(args.time)
    return float(MAX_MOVE_SECONDS if args.game_time is not None else args.default_time)


def run_match_command(args: argparse.Namespace) -> int:
    """``match``: play the games not yet in --out and print the summary table."""
    try:
        summary = run_match(args.a, args.b, args.games, args.rounds, rule=args.rule, seconds=move_seconds(args),
                            out=args.out, workers=args.workers, seed=args.seed, progress=not args.quiet,
                            game_time=args.game_time)
    except KeyboardInterrupt:
        kept = f"the finished games are in {args.out}; run the same command to resume" if args.out else "no --out file"
        return _stopped(f"match stopped: {kept}")
    print(summary.table())
    return 0


def run_tournament_command(args: argparse.Namespace,
                           page: Callable[[TournamentResult, Path], object] | None = None) -> int:
    """``tournament``: play the games not yet in --out, print the standings, write
    ``standings.csv`` and, through ``page`` (the leaderboard writer), ``leaderboard.html``."""
    if args.init:
        return _init_manifest(Path(args.folder))
    if args.out is None:
        raise ValueError("tournament needs --out FOLDER for its results (or --init to draft the entries)")
    entries = find_entries(args.folder) + [course_entry(spec) for spec in args.bot]
    limits = EntryLimits(memory_bytes=args.memory * 2**20, grace=args.grace)
    options = dict(games=args.games, rounds=args.rounds, rule=args.rule, seconds=args.time, out=args.out,
                   schedule=args.schedule, swiss_rounds=args.swiss_rounds, workers=args.workers, seed=args.seed,
                   limits=limits, progress=not args.quiet)
    out = Path(args.out)
    written = [0.0]

    def so_far(records: Sequence[GameRecord]) -> None:  # the standings rewritten as games end, every 5 s at most
        if time.monotonic() - written[0] >= _REWRITE_SECONDS:
            _write_standings(out, TournamentResult(tuple(entries), tuple(records), tuple(standings(entries, records))),
                             page)
            written[0] = time.monotonic()

    try:
        with ExitStack() as stack:
            executor = None if args.scheduler is None else stack.enter_context(dask_executor(args.scheduler))
            result = run_tournament(entries, executor=executor, on_game=so_far, **options)
    except KeyboardInterrupt:
        return _stopped(f"tournament stopped: the finished games are in {out / GAMES_FILE}, the standings so far in "
                        f"{out / 'standings.csv'}; run the same command to resume")
    _write_standings(out, result, page)
    print(standings_text(result.table))
    if any(entry.kind != "bot" for entry in entries):
        problem = bwrap_problem()
        print("submissions ran isolated (bubblewrap)" if problem is None else f"submissions ran under the guard only "
              f"({problem})")
    print(f"written: {out / GAMES_FILE}, {out / 'standings.csv'}, {out / 'faults.csv'}"
          + (f", {out / 'leaderboard.html'}" if page else ""))
    return 0


_REWRITE_SECONDS = 5.0
"""While a tournament plays, its standings are rewritten at most this often (seconds), after a game ends."""


def _write_standings(out: Path, result: TournamentResult,
                     page: Callable[[TournamentResult, Path], object] | None) -> None:
    """``standings.csv``, ``faults.csv`` (one row an entry and kind of fault) and the leaderboard page of
    ``result``, each replaced whole (:func:`~gamelib.play.records.write_atomically`)."""
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "standings.csv", standings_csv(result.table))
    write_atomically(out / "faults.csv", faults_csv(fault_table(result.records)))
    if page is not None:
        page(result, out / "leaderboard.html")


def _init_manifest(folder: Path) -> int:
    """``tournament --init``: write the draft manifest of ``folder``'s team folders, never over one."""
    manifest = folder / MANIFEST
    if manifest.exists():
        raise ValueError(f"{manifest} exists: --init writes a draft only where there is none (review or remove it)")
    text = draft_manifest(folder)
    manifest.write_text(text, encoding="utf-8")
    unclear = text.count("# CHECK")
    print(f"wrote {manifest}: {text.count('[[entry]]')} entries" + (f", {unclear} marked CHECK to settle" if unclear
                                                                      else "") + "; review it, then run the tournament")
    return 0


@contextmanager
def dask_executor(address: str) -> Iterator[Executor]:
    """An Executor on the dask.distributed scheduler at ``address``; ValueError if it cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout=10)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        raise ValueError(f"cannot reach the dask scheduler at {address}: {error}") from None
    with client:
        yield client.get_executor()  # type: ignore[no-untyped-call]


def run_engine(args: argparse.Namespace) -> int:
    """``engine``: answer protocol commands on stdin until ``quit`` or the end of input."""
    named = args.bot is not None and args.bot != "human" and args.bot_class is None
    if not named and (args.bot_file is None or args.bot_class is None):
        raise ValueError("engine: give --bot NAME (not human), or --bot-file FILE.py with --bot-class NAME")
    answers: TextIO = sys.stdout if args.bot else own_channel()
    bot = build_bot(args.bot, args.seed) if args.bot else load_file_bot(args.bot_file, args.bot_class, args.seed)
    try:
        serve(bot, sys.stdin, answers, game_time=args.game_time)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:  # the client went away: nobody is left to answer
        return 0
    return 0


def run_play(args: argparse.Namespace) -> int:
    """``play``: one game in the terminal, X's bot built with --seed and O's with --seed + 1."""
    game = AdjacencyGame(rounds=args.rounds, rule=args.rule)
    names = {"X": args.x, "O": args.o}
    x_bot, o_bot = build_bot(args.x, args.seed), build_bot(args.o, args.seed + 1)
    seconds = move_seconds(args)
    clock = f"{args.game_time:g} s a side for the game" if args.game_time is not None else f"{seconds:g} s a move"
    print(f"X: {args.x}, O: {args.o}; {args.rounds} rounds, rule {args.rule}, {clock}")
    print(game.render_text(game.root))
    try:
        record = play_game(game, x_bot, o_bot, seconds, args.seed, on_move=lambda turn: _show(game, names, turn),
                           game_time=args.game_time)
    except KeyboardInterrupt:
        return _stopped("game stopped (Ctrl-C)")
    except EOFError:
        print()  # ends the prompt's line
        print("game stopped: the input ended", file=sys.stderr)
        return 1
    finally:
        for bot in (x_bot, o_bot):
            getattr(bot, "close", lambda: None)()
    x, o = record.counts
    print(f"{'draw' if record.result == 'draw' else record.result + ' (' + names[record.result] + ') wins'}, {x} to {o}")
    return 0


def _show(game: AdjacencyGame, names: dict[str, str], turn: Turn) -> None:
    """Print a move, what the bot thought of it, and the board after it."""
    print()
    print(f"{turn.side.value} ({names[turn.side.value]}) plays {square_name(turn.decision.move)}: {thinking(turn)}")
    print(game.render_text(turn.after))
    rounds_left = (turn.after.plies_left + 1) // 2
    if not game.is_terminal(turn.after):
        print(f"{rounds_left} round{'s' * (rounds_left != 1)} left; "
              f"{turn.after.to_move.value} ({names[turn.after.to_move.value]}) to move")


def thinking(turn: Turn) -> str:
    """What a bot said about its move: depth, value (for X), nodes, the arena's seconds, note.

    >>> from gamelib.games.adjacency import Mark
    >>> from gamelib.play.bots.base import Decision
    >>> decision = Decision(18, value=3, depth=5, nodes=900, note="iterative")
    >>> thinking(Turn(0, Mark.X, decision, 0.25, AdjacencyGame().root))
    'depth 5, value +3 for X, 900 nodes, 0.25 s, iterative'
    """
    decision = turn.decision
    parts = [] if decision.depth is None else [f"depth {decision.depth}"]
    if decision.value is not None:
        sign = "+" if decision.value > 0 else ""
        parts.append(f"value {sign}{format_value(decision.value)} for X")
    if decision.nodes:
        parts.append(f"{decision.nodes} nodes")
    parts.append(f"{turn.seconds:.2f} s")
    if decision.note:
        parts.append(decision.note)
    return ", ".join(parts)


def _stopped(message: str) -> int:
    """Print ``message`` as the one line after Ctrl-C and return the status for it."""
    print()  # ends the line the terminal's ^C is on
    print(message, file=sys.stderr)
    return INTERRUPTED
