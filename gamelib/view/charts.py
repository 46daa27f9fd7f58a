"""The lessons' plots, described once and drawn with matplotlib where it is installed, else as SVG.

A lesson describes a plot as a :class:`Chart` (its :class:`Series`, axis labels, a log scale) and calls
:func:`show_chart`. With matplotlib (the full install, ``make lab``) the chart is drawn by matplotlib
(:func:`chart_png`); in the browser (``make lite``, whose Python has no matplotlib and no numpy)
:func:`chart_svg` draws the same series as a plain SVG picture. The numbers, and the lesson's checks on
them, are the same either way: only the drawing differs. Only what the lessons' plots use is here:
lines with markers, points, steps, bars, a horizontal rule, a log y-axis.

Every chart carries its text alternative (WCAG 2.1, 1.1.1), :attr:`Chart.alt_text` (written by
:func:`chart_description` from the chart's own numbers: its title, its axes, and what each series
shows): a chart displays itself with it (``_repr_mimebundle_``: the ``alt`` of the picture's output
metadata, which the lessons' pages (:mod:`gamelib.view.lesson_html`) put in the ``<img>``'s ``alt``, and
the output's plain text), and the SVG carries it as its ``<desc>``. Its series are told apart by
more than colour (WCAG 1.4.1): each has its colour and a marker shape, a dash pattern or a hatching
of its own, in both drawings, and every colour is at least 3:1 against the white background
(1.4.11), the words black (1.4.3).

>>> chart = Chart((Series("leaves", (1, 2, 3), (3, 9, 27), marker="o"),), title="b = 3", log_y=True)
>>> svg = chart_svg(chart)
>>> svg.count("<polyline"), svg.count("<circle"), "b = 3" in svg  # three points, and the legend's key
(1, 4, True)
>>> print(chart.alt_text)
Chart: b = 3. Vertical axis: values, log scale. Series “leaves”: 3 at 1, 9 at 2, 27 at 3; on average ×3 from each point to the next.
"""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["COLOURS", "Chart", "Series", "chart_description", "chart_figure", "chart_png", "chart_svg",
           "has_matplotlib", "show_chart"]

KINDS = ("line", "points", "step", "bar", "hline")
STYLES = ("", "dotted", "faint")
MARKERS = ("o", "s", "^", "D", "v")
"""The marker shapes, matplotlib's names: circle, square, triangle up, diamond, triangle down."""

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000")
"""The series' colours, in order: Okabe & Ito's colour-blind-safe palette (M. Okabe and K. Ito, *Color
Universal Design*, 2008; https://jfly.uni-koeln.de/color/) without the three of its colours that are
below 3:1 against white (WCAG 2.1, 1.4.11: yellow #F0E442 1.3:1, orange #E69F00 2.2:1, sky blue
#56B4E9 2.3:1). Against white (WCAG's contrast ratio of relative luminances): blue #0072B2 5.2:1,
vermillion #D55E00 3.9:1, bluish green #009E73 3.4:1, reddish purple #CC79A7 3.1:1, black 21:1.
They replace matplotlib's tab10, two of whose colours are below 3:1 (orange #ff7f0e 2.5:1, pink #e377c2
2.7:1) and several of whose pairs protanopes and deuteranopes confuse (green and orange, red and brown)."""

REFERENCE = "#000000"
"""A "dotted" series' colour (a reference curve, such as minimax's b^d): black, 21:1."""
FAINT = "#8a8a8a"
"""A "faint" series' colour (a bound drawn wide, behind the data): 3.4:1, lighter than the data but
still 3:1 (WCAG 1.4.11), so drawn opaque rather than half-transparent (grey at half opacity is 1.8:1)."""
RULE = "#767676"
"""A horizontal rule's colour: 4.5:1."""

DASHES: tuple[tuple[float, ...], ...] = ((), (7, 3), (8, 3, 2, 3), (2, 2), (12, 3, 2, 3, 2, 3))
"""The dash patterns of the coloured lines (on and off lengths in pixels at a line width of 1.5):
solid, dashed, dash-dot, dotted, dash-dot-dot."""
RULE_DASHES: tuple[tuple[float, ...], ...] = ((2, 3), (7, 3), (8, 3, 2, 3), (12, 4))
"""The dash patterns of the rules, the dotted and the faint series, the n-th of each its n-th pattern."""
HATCHES = ("", "//", "xx", "..", "\\\\")
"""The bars' hatchings, matplotlib's names: none, rising lines, crossed lines, dots, falling lines."""


@dataclass(frozen=True)
class Series:
    """One series of a chart: ``y[i]`` at ``x[i]`` (a None in ``y`` leaves a gap).

    ``kind`` is "line" (joined points, with an optional ``marker``: "o", "s", "^", "D" or "v"), "points"
    (markers only), "step" (a step after each point, like matplotlib's ``where="post"``), "bar" (bars of
    ``width`` centred on each x) or "hline" (a horizontal rule at ``y[0]`` across the chart; ``x`` is
    ignored). ``style`` is "" (the next colour and cue of the cycle), "dotted" (a black dotted line) or
    "faint" (a wide grey dashed line, for a bound drawn behind the data). ``errors`` gives each point an
    error bar from its (low, high). Raises ValueError for an unknown kind, style or marker, or x, y (and
    errors) of different lengths."""

    label: str
    x: Sequence[float]
    y: Sequence[float | None]
    kind: str = "line"
    marker: str = ""
    style: str = ""
    width: float = 0.8
    errors: Sequence[tuple[float, float]] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS or self.style not in STYLES or self.marker not in ("", *MARKERS):
            raise ValueError(f"series {self.label!r}: kind {self.kind!r}, style {self.style!r} or marker "
                             f"{self.marker!r} unknown (kinds {KINDS}, styles {STYLES}, markers {' '.join(MARKERS)})")
        if self.kind != "hline" and not len(self.x) == len(self.y) == (len(self.errors) or len(self.y)):
            raise ValueError(f"series {self.label!r}: {len(self.x)} x values, {len(self.y)} y values and "
                             f"{len(self.errors)} error bars")


@dataclass(frozen=True)
class Chart:
    """A plot: ``series`` drawn in order over one pair of axes, with a ``title``, axis labels,
    logarithmic axes if ``log_x`` or ``log_y``, ``xticks`` and ``yticks`` ((position, label) pairs, a
    label may have two lines) where the values are categories, and ``y_range`` (low, high) to fix the
    y-axis. ``size`` is (width, height) in inches, as matplotlib's figsize (96 pixels an inch in SVG).

    In a notebook a chart shows itself (as :func:`show_chart` does), with its :attr:`alt_text`."""

    series: Sequence[Series]
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    log_y: bool = False
    log_x: bool = False
    xticks: Sequence[tuple[float, str]] = field(default_factory=tuple)
    yticks: Sequence[tuple[float, str]] = field(default_factory=tuple)
    y_range: tuple[float, float] | None = None
    size: tuple[float, float] = (8.0, 3.5)

    @property
    def alt_text(self) -> str:
        """What the chart shows, in words and its own numbers (:func:`chart_description`)."""
        return chart_description(self)

    def _repr_mimebundle_(self, include: object = None,
                          exclude: object = None) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
        """The chart for Jupyter: a PNG drawn by matplotlib, or where there is none an SVG, with the
        alt text as the picture's ``alt`` metadata and as the output's plain text."""
        text = self.alt_text
        mime, picture = ("image/png", chart_png(self)) if has_matplotlib() else ("image/svg+xml", chart_svg(self))
        return {mime: picture, "text/plain": text}, {mime: {"alt": text}}


def has_matplotlib() -> bool:
    """True if matplotlib can be imported here (the full install), False in the browser."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def show_chart(chart: Chart) -> None:
    """Draw ``chart`` in the notebook: with matplotlib if it is installed, else as SVG; either way with
    its alt text (:attr:`Chart.alt_text`)."""
    from IPython.display import display

    display(chart)  # type: ignore[no-untyped-call]


# How each series looks: its colour and a second cue (marker, dash pattern or hatching), both drawings.

@dataclass(frozen=True)
class _Look:
    colour: str
    marker: str = ""
    dash: tuple[float, ...] = ()
    width: float = 1.5
    hatch: str = ""


def _looks(chart: Chart) -> list[_Look]:
    """Each series' look, no two alike: the k-th coloured series has the k-th colour and the k-th marker
    (points), dash pattern (lines, steps) or hatching (bars), shifted by one each time the colours come
    round again, so that colour and cue together tell every series apart; a rule, a dotted and a faint
    series each take the next dash pattern of their own kind."""
    looks: list[_Look] = []
    counts: dict[str, int] = {}
    for series in chart.series:
        family = "hline" if series.kind == "hline" else series.style or "coloured"
        k = counts.get(family, 0)
        counts[family] = k + 1

        def variant(shift: int, series: Series = series, family: str = family, k: int = k) -> _Look:
            if family != "coloured":
                colour, width = {"hline": (RULE, 1.5), "dotted": (REFERENCE, 1.5), "faint": (FAINT, 3.0)}[family]
                dashes = RULE_DASHES if family != "faint" else ((8, 5), *RULE_DASHES)
                return _Look(colour, series.marker, dashes[(k + shift) % len(dashes)], width)
            cue = k + k // len(COLOURS) + shift
            colour = COLOURS[k % len(COLOURS)]
            if series.kind == "bar":
                return _Look(colour, hatch=HATCHES[cue % len(HATCHES)])
            if series.kind == "points" or series.errors:
                return _Look(colour, series.marker or MARKERS[cue % len(MARKERS)])
            return _Look(colour, series.marker, DASHES[cue % len(DASHES)])

        look = next((variant(shift) for shift in range(len(DASHES) * len(MARKERS)) if variant(shift) not in looks),
                    variant(0))
        looks.append(look)
    return looks


# The text alternative: what the chart shows, from its own numbers.

_LISTED = 12
"""A series of at most this many points (or a step of at most this many levels) is described point by point
(level by level); a longer one by its ends and extremes."""


def _number(value: float) -> str:
    """A value as the alt text says it: whole numbers, and any from 100 up, in full (with thousands' commas),
    others to three significant figures."""
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _plain(label: str) -> str:
    return " ".join(label.split())


def _namer(ticks: Sequence[tuple[float, str]], values: Sequence[float], share: float) -> Callable[[float], str] | None:
    """Names values by their tick labels, if ``ticks`` name them all: each value is within ``share`` of the
    ticks' smallest spacing from its nearest tick (a category's bars and points sit beside its tick)."""
    if not ticks:
        return None
    positions = sorted(position for position, _ in ticks)
    spacing = min((b - a for a, b in itertools.pairwise(positions) if b > a), default=1.0)

    def nearest(value: float) -> tuple[float, str]:
        position, label = min(ticks, key=lambda tick: abs(tick[0] - value))
        return abs(position - value), _plain(label)

    if all(nearest(value)[0] < share * spacing for value in values):
        return lambda value: nearest(value)[1]
    return None


def _axis(label: str, log: bool, ticks: Sequence[tuple[float, str]] = ()) -> str:
    """An axis in words: its label (or, without one, its ticks' labels), and its scale if logarithmic."""
    words = _plain(label) or ", ".join(_plain(name) for _, name in ticks) or "values"
    return words + (", log scale" if log and "log" not in words else "")


def _growth(points: Sequence[tuple[float, float]]) -> str:
    """On a log axis, the mean factor from each point to the next (the geometric mean of the ratios)."""
    if len(points) < 3 or any(y <= 0 for _, y in points):
        return ""
    factor = (points[-1][1] / points[0][1]) ** (1 / (len(points) - 1))
    return f"; on average ×{factor:.3g} from each point to the next"


def _series_description(series: Series, chart: Chart, earlier: dict[tuple[object, ...], str]) -> str:
    """What ``series`` shows; a series equal to one in ``earlier`` (each series' data and label, which
    this adds to) is said to be the same as it. A value that is not a finite number (NaN: a mean of
    nothing yet) is no value, as None is, and a gap in the drawing."""
    label = f"Series “{_plain(series.label)}”"
    series = replace(series, y=[y if y is not None and math.isfinite(y) else None for y in series.y])
    if series.kind == "hline":
        level = series.y[0] if series.y else None
        return f"{label}: a horizontal line at {_number(level)}." if level is not None else f"{label}: no line."
    data = (series.kind, tuple(series.x), tuple(series.y), tuple(series.errors))
    same = earlier.setdefault(data, _plain(series.label))
    if same != _plain(series.label):
        return f"{label}: the same values as “{same}” at every point."
    values = [y for y in series.y if y is not None]
    name_x = _namer(chart.xticks, series.x, 0.5)
    name_y = _namer(chart.yticks, values, 0.25)
    say_x = name_x or _number
    say_y = name_y or _number
    if not series.x:
        return f"{label}: no points."
    points = [(x, y) for x, y in zip(series.x, series.y) if y is not None]
    if series.kind == "step" and (name_y or len(series.x) > _LISTED):
        return label + ": " + _levels(series, say_x, say_y, numeric=name_y is None)
    if len(points) > _LISTED and name_x is None:
        return label + ": " + _extremes(series, say_x, say_y, chart.log_y)
    bars: Sequence[tuple[float, float] | None] = series.errors or [None] * len(series.x)
    said, gaps = [], []
    for x, y, bar in zip(series.x, series.y, bars):
        if y is None:
            gaps.append(say_x(x))
            continue
        extent = f" (bar from {say_y(bar[0])} to {say_y(bar[1])})" if bar is not None else ""
        said.append(f"{say_x(x)} {say_y(y)}{extent}" if name_x else f"{say_y(y)}{extent} at {say_x(x)}")
    if gaps:
        said.append(f"no value at {', '.join(gaps)}" if len(gaps) <= _LISTED else f"no value at {len(gaps)} other points")
    growth = _growth(points) if chart.log_y and name_y is None and not gaps else ""
    return f"{label}: {', '.join(said)}{growth}."


def _levels(series: Series, say_x: Callable[[float], str], say_y: Callable[[float], str], numeric: bool) -> str:
    """A step series as its levels, each with the points it holds at ("6 at 0.05 to 0.2"); a long one by
    its first and last levels and how often it changes."""
    spans: list[tuple[float, float, str]] = []  # a level's first and last x, and the level
    for x, y in zip(series.x, series.y):
        level = "no value" if y is None else say_y(y)
        if spans and spans[-1][2] == level:
            spans[-1] = (spans[-1][0], x, level)
        else:
            spans.append((x, x, level))

    def said(first: float, last: float, level: str) -> str:
        return f"{level} at {say_x(first)}" + ("" if last == first else f" to {say_x(last)}")

    if len(spans) <= _LISTED:
        return ", ".join(said(*span) for span in spans) + "."
    text = (f"{len(spans)} levels from {say_x(series.x[0])} to {say_x(series.x[-1])}, changing {len(spans) - 1} "
            f"times: first {said(*spans[0])}, last {said(*spans[-1])}")
    values = [(y, x) for x, y in zip(series.x, series.y) if y is not None]
    if numeric and values:
        (low, at_low), (high, at_high) = min(values), max(values, key=lambda pair: (pair[0], -pair[1]))
        text += f"; lowest {say_y(low)} (first at {say_x(at_low)}), highest {say_y(high)} (first at {say_x(at_high)})"
    return text + "."


def _extremes(series: Series, say_x: Callable[[float], str], say_y: Callable[[float], str], log_y: bool) -> str:
    """A long series by its first and last values and its lowest and highest (where each is first reached)."""
    points = [(x, y) for x, y in zip(series.x, series.y) if y is not None]
    if not points:
        return "no values."
    (x0, y0), (xn, yn) = points[0], points[-1]
    low = min(points, key=lambda point: point[1])  # the first of the lowest
    high = max(points, key=lambda point: point[1])
    gaps = len(series.y) - len(points)
    text = (f"{len(series.x)} points from {say_x(series.x[0])} to {say_x(series.x[-1])}"
            + (f" ({gaps} without a value)" if gaps else "")
            + f": {say_y(y0)} at {say_x(x0)}, {say_y(yn)} at {say_x(xn)}; lowest {say_y(low[1])} (first at "
            f"{say_x(low[0])}), highest {say_y(high[1])} (first at {say_x(high[0])})")
    if series.errors:
        text += (f"; bars from {say_y(min(low for low, _ in series.errors))} to "
                 f"{say_y(max(high for _, high in series.errors))}")
    return text + (_growth(points) if log_y and not gaps else "") + "."


def chart_description(chart: Chart) -> str:
    """The chart's text alternative: its title, its axes (with their units, as their labels say them,
    and their scales) and, series by series, what it shows, in the chart's own numbers: a short series
    point by point (a category by its tick's label; on a log y-axis also the mean factor from point to
    point), a long one by its first, last, lowest and highest values, a step by its levels, a series
    equal to an earlier one as the same. Nothing in it is not read from the chart's data.

    >>> print(chart_description(Chart([Series("score", [0, 1], [0.5, 0.75], kind="points",
    ...                                       errors=[(0.25, 0.75), (0.5, 1.0)]),
    ...                                Series("even", [], [0.5], kind="hline")],
    ...                               ylabel="score", xticks=[(0, "A vs B"), (1, "A\\nvs C")])))
    Chart of score for A vs B, A vs C. Vertical axis: score. Series “score”: A vs B 0.5 (bar from 0.25 to 0.75), A vs C 0.75 (bar from 0.5 to 1). Series “even”: a horizontal line at 0.5.
    """
    categories = ", ".join(_plain(label) for _, label in chart.xticks)
    if chart.title:
        head = f"Chart: {_plain(chart.title)}."
    elif chart.xlabel or categories:
        head = f"Chart of {_axis(chart.ylabel, False)} " + (f"against {_plain(chart.xlabel)}." if chart.xlabel
                                                            else f"for {categories}.")
    else:
        head = f"Chart of {_axis(chart.ylabel, False)}."
    axes = f"Vertical axis: {_axis(chart.ylabel, chart.log_y, chart.yticks)}."
    if chart.xlabel or chart.log_x:
        axes += f" Horizontal axis: {_axis(chart.xlabel, chart.log_x)}."
    elif categories and chart.title:
        axes += f" Horizontal axis: {categories}."
    sentences = [head, axes]
    earlier: dict[tuple[object, ...], str] = {}
    sentences += [_series_description(series, chart, earlier) for series in chart.series]
    return " ".join(sentences)


# The matplotlib drawing.

def chart_figure(chart: Chart) -> Figure:
    """``chart`` drawn by matplotlib, as a Figure of its own (not pyplot's: nothing is shown until asked)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=chart.size, facecolor="white")
    axes = figure.subplots()
    keys: list[Any] = []  # what each series drew, for the legend, in the series' order (as in the SVG)
    for series, look in zip(chart.series, _looks(chart)):
        nan = [math.nan if value is None else value for value in series.y]
        line = (0, tuple(length / look.width for length in look.dash)) if look.dash else "-"  # in line widths
        if series.kind == "bar":
            key: Any = axes.bar(series.x, nan, series.width, label=series.label, color=look.colour,
                                hatch=look.hatch or None, hatchcolor="white", edgecolor=look.colour, linewidth=0)
        elif series.kind == "hline":
            key = axes.axhline(nan[0], color=look.colour, linestyle=line, lw=look.width, label=series.label)
        elif series.kind == "step":
            (key,) = axes.step(series.x, nan, where="post", label=series.label, color=look.colour, linestyle=line,
                               lw=look.width, marker=look.marker or None)
        elif series.errors:
            key = axes.errorbar(series.x, nan, yerr=[[y - low for y, (low, _) in zip(nan, series.errors)],
                                                     [high - y for y, (_, high) in zip(nan, series.errors)]],
                                fmt=look.marker, capsize=4, color=look.colour, label=series.label)
        else:
            (key,) = axes.plot(series.x, nan, color=look.colour, label=series.label, lw=look.width,
                               linestyle="none" if series.kind == "points" else line, marker=look.marker or None)
        keys.append(key)
    if chart.log_y:
        axes.set_yscale("log")
    if chart.log_x:
        axes.set_xscale("log")
    if chart.xticks:
        axes.set_xticks([x for x, _ in chart.xticks], [label for _, label in chart.xticks])
    if chart.yticks:
        axes.set_yticks([y for y, _ in chart.yticks], [label for _, label in chart.yticks])
    if chart.y_range:
        axes.set_ylim(*chart.y_range)
    axes.set(title=chart.title, xlabel=chart.xlabel, ylabel=chart.ylabel)
    # beside the plot, as in the SVG: never over the data
    axes.legend(keys, [series.label for series in chart.series], loc="upper left", bbox_to_anchor=(1.01, 1))
    return figure


def chart_png(chart: Chart) -> str:
    """``chart`` drawn by matplotlib (:func:`chart_figure`) as a PNG, base64-encoded as Jupyter carries
    it; cut to the drawing as the notebook's inline backend cuts it."""
    buffer = io.BytesIO()
    chart_figure(chart).savefig(buffer, format="png", bbox_inches="tight", facecolor="white")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# The SVG drawing.

_PIXELS_PER_INCH = 96
_TOP, _BOTTOM = 34, 48
_CHARACTER = 6.6
"""About the width of a character at 12 px, to leave room for the legend at the right."""


def _nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 5, 10) if f * power >= raw)
    first = math.floor(low / step) * step
    return [first + i * step for i in range(math.ceil((high - first) / step) + 1)]


def _tick_text(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 or value == int(value) else f"{value:g}"


@dataclass(frozen=True)
class _Frame:
    """Where the data lands: plot-area pixels for data x and y."""

    x_low: float
    x_high: float
    y_low: float
    y_high: float
    log_x: bool
    log_y: bool
    width: float
    height: float
    left: float
    right: float

    def px(self, x: float) -> float:
        return self.left + _share(x, self.x_low, self.x_high, self.log_x) * (self.right - self.left)

    def py(self, y: float) -> float:
        return self.height - _BOTTOM - _share(y, self.y_low, self.y_high, self.log_y) * (self.height - _TOP - _BOTTOM)


def _share(value: float, low: float, high: float, log: bool) -> float:
    """How far ``value`` lies from ``low`` to ``high``, 0 to 1, on a linear or a log scale."""
    if log:
        value, low, high = math.log10(value), math.log10(low), math.log10(high)
    return (value - low) / (high - low)


def _powers_of_ten(values: Sequence[float]) -> list[float]:
    """Whole powers of ten from below the smallest positive value to above the largest."""
    positive = [value for value in values if value > 0] or [1.0]
    low, high = math.floor(math.log10(min(positive))), math.ceil(math.log10(max(positive)))
    return [10.0 ** k for k in range(low, max(high, low + 1) + 1)]


def _frame(chart: Chart, width: float, height: float) -> tuple[_Frame, list[float]]:
    """The data ranges (bars reach from zero, a log axis spans whole powers of ten) and the y ticks."""
    xs = [x for s in chart.series if s.kind != "hline" for x in s.x]
    half_bar = max((s.width / 2 for s in chart.series if s.kind == "bar"), default=0.0)
    ys = [y for s in chart.series for y in s.y if y is not None and math.isfinite(y)]  # NaN: a gap, as None
    ys += [bound for s in chart.series for pair in s.errors for bound in pair]
    if any(s.kind == "bar" for s in chart.series) and not chart.log_y:
        ys.append(0.0)
    x_low, x_high = (min(xs) - half_bar, max(xs) + half_bar) if xs else (0.0, 1.0)
    if chart.log_x:
        x_low, x_high = x_low / 1.2, x_high * 1.2
    else:
        x_low, x_high = (x_low - 0.5, x_high + 0.5) if x_high == x_low else (x_low, x_high)
        pad = 0.5 if chart.xticks and not half_bar else (x_high - x_low) * 0.04  # categories: half a step
        x_low, x_high = x_low - pad, x_high + pad
    if chart.log_y:
        ticks = _powers_of_ten(ys)
    else:
        ticks = _nice_ticks(*(chart.y_range or (min(ys, default=0.0), max(ys, default=1.0))))
    y_low, y_high = chart.y_range or (ticks[0], ticks[-1])
    if chart.yticks:
        ticks = [y for y, _ in chart.yticks]
    ticks = [tick for tick in ticks if y_low <= tick <= y_high]
    legend = max((len(s.label) for s in chart.series), default=0) * _CHARACTER + 44
    labels = max((len(label) for _, label in chart.yticks), default=6)
    left = max(72.0, labels * _CHARACTER + 34)
    return _Frame(x_low, x_high, y_low, y_high, chart.log_x, chart.log_y, width, height, left, width - legend), ticks


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape in ("^", "v"):
        tip, base = (y - 4, y + 3) if shape == "^" else (y + 4, y - 3)
        return f'<polygon points="{x:.1f},{tip:.1f} {x - 4:.1f},{base:.1f} {x + 4:.1f},{base:.1f}" fill="{colour}"/>'
    if shape == "D":
        return (f'<polygon points="{x:.1f},{y - 4.5:.1f} {x + 4.5:.1f},{y:.1f} {x:.1f},{y + 4.5:.1f} '
                f'{x - 4.5:.1f},{y:.1f}" fill="{colour}"/>')
    if shape == "s":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'


_RISING = ((0, 8, 8, 0), (-1, 1, 1, -1), (7, 9, 9, 7))
_FALLING = ((0, 0, 8, 8), (7, -1, 9, 1), (-1, 7, 1, 9))
_HATCH_LINES = {"//": _RISING, "\\\\": _FALLING, "xx": _RISING + _FALLING}
"""The lines of each hatching's 8-pixel tile (x1, y1, x2, y2); the dots' tile is a square."""


def _hatch_pattern(hatch: str, pattern: str) -> str:
    """An SVG pattern of white lines or dots, laid over a bar of a colour to hatch it."""
    if hatch == "..":
        tile = '<rect x="3" y="3" width="2.5" height="2.5" fill="white"/>'
    else:
        tile = "".join(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="white" stroke-width="1.2"/>'
                       for x1, y1, x2, y2 in _HATCH_LINES[hatch])
    return f'<pattern id="{pattern}" patternUnits="userSpaceOnUse" width="8" height="8">{tile}</pattern>'


def _dash(look: _Look) -> str:
    return f' stroke-dasharray="{" ".join(f"{length:g}" for length in look.dash)}"' if look.dash else ""


def _runs(points: list[tuple[float, float | None]]) -> list[list[tuple[float, float]]]:
    """Points split at the gaps (None or NaN values)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for x, y in points:
        if y is None or not math.isfinite(y):
            runs.append([])
        else:
            runs[-1].append((x, y))
    return [run for run in runs if run]


def _series_svg(series: Series, frame: _Frame, look: _Look, hatching: str) -> list[str]:
    """The series drawn, in ``look``; a hatched bar is laid over with the pattern ``hatching``."""
    colour = look.colour
    stroke = f'fill="none" stroke="{colour}" stroke-width="{look.width:g}"{_dash(look)}'
    parts: list[str] = []
    if series.kind == "hline":
        level = series.y[0] if series.y else None
        if level is None or not math.isfinite(level):
            return []
        rule = frame.py(level)
        return [f'<line x1="{frame.left:.0f}" x2="{frame.right:.1f}" y1="{rule:.1f}" y2="{rule:.1f}" {stroke}/>']
    if series.kind == "bar":
        base = frame.py(frame.y_low if frame.log_y else max(frame.y_low, 0.0))
        for x, y in zip(series.x, series.y):
            if y is not None and math.isfinite(y):
                left, right, top = frame.px(x - series.width / 2), frame.px(x + series.width / 2), frame.py(y)
                box = f'x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" height="{base - top:.1f}"'
                parts.append(f'<rect {box} fill="{colour}"><title>{escape(series.label)}: {_tick_text(y)}</title></rect>')
                if look.hatch:
                    parts.append(f'<rect {box} fill="url(#{hatching})"/>')
        return parts
    for x, (low, high) in zip(series.x, series.errors):
        left, right, bottom, top = frame.px(x) - 4, frame.px(x) + 4, frame.py(low), frame.py(high)
        parts.append(f'<path d="M{frame.px(x):.1f},{bottom:.1f} V{top:.1f} M{left:.1f},{top:.1f} H{right:.1f} '
                     f'M{left:.1f},{bottom:.1f} H{right:.1f}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
    for run in _runs(list(zip(series.x, series.y))):
        pixels = [(frame.px(x), frame.py(y)) for x, y in run]
        if series.kind == "step":  # level until the next x, then up or down to its y
            stepped = [pixels[0]]
            for (_, y), (next_x, next_y) in itertools.pairwise(pixels):
                stepped += [(next_x, y), (next_x, next_y)]
            pixels = stepped
        if series.kind != "points":
            text = " ".join(f"{x:.1f},{y:.1f}" for x, y in pixels)
            parts.append(f'<polyline points="{text}" {stroke}/>')
        if look.marker:
            parts += [_marker(look.marker, frame.px(x), frame.py(y), colour) for x, y in run]
    return parts


def _legend_key(series: Series, look: _Look, x: float, y: float, hatching: str) -> str:
    """The legend's sample of a series: a bar's colour and hatching, a point's marker, a line's colour,
    dash pattern and marker."""
    if series.kind == "bar":
        box = f'x="{x}" y="{y - 5}" width="16" height="10"'
        return f'<rect {box} fill="{look.colour}"/>' + (f'<rect {box} fill="url(#{hatching})"/>' if look.hatch else "")
    line = (f'<line x1="{x}" x2="{x + 16}" y1="{y}" y2="{y}" stroke="{look.colour}" '
            f'stroke-width="{max(look.width, 2.0):g}"{_dash(look)}/>')
    if series.kind == "points" or series.errors:
        line = ""
    return line + (_marker(look.marker, x + 8, y, look.colour) if look.marker else "")


def chart_svg(chart: Chart) -> str:
    """``chart`` as a standalone SVG picture: axes with ticks, the series, a legend and the title; an
    image (``role="img"``) whose ``<title>`` names it and whose ``<desc>`` is its alt text
    (:attr:`Chart.alt_text`)."""
    width, height = chart.size[0] * _PIXELS_PER_INCH, chart.size[1] * _PIXELS_PER_INCH
    frame, ticks = _frame(chart, width, height)
    looks = _looks(chart)
    name = chart.title or (f"{chart.ylabel} against {chart.xlabel}" if chart.xlabel else chart.ylabel) or "chart"
    digest = hashlib.sha1(repr(chart).encode(), usedforsecurity=False).hexdigest()[:10]  # pattern ids unique in a page of charts
    hatchings = {look.hatch: f"gamelib-hatch-{digest}-{n}" for n, look in enumerate(looks) if look.hatch}
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-chart" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12" role="img">'),
           f"<title>{escape(_plain(name))}</title>",
           f"<desc>{escape(chart.alt_text)}</desc>",
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
    if hatchings:
        out.append("<defs>" + "".join(_hatch_pattern(hatch, pattern) for hatch, pattern in hatchings.items()) + "</defs>")
    bottom, right = height - _BOTTOM, frame.right
    named = dict(chart.yticks)
    for tick in ticks:
        y = frame.py(tick)
        label = named.get(tick) or (f"10^{round(math.log10(tick))}" if chart.log_y and tick >= 10_000
                                    else _tick_text(tick))
        out.append(f'<line x1="{frame.left:.0f}" x2="{right:.0f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e6e6e6"/>'
                   f'<text x="{frame.left - 6:.0f}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    if chart.xticks:
        xticks = list(chart.xticks)
    else:
        xs = sorted({x for s in chart.series if s.kind != "hline" for x in s.x})
        chosen = (_powers_of_ten(xs) if chart.log_x else xs if len(xs) <= 12 else _nice_ticks(xs[0], xs[-1]))
        xticks = [(x, _tick_text(x)) for x in chosen if frame.x_low <= x <= frame.x_high]
    for x, label in xticks:
        lines = "".join(f'<tspan x="{frame.px(x):.1f}" dy="{0 if row == 0 else 14}">{escape(text)}</tspan>'
                        for row, text in enumerate(label.split("\n")))
        out.append(f'<text y="{bottom + 16:.0f}" text-anchor="middle">{lines}</text>')
    for series, look in zip(chart.series, looks):
        out += _series_svg(series, frame, look, hatchings.get(look.hatch, ""))
    out.append(f'<path d="M{frame.left:.0f},{_TOP} V{bottom:.0f} H{right:.0f}" fill="none" stroke="black"/>')
    out.append(f'<text x="{(frame.left + right) / 2:.0f}" y="{height - 10:.0f}" text-anchor="middle">'
               f"{escape(chart.xlabel)}</text>")
    out.append(f'<text transform="translate(16 {(_TOP + bottom) / 2:.0f}) rotate(-90)" text-anchor="middle">'
               f"{escape(chart.ylabel)}</text>")
    out.append(f'<text x="{(frame.left + right) / 2:.0f}" y="20" text-anchor="middle" font-size="14">'
               f"{escape(chart.title)}</text>")
    for row, (series, look) in enumerate(zip(chart.series, looks)):
        y = _TOP + 12 + 18 * row
        x = right + 14
        key = _legend_key(series, look, x, y, hatchings.get(look.hatch, ""))
        out.append(f'<g class="legend">{key}<text x="{x + 22}" y="{y + 4}">{escape(series.label)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)
