"""The lessons' questions, each with the judge that checks a student's answers to it.

Each judge works the truth out from what the lesson built (a tree, a game and a position, the
recorded matches, the student's own folders) by running the course's traced searches, the rules or
the tournament, and says for each part right, or what is wrong without the answer
(:mod:`gamelib.teach.predictions`). Lessons call them through
:func:`check_answer`; the right answers, worked out apart from these
judges, are in ``solutions/answers.py``.

>>> from gamelib.games.data import load_seed_tree
>>> changed = load_seed_tree("broeders31").with_values({"25": 9, "26": 10})
>>> print(check_answer("root-after-change", my_value=None, my_move=None, tree=changed))
my_value is not written yet: write it above, then run this cell.
my_move is not written yet: write it above, then run this cell.
>>> print(check_answer("root-after-change", my_value=4, my_move="2", tree=changed))
my_value: not quite: 4 is too low. Work each position's value from the leaves up: MIN takes the smaller, MAX the larger.
my_move: right.
>>> print(check_answer("corners", my_rule8=3, my_rule4="2", my_harder_rule=8))
my_rule8: right.
my_rule4: give a whole number, like 3, not '2'.
my_harder_rule: not quite: it is 4, not 8. Only a mark placed next to a mark turns it, so the fewer the neighbours, the fewer the squares from which it can be turned.
"""

from __future__ import annotations

import numbers
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, neighbour_mask, parse_square, square_name
from gamelib.games.adjacency.board import MAX_ROUNDS
from gamelib.games.data import DATA_DIR
from gamelib.games.game import Game
from gamelib.games.trees import GameTree, node_types
from gamelib.play.bots.base import make_bot
from gamelib.play.bots.reservation import ReservationTree
from gamelib.play.box.stepped import in_browser
from gamelib.play.entries import Entry, EntryError, load_entries
from gamelib.play.match_stats import MatchSummary, standings
from gamelib.play.records import MatchFileError, read_records
from gamelib.play.tournament import GAMES_FILE, run_tournament
from gamelib.search.deepening import iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import alphabeta, alphabeta_with_memory, minimax, negascout
from gamelib.search.pitfalls import BoundlessTable
from gamelib.search.time_rules import counted_time
from gamelib.search.tracing import Enter, Exit, FailHigh, MtdPass, NullWindow, RecordingTracer, Research
from gamelib.search.ttable import TranspositionTable
from gamelib.teach.predictions import (
    QUESTIONS, RIGHT, UNWRITTEN, WRONG, Answer, Choice, Line, UnknownQuestionError, equal_line, names_of, number_line,
    question, real_number, set_line, whole_number, yes_or_no,
)

__all__ = ["FULL_GAME", "NARROW_WINDOW", "QUESTIONS", "SAME_PARITY", "SUBMISSIONS", "WEIGHT_FEATURES", "check_answer"]

Answers = Mapping[str, Any]


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


def _problems(*checked: Any) -> list[Line]:
    """The lines of answers of the wrong kind among ``checked`` (each a value or a Line)."""
    return [line for line in checked if isinstance(line, Line)]




# Lesson 1

@question("root-after-change", "my_value", "my_move")
def _root_after_change(answers: Answers, context: Answers) -> list[Line]:
    """The root's value for MAX and MAX's move on ``tree``, from a traced minimax."""
    tree: GameTree = context["tree"]
    value = whole_number("my_value", answers["my_value"])
    tracer = RecordingTracer()
    found = minimax(tree, tracer=tracer)
    worth = {event.node: event.value for event in tracer.events
             if isinstance(event, Exit) and event.node in tree.children_of(tree.root)}
    why = ("The root's moves are worth " + " and ".join(f"{value} (to {move})" for move, value in worth.items())
           + f", and MAX takes the larger; the line both sides play is {' → '.join([tree.root, *found.pv])}.")
    move = str(answers["my_move"]).strip()
    value_line = value if isinstance(value, Line) else number_line(
        "my_value", value, int(found.value),
        hint="Work each position's value from the leaves up: MIN takes the smaller, MAX the larger.")
    if move == found.move:
        move_line = Line(RIGHT, "my_move: right." + (f" {why}" if value_line.state == RIGHT else ""))
    elif move in tree.children_of(tree.root):
        move_line = Line(WRONG, f"my_move: not quite: the move to {move} is not MAX's best.")
    else:
        move_line = Line(WRONG, f"my_move: give one of the root's moves, {' or '.join(tree.children_of(tree.root))}, "
                                f"not {move!r}.")
    return [value_line, move_line]


# Lesson 3

@question("null-window-tests", "my_tested_at_root", "my_failing_high_at_root")
def _null_window_tests(answers: Answers, context: Answers) -> list[Line]:
    """The root's moves NegaScout tests with a null window on ``tree``, and those that fail high."""
    tree: GameTree = context["tree"]
    tested_given = names_of("my_tested_at_root", answers["my_tested_at_root"], '{"x"}')
    high_given = names_of("my_failing_high_at_root", answers["my_failing_high_at_root"], '{"x"}')
    tracer = RecordingTracer()
    negascout(tree, tracer=tracer)
    at_root = [event for event in tracer.events if getattr(event, "node", None) == tree.root]
    tested = {event.move for event in at_root if isinstance(event, NullWindow)}
    high = {event.move for event in at_root if isinstance(event, FailHigh)}
    return [tested_given if isinstance(tested_given, Line) else set_line(
                "my_tested_at_root", tested_given, tested, "tested with a null window",
                hint="Which of the root's moves does NegaScout search with the whole window, and which does it only "
                     "test?"),
            high_given if isinstance(high_given, Line) else set_line(
                "my_failing_high_at_root", high_given, high, "failing high",
                hint="A test fails high when the move is worth more than the best so far.")]


@question("research-after-change", "my_researched")
def _research_after_change(answers: Answers, context: Answers) -> list[Line]:
    """The moves NegaScout searches again on ``tree`` (set() for none), from its trace."""
    tree: GameTree = context["tree"]
    given = names_of("my_researched", answers["my_researched"], '{"x"}')
    if isinstance(given, Line):
        return [given]
    tracer = RecordingTracer()
    negascout(tree, tracer=tracer)
    again = {event.move for event in tracer.events if isinstance(event, Research)}
    high = [event for event in tracer.events if isinstance(event, FailHigh)]
    why = (f"{len(high)} of NegaScout's null-window tests {'fails' if len(high) == 1 else 'fail'} high here"
           + (": " + ", ".join(f"move {event.move} at position {event.node}" for event in high) if high else "")
           + "; each that fails high inside its window, with a value that is not exact, is searched again.")
    return [set_line("my_researched", given, again, "searched again", why=why,
                     hint="Work out the changed values from the leaves up, then ask which test finds a move better "
                          "than the best before it.")]


NARROW_WINDOW = Choice(
    options={"A": "The test failed high with a value t that is a lower bound: the move is worth at least t, so no "
                  "value below t is left to find.",
             "B": "A narrower window searches fewer nodes, and searching fewer nodes cannot change a value.",
             "C": "The re-search is fail-hard, so it returns the window's edge whatever the window.",
             "D": "The first move is the best one, so the values of the later moves do not matter."},
    key="A",
    why_not={"B": "a window that leaves out a move's true value returns only a bound, not the value: fewer nodes "
                  "can change what comes back. What matters is whether the true value can lie outside the window.",
             "C": "both searches here are fail-soft; and a fail-hard search returns an edge of the window only when "
                  "the value lies outside it. The question is why the value cannot lie below t.",
             "D": "a re-search happens exactly when a later move may be better than the first: its value matters "
                  "then."})
"""Lesson 3, exercise 3: why NegaScout's narrower re-search window is safe (Reinefeld 1983)."""


@question("negascout-or-pvs", "my_fewer_nodes", "my_why")
def _negascout_or_pvs(answers: Answers, context: Answers) -> list[Line]:
    """Which of fail-soft NegaScout and fail-soft PVS enters fewer nodes (their results' counts,
    re-searches included) on ``trees``, and why the narrower window is safe."""
    trees: Sequence[GameTree] = context["trees"]
    names = {"negascout": "NegaScout", "pvs": "PVS"}
    given = names.get(str(answers["my_fewer_nodes"]).strip().lower())
    nodes = {"NegaScout": sum(negascout(tree, fail_soft=True).nodes for tree in trees),
             "PVS": sum(negascout(tree, pvs=True, fail_soft=True).nodes for tree in trees)}
    fewer = min(nodes, key=nodes.__getitem__)
    counts = ", ".join(f"{name} {total / len(trees):.1f} nodes on average" for name, total in nodes.items())
    if given is None:
        first = Line(WRONG, f"my_fewer_nodes: give \"NegaScout\" or \"PVS\", not {answers['my_fewer_nodes']!r}.")
    else:
        first = equal_line("my_fewer_nodes", given, fewer, why=f"Over the {len(trees)} trees: {counts}; {fewer} enters "
                           f"{1 - nodes[fewer] / max(nodes.values()):.1%} fewer.")
    return [first, NARROW_WINDOW.judge("my_why", answers["my_why"], "A test that fails high returns a lower bound "
                                       "t on the move's value, so no value below t is left to find; fail-soft, t "
                                       "can be far above a.")]


@question("node-types", "my_cut_nodes", "my_all_nodes")
def _node_types(answers: Answers, context: Answers) -> list[Line]:
    """The cut nodes and the all nodes of ``tree``'s minimal tree (:func:`node_types`); once both are
    right, whether alpha-beta enters exactly the minimal tree there, from its trace."""
    tree: GameTree = context["tree"]
    cut_given = names_of("my_cut_nodes", answers["my_cut_nodes"], '{"x", "y"}')
    all_given = names_of("my_all_nodes", answers["my_all_nodes"], '{"x", "y"}')
    sets = [given for given in (cut_given, all_given) if isinstance(given, set)]
    unknown = sorted(set().union(*sets) - set(tree.players))
    if unknown:
        return [Line(WRONG, f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a position of this "
                            "tree: its positions are numbered breadth first from the root, 0.")]
    kind = node_types(tree)
    tracer = RecordingTracer()
    alphabeta(tree, tracer=tracer)
    entered = {event.node for event in tracer.events if isinstance(event, Enter)}
    why = (f"Alpha-beta enters {len(entered)} positions of this tree, "
           + ("exactly its minimal tree." if entered == set(kind) else f"and the minimal tree has {len(kind)}."))
    hint = ("The root is a PV node; a PV node's first child is a PV node and its others cut nodes; a cut node's first "
            "child is an all node, and its other children are not in the minimal tree; every child of an all node "
            "is a cut node. Leaves have types too.")
    cut = {node for node, type_ in kind.items() if type_ == "cut"}
    every = {node for node, type_ in kind.items() if type_ == "all"}
    lines = [cut_given if isinstance(cut_given, Line) else set_line("my_cut_nodes", cut_given, cut,
                                                                     "among the cut nodes"),
             all_given if isinstance(all_given, Line) else set_line("my_all_nodes", all_given, every,
                                                                     "among the all nodes")]
    wrong = [index for index, line in enumerate(lines) if line.state == WRONG]
    if wrong:  # the rule once, under the last wrong part
        lines[wrong[-1]] = Line(WRONG, f"{lines[wrong[-1]].text} {hint}")
    if all(line.state == RIGHT for line in lines):
        lines[-1] = Line(RIGHT, f"my_all_nodes: right. {why}")
    return lines


# Lesson 4

@question("mtdf-passes", "my_passes", "my_windows")
def _mtdf_passes(answers: Answers, context: Answers) -> list[Line]:
    """The number of MTD(f) passes from ``first_guess`` on ``tree``, and their windows (MAX's view)."""
    tree: GameTree = context["tree"]
    passes = whole_number("my_passes", answers["my_passes"])
    try:
        mine = [(alpha, beta) for alpha, beta in answers["my_windows"]]
    except (TypeError, ValueError):
        mine = []
    tracer = RecordingTracer()
    mtdf(tree, first_guess=context["first_guess"], tracer=tracer)
    made = [(event.alpha, event.beta) for event in tracer.events if isinstance(event, MtdPass)]
    lines = [passes if isinstance(passes, Line) else number_line(
        "my_passes", passes, len(made), hint="The passes go on until the bounds they return meet.")]
    if not mine or any(isinstance(bound, bool) or not isinstance(bound, numbers.Integral) for window in mine
                       for bound in window):
        return [*lines, Line(WRONG, f"my_windows: give a list of windows, each (alpha, beta) in whole numbers, not "
                                    f"{answers['my_windows']!r:.40}.")]
    wrong = next((number for number, (guess, window) in enumerate(zip(mine, made), start=1) if guess != window), None)
    if wrong is not None:
        lines.append(Line(WRONG, f"my_windows: not quite: pass {wrong}'s window is not {mine[wrong - 1]}. Pass 1 is a "
                                 "null window at the first guess f, (f - 1, f) with MAX to move at the root; each "
                                 "later pass is a null window at the value g the pass before returned: (g - 1, g) "
                                 "after a fail low, (g, g + 1) after a fail high."))
    elif len(mine) != len(made):
        more = "more" if len(made) > len(mine) else "fewer"
        lines.append(Line(WRONG, f"my_windows: right as far as they go, but there are {more} passes."))
    else:
        lines.append(Line(RIGHT, "my_windows: right."))
    return lines


@question("boundless-memory", "my_wrong_somewhere")
def _boundless_memory(answers: Answers, context: Answers) -> list[Line]:
    """Whether alpha-beta with memory and a table without bound flags gets any of ``positions`` of
    ``game`` wrong, against minimax; and how many MTD(f) gets wrong with it."""
    given = yes_or_no("my_wrong_somewhere", answers["my_wrong_somewhere"])
    if isinstance(given, Line):
        return [given]
    game: Game[Any, Any] = context["game"]
    positions: Sequence[Any] = context["positions"]
    right = [minimax(game, state).value for state in positions]
    memory = sum(alphabeta_with_memory(game, state, table=BoundlessTable()).value != value
                 for state, value in zip(positions, right))
    by_mtdf = sum(mtdf(game, state, table=BoundlessTable()).value != value for state, value in zip(positions, right))
    return [equal_line("my_wrong_somewhere", given, memory > 0, why=f"Alpha-beta with memory gets {memory} of the "
                       f"{len(positions)} positions wrong without bound flags; MTD(f) gets {by_mtdf} wrong.")]


@question("one-slot", "my_value_right", "my_overwrites")
def _one_slot(answers: Answers, context: Answers) -> list[Line]:
    """Alpha-beta with memory solving ``game`` with a table of one slot: is its value minimax's,
    and how many overwrites does the table count."""
    right_given = yes_or_no("my_value_right", answers["my_value_right"])
    overwrites = whole_number("my_overwrites", answers["my_overwrites"])
    game: Game[Any, Any] = context["game"]
    table = TranspositionTable(size=1)
    value = alphabeta_with_memory(game, table=table).value
    exact = alphabeta(game).value  # minimax's value, from a search without a table
    return [right_given if isinstance(right_given, Line) else equal_line(
                "my_value_right", right_given, value == exact, why=f"With one slot the search finds {value}, minimax "
                f"{exact}: a table with whole keys and bound flags only saves work, and an entry overwritten is work "
                "done again."),
            overwrites if isinstance(overwrites, Line) else number_line(
                "my_overwrites", overwrites, table.stats.overwrites,
                hint="Read it from table.stats after the search: each store after the first overwrites the one "
                     "before.")]


SAME_PARITY = Choice(
    options={"A": "It has no value from two depths back, so its window is centred on the value of the depth just "
                  "before it, of the other parity.",
             "B": "It is too shallow for an aspiration window of 2 on either side of the guess.",
             "C": "The table is still empty when it starts, so the search has no best move to try first."},
    key="A",
    why_not={"B": "a window's width says nothing about the depth; the window fails when the value falls outside it, "
                  "so the question is where it was centred.",
             "C": "the depths before it have filled the table when it starts; and a move order changes the nodes a "
                  "search enters, never its value, so it cannot make a window fail."})
"""Lesson 4, exercise 4: why a window centred two depths back still fails at depth 2."""


@question("same-parity", "my_failing_depths", "my_why")
def _same_parity(answers: Answers, context: Answers) -> list[Line]:
    """The depths whose aspiration window (width 2, centred two depths back) fails in iterative
    deepening to depth 4 on ``game`` from ``position``, and why."""
    given = names_of("my_failing_depths", answers["my_failing_depths"], "{5}")
    choice = SAME_PARITY.judge("my_why", answers["my_why"], "Depth d's value is near depth d - 2's, whose last move is "
                               "made by the same side; depth 2 has only depth 1's to go by.")
    if isinstance(given, Line):
        return [given, choice]
    found = iterative_deepening(context["game"], context["position"], 4, search=alphabeta, aspiration=2,
                                same_parity=True, table=TranspositionTable(size=1 << 16))
    failing = {str(depth) for depth, *_ in found.failed_windows}
    values = ", ".join(f"{result.value:+}" for result in found.iterations)
    return [set_line("my_failing_depths", given, failing, "failing", why=f"The values by depth are {values}.",
                     hint="Compare each depth's value with its window, (g - 2, g + 2) around its guess g."),
            choice]


# Lesson 5

@question("biggest-gain", "my_best_squares")
def _biggest_gain(answers: Answers, context: Answers) -> list[Line]:
    """The squares with the biggest gain for the side to move in ``position`` of ``game``."""
    given = names_of("my_best_squares", answers["my_best_squares"], '{"a3", "h1"}')
    if isinstance(given, Line):
        return [given]
    game: AdjacencyGame = context["game"]
    position: AdjacencyState = context["position"]
    gains = {square_name(move): game.gain(position, move) for move in game.legal_moves(position)}
    best = {square for square, gain in gains.items() if gain == max(gains.values())}
    return [set_line("my_best_squares", given, best, "among the squares with the biggest gain",
                     hint="A move gains 1 for the mark placed and 2 for each mark it turns.",
                     why=f"Each gains {max(gains.values())}.")]


@question("flips", "my_flips_rule8", "my_flips_rule4")
def _flips(answers: Answers, context: Answers) -> list[Line]:
    """The marks a move on ``square`` turns in ``position`` under rule 8 and rule 4."""
    position: AdjacencyState = context["position"]
    square = parse_square(context["square"])
    lines = []
    for rule in (8, 4):
        name = f"my_flips_rule{rule}"
        given = names_of(name, answers[name], '{"a3", "h1"}')
        if isinstance(given, Line):
            lines.append(given)
            continue
        flips = AdjacencyGame(rule=rule).flips(position, square)  # a state holds no rule: either game plays it
        turned = {square_name(other) for other in range(64) if flips >> other & 1}
        lines.append(set_line(name, given, turned, f"turned under rule {rule}",
                              hint="Rule 8 turns the opponent's marks on all eight neighbouring squares, rule 4 on "
                                   "the four beside, above and below."))
    return lines


FULL_GAME = Choice(
    options={"A": "Every move fills one empty square and no one can pass, so the squares empty at the start, two a "
                  "round, run out after 28 rounds.",
             "B": "The rules set 28 rounds; the board could take more.",
             "C": "Marks that are turned free their squares again, so the count of marks stays below 64."},
    key="A",
    why_not={"B": "count the squares: how many are empty at the start, and how many does a round fill?",
             "C": "a turned mark changes its owner, not its square: no square is ever freed."})
"""Lesson 5, exercise 3: why no game has more than 28 rounds."""


@question("full-game", "my_marks", "my_why")
def _full_game(answers: Answers, context: Answers) -> list[Line]:
    """The marks on the board after a full game of ``MAX_ROUNDS`` rounds (played to the end by
    taking the first legal move each time), and why no game is longer."""
    marks_given = whole_number("my_marks", answers["my_marks"])
    if isinstance(marks_given, Line):
        return [marks_given, FULL_GAME.judge("my_why", answers["my_why"], "")]
    game = AdjacencyGame(rounds=MAX_ROUNDS)
    state = game.root
    empty_at_start = len(game.legal_moves(state))
    while not game.is_terminal(state):
        state = game.result(state, game.legal_moves(state)[0])
    marks = 64 - len(game.legal_moves(state))
    return [number_line("my_marks", marks_given, marks,
                        hint="Count the marks at the start and the marks each move adds."),
            FULL_GAME.judge("my_why", answers["my_why"], f"The board has 64 squares, {64 - empty_at_start} marked at "
                            f"the start and {empty_at_start} empty; two a round fill them in {empty_at_start // 2}.")]


@question("corners", "my_rule8", "my_rule4", "my_harder_rule")
def _corners(answers: Answers, context: Answers) -> list[Line]:
    """How many neighbours a corner has under each rule, and under which rule a corner mark is
    harder to turn (fewer squares from which a mark placed turns it)."""
    counts = {rule: bin(neighbour_mask(parse_square("a1"), rule)).count("1") for rule in (8, 4)}
    lines = []
    for rule in (8, 4):
        given = whole_number(f"my_rule{rule}", answers[f"my_rule{rule}"])
        lines.append(given if isinstance(given, Line) else number_line(
            f"my_rule{rule}", given, counts[rule], hint="Count the squares next to a1 that the rule calls neighbours."))
    harder = min(counts, key=counts.__getitem__)
    rule_given = answers["my_harder_rule"]
    rule_number = whole_number("my_harder_rule", rule_given)
    lines.append(equal_line("my_harder_rule", rule_number, harder, why="Only a mark placed next to a mark turns it, so "
                            "the fewer the neighbours, the fewer the squares from which it can be turned.")
                 if rule_number in (8, 4) else Line(WRONG, f"my_harder_rule: give 8 or 4, not {rule_given!r:.40}."))
    return lines


# Lesson 6

@question("two-ply", "my_two_ply_moves")
def _two_ply(answers: Answers, context: Answers) -> list[Line]:
    """The moves of ``position`` best for the side to move two plies ahead (its move, then the
    opponent's best reply), by alpha-beta to depth 1 after each move."""
    given = names_of("my_two_ply_moves", answers["my_two_ply_moves"], '{"a4"}')
    if isinstance(given, Line):
        return [given]
    game: AdjacencyGame = context["game"]
    position: AdjacencyState = context["position"]
    sign = game.to_move(position).sign
    two_ply = {square_name(move): sign * alphabeta(game, game.result(position, move), 1).value
               for move in game.legal_moves(position)}
    best = {move for move, value in two_ply.items() if value == max(two_ply.values())}
    return [set_line("my_two_ply_moves", given, best, "among the best moves two plies ahead",
                     hint="For each move, find the opponent's reply that leaves the mover least, then take the move "
                          "whose worst reply is best.",
                     why=f"{'Each leaves' if len(best) > 1 else 'It leaves'} the mover {max(two_ply.values()):+} after "
                         "the opponent's best reply.")]


@question("reservation-g6", "my_sequence")
def _reservation_g6(answers: Answers, context: Answers) -> list[Line]:
    """Whether adding ``my_sequence``, X's move then O's, to the reservation tree of ``sequences``
    in ``position`` makes g6 its best move."""
    sequence = answers["my_sequence"]
    if isinstance(sequence, str) or not isinstance(sequence, (tuple, list)) or len(sequence) != 2:
        return [Line(WRONG, f"my_sequence: give two moves, X's then O's, like (\"e3\", \"d2\"), not "
                            f"{sequence!r:.40}.")]
    game: AdjacencyGame = context["game"]
    tree = ReservationTree(game, context["position"])
    try:
        for moves in [*context["sequences"], sequence]:
            tree.insert([parse_square(str(move).strip().lower()) for move in moves])
    except ValueError as error:
        return [Line(WRONG, f"my_sequence: not quite: {str(error).rstrip('.')}. Give two empty squares, X's move "
                            "and then O's reply.")]
    best = square_name(tree.best_move())
    if best == "g6":
        return [Line(RIGHT, f"my_sequence: right: the best move is g6, the root's value {tree.value():+}.")]
    return [Line(WRONG, f"my_sequence: not quite: the best move is {best}, not g6. The root takes the best of its "
                        "moves' values, and a move's value is the worst of the replies the tree holds for it.")]


@question("more-time", "my_depth_2s", "my_depth_5s")
def _more_time(answers: Answers, context: Answers) -> list[Line]:
    """The depth the alpha-beta bot completes from ``position`` of ``game`` in 2 and in 5 seconds
    of the counted clock (3 ms every 256 nodes), by running it on that clock."""
    game: AdjacencyGame = context["game"]
    lines: list[Line] = []
    for seconds, name in ((2.0, "my_depth_2s"), (5.0, "my_depth_5s")):
        mine = whole_number(name, answers[name])
        if isinstance(mine, Line):
            lines.append(mine)
            continue
        with counted_time(step=0.003):
            decision = make_bot("alphabeta").choose(game, context["position"], seconds)
        hinted = any(line.state == WRONG for line in lines)  # the hint once, under the first wrong answer
        lines.append(number_line(name, mine, decision.depth or 0, why=f"In {seconds:g} counted s: {decision.note}.",
                                 hint="" if hinted else "A depth is started only if its predicted time fits in the "
                                      "time left when the depth before it is done, not in the whole budget: compare "
                                      "depth 9's predicted time, in the note of the 1.5 s decision above, with that."))
    return lines


WEIGHT_FEATURES = {"material": "marks", "stable": "marks with no empty square next to them, which can never be "
                   "turned again", "frontier": "marks next to an empty square, which can still be turned",
                   "corners": "marks on a1, h1, a8 and h8", "edges": "marks on the other border squares"}
"""What each weight of :class:`gamelib.games.adjacency.evaluation.Weights` counts (lesson 6)."""


@question("weights", "my_weight")
def _weights(answers: Answers, context: Answers) -> list[Line]:
    """The weight that makes the bot value marks that can never be turned again more."""
    given = str(answers["my_weight"]).strip().lower()
    if given not in WEIGHT_FEATURES:
        return [Line(WRONG, f"my_weight: name one of the weights {', '.join(WEIGHT_FEATURES)}, not "
                            f"{answers['my_weight']!r:.40}.")]
    if given == "stable":
        return [Line(RIGHT, 'my_weight: right: "stable" counts ' + WEIGHT_FEATURES["stable"] + ".")]
    return [Line(WRONG, f'my_weight: not quite: "{given}" counts {WEIGHT_FEATURES[given]}.')]


@question("depth-9", "my_by_last_factor", "my_by_factor_two_back")
def _depth_9(answers: Answers, context: Answers) -> list[Line]:
    """Depth 9's nodes predicted from ``nodes`` (nodes[d - 1] is depth d's) by the lesson's two
    rules, each right within 1%."""
    nodes: Sequence[int] = context["nodes"]
    rules = {"my_by_last_factor": nodes[7] * nodes[7] / nodes[6],
             "my_by_factor_two_back": nodes[7] * nodes[6] / nodes[5]}
    words = {"my_by_last_factor": "depth 8's nodes times the factor into depth 8, N8 × N8 / N7",
             "my_by_factor_two_back": "depth 8's nodes times the factor into depth 7, N8 × N7 / N6"}
    lines = []
    for name, right in rules.items():
        given = real_number(name, answers[name])
        if isinstance(given, Line):
            lines.append(given)
        elif abs(given - right) <= 0.01 * right:
            lines.append(Line(RIGHT, f"{name}: right: {words[name]}."))
        else:
            lines.append(Line(WRONG, f"{name}: not quite: {given:,.0f} is too {'high' if given > right else 'low'} "
                                     f"for {words[name]}."))
    return lines


# Lesson 7

@question("games-to-prove", "my_games")
def _games_to_prove(answers: Answers, context: Answers) -> list[Line]:
    """The fewest games n in which winning all n puts the exact (Clopper-Pearson) 95% interval of
    the win rate above 0.8; its lower end for n wins of n is 0.025^(1/n)."""
    given = whole_number("my_games", answers["my_games"])
    if isinstance(given, Line):
        return [given]
    if given < 1:
        return [Line(WRONG, f"my_games: give a number of games, 1 or more, not {given}.")]
    games = next(n for n in range(1, 1000) if 0.025 ** (1 / n) > 0.8)
    low = 0.025 ** (1 / given)
    if given == games:
        return [Line(RIGHT, f"my_games: right: {games} wins of {games} give an interval from {low:.3f}.")]
    side = "is not above 0.8 yet" if low <= 0.8 else "is above 0.8, but fewer games already prove it"
    return [Line(WRONG, f"my_games: not quite: {given} wins of {given} give an interval from {low:.3f}, which {side}.")]


def _score(results: tuple[int, int, int]) -> float:
    return (results[0] + results[1] / 2) / sum(results)


@question("colours", "my_match")
def _colours(answers: Answers, context: Answers) -> list[Line]:
    """The match (a, b, rule) of ``summaries`` whose first bot scores most differently as X and as O."""
    summaries: Mapping[tuple[str, str, int], MatchSummary] = context["summaries"]
    given = answers["my_match"]
    key = (str(given[0]).strip().lower(), str(given[1]).strip().lower(), given[2]) if isinstance(
        given, (tuple, list)) and len(given) == 3 else None
    if key is not None and key not in summaries and (key[1], key[0], key[2]) in summaries:
        key = (key[1], key[0], key[2])  # the match named the other way round
    if key not in summaries:
        return [Line(WRONG, f"my_match: give a key of summaries, (a, b, rule), like (\"alphabeta\", \"genetic\", 4), "
                            f"not {given!r:.60}.")]
    gaps = {match: abs(_score(s.a.as_x) - _score(s.a.as_o)) for match, s in summaries.items()}
    widest = max(gaps, key=gaps.__getitem__)
    s = summaries[key].a  # type: ignore[index]
    said = f"{key[0]} scores {_score(s.as_x):.2f} as X and {_score(s.as_o):.2f} as O in {key}"  # type: ignore[index]
    if key == widest:
        return [Line(RIGHT, f"my_match: right: {said}, the widest gap.")]
    gap = gaps[key]  # type: ignore[index]
    return [Line(WRONG, f"my_match: not quite: {said}, a gap of {gap:.2f}; another match's is wider.")]


@question("own-match", "my_summary", "my_genetic_wins", "my_leaves_out_half")
def _own_match(answers: Answers, context: Answers) -> list[Line]:
    """The student's own match ``my_summary`` (the genetic bot first, against the hill climber,
    rule 4, 8 rounds): does the genetic bot score more than half, and does its 95% interval leave
    out 0.5."""
    summary = answers["my_summary"]
    if not isinstance(summary, MatchSummary):
        return [Line(WRONG, f"my_summary: give the match's summary, what run_match returns, not {summary!r:.60}.")]
    played = (summary.a.name, summary.b.name, summary.rule, summary.rounds)
    if played != ("genetic", "hillclimb", 4, 8):
        return [Line(WRONG, f"my_summary: this match is {played[0]} against {played[1]}, rule {played[2]}, "
                            f"{played[3]} rounds: play the genetic bot first against the hill climber, rule 4, 8 "
                            "rounds.")]
    wins, half = yes_or_no("my_genetic_wins", answers["my_genetic_wins"]), yes_or_no(
        "my_leaves_out_half", answers["my_leaves_out_half"])
    if problems := _problems(wins, half):
        return problems
    low, high = summary.a.interval
    return [equal_line("my_genetic_wins", wins, summary.a.score > 0.5,
                       why=f"It scores {summary.a.score:.2f} in {summary.games} games."),
            equal_line("my_leaves_out_half", half, not low <= 0.5 <= high,
                       why=f"Its interval is [{low:.2f}, {high:.2f}]: it leaves out 0.5 when both ends are on one "
                           "side of it.")]


# Lesson 10

SUBMISSIONS = DATA_DIR / "class_tournament"
"""Lesson 10's submissions folder, as the course ships it."""


def _entries(folder: Any) -> list[Entry] | Line:
    try:
        return load_entries(Path(folder))
    except (EntryError, OSError, TypeError) as error:
        return Line(WRONG, f"my_folder: {error}")


@question("own-entry", "my_folder", "my_games")
def _own_entry(answers: Answers, context: Answers) -> list[Line]:
    """The submissions folder ``my_folder`` holds an entry of the student's own (one the course's
    folder does not), and the tournament folder ``my_games`` holds all the games a round robin of
    two games a pairing gives it; says how it did, from the standings of those games."""
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
    except (MatchFileError, OSError, TypeError) as error:
        return [Line(WRONG, f"my_games: no games to read there ({error}): run the tournament with "
                            f"out={str(answers['my_games'])!r}.")]
    rows, expected = {row.name: row for row in standings(entries, records)}, 2 * (len(entries) - 1)
    lines = []
    for entry in own:
        row = rows[entry.name]
        if not row.games:
            lines.append(Line(WRONG, f"my_games: {entry.name} has played no game there yet: run the tournament on "
                                     "the copy to the end."))
            continue
        said = (f"{entry.name}: {row.games} games, {row.wins} won, {row.draws} drawn, {row.losses} lost, rank "
                f"{row.rank} of {len(entries)}" + (f"; lost by its own faults: {row.faults}" if row.forfeits else ""))
        if row.games < expected:
            lines.append(Line(WRONG, f"my_games: not yet: {said}, of the {expected} games of a round robin of two "
                                     "games a pairing; run the tournament on the copy to the end."))
        else:
            lines.append(Line(RIGHT, f"my_games: right: {said}."))
    return lines


@question("deadline", "my_folder")
def _deadline(answers: Answers, context: Answers) -> list[Line]:
    """The entry ``slow`` of ``my_folder`` plays two games of two rounds against the random bot,
    ``seconds`` (default 0.3) a move, under the tournament's rules; right when it loses no game by
    a fault (a timeout, a crash, an illegal move), every move of its came back within ``seconds``
    (the tournament allows a grace beyond that before it calls a timeout), and its median move took
    a quarter of ``seconds`` or more: a deadline is for searching until the time is nearly used
    up. Its moves are timed on this machine's clock, so a busy machine can make a move late that an
    idle one would not."""
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
    own = [record.seconds[ply] for record in result.records for ply in range(len(record.seconds))
           if (record.x == "slow") == (ply % 2 == 0)]
    slowest = max(own, default=0.0)
    advice = "Look at the clock while searching, and return the best move found so far before the time is up."
    if row.forfeits:
        return [Line(WRONG, f"my_folder: not quite: slow lost {row.forfeits} of its 2 games by its own faults "
                            f"({row.faults}), at {seconds:g} s a move. {advice}")]
    spared = ("in a browser a move is held to its steps, not to the clock" if in_browser()
              else "the tournament's grace spared it a timeout")
    if slowest > seconds:
        return [Line(WRONG, f"my_folder: not quite: slow's slowest move took {slowest:.3f} s, over the {seconds:g} s "
                            f"a move allows ({spared}). {advice}")]
    typical = statistics.median(own) if own else 0.0
    if typical < seconds / 4:
        return [Line(WRONG, f"my_folder: not quite: slow answered in time, but its moves took {typical:.3f} s (the "
                            f"median) of the {seconds:g} s each allows: it does not search until the time is nearly "
                            "used up. Search on, deeper, while time is left, and answer before it runs out.")]
    return [Line(RIGHT, f"my_folder: right: slow played {len(own)} moves at {seconds:g} s a move, in {typical:.3f} s "
                        f"(the median) to {slowest:.3f} s, and lost no game by a fault.")]
