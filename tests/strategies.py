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
