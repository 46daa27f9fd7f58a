"""The alpha-beta bot of seed 002, on the course's search core, with a clock it always beats; its solved endgames.

Seed 002's ``BotAlphaBetaPrune`` searches a fixed depth (8 at first). The seed's prose (2.2.1;
2.3.3's text repeats the fallback to a smaller depth) says that when 4.5 of its 5 seconds pass
without the search finishing, the bot falls back to a depth-4 search and the next round searches one
ply shallower. The code the seed prints (2.3.3) shows something else: once the thread is
interrupted, its ``minimax`` returns whatever it has, so the move comes from a half-searched tree
(the bot's ``fallback`` method is not printed). This bot instead deepens one ply at a time
(:func:`gamelib.search.deepening.iterative_deepening`) under a hard deadline, with the engines' time
rules (:mod:`gamelib.search.time_rules`): it answers with the deepest search that finished, or with a
move the unfinished depth proved better than that search's (once the previous best, searched first,
has its new value); it does not start a depth predicted not to finish; and it keeps a tenth of its
time for a fail low, or for the depth under way once its first move is back. Each depth starts with
the table's best moves from the one before; the table is kept from move to move (and cleared when
the game's rules change). The Decision's note says why the search stopped.

Searches run on :class:`~gamelib.games.adjacency.lookahead.LookaheadGame` for the Adjacency game, so
depth-1 nodes get their value without generating children and nodes of depth 2 to 4 skip moves
whose bound cannot matter; a fixed-depth search still returns the exact depth-d minimax value.
Untraced, that search runs the bitboard loop of :mod:`gamelib.games.adjacency.native` (the search
core's NegaScout with a table, node for node, 1.6-1.9x faster: ``benchmarks/bot_search_speed.py``).
Moves are tried table move first, then highest gain first, then in square order, and the first of
several equal moves wins, as in the seed's bot (its ``alpha < maxval`` keeps the first best): there
is no random tie-break, and the seed only names the bot.

>>> from gamelib.games.adjacency import AdjacencyGame, square_name
>>> from gamelib.search.negamax import alphabeta
>>> game = AdjacencyGame(rounds=4)
>>> decision = AlphaBetaBot(depth=3).choose(game, game.root, 1.0)
>>> square_name(decision.move), decision.value, decision.depth
('g6', 5, 3)
>>> alphabeta(game, game.root, 3).value  # plain alpha-beta, every move generated
5

The endgame: when the bot searches to the end of the game, it knows the result exactly.

Near the end of an Adjacency game few plies are left, and iterative deepening reaches them all: a
search that met no depth limit anywhere (``SearchResult.complete``) has the exact minimax value of
the game, and with the material evaluation that value is the final margin, X's marks minus O's
after best play by both sides. The alpha-beta bot then stops deepening and says so in its Decision
("solved: X wins by 4 marks"), as chess engines announce a forced mate or a tablebase result.

How many plies left are solved within a move's time (``benchmarks/endgame_horizon.py``, the bot
with an empty table on positions of games between alpha-beta bots, this 2-core machine shared
with other work): 8 at 0.2 s, 10 at 1 s, 12 at 5 s (:data:`SOLVED_PLIES`). Two rules of the clock
(:meth:`gamelib.search.time_rules.MoveClock.skip`) make that so: near the end the next depth's
predicted time shrinks with the moves left, and the depth that reaches the end is always started.

>>> solved_text(4), solved_text(0), solved_text(-2)
('solved: X wins by 4 marks', 'solved: a draw', 'solved: O wins by 2 marks')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Mark, Square
from gamelib.games.adjacency.evaluation import DEFAULT_WEIGHTS, Weights, value_bound, weighted
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.games.game import Game, Value
from gamelib.play.bots.base import Decision, check_request, move_text, pause_collector, resume_collector
from gamelib.search.deepening import Deepening, iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, SearchResult, alphabeta_with_memory, negascout
from gamelib.search.time_rules import ENGINE_RULES, PLAIN_RULES, TimeRules, now
from gamelib.search.tracing import Bound
from gamelib.search.ttable import TranspositionTable

__all__ = ["AlphaBetaBot", "CLOCKS", "EVALUATIONS", "MARGIN_SECONDS", "MARGIN_SHARE", "SEARCHES",
           "SOLVED_PLIES", "WeightedGame", "searched_game", "solved_text"]


SOLVED_PLIES = {0.2: 8, 1.0: 10, 5.0: 12}
"""Seconds a move -> the most plies left at which the alpha-beta bot (NegaScout, material, an
empty table) solved every one of the six positions of ``benchmarks/endgame_horizon.py``; one ply
more it solved 5, 4 and 1 of the six (at 0.2, 1 and 5 s), two plies more none. Solving took at
most 0.095 s with 8 plies left, 0.27 s with 10 and 4.6 s with 12: each ply more costs 2.5 to 4
times as much. Measured before the speed work of issue 15, on a loaded machine."""


def solved_text(value: Value) -> str:
    """The exact result of a solved position whose value is ``value`` (X's marks minus O's at the
    end of best play, MAX's view), in words: "solved: X wins by N marks", "O wins by N marks" or
    "a draw" (seed 002: equal marks draw)."""
    if value == 0:
        return "solved: a draw"
    margin = abs(value)
    return f"solved: {'X' if value > 0 else 'O'} wins by {margin:g} mark{'s' * (margin != 1)}"


SEARCHES: dict[str, Callable[..., SearchResult]] = {
    "negascout": negascout,
    "pvs": partial(negascout, pvs=True),
    "mtdf": mtdf,
    "alphabeta": alphabeta_with_memory,
}
"""The searches the bot can deepen, by name: NegaScout, PVS, MTD(f) and fail-soft alpha-beta with
the table. NegaScout is the default: ``benchmarks/adjacency_search.py`` measured it fastest to depth
8 from the opening (2.7 s of CPU against 2.8 for PVS and alpha-beta and 3.7 for MTD(f)) and within
10% of the others to depth 9 in its midgame position."""

EVALUATIONS = ("material", "weighted")
"""``material`` is seed 002's objective (marks minus the opponent's); ``weighted`` is
:func:`gamelib.games.adjacency.evaluation.weighted` with its default weights."""

CLOCKS: dict[str, TimeRules] = {"engine": ENGINE_RULES, "plain": PLAIN_RULES}
"""How the bot spends its time, by name: ``engine`` applies the four rules of
:mod:`gamelib.search.time_rules` (keep a proven move of an unfinished depth, do not start a depth
predicted not to finish, extend on a fail low, finish a depth whose first move is back);
``plain`` deepens until the deadline and throws an unfinished depth away, as the bot did before
(kept to measure the rules against)."""

MARGIN_SHARE = 0.04
"""The share of each move's ``seconds`` kept back from the search for answering."""

MARGIN_SECONDS = 0.01
"""Seconds kept back as well: a timed-out search needs a few milliseconds to unwind."""


class WeightedGame(LookaheadGame):
    """The Adjacency game valued by :func:`~gamelib.games.adjacency.evaluation.weighted` (``weights``), from
    MAX's point of view, with ``value_range`` widened to the weights' bound. Moves come highest
    gain first; no frontier values or bounds, which hold for material only."""

    __slots__ = ("_weights",)

    def __init__(self, rounds: int = 28, rule: int = 8, first: Mark | str = Mark.X,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(rounds, rule, first)
        self._weights = weights

    @property
    def value_range(self) -> tuple[int, int]:
        """(-bound, bound), the bound of :func:`~gamelib.games.adjacency.evaluation.value_bound`."""
        bound = value_bound(self._weights)
        return (-bound, bound)

    def evaluate(self, state: AdjacencyState) -> int:
        """The weighted features of ``state``, from MAX's (X's) point of view."""
        return weighted(self, state, self._weights)

    def frontier_value(self, state: AdjacencyState) -> int | None:
        """None: the frontier value is material's."""
        return None

    def move_groups(self, state: AdjacencyState, depth: int | None) -> Iterator[tuple[float, list[Square]]]:
        """All moves highest gain first, bounds infinite (the finite ones are material's)."""
        return super().move_groups(state, None)


class AlphaBetaBot:
    """Iterative deepening with a transposition table, after seed 002's alpha-beta bot.

    ``search`` names one of :data:`SEARCHES`; ``evaluation`` one of :data:`EVALUATIONS`;
    ``table_size`` is the table's slot count (depth-preferred, kept between moves); ``depth``, if
    given, searches exactly that depth whatever the clock says (for tests and lessons), else the
    bot deepens up to ``max_depth`` until ``seconds`` less :data:`MARGIN_SHARE` and
    :data:`MARGIN_SECONDS` have passed. ``seed`` is kept for the interface: the bot has no
    randomness. ``clock`` names how the time is spent, one of :data:`CLOCKS`; ``last_search`` holds
    the last move's :class:`~gamelib.search.deepening.Deepening` (each depth's result and seconds, and
    why it stopped). Plays any :class:`~gamelib.games.game.Game`; the Adjacency game gets the lookahead.
    Raises SearchError (a ValueError) naming the bad option.
    """

    name = "alphabeta"

    def __init__(self, seed: int = 0, search: str = "negascout", evaluation: str = "material",
                 table_size: int = 1 << 20, depth: int | None = None, max_depth: int = 64,
                 clock: str = "engine") -> None:
        if search not in SEARCHES:
            raise SearchError(f"unknown search {search!r}: use one of {', '.join(SEARCHES)}")
        if evaluation not in EVALUATIONS:
            raise SearchError(f"unknown evaluation {evaluation!r}: use one of {', '.join(EVALUATIONS)}")
        if clock not in CLOCKS:
            raise SearchError(f"unknown clock {clock!r}: use one of {', '.join(CLOCKS)}")
        if depth is not None and depth < 1 or max_depth < 1 or table_size < 1:
            raise SearchError(f"depth {depth}, max_depth {max_depth} and table_size {table_size} must be >= 1")
        self.seed, self.search, self.evaluation = seed, search, evaluation
        self.table_size, self.depth, self.max_depth, self.clock = table_size, depth, max_depth, clock
        self._table: TranspositionTable | None = None
        self._game: Game[Any, Any] | None = None
        self.last_search: Deepening | None = None  # the last move's deepening: times per depth, for lessons
        self._rules: object = None

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """The best move in ``state`` found by the deepest search that finished in ``seconds`` of
        wall time (or at the fixed ``depth``), or by the unfinished search after it when that one
        proved a better move. The Decision's ``value`` is the chosen move's value from MAX's point
        of view (a bound if it comes from the unfinished search), ``depth`` the deepest finished
        depth, ``nodes`` the nodes of every search it started; ``note`` says why it stopped. The
        cyclic garbage collector is paused during the move (see
        :func:`~gamelib.play.bots.base.pause_collector`).

        Raises SearchError if ``seconds`` is not positive or ``state`` is terminal.
        """
        start = now()
        running = pause_collector()
        try:
            check_request(game, state, seconds)
            searched, table = self._prepare(game)
            budget = seconds * (1 - MARGIN_SHARE) - MARGIN_SECONDS - (now() - start)
            self.last_search = iterative_deepening(
                searched, state, self.depth or self.max_depth, search=SEARCHES[self.search],
                seconds=None if self.depth else max(budget, 0.0), table=table, rules=CLOCKS[self.clock],
                end=getattr(state, "plies_left", None))
            return _decision(game, state, self.last_search, now() - start, self.search,
                             exact=self.evaluation == "material")
        finally:
            resume_collector(running)

    def _prepare(self, game: Game[Any, Any]) -> tuple[Game[Any, Any], TranspositionTable]:
        """The game to search (the lookahead or weighted Adjacency game for an Adjacency game) and
        the table, both kept while the rules stay the same."""
        rules = (game.rounds, game.rule, game.first) if isinstance(game, AdjacencyGame) else game
        if self._table is None or self._game is None or rules != self._rules:
            self._rules, self._table = rules, TranspositionTable(self.table_size)
            self._game = searched_game(game, self.evaluation)
        return self._game, self._table

    def __repr__(self) -> str:
        return (f"AlphaBetaBot(seed={self.seed}, search={self.search!r}, evaluation={self.evaluation!r}, "
                f"table_size={self.table_size}, depth={self.depth}, max_depth={self.max_depth}, clock={self.clock!r})")


def searched_game(game: Game[Any, Any], evaluation: str) -> Game[Any, Any]:
    """``game`` as the bot with ``evaluation`` ("material" or "weighted") searches it: an Adjacency
    game becomes the lookahead game (material, whose depth-1 values come from the gains) or the
    weighted game; any other game is searched as it is. Raises SearchError for the weighted
    evaluation of a game other than Adjacency (the weighted evaluation is the Adjacency game's)."""
    if not isinstance(game, AdjacencyGame):
        if evaluation != "material":
            raise SearchError(f"the {evaluation} evaluation is for the Adjacency game only")
        return game
    if evaluation == "weighted":
        return WeightedGame(game.rounds, game.rule, game.first)
    return LookaheadGame.like(game)


def _decision(game: Game[Any, Any], state: Any, found: Deepening, seconds: float, search: str,
              exact: bool = False) -> Decision:
    """The Decision for the deepest finished search in ``found``, or the move its unfinished
    successor proved better; if none finished, the first move in the game's order, with no value.
    When the search reached the end of the game everywhere and ``exact`` (the value is the final
    margin in marks: the material evaluation), the note says the result (:func:`solved_text`).
    A finished search of a position with moves always has a move (the search core never lets the
    root lose it); raises SearchError if one has none."""
    result = found.result
    nodes = sum(iteration.nodes for iteration in found.iterations) + found.unfinished_nodes
    if result is None:
        move = game.legal_moves(state)[0]
        return Decision(move, None, found.depth or None, seconds, nodes,
                        f"{search}: no search finished in time, first move played")
    if result.move is None:
        raise SearchError(f"{search}'s depth-{found.depth} search of {game.node_id(state)} finished without a move")
    note = f"{search} depth {found.depth}, value {result.value:+}, {nodes} nodes; {_stop_reason(game, found)}"
    if found.fail_low is not None:
        low = found.fail_low
        note += (f"; depth {low.depth} failed low (value {_bounded(low.value, low.bound)}, two depths back "
                 f"{low.reference:+}): deadline {low.extra:.2g} s later")
    if found.run_on is not None:
        run = found.run_on
        outcome = "finished it" if found.depth >= run.depth else "did not finish it"
        note += (f"; depth {run.depth} had its first move back at the normal deadline: ran on up to "
                 f"{run.extra:.2g} s longer and {outcome}")
    if exact and result.complete and found.partial is None and isinstance(game, AdjacencyGame):
        note += "; " + solved_text(result.value)
    value = result.value if found.partial is None else found.partial.value
    return Decision(found.move, value, found.depth, seconds, nodes, note)


def _stop_reason(game: Game[Any, Any], found: Deepening) -> str:
    """Why the deepening in ``found`` (which finished a depth) stopped, in words."""
    assert found.result is not None
    if found.skipped is not None:
        skip = found.skipped
        return f"did not start depth {skip.depth}: predicted {skip.predicted:.3g} s > {skip.left:.3g} s left"
    if found.partial is not None:
        kept = found.partial
        return (f"depth {kept.depth} unfinished but proved {move_text(game, kept.move)} better than "
                f"{move_text(game, kept.replaces)} (value {_bounded(kept.value, kept.bound)}): played it")
    if found.timed_out:
        return f"no time to finish depth {found.depth + 1}"
    if found.result.complete:
        return "searched to the end of the game"
    return "reached the depth limit"


def _bounded(value: Value, bound: Bound) -> str:
    """A value with its bound as text: ">= +3", "<= -2", or "+1" when exact."""
    return {Bound.LOWER: ">= ", Bound.UPPER: "<= "}.get(bound, "") + f"{value:+}"
