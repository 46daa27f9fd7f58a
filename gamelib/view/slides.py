"""Slides: one self-contained page that steps a search on a projector (``python -m gamelib slides``).

The page is the player (:mod:`gamelib.view.player`) on one or two searches of a tree, drawn for a
projector (:mod:`gamelib.view.stage`: 18-pixel values and captions, two searches in two columns, a
tree too wide for its column folded around the search's path), with the captions projector mode
shows and the legend under them. A presenter's clicker (PageDown, PageUp) steps it wherever the focus
is; the arrow keys, Home and End too, except on a drop-down or the slider, which they move; space
plays, except on a button, which it presses. Nothing is fetched: the frames, the script
and the style sheet are in the page, which opens from a file, a USB stick or any web server.

>>> from gamelib.games.data import load_seed_tree
>>> page = slides_html(load_seed_tree("broeders31"), ["alphabeta"])
>>> page.startswith("<!doctype html>"), "data-gamelib-frames" in page, len(page.encode()) < 300_000
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gamelib.games.trees import GameTree
from gamelib.search.negamax import SearchError
from gamelib.view.frames import encode
from gamelib.view.player import player_html
from gamelib.view.stepper import legend, record, search_panel, search_title, trace_kinds

__all__ = ["slides_html"]

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ margin: 0; padding: 8px 16px; background: #ffffff; color: #1a1a1a; font-family: Helvetica, Arial, sans-serif; }}
h1 {{ font-size: 20px; margin: 0 0 4px 0; }}
.gamelib-slides-hint {{ font-size: 15px; color: #3d3d3d; margin: 4px 0 0 0; }}
</style>
</head>
<body>
<main>
<h1>{title}</h1>
{player}
<p class="gamelib-slides-hint">→ or PageDown: next step · ← or PageUp: back · Home, End: first and last · space: play</p>
</main>
<script>document.querySelector(".gp-picture")?.focus();</script>
</body>
</html>
"""


def slides_html(tree: GameTree, algorithms: Sequence[str], *, title: str = "") -> str:
    """The slide page of ``algorithms`` (one or two names of searches) on ``tree``, titled ``title``
    (default: the searches and the tree's name). Values from MAX's point of view. Raises SearchError
    for an unknown search, more than two, or a search that refuses the tree, and FramesError (a
    ValueError) for a tree with too many positions to draw every step of (:data:`gamelib.view.frames.MAX_DRAWN`)."""
    if not 1 <= len(algorithms) <= 2:
        raise SearchError(f"give one or two searches for the slides, not {len(algorithms)}")
    panels, kinds = [], set[str]()
    for name in algorithms:
        events = record(tree, name)
        kinds |= trace_kinds(events, name)
        panels.append(search_panel(tree, events, title=search_title(tree, name, {}), algorithm=name,
                                   projector=len(algorithms)))
    heading = title or f"{' and '.join(algorithms)} on {tree.name}"
    data = encode(panels, legend=legend(kinds), projector=True, page_keys=True)
    return _PAGE.format(title=escape(heading), player=player_html(data))
