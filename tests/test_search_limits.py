"""The searches' own guards (issue 12): trees too deep to recurse through, and MTD(f) on values it
cannot step through, each a SearchError before anything hangs, recurses away or eats memory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gamelib import GameTree, Player, SearchError, load_seed_tree, tree_from_dict
from gamelib.games.trees import MAX_TREE_DEPTH
from gamelib.search import mtdf as mtdf_module
from gamelib.search.algorithms import SEARCHES, run_search
from gamelib.search.deepening import iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import alphabeta
from tests.bad_inputs import NON_INTEGER

ROOT = Path(__file__).resolve().parent.parent


def direct_chain(plies: int) -> GameTree:
    """A chain of ``plies`` plies built without the loader (which refuses it), every node valued by
    its ply, so a depth-limited search has a value to stop at."""
    players = {str(ply): Player.MAX if ply % 2 == 0 else Player.MIN for ply in range(plies + 1)}
    return GameTree(name="chain", source="test", root="0", root_player=Player.MAX,
                    children={str(ply): (str(ply + 1),) for ply in range(plies)},
                    values={str(ply): ply for ply in range(plies + 1)}, players=players)


@pytest.fixture(scope="module", params=[10_000, 100_000])
def deep(request: pytest.FixtureRequest) -> GameTree:
    return direct_chain(request.param)


@pytest.mark.parametrize("name", SEARCHES)
def test_every_search_refuses_a_tree_too_deep_to_recurse(deep: GameTree, name: str) -> None:
    with pytest.raises(SearchError, match=f"the tree is {deep.height} plies deep: .* at most 200 plies deep"):
        run_search(name, deep)
    with pytest.raises(SearchError, match="MAX_TREE_DEPTH"):
        run_search(name, deep, depth=MAX_TREE_DEPTH + 1)


@pytest.mark.parametrize("name", SEARCHES)
def test_a_depth_limit_within_the_bound_searches_a_deep_tree(deep: GameTree, name: str) -> None:
    # The chain has one line: a search to depth d stops at node d, whose value is d.
    assert run_search(name, deep, depth=MAX_TREE_DEPTH).value == MAX_TREE_DEPTH
    assert run_search(name, deep, depth=7).value == 7


def test_iterative_deepening_stops_at_the_bound(deep: GameTree) -> None:
    with pytest.raises(SearchError, match="MAX_TREE_DEPTH"):
        iterative_deepening(deep, max_depth=MAX_TREE_DEPTH + 1, search=alphabeta)


def test_a_tree_built_directly_has_its_parents_and_height() -> None:
    tree = direct_chain(3)
    assert tree.height == 3 and tree.result("1", "2") == "2" and tree.ply("3") == 3


# MTD(f): whole numbers only, and never more than MAX_PASSES passes.

def test_mtdf_on_values_that_are_not_whole_numbers_stops_at_once() -> None:
    """In a child process with 30 s and 1 GB, so that a looping MTD(f) fails the test, not the machine."""
    script = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
        from gamelib import tree_from_dict
        from gamelib.search.mtdf import mtdf
        from gamelib.search.negamax import SearchError
        try:
            mtdf(tree_from_dict({json.dumps(NON_INTEGER)}))
        except SearchError as error:
            print(error)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30,
                          check=False)
    assert done.returncode == 0, done.stderr[-300:]
    assert done.stdout.startswith("pass 1's value is 4.01: MTD(f) steps its null window (v - 1, v) one unit")


def test_mtdf_reports_the_value_for_max_when_min_moves_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mtdf_module, "MAX_PASSES", 50)  # in-process: the pass limit keeps this test from hanging
    data = {**NON_INTEGER, "to_move": "min"}
    # By hand, pass 1 asks (-1, 0) for MIN at the root: node 1 fails high at leaf 7 (4.01), node 2 at
    # node 5, worth max(9.99, 3.99) = 3.99 to MAX; the root fails low with the better of them for MIN.
    with pytest.raises(SearchError, match=r"pass 1's value is 3\.99: "):
        mtdf(tree_from_dict(data))


def test_whole_floats_are_fine_for_mtdf() -> None:
    data = {**NON_INTEGER, "values": {node: float(round(value)) for node, value in NON_INTEGER["values"].items()}}
    tree = tree_from_dict(data)
    # By hand (6.5 rounds to 6): node 1 = min(max(4), max(7, 6, 4)) = 4, node 2 = min(max(10, 4),
    # max(3, 5, 2)) = 5, the root max(4, 5) = 5.
    assert mtdf(tree).value == 5.0


@pytest.mark.parametrize("guess", [0.5, float("inf"), float("nan"), 2.0**60])
def test_mtdf_refuses_a_first_guess_it_cannot_step_from(guess: float) -> None:
    with pytest.raises(SearchError, match="the first guess is"):
        mtdf(load_seed_tree("broeders31"), first_guess=guess)


def test_mtdf_gives_up_after_max_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert mtdf_module.MAX_PASSES == 1000
    # Plaat et al. (1996): from the true value (4, seed 003) MTD(f) needs exactly two passes.
    monkeypatch.setattr(mtdf_module, "MAX_PASSES", 1)
    with pytest.raises(SearchError, match=r"MTD\(f\) made 1 passes \(MAX_PASSES\) .* lies in \[4, inf\]"):
        mtdf(load_seed_tree("broeders31"), first_guess=4)
    monkeypatch.setattr(mtdf_module, "MAX_PASSES", 2)
    assert mtdf(load_seed_tree("broeders31"), first_guess=4).value == 4
