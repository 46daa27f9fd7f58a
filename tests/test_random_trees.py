"""Random trees: seeded, the asked-for shape, and orderings that really order."""

from __future__ import annotations

import pytest

from gamelib import Exit, GameTree, Player, RecordingTracer, minimax, tree_from_dict
from gamelib.search.random_trees import random_tree


def test_same_seed_same_tree_and_shape() -> None:
    tree = random_tree(3, 4, seed=11, low=-5, high=5)
    assert tree == random_tree(3, 4, seed=11, low=-5, high=5) != random_tree(3, 4, seed=12, low=-5, high=5)
    leaves = [n for n in tree.nodes() if tree.is_terminal(n)]
    assert len(tree.nodes()) == (3**5 - 1) // 2 and len(leaves) == 3**4  # sum of 3^k, k = 0..4
    assert all(-5 <= tree.evaluate(leaf) <= 5 and tree.ply(leaf) == 4 for leaf in leaves)
    assert tree.nodes() == [str(i) for i in range(len(tree.nodes()))]


@pytest.mark.parametrize(("branching", "depth", "order", "to_move"), [
    (2, 0, "random", "max"), (3, 4, "random", "min"), ((1, 4), 5, "random", "max"), (5, 3, "best_first", "max"),
    (4, 3, "worst_first", "min"), (3, 5, "mostly_best_first", "max")])
def test_a_random_tree_is_the_tree_its_file_would_load_as(branching: int | tuple[int, int], depth: int, order: str,
                                                          to_move: str) -> None:
    """random_tree builds its trees without tree_from_dict's checks (they hold by construction):
    the tree its own dictionary validates into is equal to it, parents and players included."""
    tree = random_tree(branching, depth, seed=5, order=order, to_move=to_move)  # type: ignore[arg-type]
    loaded = tree_from_dict(tree.to_dict())
    assert loaded == tree and loaded.parents == tree.parents and dict(loaded.players) == dict(tree.players)


@pytest.mark.parametrize("order", ["best_first", "worst_first"])
def test_orderings_sort_children_by_minimax_value(order: str) -> None:
    tree = random_tree(3, 4, seed=3, order=order)  # type: ignore[arg-type]
    tracer = RecordingTracer()
    minimax(tree, tracer=tracer)
    value = {e.node: e.value for e in tracer.events if isinstance(e, Exit)}
    assert minimax(tree).value == minimax(random_tree(3, 4, seed=3)).value  # the same game, reordered
    for node in tree.nodes():
        kids = [value[k] for k in tree.children_of(node)]
        best_first = sorted(kids, reverse=tree.to_move(node) is Player.MAX)
        assert kids == (best_first if order == "best_first" else best_first[::-1])


def test_mostly_best_first_puts_the_best_child_first_at_about_p_of_the_nodes() -> None:
    # p = 1: every node's first child is a best one; p = 0: the random tree itself; p = 0.9 on
    # 3,906 inner nodes of b = 5: the best child first at 0.9 + 0.1 / 5 = 0.92 of them (a random
    # order has it first one time in 5), within 4 standard deviations (sd 0.0043).
    def share_best_first(tree: GameTree) -> float:
        tracer = RecordingTracer()
        minimax(tree, tracer=tracer)
        value = {e.node: e.value for e in tracer.events if isinstance(e, Exit)}
        inner = [node for node in tree.nodes() if not tree.is_terminal(node)]
        return sum(value[tree.children_of(node)[0]] == value[node] for node in inner) / len(inner)

    assert share_best_first(random_tree(3, 4, seed=4, order="mostly_best_first", p=1)) == 1
    assert random_tree(3, 4, seed=4, order="mostly_best_first", p=0).to_dict()["values"] == \
        random_tree(3, 4, seed=4).to_dict()["values"]
    strong = random_tree(5, 6, high=10**9, seed=4, order="mostly_best_first", p=0.9)
    assert abs(share_best_first(strong) - 0.92) < 4 * (0.92 * 0.08 / 3906) ** 0.5
    assert minimax(strong).value == minimax(random_tree(5, 6, high=10**9, seed=4)).value


@pytest.mark.parametrize("kwargs", [dict(branching=0, depth=2), dict(branching=2, depth=-1),
                                    dict(branching=(3, 2), depth=2), dict(branching=2, depth=2, low=5, high=1),
                                    dict(branching=2, depth=2, order="sideways"),
                                    dict(branching=2, depth=2, order="mostly_best_first", p=1.5)])
def test_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        random_tree(**kwargs)  # type: ignore[arg-type]
