"""The lessons' questions that are not code: predictions, measurements and choices, each checked.

A lesson asks a student to predict what a search will do ("which moves fail high?"), to read a
number off a run or a recorded file ("how many overwrites?"), or to pick the explanation that holds
("why can the narrower window never give a wrong value?"). The student writes the answer in a
variable, ``my_...``, and the check cell calls :func:`check_answer` with the question's name, the
answers (every keyword starting ``my_``) and what the lesson built (the tree, the game, the position,
the summaries: every other keyword). The check works out the truth from a traced run or the data,
never from a stored answer, and returns an :class:`Answer`: one :class:`Line` a part, right, or
"not quite" with what is wrong and why, or, while an answer is still ``None`` (or an empty set where
an empty set cannot be right), a neutral "not written yet" that gives nothing away. Choices are
lettered; a wrong letter is told why that explanation fails, not which one holds.

>>> from gamelib.games.data import load_seed_tree
>>> changed = load_seed_tree("broeders31").with_values({"25": 9, "26": 10})
>>> print(check_answer("root-after-change", my_value=None, my_move=None, tree=changed))
my_value is not written yet: write it above, then run this cell.
my_move is not written yet: write it above, then run this cell.
>>> check_answer("root-after-change", my_value=4, my_move="1", tree=changed).ok
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, neighbour_mask, parse_square, square_name
from gamelib.games.adjacency.board import MAX_ROUNDS
from gamelib.games.data import DATA_DIR
from gamelib.games.game import Game
from gamelib.games.trees import GameTree
from gamelib.play.bots.base import make_bot
from gamelib.play.bots.reservation import ReservationTree
from gamelib.play.entries import Entry, EntryError, load_entries
from gamelib.play.match_stats import MatchSummary, standings
from gamelib.play.records import MatchFileError, read_records
from gamelib.play.tournament import GAMES_FILE, run_tournament
from gamelib.search.deepening import iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import alphabeta, alphabeta_with_memory, minimax, negascout
from gamelib.search.pitfalls import BoundlessTable
from gamelib.search.time_rules import counted_time
from gamelib.search.tracing import Exit, FailHigh, MtdPass, NullWindow, RecordingTracer, Research
from gamelib.search.ttable import TranspositionTable

__all__ = ["QUESTIONS", "Answer", "Choice", "Line", "UnknownQuestionError", "check_answer"]

RIGHT, WRONG, UNWRITTEN = "right", "wrong", "unwritten"
_COLOURS = {RIGHT: "#1a9641", WRONG: "#b2182b", UNWRITTEN: "#4d4d4d"}  # a question not yet answered is no error


class UnknownQuestionError(KeyError):
    """No question has that name."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Line:
    """One part of an answer: ``state`` is ``"right"``, ``"wrong"`` or ``"unwritten"``; ``text``
    says so in words (what is wrong and why, for a wrong part)."""

    state: str
    text: str


@dataclass(frozen=True)
class Answer:
    """The verdict on a student's answers to question ``question``: its :class:`Line` s, in the
    order of the question's parts. ``ok`` when every part is right."""

    question: str
    lines: tuple[Line, ...]

    @property
    def ok(self) -> bool:
        """True when every part is right."""
        return all(line.state == RIGHT for line in self.lines)

    @property
    def unwritten(self) -> bool:
        """True when some part is not written yet."""
        return any(line.state == UNWRITTEN for line in self.lines)

    def __str__(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def _repr_html_(self) -> str:
        return "".join(f'<p style="color:{_COLOURS[line.state]}; white-space:pre-wrap">{escape(line.text)}</p>'
                       for line in self.lines)


@dataclass(frozen=True)
class Choice:
    """A question with lettered explanations: ``options`` maps a letter to an explanation, and
    ``why_not`` a wrong letter to why that explanation fails; ``key`` is the letter that holds."""

    options: Mapping[str, str]
    key: str
    why_not: Mapping[str, str]

    def judge(self, name: str, given: Any, holds: str) -> Line:
        """The line for letter ``given`` of answer ``name``; ``holds`` says, once it is chosen, why the
        right explanation holds."""
        letter = str(given).strip().upper()
        if letter not in self.options:
            return Line(WRONG, f"{name}: choose one of the letters {', '.join(self.options)}, not {given!r}.")
        if letter == self.key:
            return Line(RIGHT, f"{name}: right. {holds}")
        return Line(WRONG, f"{name}: not quite: {self.why_not[letter]}")


Judge = Callable[[Mapping[str, Any], Mapping[str, Any]], list[Line]]
QUESTIONS: dict[str, tuple[tuple[str, ...], Judge]] = {}
"""Every question by name: the answers it takes (``my_...``) and the judge that checks them."""


def check_answer(question: str, **given: Any) -> Answer:
    """Check the answers to ``question`` (a key of :data:`QUESTIONS`). Keywords starting ``my_``
    are the student's answers, ``None`` while not written; the others are what the lesson built
    and the judge needs (a tree, a game, a position). Raises UnknownQuestionError for an unknown
    question and TypeError when an answer the question takes is missing (not None: missing)."""
    if question not in QUESTIONS:
        raise UnknownQuestionError(f"no question {question!r}: use one of {', '.join(QUESTIONS)}")
    names, judge = QUESTIONS[question]
    answers = {name: value for name, value in given.items() if name.startswith("my_")}
    missing = [name for name in names if name not in answers]
    if missing:
        raise TypeError(f"check_answer({question!r}) needs the answers {', '.join(missing)}")
    lines = [Line(UNWRITTEN, f"{name} is not written yet: write it above, then run this cell.")
             for name in names if answers[name] is None]
    if not lines:
        context = {name: value for name, value in given.items() if not name.startswith("my_")}
        lines = judge(answers, context)
    return Answer(question, tuple(lines))


def _question(name: str, *answers: str) -> Callable[[Judge], Judge]:
    def register(judge: Judge) -> Judge:
        QUESTIONS[name] = (answers, judge)
        return judge
    return register


def _set_line(name: str, given: Iterable[Any], right: set[str], what: str, why: str = "") -> Line:
    mine = {str(item) for item in given}
    if mine == right:
        return Line(RIGHT, f"{name}: right.{' ' + why if why else ''}")
    words = {which: " and ".join(sorted(found)) or "none" for which, found in (("mine", mine), ("right", right))}
    return Line(WRONG, f"{name}: not quite: {what} {words['right']}, not {words['mine']}.{' ' + why if why else ''}")


def _equal_line(name: str, given: Any, right: Any, why: str = "") -> Line:
    if given == right:
        return Line(RIGHT, f"{name}: right.{' ' + why if why else ''}")
    return Line(WRONG, f"{name}: not quite: it is {right}, not {given}.{' ' + why if why else ''}")


@_question("root-after-change", "my_value", "my_move")
def _root_after_change(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 1: the root's value and MAX's move on ``tree``, read from a traced minimax."""
    tree: GameTree = context["tree"]
    tracer = RecordingTracer()
    found = minimax(tree, tracer=tracer)
    worth = {event.node: event.value for event in tracer.events
             if isinstance(event, Exit) and event.node in tree.children_of(tree.root)}
    why = ("The root's moves are worth " + " and ".join(f"{value} (to {move})" for move, value in worth.items())
           + f", and MAX takes the larger; the line both sides play is {' → '.join([tree.root, *found.pv])}.")
    return [_equal_line("my_value", answers["my_value"], found.value),
            _equal_line("my_move", str(answers["my_move"]), found.move, why)]


@_question("null-window-tests", "my_tested_at_root", "my_failing_high_at_root")
def _null_window_tests(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 3: the root's moves NegaScout tests with a null window on ``tree``, and those that fail high."""
    tree: GameTree = context["tree"]
    tracer = RecordingTracer()
    negascout(tree, tracer=tracer)
    at_root = [event for event in tracer.events if getattr(event, "node", None) == tree.root]
    tested = {event.move for event in at_root if isinstance(event, NullWindow)}
    high = {event.move for event in at_root if isinstance(event, FailHigh)}
    return [_set_line("my_tested_at_root", answers["my_tested_at_root"], tested, "the root's moves tested with a null window are",
                      "Every move after the first is tested."),
            _set_line("my_failing_high_at_root", answers["my_failing_high_at_root"], high, "the moves failing high are",
                      "A test fails high when the move is worth at least the window's top, more than the best so far.")]


@_question("research-after-change", "my_researched")
def _research_after_change(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 3: the moves NegaScout searches again on ``tree`` (set() for none), from its trace."""
    tree: GameTree = context["tree"]
    tracer = RecordingTracer()
    negascout(tree, tracer=tracer)
    again = {event.move for event in tracer.events if isinstance(event, Research)}
    tests = [event for event in tracer.events if isinstance(event, NullWindow)]
    high = [event for event in tracer.events if isinstance(event, FailHigh)]
    why = (f"NegaScout tests {len(tests)} moves with a null window here and {len(high)} of them fail high"
           + (": " + ", ".join(f"{event.move} at position {event.node}" for event in high) if high else "")
           + "; only a test that fails high, with a value that is not exact, is searched again.")
    return [_set_line("my_researched", answers["my_researched"], again, "the moves searched again are", why)]


NARROW_WINDOW = Choice(
    options={"A": "The test failed high with a value t that is a lower bound: the move is worth at least t, so no "
                  "value below t is left to find.",
             "B": "A narrower window searches fewer nodes, and searching fewer nodes cannot change a value.",
             "C": "The re-search is fail-hard, so it returns the window's edge whatever the window.",
             "D": "The first move is the best one, so the values of the later moves do not matter."},
    key="A",
    why_not={"B": "a window that leaves out a move's true value returns only a bound, not the value: fewer nodes "
                  "can change what comes back. What matters is whether the true value can lie outside the window.",
             "C": "a fail-hard search returns an edge of the window only when the value lies outside it; inside, it "
                  "returns the value. The question is why the value cannot lie below t.",
             "D": "a re-search happens exactly when a later move may be better than the first: its value matters "
                  "then."})


@_question("negascout-or-pvs", "my_fewer_nodes", "my_why")
def _negascout_or_pvs(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 3: which of fail-soft NegaScout and fail-soft PVS enters fewer nodes on ``trees`` (a
    list of trees), counted from their results, and why the narrower window is safe."""
    trees: Sequence[GameTree] = context["trees"]
    nodes = {"NegaScout": sum(negascout(tree, fail_soft=True).nodes for tree in trees),
             "PVS": sum(negascout(tree, pvs=True, fail_soft=True).nodes for tree in trees)}
    fewer = min(nodes, key=nodes.__getitem__)
    counts = ", ".join(f"{name} {total / len(trees):.1f} nodes on average" for name, total in nodes.items())
    saving = 1 - nodes[fewer] / max(nodes.values())
    choice = NARROW_WINDOW.judge("my_why", answers["my_why"], "Fail-soft, a test that fails high returns a lower "
                                 "bound t on the move's value, so (t, beta) still holds it, and t can be far above a.")
    return [_equal_line("my_fewer_nodes", str(answers["my_fewer_nodes"]), fewer,
                        f"Over the {len(trees)} trees: {counts} ({saving:.1%} fewer)."), choice]


@_question("mtdf-passes", "my_passes", "my_windows")
def _mtdf_passes(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 4: the number of MTD(f) passes from ``first_guess`` on ``tree`` and their windows (MAX's view)."""
    tree: GameTree = context["tree"]
    tracer = RecordingTracer()
    mtdf(tree, first_guess=context["first_guess"], tracer=tracer)
    made = [(event.alpha, event.beta) for event in tracer.events if isinstance(event, MtdPass)]
    mine = [tuple(window) for window in answers["my_windows"]]
    lines = [_equal_line("my_passes", answers["my_passes"], len(made))]
    wrong = next((number for number, (guess, window) in enumerate(zip(mine, made), start=1) if guess != window), None)
    if wrong is not None:
        lines.append(Line(WRONG, f"my_windows: not quite: pass {wrong} searches {made[wrong - 1]}, not "
                                 f"{mine[wrong - 1]}; each pass is a null window just below or above the bound "
                                 "the pass before returned."))
    elif len(mine) != len(made):
        lines.append(Line(WRONG, f"my_windows: right as far as they go, but there are {len(made)} passes, not "
                                 f"{len(mine)}."))
    else:
        lines.append(Line(RIGHT, "my_windows: right."))
    return lines


@_question("boundless-memory", "my_wrong_somewhere")
def _boundless_memory(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 4: whether alpha-beta with memory and a table without bound flags gets any of
    ``positions`` of ``game`` wrong, against minimax, and how many MTD(f) gets wrong with it."""
    game: Game[Any, Any] = context["game"]
    positions: Sequence[Any] = context["positions"]
    right = [minimax(game, state).value for state in positions]
    memory = sum(alphabeta_with_memory(game, state, table=BoundlessTable()).value != value
                 for state, value in zip(positions, right))
    by_mtdf = sum(mtdf(game, state, table=BoundlessTable()).value != value for state, value in zip(positions, right))
    why = (f"Alpha-beta with memory gets {memory} of the {len(positions)} positions wrong without bound flags; "
           f"MTD(f) gets {by_mtdf} wrong.")
    return [_equal_line("my_wrong_somewhere", bool(answers["my_wrong_somewhere"]), memory > 0, why)]


@_question("one-slot", "my_value_right", "my_overwrites")
def _one_slot(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 4: alpha-beta with memory solving ``game`` with a table of one slot: is its value
    minimax's, and how many overwrites does the table count."""
    game: Game[Any, Any] = context["game"]
    table = TranspositionTable(size=1)
    value = alphabeta_with_memory(game, table=table).value
    exact = minimax(game).value
    return [_equal_line("my_value_right", bool(answers["my_value_right"]), value == exact,
                        f"With one slot the search finds {value}, minimax {exact}: a table only saves work, and an "
                        "entry overwritten is work done again, never a wrong value."),
            _equal_line("my_overwrites", answers["my_overwrites"], table.stats.overwrites,
                        f"The table stored {table.stats.stores:,} entries in its one slot; each after the first "
                        "overwrote the one before.")]


SAME_PARITY = Choice(
    options={"A": "Depth 2 has no value from two depths back, so its window is centred on depth 1's value, of the "
                  "other parity.",
             "B": "Depth 2 is too shallow for an aspiration window of width 2.",
             "C": "At depth 2 the table is still empty, so the search has no best move to try first."},
    key="A",
    why_not={"B": "a window's width says nothing about the depth; the window fails when the value falls outside it, "
                  "so the question is where it was centred.",
             "C": "depth 1 has filled the table before depth 2 starts; and a move order changes the nodes a search "
                  "enters, never its value, so it cannot make a window fail."})


@_question("same-parity", "my_failing_depths", "my_why")
def _same_parity(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 4: the depths whose aspiration window (width 2, centred two depths back) fails in
    iterative deepening to depth 4 on ``game`` from ``position``, and why."""
    found = iterative_deepening(context["game"], context["position"], 4, search=alphabeta, aspiration=2,
                                same_parity=True, table=TranspositionTable(size=1 << 16))
    failing = {str(depth) for depth, *_ in found.failed_windows}
    values = ", ".join(f"{result.value:+}" for result in found.iterations)
    return [_set_line("my_failing_depths", answers["my_failing_depths"], failing, "the depths that fail are",
                      f"The values by depth are {values}."),
            SAME_PARITY.judge("my_why", answers["my_why"], "Depth d's value is near depth d - 2's, whose last move "
                              "is made by the same side; depth 2 has only depth 1's to go by.")]


@_question("biggest-gain", "my_best_squares")
def _biggest_gain(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 5: the squares with the biggest gain for the side to move in ``position`` of ``game``."""
    game: AdjacencyGame = context["game"]
    position: AdjacencyState = context["position"]
    gains = {square_name(move): game.gain(position, move) for move in game.legal_moves(position)}
    best = {square for square, gain in gains.items() if gain == max(gains.values())}
    if not answers["my_best_squares"]:
        return [Line(UNWRITTEN, "my_best_squares is not written yet: write it above, then run this cell.")]
    return [_set_line("my_best_squares", answers["my_best_squares"], best, "the squares with the biggest gain are",
                      f"Each gains {max(gains.values())}: 1 for the mark placed and 2 for each mark turned.")]


@_question("flips", "my_flips_rule8", "my_flips_rule4")
def _flips(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 5: the marks a move on ``square`` turns in ``position`` under rule 8 and rule 4."""
    position: AdjacencyState = context["position"]
    square = parse_square(context["square"])
    lines = []
    for rule in (8, 4):
        name = f"my_flips_rule{rule}"
        game = AdjacencyGame(rule=rule)  # a state holds no rule: either game plays it
        flips = game.flips(position, square)
        turned = {square_name(other) for other in range(64) if flips >> other & 1}
        lines.append(_set_line(name, answers[name], turned, f"under rule {rule} it turns",
                               "Rule 8 turns the opponent's marks on all eight neighbouring squares, rule 4 on the "
                               "four beside, above and below."))
    return lines


FULL_GAME = Choice(
    options={"A": "Every move fills one empty square and no one can pass, so the squares empty at the start, two a "
                  "round, run out after 28 rounds.",
             "B": "The rules set 28 rounds; the board could take more.",
             "C": "Marks that are turned free their squares again, so the count of marks stays below 64."},
    key="A",
    why_not={"B": "count the squares: how many are empty at the start, and how many does a round fill?",
             "C": "a turned mark changes its owner, not its square: no square is ever freed."})


@_question("full-game", "my_marks", "my_why")
def _full_game(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 5: the marks on the board after a full game of ``MAX_ROUNDS`` rounds (a game played
    to the end by taking the first legal move each time), and why no game is longer."""
    game = AdjacencyGame(rounds=MAX_ROUNDS)
    state = game.root
    empty_at_start = len(game.legal_moves(state))
    while not game.is_terminal(state):
        state = game.result(state, game.legal_moves(state)[0])
    marks = 64 - len(game.legal_moves(state))
    return [_equal_line("my_marks", answers["my_marks"], marks,
                        f"The board has 64 squares, {64 - empty_at_start} marked at the start and {empty_at_start} "
                        f"empty, and {MAX_ROUNDS} rounds of two moves fill them all."),
            FULL_GAME.judge("my_why", answers["my_why"], f"{empty_at_start} empty squares, two a round: "
                            f"{empty_at_start // 2} rounds.")]


@_question("corners", "my_rule8", "my_rule4", "my_harder_rule")
def _corners(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 5: how many neighbours a corner has under each rule, and under which rule a corner
    mark is harder to turn (fewer squares from which a mark placed turns it)."""
    counts = {rule: bin(neighbour_mask(parse_square("a1"), rule)).count("1") for rule in (8, 4)}
    harder = min(counts, key=counts.__getitem__)
    return [_equal_line("my_rule8", answers["my_rule8"], counts[8], "Under rule 8: b1, a2 and b2."),
            _equal_line("my_rule4", answers["my_rule4"], counts[4], "Under rule 4: b1 and a2."),
            _equal_line("my_harder_rule", answers["my_harder_rule"], harder,
                        "Only a mark placed next to a mark turns it, so the fewer the neighbours, the fewer the "
                        "squares from which it can be turned.")]


@_question("two-ply", "my_two_ply_moves")
def _two_ply(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 6: the moves of ``position`` best for the side to move two plies ahead (its move,
    then the opponent's best reply), by alpha-beta to depth 1 after each move."""
    game: AdjacencyGame = context["game"]
    position: AdjacencyState = context["position"]
    if not answers["my_two_ply_moves"]:
        return [Line(UNWRITTEN, "my_two_ply_moves is not written yet: write it above, then run this cell.")]
    sign = game.to_move(position).sign
    two_ply = {square_name(move): sign * alphabeta(game, game.result(position, move), 1).value
               for move in game.legal_moves(position)}
    best = {move for move, value in two_ply.items() if value == max(two_ply.values())}
    return [_set_line("my_two_ply_moves", answers["my_two_ply_moves"], best, "the best moves two plies ahead are",
                      f"Each leaves the mover {max(two_ply.values()):+} after the opponent's best reply.")]


@_question("reservation-g6", "my_sequence")
def _reservation_g6(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 6: whether adding ``my_sequence`` to the reservation tree of ``sequences`` in
    ``position`` makes g6 its best move."""
    game: AdjacencyGame = context["game"]
    tree = ReservationTree(game, context["position"])
    try:
        for sequence in [*context["sequences"], answers["my_sequence"]]:
            tree.insert([parse_square(move) for move in sequence])
    except ValueError as error:
        return [Line(WRONG, f"my_sequence: {error}")]
    best = square_name(tree.best_move())
    if best == "g6":
        return [Line(RIGHT, f"my_sequence: right: the best move is g6, the root's value {tree.value():+}.")]
    return [Line(WRONG, f"my_sequence: not quite: the best move is {best}, the root's value {tree.value():+}. The "
                        "root takes the best of its moves' values, and a move's value is the worst of the replies "
                        "the tree holds for it.")]


@_question("more-time", "my_depth_2s", "my_depth_5s")
def _more_time(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 6: the depth the alpha-beta bot completes from ``position`` of ``game`` in 2 and in 5
    seconds of the counted clock (3 ms every 256 nodes), by running it on that clock."""
    game: AdjacencyGame = context["game"]
    lines = []
    for seconds, name in ((2.0, "my_depth_2s"), (5.0, "my_depth_5s")):
        with counted_time(step=0.003):
            decision = make_bot("alphabeta").choose(game, context["position"], seconds)
        lines.append(_equal_line(name, answers[name], decision.depth, f"In {seconds:g} counted s: {decision.note}."))
    return lines


WEIGHT_FEATURES = {"material": "marks", "stable": "marks with no empty square next to them, which can never be "
                   "turned again", "frontier": "marks next to an empty square, which can still be turned",
                   "corners": "marks on a1, h1, a8 and h8", "edges": "marks on the other border squares"}


@_question("weights", "my_weight")
def _weights(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 6: the weight that makes the bot value marks that can never be turned again more."""
    given = str(answers["my_weight"])
    if given not in WEIGHT_FEATURES:
        return [Line(WRONG, f"my_weight: name one of the weights {', '.join(WEIGHT_FEATURES)}, not {given!r}.")]
    if given == "stable":
        return [Line(RIGHT, "my_weight: right: `stable` counts " + WEIGHT_FEATURES["stable"] + ".")]
    return [Line(WRONG, f"my_weight: not quite: `{given}` counts {WEIGHT_FEATURES[given]}.")]


@_question("depth-9", "my_by_last_factor", "my_by_factor_two_back")
def _depth_9(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 6: depth 9's nodes predicted from ``nodes`` (nodes[d - 1] is depth d's) by the two
    rules of the lesson, each right within 1%."""
    nodes: Sequence[int] = context["nodes"]
    rules = {"my_by_last_factor": nodes[7] * nodes[7] / nodes[6],
             "my_by_factor_two_back": nodes[7] * nodes[6] / nodes[5]}
    words = {"my_by_last_factor": "depth 8's nodes times the factor into depth 8",
             "my_by_factor_two_back": "depth 8's nodes times the factor into depth 7"}
    lines = []
    for name, right in rules.items():
        given = float(answers[name])
        if abs(given - right) <= 0.01 * right:
            lines.append(Line(RIGHT, f"{name}: right: {words[name]}."))
        else:
            lines.append(Line(WRONG, f"{name}: not quite: {words[name]} is {right:,.0f}, not {given:,.0f}."))
    return lines


@_question("games-to-prove", "my_games")
def _games_to_prove(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 7: the fewest games n in which winning all n puts the exact (Clopper-Pearson) 95%
    interval of the win rate above 0.8; its lower end for n wins of n is 0.025^(1/n)."""
    games = next(n for n in range(1, 1000) if 0.025 ** (1 / n) > 0.8)
    given = int(answers["my_games"])
    low = 0.025 ** (1 / given) if given > 0 else 0.0
    if given == games:
        return [Line(RIGHT, f"my_games: right: {games} wins of {games} give an interval from {low:.3f}.")]
    side = "is not above 0.8 yet" if low <= 0.8 else "is above 0.8, but fewer games already prove it"
    return [Line(WRONG, f"my_games: not quite: {given} wins of {given} give an interval from {low:.3f}, which {side}.")]


@_question("colours", "my_match")
def _colours(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 7: the match (a, b, rule) of ``summaries`` whose first bot scores most differently as
    X and as O."""
    summaries: Mapping[tuple[str, str, int], MatchSummary] = context["summaries"]

    def score(results: tuple[int, int, int]) -> float:
        return (results[0] + results[1] / 2) / sum(results)

    gaps = {key: abs(score(s.a.as_x) - score(s.a.as_o)) for key, s in summaries.items()}
    widest = max(gaps, key=gaps.__getitem__)
    given = tuple(answers["my_match"])
    if given not in summaries:
        return [Line(WRONG, f"my_match: give a key of summaries, (a, b, rule), not {given!r}.")]
    s = summaries[given].a
    said = f"{given[0]} scores {score(s.as_x):.2f} as X and {score(s.as_o):.2f} as O in {given}"
    if given == widest:
        return [Line(RIGHT, f"my_match: right: {said}, the widest gap.")]
    return [Line(WRONG, f"my_match: not quite: {said}, a gap of {gaps[given]:.2f}; another match's is wider.")]


@_question("own-match", "my_summary", "my_genetic_wins", "my_leaves_out_half")
def _own_match(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 7: read the student's own match ``my_summary`` (genetic bot first): does the genetic
    bot score more than half, and does its 95% interval leave out 0.5."""
    summary: MatchSummary = answers["my_summary"]
    if not isinstance(summary, MatchSummary):
        return [Line(WRONG, f"my_summary: give the match's summary, what run_match returns, not {summary!r:.60}.")]
    if summary.a.name != "genetic":
        return [Line(WRONG, f"summary: play the genetic bot as the first bot, run_match(\"genetic\", \"hillclimb\", "
                            f"...); this match's first bot is {summary.a.name}.")]
    low, high = summary.a.interval
    said = f"it scores {summary.a.score:.2f} in {summary.games} games, interval [{low:.2f}, {high:.2f}]"
    return [_equal_line("my_genetic_wins", bool(answers["my_genetic_wins"]), summary.a.score > 0.5, said + "."),
            _equal_line("my_leaves_out_half", bool(answers["my_leaves_out_half"]), not low <= 0.5 <= high,
                        "The interval leaves out 0.5 when both its ends are on one side of it.")]


SUBMISSIONS = DATA_DIR / "class_tournament"
"""Lesson 10's submissions folder, as the course ships it."""


def _entries(folder: Any) -> list[Entry] | Line:
    try:
        return load_entries(Path(folder))
    except (EntryError, OSError, TypeError) as error:
        return Line(WRONG, f"my_folder: {error}")


@_question("own-entry", "my_folder", "my_games")
def _own_entry(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 10: the submissions folder ``my_folder`` holds an entry of the student's own (one the
    course's folder does not), and the tournament folder ``my_games`` holds all the games a round
    robin of two games a pairing gives it; says how it did, from the standings of those games."""
    entries = _entries(answers["my_folder"])
    if isinstance(entries, Line):
        return [entries]
    shipped = {entry.name for entry in load_entries(SUBMISSIONS)}
    own = [entry for entry in entries if entry.name not in shipped]
    if not own:
        return [Line(WRONG, f"my_folder: every entry of {answers['my_folder']} is one the course ships "
                            f"({', '.join(sorted(shipped))}): add your bot as a file and a line in its entries.toml.")]
    try:
        records = read_records(Path(answers["my_games"]) / GAMES_FILE)
    except (MatchFileError, OSError) as error:
        return [Line(WRONG, f"my_games: no games to read there ({error}): run the tournament with "
                            f"out={str(answers['my_games'])!r}.")]
    lines = []
    rows = {row.name: row for row in standings(entries, records)}
    for entry in own:
        row, expected = rows[entry.name], 2 * (len(entries) - 1)
        said = (f"{entry.name}: {row.games} games, {row.wins} won, {row.draws} drawn, {row.losses} lost, rank "
                f"{row.rank} of {len(entries)}" + (f"; lost by its own faults: {row.faults}" if row.forfeits else ""))
        if row.games < expected:
            lines.append(Line(WRONG, f"my_games: not yet: {said}, of the {expected} games of a round robin of two "
                                     "games a pairing; run the tournament on the copy to the end."))
        else:
            lines.append(Line(RIGHT, f"my_games: right: {said}."))
    return lines


@_question("deadline", "my_folder")
def _deadline(answers: Mapping[str, Any], context: Mapping[str, Any]) -> list[Line]:
    """Lesson 10: the entry ``slow`` of ``my_folder`` plays two games of two rounds against the
    random bot, ``seconds`` (default 0.3) a move, under the tournament's rules; right when it loses
    no game by a fault (a timeout, a crash, an illegal move). Its moves are timed on this machine's
    clock, so a busy machine can make a move late that an idle one would not."""
    entries = _entries(answers["my_folder"])
    if isinstance(entries, Line):
        return [entries]
    slow = [entry for entry in entries if entry.name == "slow"]
    if not slow:
        return [Line(WRONG, f"my_folder: {answers['my_folder']} has no entry named slow.")]
    seconds = float(context.get("seconds", 0.3))
    result = run_tournament([slow[0], Entry(name="random", bot="random")], games=2, rounds=2, seconds=seconds,
                            workers=1, progress=False)
    row = next(row for row in result.table if row.name == "slow")
    own = [(record, ply) for record in result.records for ply in range(len(record.seconds))
           if (record.x == "slow") == (ply % 2 == 0)]
    slowest = max((record.seconds[ply] for record, ply in own), default=0.0)
    if row.forfeits:
        return [Line(WRONG, f"my_folder: not quite: slow lost {row.forfeits} of its 2 games by its own faults "
                            f"({row.faults}), at {seconds:g} s a move. A move must come back before the time is up: "
                            "look at the clock while searching, and return the best move found so far in time.")]
    return [Line(RIGHT, f"my_folder: right: slow played {len(own)} moves at {seconds:g} s a move, the slowest in "
                        f"{slowest:.3f} s, and lost no game by a fault.")]
