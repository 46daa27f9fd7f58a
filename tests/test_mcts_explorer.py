"""The MCTS explorer: stepping through a recorded search, what each step highlights and says.

Expected numbers are worked by hand on a two-leaf tree, where the search needs no random move (every
rollout starts at a leaf): UCB1 = mean + sqrt(2) sqrt(ln N / n).
"""

from __future__ import annotations

import html
import math
import re

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.search.mcts import mcts
from gamelib.search.random_trees import random_tree
from gamelib.view.frames import decode_panel
from gamelib.view.mcts_explorer import (
    MCTS_LEGEND,
    MctsExplorer,
    caption,
    explore_mcts,
    iteration_ends,
    record_mcts,
    root_table,
)
from gamelib.view.mcts_replay import (
    MctsReplay,
    MctsReplayError,
    Phase,
    root_choices,
    settled_at,
)
from gamelib.view.replay import ReplayError
from tests.player_pages import mime_data, page_data


def two_leaves() -> GameTree:
    """MAX at r chooses between leaves a (1) and b (9): rewards (v - 1) / 8, so a gives 0 and b 1."""
    return tree_from_dict({"name": "two leaves", "source": "made up", "root": "r", "to_move": "max",
                           "children": {"r": ["a", "b"]}, "values": {"a": 1, "b": 9}})


BONUS_2 = math.sqrt(2) * math.sqrt(math.log(2))  # sqrt(2 ln 2) = 1.17741, the bonus of a child seen once of two


def stats(svg: str, node: str) -> list[str]:
    """The lines of visits and mean drawn under ``node`` (n=..., q=...)."""
    found = re.search(rf'<g class="node-stats" data-node="{re.escape(node)}">(.*?)</g>', svg)
    assert found, node
    return re.findall(r"<tspan[^>]*>([^<]*)</tspan>", found.group(1))


def classes(svg: str, group: str) -> list[str]:
    """The classes of the group ``id="group"`` in the picture."""
    found = re.search(rf'<g (?:id|data-k)="{re.escape(group)}" class="([^"]*)"', svg)  # a page's parts: data-k
    assert found, group
    return found.group(1).split()






def test_iterations_are_three_or_four_events_and_the_jumps_follow_them() -> None:
    # Iterations 1 and 2 expand a then b (expand, rollout, backup: 3 events each); iteration 3 selects at r
    # and finds a leaf, so it has nothing to expand (select, rollout, backup): the backups end at 3, 6, 9.
    explorer = explore_mcts(two_leaves(), iterations=3)
    assert iteration_ends(explorer.replay) == [3, 6, 9] and explorer.player.data["steps"] == 9
    assert explorer.player.data["jumps"] == [{"label": "Iteration", "steps": [3, 6, 9]}]  # the page's ◀ Iteration ▶
    explorer.next_iteration()
    explorer.next_iteration()
    assert explorer.step == 6
    explorer.next()
    assert explorer.step == 7 and explorer.snapshot().phase is Phase.SELECT
    explorer.previous_iteration()
    assert explorer.step == 6
    for _ in range(3):
        explorer.previous_iteration()
    assert explorer.step == 0  # before the first iteration
    explorer.go(9)
    explorer.next_iteration()
    assert explorer.step == 9  # stays at the end


def test_a_selection_step_shows_the_scores_and_highlights_the_path() -> None:
    explorer = explore_mcts(two_leaves(), iterations=3)
    explorer.go(7)  # iteration 3 selects at r: a scores 0 + 1.17741, b scores 1 + 1.17741
    assert f"select: at r go to b, UCB1 {1 + BONUS_2:.3f} (a: {BONUS_2:.3f}, b: {1 + BONUS_2:.3f})" \
        in explorer.caption_text
    assert explorer.caption_text.startswith("step 7 of 9, iteration 3 of 3:")
    table = root_table(explorer.snapshot())
    assert [row[:3] for row in table] == [("a", 1, 0.0), ("b", 1, 1.0)]
    assert [row[3] for row in table] == pytest.approx([BONUS_2, 1 + BONUS_2])
    assert "selected" in classes(explorer.svg, "edge-r-b") and "selected" not in classes(explorer.svg, "edge-r-a")
    assert "selected" in classes(explorer.svg, "node-b")
    assert f">{1 + BONUS_2:.2f}<" in explorer.svg and f">{BONUS_2:.2f}<" in explorer.svg  # each edge's score
    explorer.go(9)
    assert (stats(explorer.svg, "r")[0], stats(explorer.svg, "b"), stats(explorer.svg, "a")) == \
        ("n=3", ["n=2", "q=1.00"], ["n=1", "q=0.00"])
    assert "(finished)" in explorer.caption_text


def test_the_first_steps_grow_the_tree_one_node_an_iteration() -> None:
    explorer = explore_mcts(two_leaves(), iterations=3)
    assert explorer.caption_text == ("step 0 of 9, iteration 0 of 3: before the first iteration, "
                                     "the tree is the root alone")
    assert "outside" in classes(explorer.svg, "node-a") and "in-tree" in classes(explorer.svg, "node-r")
    explorer.next()
    assert "expand: add a under r" in explorer.caption_text
    assert "expanded" in classes(explorer.svg, "node-a") and "expanded" in classes(explorer.svg, "edge-r-a")
    explorer.next()
    assert "rollout from a: no moves, value 1, reward 0.000 for MAX" in explorer.caption_text
    explorer.next()
    assert "back up reward 0.000 for MAX to r > a" in explorer.caption_text
    assert root_table(explorer.snapshot()) == [("a", 1, 0.0, None)]  # no selection yet: no score
    explorer.back()
    assert explorer.step == 2


def test_a_rollout_is_drawn_to_the_leaf_it_reached() -> None:
    tree = load_seed_tree("broeders31")
    explorer = explore_mcts(tree, iterations=3, seed=1)
    explorer.go(2)  # iteration 1's rollout from 1
    moves = explorer.snapshot().rollout
    assert moves and tree.is_terminal(moves[-1])
    line = ["1", *moves]
    for parent, child in zip(line, line[1:]):
        assert tree.children_of(parent).count(child) == 1  # a path down the tree, child by child
        assert "rollout" in classes(explorer.svg, f"edge-{parent}-{child}")


def test_the_last_step_matches_the_searchs_own_result() -> None:
    # The replay only adds up events; the search counts its visits itself: they must agree.
    tree = load_seed_tree("broeders31")
    explorer = explore_mcts(tree, iterations=60, seed=3)
    explorer.last()
    result = mcts(tree, iterations=60, seed=3)
    assert [(move, visits) for move, visits, _, _ in root_table(explorer.snapshot())] == list(result.visits)
    assert dict((move, mean) for move, _, mean, _ in root_table(explorer.snapshot())) == \
        pytest.approx(dict(result.means))


def test_search_again_records_the_boxes_and_refuses_bad_options() -> None:
    tree = load_seed_tree("broeders31")
    explorer = MctsExplorer(tree, iterations=5, seed=0, step=4)
    assert explorer.step == 4
    explorer.iterations.value, explorer.seed.value = 12, 7
    explorer.search_again()
    assert explorer.step == 0 and len(explorer.replay) == len(record_mcts(tree, iterations=12, seed=7))
    assert explorer.caption_text.endswith("iteration 0 of 12: before the first iteration, the tree is the root alone")
    explorer.c.value = 0.0
    explorer.search_again()
    assert explorer.shell.message.value == ""
    before = explorer.replay.events
    explorer.options = {"reward": "wins"}
    explorer.search_again()
    assert "reward is 'wins'" in html.unescape(explorer.shell.message.value) and explorer.replay.events == before
    assert explorer.player.data["steps"] == len(before)  # the player keeps the old search's frames


def test_steps_outside_the_trace_are_refused() -> None:
    explorer = explore_mcts(two_leaves(), iterations=2)
    with pytest.raises(ReplayError, match="0..6"):
        explorer.go(7)
    with pytest.raises(ReplayError, match="0..6"):
        explorer.go(-1)
    assert explorer.step == 0
    with pytest.raises(MctsReplayError):
        explorer.replay.snapshot(-1)


def test_the_caption_counts_iterations_of_the_budget() -> None:
    replay = MctsReplay(record_mcts(two_leaves(), iterations=2))
    assert caption(replay.snapshot(6), 2) == ("step 6 of 6 (finished), iteration 2 of 2: "
                                              "back up reward 1.000 for MAX to r > b")  # the iteration said once


def test_the_root_choices_are_the_searches_with_smaller_budgets() -> None:
    # Independent: a search of i iterations with the same seed makes the first i iterations of the
    # longer one, so its move is the choice after iteration i.
    tree = load_seed_tree("broeders31")
    choices = root_choices(record_mcts(tree, iterations=40, seed=2), tree.to_move(tree.root))
    assert choices == [mcts(tree, iterations=i, seed=2).move for i in range(1, 41)]
    min_root = random_tree(2, 4, seed=4, to_move="min")
    choices = root_choices(record_mcts(min_root, iterations=30, seed=0), min_root.to_move(min_root.root))
    assert choices == [mcts(min_root, iterations=i, seed=0).move for i in range(1, 31)]


def test_settled_at_is_the_start_of_the_last_run() -> None:
    assert settled_at(["2", "1", "2", "1", "1"], "1") == 4
    assert settled_at(["1"] * 5, "1") == 1
    assert settled_at(["1", "2"], "1") is None and settled_at([], "1") is None


def test_the_lesson_figures_of_mcts_are_steps_of_seeded_traces() -> None:
    from gamelib.view.export import FIGURES, Figure, figure_svg

    svg = figure_svg(FIGURES["09_mcts_iteration_3.svg"])
    replay = MctsReplay(record_mcts(load_seed_tree("broeders31"), iterations=12, seed=1))
    rollout_3 = iteration_ends(replay)[2] - 1  # iteration 3's rollout: the step before its backup
    assert replay.snapshot(rollout_3).phase is Phase.ROLLOUT and f'data-step="{rollout_3}"' in svg
    with pytest.raises(ValueError, match="no 'iteration 13 rollout'"):
        figure_svg(Figure("broeders31", "mcts 12 1", "iteration 13 rollout", "none"))


# The shell it shares with the tree explorer: the player's row, the tools folded, Projector mode.

def test_the_mcts_explorer_has_the_explorers_row_tools_and_projector_mode() -> None:
    from gamelib.view.stage import VALUE_FONT

    explorer = explore_mcts(load_seed_tree("broeders31"), iterations=12, seed=1, step=30)
    explorer.next()
    assert explorer.step == 31
    explorer.first()
    assert explorer.step == 0
    explorer.last()
    assert explorer.step == len(explorer.replay) == explorer.player.data["steps"]
    data = explorer.player.data
    assert [jump["label"] for jump in data["jumps"]] == ["Iteration"]
    assert [(action["id"], action["label"]) for action in data["actions"]] == [("tools", "Search ▾"),
                                                                               ("projector", "Projector")]
    assert explorer.shell.tools.layout.display == "none"  # the seed, iterations and c, folded
    assert explorer.seed in explorer.shell.tools.children[0].children
    explorer._on_message({"action": "tools", "on": True})  # what "Search ▾" sends
    assert explorer.shell.tools_shown
    explorer._on_message({"action": "projector", "on": True})  # what "Projector" sends
    assert explorer.in_projector_mode and explorer.player.data["projector"] is True
    assert not explorer.shell.tools_shown and explorer.step == len(explorer.replay)  # the tools fold; the step stays
    assert 'class="label" x="' in explorer.svg and f'font-size="{VALUE_FONT:g}"' in explorer.svg
    words = decode_panel(explorer.player.data, 0, explorer.step)[1]
    assert 'class="gamelib-words gamelib-caption"' in words and explorer.player.data["legend"] == ""
    explorer.set_projector(False)
    words = decode_panel(explorer.player.data, 0, explorer.step)[1]
    assert 'font-size="13"' in explorer.svg and "gamelib-caption" not in words
    assert explorer.player.data["projector"] is False and explorer.player.data["legend"] == MCTS_LEGEND


def test_the_mcts_picture_writes_every_word_after_every_line_over_a_halo() -> None:
    explorer = explore_mcts(load_seed_tree("broeders31"), iterations=40, seed=1, step=120)
    svg = explorer.svg
    assert 'viewBox="0 0 ' in svg and "heading" not in svg  # the words beside it say the event: not twice
    last_line, first_text = svg.rfind("<line"), svg.find("<text")
    stats_and_scores = [found.start() for found in re.finditer(r'<text class="(?:stats|ucb)"', svg)]
    assert stats_and_scores and last_line < min(stats_and_scores) and first_text > 0
    assert all('paint-order="stroke"' in text for text in re.findall(r'<text class="(?:stats|ucb)"[^>]*>', svg))


def test_the_mcts_explorer_leaves_its_picture_and_words_in_a_page_without_a_kernel() -> None:
    explorer = explore_mcts(two_leaves(), iterations=3, step=7)
    bundle = mime_data(explorer._repr_mimebundle_())
    assert "application/vnd.jupyter.widget-view+json" in bundle
    data, opens_at = page_data(bundle["text/html"])
    svg, words, state = decode_panel(data, 0, opens_at)
    assert opens_at == 7 and html.escape("select: at r go to b") in words and "Selected: r, b." in state
    assert "selected" in classes(svg, "edge-r-b") and "selected" not in classes(svg, "edge-r-a")


def test_it_opens_in_projector_mode() -> None:
    """explore_mcts(tree, projector=True) raised AttributeError (the toggle showed a search not yet recorded)."""
    explorer = explore_mcts(load_seed_tree("broeders31"), iterations=10, projector=True)
    assert explorer.in_projector_mode and explorer.step == 0
    explorer.go(5)
    assert explorer.step == 5 and "<svg" in explorer.svg
    explorer.set_projector(False)
    assert not explorer.in_projector_mode and explorer.step == 5
