"""Pictures and printouts of searches: steps saved as SVG or PNG files for slides, handouts and the
lessons, and traces printed in the seeds' formats.

Pictures for slides and handouts: a search step, or every step, saved as SVG or PNG files.

The files hold the picture the screen shows: the explorer's frames (:mod:`gamelib.view.frames`) are
the pictures the player shows, and every step is drawn by the same
:class:`~gamelib.view.painter.SvgPainter` from the same :class:`~gamelib.view.replay.Replay`. Nothing here re-runs or re-implements a search; :func:`save_steps` records one through
:func:`gamelib.view.stepper.record`, as the explorer does.

An SVG file stands alone, without the notebook's CSS: an XML declaration, the SVG namespace, its
width, height and viewBox in pixels, and the font as a presentation attribute on the root with a
generic fallback (``Helvetica, Arial, sans-serif``); colours and strokes are attributes too. A PNG
file is the SVG drawn by cairosvg (which needs the system's cairo library, ``libcairo2`` on Debian:
``scripts/ensure_cairo.sh``), ``scale`` times the picture's size in pixels.

>>> from gamelib.games.data import load_seed_tree
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     paths = save_steps(load_seed_tree("broeders31"), "alphabeta", folder)
...     print(len(paths), paths[0].name, paths[-1].name)
58 alphabeta_000.svg alphabeta_057.svg

The lessons' static pictures: key steps of real traces, as SVG files the notebooks embed.

Lessons are stored without outputs, so a lesson opened without a kernel (GitHub, nbviewer, an HTML
export) would show no trees at all. Instead, its markdown cells embed these SVG files from
``notebooks/figures/``, drawn by :class:`gamelib.view.painter.SvgPainter` from traces recorded by the
real searches. The painter's text depends only on the tree and the trace (no Graphviz, no fonts
measured), so the files are regenerated only by this explicit command, from the repository root::

    .venv/bin/python -m gamelib.view.export            # write notebooks/figures/*.svg
    .venv/bin/python -m gamelib.view.export --check    # exit 1 if a file differs from its regeneration

and ``tests/test_figures.py`` checks that regenerating them gives the same files.

>>> sorted(FIGURES)[:2]
['01_minimax_bare.svg', '01_minimax_done.svg']

Traces printed the way Broeders' programs print them (seed 003).

Each function formats recorded events; none searches. Widths follow the C++ ``setw(2)`` of the
programs; the seed's web page collapses runs of spaces, so compare with it word by word.

>>> from gamelib import RecordingTracer, alphabeta, load_seed_tree
>>> tracer = RecordingTracer()
>>> result = alphabeta(load_seed_tree("broeders31"), tracer=tracer)
>>> alphabeta0_text(tracer.events)[:3]
['pos =  0 alpha =  0 beta = 15', 'pos =  1 alpha =  0 beta = 15', 'pos =  3 alpha =  0 beta = 15']
"""

from __future__ import annotations

import base64
import math
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from gamelib.games.data import load_seed_tree
from gamelib.games.game import Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Enter, Event, Exit
from gamelib.view.mcts_explorer import mcts_svg, record_mcts
from gamelib.view.mcts_replay import MctsReplay
from gamelib.view.painter import FONT, SvgPainter
from gamelib.view.picture import DEFAULT_STYLE, Style
from gamelib.view.replay import Replay
from gamelib.view.stepper import paint_step, record, search_title
from gamelib.view.ui import ipywidgets, touch_button

__all__ = ["ExportError", "FIGURES", "FORMATS", "Figure", "SaveBar", "alphabeta0_text", "explorer_picture",
           "figure_svg", "lesson_figures", "main", "minmax_table", "png_bytes", "root_line", "save_picture",
           "save_pictures", "save_steps", "standalone_svg", "step_picture"]


FORMATS = ("svg", "png")
"""The file formats a picture can be saved in, by file name suffix."""

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
_GAP = 24.0
"""Pixels between two pictures side by side."""
_HEADING = 26.0
"""Pixels above each of two pictures side by side, for its search's name."""


class ExportError(ValueError):
    """A picture cannot be saved: a file name without .svg or .png, a folder in the way, no cairo."""


def _format(path: Path) -> str:
    """"svg" or "png" from the file name's suffix; raises ExportError for any other."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ExportError(f"cannot save a picture as {str(path)!r}: give a file name ending in .svg or .png")
    return fmt


def _check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ExportError(f"unknown picture format {fmt!r}: give one of {', '.join(FORMATS)}")
    return fmt


def _root_attribute(root_tag: str, name: str) -> bool:
    return re.search(rf"\s{name}=", root_tag) is not None


def standalone_svg(svg: str) -> str:
    """``svg`` (text starting at ``<svg``) as a file of its own: an XML declaration first, the SVG
    namespace and :data:`gamelib.view.painter.FONT` on the root where they are missing.

    Raises ExportError if the text is not well-formed XML, not an ``<svg>`` element, or lacks a
    width, height or viewBox (a picture file must say its size).

    >>> print(standalone_svg('<svg width="2" height="1" viewBox="0 0 2 1"></svg>'), end="")
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" font-family="Helvetica, Arial, sans-serif" width="2" height="1" viewBox="0 0 2 1"></svg>
    """
    text = svg.strip()
    if text.startswith("<?xml"):
        text = text.split("?>", 1)[1].lstrip()
    if not text.startswith("<svg"):
        raise ExportError(f"not an SVG picture: it starts with {text[:20]!r}, not <svg")
    root_tag = text[:text.find(">")]
    added = [f'{name}="{value}"' for name, value in (("xmlns", SVG_NAMESPACE), ("font-family", FONT))
             if not _root_attribute(root_tag, name)]
    if added:
        text = "<svg " + " ".join(added) + text[len("<svg"):]
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ExportError(f"the SVG picture is not well-formed XML: {error}") from None
    missing = [name for name in ("width", "height", "viewBox") if root.get(name) is None]
    if missing:
        raise ExportError(f"the SVG picture has no {', '.join(missing)}: a picture file must say its size")
    return XML_DECLARATION + text + "\n"


def _size(svg: str) -> tuple[float, float]:
    """The width and height in pixels that ``svg``'s root declares."""
    root = ET.fromstring(standalone_svg(svg).removeprefix(XML_DECLARATION))
    return float(root.get("width", "0")), float(root.get("height", "0"))


def _for_cairo(svg: str) -> str:
    """``svg`` with every font list cut to its generic family, for cairosvg only: cairosvg takes the
    first family named, and cairo's simple text drawing has no fallback glyph by glyph, so
    Helvetica (Liberation Sans on Linux) would draw the cut mark ✂ as a box; the generic family
    is the system's default font (DejaVu Sans on Debian), which has every symbol the pictures use."""
    svg = re.sub(r'font-family="[^"]*?([\w-]+)"', r'font-family="\1"', svg)
    return _HALOED.sub(_halo_under, svg)


_HALOED = re.compile(r'<text([^>]*?) (stroke="(#[0-9a-fA-F]{6})" stroke-width="[\d.]+" stroke-linejoin="round") '
                     r'paint-order="stroke"([^>]*)>(.*?)</text>', re.S)
"""A text drawn over its halo (:data:`gamelib.view.painter.HALO`), with the halo's attributes and colour."""


def _halo_under(found: re.Match[str]) -> str:
    """A haloed text as cairosvg can draw it: cairo knows no ``paint-order``, and would stroke the
    halo over the letters; so a copy of the text in the halo's colour, stroked, goes under the text itself."""
    before, halo, colour, after, spans = found.groups()
    halo_copy = re.sub(r'fill="[^"]*"', f'fill="{colour}"', before + after)
    return f'<text{halo_copy} {halo}>{spans}</text><text{before}{after}>{spans}</text>'


def png_bytes(svg: str, *, scale: float = 1.0) -> bytes:
    """``svg`` drawn as a PNG image of ``scale`` times its width and height in pixels, by cairosvg.

    Raises ExportError for a scale that is not a positive number, for an SVG that
    :func:`standalone_svg` refuses, and when cairosvg or the system's cairo library is missing
    (saying how to install it).
    """
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise ExportError(f"scale must be a positive number, not {scale!r}")
    text = standalone_svg(svg)
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError) as error:  # cairocffi raises OSError when libcairo is missing
        raise ExportError(f"a PNG needs cairosvg and the cairo library ({error}): run "
                          "'bash scripts/ensure_cairo.sh' (or 'sudo apt-get install libcairo2', "
                          "'brew install cairo'); SVG files need neither") from None
    png: bytes = cairosvg.svg2png(bytestring=_for_cairo(text).encode("utf-8"), scale=scale)
    return png


def _prepare(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path whose folder exists (made if missing), with nothing but a file in the way.
    Raises ExportError if ``path`` is a folder or not a regular file, or a file stands where a
    folder on its way should be."""
    target = Path(path)
    if target.is_dir():
        raise ExportError(f"{str(target)!r} is a folder: give a file name ending in .svg or .png")
    if target.exists() and not target.is_file():
        raise ExportError(f"{str(target)!r} exists and is not a regular file: give another name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ExportError(f"cannot make the folder {str(target.parent)!r}: a file of that name is in "
                          "the way") from None
    return target


def save_picture(svg: str, path: str | os.PathLike[str], *, scale: float = 1.0) -> Path:
    """Write ``svg`` to ``path``: an SVG file (:func:`standalone_svg`) or a PNG image
    (:func:`png_bytes`, ``scale`` times the picture's pixels), by the name's suffix; returns the
    absolute path written. Makes missing folders on the way; replaces an existing file.

    Raises ExportError for a name not ending in .svg or .png, a path that is a folder or not a
    regular file, a scale other than 1 for an SVG (it scales without loss), and as
    :func:`png_bytes` does.
    """
    target = Path(path)
    fmt = _format(target)
    if fmt == "svg" and scale != 1:
        raise ExportError("scale applies to PNG images only: an SVG picture scales without loss")
    data = standalone_svg(svg).encode("utf-8") if fmt == "svg" else png_bytes(svg, scale=scale)
    target = _prepare(target)
    target.write_bytes(data)
    return target.resolve()


def _step_names(count: int, stem: str, fmt: str) -> list[str]:
    """``stem_000.fmt`` ... for ``count`` pictures, numbered from 0, zero-padded to at least three
    digits so that the files sort in step order."""
    width = max(3, len(str(count - 1)))
    return [f"{stem}_{step:0{width}d}.{fmt}" for step in range(count)]


def save_pictures(svgs: Sequence[str], folder: str | os.PathLike[str], *, stem: str, fmt: str = "svg",
                  scale: float = 1.0) -> list[Path]:
    """Write ``svgs[k]`` to ``folder/stem_k.fmt`` for every step k (zero-padded: ``alphabeta_007.svg``);
    returns the absolute paths in step order. Makes ``folder`` if missing.

    Raises ExportError for an unknown ``fmt``, a ``stem`` with a folder in it, a ``folder`` that
    is a file, and a folder that already holds pictures of this stem that would not be replaced
    (from a longer trace: they would pass for steps of this one); and as :func:`save_picture` does.
    """
    fmt = _check_format(fmt)
    if not stem or Path(stem).name != stem or stem in (".", ".."):
        raise ExportError(f"the pictures' name {stem!r} must be a plain name, without a folder")
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise ExportError(f"{str(target)!r} is a file, not a folder: give a folder for the pictures")
    names = _step_names(len(svgs), stem, fmt)
    pattern = re.compile(rf"{re.escape(stem)}_\d+\.{fmt}")
    stale = sorted(path.name for path in target.iterdir()
                   if pattern.fullmatch(path.name) and path.name not in names) if target.is_dir() else []
    if stale:
        raise ExportError(f"{str(target)!r} already holds {stale[0]} and {len(stale) - 1} more pictures "
                          f"named {stem}_N.{fmt} from a longer trace: delete them or choose another folder")
    return [save_picture(svg, target / name, scale=scale) for svg, name in zip(svgs, names)]


def step_picture(painter: SvgPainter, replay: Replay, title: str, step: int) -> str:
    """The SVG text a stepper titled ``title`` shows at ``step``
    (clamped to the trace's length), drawn by ``painter`` from ``replay``."""
    return paint_step(painter, replay.tree, replay.snapshot(min(step, len(replay))), title)


def _side_by_side(pictures: Sequence[tuple[str, str]]) -> str:
    """One SVG with the (heading, svg) pictures left to right, each with its heading above it, as
    the explorer shows two searches; each picture's ids get a prefix (``view1-``) to stay unique."""
    sizes = [_size(svg) for _, svg in pictures]
    width = sum(w for w, _ in sizes) + _GAP * (len(pictures) - 1)
    height = _HEADING + max(h for _, h in sizes)
    parts = [f'<svg xmlns="{SVG_NAMESPACE}" class="gamelib-trees" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" role="img">',
             '<rect width="100%" height="100%" fill="#ffffff"/>']
    x = 0.0
    for index, ((heading, svg), (w, _)) in enumerate(zip(pictures, sizes), start=1):
        inner = re.sub(r'(\sid=")', rf"\1view{index}-", svg.strip())
        parts.append(f'<text x="{x + 8:.1f}" y="18" font-size="15" font-weight="bold" fill="#333333">'
                     f"{escape(heading)}</text>")
        parts.append(f'<g transform="translate({x:.1f},{_HEADING:.0f})">\n{inner}\n</g>')
        x += w + _GAP
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def explorer_picture(pictures: Sequence[tuple[str, str]]) -> str:
    """The SVG of an explorer's (title, svg) pictures: one picture, or two side by side, each under
    its search's name, as the explorer shows them."""
    if len(pictures) == 1:
        return pictures[0][1]
    return _side_by_side(pictures)


def save_steps(tree: GameTree, algorithm: str, folder: str | os.PathLike[str], *, fmt: str = "svg",
               scale: float = 1.0, style: Style = DEFAULT_STYLE, **options: Any) -> list[Path]:
    """Record ``algorithm`` (a name in :data:`gamelib.search.algorithms.SEARCHES`, with ``options``)
    on ``tree`` and save the picture of every step, 0 (nothing searched) to the last event, as
    ``folder/<algorithm>_000.<fmt>`` ... : one file per step, the picture a
    :class:`~gamelib.view.stepper.Stepper` shows at that step. Returns the absolute paths in step
    order. Values in the pictures are from MAX's point of view.

    Raises SearchError (a ValueError) for an unknown search or option, and ExportError as
    :func:`save_pictures` does.
    """
    fmt = _check_format(fmt)
    events = record(tree, algorithm, **options)
    painter, replay = SvgPainter(tree, style), Replay(tree, events)
    title = search_title(tree, algorithm, options)
    svgs = [step_picture(painter, replay, title, step) for step in range(len(replay) + 1)]
    return save_pictures(svgs, folder, stem=algorithm, fmt=fmt, scale=scale)


def _plain_name(name: str) -> str:
    """``name`` if it is a file name without a folder; raises ExportError otherwise."""
    name = name.strip()
    if not name or Path(name).name != name or name in (".", ".."):
        raise ExportError(f"give a file name without a folder, such as step12.svg or step12.png, not {name!r}: "
                          "the picture is saved next to the notebook")
    return name


class SaveBar:
    """A file name box, "this step" or "every step", and a Save button that writes the pictures next
    to the notebook (the kernel's working folder) and says where; a saved step also gets a link to
    download it (for a browser on another machine than the kernel).

    ``current()`` is the SVG shown now; ``every_step()`` the SVG of every step. For "every step"
    the name's stem names a folder: ``tree.png`` saves ``tree/tree_000.png``, ... Errors (a name
    with a folder or without .svg or .png, a folder in the way, no cairo) are shown in the bar.
    """

    def __init__(self, current: Callable[[], str], every_step: Callable[[], Sequence[str]], *,
                 name: str = "explorer.svg") -> None:
        widgets = ipywidgets()
        self._current, self._every_step = current, every_step
        self.name = widgets.Text(value=name, description="save as", placeholder="step12.svg or step12.png",
                                 layout=widgets.Layout(width="260px"))
        self.which = widgets.Dropdown(options=["this step", "every step"], value="this step",
                                      layout=widgets.Layout(width="120px"))
        self.message = widgets.HTML()
        button = touch_button("Save", "save the picture as SVG or PNG next to the notebook", self.save)
        self.widget = widgets.HBox([self.name, self.which, button, self.message],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget.add_class("gamelib-save")

    def save(self) -> None:
        """Save as the bar says, and say where (or what went wrong) in the bar."""
        try:
            self.message.value = self._save_step() if self.which.value == "this step" else self._save_all()
        except (ValueError, OSError) as error:
            self.message.value = f'<span style="color:#d62728">{escape(str(error))}</span>'

    def _save_step(self) -> str:
        name = _plain_name(self.name.value)
        replaced = " (it replaces the file of that name)" if Path(name).is_file() else ""
        path = save_picture(self._current(), name)
        mime = "image/svg+xml" if path.suffix.lower() == ".svg" else "image/png"
        link = f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"
        return (f"saved <code>{escape(str(path))}</code>{replaced} "
                f'<a download="{escape(path.name)}" href="{link}">download</a>')

    def _save_all(self) -> str:
        name = Path(_plain_name(self.name.value))
        paths = save_pictures(self._every_step(), name.stem, stem=name.stem, fmt=_format(name))
        return (f"saved {len(paths)} pictures in <code>{escape(str(paths[0].parent))}</code>: "
                f"{escape(paths[0].name)} … {escape(paths[-1].name)}")


@dataclass(frozen=True)
class Figure:
    """A key step: ``algorithm`` recorded on ``tree`` (a seed tree's name, or "classroom b d seed"
    for :func:`gamelib.search.random_trees.classroom_tree`), shown at ``step``: "start"
    (nothing searched), "end" (finished), or "after <kind> <node>" (just after the first event of
    that kind at that node, e.g. "after cutoff 8"). ``title`` is the picture's accessible name;
    ``options`` go to the search (``(("star1", True),)``)."""

    tree: str
    algorithm: str
    step: str
    title: str
    options: tuple[tuple[str, Any], ...] = ()


FIGURES: dict[str, Figure] = {
    "01_minimax_bare.svg": Figure("broeders31", "minimax", "start", "Broeders' tree: squares MAX, circles MIN"),
    "01_minimax_done.svg": Figure("broeders31", "minimax", "end", "Broeders' tree after minimax: the root is worth 4"),
    "01_two_ply_done.svg": Figure("rich_knight_two_ply", "minimax", "end", "Rich & Knight's two-ply tree after minimax"),
    "02_cutoff_at_8.svg": Figure("broeders31", "alphabeta", "after cutoff 8",
                                 "Alpha-beta just after the cutoff at position 8: 18 is never searched"),
    "02_alphabeta_done.svg": Figure("broeders31", "alphabeta", "end",
                                    "Broeders' tree after alpha-beta: 13 positions pruned by 5 cutoffs"),
    "02_quiz_seed_22.svg": Figure("classroom 2 4 22", "alphabeta", "start",
                                  "The quiz's tree: branching 2, depth 4, seed 22"),
    "08_expectiminimax_done.svg": Figure("textbook_aima_fig5_12", "expectiminimax", "end",
                                         "AIMA Figure 5.12 after expectiminimax: a1 is worth 2.1, a2 1.3"),
    "08_star1_windows.svg": Figure("star1_windows", "expectiminimax", "after cutoff b2",
                                   "Star1 searches b2 with the window (9, ∞) clamped to (9, 10): b21 = 7 cuts b22", (("star1", True),)),
    "08_maxn_done.svg": Figure("three_players", "maxn", "end",
                               "Three players after max^n: a = (7, 5, 3) by b; squares player 1, circles 2, hexagons 3"),
    "08_paranoid_done.svg": Figure("three_players", "alphabeta", "end",
                                   "The same tree, paranoid for player 1 (alpha-beta): a = 4 by c"),
    "09_mcts_iteration_3.svg": Figure("broeders31", "mcts 12 1", "iteration 3 rollout",
                                      "Monte Carlo tree search, iteration 3: selected, expanded, rolled out"),
    "09_mcts_200.svg": Figure("broeders31", "mcts 200 1", "end", "Broeders' tree after 200 iterations of UCT"),
}
"""The lessons' figures by file name (the first two digits name the lesson)."""


def _step(events: Sequence[Event], step: str) -> int:
    """The step a Figure's ``step`` names; raises ValueError if the trace has no such event."""
    if step == "start":
        return 0
    if step == "end":
        return len(events)
    _, kind, node = step.split()
    for index, event in enumerate(events):
        if event.kind == kind and getattr(event, "node", None) == node:
            return index + 1
    raise ValueError(f"the trace has no {kind} event at position {node}: fix the figure's step {step!r}")


def _tree(spec: str) -> GameTree:
    if spec.startswith("classroom "):
        branching, depth, seed = (int(word) for word in spec.split()[1:])
        return classroom_tree(branching, depth, seed)
    return load_seed_tree(spec)


def figure_svg(figure: Figure) -> str:
    """The SVG text of ``figure``, recorded and drawn now."""
    tree = _tree(figure.tree)
    if figure.algorithm.startswith("mcts "):
        return _mcts_figure_svg(tree, figure)
    events = record(tree, figure.algorithm, **dict(figure.options))
    picture = Replay(tree, events).snapshot(_step(events, figure.step))
    return SvgPainter(tree).paint(picture, title=figure.title)


def _mcts_figure_svg(tree: GameTree, figure: Figure) -> str:
    """A Monte Carlo tree search figure: ``algorithm`` is "mcts <iterations> <seed>", ``step`` "end"
    or "iteration <i> <phase>" (just after iteration i's last event of that phase: select, expand,
    rollout or backup); drawn by :func:`gamelib.view.mcts_explorer.mcts_svg`. Raises ValueError if
    the trace has no such event."""
    _, iterations, seed = figure.algorithm.split()
    events = record_mcts(tree, iterations=int(iterations), seed=int(seed))
    step: int | None = len(events)
    if figure.step != "end":
        _, iteration, phase = figure.step.split()
        step = max((index + 1 for index, event in enumerate(events)
                    if getattr(event, "iteration", None) == int(iteration) and event.kind == f"mcts_{phase}"), default=None)
    if step is None:
        raise ValueError(f"the trace has no {figure.step!r}: fix the figure's step")
    return mcts_svg(tree, MctsReplay(events).snapshot(step))


def lesson_figures() -> dict[str, str]:
    """Every figure's file name and SVG text."""
    return {name: figure_svg(figure) for name, figure in FIGURES.items()}


def main(argv: Sequence[str] = ()) -> int:
    """Write the figures into ``notebooks/figures`` (or check them with ``--check``); returns the
    exit status: 0, or 1 when ``--check`` finds a file that differs or is missing."""
    folder = Path("notebooks") / "figures"
    stale = []
    for name, svg in lesson_figures().items():
        path = folder / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
    if stale:
        print(f"figures that differ from their regeneration: {', '.join(stale)}; run python -m gamelib.view.export")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def alphabeta0_text(events: Iterable[Event]) -> list[str]:
    """AlphaBeta0.cpp's trace: ``pos = %2d alpha = %2d beta = %2d`` for each node entered.

    Raises ValueError for a trace without windows (minimax's).
    """
    lines = []
    for event in events:
        if isinstance(event, Enter):
            if event.alpha is None or event.beta is None:
                raise ValueError("this trace has no windows: AlphaBeta0's printout needs an alpha-beta trace")
            lines.append(f"pos = {event.node:>2} alpha = {format_value(event.alpha, 2)} beta = {format_value(event.beta, 2)}")
    return lines


def root_line(tree: GameTree, value: Value, best_move: str | None = None) -> str:
    """The last line of AlphaBeta0/1.cpp: ``Pos: 0 Value:  4`` (and `` BestPos:  1`` for AlphaBeta1)."""
    line = f"Pos: {tree.root} Value: {format_value(value, 2)}"
    if best_move is not None:
        line += f" BestPos: {best_move:>2}"
    return line



def minmax_table(tree: GameTree, events: Sequence[Event], *, best_pos: bool = True) -> list[str]:
    """MinMax1.cpp's table (MinMax0.cpp's without ``best_pos``): every inner node, root first.

    One line per inner node in breadth-first order, ``Pos: %2d Value: %2d BestPos: %2d``, from the
    Exit events of a full minimax trace; the root's line is ``Pos: 0`` without padding, as the
    programs print it. Raises ValueError if an inner node was never left (a pruned trace).
    """
    exits = {event.node: event for event in events if isinstance(event, Exit)}
    lines = []
    for node in tree.nodes():
        if tree.is_terminal(node):
            continue
        if node not in exits:
            raise ValueError(f"position {node} was never searched: MinMax's table needs a full minimax trace")
        exit_ = exits[node]
        pos = node if node == tree.root else f"{node:>2}"
        line = f"Pos: {pos} Value: {format_value(exit_.value, 2)}"
        if best_pos:
            line += f" BestPos: {(exit_.best_move or node):>2}"
        lines.append(line)
    return lines
