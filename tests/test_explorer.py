"""The tree explorer: searches step together, leaves change in place, random trees, every search."""

from __future__ import annotations

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta, minimax
from gamelib.games.trees import TreeFormatError
from gamelib.search.algorithms import SEARCHES
from gamelib.search.negamax import SearchError
from gamelib.search.tracing import Cutoff, Enter
from gamelib.view.explorer import Explorer, explore
from gamelib.view.replay import ReplayError, Status
from tests.conftest import step_after


def trace(search: object, tree: GameTree) -> tuple:  # type: ignore[type-arg]
    tracer = RecordingTracer()
    search(tree, tracer=tracer)  # type: ignore[operator]
    return tracer.events


def test_next_reaches_the_cutoff_at_8(broeders: GameTree) -> None:
    events = trace(alphabeta, broeders)
    explorer = explore(broeders, "alphabeta", step=step_after(events, Enter, "8"))
    view = explorer.views[0]
    assert view.snapshot().status["18"] is Status.UNSEEN
    # Enter 17, leaf 17, leave 17, best move 17, cutoff: five events after entering 8
    for _ in range(5):
        explorer.next()
    assert view.snapshot().status["18"] is Status.PRUNED
    assert '<g id="node-18" class="node max pruned"' in explorer.svg
    assert "pos 8: 3 &lt;= alpha 4, cut: position 18 is never searched" in view.words.value


def test_two_searches_step_together(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta", "minimax"])
    short, long = len(trace(alphabeta, broeders)), len(trace(minimax, broeders))
    assert explorer.controls.total == long > short
    explorer.go(short + 3)
    assert [view.step for view in explorer.views] == [short, short + 3]  # alpha-beta has finished
    assert "finished" in explorer.views[0].words.value and "finished" not in explorer.views[1].words.value
    explorer.back()
    assert [view.step for view in explorer.views] == [short, short + 2]


def test_changing_a_leaf_records_the_searches_again(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    end = explorer.controls.total
    explorer.go(end)
    assert explorer.views[0].snapshot().status["18"] is Status.PRUNED
    # 17 = 5 > alpha 4: MIN at 8 can no longer stop after 17, so 18 is searched (seed 003's rule)
    explorer.set_leaf("17", 5)
    picture = explorer.views[0].snapshot()
    assert picture.status["18"] is Status.DONE and explorer.step == end  # the step is kept
    assert explorer.controls.total > end  # 18 is one more leaf to search
    assert explorer.tree.values["17"] == 5 and broeders.values["17"] == 3
    with pytest.raises(TreeFormatError, match="not a leaf"):
        explorer.set_leaf("8", 1)
    with pytest.raises(TreeFormatError, match="outside"):
        explorer.set_leaf("17", 16)  # Broeders' values lie in 0..15


def test_leaf_boxes_sit_under_the_leaves_and_edit_them(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    assert not explorer.leaf_editors
    explorer.edit.value = True
    assert list(explorer.leaf_editors) == [str(p) for p in range(15, 31)]  # the 16 leaves, left to right
    picture = explorer.views[0].picture
    assert len(picture.stack.children) == 1 + 16
    lefts = [float(box.layout.left.rstrip("%")) for box in explorer.leaf_editors.values()]
    assert lefts == sorted(lefts) and 0 < lefts[0] and lefts[-1] < 100
    explorer.go(step_after(trace(alphabeta, broeders), Cutoff, "8"))
    explorer.leaf_editors["17"].value = 5  # what typing 5 into the box does
    assert explorer.tree.values["17"] == 5 and explorer.views[0].snapshot().status["18"] is not Status.PRUNED
    explorer.edit.value = False
    assert len(picture.stack.children) == 1


def test_random_tree_and_back(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    explorer.draw_random_tree(3, 2, seed=5)
    assert len(explorer.tree.nodes()) == 1 + 3 + 9  # a uniform tree of branching 3, depth 2
    assert explorer.views[0].snapshot().status.keys() == set(explorer.tree.nodes())
    same = Explorer(broeders, ["alphabeta"])
    same.draw_random_tree(3, 2, seed=5)
    assert same.tree == explorer.tree  # a class shares a tree by its seed
    explorer.reset_tree()
    assert explorer.tree == broeders and explorer.views[0].painter.tree == broeders


def test_choosing_searches(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    explorer.set_algorithms("negascout", "mtdf")
    assert explorer.algorithms == ["negascout", "mtdf"] and len(explorer.views) == 2
    assert "MTD(f) pass 1" in explorer.views[1].picture.svg
    explorer.set_algorithms("minimax")
    assert len(explorer.views) == 1
    with pytest.raises(SearchError, match="unknown search 'nope'"):
        explorer.set_algorithms("nope")
    with pytest.raises(SearchError, match="one or two"):
        Explorer(broeders, ["minimax", "alphabeta", "pvs"])
    with pytest.raises(ReplayError):
        explorer.go(explorer.controls.total + 1)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_every_registered_search_can_be_explored(broeders: GameTree, name: str) -> None:
    explorer = Explorer(broeders, [name])
    explorer.go(explorer.controls.total)
    assert explorer.views[0].snapshot().finished
    assert explorer.views[0].snapshot().status["0"] is Status.DONE


def test_a_typed_tree_loads_and_its_text_can_be_copied(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    assert "[0 15] ((((4 5) (3 2))" in explorer.copy_text.value  # seed 003's leaves, values 0..15
    explorer.text_box.value = "((3 12 8) (2 4 6) (14 5 2)"
    explorer._load_from_box()  # what the Load button does
    assert "column 27: expected &#x27;)&#x27;" in explorer.text_error.value and explorer.tree is broeders
    explorer.text_box.value = "((3 12 8) (2 4 6) (14 5 2))"
    explorer._load_from_box()
    assert explorer.text_error.value == "" and explorer.tree.children_of("0") == ("1", "2", "3")
    explorer.go(explorer.controls.total)
    # AIMA Figure 5.5: the second MIN node's leaves 4 and 6 (nodes 8 and 9) are pruned
    assert [explorer.views[0].snapshot().status[node] for node in ("8", "9")] == [Status.PRUNED] * 2
    assert "((3 12 8) (2 4 6) (14 5 2))</textarea>" in explorer.copy_text.value


def test_the_picture_and_its_words_come_first_and_the_tools_are_folded(broeders: GameTree) -> None:
    explorer = explore(broeders, "alphabeta", step=19)
    stage = list(explorer.stage.children)
    assert stage.index(explorer.panels) < stage.index(explorer.controls.widget)  # the picture, then the controls
    assert explorer.tools.layout.display == "none" and explorer.tools_shown.value is False
    assert explorer.save_bar.widget in explorer.tools.children and explorer.controls.speed in explorer.tools.children
    # the step's words say the cut once, then why (not "cut by 3 <= alpha 4" again)
    words = explorer.views[0].words.value
    assert words.count("3 &lt;= alpha 4") == 1 and "MAX can get 4 elsewhere and will not come here" in words


def test_a_page_without_a_kernel_shows_the_pictures_and_words(broeders: GameTree) -> None:
    bundle = explore(broeders, "alphabeta", "minimax", step=19)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    page = bundle["text/html"]
    assert page.count('data-step="19"') == 2 and "position 18 is never searched" in page


def test_each_explorer_shows_the_counters_and_legend_of_its_searches_only() -> None:
    """Lesson 1's minimax explorer has no cutoffs, re-searches, table hits or null windows; NegaScout's has its
    null windows and re-searches but no table; a table given to alpha-beta brings its hits; choosing another
    search changes the legend."""
    from gamelib import TranspositionTable, load_seed_tree
    broeders = load_seed_tree("broeders31")
    plain = explore(broeders, "minimax")
    plain.go(len(plain.views[0]))
    words, key = plain.views[0].words.value, plain.legend.value
    assert "nodes entered" in words and not any(name in words for name in ("cutoffs", "re-searches", "table hits"))
    assert not any(mark in key for mark in ("pruned", "null-window", "re-search", "TT:", "window passed down")), key
    scout = explore(broeders, "negascout")
    assert "re-searches" in scout.views[0].words.value and "table hits" not in scout.views[0].words.value
    assert "null-window" in scout.legend.value and "TT:" not in scout.legend.value
    tabled = explore(broeders, "alphabeta", table=TranspositionTable(size=64))
    assert "table hits" in tabled.views[0].words.value
    plain.set_algorithms("alphabeta", "negascout")
    assert "pruned" in plain.legend.value and "re-search" in plain.legend.value


def test_the_explorer_marks_the_minimal_tree_s_node_types() -> None:
    """Broeders' tree: PV nodes 0, 1, 3, 7, 15; the all nodes 5, 9, 17, 23, 25 (first moves of cut nodes); the cut
    nodes 2, 4, 8, 11, 12, 16, 19, 20 (by hand from Knuth & Moore's rule); position 6 and the pruned leaves unmarked."""
    import re

    from gamelib import load_seed_tree
    shown = explore(load_seed_tree("broeders31"), "alphabeta", node_types=True)
    shown.go(len(shown.views[0]))
    badges = dict(re.findall(r'<g id="node-(\d+)"(?:(?!</g>).)*?class="badge"[^>]*><tspan[^>]*>([^<]+)<',
                             shown.views[0].picture.svg, re.S))
    by_type = {kind: {int(node) for node, badge in badges.items() if badge == kind} for kind in ("PV", "cut", "all")}
    assert by_type == {"PV": {0, 1, 3, 7, 15}, "cut": {2, 4, 8, 11, 12, 16, 19, 20}, "all": {5, 9, 17, 23, 25}}
    assert "node types" in shown.legend.value and "node types" not in explore(load_seed_tree("broeders31")).legend.value
