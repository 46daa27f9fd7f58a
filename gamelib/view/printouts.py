"""Traces printed the way Broeders' programs print them (seed 003).

Each function formats recorded events; none searches. Widths follow the C++ ``setw(2)`` of the
programs; the seed's web page collapses runs of spaces, so compare with it word by word.

>>> from gamelib import RecordingTracer, alphabeta, load_seed_tree
>>> tracer = RecordingTracer()
>>> result = alphabeta(load_seed_tree("broeders31"), tracer=tracer)
>>> alphabeta0_text(tracer.events)[:3]
['pos =  0 alpha =  0 beta = 15', 'pos =  1 alpha =  0 beta = 15', 'pos =  3 alpha =  0 beta = 15']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gamelib.games.game import Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Enter, Event, Exit

__all__ = ["alphabeta0_text", "minmax_table", "root_line"]


def alphabeta0_text(events: Iterable[Event]) -> list[str]:
    """AlphaBeta0.cpp's trace: ``pos = %2d alpha = %2d beta = %2d`` for each node entered.

    Raises ValueError for a trace without windows (minimax's).
    """
    lines = []
    for event in events:
        if isinstance(event, Enter):
            if event.alpha is None or event.beta is None:
                raise ValueError("this trace has no windows: AlphaBeta0's printout needs an alpha-beta trace")
            lines.append(f"pos = {event.node:>2} alpha = {format_value(event.alpha, 2)} beta = {format_value(event.beta, 2)}")
    return lines


def root_line(tree: GameTree, value: Value, best_move: str | None = None) -> str:
    """The last line of AlphaBeta0/1.cpp: ``Pos: 0 Value:  4`` (and `` BestPos:  1`` for AlphaBeta1)."""
    line = f"Pos: {tree.root} Value: {format_value(value, 2)}"
    if best_move is not None:
        line += f" BestPos: {best_move:>2}"
    return line



def minmax_table(tree: GameTree, events: Sequence[Event], *, best_pos: bool = True) -> list[str]:
    """MinMax1.cpp's table (MinMax0.cpp's without ``best_pos``): every inner node, root first.

    One line per inner node in breadth-first order, ``Pos: %2d Value: %2d BestPos: %2d``, from the
    Exit events of a full minimax trace; the root's line is ``Pos: 0`` without padding, as the
    programs print it. Raises ValueError if an inner node was never left (a pruned trace).
    """
    exits = {event.node: event for event in events if isinstance(event, Exit)}
    lines = []
    for node in tree.nodes():
        if tree.is_terminal(node):
            continue
        if node not in exits:
            raise ValueError(f"position {node} was never searched: MinMax's table needs a full minimax trace")
        exit_ = exits[node]
        pos = node if node == tree.root else f"{node:>2}"
        line = f"Pos: {pos} Value: {format_value(exit_.value, 2)}"
        if best_pos:
            line += f" BestPos: {(exit_.best_move or node):>2}"
        lines.append(line)
    return lines
