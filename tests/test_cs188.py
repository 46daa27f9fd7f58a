'''The CS188 GraphGameTreeTest importer, on trees written for this project in that format; every
expected value is worked out by hand in the comments.'''

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.game import Player
from gamelib.games.trees import TreeFormatError, from_cs188, load_tree
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.negamax import SearchResult, alphabeta, minimax
from tests.budget import examples

ROOT = Path(__file__).resolve().parents[1]

TWO_GHOSTS = (ROOT / "gamelib" / "data" / "trees" / "two_ghosts.test").read_text(encoding="utf-8")
"""A tree written for this project in CS188's format: Pacman and two ghosts, values such as 3.01."""


def test_one_depth_is_every_agent_moving_once() -> None:
    tree = from_cs188(TWO_GHOSTS)
    # depth 1 with 3 agents = 3 plies: Wa1's successor 'deep' lies beyond, so Wa1 is a leaf.
    assert tree.height == 3 and tree.is_terminal("Wa1") and "deep" not in tree.players
    assert [tree.to_move(node) for node in ("P", "W", "Wa", "Wa1")] == [Player.MAX, Player.MIN, Player.MIN,
                                                                       Player.MAX]
    assert "3 plies" in tree.source


@pytest.mark.parametrize("search", [minimax, alphabeta, expectiminimax])
def test_minimax_against_two_ghosts(search: Callable[..., SearchResult]) -> None:
    # Wa = min(3.01, 7) = 3.01, Wb = min(2.5, 9) = 2.5, W = 2.5;
    # Ea = min(4, 3.02) = 3.02, Eb = min(8, 6) = 6, E = 3.02; P = max(2.5, 3.02) = 3.02 by East.
    result = search(from_cs188(TWO_GHOSTS))
    assert (result.value, result.pv) == (3.02, ("E", "Ea", "Ea2"))


def test_expectimax_against_two_random_ghosts() -> None:
    # Wa = (3.01 + 7) / 2 = 5.005, Wb = (2.5 + 9) / 2 = 5.75, W = 5.3775;
    # Ea = (4 + 3.02) / 2 = 3.51, Eb = (8 + 6) / 2 = 7, E = 5.255; P = 5.3775 by West.
    result = expectimax(from_cs188(TWO_GHOSTS))
    assert result.move == "W" and result.value == pytest.approx(5.3775, abs=1e-12)


def test_depth_two_reaches_the_deeper_state() -> None:
    # depth 2 = 6 plies: Wa1 (MAX) now has its successor deep (-5): Wa1 = -5, Wa = -5, W = -5; P = 3.02 by East.
    tree = from_cs188(TWO_GHOSTS.replace('depth: "1"', 'depth: "2"'))
    assert tree.height == 4 and tree.children_of("Wa1") == ("deep",) and tree.to_move("deep") is Player.MIN
    # Minimax: Wa = min(-5, 7) = -5, W = min(-5, 2.5) = -5, E = 3.02: still East, 3.02.
    assert (minimax(tree).value, minimax(tree).move) == (3.02, "E")
    # Expectimax: Wa = (-5 + 7) / 2 = 1, Wb = 5.75, W = 3.375 < E = 5.255: now East.
    assert expectimax(tree).move == "E" and expectimax(tree).value == pytest.approx(5.255, abs=1e-12)


WIN_AND_LOSE = '''num_agents: "2"
depth: "2"
start_state: "root"
win_states: "A"
lose_states: "D"
successors: """
root left A
root right B
A x A1
B x C
B y D
C x C1
C y C2
"""
evaluation: """
A 1
A1 999
C1 4
C2 6
D -3.5
"""
'''


def test_win_and_lose_states_end_the_game() -> None:
    # A is a win state: a leaf worth 1 (were A1 searched, A would be 999). C = max(4, 6) = 6 (MAX at ply 2),
    # B = min(C 6, D -3.5) = -3.5, root = max(1, -3.5) = 1 by A.
    tree = from_cs188(WIN_AND_LOSE)
    assert tree.is_terminal("A") and tree.is_terminal("D")
    assert (minimax(tree).value, minimax(tree).move) == (1, "A")


@pytest.mark.parametrize("change, message", [
    (('B y D', 'B y'), "line 11: a successor is 'state action next_state'"),
    (('C2 6', 'C2 six'), "line 19: the value 'six' is not a finite number"),
    (('C2 6', 'C2 nan'), "line 19: the value 'nan' is not a finite number"),
    (('D -3.5\n', ''), "line 11: state 'D' is a leaf 2 plies down but has no evaluation"),
    (('C y C2', 'C y A'), "line 13: state 'A' is reached a second time .first on line 7."),
    (('num_agents: "2"', 'num_agents: "0"'), "line 1: num_agents is '0': give a whole number >= 1"),
    (('depth: "2"', 'depth: 2'), "line 2: the value of 'depth' must be in double quotes"),
    (('depth: "2"', 'depth: "2"\ndepth: "3"'), "line 3: 'depth' is given twice .first on line 2."),
    (('D -3.5\n"""', 'D -3.5'), "line 15: the block 'evaluation' has no closing"),
    (('start_state: "root"', ''), "the file has no 'start_state'"),
    (('root left A', 'root: left A'), None),  # inside a block, a colon is just a character
])
def test_bad_files_name_the_line(change: tuple[str, str], message: str | None) -> None:
    text = WIN_AND_LOSE.replace(*change)
    assert text != WIN_AND_LOSE
    if message is None:
        with pytest.raises(TreeFormatError, match="line 7: a successor"):
            from_cs188(text.replace("root: left A", "root: left"))
        return
    with pytest.raises(TreeFormatError, match=message):
        from_cs188(text)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gamelib", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=60)


def test_the_command_line_traces_a_test_file(tmp_path: Path) -> None:
    path = tmp_path / "two_ghosts.test"
    path.write_text(TWO_GHOSTS, encoding="utf-8")
    assert load_tree(path).name == "two_ghosts"
    done = run_cli("trace", "alphabeta", str(path))
    summary = json.loads(done.stdout)
    assert (summary["value"], summary["best_move"], summary["tree"]) == (3.02, "E", "two_ghosts")
    path.write_text(TWO_GHOSTS.replace("Eb2 6\n", ""), encoding="utf-8")
    bad = run_cli("trace", "minimax", str(path))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "two_ghosts.test: line 26: state 'Eb2' is a leaf 3 plies down but has no evaluation" in bad.stderr


def test_a_successor_back_to_the_start_is_a_cycle() -> None:
    with pytest.raises(TreeFormatError, match="line 10: 'root' is the start state: a successor back to it"):
        from_cs188(WIN_AND_LOSE.replace("B x C", "B x root"))


@examples(200)
@given(st.text(alphabet=st.sampled_from(list('abAB01 .:"\n#-e')), max_size=300))
def test_any_text_gives_a_tree_or_a_tree_format_error(text: str) -> None:
    try:
        from_cs188(text)
    except TreeFormatError:
        pass


@examples(100)
@given(st.lists(st.sampled_from(WIN_AND_LOSE.splitlines()), max_size=25))
def test_shuffled_lines_give_a_tree_or_a_tree_format_error(lines: list[str]) -> None:
    try:
        from_cs188("\n".join(lines))
    except TreeFormatError as error:
        assert str(error).startswith("line ")


def test_the_command_line_runs_expectimax_on_the_data_file() -> None:
    summary = json.loads(run_cli("trace", "expectimax", "gamelib/data/trees/two_ghosts.test").stdout)
    # As worked out above: 5.3775 by West; the MIN nodes' sums are traced as chance_sum events.
    assert summary["best_move"] == "W" and summary["value"] == pytest.approx(5.3775, abs=1e-12)
    assert sum(event["event"] == "chance_sum" for event in summary["events"]) == 12  # 6 MIN nodes (W, E, Wa, Wb, Ea, Eb), 2 children each
