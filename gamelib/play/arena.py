"""The arena: bots play Adjacency games (seed 002) against each other, in parallel, resumably, from balanced openings.

:func:`play_game` plays one game between two bots and returns its :class:`~gamelib.play.records.GameRecord`.
:func:`run_match` plays a match of N games between bots A and B: colours alternate (A is X in the
even-numbered games), each game has its own seed derived from the match seed and its index, games
run in parallel through any :class:`concurrent.futures.Executor` (a process pool by default), and
the parent process appends each game to a JSON-lines file as soon as it ends. Running the same
match again skips the games already in the file, so a killed tournament resumes where it stopped.
The summary (wins, draws and losses, scores with a 95% interval, move times) is in
:mod:`gamelib.play.match_stats`.

A bot is named by a spec: a name of :data:`gamelib.play.bots.BOT_NAMES` (``random``, ``alphabeta``, ...)
or ``cmd:`` and a command line of a program speaking the engine line protocol
(``cmd:python -m gamelib engine --bot random``; see ``docs/engine_protocol.md``).

>>> from gamelib.play.bots.base import RandomBot
>>> record = play_game(AdjacencyGame(rounds=4), RandomBot(seed=1), RandomBot(seed=2), seconds=1.0, seed=5)
>>> len(record.moves), sum(record.counts), record.result in ("X", "O", "draw")
(8, 16, True)

Varied, balanced opening positions for matches between bots: a seeded set, the same every run.

Two deterministic bots that play each other from the initial position play the same game again and
again: a match of 200 games would hold two games, each counted a hundred times. Engine testers
(fishtest's and OpenBench's opening books, e.g. "UHO" and "8moves") start each game pair from a
different opening position instead, each played once with each bot as the first player, so the
games differ and an unbalanced opening favours both bots once. :func:`balanced_openings` makes
such a book for the Adjacency game: ``plies`` random moves from the start (seeded), kept if a short
search finds the position about as balanced as the start itself (:func:`balance`) and it is not a
position kept already (by its Zobrist key, so transpositions count once).

>>> openings = balanced_openings(3, seed=1, depths=(3, 4))
>>> openings == balanced_openings(3, seed=1, depths=(3, 4)), len(openings), [len(moves) for moves in openings]
(True, 3, [6, 6, 6])
"""

from __future__ import annotations

import json
import random
import shlex
import signal
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Mark, square_name
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.games.game import IllegalMoveError, Value
from gamelib.play.bots.base import Bot, Decision, make_bot
from gamelib.play.box.limits import die_with_parent
from gamelib.play.box.stepped import in_browser
from gamelib.play.match_stats import MatchSummary, summarise
from gamelib.play.records import REASONS, SETTINGS, START_SETTINGS, GameRecord, Turn, append_record, resume_records
from gamelib.search.negamax import negascout
from gamelib.search.time_rules import move_budget, now
from gamelib.search.tracing import to_jsonable

__all__ = ["BALANCE_DEPTHS", "GameTask", "MAX_IMBALANCE", "MoveTimeout", "OPENING_PLIES", "balance",
           "balanced_openings", "build_bot", "completed", "fault_reason", "game_seed", "match_tasks",
           "play_game", "play_task", "pool_executor", "random_line", "run_match"]


OPENING_PLIES = 6
"""Random moves an opening makes: three for each side, so X is to move when the bots take over."""

BALANCE_DEPTHS = (5, 6)
"""The two depths whose values :func:`balance` averages. Seed 002's game has a strong odd-even
effect (from the start, depth 5 is worth +5 for X and depth 6 -2: the side that moves last before
the horizon gains), so one depth says more about its parity than about the position; an odd and
an even depth together cancel it. Both take about 0.04 s after six plies."""

MAX_IMBALANCE = 2.0
"""How far (in marks) an opening's :func:`balance` may lie from the initial position's for the
opening to count as balanced."""


def random_line(game: AdjacencyGame, rng: random.Random, plies: int) -> tuple[str, ...]:
    """``plies`` moves from ``game``'s start, each chosen uniformly among the legal moves with
    ``rng``, as square names. Raises ValueError if ``plies`` is negative or longer than the game."""
    if not 0 <= plies <= game.initial_state().plies_left:
        raise ValueError(f"an opening of {plies} plies: give 0 to {game.initial_state().plies_left}")
    state, line = game.initial_state(), list[str]()
    for _ in range(plies):
        move = rng.choice(game.legal_moves(state))
        line.append(square_name(move))
        state = game.result(state, move)
    return tuple(line)


def balance(game: AdjacencyGame, state: AdjacencyState, depths: Sequence[int] = BALANCE_DEPTHS) -> float:
    """The mean of ``state``'s minimax values at each of ``depths`` plies, in marks, from X's
    (MAX's) point of view, by NegaScout with the material evaluation: positive when X is ahead.

    >>> game = AdjacencyGame()
    >>> balance(game, game.initial_state())  # (+5 at depth 5, -2 at depth 6) / 2
    1.5
    """
    searched = LookaheadGame.like(game)
    return sum(negascout(searched, state, depth).value for depth in depths) / len(depths)


def balanced_openings(count: int, seed: int = 0, *, plies: int = OPENING_PLIES, rule: int = 8, rounds: int = 28,
                      depths: Sequence[int] = BALANCE_DEPTHS,
                      max_imbalance: float = MAX_IMBALANCE) -> list[tuple[str, ...]]:
    """``count`` distinct openings of ``plies`` random moves each (square names), the same for the
    same arguments on every run and machine: lines drawn by :func:`random_line` with a
    ``random.Random`` seeded by the text "openings/SEED", kept when their :func:`balance` at
    ``depths`` lies within ``max_imbalance`` marks of the initial position's and their position
    was not kept before. Raises ValueError if ``count`` < 1, or if fewer than ``count`` openings
    pass in 100 * ``count`` draws (loosen ``max_imbalance``).
    """
    if count < 1:
        raise ValueError(f"{count} openings: give at least 1")
    game = AdjacencyGame(rounds=rounds, rule=rule)
    rng, reference = random.Random(f"openings/{seed}"), balance(game, game.initial_state(), depths)
    kept: list[tuple[str, ...]] = []
    seen: set[int] = set()
    for _ in range(100 * count):
        line = random_line(game, rng, plies)
        state = game.play(game.initial_state(), line)
        if state.key in seen or game.is_terminal(state):
            continue
        seen.add(state.key)
        if abs(balance(game, state, depths) - reference) <= max_imbalance:
            kept.append(line)
            if len(kept) == count:
                return kept
    raise ValueError(f"only {len(kept)} of {count} openings of {plies} plies lie within {max_imbalance} marks of "
                     "the start's balance: allow a larger imbalance or fewer plies")


def play_game(game: AdjacencyGame, x_bot: Bot, o_bot: Bot, seconds: float, seed: int, *,
              index: int = 0, on_move: Callable[[Turn], None] | None = None,
              grace: float | None = None, opening: Sequence[str] = (),
              game_time: float | None = None) -> GameRecord:
    """Play ``game`` from its start, ``x_bot`` as X and ``o_bot`` as O, giving each move a limit of
    ``seconds`` of wall time (the arena measures, it does not interrupt). ``seed`` and ``index`` are
    only recorded; build seeded bots with :func:`build_bot`. ``on_move`` is called after each move.
    ``opening`` are square names played from the start before the bots take over (recorded as the
    record's ``opening``; raises IllegalMoveError or NotationError for a bad one).

    With ``game_time``, each side has that many seconds for the whole game, and each move's limit is
    its share of what is left on its clock (:func:`gamelib.search.time_rules.move_budget`: more in
    the middle game), never more than ``seconds``; the record keeps each move's limit (``limits``).

    Without ``grace``, raises IllegalMoveError, naming the bot, if a bot plays an illegal move, and
    a bot's own errors propagate. With ``grace`` (seconds; a tournament's rule), a fault ends the
    game instead: the side at fault loses, and the record says why (:func:`fault_reason`): a move
    that took longer than its limit + ``grace``, or a clock overrun by more than ``grace``
    (``timeout``; a bot whose ``budgeted`` attribute is true, a file entry held to a step budget in
    a browser, :mod:`gamelib.play.kernel_entry`, is judged by its steps, not by the move's wall
    time), an illegal move, or an error of the bot (an external engine's EngineError carries its own
    reason).

    >>> import time
    >>> from gamelib.play.bots.base import RandomBot
    >>> class Sleepy(RandomBot):
    ...     def choose(self, game, state, seconds):
    ...         time.sleep(0.03)
    ...         return super().choose(game, state, seconds)
    >>> record = play_game(AdjacencyGame(rounds=2), RandomBot(), Sleepy(), 0.01, 0, grace=0.01)
    >>> record.result, record.reason, record.forfeit, len(record.moves)
    ('X', 'timeout', 'O', 1)
    """
    state, turns = game.play(game.initial_state(), opening), list[Turn]()
    clock = _Clocks(game, state, seconds, game_time)
    while not game.is_terminal(state):
        side = state.to_move
        bot = x_bot if side is Mark.X else o_bot
        limit = clock.limit(state)
        start = now()
        try:
            decision = bot.choose(game, state, limit)
            elapsed = now() - start
            clock.spend(side, elapsed, grace, bot.name)
            if grace is not None and elapsed > limit + grace and not getattr(bot, "budgeted", False):
                raise MoveTimeout(f"bot {bot.name} took {elapsed:.2f} s, more than {limit:g} s + {grace:g} s")
            after = _apply(game, state, decision.move, bot)
        except Exception as error:  # noqa: BLE001 - a tournament records any fault of a bot
            if grace is None:
                raise
            return replace(clock.stamp(_record(game, state, turns, x_bot, o_bot, seconds, seed, index), opening),
                           result=side.other.value, reason=fault_reason(error), forfeit=side.value,
                           detail=" ".join(str(error).split())[:300])
        turns.append(Turn(len(turns), side, decision, elapsed, after))
        state = after
        if on_move is not None:
            on_move(turns[-1])
    return clock.stamp(_record(game, state, turns, x_bot, o_bot, seconds, seed, index), opening)


class _Clocks:
    """Each side's time in one game: a limit of ``seconds`` a move, or with ``game_time`` a
    whole-game clock of that many seconds a side, each move's limit its budget
    (:func:`~gamelib.search.time_rules.move_budget`) capped at ``seconds``. ``start`` is the
    position the bots take over (after the opening): the plies the game has in all are counted
    from the initial position."""

    def __init__(self, game: AdjacencyGame, start: AdjacencyState, seconds: float, game_time: float | None) -> None:
        if game_time is not None and not game_time > 0:
            raise ValueError(f"the game time is {game_time} seconds: give a positive number")
        self.seconds, self.game_time = seconds, game_time
        self.total_plies = game.initial_state().plies_left
        self.left = {Mark.X: game_time or 0.0, Mark.O: game_time or 0.0}
        self.limits: list[float] = []

    def limit(self, state: AdjacencyState) -> float:
        """The time limit of the move in ``state``, in seconds."""
        if self.game_time is None:
            return self.seconds
        budget = move_budget(self.left[state.to_move], state.plies_left, self.total_plies)
        self.limits.append(min(self.seconds, budget))
        return self.limits[-1]

    def spend(self, side: Mark, elapsed: float, grace: float | None, name: str) -> None:
        """Take ``elapsed`` seconds off ``side``'s clock; with ``grace``, raise MoveTimeout once the
        clock is overrun by more than the grace."""
        self.left[side] -= elapsed
        if self.game_time is not None and grace is not None and self.left[side] < -grace:
            raise MoveTimeout(f"bot {name} ran out of its {self.game_time:g} s for the game "
                              f"({-self.left[side]:.2f} s over)")

    def stamp(self, record: GameRecord, opening: Sequence[str]) -> GameRecord:
        """``record`` with the opening, the game time and the moves' limits."""
        return replace(record, opening=tuple(opening), game_time=self.game_time, limits=tuple(self.limits))


class MoveTimeout(Exception):
    """A bot that took longer than the time limit plus the grace to answer."""


def fault_reason(error: BaseException) -> str:
    """The reason (:data:`gamelib.play.records.REASONS`) a bot that raised ``error`` loses its game:
    an EngineError's own reason, ``timeout``, ``illegal``, ``memory``, or else ``crash``.

    >>> fault_reason(IllegalMoveError("a1 is occupied")), fault_reason(ZeroDivisionError())
    ('illegal', 'crash')
    """
    reason = getattr(error, "reason", None)
    if isinstance(reason, str) and reason in REASONS:
        return reason
    if isinstance(error, MoveTimeout):
        return "timeout"
    if isinstance(error, IllegalMoveError):
        return "illegal"
    return "memory" if isinstance(error, MemoryError) else "crash"


def _apply(game: AdjacencyGame, state: AdjacencyState, move: Any, bot: Bot) -> AdjacencyState:
    """The state after ``bot``'s ``move``; re-raises an illegal move with the bot's name."""
    try:
        return game.result(state, move)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"bot {bot.name} played an illegal move as {state.to_move.value}: {error}") from None


def _record(game: AdjacencyGame, final: AdjacencyState, turns: Sequence[Turn], x_bot: Bot, o_bot: Bot,
            seconds: float, seed: int, index: int) -> GameRecord:
    """The record of a finished game ending in ``final`` after ``turns``."""
    winner = game.winner(final)
    return GameRecord(
        index=index, seed=seed, x=x_bot.name, o=o_bot.name, rule=game.rule, rounds=game.rounds,
        time_limit=seconds, moves=tuple(square_name(turn.decision.move) for turn in turns),
        counts=game.counts(final), result="draw" if winner is None else winner.value,
        seconds=tuple(turn.seconds for turn in turns), depths=tuple(turn.decision.depth for turn in turns),
        values=tuple(turn.decision.value for turn in turns), nodes=tuple(turn.decision.nodes for turn in turns))


def build_bot(spec: str, seed: int = 0) -> Bot:
    """The bot named by ``spec``: a name of :data:`gamelib.play.bots.BOT_NAMES`, optionally with options
    after a colon (``alphabeta:evaluation=weighted,search=mtdf``; numbers become ints or floats),
    built with ``seed`` if it takes one, or ``cmd:COMMAND LINE`` for an external engine
    (:class:`ExternalBot`, which is not seeded). Raises ValueError for an unknown name, a malformed
    option or an empty command.

    >>> build_bot("random", seed=3)
    RandomBot(seed=3)
    >>> build_bot("alphabeta:evaluation=weighted").evaluation
    'weighted'
    """
    if spec.startswith("cmd:"):
        from gamelib.play.engine_protocol import ExternalBot

        return ExternalBot(shlex.split(spec[len("cmd:"):]))
    name, _, text = spec.partition(":")
    options = _bot_options(spec, text)
    try:
        return make_bot(name, seed=seed, **options)
    except TypeError as error:
        if "seed" not in str(error):
            raise ValueError(f"bot spec {spec!r}: {error}") from None
        return make_bot(name, **options)  # a bot without randomness takes no seed


def _bot_options(spec: str, text: str) -> dict[str, Any]:
    """``key=value,key=value`` as keyword arguments; ValueError naming ``spec`` if malformed."""
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, equals, value = item.partition("=")
        if not equals or not key.isidentifier():
            raise ValueError(f"bot spec {spec!r}: write options as name=value, separated by commas")
        options[key] = int(value) if value.lstrip("-").isdigit() else _number_or_text(value)
    return options


def _number_or_text(value: str) -> float | str:
    try:
        return float(value)
    except ValueError:
        return value


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game ``index`` in a match seeded ``match_seed``: 32 bits from
    ``random.Random`` seeded with the text "match_seed/index" (stable across runs and machines).

    >>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
    True
    """
    return random.Random(f"{match_seed}/{index}").getrandbits(32)


@dataclass(frozen=True)
class GameTask:
    """One game of a match, picklable, for a worker process: its ``index`` and ``seed``, the bot
    specs playing ``x`` and ``o``, the ``rule``, ``rounds`` and ``time_limit`` (seconds a move),
    the ``opening`` moves it starts from (square names) and the whole-game clock ``game_time``
    (seconds a side, None for a limit a move; see :func:`play_game`)."""

    index: int
    seed: int
    x: str
    o: str
    rule: int
    rounds: int
    time_limit: float
    opening: tuple[str, ...] = ()
    game_time: float | None = None

    def settings(self) -> dict[str, Any]:
        """The settings a record of this game must have (see :meth:`GameRecord.settings`)."""
        return {name: getattr(self, name) for name in SETTINGS + START_SETTINGS}


def match_tasks(a: str, b: str, games: int, rounds: int, rule: int, seconds: float, seed: int, *,
                openings: Sequence[tuple[str, ...]] = (), game_time: float | None = None) -> list[GameTask]:
    """The ``games`` games of a match between bot specs ``a`` and ``b``: A is X in game i when i
    is even, and game i is seeded :func:`game_seed` (seed, i). With ``openings``, games 2k and
    2k + 1 both start from opening k (cycling through them), so each opening is played once with
    each bot as X: a game pair. ``game_time`` is each game's whole-game clock (see :func:`play_game`).

    >>> [(task.x, task.o) for task in match_tasks("random", "alphabeta", 3, 28, 8, 1.0, 0)]
    [('random', 'alphabeta'), ('alphabeta', 'random'), ('random', 'alphabeta')]
    >>> [task.opening for task in match_tasks("a", "b", 3, 28, 8, 1.0, 0, openings=[("c3",), ("f6",)])]
    [('c3',), ('c3',), ('f6',)]
    """
    return [GameTask(index=i, seed=game_seed(seed, i), x=a if i % 2 == 0 else b, o=b if i % 2 == 0 else a,
                     rule=rule, rounds=rounds, time_limit=seconds,
                     opening=tuple(openings[i // 2 % len(openings)]) if openings else (), game_time=game_time)
            for i in range(games)]


def play_task(task: GameTask) -> GameRecord:
    """Play one game of a match (in a worker process): build both bots with the task's seed (O's
    with seed + 1, so self-play is not a mirror), play, and close any external engine."""
    game = AdjacencyGame(rounds=task.rounds, rule=task.rule)
    with ExitStack() as stack:
        x_bot = _closing_bot(stack, build_bot(task.x, task.seed))
        o_bot = _closing_bot(stack, build_bot(task.o, task.seed + 1))
        record = play_game(game, x_bot, o_bot, task.time_limit, task.seed, index=task.index, opening=task.opening,
                           game_time=task.game_time)
    return replace(record, x=task.x, o=task.o)


def _closing_bot(stack: ExitStack, bot: Bot) -> Bot:
    """``bot``, closed when ``stack`` closes if it has a ``close`` method (external engines do)."""
    close = getattr(bot, "close", None)
    if callable(close):
        stack.callback(close)
    return bot


def progress_bar(**options: Any) -> Any:
    """A tqdm progress bar with ``options`` (``tqdm.auto``: a widget in a notebook, text on stderr
    elsewhere). tqdm is imported when a bar is made, not with this module: a tournament entry's
    process imports this module too, and tqdm's import is 60 ms of its start-up. In a browser the bar
    is tqdm's notebook widget (``tqdm.auto`` does not recognise the Pyodide kernel as a notebook, and
    its text bar would go to stderr, shown as an error), with no monitor thread (a browser has no
    threads to rely on)."""
    if in_browser():
        from tqdm.notebook import tqdm as notebook_bar  # type: ignore[import-untyped]

        notebook_bar.monitor_interval = 0  # else tqdm tries a thread, fails, and warns on stderr
        return notebook_bar(**options)
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    return tqdm(**options)


def run_match(a: str, b: str, games: int, rounds: int = 28, *, rule: int = 8, seconds: float = 1.0,
              out: str | Path | None = None, workers: int = 2, seed: int = 0,
              executor: Executor | None = None, progress: bool = True,
              game_time: float | None = None) -> MatchSummary:
    """Play ``games`` games between bot specs ``a`` and ``b`` (see :func:`match_tasks`) and return
    the summary of every game of the match, including those already in ``out``.

    Each game runs as :func:`play_task` on ``executor`` (any concurrent.futures Executor; the tests
    play the same games on threads, inline and on processes; a dask executor is tested through
    :func:`gamelib.play.tournament.run_tournament`), or on a process pool of ``workers`` processes. Finished games
    are appended to the JSON-lines file ``out`` as they complete; games already there are skipped
    (resume). ``progress`` shows a tqdm bar on stderr. ``game_time`` gives each side a whole-game
    clock of that many seconds, ``seconds`` then capping each move (see :func:`play_game`).
    Raises ValueError for bad settings,
    MatchFileError if ``out`` holds games with other settings; a game's error propagates after the
    remaining games are cancelled.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     summary = run_match("random", "random", 2, rounds=2, executor=pool, progress=False)
    >>> summary.games
    2
    """
    _check_settings(a, b, games, rounds, rule, seconds, workers)
    if game_time is not None and not game_time > 0:
        raise ValueError(f"the game time is {game_time} seconds: give a positive number")
    tasks = match_tasks(a, b, games, rounds, rule, seconds, seed, game_time=game_time)
    path = None if out is None else Path(out)
    records = [] if path is None else resume_records(path, [task.settings() for task in tasks])
    done = {record.index for record in records}
    pending = [task for task in tasks if task.index not in done]
    with pool_executor(executor, workers) as pool, progress_bar(total=games, initial=len(done), disable=not progress,
                                                   desc=f"{a} vs {b}", unit="game") as bar:
        for record in completed(pool, play_task, pending):
            if path is not None:
                append_record(path, record)
            records.append(record)
            bar.update()
    return summarise(sorted(records, key=lambda record: record.index))


def _check_settings(a: str, b: str, games: int, rounds: int, rule: int, seconds: float, workers: int) -> None:
    """Raise ValueError, saying which, for a setting out of range or a human in a match."""
    AdjacencyGame(rounds=rounds, rule=rule)  # checks rounds and rule
    if games < 1 or workers < 1:
        raise ValueError(f"games is {games} and workers {workers}: give at least 1 of each")
    if not seconds > 0:
        raise ValueError(f"the time limit is {seconds} seconds: give a positive number")
    if "human" in (a, b):
        raise ValueError("a human cannot play in a match: use `python -m gamelib play`")


@contextmanager
def pool_executor(given: Executor | None, workers: int) -> Iterator[Executor]:
    """``given`` as it is (the caller shuts it down), or a process pool of ``workers`` whose
    workers ignore Ctrl-C (the parent handles it and stops them); in a browser, where no process
    can start, :class:`InKernel`."""
    if given is not None:
        yield given
        return
    if in_browser():
        yield InKernel()
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_started)
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


class InKernel(Executor):
    """The executor of a Python that cannot start processes (Pyodide in a browser): each game is
    played here, in this process, one after another; :func:`completed` plays each when its record
    is asked for, so a match's file grows game by game as with a pool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # the caller's future.result() raises it, as a pool's would
            future.set_exception(error)
        return future


def _worker_started() -> None:
    """A pool worker ignores Ctrl-C (the parent handles it and stops the workers) and dies with the
    parent: a runner killed with ``kill -9`` leaves no worker (nor, through their own
    ``die_with_parent``, the entries it started)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now: cancel its queued games and end the running ones."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)  # forgets its processes: take them first
    for process in processes:
        process.terminate()
        process.join()


def completed(pool: Executor, play: Callable[[Any], GameRecord],
              tasks: Iterable[Any]) -> Generator[GameRecord, None, None]:
    """The records of ``play(task)`` for each of ``tasks``, run on ``pool``, as they complete. On an
    error (or Ctrl-C), or when the caller closes the generator, the games not yet started are
    cancelled (an error then propagates). On :class:`InKernel` each game is played when the one
    before it has been taken."""
    if isinstance(pool, InKernel):
        yield from (play(task) for task in tasks)
        return
    futures: list[Future[GameRecord]] = [pool.submit(play, task) for task in tasks]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
