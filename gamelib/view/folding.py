"""Folded pictures of big trees: only the search's path is unfolded, every other subtree is one node.

A tree too wide for its column at a legible size (the sliders' largest random tree, branching 4
and depth 5, has 1,024 leaves) is drawn folded: the root, and the children of every node on the
path from the root to the node the search is at. A subtree off that path shows as its top node
alone, with its status and, once the search has left it, its value (so finished subtrees fold
into their result). The folded tree is read from the replayed
:class:`~gamelib.view.replay.Snapshot` only; nothing is searched.

>>> from gamelib.search.random_trees import classroom_tree
>>> from gamelib.view.replay import Replay
>>> tree = classroom_tree(4, 5, 0)
>>> folded = folded_tree(tree, Replay(tree, ()).snapshot(0))   # nothing searched: the root's children
>>> len(folded.nodes()), len(tree.nodes())
(5, 1365)
"""

from __future__ import annotations

import dataclasses

from gamelib.games.trees import GameTree
from gamelib.view.picture import NodeView
from gamelib.view.replay import Snapshot

__all__ = ["folded_tree", "is_folded", "search_path"]


def search_path(tree: GameTree, node: str | None) -> list[str]:
    """The nodes from the root down to ``node`` (just the root for None). Raises KeyError for a
    node that is not in ``tree``."""
    if node is None:
        return [tree.root]
    if node not in tree.players:
        raise KeyError(f"{node!r} is not a node of {tree.name!r}")
    path = [node]
    while path[-1] != tree.root:
        path.append(tree.parents[path[-1]])
    return path[::-1]


def folded_tree(tree: GameTree, snapshot: Snapshot) -> GameTree:
    """``tree`` with only the nodes on the path to ``snapshot``'s current node unfolded: they keep
    their children, every other inner node becomes a leaf of the result (its children hidden).

    The result has the same ids, players and values, so the snapshot of ``tree`` draws it; its
    name says it is folded. For a small tree it is worth drawing whole instead (see
    :mod:`gamelib.view.projector`)."""
    open_nodes = search_path(tree, snapshot.current)
    children = {node: tree.children[node] for node in open_nodes if tree.children.get(node)}
    return dataclasses.replace(tree, name=f"{tree.name} (folded)", children=children, parents={})


def is_folded(view: NodeView) -> bool:
    """True for a node drawn as a folded subtree: a leaf of the folded tree that is not a leaf of
    the game (it has no static value)."""
    return view.is_leaf and view.static_value is None
