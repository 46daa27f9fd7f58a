"""Check a student's Monte Carlo tree search against the traced UCT search, iteration by iteration.

The student writes ``my_mcts(tree, root, iterations, c, rollout)``: UCT from ``root`` (selection
by UCB1 with constant ``c``, expansion of the next untried child in ``tree.children_of`` order,
one rollout, backup), returning the root's most visited move. The checker hands in ``rollout``,
the seeded random game: ``rollout(node)`` returns MAX's reward in [0, 1], the one
:func:`gamelib.search.mcts.mcts` got from that iteration's rollout. So the only randomness is the
checker's, and each iteration's rollout position says where the student's selection and expansion
led. The first iteration whose rollout starts elsewhere than the reference's is the departure: the
message says, from the reference's trace, where the two paths part and why (UCB1 scores at the node,
an untried move to expand first, a new node rolled out at once). If every rollout agrees, the
returned move is compared with the search's most visited move.

>>> from gamelib.games.data import load_seed_tree
>>> def first_move_always(tree, root, iterations, c, rollout):
...     return tree.children_of(root)[0]
>>> print(check_mcts(first_move_always, load_seed_tree("broeders31")).message)
Iteration 1: your search never calls rollout. UCT rolls out once an iteration, 40 in all; in iteration 1 it adds 1 under 0 (its first untried move) and rolls out from 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamelib.games.game import Player
from gamelib.games.trees import GameTree
from gamelib.search.mcts import DEFAULT_C, MctsResult, mcts
from gamelib.search.tracing import Event, MctsExpand, MctsRollout, MctsSelect, RecordingTracer
from gamelib.play.box.answers import Answers, run_student
from gamelib.teach.checker import CheckReport, first_departure
from gamelib.view.mcts_picture import mcts_svg
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot

__all__ = ["EXERCISE_C", "EXERCISE_ITERATIONS", "EXERCISE_SEED", "MctsCheckReport", "MctsReferee", "check_mcts"]

EXERCISE_ITERATIONS = 40
"""The iterations the exercise runs on each tree: enough to select through two levels."""

EXERCISE_C = DEFAULT_C
"""UCB1's constant in the exercise: sqrt(2), Auer et al.'s."""

EXERCISE_SEED = 0
"""The seed of the exercise's rollouts."""

StudentMcts = Callable[[Any, str, int, float, Callable[[str], float]], Any]


@dataclass(frozen=True)
class MctsCheckReport(CheckReport):
    """A :class:`~gamelib.teach.checker.CheckReport` for the MCTS exercise: ``student_visits`` and
    ``reference_visits`` are the positions rolled out from, one an iteration; ``step`` the first
    iteration where they differ; ``student_value`` and ``reference_value`` the root moves returned.
    Its picture is the reference search in that iteration (:func:`~gamelib.view.mcts_picture.mcts_svg`):
    UCT's selected path and new node in orange, its rollout in green."""

    def picture_step(self) -> int:
        """The step of the reference trace shown: the rollout of the departing iteration (the
        whole trace if the search agrees up to the end)."""
        rollouts = [index + 1 for index, event in enumerate(self.reference_events) if isinstance(event, MctsRollout)]
        if self.step is None or self.step > len(rollouts):
            return len(self.reference_events)
        return rollouts[self.step - 1]

    def picture(self) -> str:
        """SVG text: the reference search at :meth:`picture_step`. Raises ValueError without a tree."""
        if self.tree is None:
            raise ValueError("this report has no tree to draw: make it with check_mcts")
        return mcts_svg(self.tree, MctsReplay(self.reference_events).snapshot(self.picture_step()))


def check_mcts(student: StudentMcts, tree: GameTree, *, iterations: int = EXERCISE_ITERATIONS,
               c: float = EXERCISE_C, seed: int = EXERCISE_SEED) -> MctsCheckReport:
    """Run ``student(tree, tree.root, iterations, c, rollout)`` on a watched copy of ``tree`` and
    compare, iteration by iteration, the positions it rolls out from with those of
    :func:`gamelib.search.mcts.mcts` (``reward="value"``, the same ``iterations``, ``c`` and
    ``seed``), then its returned move with the search's. Whatever the student's function raises
    goes through, except the checker's own stop at a departure."""
    referee = MctsReferee(tree, iterations=iterations, c=c, seed=seed)
    return referee.judge(run_student(student, tree, referee.call, referee.answer))


class MctsReferee:
    """The trusted side of the MCTS check on one tree: it runs the traced reference search, answers
    the student's rollouts (:meth:`answer`: the reward the reference got in that iteration, as long
    as the student rolls out from the reference's position; after that none, which stops the
    student's search) and keeps its own log of them, and judges the returned move. The student's
    side (:func:`gamelib.play.box.answers.run_student`) never sees the reference's positions or rewards
    beyond the rollouts it asked for."""

    def __init__(self, tree: GameTree, *, iterations: int = EXERCISE_ITERATIONS, c: float = EXERCISE_C,
                 seed: int = EXERCISE_SEED) -> None:
        tracer = RecordingTracer()
        self.tree, self.result = tree, mcts(tree, iterations=iterations, c=c, seed=seed, tracer=tracer)
        self.events = tracer.events
        self.rollouts = [event for event in self.events if isinstance(event, MctsRollout)]
        self.called: list[str] = []
        self.call = {"kind": "mcts", "iterations": iterations, "c": c}

    @property
    def departed(self) -> bool:
        """True once a rollout has left the reference's positions (or gone past its budget)."""
        return any(mine != theirs.path[-1] for mine, theirs in zip(self.called, self.rollouts)) or (
            len(self.called) > len(self.rollouts))

    def answer(self, question: Any) -> Any:
        """``{"reward": r}`` for a rollout (``{"rollout": node}``) from the reference's position of
        that iteration, before any departure; else ``{"departed": True}``. The log keeps at most one
        call past the budget."""
        node = question.get("rollout") if isinstance(question, dict) else None
        if not isinstance(node, str):
            return {"departed": True}
        if self.departed:
            return {"departed": True}
        self.called.append(node)
        if self.departed:
            return {"departed": True}
        return {"reward": self.rollouts[len(self.called) - 1].reward}

    def judge(self, answers: Answers) -> MctsCheckReport:
        """The verdict: the first iteration whose rollout departs from the reference's, or a wrong
        returned move, or agreement. The rollouts are this referee's own log; ``answers.value`` is
        the move the student's search returned."""
        called, returned = tuple(self.called), answers.value
        expected = tuple(event.path[-1] for event in self.rollouts)
        message, step = _verdict(self.tree, called, expected, self.events, returned, self.result)
        node = None if step is None else (called[step - 1] if step <= len(called) else expected[step - 1])
        return MctsCheckReport(message.startswith("Your search agrees"), message, step, node, called, expected,
                               returned, self.result.move, self.tree, tuple(self.events))


def _verdict(tree: GameTree, called: Sequence[str], expected: Sequence[str], events: Sequence[Event],
             returned: Any, result: MctsResult) -> tuple[str, int | None]:
    """The message, and the first iteration that departs (None if the rollouts agree)."""
    step = first_departure(called, expected)
    if step is not None:
        return _iteration_words(tree, called, expected, step, events), step + 1
    visits = ", ".join(f"{move}: {count}" for move, count in result.visits)
    if returned != result.move:
        return (f"Your search rolls out from the same positions as UCT in all {len(expected)} iterations, but "
                f"returns {returned!r}; the root's most visited move is {result.move!r} (visits {visits}; on a "
                "tie, the higher mean for the side to move, then the first).", None)
    return (f"Your search agrees with UCT: the same positions rolled out in all {len(expected)} iterations, "
            f"and the most visited move {result.move!r} (visits {visits}).", None)


def _iteration_words(tree: GameTree, called: Sequence[str], expected: Sequence[str], step: int,
               events: Sequence[Event]) -> str:
    """Iteration ``step + 1``'s departure in words, from the reference's trace."""
    head = f"Iteration {step + 1}:"
    if step >= len(expected):
        return (f"{head} your search calls rollout again, but the budget is {len(expected)} iterations, one "
                "rollout each.")
    own = _iteration(events, step + 1)
    theirs = f"UCT {_uct_words(own)}"
    if step >= len(called):
        never = "never calls rollout" if not called else f"stops after {len(called)} rollouts"
        return (f"{head} your search {never}. UCT rolls out once an iteration, {len(expected)} in all; in "
                f"iteration {step + 1} it {_uct_words(own)}.")
    mine = called[step]
    if mine not in tree.players:
        return f"{head} your search calls rollout({mine}), which is not a position of the tree; {theirs}."
    return f"{head} your search rolls out from {mine}, but {theirs}. {_why(tree, mine, own, events)}"


def _iteration(events: Sequence[Event], iteration: int) -> list[Event]:
    """The reference's events of ``iteration``."""
    return [event for event in events if getattr(event, "iteration", None) == iteration]


def _uct_words(own: Sequence[Event]) -> str:
    """What the reference does in one iteration, in words: "selects 2 at 0 and 5 at 2 by UCB1, adds
    11 under 5 (its first untried move) and rolls out from 11"."""
    selects = [f"{event.child} at {event.path[-1]}" for event in own if isinstance(event, MctsSelect)]
    words = [f"selects {' and '.join(selects)} by UCB1"] if selects else []
    expand = next((event for event in own if isinstance(event, MctsExpand)), None)
    rolled = next(event for event in own if isinstance(event, MctsRollout))
    if expand is not None:
        words.append(f"adds {expand.child} under {expand.path[-1]} (its first untried move)")
    else:
        words.append(f"reaches {rolled.path[-1]}, the end of the game, with nothing to add")
    return ", ".join(words) + f" and rolls out from {rolled.path[-1]}"


def _why(tree: GameTree, mine: str, own: Sequence[Event], events: Sequence[Event]) -> str:
    """Where the student's path (root to ``mine``) leaves UCT's, and the rule that decides there."""
    rolled = next(event for event in own if isinstance(event, MctsRollout))
    theirs, path = rolled.path, _path_to(tree, mine)
    shared = next((index for index, (a, b) in enumerate(zip(path, theirs)) if a != b), min(len(path), len(theirs)))
    if shared == len(theirs):
        return (f"UCT stops at {theirs[-1]}: a node just added to the tree (or the end of the game) is rolled out "
                "from at once, not searched below.")
    at = theirs[shared - 1]
    select = next((event for event in own if isinstance(event, MctsSelect) and event.path[-1] == at), None)
    if shared == len(path):
        if select is None:
            return f"{at} still has an untried move: expand it (add its child to the tree) and roll out from the child."
        return f"Every move at {at} has been tried, so UCT selects among them by UCB1 and goes on down."
    if select is None:
        return (f"At {at} UCT expands its next untried move in tree.children_of order, {theirs[shared]}; it selects "
                "by UCB1 only at a node whose moves have all been tried.")
    side = tree.to_move(at)
    before = MctsReplay(events).snapshot(_step_before(events, rolled.iteration))
    return (f"At {at}, {side.name} to move, UCB1 scores the moves for {side.name} "
            f"({_scores(select)}) and takes the highest, {select.child}; you went to {path[shared]}. "
            f"Their visits and mean rewards for MAX before this iteration: {_stats(before, theirs[:shared])}"
            f"{_turned(side)}.")


def _scores(select: MctsSelect) -> str:
    return ", ".join(f"{child}: {score:.4f}" for child, score in zip(select.children, select.scores))


def _stats(snapshot: MctsSnapshot, node: tuple[str, ...]) -> str:
    return ", ".join(f"{child[-1]}: n={snapshot.visits[child]}, q={snapshot.mean.get(child, 0.0):.4f}"
                     for child in snapshot.children(node))


def _turned(side: Player) -> str:
    """A reminder that MIN's mean is 1 - q, where it applies."""
    return "; MIN's mean reward is 1 - q (wins for MIN = n - the sum of MAX's rewards)" if side is Player.MIN else ""


def _step_before(events: Sequence[Event], iteration: int) -> int:
    """The number of events before ``iteration`` starts."""
    return next(index for index, event in enumerate(events) if getattr(event, "iteration", None) == iteration)


def _path_to(tree: GameTree, node: str) -> tuple[str, ...]:
    """The node ids from the root to ``node`` (an explicit tree's ids are unique)."""
    parents = {child: parent for parent, children in tree.children.items() for child in children}
    path = [node]
    while path[-1] in parents:
        path.append(parents[path[-1]])
    return tuple(reversed(path))
