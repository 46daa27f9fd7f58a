"""The textbook trees in gamelib/data/trees/: values, best moves and alpha-beta's pruning, from the books.

The expected numbers are in gamelib/data/reference/textbook_trees.json; each was worked by hand as below.
Their backed-up values and best moves are checked with the seeds' trees in test_seed_outputs.py.

AIMA Figure 5.2 (Russell & Norvig, 3rd ed.): B = min(3, 12, 8) = 3, C = min(2, 4, 6) = 2,
D = min(14, 5, 2) = 2, A = max(3, 2, 2) = 3 by a1 (to B). Alpha-beta (Figure 5.5): after B, alpha = 3;
C's first leaf 2 <= 3 cuts C, so C2 (4) and C3 (6) are never examined; D's 14 > 3 and 5 > 3 do not
cut, its 2 ends it: 3 + 1 + 3 = 7 leaves.

The same tree, best first (AIMA section 5.3.1: "if the third successor of D had been generated
first, with value 2, we would have been able to prune the other two successors"; B's leaves put in
the order 3, 8, 12): B costs 3 leaves, C and D one each (2 <= alpha 3): 5 leaves, Knuth & Moore's
b^ceil(d/2) + b^floor(d/2) - 1 = 3 + 3 - 1 for b = 3, d = 2. Pruned: C2, C3, D1, D2.

The deep cut-off tree ((((5 8) (6 9)) ((7 5) (1 3))) (((3 9) (7 4)) ((8 6) (2 9)))), numbered
breadth first (MIN nodes 7-14, MAX nodes 3-6, MIN nodes 1-2, MAX root 0):
  7 = min(5, 8) = 5, 8 = min(6, 9) = 6, 9 = min(7, 5) = 5, 10 = min(1, 3) = 1,
  11 = min(3, 9) = 3, 12 = min(7, 4) = 4, 13 = min(8, 6) = 6, 14 = min(2, 9) = 2;
  3 = max(5, 6) = 6, 4 = max(5, 1) = 5, 5 = max(3, 4) = 4, 6 = max(6, 2) = 6;
  1 = min(6, 5) = 5, 2 = min(4, 6) = 4; 0 = max(5, 4) = 5 by move 1.
Alpha-beta: node 3 gets 5 from node 7, node 8 (window 5..inf) reads 6 and 9: node 3 = 6, node 1's
beta = 6; node 9 reads 7 and 5: node 4's alpha = 5; node 10 (window 5..6) reads 1 <= 5: cut, 22
pruned; node 1 = 5, the root's alpha = 5. Node 11 (window 5..inf, three plies down) reads 3 <= 5: a
deep cut-off by the root's alpha, 24 pruned; node 12 reads 7 and 4; node 5 stays at 5, so node 2
is worth at most 5 <= alpha: cut, node 6 and its subtree (13, 14, 27-30) pruned. Leaves read:
15 16 17 18 19 20 21 23 25 26 = 10.
"""

from __future__ import annotations

import pytest

from gamelib import (
    GameTree,
    RecordingTracer,
    alphabeta,
    load_reference,
    load_seed_tree,
    pruned_nodes,
)
from gamelib.search.algorithms import SEARCHES, run_search
from gamelib.search.tracing import evaluated_nodes

TEXTBOOK = {
    "textbook_aima_fig5_2": "A(B(B1=3 B2=12 B3=8) C(C1=2 C2=4 C3=6) D(D1=14 D2=5 D3=2))",
    "textbook_aima_fig5_2_best_first": "A(B(B1=3 B3=8 B2=12) C(C1=2 C2=4 C3=6) D(D3=2 D1=14 D2=5))",
    "worked_deep_cutoff": "((((5 8) (6 9)) ((7 5) (1 3))) (((3 9) (7 4)) ((8 6) (2 9))))",
}


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_alphabeta_prunes_what_the_book_shows(name: str) -> None:
    expected = load_reference("textbook_trees")[name]
    tree = load_seed_tree(name)
    tracer = RecordingTracer()
    result = alphabeta(tree, tracer=tracer)
    assert result.value == expected["values"][tree.root]
    assert pruned_nodes(tree, tracer.events) == expected["alphabeta_pruned"]
    assert len(evaluated_nodes(tracer.events)) == expected["alphabeta_leaves"]


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_every_search_agrees(name: str) -> None:
    tree = load_seed_tree(name)
    value = load_reference("textbook_trees")[name]["values"][tree.root]
    assert {algorithm: run_search(algorithm, tree).value for algorithm in SEARCHES} == dict.fromkeys(SEARCHES, value)


@pytest.mark.parametrize("name, text", list(TEXTBOOK.items()))
def test_the_files_are_their_board_notation(name: str, text: str) -> None:
    tree = load_seed_tree(name)
    assert tree.to_text() == text
    written = GameTree.from_text(text)
    assert (dict(written.children), dict(written.values)) == (dict(tree.children), dict(tree.values))
