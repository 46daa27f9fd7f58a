"""The lessons' programming exercises: each is checked on a set of trees against the reference trace.

An :class:`Exercise` names the function the student writes (a plain function over the tree API:
``is_terminal``, ``evaluate``, ``to_move``, ``children_of``), the lesson it belongs to, and the
trees it is checked on: a seed's tree, textbook trees, and seeded random trees chosen to catch
what Broeders' tree does not (uneven branching, ties, MIN to move at the root).
:func:`check_exercise` runs the student's function on every tree with :mod:`gamelib.teach.checker` and
stops at the first tree where the visit order or the value departs from the reference; in Jupyter
the report shows that tree drawn up to the departure. The answers live outside the lessons, in
the repository's ``solutions/`` folder.

>>> from gamelib.teach.mistakes import alphabeta_forgets_to_raise_alpha
>>> report = check_exercise("alphabeta", alphabeta_forgets_to_raise_alpha)
>>> report.ok, report.tree_name, report.failure.node
(False, "Broeders' 31-node binary tree", '18')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol

from gamelib.games.data import load_seed_tree
from gamelib.games.multiplayer import MultiPlayerTree, as_players_tree
from gamelib.games.tree_text import TreeTextError, write_tree_text
from gamelib.games.trees import GameTree
from gamelib.play.box.answers import Answers, run_student
from gamelib.search.random_trees import random_multiplayer_tree, random_tree
from gamelib.teach.checker import CheckReport, MaxnReferee, MctsReferee, SearchReferee
from gamelib.view.picture import RIGHT_INK

__all__ = ["EXERCISES", "IN_PROCESS", "MAX_SEED", "SEEDED_BASE", "SHOWN_OUTPUT_CHARACTERS", "Exercise", "ExerciseReport",
           "Referee", "UnknownExerciseError", "Verdict", "check_exercise", "exercise_trees"]


class UnknownExerciseError(ValueError):
    """No exercise has that name; the message lists the names."""


class Referee(Protocol):
    """The trusted side of an exercise on one tree: ``call`` says how the student's function is
    called (:func:`gamelib.play.box.answers.run_student`), :meth:`answer` answers the questions the
    student's side asks while it runs (the MCTS exercise's rollouts), :meth:`judge` judges its raw
    answers against the reference."""

    @property
    def call(self) -> Mapping[str, Any]: ...

    def answer(self, question: Any) -> Any: ...

    def judge(self, answers: Answers) -> CheckReport: ...


@dataclass(frozen=True)
class Exercise:
    """A programming exercise: ``function`` is the student's function's name and signature,
    ``lesson`` the notebook, ``trees`` builds the trees it is checked on, ``referee(tree)`` makes the
    trusted side of a check on one tree (:class:`Referee`). ``api`` is the part of the tree API the
    starter code names in a comment ("" for the minimax and alpha-beta one). ``seeded(seed_of)`` builds
    trees of the same shapes as the random ones of ``trees``, the i-th from seed ``seed_of(i)``
    (:func:`exercise_trees`)."""

    name: str
    lesson: str
    function: str
    trees: Callable[[], tuple[GameTree, ...]]
    referee: Callable[[GameTree], Referee]
    api: str = ""
    seeded: Callable[[Callable[[int], int]], tuple[GameTree, ...]] | None = None

    def check(self, student: Any, tree: GameTree) -> CheckReport:
        """Run ``student`` on ``tree`` in this process and judge it (for a trusted function, such as
        a lesson's mistakes; a student's typed code goes through :mod:`gamelib.teach.code_check`)."""
        referee = self.referee(tree)
        return referee.judge(run_student(student, tree, referee.call, referee.answer))


def _seeds(*seeds: int) -> Callable[[int], int]:
    """The i-th random tree's seed among the exercise's own trees."""
    return lambda index: seeds[index]


# Each exercise's random trees, the i-th drawn from seed_of(i): its own trees with the seeds below, and the
# grader's unseen ones (exercise_trees) with others, so both are of the same shapes.

def _minimax_seeded(seed_of: Callable[[int], int]) -> tuple[GameTree, ...]:
    return (random_tree(3, 3, seed=seed_of(0)), random_tree((1, 3), 4, seed=seed_of(1)),
            random_tree(2, 3, seed=seed_of(2), to_move="min"))


def _alphabeta_seeded(seed_of: Callable[[int], int]) -> tuple[GameTree, ...]:
    return (random_tree(3, 4, seed=seed_of(0)), random_tree(3, 4, low=0, high=4, seed=seed_of(1)),
            random_tree((1, 3), 4, seed=seed_of(2)), random_tree(2, 4, seed=seed_of(3), to_move="min"))


def _minimax_trees() -> tuple[GameTree, ...]:
    # the last random tree's root moves differ: 50 against 51
    return (load_seed_tree("broeders31"), load_seed_tree("rich_knight_two_ply"), load_seed_tree("negascout_table"),
            *_minimax_seeded(_seeds(1, 2, 4)))


def _alphabeta_trees() -> tuple[GameTree, ...]:
    return (load_seed_tree("broeders31"), *_alphabeta_seeded(_seeds(11, 5, 2, 4)))


def _searched(algorithm: str) -> Callable[[GameTree], Referee]:
    """The referee of a search exercise judged against ``algorithm``'s trace."""
    return lambda tree: SearchReferee(tree, algorithm)


def _rolled_out(tree: GameTree) -> Referee:
    """The MCTS exercise's referee (its iterations, constant and seed)."""
    return MctsReferee(tree)


# Lesson 8: expectiminimax.

def _expectimax_seeded(seed_of: Callable[[int], int]) -> tuple[GameTree, ...]:
    return (random_tree(2, 3, seed=seed_of(0), chance=True), random_tree((1, 3), 4, seed=seed_of(1), chance=True),
            random_tree(3, 2, seed=seed_of(2), chance=True, to_move="min"))


def _expectimax_trees() -> tuple[GameTree, ...]:
    """AIMA's Figure 5.12 (probabilities 0.9 and 0.1: a plain average or a max at chance nodes is
    wrong there), one MAX against two MIN agents (a MIN level taken as MAX is wrong there; no chance
    node), and seeded random trees with chance layers: one even; one uneven, of 34 nodes, whose
    MAX and MIN positions have one, two or three moves and whose chance nodes one, two or three
    outcomes (seed 5: seed 2 gave a six-node chain); one with MIN at the root."""
    return (load_seed_tree("textbook_aima_fig5_12"), load_seed_tree("two_ghosts"),
            *_expectimax_seeded(_seeds(1, 5, 3)))


_CHANCE_API = ("    # tree.is_terminal(node), tree.evaluate(node) (for MAX), tree.to_move(node) (Player.MAX,\n"
               "    # Player.MIN or Player.CHANCE), tree.children_of(node) (in search order),\n"
               "    # tree.chance_outcomes(node) ((child, probability) pairs at a chance node)\n")


EXERCISES: dict[str, Exercise] = {
    "minimax": Exercise("minimax", "01_minimax.ipynb", "my_minimax(tree, node) -> value for MAX",
                        _minimax_trees, _searched("minimax"), seeded=_minimax_seeded),
    "negamax": Exercise("negamax", "01_minimax.ipynb", "my_negamax(tree, node) -> value for the side to move",
                        _minimax_trees, _searched("negamax"), seeded=_minimax_seeded),  # MAX's view, then minimax
    "alphabeta": Exercise("alphabeta", "02_alpha_beta.ipynb",
                          "my_alphabeta(tree, node, alpha, beta) -> value for MAX, window MAX's view "
                          "(fail-hard asked; checked: the positions visited and the root's value)",
                          _alphabeta_trees, _searched("alpha-beta"), seeded=_alphabeta_seeded),
    "expectimax": Exercise("expectimax", "08_chance_and_many_players.ipynb",
                           "my_expectimax(tree, node) -> value for MAX: the largest at MAX, the smallest at MIN, "
                           "the probability-weighted sum at a chance node", _expectimax_trees,
                           _searched("expectiminimax"),
                           _CHANCE_API, seeded=_expectimax_seeded),
}
"""The exercises by name."""


# Lesson 8: max^n, checked node by node (gamelib.teach.checker).

def _maxn_seeded(seed_of: Callable[[int], int]) -> tuple[GameTree, ...]:
    return (random_multiplayer_tree(3, 3, high=3, seed=seed_of(0)),
            random_multiplayer_tree((1, 3), 4, high=3, seed=seed_of(1)),
            random_multiplayer_tree(2, 4, players=4, seed=seed_of(2)))


def _maxn_trees() -> tuple[GameTree, ...]:
    """The lesson's three-player tree; two random three-player trees with payoffs 0 to 3, so that
    children tie for the player moving and differ for the others (max^n keeps the first), the second
    with uneven branching; a random four-player tree with payoffs 0 to 9; and Broeders' tree as a
    tree of two players, where max^n is minimax (a leaf worth v pays (v, -v))."""
    return (load_seed_tree("three_players"), *_maxn_seeded(_seeds(2, 5, 3)),
            as_players_tree(load_seed_tree("broeders31")))


def _backed_up(tree: GameTree) -> Referee:
    """The max^n exercise's referee."""
    if not isinstance(tree, MultiPlayerTree):
        raise TypeError(f"the max^n exercise checks trees of players, not {tree.name!r}")
    return MaxnReferee(tree)


_PLAYERS_API = ("    # tree.is_terminal(node), tree.payoff(node) (a leaf's payoffs, one a player, player 1 first),\n"
                "    # tree.mover(node) (the player moving there: 1, 2, ...), tree.children_of(node) (in search order)\n")

EXERCISES["maxn"] = Exercise("maxn", "08_chance_and_many_players.ipynb",
                             "my_maxn(tree, node) -> payoffs: player k = tree.mover(node) takes the child whose entry "
                             "k - 1 is largest, the first of equal ones", _maxn_trees, _backed_up, _PLAYERS_API,
                             seeded=_maxn_seeded)


# Lesson 9: Monte Carlo tree search, checked iteration by iteration (gamelib.teach.checker).

def _mcts_seeded(seed_of: Callable[[int], int]) -> tuple[GameTree, ...]:
    return (random_tree(3, 3, seed=seed_of(0)),
            random_tree(2, 4, seed=seed_of(1), to_move="min"),  # MIN chooses at the root: its rewards are 1 - MAX's
            random_tree((1, 3), 4, seed=seed_of(2)))  # uneven branching: leaves reached by selection


def _mcts_trees() -> tuple[GameTree, ...]:
    return (load_seed_tree("broeders31"), *_mcts_seeded(_seeds(1, 4, 2)),
            random_tree(4, 2, seed=16))  # after 40 iterations the most visited move (2) has not the best mean (4)


EXERCISES["mcts"] = Exercise("mcts", "09_monte_carlo_tree_search.ipynb",
                             "my_mcts(tree, root, iterations, c, rollout) -> root's most visited move",
                             _mcts_trees, _rolled_out, seeded=_mcts_seeded)

MAX_SEED = 1_000_000
"""The largest ``seed`` of :func:`exercise_trees` (``--seed``)."""

SEEDED_BASE = 1_000_000
"""The seeded trees' random seeds start here, far above any seed a lesson or the exercises' own trees use."""


def exercise_trees(name: str, seed: int | None = None) -> tuple[GameTree, ...]:
    """The trees exercise ``name`` is graded on: its own (the lessons' and the checker's, public), and with
    ``seed`` (0 to :data:`MAX_SEED`) trees of the same shapes that no lesson shows, the i-th of them drawn from
    the random seed ``SEEDED_BASE + 16 * seed + i``: a function that hard-codes the public trees' answers fails
    them. Raises UnknownExerciseError for an unknown name, ValueError for a seed out of range."""
    if name not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {name!r}: use one of {', '.join(EXERCISES)}")
    exercise = EXERCISES[name]
    if seed is None or exercise.seeded is None:
        return exercise.trees()
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed is {seed}: give 0 to {MAX_SEED:,}")
    return exercise.trees() + exercise.seeded(lambda index: SEEDED_BASE + 16 * seed + index)


IN_PROCESS = "in this process"
"""The boundary of a check of a trusted function (a lesson's mistakes, the solutions) in this process."""

SHOWN_OUTPUT_CHARACTERS = 5_000
"""How much of what the student's code printed a verdict shows in Jupyter."""


@dataclass(frozen=True)
class Verdict:
    """The one verdict on a student's work for an exercise, however it was checked.

    ``reports`` has one :class:`~gamelib.teach.checker.CheckReport` per tree checked, up to and
    including the first that fails (``failure``, on tree ``tree_name``), out of ``total`` trees;
    ``ok`` if every tree passed. Code that never got that far (a syntax error, an error while it
    ran, a missing function, a time, memory or output limit, unreadable answers) has no reports and
    ``message`` says what went wrong, with the line of the student's code. ``output`` is what the
    code printed (stdout, then stderr), shown under the verdict in Jupyter. ``boundary`` is where
    the code ran: ``"isolated"`` (bubblewrap's box), ``"guard only"``, ``"in the kernel"`` (a
    browser, under a step budget), :data:`IN_PROCESS` (a trusted function), or ``"not run: WHY"``.
    ``unwritten`` says the function is still the lesson's starter (it raised NotImplementedError):
    not an error, so Jupyter shows it in a neutral colour. ``stopped_on`` is the index, among the trees
    checked, of the tree the check stopped on without a report (an error the function raised there, a
    limit it reached there), or None, and ``judged_right`` the number of trees before it judged right (their
    reports are not kept in a verdict without one). In Jupyter it shows the verdict and, on a departure, the tree
    drawn up to it."""

    exercise: str
    reports: tuple[CheckReport, ...] = ()
    tree_names: tuple[str, ...] = ()
    total: int = 0
    message: str = ""
    output: str = ""
    boundary: str = IN_PROCESS
    unwritten: bool = False
    stopped_on: int | None = None
    judged_right: int = 0

    @property
    def ok(self) -> bool:
        """True if the student's function agrees with the reference on every tree."""
        return bool(self.reports) and len(self.reports) == self.total and all(report.ok for report in self.reports)

    @property
    def ran(self) -> bool:
        """True if the check judged the function on at least one tree (else ``message`` says why not)."""
        return bool(self.reports)

    @property
    def report(self) -> Verdict | None:
        """This verdict if the function was judged on its trees, else None (the name the lessons
        and the app used for the per-tree part of a verdict)."""
        return self if self.reports else None

    @property
    def failure(self) -> CheckReport | None:
        """The report of the first tree that failed, or None."""
        return None if self.ok or not self.reports else self.reports[-1]

    @property
    def tree_name(self) -> str | None:
        """The name of the first tree that failed, or None."""
        return None if self.ok or not self.reports else self.tree_names[-1]

    @property
    def tree_text(self) -> str | None:
        """The first tree that failed in the course's text notation (:mod:`gamelib.games.tree_text`,
        which reads it back), so that it can be drawn and searched by hand; None if no tree failed,
        or for a tree the notation cannot hold (chance nodes, several players)."""
        failure = self.failure
        if failure is None or failure.tree is None or len(failure.tree.to_dict().get("payoffs", {})):
            return None
        try:
            return write_tree_text(failure.tree.to_dict())
        except TreeTextError:
            return None

    @property
    def failure_text(self) -> str:
        """What went wrong on the first tree that failed, and the tree in text where it has one."""
        if self.failure is None:
            return ""
        tree = self.tree_text
        return str(self.failure) + (f" The tree ({self.tree_name}): {tree}" if tree else "")

    def __str__(self) -> str:
        if self.ok:
            return f"{self.exercise}: right on all {self.total} trees."
        if not self.reports:
            return f"{self.exercise}: {self.message}"
        return f"{self.exercise}, tree {len(self.reports)} of {self.total} ({self.tree_name}): {self.failure_text}"

    def _repr_html_(self) -> str:
        if self.ok:
            verdict = f'<p style="color:{RIGHT_INK}"><b>{escape(str(self))}</b></p>'
        elif self.reports:
            tree = self.tree_text
            verdict = (f"<p><b>{escape(self.exercise)}</b>: tree {len(self.reports)} of {self.total}, "
                       f"{escape(self.tree_name or '')}</p>" + self.reports[-1]._repr_html_()
                       + (f"<p>The tree in the course's text notation: <code>{escape(tree)}</code></p>"
                          if tree else ""))
        else:
            # a starter not yet written is no error: grey and italic
            colour = "#767676; font-style:italic" if self.unwritten else "#b2182b"
            verdict = f'<pre style="color:{colour}; white-space:pre-wrap">{escape(self.message)}</pre>'
        return verdict + _printed_html(self.output)


ExerciseReport = Verdict
"""The verdict's earlier name for a check in this process (kept while older notebooks use it)."""


def _printed_html(output: str) -> str:
    """What the student's code printed, folded under the verdict (the first
    :data:`SHOWN_OUTPUT_CHARACTERS`), or nothing."""
    if not output:
        return ""
    cut = output[:SHOWN_OUTPUT_CHARACTERS]
    more = f"\n... ({len(output) - len(cut):,} more characters)" if len(output) > len(cut) else ""
    return (f'<details class="gamelib-printed"><summary>what your code printed</summary>'
            f'<pre style="white-space:pre-wrap">{escape(cut + more)}</pre></details>')


def check_exercise(name: str, student: Any) -> Verdict:
    """Check the student's function for exercise ``name`` (a key of :data:`EXERCISES`) on each of
    its trees in turn, stopping at the first tree where it departs from the reference. Raises
    UnknownExerciseError for an unknown name; whatever the student's function raises (say,
    NotImplementedError) goes through unchanged."""
    if name not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {name!r}: use one of {', '.join(EXERCISES)}")
    exercise = EXERCISES[name]
    trees = exercise.trees()
    reports: list[CheckReport] = []
    for tree in trees:
        reports.append(exercise.check(student, tree))
        if not reports[-1].ok:
            break
    return Verdict(name, tuple(reports), tuple(tree.name for tree in trees[:len(reports)]), len(trees))
