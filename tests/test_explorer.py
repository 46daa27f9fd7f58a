"""The tree explorer: searches step together, leaves change in place, random trees, every search."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta, minimax
from gamelib.games.trees import TreeFormatError
from gamelib.search.algorithms import SEARCHES
from gamelib.search.negamax import SearchError
from gamelib.search.tracing import Cutoff, Enter
from gamelib.view.explorer import Explorer, explore
from gamelib.view.frames import decode_panel
from gamelib.view.replay import ReplayError, Status
from tests.conftest import step_after
from tests.player_pages import mime_data, page_data


def trace(search: object, tree: GameTree) -> tuple:  # type: ignore[type-arg]
    tracer = RecordingTracer()
    search(tree, tracer=tracer)  # type: ignore[operator]
    return tracer.events


def words(explorer: Explorer, panel: int = 0) -> str:
    """The words the player shows beside picture ``panel`` at the explorer's step."""
    return decode_panel(explorer.player.data, panel, explorer.step)[1]


def last_step(explorer: Explorer) -> int:
    """The player's last step: the longest search's last event."""
    return int(explorer.player.data["steps"])


def notes_sent(explorer: Explorer, monkeypatch: pytest.MonkeyPatch) -> list[Mapping[str, Any]]:
    """The messages the explorer sends the page from now on."""
    sent: list[Mapping[str, Any]] = []
    monkeypatch.setattr(explorer.player.widget, "send", lambda content, *_args, **_kwargs: sent.append(content))
    return sent






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
    assert "pos 8: 3 &lt;= alpha 4, cut: position 18 is never searched" in words(explorer)


def test_two_searches_step_together(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta", "minimax"])
    short, long = len(trace(alphabeta, broeders)), len(trace(minimax, broeders))
    assert last_step(explorer) == long > short
    assert [panel["last"] for panel in explorer.player.data["panels"]] == [short, long]
    explorer.go(short + 3)
    assert [view.snapshot().step for view in explorer.views] == [short, short + 3]  # alpha-beta has finished
    assert "finished" in words(explorer, 0) and "finished" not in words(explorer, 1)
    assert f"step {short + 3} of {long}" in words(explorer, 1)
    explorer.back()
    assert [view.snapshot().step for view in explorer.views] == [short, short + 2]


def test_changing_a_leaf_records_the_searches_again(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    end = last_step(explorer)
    explorer.go(end)
    assert explorer.views[0].snapshot().status["18"] is Status.PRUNED
    # 17 = 5 > alpha 4: MIN at 8 can no longer stop after 17, so 18 is searched (seed 003's rule)
    explorer.set_leaf("17", 5)
    picture = explorer.views[0].snapshot()
    assert picture.status["18"] is Status.DONE and explorer.step == end  # the step is kept
    assert last_step(explorer) > end  # 18 is one more leaf to search
    assert explorer.tree.values["17"] == 5 and broeders.values["17"] == 3
    with pytest.raises(TreeFormatError, match="not a leaf"):
        explorer.set_leaf("8", 1)
    with pytest.raises(TreeFormatError, match="outside"):
        explorer.set_leaf("17", 16)  # Broeders' values lie in 0..15


def test_leaf_boxes_sit_under_the_leaves_and_edit_them(broeders: GameTree, monkeypatch: pytest.MonkeyPatch) -> None:
    explorer = Explorer(broeders, ["alphabeta", "minimax"])
    assert not explorer.editing
    explorer._on_message({"edit": True})  # what "✎ Edit leaves" sends
    assert explorer.editing
    first, second = explorer.player.data["panels"]
    assert "edit" not in second  # the boxes go under the first picture only
    boxes = first["edit"]
    assert [leaf for leaf, *_ in boxes["leaves"]] == [str(p) for p in range(15, 31)]  # the 16 leaves, left to right
    # seed 003's leaf values, 0..15, whole numbers
    assert [value for *_, value in boxes["leaves"]] == [4, 5, 3, 2, 6, 7, 8, 9, 1, 10, 2, 11, 12, 13, 14, 14]
    assert (boxes["min"], boxes["max"], boxes["integer"]) == (0, 15, True)
    lefts = [x for _, x, _, _, _, _ in boxes["leaves"]]
    assert lefts == sorted(lefts) and 0 < lefts[0] and lefts[-1] + boxes["leaves"][-1][3] < boxes["width"]
    assert all(0 < y and y + h <= boxes["height"] for _, _, y, _, h, _ in boxes["leaves"])
    explorer.go(step_after(trace(alphabeta, broeders), Cutoff, "8"))
    sent = notes_sent(explorer, monkeypatch)
    explorer._on_message({"set_leaf": ["17", 5]})  # what typing 5 into the box sends
    assert explorer.tree.values["17"] == 5 and explorer.views[0].snapshot().status["18"] is not Status.PRUNED
    assert dict((leaf, value) for leaf, *_, value in explorer.player.data["panels"][0]["edit"]["leaves"])["17"] == 5
    assert sent == []
    for refused, why in ((["17", 16], "outside"), (["17", "x"], "must be a number"), (["8", 1], "not a leaf")):
        explorer._on_message({"set_leaf": refused})
        assert why in sent[-1]["note"] and explorer.tree.values["17"] == 5  # said in the player; the tree stays
    assert len(sent) == 3
    explorer._on_message({"edit": False})
    assert not explorer.editing


def test_random_tree_and_back(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    explorer.draw_random_tree(3, 2, seed=5)
    assert len(explorer.tree.nodes()) == 1 + 3 + 9  # a uniform tree of branching 3, depth 2
    assert explorer.views[0].snapshot().status.keys() == set(explorer.tree.nodes())
    same = Explorer(broeders, ["alphabeta"])
    same.draw_random_tree(3, 2, seed=5)
    assert same.tree == explorer.tree  # a class shares a tree by its seed
    explorer.reset_tree()
    assert explorer.tree == broeders and explorer.views[0].tree == broeders
    assert explorer.svg.count('<g id="node-') == len(broeders.nodes())


def test_choosing_searches(broeders: GameTree) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    explorer.set_algorithms("negascout", "mtdf")
    assert explorer.algorithms == ["negascout", "mtdf"] and len(explorer.views) == 2
    assert len(explorer.player.data["panels"]) == 2
    assert "MTD(f) pass 1" in explorer.views[1].svg(explorer.step)
    explorer.set_algorithms("minimax")
    assert len(explorer.views) == 1 and len(explorer.player.data["panels"]) == 1
    with pytest.raises(SearchError, match="unknown search 'nope'"):
        explorer.set_algorithms("nope")
    with pytest.raises(SearchError, match="one or two"):
        Explorer(broeders, ["minimax", "alphabeta", "pvs"])
    with pytest.raises(ReplayError):
        explorer.go(last_step(explorer) + 1)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_every_registered_search_can_be_explored(broeders: GameTree, name: str) -> None:
    explorer = Explorer(broeders, [name])
    explorer.go(last_step(explorer))
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
    explorer.go(last_step(explorer))
    # AIMA Figure 5.5: the second MIN node's leaves 4 and 6 (nodes 8 and 9) are pruned
    assert [explorer.views[0].snapshot().status[node] for node in ("8", "9")] == [Status.PRUNED] * 2
    assert "((3 12 8) (2 4 6) (14 5 2))</textarea>" in explorer.copy_text.value


def test_the_picture_and_its_words_come_first_and_the_tools_are_folded(broeders: GameTree) -> None:
    explorer = explore(broeders, "alphabeta", step=19)
    shell = list(explorer.shell.widget.children)
    assert shell.index(explorer.player.widget) < shell.index(explorer.shell.tools)  # the player, then the tools
    assert explorer.shell.tools.layout.display == "none" and explorer.shell.tools_shown is False
    tools = {action["id"]: action for action in explorer.player.data["actions"]}
    assert tools["tools"]["label"] == "Tree ▾" and tools["tools"]["pressed"] is False
    assert explorer.save_bar.widget in explorer.shell.tools.children
    explorer._on_message({"action": "tools", "on": True})  # what "Tree ▾" sends
    assert explorer.shell.tools_shown and explorer.shell.tools.layout.display is None
    explorer._on_message({"action": "tools", "on": False})
    assert not explorer.shell.tools_shown
    # the step's words say the cut once, then why (not "cut by 3 <= alpha 4" again)
    said = words(explorer)
    assert said.count("3 &lt;= alpha 4") == 1 and "MAX can get 4 elsewhere and will not come here" in said


def test_a_page_without_a_kernel_shows_the_pictures_and_words(broeders: GameTree) -> None:
    explorer = explore(broeders, "alphabeta", "minimax", step=19)
    bundle = mime_data(explorer._repr_mimebundle_())
    assert "application/vnd.jupyter.widget-view+json" in bundle
    data, opens_at = page_data(bundle["text/html"])
    assert opens_at == 19 and len(data["panels"]) == 2
    pictures = [decode_panel(data, panel, opens_at) for panel in (0, 1)]
    assert "position 18 is never searched" in pictures[0][1] and "step 19 of" in pictures[1][1]
    assert re.search(r'<g data-k="node-18" class="node max pruned"', pictures[0][0])  # the cut at 8, drawn
    assert "Pruned: 18." in pictures[0][2]  # and said in words


def test_each_explorer_shows_the_counters_and_legend_of_its_searches_only() -> None:
    """Lesson 1's minimax explorer has no cutoffs, re-searches, table hits or null windows; NegaScout's has its
    null windows and re-searches but no table; a table given to alpha-beta brings its hits; choosing another
    search changes the legend."""
    from gamelib import TranspositionTable, load_seed_tree
    broeders = load_seed_tree("broeders31")
    plain = explore(broeders, "minimax")
    plain.go(len(plain.views[0].replay))
    said, key = words(plain), plain.player.data["legend"]
    assert "nodes entered" in said and not any(name in said for name in ("cutoffs", "re-searches", "table hits"))
    assert not any(mark in key for mark in ("pruned", "null-window", "re-search", "TT:", "window passed down")), key
    scout = explore(broeders, "negascout")
    assert "re-searches" in words(scout) and "table hits" not in words(scout)
    assert "null-window" in scout.player.data["legend"] and "TT:" not in scout.player.data["legend"]
    tabled = explore(broeders, "alphabeta", table=TranspositionTable(size=64))
    assert "table hits" in words(tabled)
    plain.set_algorithms("alphabeta", "negascout")
    assert "pruned" in plain.player.data["legend"] and "re-search" in plain.player.data["legend"]


def test_the_explorer_marks_the_minimal_tree_s_node_types() -> None:
    """Broeders' tree: PV nodes 0, 1, 3, 7, 15; the all nodes 5, 9, 17, 23, 25 (first moves of cut nodes); the cut
    nodes 2, 4, 8, 11, 12, 16, 19, 20 (by hand from Knuth & Moore's rule); position 6 and the pruned leaves unmarked."""
    from gamelib import load_seed_tree
    shown = explore(load_seed_tree("broeders31"), "alphabeta", node_types=True)
    shown.go(len(shown.views[0].replay))
    badges = dict(re.findall(r'<g id="node-(\d+)"(?:(?!</g>).)*?class="badge"[^>]*><tspan[^>]*>([^<]+)<',
                             shown.svg, re.S))
    by_type = {kind: {int(node) for node, badge in badges.items() if badge == kind} for kind in ("PV", "cut", "all")}
    assert by_type == {"PV": {0, 1, 3, 7, 15}, "cut": {2, 4, 8, 11, 12, 16, 19, 20}, "all": {5, 9, 17, 23, 25}}
    assert "node types" in shown.player.data["legend"]
    assert "node types" not in explore(load_seed_tree("broeders31")).player.data["legend"]


def test_a_search_too_long_to_draw_whole_is_sent_a_window_of_steps_at_a_time(
        broeders: GameTree, monkeypatch: pytest.MonkeyPatch) -> None:
    # Limits made small, so that Broeders' tree (31 positions, 98 steps of minimax) is "too long":
    # 31 x 98 = 3,038 positions to draw is over 1,000; a window draws 310 positions, 10 steps.
    whole = explore(broeders, "minimax").player.data  # drawn whole, before the limits change
    monkeypatch.setattr("gamelib.view.frames.MAX_DRAWN", 1_000)
    monkeypatch.setattr("gamelib.view.frames.WINDOW_DRAWN", 310)
    explorer = explore(broeders, "minimax", "alphabeta")
    assert (explorer.player.data["window"], last_step(explorer)) == ([0, 9], 97)
    explorer._on_message({"window": 60})  # the page is to show step 60, beyond the steps it holds
    assert explorer.player.data["window"] == [58, 67]  # a quarter of the window before 60, the rest after
    alpha_beta = explorer.views[1]
    assert alpha_beta.panel.first == 57  # alpha-beta's 57 events ended before: it holds its last step
    explorer.go(60)
    assert words(explorer, 0) == decode_panel(whole, 0, 60)[1]  # as if drawn whole
    # a picture asked for beyond the window is drawn on its own, as the whole search draws it
    minimax_events = trace(minimax, broeders)
    assert explorer.views[0].svg(3).count("pruned") == 0
    assert f'data-step="{step_after(minimax_events, Enter, "15")}"' in explorer.views[0].svg(
        step_after(minimax_events, Enter, "15"))
    explorer._on_message({"window": 500})  # beyond the last step: the last window
    assert explorer.player.data["window"] == [88, 97]
