"""Replay a Monte Carlo tree search's trace: the tree after its first ``step`` events.

Like :mod:`gamelib.view.replay` for alpha-beta, this never runs a search: it
reads the MctsSelect, MctsExpand, MctsRollout and MctsBackup events a
:class:`~gamelib.search.tracing.RecordingTracer` recorded during :func:`gamelib.search.mcts.mcts`, and
adds them up. A node of the search tree is named by its path, the node ids from the root (the same
position reached by two move orders is two nodes of the search tree). Each snapshot gives every
node's visits and mean reward for MAX, the UCB1 score of each edge at the latest selection through
its parent (as the event recorded it, for the side to move at the parent), and the current
iteration's phase, selected path, new node and rollout.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.mcts import mcts
>>> from gamelib.search.tracing import RecordingTracer
>>> tree, tracer = load_seed_tree("broeders31"), RecordingTracer()
>>> result = mcts(tree, iterations=20, seed=1, tracer=tracer)
>>> done = MctsReplay(tracer.events).snapshot(len(tracer.events))
>>> done.visits[("0",)], done.iteration, len(done.visits) == result.nodes
(20, 20, True)
>>> [done.visits[("0", move)] for move, _ in result.visits] == [visits for _, visits in result.visits]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from gamelib.games.game import Player, Value, format_value
from gamelib.search.tracing import (
    MCTS_EVENTS,
    Event,
    MctsBackup,
    MctsExpand,
    MctsRollout,
    MctsSelect,
)

__all__ = ["MctsEvent", "MctsReplay", "MctsReplayError", "MctsSnapshot", "Path", "Phase", "describe_mcts", "root_choices",
           "settled_at"]

Path = tuple[str, ...]
"""A node of the search tree: the node ids from the root to it, root first."""

MctsEvent = MctsSelect | MctsExpand | MctsRollout | MctsBackup
"""An event of a Monte Carlo tree search."""


class MctsReplayError(ValueError):
    """A trace that is not a Monte Carlo tree search's, or a step outside the trace."""


class Phase(str, Enum):
    """The phase of an iteration an event belongs to (Kocsis & Szepesvári's UCT, four phases)."""

    SELECT = "select"
    EXPAND = "expand"
    ROLLOUT = "rollout"
    BACKUP = "backup"


_PHASES: dict[type, Phase] = {MctsSelect: Phase.SELECT, MctsExpand: Phase.EXPAND, MctsRollout: Phase.ROLLOUT,
                              MctsBackup: Phase.BACKUP}


@dataclass(frozen=True)
class MctsSnapshot:
    """The search tree after the first ``step`` of ``total`` events (0: only the root).

    ``visits`` maps every node in the tree (a :data:`Path`), in the order they were added, root
    first, to its visits; ``mean`` maps each visited node to its mean reward for MAX in [0, 1];
    ``ucb`` maps a child's path to the UCB1 score of the edge into it at the latest selection
    through its parent, for the side to move at the parent. ``iteration`` and ``phase`` are those
    of event ``step - 1`` (0 and None at step 0); ``selected`` is the current iteration's path so
    far (the root alone before its first selection), ``expanded`` the node it added (None if none
    yet, or the path ended at a terminal node), ``rollout`` its rollout's moves, ``value`` (MAX's
    view) and ``reward`` (for MAX) once it has rolled out, else None.
    """

    step: int
    total: int
    event: MctsEvent | None
    iteration: int
    phase: Phase | None
    visits: Mapping[Path, int]
    mean: Mapping[Path, float]
    ucb: Mapping[Path, float]
    selected: Path
    expanded: Path | None
    rollout: tuple[str, ...] | None
    value: Value | None
    reward: float | None

    @property
    def finished(self) -> bool:
        """True once every event has been replayed."""
        return self.step == self.total

    def children(self, node: Path) -> list[Path]:
        """The children of ``node`` in the tree so far, in the order they were added."""
        return [path for path in self.visits if len(path) == len(node) + 1 and path[:-1] == node]


class MctsReplay:
    """A Monte Carlo tree search's trace, ready to show at any step.

    A snapshot adds up the events before it: its cost is linear in ``step`` (about a microsecond
    an event). Raises MctsReplayError if a trace is empty of MCTS events or holds others.
    """

    def __init__(self, events: Sequence[Event]) -> None:
        if not events or not all(isinstance(event, MCTS_EVENTS) for event in events):
            raise MctsReplayError("not a Monte Carlo tree search's trace: record one with "
                                  "gamelib.search.mcts.mcts(..., tracer=RecordingTracer())")
        self.events: tuple[MctsEvent, ...] = tuple(event for event in events if isinstance(event, MCTS_EVENTS))
        self.root: Path = self.events[0].path[:1]

    def __len__(self) -> int:
        return len(self.events)

    def snapshot(self, step: int) -> MctsSnapshot:
        """The tree after the first ``step`` events; raises MctsReplayError unless 0 <= step <= len."""
        if not 0 <= step <= len(self.events):
            raise MctsReplayError(f"step {step} is outside this trace: give 0..{len(self.events)}")
        visits: dict[Path, int] = {self.root: 0}
        totals: dict[Path, float] = {}
        ucb: dict[Path, float] = {}
        for event in self.events[:step]:
            _apply(event, visits, totals, ucb)
        latest = self.events[step - 1] if step else None
        current = _current(self.events[:step], latest)
        rollout = next((each for each in current if isinstance(each, MctsRollout)), None)
        expanded = next((each for each in current if isinstance(each, MctsExpand)), None)
        selects = [each for each in current if isinstance(each, MctsSelect)]
        selected = (selects[-1].path + (selects[-1].child,) if selects else self.root)
        return MctsSnapshot(
            step, len(self.events), latest, 0 if latest is None else latest.iteration,
            None if latest is None else _PHASES[type(latest)], visits,
            {node: totals[node] / count for node, count in visits.items() if count}, ucb, selected,
            None if expanded is None else expanded.path + (expanded.child,),
            None if rollout is None else rollout.moves, None if rollout is None else rollout.value,
            None if rollout is None else rollout.reward)


def _apply(event: MctsEvent, visits: dict[Path, int], totals: dict[Path, float], ucb: dict[Path, float]) -> None:
    """Add one event to the tree's counts."""
    if isinstance(event, MctsSelect):
        for child, score in zip(event.children, event.scores):
            ucb[event.path + (child,)] = score
    elif isinstance(event, MctsExpand):
        visits[event.path + (event.child,)] = 0
    elif isinstance(event, MctsBackup):
        for end in range(1, len(event.path) + 1):
            node = event.path[:end]
            visits[node] += 1
            totals[node] = totals.get(node, 0.0) + event.reward


def _current(replayed: Sequence[MctsEvent], event: MctsEvent | None) -> list[MctsEvent]:
    """The events of ``event``'s iteration among ``replayed`` (the iteration shown)."""
    if event is None:
        return []
    start = len(replayed)
    while start and replayed[start - 1].iteration == event.iteration:
        start -= 1
    return list(replayed[start:])


def _score(value: float) -> str:
    return f"{value:.3f}"


def describe_mcts(event: MctsEvent, *, iteration: bool = True) -> str:
    """One MCTS event in words, after its iteration's number (unless ``iteration`` is False: for a
    caption that says the iteration already); a node is named by its id (the last of its path).

    >>> describe_mcts(MctsSelect(3, ("0",), ("1", "2"), (1.823, 1.2094), "1"))
    'iteration 3, select: at 0 go to 1, UCB1 1.823 (1: 1.823, 2: 1.209)'
    >>> describe_mcts(MctsBackup(3, ("0", "1", "3"), 0.25))
    'iteration 3, back up reward 0.250 for MAX to 0 > 1 > 3'
    """
    head = f"iteration {event.iteration}, " if iteration else ""
    if isinstance(event, MctsSelect):
        scores = ", ".join(f"{child}: {_score(score)}" for child, score in zip(event.children, event.scores))
        chosen = event.scores[event.children.index(event.child)]
        return f"{head}select: at {event.path[-1]} go to {event.child}, UCB1 {_score(chosen)} ({scores})"
    if isinstance(event, MctsExpand):
        return f"{head}expand: add {event.child} under {event.path[-1]}"
    if isinstance(event, MctsRollout):
        moves = f"{len(event.moves)} random moves ({' '.join(event.moves)})" if event.moves else "no moves"
        return (f"{head}rollout from {event.path[-1]}: {moves}, value {format_value(event.value)}, "
                f"reward {_score(event.reward)} for MAX")
    return f"{head}back up reward {_score(event.reward)} for MAX to {' > '.join(event.path)}"


def root_choices(events: Sequence[Event], to_move: Player) -> list[str]:
    """The root move the search would play after each iteration of a recorded search: element
    i - 1 is the most visited root move after iteration i (ties: the higher mean for ``to_move``,
    the side to move at the root, then the first added, which is the first in legal-move order),
    as :func:`gamelib.search.mcts.mcts` chooses, read from the backups. A move is its node id.
    Raises MctsReplayError for a trace that is not an MCTS trace.

    >>> from gamelib.games.data import load_seed_tree
    >>> from gamelib.search.mcts import mcts
    >>> from gamelib.search.tracing import RecordingTracer
    >>> tracer = RecordingTracer()
    >>> result = mcts(load_seed_tree("broeders31"), iterations=30, seed=1, tracer=tracer)
    >>> choices = root_choices(tracer.events, Player.MAX)
    >>> len(choices), choices[-1] == result.move
    (30, True)
    """
    replay = MctsReplay(events)
    visits: dict[str, int] = {}
    totals: dict[str, float] = {}
    choices: list[str] = []
    for event in replay.events:
        if isinstance(event, MctsBackup) and len(event.path) > 1:
            move = event.path[1]
            visits[move] = visits.get(move, 0) + 1
            totals[move] = totals.get(move, 0.0) + event.reward
        if isinstance(event, MctsBackup):
            choices.append(max(visits, key=lambda each: (visits[each], to_move.sign * totals[each] / visits[each])))
    return choices


def settled_at(choices: Sequence[str], move: str) -> int | None:
    """The first iteration (1-based) from which every choice in ``choices`` (one per iteration, as
    :func:`root_choices` gives them) is ``move``; None if the last one is not.

    >>> settled_at(["1", "2", "1", "1"], "1"), settled_at(["1", "2"], "1")
    (3, None)
    """
    if not choices or choices[-1] != move:
        return None
    start = len(choices)
    while start and choices[start - 1] == move:
        start -= 1
    return start + 1
