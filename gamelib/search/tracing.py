"""Trace events and tracers: the search calls hooks on a tracer, whose default does nothing.

A :class:`RecordingTracer` turns the hooks into immutable, typed, JSON-serialisable events
(after python-chess's ``pgn.BaseVisitor``). Pictures, steppers and checkers only replay recorded
events; they never run a search of their own. Every window and value in an event is from MAX's
point of view, as in Broeders' printout (``pos = 16 alpha = 0 beta = 4``); the exceptions are
Monte Carlo tree search's UCB1 scores (MctsSelect), which are for the side choosing, as UCB1
defines them, and max^n's payoff vectors (MaxnLeaf, MaxnBest, MaxnExit), one entry a player.

>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.games.trees import tree_from_dict
>>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
>>> tracer = RecordingTracer()
>>> alphabeta(tree, tracer=tracer).value
2
>>> [event.kind for event in tracer.events]
['enter', 'enter', 'leaf', 'exit', 'best_move', 'enter', 'leaf', 'exit', 'best_move', 'exit']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, NamedTuple

from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree

__all__ = [
    "BestMove",
    "Bound",
    "ChanceSum",
    "Cutoff",
    "Enter",
    "Event",
    "Exit",
    "FailHigh",
    "Leaf",
    "MaxnBest",
    "MaxnEnter",
    "MaxnExit",
    "MaxnLeaf",
    "MAXN_EVENTS",
    "MCTS_EVENTS",
    "MctsBackup",
    "MctsExpand",
    "MctsRollout",
    "MctsSelect",
    "NullWindow",
    "Iteration",
    "MtdPass",
    "Research",
    "TableHit",
    "NULL_TRACER",
    "RecordingTracer",
    "ScoutTest",
    "Tracer",
    "event_from_dict",
    "evaluated_nodes",
    "pruned_nodes",
    "scout_tests",
    "to_jsonable",
    "visited_nodes",
]


class Bound(str, Enum):
    """What a backed-up value says about the true minimax value, from MAX's point of view."""

    EXACT = "exact"
    LOWER = "lower"  # the true value is >= the value (the search failed high for MAX)
    UPPER = "upper"  # the true value is <= the value


_AS_IS = frozenset({str, int, bool, type(None)})
"""Types whose values JSON takes as they are (an enum that is also a str is not one of them)."""


def to_jsonable(value: Any) -> Any:
    """Infinite values become the strings "inf"/"-inf" (JSON has no infinity); enums their value."""
    if type(value) in _AS_IS:
        return value
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [to_jsonable(item) for item in value]
    return value


def _from_jsonable(value: Any) -> Any:
    if value in ("inf", "-inf"):
        return float(value)
    return value


@dataclass(frozen=True)
class _Event:
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``{"event": kind, ...fields}``; infinities as "inf".

        Reads the fields by name, passing through :func:`to_jsonable` only those whose type may
        need it (values, windows, enums, tuples; found once a class), instead of
        ``dataclasses.asdict``, which deep-copies every value: 600,000 events convert in about
        half a second, not twenty."""
        data: dict[str, Any] = {"event": self.kind}
        for name, convert in _conversions(type(self)):
            value = getattr(self, name)
            data[name] = to_jsonable(value) if convert else value
        return data


_AS_IS_FIELDS = frozenset({"str", "int", "bool", "str | None", "int | None"})
"""Field types (as written) whose values JSON takes as they are."""

_CONVERSIONS: dict[type, tuple[tuple[str, bool], ...]] = {}
"""Each event class's fields in order, with whether a value needs :func:`to_jsonable`; filled as
classes are first converted."""


def _conversions(cls: type) -> tuple[tuple[str, bool], ...]:
    found = _CONVERSIONS.get(cls)
    if found is None:
        found = _CONVERSIONS[cls] = tuple((field.name, str(field.type) not in _AS_IS_FIELDS) for field in fields(cls))
    return found


@dataclass(frozen=True)
class Enter(_Event):
    """The search enters ``node``, ``ply`` plies below the root, with window (alpha, beta).

    The window is from MAX's point of view; both are None for minimax, which has no window.
    """

    kind: ClassVar[str] = "enter"
    node: str
    ply: int
    player: Player
    alpha: Value | None
    beta: Value | None


@dataclass(frozen=True)
class Leaf(_Event):
    """The search evaluates ``node`` statically (a leaf, or the depth limit): ``value`` for MAX."""

    kind: ClassVar[str] = "leaf"
    node: str
    value: Value


@dataclass(frozen=True)
class Cutoff(_Event):
    """At ``node`` the value reached the window's far bound: ``skipped`` children are never searched.

    ``alpha`` and ``beta`` are the window the node was entered with, MAX's view: a MAX node cuts
    when ``value >= beta``, a MIN node when ``value <= alpha`` (only > or < with strict pruning),
    a chance node under Star1 when its bound ``value`` does either (see
    :func:`gamelib.search.expectimax.expectiminimax`).
    """

    kind: ClassVar[str] = "cutoff"
    node: str
    value: Value
    alpha: Value
    beta: Value
    skipped: tuple[str, ...]


@dataclass(frozen=True)
class BestMove(_Event):
    """The best move at ``node`` so far changes to ``move`` (a child's id), worth ``value`` for MAX."""

    kind: ClassVar[str] = "best_move"
    node: str
    move: str
    value: Value


@dataclass(frozen=True)
class Exit(_Event):
    """The search leaves ``node`` with a backed-up ``value`` for MAX, a ``bound`` type and best move."""

    kind: ClassVar[str] = "exit"
    node: str
    value: Value
    bound: Bound
    best_move: str | None


@dataclass(frozen=True)
class NullWindow(_Event):
    """NegaScout at ``node`` tests ``move`` with the null window (alpha, beta), MAX's view: is the
    move better than the best so far? (Reinefeld 1983; beta - alpha is 1.)"""

    kind: ClassVar[str] = "null_window"
    node: str
    move: str
    alpha: Value
    beta: Value


@dataclass(frozen=True)
class FailHigh(_Event):
    """The null-window test of ``move`` at ``node`` says the move is better than the best so far:
    its value, MAX's view, lies beyond the null window (alpha, beta) on the side to move's side."""

    kind: ClassVar[str] = "fail_high"
    node: str
    move: str
    value: Value
    alpha: Value
    beta: Value


@dataclass(frozen=True)
class Research(_Event):
    """NegaScout searches ``move`` at ``node`` again, with ``window`` instead of ``null_window``,
    because the null-window test failed high inside the node's window (both MAX's view)."""

    kind: ClassVar[str] = "research"
    node: str
    move: str
    null_window: tuple[Value, Value]
    window: tuple[Value, Value]


@dataclass(frozen=True)
class TableHit(_Event):
    """At ``node`` the transposition table holds an entry searched ``depth`` plies deep (None: to
    the end of the game) with ``value`` and ``bound`` (MAX's view). ``cutoff`` is True when the entry
    alone settles the node, so its subtree is not searched; otherwise ``move`` is tried first, and
    below the root a bound that lies inside the window the node was entered with (the Enter event
    just before the hit) narrows it; at the root only an exact entry is used, so a bound leaves the
    window as it is (see ``SearchContext.read`` in :mod:`gamelib.search.negamax`)."""

    kind: ClassVar[str] = "tt_hit"
    node: str
    depth: int | None
    value: Value
    bound: Bound
    move: str | None
    cutoff: bool


@dataclass(frozen=True)
class MtdPass(_Event):
    """MTD(f) pass ``number`` (1, 2, ...) searched the root with the null window (alpha, beta) and
    got ``value``; the root's minimax value now lies in [``lower``, ``upper``] (all MAX's view).
    The search stops when lower == upper (Plaat et al. 1996)."""

    kind: ClassVar[str] = "mtd_pass"
    number: int
    alpha: Value
    beta: Value
    value: Value
    lower: Value
    upper: Value


@dataclass(frozen=True)
class Iteration(_Event):
    """Iterative deepening finished the search to ``depth`` plies: ``value`` (MAX's view), best
    ``move`` and the ``nodes`` entered in this iteration."""

    kind: ClassVar[str] = "iteration"
    depth: int
    value: Value
    move: str | None
    nodes: int


@dataclass(frozen=True)
class MctsSelect(_Event):
    """Monte Carlo tree search, iteration ``iteration`` (1, 2, ...), selection: at the node reached
    by ``path`` (node ids from the root, root first), every child already in the tree, the search
    descends to ``child``, the first of ``children`` with the highest UCB1 score in ``scores``
    (one per child, in the same order). A score is for the side to move at the node, the player
    who chooses: its mean reward there (in [0, 1]) plus the exploration bonus (Kocsis &
    Szepesvári 2006; see :func:`gamelib.search.mcts.ucb1`)."""

    kind: ClassVar[str] = "mcts_select"
    iteration: int
    path: tuple[str, ...]
    children: tuple[str, ...]
    scores: tuple[float, ...]
    child: str


@dataclass(frozen=True)
class MctsExpand(_Event):
    """Monte Carlo tree search, iteration ``iteration``, expansion: the node reached by ``path``
    gains ``child``, its next untried move's node, with no visits yet."""

    kind: ClassVar[str] = "mcts_expand"
    iteration: int
    path: tuple[str, ...]
    child: str


@dataclass(frozen=True)
class MctsRollout(_Event):
    """Monte Carlo tree search, iteration ``iteration``, rollout (simulation): from the node reached
    by ``path`` the search played ``moves`` (each as ``str(move)``; none when the node is
    terminal) and valued the position it reached: ``value`` from MAX's point of view, ``reward``
    for MAX in [0, 1]."""

    kind: ClassVar[str] = "mcts_rollout"
    iteration: int
    path: tuple[str, ...]
    moves: tuple[str, ...]
    value: Value
    reward: float


@dataclass(frozen=True)
class MctsBackup(_Event):
    """Monte Carlo tree search, iteration ``iteration``, backup: every node on ``path`` (root
    first) gains a visit and adds ``reward`` (for MAX, in [0, 1]) to its sum of rewards."""

    kind: ClassVar[str] = "mcts_backup"
    iteration: int
    path: tuple[str, ...]
    reward: float


@dataclass(frozen=True)
class ChanceSum(_Event):
    """Expectiminimax at the chance node ``node`` adds ``child``'s value ``child_value`` (MAX's
    view), weighted by its ``probability``, to the sum: ``partial_sum`` is the sum so far, the
    node's value once every child is in (Michie 1966; Russell & Norvig, *AIMA* 5.5)."""

    kind: ClassVar[str] = "chance_sum"
    node: str
    child: str
    probability: float
    child_value: Value
    partial_sum: Value


@dataclass(frozen=True)
class MaxnEnter(Enter):
    """Max^n enters ``node``, where player ``mover`` (1, 2, ...) moves (None at a leaf): an
    :class:`Enter` (no window; ``player`` is the tree's two-player reading) that says the search is max^n
    (Luckhardt & Irani 1986). A max^n trace has MaxnEnter, MaxnLeaf, MaxnBest and MaxnExit where
    a two-player search has Enter, Leaf, BestMove and Exit."""

    kind: ClassVar[str] = "maxn_enter"
    mover: int | None


@dataclass(frozen=True)
class MaxnLeaf(_Event):
    """Max^n reaches the leaf ``node``: its ``payoffs``, one a player, player 1 first."""

    kind: ClassVar[str] = "maxn_leaf"
    node: str
    payoffs: tuple[Value, ...]


@dataclass(frozen=True)
class MaxnBest(_Event):
    """Max^n at ``node``, where player ``mover`` (1, 2, ...) moves: the best move so far changes to
    ``move``, whose backed-up ``payoffs`` have the largest ``mover``-th entry yet (the first of
    equal ones stays)."""

    kind: ClassVar[str] = "maxn_best"
    node: str
    mover: int
    move: str
    payoffs: tuple[Value, ...]


@dataclass(frozen=True)
class MaxnExit(_Event):
    """Max^n leaves ``node`` with the backed-up ``payoffs`` of its ``best_move`` (None at a leaf)."""

    kind: ClassVar[str] = "maxn_exit"
    node: str
    payoffs: tuple[Value, ...]
    best_move: str | None


MAXN_EVENTS = (MaxnEnter, MaxnLeaf, MaxnBest, MaxnExit)
"""The events only max^n records."""

MCTS_EVENTS = (MctsSelect, MctsExpand, MctsRollout, MctsBackup)
"""The events of a Monte Carlo tree search; a search's trace has these only or none of them."""

Event = (Enter | Leaf | Cutoff | BestMove | Exit | NullWindow | FailHigh | Research | TableHit | MtdPass | Iteration
         | ChanceSum | MaxnEnter | MaxnLeaf | MaxnBest | MaxnExit | MctsSelect | MctsExpand | MctsRollout | MctsBackup)
"""Any trace event."""

_EVENT_TYPES: dict[str, type[_Event]] = {
    cls.kind: cls for cls in (Enter, Leaf, Cutoff, BestMove, Exit, NullWindow, FailHigh, Research, TableHit,
                              MtdPass, Iteration, ChanceSum, *MAXN_EVENTS, *MCTS_EVENTS)}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`to_dict` output. Raises ValueError for an unknown event kind."""
    kind = data.get("event")
    if kind not in _EVENT_TYPES:
        raise ValueError(f"unknown trace event {kind!r}; known: {sorted(_EVENT_TYPES)}")
    fields = {k: _from_jsonable(v) for k, v in data.items() if k != "event"}
    if "player" in fields:
        fields["player"] = Player(fields["player"])
    if "bound" in fields:
        fields["bound"] = Bound(fields["bound"])
    for name in ("skipped", "null_window", "window", "path", "children", "scores", "moves", "payoffs"):
        if name in fields:
            fields[name] = tuple(_from_jsonable(v) for v in fields[name])
    return _EVENT_TYPES[kind](**fields)  # type: ignore[return-value]


class Tracer:
    """The hooks a search calls; this base class ignores them all (the default tracer).

    Subclass it and override the hooks you need. Values and windows are from MAX's point of view.
    """

    def enter(self, node: str, ply: int, player: Player, alpha: Value | None, beta: Value | None) -> None:
        """The search enters ``node``."""

    def leaf(self, node: str, value: Value) -> None:
        """The search evaluates ``node`` statically."""

    def cutoff(self, node: str, value: Value, alpha: Value, beta: Value, skipped: tuple[str, ...]) -> None:
        """The search stops at ``node`` without searching ``skipped``."""

    def best_move(self, node: str, move: str, value: Value) -> None:
        """The best move at ``node`` changes."""

    def exit(self, node: str, value: Value, bound: Bound, best_move: str | None) -> None:
        """The search leaves ``node``."""

    def null_window(self, node: str, move: str, alpha: Value, beta: Value) -> None:
        """NegaScout tests ``move`` at ``node`` with a null window."""

    def fail_high(self, node: str, move: str, value: Value, alpha: Value, beta: Value) -> None:
        """The null-window test of ``move`` at ``node`` failed high."""

    def research(self, node: str, move: str, null_window: tuple[Value, Value], window: tuple[Value, Value]) -> None:
        """NegaScout searches ``move`` at ``node`` again with a wider window."""

    def tt_hit(self, node: str, depth: int | None, value: Value, bound: Bound, move: str | None,
               cutoff: bool) -> None:
        """The transposition table holds an entry for ``node``."""

    def mtd_pass(self, number: int, alpha: Value, beta: Value, value: Value, lower: Value, upper: Value) -> None:
        """An MTD(f) pass finished."""

    def iteration(self, depth: int, value: Value, move: str | None, nodes: int) -> None:
        """Iterative deepening finished a depth."""

    def chance_sum(self, node: str, child: str, probability: float, child_value: Value, partial_sum: Value) -> None:
        """Expectiminimax adds a child's weighted value to a chance node's sum."""

    def maxn_enter(self, node: str, ply: int, player: Player, mover: int | None) -> None:
        """Max^n enters ``node``, where player ``mover`` moves (None at a leaf)."""

    def maxn_leaf(self, node: str, payoffs: tuple[Value, ...]) -> None:
        """Max^n reaches a leaf with these payoffs, one a player."""

    def maxn_best(self, node: str, mover: int, move: str, payoffs: tuple[Value, ...]) -> None:
        """Max^n's best move at ``node`` (player ``mover`` moving) changes."""

    def maxn_exit(self, node: str, payoffs: tuple[Value, ...], best_move: str | None) -> None:
        """Max^n leaves ``node`` with its backed-up payoffs."""

    def mcts_select(self, iteration: int, path: tuple[str, ...], children: tuple[str, ...],
                    scores: tuple[float, ...], child: str) -> None:
        """Monte Carlo tree search descends from the node at ``path`` to ``child`` by UCB1."""

    def mcts_expand(self, iteration: int, path: tuple[str, ...], child: str) -> None:
        """Monte Carlo tree search adds ``child`` under the node at ``path``."""

    def mcts_rollout(self, iteration: int, path: tuple[str, ...], moves: tuple[str, ...], value: Value,
                     reward: float) -> None:
        """Monte Carlo tree search played ``moves`` from the node at ``path`` and valued the end."""

    def mcts_backup(self, iteration: int, path: tuple[str, ...], reward: float) -> None:
        """Monte Carlo tree search adds a visit and ``reward`` to every node on ``path``."""


NULL_TRACER = Tracer()
"""The tracer that does nothing: the default of every search."""


class RecordingTracer(Tracer):
    """Records every hook as an immutable event, in order; ``events`` is the trace."""

    def __init__(self) -> None:
        self._events: list[Event] = []

    @property
    def events(self) -> tuple[Event, ...]:
        """The recorded events, oldest first."""
        return tuple(self._events)

    def to_json(self) -> list[dict[str, Any]]:
        """The events as a list of JSON-ready dictionaries."""
        return [event.to_dict() for event in self._events]

    def enter(self, node: str, ply: int, player: Player, alpha: Value | None, beta: Value | None) -> None:
        self._events.append(Enter(node, ply, player, alpha, beta))

    def leaf(self, node: str, value: Value) -> None:
        self._events.append(Leaf(node, value))

    def cutoff(self, node: str, value: Value, alpha: Value, beta: Value, skipped: tuple[str, ...]) -> None:
        self._events.append(Cutoff(node, value, alpha, beta, skipped))

    def best_move(self, node: str, move: str, value: Value) -> None:
        self._events.append(BestMove(node, move, value))

    def exit(self, node: str, value: Value, bound: Bound, best_move: str | None) -> None:
        self._events.append(Exit(node, value, bound, best_move))

    def null_window(self, node: str, move: str, alpha: Value, beta: Value) -> None:
        self._events.append(NullWindow(node, move, alpha, beta))

    def fail_high(self, node: str, move: str, value: Value, alpha: Value, beta: Value) -> None:
        self._events.append(FailHigh(node, move, value, alpha, beta))

    def research(self, node: str, move: str, null_window: tuple[Value, Value], window: tuple[Value, Value]) -> None:
        self._events.append(Research(node, move, null_window, window))

    def tt_hit(self, node: str, depth: int | None, value: Value, bound: Bound, move: str | None,
               cutoff: bool) -> None:
        self._events.append(TableHit(node, depth, value, bound, move, cutoff))

    def mtd_pass(self, number: int, alpha: Value, beta: Value, value: Value, lower: Value, upper: Value) -> None:
        self._events.append(MtdPass(number, alpha, beta, value, lower, upper))

    def iteration(self, depth: int, value: Value, move: str | None, nodes: int) -> None:
        self._events.append(Iteration(depth, value, move, nodes))

    def chance_sum(self, node: str, child: str, probability: float, child_value: Value, partial_sum: Value) -> None:
        self._events.append(ChanceSum(node, child, probability, child_value, partial_sum))

    def maxn_enter(self, node: str, ply: int, player: Player, mover: int | None) -> None:
        self._events.append(MaxnEnter(node, ply, player, None, None, mover))

    def maxn_leaf(self, node: str, payoffs: tuple[Value, ...]) -> None:
        self._events.append(MaxnLeaf(node, payoffs))

    def maxn_best(self, node: str, mover: int, move: str, payoffs: tuple[Value, ...]) -> None:
        self._events.append(MaxnBest(node, mover, move, payoffs))

    def maxn_exit(self, node: str, payoffs: tuple[Value, ...], best_move: str | None) -> None:
        self._events.append(MaxnExit(node, payoffs, best_move))

    def mcts_select(self, iteration: int, path: tuple[str, ...], children: tuple[str, ...],
                    scores: tuple[float, ...], child: str) -> None:
        self._events.append(MctsSelect(iteration, path, children, scores, child))

    def mcts_expand(self, iteration: int, path: tuple[str, ...], child: str) -> None:
        self._events.append(MctsExpand(iteration, path, child))

    def mcts_rollout(self, iteration: int, path: tuple[str, ...], moves: tuple[str, ...], value: Value,
                     reward: float) -> None:
        self._events.append(MctsRollout(iteration, path, moves, value, reward))

    def mcts_backup(self, iteration: int, path: tuple[str, ...], reward: float) -> None:
        self._events.append(MctsBackup(iteration, path, reward))


def visited_nodes(events: Iterable[Event]) -> list[str]:
    """Node ids in the order the search entered them, root first (a node entered twice, twice)."""
    return [event.node for event in events if isinstance(event, Enter)]


def evaluated_nodes(events: Iterable[Event]) -> list[str]:
    """Node ids in the order the search evaluated them statically."""
    return [event.node for event in events if isinstance(event, Leaf)]


def pruned_nodes(tree: GameTree, events: Iterable[Event], depth: int | None = None) -> list[str]:
    """Nodes of ``tree`` within ``depth`` plies of the root that the search never entered.

    Listed breadth first, as positions are numbered in Broeders' tree (where alpha-beta prunes
    6, 10, 13, 14, 18, 21, 22, 24, 26, 27, 28, 29, 30).
    """
    entered = set(visited_nodes(events))
    return [node for node in tree.subtree_breadth_first(depth) if node not in entered]


class ScoutTest(NamedTuple):
    """A NegaScout null-window test that failed high, seen from the side to move at ``node``: ``a``
    is the best value before the test (the null window was (a, a + 1)), ``t`` the test's value
    (t > a), ``beta`` the node's beta when it was entered, ``researched`` whether the move was
    searched again."""

    node: str
    move: str
    a: Value
    t: Value
    beta: Value
    researched: bool


def scout_tests(events: Iterable[Event]) -> list[ScoutTest]:
    """Every failed-high null-window test in a NegaScout or PVS trace, in order, read from the
    events alone: the node's Enter (its window and side to move), the FailHigh, and the Research
    that follows it at once if the move is searched again. Reinefeld's C code (his web page; seed
    000's NegaScout) re-searches only when a < t < beta; his 1983 code re-searches whenever t beats
    the best value so far.

    >>> from gamelib.search.negamax import negascout
    >>> from gamelib.games.trees import tree_from_dict
    >>> tree = tree_from_dict({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
    ...                        "values": {"a1": 3, "a2": 4, "b1": 5, "b2": 6}})
    >>> tracer = RecordingTracer()
    >>> negascout(tree, tracer=tracer).value
    5
    >>> scout_tests(tracer.events)
    [ScoutTest(node='r', move='b', a=3, t=4, beta=inf, researched=True)]
    """
    entered: dict[str, Enter] = {}
    tests: list[ScoutTest] = []
    for event in events:
        if isinstance(event, Enter):
            entered[event.node] = event
        elif isinstance(event, FailHigh):
            enter = entered[event.node]
            assert enter.alpha is not None and enter.beta is not None, "NegaScout enters nodes with a window"
            if enter.player is Player.MAX:
                a, t, beta = event.alpha, event.value, enter.beta
            else:
                a, t, beta = -event.beta, -event.value, -enter.alpha
            tests.append(ScoutTest(event.node, event.move, a, t, beta, False))
        elif isinstance(event, Research) and tests and tests[-1][:2] == (event.node, event.move):
            tests[-1] = tests[-1]._replace(researched=True)
    return tests
