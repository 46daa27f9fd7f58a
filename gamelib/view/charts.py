"""The lessons' plots, described once and drawn with matplotlib where it is installed, else as SVG.

A lesson describes a plot as a :class:`Chart` (its :class:`Series`, axis labels, a log scale) and calls
:func:`show_chart`. With matplotlib (the full install, ``make lab``) the chart is drawn by matplotlib,
as the lessons always drew it; in the browser (``make lite``, whose Python has no matplotlib and no numpy)
:func:`chart_svg` draws the same series as a plain SVG picture. The numbers, and the lesson's checks on
them, are the same either way: only the drawing differs. Only what the lessons' plots use is here:
lines with markers, points, steps, bars, a horizontal rule, a log y-axis.

>>> chart = Chart((Series("leaves", (1, 2, 3), (3, 9, 27), marker="o"),), title="b = 3", log_y=True)
>>> svg = chart_svg(chart)
>>> svg.count("<polyline"), svg.count("<circle"), "b = 3" in svg  # three points, and the legend's key
(1, 4, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

__all__ = ["Chart", "Series", "chart_svg", "has_matplotlib", "show_chart"]

KINDS = ("line", "points", "step", "bar", "hline")
STYLES = ("", "dotted", "faint")
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
"""matplotlib's default colour cycle (tab10), so both drawings colour a series alike."""


@dataclass(frozen=True)
class Series:
    """One series of a chart: ``y[i]`` at ``x[i]`` (a None in ``y`` leaves a gap).

    ``kind`` is "line" (joined points, with an optional ``marker``: "o", "^" or "s"), "points"
    (markers only), "step" (a step after each point, like matplotlib's ``where="post"``), "bar" (bars of
    ``width`` centred on each x) or "hline" (a horizontal rule at ``y[0]`` across the chart; ``x`` is
    ignored). ``style`` is "" (the next colour of the cycle), "dotted" (a black dotted line) or "faint"
    (a wide grey dashed line, for a bound drawn behind the data). ``errors`` gives each point an error
    bar from its (low, high). Raises ValueError for an unknown kind, style or marker, or x, y (and
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
        if self.kind not in KINDS or self.style not in STYLES or self.marker not in ("", "o", "^", "s"):
            raise ValueError(f"series {self.label!r}: kind {self.kind!r}, style {self.style!r} or marker "
                             f"{self.marker!r} unknown (kinds {KINDS}, styles {STYLES}, markers o ^ s)")
        if self.kind != "hline" and not len(self.x) == len(self.y) == (len(self.errors) or len(self.y)):
            raise ValueError(f"series {self.label!r}: {len(self.x)} x values, {len(self.y)} y values and "
                             f"{len(self.errors)} error bars")


@dataclass(frozen=True)
class Chart:
    """A plot: ``series`` drawn in order over one pair of axes, with a ``title``, axis labels,
    logarithmic axes if ``log_x`` or ``log_y``, ``xticks`` and ``yticks`` ((position, label) pairs, a
    label may have two lines) where the values are categories, and ``y_range`` (low, high) to fix the
    y-axis. ``size`` is (width, height) in inches, as matplotlib's figsize (96 pixels an inch in SVG)."""

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


def has_matplotlib() -> bool:
    """True if matplotlib can be imported here (the full install), False in the browser."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def show_chart(chart: Chart) -> None:
    """Draw ``chart`` in the notebook: with matplotlib if it is installed, else as SVG."""
    from IPython.display import SVG, display

    if has_matplotlib():
        _draw_with_matplotlib(chart)
    else:
        display(SVG(chart_svg(chart)))  # type: ignore[no-untyped-call]


def _draw_with_matplotlib(chart: Chart) -> None:
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=chart.size)
    colours = iter(COLOURS)
    for series in chart.series:
        colour = "black" if series.style == "dotted" else "grey" if series.style == "faint" else next(colours)
        line = {"dotted": ":", "faint": "--"}.get(series.style, "-")
        width, alpha = (3.0, 0.5) if series.style == "faint" else (1.5, 1.0)
        nan = [math.nan if value is None else value for value in series.y]
        if series.kind == "bar":
            axes.bar(series.x, nan, series.width, label=series.label, color=colour)
        elif series.kind == "hline":
            axes.axhline(nan[0], color="grey", linestyle=":", label=series.label)
        elif series.kind == "step":
            axes.step(series.x, nan, where="post", label=series.label, color=colour)
        elif series.errors:
            axes.errorbar(series.x, nan, yerr=[[y - low for y, (low, _) in zip(nan, series.errors)],
                                               [high - y for y, (_, high) in zip(nan, series.errors)]],
                          fmt=series.marker or "o", capsize=4, color=colour, label=series.label)
        else:
            axes.plot(series.x, nan, color=colour, label=series.label, lw=width, alpha=alpha,
                      linestyle="none" if series.kind == "points" else line,
                      marker=series.marker or ("o" if series.kind == "points" else None))
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
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the plot, as in the SVG: never over the data
    plt.show()


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
    return [first + i * step for i in range(int(math.ceil((high - first) / step)) + 1)]


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
    ys = [y for s in chart.series for y in s.y if y is not None]
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
    if shape == "^":
        return f'<polygon points="{x:.1f},{y - 4:.1f} {x - 4:.1f},{y + 3:.1f} {x + 4:.1f},{y + 3:.1f}" fill="{colour}"/>'
    if shape == "s":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'


def _runs(points: list[tuple[float, float | None]]) -> list[list[tuple[float, float]]]:
    """Points split at the gaps (None values)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for x, y in points:
        if y is None:
            runs.append([])
        else:
            runs[-1].append((x, y))
    return [run for run in runs if run]


def _series_svg(series: Series, frame: _Frame, colour: str) -> list[str]:
    dash = {"dotted": ' stroke-dasharray="2 3"', "faint": ' stroke-dasharray="8 5" stroke-opacity="0.5"'}
    width = 3 if series.style == "faint" else 1.5
    stroke = f'fill="none" stroke="{colour}" stroke-width="{width}"{dash.get(series.style, "")}'
    parts: list[str] = []
    if series.kind == "hline":
        level = series.y[0] if series.y else None
        if level is None:
            return []
        rule = frame.py(level)
        return [f'<line x1="{frame.left:.0f}" x2="{frame.right:.1f}" y1="{rule:.1f}" y2="{rule:.1f}" stroke="grey" '
                f'stroke-dasharray="2 3"/>']
    if series.kind == "bar":
        base = frame.py(frame.y_low if frame.log_y else max(frame.y_low, 0.0))
        for x, y in zip(series.x, series.y):
            if y is not None:
                left, right, top = frame.px(x - series.width / 2), frame.px(x + series.width / 2), frame.py(y)
                parts.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" '
                             f'height="{base - top:.1f}" fill="{colour}"><title>{escape(series.label)}: '
                             f'{_tick_text(y)}</title></rect>')
        return parts
    for x, (low, high) in zip(series.x, series.errors):
        left, right, bottom, top = frame.px(x) - 4, frame.px(x) + 4, frame.py(low), frame.py(high)
        parts.append(f'<path d="M{frame.px(x):.1f},{bottom:.1f} V{top:.1f} M{left:.1f},{top:.1f} H{right:.1f} '
                     f'M{left:.1f},{bottom:.1f} H{right:.1f}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
    for run in _runs(list(zip(series.x, series.y))):
        pixels = [(frame.px(x), frame.py(y)) for x, y in run]
        if series.kind == "step":  # level until the next x, then up or down to its y
            stepped = [pixels[0]]
            for (_, y), (next_x, next_y) in zip(pixels, pixels[1:]):
                stepped += [(next_x, y), (next_x, next_y)]
            pixels = stepped
        if series.kind != "points":
            text = " ".join(f"{x:.1f},{y:.1f}" for x, y in pixels)
            parts.append(f'<polyline points="{text}" {stroke}/>')
        if series.marker or series.kind == "points":
            parts += [_marker(series.marker or "o", frame.px(x), frame.py(y), colour) for x, y in run]
    return parts


def chart_svg(chart: Chart) -> str:
    """``chart`` as a standalone SVG picture: axes with ticks, the series, a legend and the title."""
    width, height = chart.size[0] * _PIXELS_PER_INCH, chart.size[1] * _PIXELS_PER_INCH
    frame, ticks = _frame(chart, width, height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-chart" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12" role="img">',
           f"<title>{escape(chart.title or chart.ylabel)}</title>",
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
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
    colours = iter(COLOURS)
    legend = []
    for series in chart.series:
        colour = "black" if series.style == "dotted" else "grey" if series.style in ("faint",) or \
            series.kind == "hline" else next(colours)
        out += _series_svg(series, frame, colour)
        legend.append((series, colour))
    out.append(f'<path d="M{frame.left:.0f},{_TOP} V{bottom:.0f} H{right:.0f}" fill="none" stroke="black"/>')
    out.append(f'<text x="{(frame.left + right) / 2:.0f}" y="{height - 10:.0f}" text-anchor="middle">'
               f"{escape(chart.xlabel)}</text>")
    out.append(f'<text transform="translate(16 {(_TOP + bottom) / 2:.0f}) rotate(-90)" text-anchor="middle">'
               f"{escape(chart.ylabel)}</text>")
    out.append(f'<text x="{(frame.left + right) / 2:.0f}" y="20" text-anchor="middle" font-size="14">'
               f"{escape(chart.title)}</text>")
    for row, (series, colour) in enumerate(legend):
        y = _TOP + 12 + 18 * row
        x = right + 14
        if series.kind == "bar":
            key = f'<rect x="{x}" y="{y - 5}" width="16" height="10" fill="{colour}"/>'
        elif series.kind == "points":
            key = _marker(series.marker or "o", x + 8, y, colour)
        else:
            dash = {"dotted": ' stroke-dasharray="2 3"', "faint": ' stroke-dasharray="5 3"'}.get(series.style, "")
            dash = ' stroke-dasharray="2 3"' if series.kind == "hline" else dash
            key = (f'<line x1="{x}" x2="{x + 16}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"{dash}/>'
                   + (_marker(series.marker, x + 8, y, colour) if series.marker else ""))
        out.append(f'<g class="legend">{key}<text x="{x + 22}" y="{y + 4}">{escape(series.label)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)
