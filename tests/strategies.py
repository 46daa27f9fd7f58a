"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from gamelib import GameTree, tree_from_dict
from gamelib.search.random_trees import random_tree


@st.composite
def trees(draw: st.DrawFn, max_depth: int = 5) -> GameTree:
    """Random trees of 1..4 children a node, ties likely (values 0..9), and some nodes given the
    same player as their parent (several opponents), so non-alternating trees are covered."""
    tree = random_tree(branching=(1, draw(st.integers(1, 4))), depth=draw(st.integers(0, max_depth)),
                       low=0, high=9, seed=draw(st.integers(0, 10**6)),
                       to_move=draw(st.sampled_from(["max", "min"])))
    data = tree.to_dict()
    overrides = draw(st.sets(st.sampled_from(tree.nodes())))
    data["players"] = {node: draw(st.sampled_from(["max", "min"])) for node in overrides}
    return tree_from_dict(data)


@st.composite
def ranged_trees(draw: st.DrawFn, max_depth: int = 5) -> GameTree:
    """:func:`trees` with a ``value_range``, built so that the root's value often equals an end of
    the range: values are clamped from below or above at a drawn level (ties at the end), and the
    range's ends are mostly the lowest and highest value themselves."""
    data = draw(trees(max_depth)).to_dict()
    level = draw(st.integers(0, 9))
    clamp = max if draw(st.booleans()) else min
    data["values"] = {node: clamp(value, level) for node, value in data["values"].items()}
    values = data["values"].values()
    low = min(values) - draw(st.sampled_from([0, 0, 0, 1]))
    high = max(values) + draw(st.sampled_from([0, 0, 0, 1]))
    data["value_range"] = [low, high if high > low else low + 1]  # a range needs two ends
    return tree_from_dict(data)
