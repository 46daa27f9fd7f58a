"""Worksheets and answer keys: the key agrees with the search trace and with a brute-force minimax,
the difficulty options hold, the files are deterministic, bad options are one line and status 2."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamelib.cli import main
from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree
from gamelib.search.deepening import Searcher
from gamelib.search.negamax import alphabeta, negascout
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Bound, Cutoff, Enter, RecordingTracer, pruned_nodes
from gamelib.teach.worksheet import Difficulty, TreeAnswer, WorksheetError, answer_key, make_worksheet
from gamelib.view.stepper import record

SVG = "{http://www.w3.org/2000/svg}"


def brute_force(tree: GameTree, node: str) -> Value:
    """Minimax by hand: every leaf, no pruning (a MAX node takes the largest child, MIN the smallest)."""
    kids = tree.children.get(node)
    if not kids:
        return tree.values[node]
    values = [brute_force(tree, kid) for kid in kids]
    return max(values) if tree.players[node] is Player.MAX else min(values)


def agrees_with_a_fresh_trace(answer: TreeAnswer, search: str) -> None:
    """The key against a trace recorded here again and against brute-force minimax values."""
    tree, tracer = answer.tree, RecordingTracer()
    searches: dict[str, Searcher] = {"alphabeta": alphabeta, "negascout": negascout}
    searches[search](tree, tracer=tracer)
    entered = [event for event in tracer.events if isinstance(event, Enter)]
    for node, node_answer in answer.nodes.items():
        assert list(node_answer.windows) == [(e.alpha, e.beta) for e in entered if e.node == node]
    assert answer.pruned == tuple(pruned_nodes(tree, tracer.events))
    assert sum(isinstance(event, Cutoff) for event in tracer.events) == len(answer.cutoffs)
    assert answer.value == brute_force(tree, tree.root)
    assert brute_force(tree, answer.best_move or "") == answer.value
    for node, node_answer in answer.nodes.items():
        if node in answer.pruned:
            assert node_answer.value is None and node_answer.windows == ()
            continue
        truth, value = brute_force(tree, node), node_answer.value
        assert value is not None
        assert {Bound.EXACT: truth == value, Bound.LOWER: truth >= value, Bound.UPPER: truth <= value}[
            node_answer.bound or Bound.EXACT], (answer.tree_seed, node)


@pytest.mark.parametrize(("branching", "depth"), [(2, 3), (3, 3), (2, 4), (4, 2)])
def test_the_key_agrees_with_the_traces_on_many_seeds(branching: int, depth: int) -> None:
    for seed in range(8):
        for answer in make_worksheet(seed, 4, branching, depth, difficulty=Difficulty(0)).answers:
            agrees_with_a_fresh_trace(answer, "alphabeta")


def test_a_negascout_key_agrees_with_its_trace() -> None:
    for answer in make_worksheet(3, 6, 2, 4, algorithm="negascout").answers:
        agrees_with_a_fresh_trace(answer, "negascout")


def test_aima_figure_5_2_by_hand() -> None:
    # Russell & Norvig, Figure 5.5 (alpha-beta on Figure 5.2's tree): B = 3; C's first leaf 2 <= 3
    # prunes C's other two leaves; D sees 14, 5, 2. Nodes numbered breadth first: B, C, D = 1, 2, 3;
    # B's leaves 4-6, C's 7-9, D's 10-12.
    tree = GameTree.from_text("((3 12 8) (2 4 6) (14 5 2))")
    key = answer_key(tree, record(tree, "alphabeta"))
    inf = math.inf
    assert (key.value, key.best_move, key.pruned) == (3, "1", ("8", "9"))
    assert {node: key.nodes[node].windows for node in ("0", "1", "5", "6", "2", "7", "3", "10", "11", "12")} == {
        "0": ((-inf, inf),), "1": ((-inf, inf),), "5": ((-inf, 3),), "6": ((-inf, 3),), "2": ((3, inf),),
        "7": ((3, inf),), "3": ((3, inf),), "10": ((3, inf),), "11": ((3, 14),), "12": ((3, 5),)}
    assert [(key.nodes[n].value, key.nodes[n].bound) for n in "123"] == [(3, Bound.EXACT), (2, Bound.UPPER),
                                                                           (2, Bound.UPPER)]
    assert [(cut.node, cut.reason, cut.skipped, cut.plies) for cut in key.cutoffs] == [("2", "2 <= alpha 3",
                                                                                          ("8", "9"), 1)]


def deep_cuts_by_hand(tree: GameTree, events: tuple[object, ...]) -> int:
    """Deep cut-offs counted without gamelib's reading: a MIN node cuts on alpha, a MAX node on
    beta; the cut is shallow when the parent entered with another value of that bound (it moved it
    itself), otherwise the bound came from 3 or more plies up (the root's window here is infinite)."""
    entered = {event.node: event for event in events if isinstance(event, Enter)}
    parent = {kid: node for node, kids in tree.children.items() for kid in kids}
    deep = 0
    for event in events:
        if isinstance(event, Cutoff):
            name = "alpha" if tree.players[event.node] is Player.MIN else "beta"
            mine, above = getattr(entered[event.node], name), getattr(entered[parent[event.node]], name)
            deep += mine == above and not math.isinf(mine)
    return deep


@pytest.mark.parametrize("difficulty", [Difficulty(3, 4), Difficulty(0, 0), Difficulty(4, None, 2), Difficulty(1, 5, 1)])
def test_the_difficulty_is_honoured(difficulty: Difficulty) -> None:
    for answer in make_worksheet(11, 5, 2, 4, difficulty=difficulty).answers:
        cuts = sum(isinstance(event, Cutoff) for event in answer.events)
        assert difficulty.min_cutoffs <= cuts <= (difficulty.max_cutoffs or cuts)
        assert deep_cuts_by_hand(answer.tree, answer.events) >= difficulty.deep_cutoffs
        assert answer.tree == classroom_tree(2, 4, answer.tree_seed or 0)


def test_the_trees_differ_and_follow_the_seed() -> None:
    seeds = [answer.tree_seed for answer in make_worksheet(7, 10, 2, 3).answers]
    assert len(set(seeds)) == 10
    assert seeds != [answer.tree_seed for answer in make_worksheet(8, 10, 2, 3).answers]


def test_the_command_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet"
    assert main(["worksheet", "--seed", "7", "--trees", "6", "--branching", "3", "--depth", "3", "--out", str(out)]) == 0
    assert "wrote 15 files" in capsys.readouterr().out
    names = sorted(path.name for path in out.iterdir())
    assert names == sorted(["worksheet.html", "answers.html", "answers.json",
                            *(f"tree-{n}.svg" for n in range(1, 7)), *(f"tree-{n}-answers.svg" for n in range(1, 7))])
    assert all(path.stat().st_size > 1000 for path in out.iterdir())
    sheet = (out / "worksheet.html").read_text(encoding="utf-8")
    assert "Cross out the pruned branches" in sheet and "Write alpha and beta beside each node you enter" in sheet
    assert sheet.count("<svg") == 6 and "@media print" in sheet
    key = json.loads((out / "answers.json").read_text(encoding="utf-8"))
    for number, tree_key in enumerate(key["trees"], start=1):
        tree = classroom_tree(3, 3, tree_key["tree_seed"])
        blank = ET.fromstring((out / f"tree-{number}.svg").read_text(encoding="utf-8"))
        boxes = [rect for rect in blank.iter(f"{SVG}rect") if rect.get("class") == "value-box"]
        assert len(boxes) == 13  # one for each inner node of a branching-3, depth-3 tree: 1 + 3 + 9
        assert sum(line.get("class") == "blank" for line in blank.iter(f"{SVG}line")) == 2 * 40  # alpha, beta
        answered = ET.fromstring((out / f"tree-{number}-answers.svg").read_text(encoding="utf-8"))
        pruned = {g.get("id", "")[5:] for g in answered.iter(f"{SVG}g") if "pruned" in g.get("class", "").split()
                  and g.get("id", "").startswith("node-")}
        assert pruned == set(tree_key["pruned"])
        assert tree_key["value"] == brute_force(tree, tree.root)


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a", "b"):
        assert main(["worksheet", "--seed", "3", "--trees", "2", "--out", str(tmp_path / name)]) == 0
    for path in (tmp_path / "a").iterdir():
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


@pytest.mark.parametrize(("args", "message"), [
    (["--trees", "0"], "argument --trees: '0' is not a number of trees: give a whole number from 1 to 30"),
    (["--trees", "31"], "from 1 to 30"),
    (["--branching", "5"], "argument --branching: '5' is not a branching factor: give a whole number from 2 to 4"),
    (["--depth", "x"], "argument --depth: 'x' is not a number of plies"),
    (["--branching", "4", "--depth", "3"], "has 64 leaves; a printed page holds at most 27"),
    (["--min-cutoffs", "5", "--max-cutoffs", "2"], "the most cut-offs (2) is below the fewest (5)"),
    (["--branching", "2", "--depth", "2", "--min-cutoffs", "3"], "has 2 nodes that can cut"),
    (["--depth", "3", "--deep-cutoffs", "1"], "it needs depth 4 or more, not 3"),
    pytest.param(["--branching", "2", "--depth", "4", "--min-cutoffs", "6", "--deep-cutoffs", "4"],
                 "0 of 5,000 random trees of branching 2 and depth 4 have 6 or more cut-offs, at least 4 of them deep",
                 marks=pytest.mark.slow, id="no-tree-fits"),  # searches all 5,000 trees: seconds
    (["--algorithm", "minimax"], "argument --algorithm: invalid choice: 'minimax'"),
    (["--seed", "-1"], "argument --seed"),
])
def test_bad_options_are_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                               message: str) -> None:
    status = main(["worksheet", *args, "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_an_unwritable_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["worksheet", "--trees", "1", "--out", str(blocker / "sheet")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err


def test_a_trace_without_windows_is_refused() -> None:
    tree = GameTree.from_text("((3 12 8) (2 4 6))")
    with pytest.raises(WorksheetError, match="no windows"):
        answer_key(tree, record(tree, "minimax"))


def test_a_worksheet_of_the_instructors_own_tree_is_named_by_it(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """AIMA Figure 5.2's tree from its file: the worksheet names it (not "seed 0"), and its key is Figure 5.5's
    (value 3, best move B, C's second and third leaves pruned, C2 and C3 in the file's names; worked by hand in the
    test above, whose nodes are numbered)."""
    tree_file = Path(__file__).resolve().parents[1] / "gamelib" / "data" / "trees" / "textbook_aima_fig5_2.json"
    out = tmp_path / "sheet"
    assert main(["worksheet", "--tree", str(tree_file), "--out", str(out)]) == 0
    page, key = (out / "worksheet.html").read_text(encoding="utf-8"), json.loads((out / "answers.json").read_text())
    name = key["tree_name"]
    assert name and name in page and "seed" not in page.split("</h1>")[0], page.split("</h1>")[0]
    assert (key["trees"][0]["value"], key["trees"][0]["best_move"], key["trees"][0]["pruned"]) == (3, "B", ["C2", "C3"])


@pytest.mark.parametrize("args, message", [
    (["--seed", "3"], "--tree gives the worksheet's tree: --seed"),
    (["--algorithm", "alphabeta"], None),
])
def test_tree_with_random_tree_options_is_refused(tmp_path: Path, args: list[str], message: str | None,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    tree_file = Path(__file__).resolve().parents[1] / "gamelib" / "data" / "trees" / "textbook_aima_fig5_2.json"
    status = main(["worksheet", "--tree", str(tree_file), "--out", str(tmp_path / "s"), *args])
    assert status == (2 if message else 0) and (message is None or message in capsys.readouterr().err)


def test_a_tree_with_chance_nodes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree_file = Path(__file__).resolve().parents[1] / "gamelib" / "data" / "trees" / "textbook_aima_fig5_12.json"
    assert main(["worksheet", "--tree", str(tree_file), "--out", str(tmp_path / "s")]) == 2
    assert "chance nodes" in capsys.readouterr().err and not (tmp_path / "s").exists()
