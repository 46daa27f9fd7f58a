"""The rule that applies where the search is, in words, read from a replayed trace.

At every step the search stands at one node (the latest event's). :func:`rule_at` says what that
node does there, in a student's words: "MIN takes the smallest child value; prune if a child
returns <= 4", "8 returned 3 <= alpha 4: cut", "is 10 better than 4? the null window (4, 5) only
answers that". Everything is read from the :class:`~gamelib.view.replay.Snapshot` (the window the
node was entered with, the latest event) and the tree's players; no search is run again.
Values and windows are from MAX's point of view, as in the trace.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.search.tracing import RecordingTracer
>>> from gamelib.view.replay import Replay
>>> tree, tracer = load_seed_tree("broeders31"), RecordingTracer()
>>> _ = alphabeta(tree, tracer=tracer)
>>> rule = rule_at(tree, Replay(tree, tracer.events).snapshot(19))   # the cutoff at 8 (seed 003)
>>> rule.node, rule.cut
('8', '3 <= alpha 4')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from gamelib.games.game import INF, Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.tracing import (
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
from gamelib.view.replay import Snapshot, Window, cut_reason, hit_window, payoff_text

__all__ = ["Rule", "maxn_node_rule", "node_rule", "rule_at", "star1_window_words"]


@dataclass(frozen=True)
class Rule:
    """The rule at the search's node, in words.

    ``node`` is where it applies (None for an event about the whole search: an MTD(f) pass or an
    iteration); ``text`` the rule in words; ``cut`` is, at a cutoff, the comparison that cut
    ("3 <= alpha 4", MAX's view), else ""; ``extra`` what the rule says beyond the event's own
    words (:func:`gamelib.view.replay.describe`), None when all of ``text`` does: a panel that
    shows the event too shows only :attr:`beyond_event`.
    """

    node: str | None
    text: str
    cut: str = ""
    extra: str | None = None

    @property
    def beyond_event(self) -> str:
        """The words the rule adds to the event's: "" where it only says the event again (a leaf
        entered or evaluated, a node left), the reason at a cutoff, the rest of the rule elsewhere."""
        return self.text if self.extra is None else self.extra

    @property
    def line(self) -> str:
        """The rule as a caption's line: "at 8: cut by 3 <= alpha 4: ..." (no "at" without a node)."""
        return self.text if self.node is None else f"at {self.node}: {self.text}"


def _v(value: Value | None) -> str:
    return format_value(value)


def node_rule(player: Player, window: Window | None) -> str:
    """What a node of ``player`` entered with ``window`` (alpha, beta; MAX's view) does with its
    children's values: "MAX takes the largest child value; prune if a child returns >= 15".

    Minimax's nodes (window None or (None, None)) never prune; a MAX node with beta = ∞ (a MIN
    node with alpha = −∞) cannot prune yet. After Knuth & Moore (1975): a MAX node stops when a
    child reaches beta, a MIN node when a child falls to alpha.

    >>> node_rule(Player.MIN, (4, 15))
    'MIN takes the smallest child value; prune if a child returns <= 4'
    >>> node_rule(Player.MAX, (None, None))
    'MAX takes the largest child value (minimax never prunes)'
    """
    if player is Player.CHANCE:
        return "a chance node: its value is the probability-weighted sum of its children's values"
    takes = "MAX takes the largest" if player is Player.MAX else "MIN takes the smallest"
    if window is None or window == (None, None):
        return f"{takes} child value (minimax never prunes)"
    alpha, beta = window
    if player is Player.MAX:
        if beta is None or beta == INF:
            return f"{takes} child value; no child can prune here (beta = {_v(INF)})"
        return f"{takes} child value; prune if a child returns >= {_v(beta)}"
    if alpha is None or alpha == -INF:
        return f"{takes} child value; no child can prune here (alpha = {_v(-INF)})"
    return f"{takes} child value; prune if a child returns <= {_v(alpha)}"


def _best_move(event: BestMove, player: Player, window: Window | None) -> Rule:
    text = f"{event.move} returned {_v(event.value)}, the best so far"
    change = ""
    if window is not None and window != (None, None):
        alpha, beta = window
        if player is Player.MAX and (alpha is None or event.value > alpha):
            change = f"alpha rises to {_v(event.value)}"
        elif player is Player.MIN and (beta is None or event.value < beta):
            change = f"beta falls to {_v(event.value)}"
    rule = node_rule(player, window)
    return Rule(event.node, f"{text}: {change}; {rule}" if change else f"{text}; {rule}",
                extra=f"{change}; {rule}" if change else rule)


def _cutoff(event: Cutoff, player: Player, tree: GameTree, test: bool) -> Rule:
    """The cut in words; ``test``: the search is one of MTD(f)'s null-window tests, whose bound is the
    value tested, not a value found elsewhere in the tree."""
    skipped = ", ".join(event.skipped)
    reason = cut_reason(event)
    parent = tree.parents.get(event.node)
    if parent is not None and tree.players[parent] is Player.CHANCE and player is not Player.CHANCE:
        why = (f"the bound is Star1's window for {event.node}, so the chance node {parent} cannot reach its own "
               "window whatever its other outcomes are worth")
    elif test and player is Player.MAX:
        why = f"MTD(f)'s test asks only whether the value reaches {_v(event.beta)}, and this move does"
    elif test:
        why = (f"MTD(f)'s test asks only whether the value rises above {_v(event.alpha)}, and this reply holds it "
               f"at {_v(event.alpha)} or below")
    elif player is Player.MAX:
        why = f"MIN can get {_v(event.beta)} elsewhere and will not come here"
    else:
        why = f"MAX can get {_v(event.alpha)} elsewhere and will not come here"
    verb = "is" if len(event.skipped) == 1 else "are"
    return Rule(event.node, f"cut by {reason}: {why}; {skipped} {verb} not searched", reason, extra=why)


_BOUND_WORDS = {Bound.LOWER: "at least that", Bound.UPPER: "at most that"}


def _exit_bound(event: Exit, snapshot: Snapshot) -> str:
    """Why a node returns a bound, not its value: the table's entry settled it, a cut there stopped it
    early, or else its value fell outside its window (at or below alpha, at or above beta), where the
    search learns only a bound."""
    if event.bound is Bound.EXACT:
        return ""
    hit = snapshot.table_hit.get(event.node)
    if hit is not None and hit.cutoff:
        why = "the table's entry settled it"
    elif any(node == event.node for node, _ in snapshot.cut_edges):
        why = "a cut stopped it early"
    else:
        why = "its value fell outside its window, where the search learns only a bound"
    return f" ({_BOUND_WORDS[event.bound]}: {why})"


def _null_window(event: NullWindow, player: Player) -> str:
    window = f"({_v(event.alpha)}, {_v(event.beta)})"
    if player is Player.MIN:
        return f"is {event.move} below {_v(event.beta)}? the null window {window} only answers that"
    return f"is {event.move} better than {_v(event.alpha)}? the null window {window} only answers that"


def _table_hit(event: TableHit, window: Window | None, root: bool) -> str:
    """The hit in words, with what it did to ``window``, the node's (MAX's view; see :func:`hit_window`)."""
    bound = {Bound.EXACT: "exactly", Bound.LOWER: "at least", Bound.UPPER: "at most"}[event.bound]
    known = f"the table already knows {event.node}: {bound} {_v(event.value)}; "
    alpha, beta = window if window is not None else (None, None)
    if event.cutoff:
        return known + "that settles it without a search"
    if alpha is None or beta is None:
        return known + "that does not settle it"
    if root:
        return known + f"at the root only an exact entry is used, so its window stays ({_v(alpha)}, {_v(beta)})"
    low, high = hit_window(event, (alpha, beta), root=False)
    if (low, high) == (alpha, beta):
        return known + f"that does not settle it and leaves its window ({_v(alpha)}, {_v(beta)}) as it is"
    return known + f"that narrows its window from ({_v(alpha)}, {_v(beta)}) to ({_v(low)}, {_v(high)})"


def _whole_search(event: MtdPass | Iteration) -> Rule:
    if isinstance(event, MtdPass):
        return Rule(None, f"MTD(f) pass {event.number}: a null-window search around {_v(event.alpha)} moves one "
                          f"bound; the value lies in [{_v(event.lower)}, {_v(event.upper)}]")
    return Rule(None, f"depth {event.depth} searched: the next iteration searches one ply deeper, "
                      f"best move {event.move} first")


def star1_window_words(tree: GameTree, snapshot: Snapshot, node: str) -> str:
    """Why Star1 (Ballard 1983) searches ``node``, a child of a chance node, with the window it
    was entered with, in words: "" if ``node``'s parent is no chance node or the window is not
    Star1's (a search without windows, or a re-search with a full one).

    With every value in [L, U] (the tree's value range), the chance node entered with (alpha, beta), its
    children before ``node`` worth S together (each value times its probability), p the probability of
    ``node`` and R that of the children after it, the node can rise above alpha only if ``node`` is
    worth more than (alpha - S - R U) / p, and is sure to reach beta once ``node`` is worth at least
    (beta - S - R L) / p: outside that window ``node``'s value settles the chance node, whatever the
    rest are worth. The search clamps the window to [L, U] (Hauk, Buro & Schaeffer 2006), and the
    words say so where that changes it. Read from the snapshot: the windows, the values of the
    children done."""
    parent = tree.parents.get(node)
    if parent is None or tree.players[parent] is not Player.CHANCE:
        return ""
    (low_in, high_in), (alpha, beta) = snapshot.window.get(node, (None, None)), snapshot.window.get(parent, (None, None))
    if low_in is None or high_in is None or alpha is None or beta is None:
        return ""
    kids, odds = tree.children[parent], tree.probabilities[parent]
    before, after = kids[:kids.index(node)], kids[kids.index(node) + 1:]
    if any(kid not in snapshot.value for kid in before):
        return ""
    low, high = tree.value_range
    p, rest = odds[node], sum((odds[kid] for kid in after), Fraction(0))
    done = sum(float(odds[kid]) * snapshot.value[kid] for kid in before)
    expected = ((alpha - done - float(rest) * high) / float(p), (beta - done - float(rest) * low) / float(p))
    clamped = (max(expected[0], low), min(expected[1], high))
    if not (_same(clamped[0], low_in) and _same(clamped[1], high_in)):
        return ""
    q = f"({p})" if p.denominator != 1 else str(p)
    window = f"({_v(expected[0])}, {_v(expected[1])})"
    clamp = "" if clamped == expected else (
        f", searched as ({_v(clamped[0])}, {_v(clamped[1])}) within the values' range [{_v(low)}, {_v(high)}]")
    return (f"Star1 gives {node} (probability {p}) the window (({_v(alpha)} − {_v(done)} − {rest}×{_v(high)})/{q}, "
            f"({_v(beta)} − {_v(done)} − {rest}×{_v(low)})/{q}) = {window}{clamp}: a value outside {window} "
            f"settles {parent} against ({_v(alpha)}, {_v(beta)}), whatever the outcomes after {node} are worth")


def _same(a: Value, b: Value) -> bool:
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def maxn_node_rule(mover: int) -> str:
    """What a max^n node where player ``mover`` moves does with its children's payoff vectors.

    >>> maxn_node_rule(2)
    'player 2 takes the child whose payoffs give player 2 the most (the first of equal ones)'
    """
    return f"player {mover} takes the child whose payoffs give player {mover} the most (the first of equal ones)"


def _maxn_rule(tree: GameTree, event: MaxnEnter | MaxnLeaf | MaxnBest | MaxnExit) -> Rule:
    """The rule at a max^n event's node (Luckhardt & Irani 1986)."""
    node = event.node
    if isinstance(event, MaxnEnter):
        text = maxn_node_rule(event.mover) if event.mover is not None else f"{node} is a leaf: it returns its payoffs"
    elif isinstance(event, MaxnLeaf):
        text = f"{node} is a leaf: it returns its payoffs {payoff_text(event.payoffs)}, one a player"
    elif isinstance(event, MaxnBest):
        text = (f"{event.move} returned {payoff_text(event.payoffs)}: {_v(event.payoffs[event.mover - 1])} for "
                f"player {event.mover}, the most so far; {maxn_node_rule(event.mover)}")
    else:
        text = f"{node} returns {payoff_text(event.payoffs)} to its parent, the whole vector"
    return Rule(node, text)


def rule_at(tree: GameTree, snapshot: Snapshot) -> Rule | None:
    """The rule at the node of ``snapshot``'s latest event (see the module docstring); None at step 0.

    Reads only ``snapshot`` (replayed from the recorded events) and ``tree.players``. Raises
    KeyError if the event names a node that is not in ``tree``.

    >>> from gamelib.games.trees import tree_from_dict
    >>> from gamelib.search.negamax import minimax
    >>> from gamelib.search.tracing import RecordingTracer
    >>> from gamelib.view.replay import Replay
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> tracer = RecordingTracer()
    >>> _ = minimax(tiny, tracer=tracer)
    >>> rule_at(tiny, Replay(tiny, tracer.events).snapshot(1)).text
    'MAX takes the largest child value (minimax never prunes)'
    """
    event: Event | None = snapshot.event
    if event is None:
        return None
    if isinstance(event, (MtdPass, Iteration)):
        return _whole_search(event)
    node: str = event.node  # type: ignore[union-attr]
    player, window = tree.players[node], snapshot.window.get(node)
    if isinstance(event, (MaxnEnter, MaxnLeaf, MaxnBest, MaxnExit)):
        return _maxn_rule(tree, event)
    if isinstance(event, Enter):
        star1 = star1_window_words(tree, snapshot, node)
        if tree.children.get(node):
            text = node_rule(player, window)
            return Rule(node, f"{star1}; {text}" if star1 else text)
        leaf = f"{node} is a leaf: it returns its value"
        return Rule(node, f"{star1}; {leaf}" if star1 else leaf, extra=star1)
    if isinstance(event, Leaf):
        return Rule(node, f"{node} is a leaf: it returns its value {_v(event.value)}", extra="")
    if isinstance(event, BestMove):
        return _best_move(event, player, window)
    if isinstance(event, Cutoff):
        return _cutoff(event, player, tree, test=snapshot.mtd_pass is not None)
    if isinstance(event, Exit):
        bound = _exit_bound(event, snapshot)
        return Rule(node, f"{node} returns {_v(event.value)} to its parent{bound}", extra=bound.strip(" ()"))
    if isinstance(event, NullWindow):
        return Rule(node, _null_window(event, player))
    if isinstance(event, FailHigh):
        return Rule(node, f"{event.move} returned {_v(event.value)}, outside the null window: it is better, "
                          f"so it is searched again with a wide window for its exact value")
    if isinstance(event, Research):
        return Rule(node, f"search {event.move} again with ({_v(event.window[0])}, {_v(event.window[1])}) "
                          f"for its exact value")
    if isinstance(event, TableHit):
        return Rule(node, _table_hit(event, window, node == tree.root))
    if isinstance(event, ChanceSum):
        return Rule(node, f"{node} adds {event.child}'s {_v(event.child_value)} times {_v(event.probability)}: "
                          f"the sum so far is {_v(event.partial_sum)}; {node_rule(player, window)}")
    return None
