"""Projector mode's size model, folding, the pictures it draws and the rule in words, without a browser.

The windows and values expected below come from seed 003's printouts (AlphaBeta0.cpp: "pos = 8
alpha = 4 beta = 15", MinMax0.cpp: position 7 is worth 4) or are worked by hand on small trees;
the sizes come from the issue (18 px at 1280 x 720, nothing below 12 px) and from Helvetica's
digit width (0.556 of the font size)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import pytest

from gamelib import GameTree, RecordingTracer
from gamelib.games.game import Player
from gamelib.games.trees import tree_from_dict
from gamelib.search.algorithms import run_search
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import (
    BestMove,
    Bound,
    ChanceSum,
    Cutoff,
    Enter,
    Event,
    Exit,
    FailHigh,
    Iteration,
    Leaf,
    MtdPass,
    NullWindow,
    Research,
    TableHit,
)
from gamelib.view.explorer import explore
from gamelib.view.frames import Panel
from gamelib.view.stepper import search_panel
from gamelib.view.painter import DEFAULT_SIZES, SvgPainter
from gamelib.view.picture import DEFAULT_STYLE, EdgeView, NodeView
from gamelib.view.replay import Replay, Snapshot, Status
from gamelib.view.rules_text import Rule, node_rule, rule_at
from gamelib.view.stage import (
    CHROME_WIDTH,
    COLUMN_GAP,
    ID_FONT,
    MIN_FONT,
    PICTURE_HEIGHT,
    SCREEN,
    caption_html,
    column_width,
    folded_tree,
    picture_height,
    picture_sizes,
    picture_width,
    projector_style,
    search_path,
)
from tests.test_chance_trees import dice

DIGIT = 0.556
"""The width of a digit in Helvetica (and Arial), in font sizes."""


def events_of(tree: GameTree, algorithm: str, **options: object) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    run_search(algorithm, tree, tracer=tracer, **options)
    return tracer.events


def at_event(tree: GameTree, events: Sequence[Event], kind: type, node: str | None = None) -> Snapshot:
    """The snapshot whose latest event is the first ``kind`` event (at ``node`` if given)."""
    step = next(i + 1 for i, event in enumerate(events)
                if isinstance(event, kind) and (node is None or getattr(event, "node", None) == node))
    return Replay(tree, events).snapshot(step)


def projector_panel(tree: GameTree, events: Sequence[Event], columns: int, *, fold: bool = True) -> Panel:
    """Every step of ``events`` as projector mode draws it for one of ``columns`` columns, with the
    leaf boxes of "Edit leaves" where the tree is drawn whole."""
    return search_panel(tree, events, title=f"alphabeta on {tree.name}", projector=columns, fold=fold, edit=True)


def nodes_drawn(svg: str) -> int:
    return svg.count('<g id="node-')


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height on a picture's <svg> tag (whole pixels: the painter rounds them)."""
    found = re.match(r'<svg [^>]*?width="([\d.]+)" height="([\d.]+)"', svg)
    assert found, svg[:200]
    return float(found[1]), float(found[2])


# --- the size model at 1280 x 720 ---------------------------------------------------------------

def test_the_columns_share_a_1280_pixel_screen() -> None:
    assert SCREEN == (1280, 720)
    assert column_width(1) + CHROME_WIDTH == 1280
    assert 2 * column_width(2) + COLUMN_GAP + CHROME_WIDTH == 1280
    with pytest.raises(ValueError, match="one or two"):
        column_width(3)


@pytest.mark.parametrize("columns", [1, 2])
def test_broeders_tree_fits_its_column_with_18_pixel_values(broeders: GameTree, columns: int) -> None:
    sizes = picture_sizes(broeders, column_width(columns))
    assert sizes.label_font >= 18 and sizes.window_font >= 18 and sizes.heading_font >= 18
    assert MIN_FONT <= ID_FONT == sizes.id_font and min(sizes.badge_font, sizes.probability_font) >= MIN_FONT
    painter = SvgPainter(broeders, sizes=sizes)
    assert painter.geometry.width == pytest.approx(picture_width(broeders, sizes))
    assert painter.geometry.height == pytest.approx(picture_height(broeders, sizes))
    assert picture_width(broeders, sizes) <= column_width(columns)     # 16 leaves side by side
    assert picture_height(broeders, sizes) <= PICTURE_HEIGHT + 1e-9     # 5 rows
    # the widest leaf value (two digits) fits inside its node, and neighbouring leaves do not touch
    assert 2 * DIGIT * sizes.label_font <= 2 * sizes.radius < sizes.unit


def test_a_tree_too_wide_keeps_its_sizes_and_is_wider_than_its_column() -> None:
    tree = classroom_tree(4, 5, 0)  # 1,024 leaves
    sizes = picture_sizes(tree, column_width(2))
    assert sizes.label_font == 18 and 2 * DIGIT * sizes.label_font <= 2 * sizes.radius
    assert picture_width(tree, sizes) > 1024 * 2 * DIGIT * 18


def test_sizes_refuse_an_empty_column(broeders: GameTree) -> None:
    with pytest.raises(ValueError, match="positive"):
        picture_sizes(broeders, 0)


def test_the_lessons_pictures_keep_their_sizes(broeders: GameTree) -> None:
    svg = SvgPainter(broeders).paint(Replay(broeders, ()).snapshot(0))
    assert DEFAULT_SIZES.label_font == 13 and 'font-size="13"' in svg and 'class="node-id"' not in svg


def test_the_projector_picture_writes_values_and_windows_at_18_and_ids_apart(broeders: GameTree) -> None:
    panel = projector_panel(broeders, events_of(broeders, "alphabeta"), columns=2)
    svg = panel.frames[19].svg  # just after the cut at 8
    assert '<text class="label" x=' in svg and 'class="node-id"' in svg
    sizes = {float(size) for _, size in re.findall(r'<text class="(label|window)"[^>]*font-size="([\d.]+)"', svg)}
    assert sizes == {18.0}
    assert '<g id="node-8"' in svg and "cut by 3 &lt;= alpha 4" in svg  # the rule in the cut node's tooltip


# --- the projector style ----------------------------------------------------------------------------

def test_projector_bounds_are_short_and_windows_stay_on_the_search_path() -> None:
    style = projector_style(DEFAULT_STYLE)
    done = NodeView("8", Player.MIN, False, None, Status.DONE, False, (4, 15), 3, Bound.UPPER)
    assert style.label(done) == "8\n≤3"
    open_edge = EdgeView("3", "8", Status.OPEN, False, False, (4, 15), None, True)
    left_edge = dataclasses.replace(open_edge, status=Status.DONE, open=False)
    assert style.edge(open_edge)["headlabel"] == "α=4 β=15"
    assert style.edge(left_edge)["headlabel"] == "" and DEFAULT_STYLE.edge(left_edge)["headlabel"] == "α=4 β=15"


# --- the caption --------------------------------------------------------------------------------------

def test_the_caption_says_the_step_the_event_and_the_rule(broeders: GameTree) -> None:
    events = events_of(broeders, "alphabeta")
    html = caption_html(broeders, at_event(broeders, events, Cutoff, "8"))
    assert "<b>step 19 of 57</b> · entered <b>8</b> · leaves <b>3</b> · cutoffs <b>1</b>" in html
    assert "pos 8: 3 &lt;= alpha 4, cut: position 18 is never searched" in html
    # the rule adds why, and does not say the cut again
    assert '<div class="gamelib-rule">MAX can get 4 elsewhere and will not come here</div>' in html
    assert html.count("3 &lt;= alpha 4") == 1
    assert "re-searches" not in html  # alpha-beta has none: no empty counter takes a line


# --- the Edit-leaves boxes ------------------------------------------------------------------------

@pytest.mark.parametrize("columns", [1, 2])
def test_leaf_boxes_lie_in_leaf_order_under_their_leaves_inside_the_picture(broeders: GameTree, columns: int) -> None:
    painter = SvgPainter(broeders, sizes=picture_sizes(broeders, column_width(columns)))
    leaves = [node for node in broeders.nodes() if not broeders.children.get(node)]
    boxes = [painter.leaf_box(leaf) for leaf in leaves]
    for leaf, (x, y, w, h) in zip(leaves, boxes):
        cx, cy = painter.geometry.centre[leaf]
        assert x + w / 2 == pytest.approx(cx) and y >= cy + painter.geometry.radius + ID_FONT  # under leaf and id
        assert y + h <= painter.geometry.height and h >= 24 and w >= 2 * DIGIT * 16  # two digits at 16 px
    assert all(a[0] + a[2] < b[0] for a, b in zip(boxes, boxes[1:]))  # in leaf order, not touching


# --- folding big trees --------------------------------------------------------------------------

def test_a_folded_tree_shows_the_path_and_its_childrens_tops() -> None:
    tree = classroom_tree(4, 5, 0)
    events = events_of(tree, "alphabeta")
    picture = next(snapshot for snapshot in (Replay(tree, events).snapshot(k) for k in range(1, len(events)))
                   if snapshot.current is not None and not tree.children.get(snapshot.current))  # the first leaf
    path = search_path(tree, picture.current)
    assert len(path) == 6 and path[0] == tree.root
    folded = folded_tree(tree, picture)
    assert len(folded.nodes()) == 1 + 4 * 5  # the root, and 4 children of each of the 5 inner nodes on the path
    assert set(folded.children) == set(path[:-1])
    assert SvgPainter(folded).paint(picture).count('<g id="node-') == 21


def test_a_projector_picture_folds_a_big_tree_and_unfolds_it_for_the_leaf_boxes() -> None:
    tree = classroom_tree(4, 5, 0)
    events = events_of(tree, "alphabeta")[:30]  # the first 30 steps: drawing all 1,320 whole takes minutes
    folded = projector_panel(tree, events, columns=1)
    svg = folded.frames[30].svg
    assert nodes_drawn(svg) < 60 and svg_size(svg)[0] <= column_width(1)
    assert ">+</tspan>" in svg  # a folded subtree's badge
    assert folded.edit is None  # no leaf boxes on a folded tree
    whole = projector_panel(tree, events, columns=1, fold=False)  # what "Edit leaves" draws
    svg = whole.frames[30].svg
    assert nodes_drawn(svg) == 1365 and svg_size(svg)[0] > column_width(1)
    assert whole.edit is not None and len(whole.edit["leaves"]) == 4 ** 5


def test_edit_leaves_unfolds_the_explorer_s_pictures_in_projector_mode() -> None:
    # 25 leaves side by side need 25 x 28.16 px, more than a 537-pixel column holds (17): folded, the
    # tree shows the root, its 5 children and the 5 children of the one searched at step 3 (1 + 5 + 25 = 31 whole).
    tree = classroom_tree(5, 2, 0)
    explorer = explore(tree, "alphabeta", "minimax", projector=True, step=3)
    assert [nodes_drawn(view.svg(3)) for view in explorer.views] == [11, 11]
    assert all("edit" not in panel for panel in explorer.player.data["panels"])
    explorer._on_message({"edit": True})  # what "✎ Edit leaves" sends
    assert explorer.editing and explorer.step == 3
    assert [nodes_drawn(view.svg(3)) for view in explorer.views] == [31, 31]
    boxes = explorer.player.data["panels"][0]["edit"]
    assert [leaf for leaf, *_ in boxes["leaves"]] == [leaf for leaf in tree.nodes() if not tree.children.get(leaf)]
    explorer._on_message({"edit": False})
    assert not explorer.editing and [nodes_drawn(view.svg(3)) for view in explorer.views] == [11, 11]


def test_search_path_refuses_a_stranger(broeders: GameTree) -> None:
    assert search_path(broeders, "18") == ["0", "1", "3", "8", "18"]
    with pytest.raises(KeyError, match="99"):
        search_path(broeders, "99")


# --- the explorer in projector mode -------------------------------------------------------------

def test_projector_mode_switches_on_and_off(broeders: GameTree) -> None:
    explorer = explore(broeders, "alphabeta", "negascout", projector=True, step=19)
    switched: list[bool] = []
    explorer.on_projector(switched.append)
    data = explorer.player.data
    assert explorer.in_projector_mode and data["projector"] is True and explorer.shell.tools.layout.display == "none"
    assert {action["id"]: action["pressed"] for action in data["actions"]}["projector"] is True
    # the smallest text drawn is the ids' 13 px (no badge on Broeders' tree), so a picture may shrink to 12/13 of
    # its column and no further: the two stand side by side wherever both fit so, as on the 1280-pixel screen
    assert [panel["min_width"] for panel in data["panels"]] == [round(column_width(2) * 12 / 13)] * 2
    assert 2 * column_width(2) + 16 <= 1280 - CHROME_WIDTH
    # each picture drawn for one of two columns: Broeders' 16 leaves share the column's width
    assert [svg_size(view.svg(19))[0] for view in explorer.views] == [round(column_width(2))] * 2
    assert explorer.step == 19 and 'font-size="18"' in explorer.svg and 'class="node-id"' in explorer.svg
    assert "gamelib-caption" in explorer.views[0].panel.frames[19].words and data["legend"] == ""
    explorer._on_message({"action": "projector", "on": False})  # what the "Projector" toggle sends
    assert not explorer.in_projector_mode and explorer.player.data["projector"] is False and switched == [False]
    assert all(panel["min_width"] > 0 for panel in explorer.player.data["panels"])
    assert explorer.shell.tools.layout.display == "none"  # the tools stay folded until "Tree ▾" opens them
    explorer._on_message({"action": "tools", "on": True})
    assert explorer.shell.tools.layout.display is None
    assert explorer.step == 19 and 'class="node-id"' not in explorer.svg
    assert "gamelib-caption" not in explorer.views[0].panel.frames[19].words and explorer.player.data["legend"]
    explorer.set_projector(True)
    assert switched == [False, True] and explorer.shell.tools.layout.display == "none"  # the tools fold again


# --- the rule in words, one event kind at a time ---------------------------------------------------

def test_node_rules_say_when_a_node_prunes() -> None:
    assert node_rule(Player.MIN, (4, 15)) == "MIN takes the smallest child value; prune if a child returns <= 4"
    assert node_rule(Player.MAX, (0, 4)) == "MAX takes the largest child value; prune if a child returns >= 4"
    assert node_rule(Player.MAX, (float("-inf"), float("inf"))).endswith("no child can prune here (beta = ∞)")
    assert node_rule(Player.MIN, None) == "MIN takes the smallest child value (minimax never prunes)"


def test_alpha_beta_rules_on_broeders_tree(broeders: GameTree) -> None:
    events = events_of(broeders, "alphabeta")
    assert rule_at(broeders, Replay(broeders, events).snapshot(0)) is None
    enter_8 = rule_at(broeders, at_event(broeders, events, Enter, "8"))  # seed 003: pos = 8 alpha = 4 beta = 15
    assert enter_8 is not None and enter_8.node == "8"
    assert enter_8.text == "MIN takes the smallest child value; prune if a child returns <= 4"
    enter_16 = rule_at(broeders, at_event(broeders, events, Enter, "16"))
    assert enter_16 is not None and enter_16.text == "16 is a leaf: it returns its value"
    leaf_15 = rule_at(broeders, at_event(broeders, events, Leaf, "15"))  # 16 is entered with beta = 4: 15 is 4
    assert leaf_15 is not None and leaf_15.text == "15 is a leaf: it returns its value 4"
    best_7 = rule_at(broeders, at_event(broeders, events, BestMove, "7"))
    assert best_7 is not None and best_7.text == ("15 returned 4, the best so far: beta falls to 4; "
                                                  "MIN takes the smallest child value; prune if a child returns <= 0")
    cut_8 = rule_at(broeders, at_event(broeders, events, Cutoff, "8"))
    assert cut_8 is not None and cut_8.cut == "3 <= alpha 4"  # the comparison that cut
    assert cut_8.line == "at 8: cut by 3 <= alpha 4: MAX can get 4 elsewhere and will not come here; 18 is not searched"
    exit_8 = rule_at(broeders, at_event(broeders, events, Exit, "8"))
    assert exit_8 is not None and exit_8.text == "8 returns 3 to its parent (at most that: a cut stopped it early)"
    exit_7 = rule_at(broeders, at_event(broeders, events, Exit, "7"))  # seed 003: position 7 is worth 4
    assert exit_7 is not None and exit_7.text == "7 returns 4 to its parent"
    # By hand: MIN 9 is entered with beta 4 (MAX 4 already has 4 from 3); its leaves 6 and 7 are both at or
    # above 4, so both are searched, no cut, and 9 learns only that it is at least 4
    exit_9 = rule_at(broeders, at_event(broeders, events, Exit, "9"))
    assert exit_9 is not None and exit_9.text == ("9 returns 4 to its parent (at least that: its value fell outside "
                                                  "its window, where the search learns only a bound)")
    assert not [event for event in events if isinstance(event, Cutoff) and event.node == "9"]


def test_mtdf_cuts_say_the_test_and_a_table_hit_settles_a_bound(broeders: GameTree) -> None:
    # MTD(f) from 0 first tests "is the value at least 0?": the bound of its cuts is the value tested, 0, not a
    # value found elsewhere; its second pass tests "above 4?" and meets leaf 15 in the table, where the first
    # pass stored 4 as a lower bound: with 15 a leaf that entry is exact enough to settle it
    events = events_of(broeders, "mtdf")
    first_cut = rule_at(broeders, at_event(broeders, events, Cutoff))
    assert first_cut is not None and "MTD(f)'s test asks only whether the value reaches 0, and this move does" \
        in first_cut.text and "elsewhere" not in first_cut.text
    replay = Replay(broeders, events)
    settled = [step for step in range(1, len(replay) + 1) if isinstance(replay.snapshot(step).event, Exit)
               and "table's entry settled it" in (rule_at(broeders, replay.snapshot(step)) or Rule("", "")).text]
    assert [replay.snapshot(step).event.node for step in settled] == ["15"]  # type: ignore[union-attr]
    assert replay.snapshot(settled[0]).table_hit["15"].cutoff


def test_a_max_node_cut_says_beta() -> None:
    # By hand: MIN 1 learns 4 from MAX 2 = max(3, 4); MAX 3 then sees 5 >= beta 4 and skips its 9.
    tree = GameTree.from_text("(((3 4) (5 9)))")
    events = events_of(tree, "alphabeta")
    rule = rule_at(tree, at_event(tree, events, Cutoff))
    assert rule is not None and rule.node == "3" and rule.cut == "5 >= beta 4"
    assert rule.text == "cut by 5 >= beta 4: MIN can get 4 elsewhere and will not come here; 7 is not searched"


def test_negascout_rules_for_null_windows_fail_highs_and_re_searches() -> None:
    # By hand: MAX 0 over MIN 1 = min(1, 2) = 1 and MIN 2 = min(5, 6) = 5. NegaScout tests 2 with the
    # null window (1, 2); 2 is better than 1, so it fails high and is searched again for 5.
    tree = GameTree.from_text("((1 2) (5 6))")
    events = events_of(tree, "negascout")
    null = rule_at(tree, at_event(tree, events, NullWindow, "0"))
    assert null is not None and null.text == "is 2 better than 1? the null window (1, 2) only answers that"
    below = rule_at(tree, at_event(tree, events, NullWindow, "1"))  # MIN 1 asks whether 4 goes below its 1
    assert below is not None and below.text == "is 4 below 1? the null window (0, 1) only answers that"
    high = rule_at(tree, at_event(tree, events, FailHigh, "0"))
    assert high is not None and high.text.startswith("2 returned 2, outside the null window: it is better")
    again = rule_at(tree, at_event(tree, events, Research, "0"))
    assert again is not None and again.text == "search 2 again with (2, ∞) for its exact value"


def test_mtdf_rules_for_passes_and_table_hits(broeders: GameTree) -> None:
    events = events_of(broeders, "mtdf")
    first_pass = rule_at(broeders, at_event(broeders, events, MtdPass))
    passes = [event for event in events if isinstance(event, MtdPass)]
    assert first_pass is not None and first_pass.node is None
    assert first_pass.text.startswith(f"MTD(f) pass 1: a null-window search around {passes[0].alpha} moves one bound")
    hit = rule_at(broeders, at_event(broeders, events, TableHit))
    first_hit = next(event for event in events if isinstance(event, TableHit))
    assert hit is not None and hit.node == first_hit.node
    assert hit.text.startswith(f"the table already knows {first_hit.node}: at least {first_hit.value}")


def test_an_iteration_is_a_rule_about_the_whole_search(broeders: GameTree) -> None:
    events = (Iteration(2, 4, "1", 9),)
    rule = rule_at(broeders, Replay(broeders, events).snapshot(1))
    assert rule is not None and rule.node is None and rule.line.startswith("depth 2 searched")


def test_a_chance_node_adds_its_childrens_values() -> None:
    tree = tree_from_dict(dice())
    events = events_of(tree, "expectiminimax")
    second = [i + 1 for i, event in enumerate(events) if isinstance(event, ChanceSum)][1]
    rule = rule_at(tree, Replay(tree, events).snapshot(second))
    # by hand: a is a fair coin over 2 and 4: 0 + 2/2 = 1, then 1 + 4/2 = 3
    assert rule is not None and rule.text.startswith("a adds a2's 4 times 0.5: the sum so far is 3; a chance node")


@pytest.mark.parametrize(("branching", "depth"), [(2, 4), (4, 2), (5, 2), (3, 2), (30, 1)])
def test_trees_of_up_to_31_nodes_fit_one_column_whole(branching: int, depth: int) -> None:
    tree = classroom_tree(branching, depth, 0)
    assert len(tree.nodes()) <= 31
    sizes = picture_sizes(tree, column_width(1))
    assert picture_width(tree, sizes) <= column_width(1) and picture_height(tree, sizes) <= PICTURE_HEIGHT + 1e-9
    panel = projector_panel(tree, events_of(tree, "alphabeta"), columns=1)
    svg = panel.frames[-1].svg
    assert nodes_drawn(svg) == len(tree.nodes()) and panel.edit is not None  # whole, with its leaf boxes
    width, height = svg_size(svg)  # rounded to whole pixels
    assert width <= column_width(1) + 0.5 and height <= PICTURE_HEIGHT + 0.5


@pytest.mark.parametrize(("branching", "depth", "leaves"), [(2, 4, 16), (4, 2, 16), (5, 2, 25), (30, 1, 30)])
def test_side_by_side_up_to_17_leaves_fit_whole_and_more_fold(branching: int, depth: int, leaves: int) -> None:
    # Two digits at 18 px and 2 px of room each side, 4 px between leaves: 28.16 px a leaf; a
    # 537-pixel column less two 24-pixel margins holds 17 of them. Folded, 5 x 5 shows 5 + 5 - 1
    # tops; a root with 30 leaves cannot fold and scrolls, its text kept at 18 px.
    tree = classroom_tree(branching, depth, 0)
    whole = picture_width(tree, picture_sizes(tree, column_width(2)))
    assert (whole > column_width(2)) == (leaves > 17)
    panel = projector_panel(tree, events_of(tree, "alphabeta"), columns=2)
    svg = panel.frames[3].svg
    assert (panel.edit is None) == (leaves > 17)  # a folded tree has no leaf boxes
    assert (nodes_drawn(svg) < len(tree.nodes())) == (leaves > 17 and depth > 1)
    assert (svg_size(svg)[0] <= column_width(2)) == (depth > 1)
    assert set(re.findall(r'<text class="label"[^>]*font-size="([\d.]+)"', svg)) == {"18"}


@pytest.mark.parametrize(("name", "algorithm"), [("dice", "expectiminimax"), ("broeders", "mtdf"), ("big", "alphabeta")])
def test_no_text_of_a_projector_picture_is_below_12_pixels(broeders: GameTree, name: str, algorithm: str) -> None:
    # probabilities on chance edges, "TT" badges of table hits, "+" badges of folded subtrees
    tree = {"dice": tree_from_dict(dice()), "broeders": broeders, "big": classroom_tree(4, 5, 0)}[name]
    events = events_of(tree, algorithm)
    panel = projector_panel(tree, events[:300], columns=2)  # the big tree's first 300 steps: all 1,320 take long
    for step, frame in enumerate(panel.frames):
        sizes = [float(size) for size in re.findall(r'font-size="([\d.]+)"', frame.svg)]
        assert sizes and min(sizes) >= MIN_FONT, step
