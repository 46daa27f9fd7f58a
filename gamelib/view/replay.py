"""Replay a recorded trace: the picture of a search after its first ``step`` events.

Pictures and steppers never run a search: they take the events a
:class:`~gamelib.search.tracing.RecordingTracer` recorded and replay them. :func:`snapshot` says, for every
node of the tree, whether the search has not reached it yet, is inside it, has left it, or will never
reach it because a cutoff skipped its subtree; with the window it was entered with, its backed-up
value and the best move so far. Windows and values are from MAX's point of view, as in the events.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.search.tracing import RecordingTracer
>>> tree = load_seed_tree("broeders31")
>>> tracer = RecordingTracer()
>>> _ = alphabeta(tree, tracer=tracer)
>>> picture = snapshot(tree, tracer.events, 19)   # just after the cutoff at position 8
>>> describe(picture.event)
'pos 8: 3 <= alpha 4, cut: position 18 is never searched'
>>> picture.status["18"], picture.status["8"], picture.window["8"]
(<Status.PRUNED: 'pruned'>, <Status.OPEN: 'open'>, (4, 15))
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from gamelib.games.game import Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.tracing import (
    MCTS_EVENTS,
    BestMove,
    Bound,
    ChanceSum,
    Cutoff,
    Enter,
    Event,
    Exit,
    FailHigh,
    Iteration,
    Leaf,
    MaxnBest,
    MaxnEnter,
    MaxnExit,
    MaxnLeaf,
    MtdPass,
    NullWindow,
    Research,
    TableHit,
)
from gamelib.view.mcts_replay import describe_mcts

__all__ = ["Replay", "ReplayError", "Snapshot", "Status", "Visit", "cut_reason", "cutoff_distances", "cutoff_that_pruned",
           "describe", "hit_window", "payoff_text", "snapshot"]

Window = tuple[Value | None, Value | None]
"""(alpha, beta) from MAX's point of view; (None, None) for minimax, which has no window."""

_ROOT_EVENTS = (MtdPass, Iteration)
"""Events about the whole search, with no node of their own: each closes a pass or an iteration."""


class ReplayError(ValueError):
    """A trace that does not fit the tree, or a step outside the trace."""


class Status(str, Enum):
    """Where the search stands with a node after some events."""

    UNSEEN = "unseen"  # not entered yet (and not pruned)
    OPEN = "open"      # entered, not left: on the search path
    DONE = "done"      # left, with a backed-up value
    PRUNED = "pruned"  # inside a subtree a cutoff skipped: never searched


class Visit(str, Enum):
    """How the search entered a node the last time: NegaScout tests a move with a null window
    first (a NullWindow event) and may search it again (a Research event); all else is FULL."""

    FULL = "full"
    NULL_WINDOW = "null_window"
    RESEARCH = "research"


@dataclass(frozen=True)
class Snapshot:
    """The state of a search after its first ``step`` of ``total`` events (0: nothing happened yet).

    ``status`` maps every node of the tree to its :class:`Status`, in the tree's breadth-first
    order. ``current`` and ``event`` are the node and event of event number ``step - 1`` (None at
    step 0; ``current`` is None too after an MTD(f) pass or an iteration, which have no node).
    ``window`` maps each entered node to the (alpha, beta) it was last entered with, and ``visit``
    to how (:class:`Visit`); ``value`` and ``bound`` map each DONE node to its backed-up value and
    bound; ``best_move`` maps a node to the child its current visit prefers so far (from BestMove
    events); ``table_hit`` maps a node to the transposition-table entry its current visit found;
    ``cut_edges`` are the (node, skipped child) pairs of the cutoffs replayed. All values are from
    MAX's point of view, except ``payoffs``: for max^n, each DONE node's backed-up payoff vector
    (one entry a player; its ``value`` is then player 1's entry).

    A search that runs in passes (MTD(f): an MtdPass event closes each) or iterations (an Iteration
    event) is shown one pass at a time: once the next pass has begun, the nodes show that pass
    only. ``mtd_pass`` is the number of the MTD(f) pass shown and ``mtd_bounds`` the (lower, upper)
    bounds on the root's value after the latest pass replayed (None before the first, or without
    MTD(f)); ``iteration`` is the depth of the iteration shown (None without iterations).
    The counters count the Enter, Leaf, Cutoff, Research and TableHit events among the first ``step``.
    """

    step: int
    total: int
    status: Mapping[str, Status]
    current: str | None
    event: Event | None
    window: Mapping[str, Window]
    value: Mapping[str, Value]
    bound: Mapping[str, Bound]
    best_move: Mapping[str, str]
    cut_edges: frozenset[tuple[str, str]]
    nodes_entered: int
    leaves_evaluated: int
    cutoffs: int
    researches: int = 0
    table_hits: int = 0
    visit: Mapping[str, Visit] = field(default_factory=dict)
    table_hit: Mapping[str, TableHit] = field(default_factory=dict)
    mtd_pass: int | None = None
    mtd_bounds: tuple[Value, Value] | None = None
    iteration: int | None = None
    payoffs: Mapping[str, tuple[Value, ...]] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """True once every event has been replayed."""
        return self.step == self.total

    def nodes_with(self, status: Status) -> list[str]:
        """The nodes with ``status``, breadth first."""
        return [node for node, seen in self.status.items() if seen is status]


class _NodeState(NamedTuple):
    status: Status
    window: Window | None
    result: tuple[Value, Bound] | None
    best_move: str | None
    visit: Visit | None
    hit: TableHit | None
    payoffs: tuple[Value, ...] | None = None


_NOTHING = _NodeState(Status.UNSEEN, None, None, None, None, None)


def _last_in(indices: list[int], since: int, step: int) -> int:
    """The position in ``indices`` (sorted) of the last index in since..step-1, or -1."""
    position = bisect_left(indices, step) - 1
    return position if position >= 0 and indices[position] >= since else -1


@dataclass
class _Timeline:
    """One node's history in a trace: the event indices (0-based) where something happened to it."""

    enters: list[int] = field(default_factory=list)
    windows: list[Window] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    exits: list[int] = field(default_factory=list)
    results: list[tuple[Value, Bound]] = field(default_factory=list)
    prunes: list[int] = field(default_factory=list)
    best_steps: list[int] = field(default_factory=list)
    best_moves: list[str] = field(default_factory=list)
    hit_steps: list[int] = field(default_factory=list)
    hits: list[TableHit] = field(default_factory=list)
    payoffs: dict[int, tuple[Value, ...]] = field(default_factory=dict)  # max^n's vector, by exit index

    def at(self, step: int, since: int = 0) -> _NodeState:
        """The node after the first ``step`` events, counting only events from index ``since`` on
        (the pass shown): the latest of entering, leaving, being pruned wins."""
        enter, exit_, prune = (_last_in(self.enters, since, step), _last_in(self.exits, since, step),
                               _last_in(self.prunes, since, step))
        entered = self.enters[enter] if enter >= 0 else -1
        when = {Status.OPEN: entered, Status.DONE: self.exits[exit_] if exit_ >= 0 else -1,
                Status.PRUNED: self.prunes[prune] if prune >= 0 else -1}
        status = max(when, key=lambda seen: when[seen])
        if when[status] < 0:
            return _NOTHING
        if status is Status.PRUNED:
            return _NodeState(status, None, None, None, None, None)
        move = _last_in(self.best_steps, entered, step)
        hit = _last_in(self.hit_steps, entered, step)
        result = self.results[exit_] if status is Status.DONE else None
        return _NodeState(status, self.windows[enter] if enter >= 0 else None, result,
                          self.best_moves[move] if move >= 0 and entered >= 0 else None,
                          self.visits[enter] if enter >= 0 else None,
                          self.hits[hit] if hit >= 0 and entered >= 0 else None,
                          self.payoffs.get(exit_) if status is Status.DONE else None)


class _Counts(NamedTuple):
    entered: int = 0
    leaves: int = 0
    cutoffs: int = 0
    researches: int = 0
    table_hits: int = 0


class Replay:
    """A trace prepared once, so that :meth:`snapshot` of any step is cheap.

    Building it reads the events once (linear in their number plus the pruned subtrees); a snapshot
    then costs a few bisections per touched node (about 0.1 ms on Broeders' 31-node tree).
    Raises ReplayError if an event names a node that is not in ``tree``.
    """

    def __init__(self, tree: GameTree, events: Sequence[Event]) -> None:
        self.tree = tree
        self.events: tuple[Event, ...] = tuple(events)
        self._order = tree.nodes()
        self._timelines: dict[str, _Timeline] = {}
        self._cuts: list[tuple[int, str, str]] = []
        self._counts: list[_Counts] = [_Counts()]
        self._pending: dict[str, Visit] = {}
        self._epochs: list[int] = [0]  # index of the first node event of each pass or iteration
        self._passes: list[int] = []
        self._iterations: list[int] = []
        for index, event in enumerate(self.events):
            self._record(index, event)

    def __len__(self) -> int:
        return len(self.events)

    def _timeline(self, node: str) -> _Timeline:
        if node not in self.tree.players:
            raise ReplayError(
                f"the trace names node {node!r}, which is not in tree {self.tree.name!r}: "
                "replay a trace recorded on this tree")
        return self._timelines.setdefault(node, _Timeline())

    def _record(self, index: int, event: Event) -> None:
        if isinstance(event, MCTS_EVENTS):
            raise ReplayError("this is a Monte Carlo tree search's trace: replay it with "
                              "gamelib.view.mcts_replay.MctsReplay")
        counts = self._counts[-1]
        if isinstance(event, _ROOT_EVENTS):
            (self._passes if isinstance(event, MtdPass) else self._iterations).append(index)
            self._counts.append(counts)
            return
        if index and isinstance(self.events[index - 1], _ROOT_EVENTS):
            self._epochs.append(index)
        line = self._timeline(event.node)
        if isinstance(event, Enter):
            line.enters.append(index)
            line.windows.append((event.alpha, event.beta))
            line.visits.append(self._pending.pop(event.node, Visit.FULL))
            counts = counts._replace(entered=counts.entered + 1)
        elif isinstance(event, (Leaf, MaxnLeaf)):
            counts = counts._replace(leaves=counts.leaves + 1)
        elif isinstance(event, Exit):
            line.exits.append(index)
            line.results.append((event.value, event.bound))
        elif isinstance(event, MaxnExit):
            line.payoffs[len(line.exits)] = event.payoffs
            line.exits.append(index)
            line.results.append((event.payoffs[0], Bound.EXACT))
        elif isinstance(event, (BestMove, MaxnBest)):
            line.best_steps.append(index)
            line.best_moves.append(event.move)
        elif isinstance(event, Cutoff):
            counts = counts._replace(cutoffs=counts.cutoffs + 1)
            self._record_cut(index, event)
        elif isinstance(event, (NullWindow, Research)):
            self._pending[event.move] = Visit.NULL_WINDOW if isinstance(event, NullWindow) else Visit.RESEARCH
            if isinstance(event, Research):
                counts = counts._replace(researches=counts.researches + 1)
        elif isinstance(event, TableHit):
            line.hit_steps.append(index)
            line.hits.append(event)
            counts = counts._replace(table_hits=counts.table_hits + 1)
        self._counts.append(counts)

    def _record_cut(self, index: int, event: Cutoff) -> None:
        for child in event.skipped:
            self._cuts.append((index, event.node, child))
            for node in self.tree.subtree_breadth_first(node=child):
                self._timeline(node).prunes.append(index)

    def _since(self, step: int) -> int:
        """The index of the first event of the pass (or iteration) shown after ``step`` events."""
        return self._epochs[bisect_left(self._epochs, step) - 1] if step else 0

    def _closing(self, indices: list[int], since: int) -> int | None:
        """The first of ``indices`` at or after ``since``: the event that closes the pass shown."""
        position = bisect_left(indices, since)
        return indices[position] if position < len(indices) else None

    def _mtd_state(self, step: int, since: int) -> tuple[int | None, tuple[Value, Value] | None]:
        """The MTD(f) pass shown and the bounds after the latest pass replayed (see Snapshot)."""
        closing = self._closing(self._passes, since)
        number = None
        if closing is not None:
            event = self.events[closing]
            assert isinstance(event, MtdPass)
            number = event.number
        latest = _last_in(self._passes, 0, step)
        if latest < 0 or _last_in(self._iterations, self._passes[latest], step) >= 0:
            return number, None
        last = self.events[self._passes[latest]]
        assert isinstance(last, MtdPass)
        return number, (last.lower, last.upper)

    def _iteration(self, since: int) -> int | None:
        closing = self._closing(self._iterations, since)
        event = None if closing is None else self.events[closing]
        return event.depth if isinstance(event, Iteration) else None

    def snapshot(self, step: int) -> Snapshot:
        """The picture after the first ``step`` events; raises ReplayError unless 0 <= step <= len."""
        if not 0 <= step <= len(self.events):
            raise ReplayError(f"step {step} is outside this trace: give 0..{len(self.events)}")
        since = self._since(step)
        status = dict.fromkeys(self._order, Status.UNSEEN)
        window: dict[str, Window] = {}
        value: dict[str, Value] = {}
        bound: dict[str, Bound] = {}
        best: dict[str, str] = {}
        visit: dict[str, Visit] = {}
        hits: dict[str, TableHit] = {}
        payoffs: dict[str, tuple[Value, ...]] = {}
        for node, line in self._timelines.items():
            state = line.at(step, since)
            status[node] = state.status
            if state.window is not None:
                window[node] = state.window
            if state.result is not None:
                value[node], bound[node] = state.result
            if state.best_move is not None:
                best[node] = state.best_move
            if state.visit is not None:
                visit[node] = state.visit
            if state.hit is not None:
                hits[node] = state.hit
            if state.payoffs is not None:
                payoffs[node] = state.payoffs
        cuts = frozenset((parent, child) for index, parent, child in self._cuts
                         if since <= index < step and status[child] is Status.PRUNED)
        event = self.events[step - 1] if step else None
        counts = self._counts[step]
        current = None if event is None or isinstance(event, _ROOT_EVENTS + MCTS_EVENTS) else event.node
        mtd_pass, mtd_bounds = self._mtd_state(step, since)
        return Snapshot(step, len(self.events), status, current, event, window, value, bound, best, cuts,
                        counts.entered, counts.leaves, counts.cutoffs, counts.researches, counts.table_hits,
                        visit, hits, mtd_pass, mtd_bounds, self._iteration(since), payoffs)


def snapshot(tree: GameTree, events: Sequence[Event], step: int) -> Snapshot:
    """The picture of the search after its first ``step`` events (0: nothing yet; len(events): done).

    A pure replay of ``events`` (recorded on ``tree``); no search is run. For many steps of one
    trace, build a :class:`Replay` once and call its ``snapshot``. Raises ReplayError for a step
    outside 0..len(events) or an event naming a node that is not in the tree.

    >>> from gamelib.games.trees import tree_from_dict
    >>> from gamelib.search.tracing import RecordingTracer
    >>> from gamelib.search.negamax import minimax
    >>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> tracer = RecordingTracer()
    >>> _ = minimax(tree, tracer=tracer)
    >>> done = snapshot(tree, tracer.events, len(tracer.events))
    >>> done.value["a"], done.best_move["a"], done.nodes_entered, done.finished
    (2, 'c', 3, True)
    """
    return Replay(tree, events).snapshot(step)


def _positions(nodes: Sequence[str]) -> str:
    names = [str(node) for node in nodes]
    if len(names) == 1:
        return f"position {names[0]} is never searched"
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"positions {listed} are never searched"


def cut_reason(event: Cutoff) -> str:
    """Why a cutoff happened, MAX's view: "3 <= alpha 4" at a MIN node, "4 >= beta 4" at a MAX node.

    >>> cut_reason(Cutoff("8", 3, 4, 15, ("18",)))
    '3 <= alpha 4'
    """
    value = format_value(event.value)
    if event.value <= event.alpha:
        return f"{value} <= alpha {format_value(event.alpha)}"
    if event.value >= event.beta:
        return f"{value} >= beta {format_value(event.beta)}"
    return f"value {value}"


def cutoff_that_pruned(tree: GameTree, events: Sequence[Event], node: str) -> tuple[Cutoff, str] | None:
    """The first cutoff in ``events`` whose skipped children include ``node`` or an ancestor of it,
    with that skipped child; None if no cutoff removed ``node``. A pure reading of the trace.

    >>> from gamelib.games.data import load_seed_tree
    >>> from gamelib.search.negamax import alphabeta
    >>> from gamelib.search.tracing import RecordingTracer
    >>> tree, tracer = load_seed_tree("broeders31"), RecordingTracer()
    >>> _ = alphabeta(tree, tracer=tracer)
    >>> cut, child = cutoff_that_pruned(tree, tracer.events, "29")
    >>> cut.node, child, cut_reason(cut)
    ('2', '6', '4 <= alpha 4')
    """
    for event in events:
        if isinstance(event, Cutoff):
            for skipped in event.skipped:
                if node in tree.subtree_breadth_first(node=skipped):
                    return event, skipped
    return None


def cutoff_distances(events: Sequence[Event]) -> list[tuple[Cutoff, int | None]]:
    """Each cutoff in an alpha-beta trace, with how many plies above the cut node the bound that
    caused it was set: 1 when the parent set it (a shallow cutoff), 3 or more for a **deep cutoff**
    (Knuth & Moore 1975: the bound comes from the great-grandparent or higher; the grandparent moves
    for the cut node's own side and sets only the other bound), None when it is the root's
    starting window. A pure reading of the Enter events: a MIN node cuts on alpha, a MAX node on
    beta, and that bound was set by the nearest ancestor entered with a different value of it
    (alpha only rises, beta only falls, on the way down).

    >>> from gamelib.games.data import load_seed_tree
    >>> from gamelib.search.negamax import alphabeta
    >>> from gamelib.search.tracing import RecordingTracer
    >>> tracer = RecordingTracer()
    >>> _ = alphabeta(load_seed_tree("broeders31"), tracer=tracer)
    >>> [(cut.node, plies) for cut, plies in cutoff_distances(tracer.events)]
    [('8', 1), ('4', 1), ('11', 3), ('12', 3), ('2', 1)]
    """
    path: list[Enter] = []
    found: list[tuple[Cutoff, int | None]] = []
    for event in events:
        if isinstance(event, Enter):
            path.append(event)
        elif isinstance(event, Exit):
            path.pop()
        elif isinstance(event, Cutoff):
            bound = "alpha" if path[-1].player is Player.MIN else "beta"
            value = getattr(event, bound)
            found.append((event, next((plies for plies, above in enumerate(reversed(path[:-1]), start=1)
                                       if getattr(above, bound) != value), None)))
    return found


def _describe_cutoff(event: Cutoff) -> str:
    return f"pos {event.node}: {cut_reason(event)}, cut: {_positions(event.skipped)}"


_BOUND_WORDS = {Bound.EXACT: "", Bound.LOWER: " (lower bound)", Bound.UPPER: " (upper bound)"}


def _window(alpha: Value, beta: Value) -> str:
    return f"({format_value(alpha)}, {format_value(beta)})"


def payoff_text(payoffs: Sequence[Value], separator: str = ", ") -> str:
    """A payoff vector as text, one entry a player: "(7, 5, 3)" (pictures: ``separator=","``).

    >>> payoff_text((7, 5, 3.5)), payoff_text((7, 5, 3), ",")
    ('(7, 5, 3.5)', '(7,5,3)')
    """
    return "(" + separator.join(format_value(value) for value in payoffs) + ")"


def hit_window(hit: TableHit, window: tuple[Value, Value], root: bool) -> tuple[Value, Value]:
    """The window (alpha, beta; MAX's view) a node entered with ``window`` is searched in after the
    table hit ``hit`` that did not settle it: a lower bound raises alpha to it and an upper bound
    lowers beta to it, where the bound lies inside the window; outside the window a bound changes
    nothing. At the ``root`` only an exact entry is used (see ``SearchContext.read`` in
    :mod:`gamelib.search.negamax`), so a bound leaves the window as it is and supplies only a move.

    >>> hit = TableHit("b", None, 0, Bound.LOWER, "c", False)
    >>> hit_window(hit, (-1, 1), root=False), hit_window(hit, (0, 1), root=False), hit_window(hit, (-1, 1), root=True)
    ((0, 1), (0, 1), (-1, 1))
    """
    alpha, beta = window
    if root:
        return alpha, beta
    if hit.bound is not Bound.UPPER:
        alpha = max(alpha, hit.value)
    if hit.bound is not Bound.LOWER:
        beta = min(beta, hit.value)
    return alpha, beta


def _describe_hit(event: TableHit, entered: Event | None) -> str:
    said = f"pos {event.node}: table hit, value {format_value(event.value)}{_BOUND_WORDS[event.bound]}, "
    if event.cutoff:
        return said + "settles it"
    if (not isinstance(entered, Enter) or entered.node != event.node or entered.alpha is None
            or entered.beta is None):
        return said + "does not settle it"
    before = entered.alpha, entered.beta
    if not entered.ply:
        return said + (f"does not settle it: at the root only an exact entry is used, so the window stays "
                       f"{_window(*before)}")
    after = hit_window(event, before, root=False)
    if after == before:
        return said + f"does not settle it and leaves the window {_window(*before)} as it is"
    return said + f"does not settle it, narrows the window {_window(*before)} to {_window(*after)}"


def describe(event: Event | None, entered: Event | None = None) -> str:
    """One event in words, in Broeders' vocabulary ("pos" for a node); values from MAX's view.

    A table hit that does not settle its node is told as such; given ``entered``, the Enter event
    of the hit's node (in a trace, the event just before the hit), the words also say what the hit
    did to the window: nothing at the root, where only an exact entry is used, and below it
    whether a bound narrowed the window or lay outside it (:func:`hit_window`).

    >>> from gamelib.games.game import Player
    >>> describe(Enter("16", 4, Player.MAX, 0, 4))
    'enter pos 16 with alpha = 0, beta = 4'
    >>> describe(Exit("8", 3, Bound.UPPER, "17"))
    'leave pos 8 with value 3 (upper bound)'
    >>> hit = TableHit("b", None, 0, Bound.LOWER, "c", False)
    >>> describe(hit)
    'pos b: table hit, value 0 (lower bound), does not settle it'
    >>> describe(hit, Enter("b", 1, Player.MIN, -1, 1))
    'pos b: table hit, value 0 (lower bound), does not settle it, narrows the window (-1, 1) to (0, 1)'
    """
    if event is None:
        return "nothing searched yet"
    if isinstance(event, MCTS_EVENTS):
        return describe_mcts(event)
    if isinstance(event, MaxnEnter) and event.mover is not None:
        return f"enter pos {event.node} (player {event.mover} to move)"
    if isinstance(event, Enter):
        if event.alpha is None and event.beta is None:
            return f"enter pos {event.node}"
        return f"enter pos {event.node} with alpha = {format_value(event.alpha)}, beta = {format_value(event.beta)}"
    if isinstance(event, Leaf):
        return f"pos {event.node} is a leaf: value {format_value(event.value)}"
    if isinstance(event, Cutoff):
        return _describe_cutoff(event)
    if isinstance(event, BestMove):
        return f"pos {event.node}: best move so far {event.move} (value {format_value(event.value)})"
    if isinstance(event, NullWindow):
        return f"pos {event.node}: test move {event.move} with the null window {_window(event.alpha, event.beta)}"
    if isinstance(event, FailHigh):
        return f"pos {event.node}: move {event.move} fails high with {format_value(event.value)}: it is better"
    if isinstance(event, Research):
        return (f"pos {event.node}: search move {event.move} again with {_window(*event.window)} "
                f"(the null window was {_window(*event.null_window)})")
    if isinstance(event, TableHit):
        return _describe_hit(event, entered)
    if isinstance(event, MtdPass):
        return (f"MTD(f) pass {event.number}: window {_window(event.alpha, event.beta)} returns "
                f"{format_value(event.value)}; the value lies in [{format_value(event.lower)}, "
                f"{format_value(event.upper)}]")
    if isinstance(event, Iteration):
        return f"depth {event.depth} done: value {format_value(event.value)}, best move {event.move}"
    if isinstance(event, ChanceSum):
        return (f"pos {event.node}: add {event.child}'s value {format_value(event.child_value)} times "
                f"{format_value(event.probability)}: the sum is {format_value(event.partial_sum)}")
    if isinstance(event, MaxnLeaf):
        return f"pos {event.node} is a leaf: payoffs {payoff_text(event.payoffs)}"
    if isinstance(event, MaxnBest):
        return (f"pos {event.node}: best move so far for player {event.mover} {event.move} "
                f"(payoffs {payoff_text(event.payoffs)})")
    if isinstance(event, MaxnExit):
        return f"leave pos {event.node} with payoffs {payoff_text(event.payoffs)}"
    return f"leave pos {event.node} with value {format_value(event.value)}{_BOUND_WORDS[event.bound]}"
