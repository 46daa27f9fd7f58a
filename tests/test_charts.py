"""The lessons' plots as SVG (gamelib.view.charts), what the browser shows where matplotlib is missing:
points land where their values say, on a linear or a log axis, steps and bars keep their shape, and a
series that cannot be drawn is refused."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from gamelib.view.charts import Chart, Series, chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(chart: Chart) -> ET.Element:
    return ET.fromstring(chart_svg(chart))


def polyline_points(svg: ET.Element) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, pair.split(","))) for pair in line.get("points", "").split()]  # type: ignore[misc]
            for line in svg.iter(f"{SVG}polyline")]


def test_a_log_axis_spaces_powers_of_ten_evenly() -> None:
    # 3, 9, 27, ..., 2187 (b^d for b = 3): on a log axis equal ratios are equal steps.
    svg = parse(Chart((Series("b^d", range(1, 8), [3**d for d in range(1, 8)]),), log_y=True))
    (points,) = polyline_points(svg)
    rises = [earlier[1] - later[1] for earlier, later in zip(points, points[1:])]
    assert all(rise == pytest.approx(rises[0], abs=0.11) for rise in rises), rises
    # The y labels are whole powers of ten around the data: 1 to 10,000.
    labels = [text.text for text in svg.iter(f"{SVG}text")]
    assert {"1", "10", "100", "1,000"} <= set(labels) and "10^4" in labels


def test_a_linear_axis_puts_values_in_proportion() -> None:
    (points,) = polyline_points(parse(Chart((Series("v", [0, 1, 2], [0, 50, 100]),))))
    (x0, y0), (x1, y1), (x2, y2) = points
    assert x1 - x0 == pytest.approx(x2 - x1) and y0 - y1 == pytest.approx(y1 - y2) and y0 > y1


def test_steps_hold_their_level_until_the_next_x_and_gaps_split_the_line() -> None:
    svg = parse(Chart((Series("lower", [1, 2, 3, 5, 6], [10, 20, None, 40, 50], kind="step"),)))
    first, second = polyline_points(svg)
    assert len(first) == 3 and first[1][1] == first[0][1] and first[1][0] == first[2][0]  # level, then up
    assert len(second) == 3


def test_bars_stand_on_zero_with_their_width() -> None:
    svg = parse(Chart((Series("a", [0, 1], [5, 10], kind="bar", width=0.4),
                       Series("b", [0.4, 1.4], [10, 5], kind="bar", width=0.4)),
                      xticks=[(0.2, "first"), (1.2, "second")]))
    bars = [rect for rect in svg.iter(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    heights = [float(rect.get("height", "0")) for rect in bars]
    bottoms = {round(float(rect.get("y", "0")) + float(rect.get("height", "0")), 1) for rect in bars}
    assert len(bars) == 4 and len(bottoms) == 1  # one baseline: zero
    assert heights[1] == pytest.approx(2 * heights[0]) == pytest.approx(heights[2])
    assert len({round(float(rect.get("width", "0")), 1) for rect in bars}) == 1
    assert {"first", "second"} <= {"".join(text.itertext()) for text in svg.iter(f"{SVG}text")}


def test_every_series_is_in_the_legend_in_order() -> None:
    svg = chart_svg(Chart((Series("lower bound", [1], [1], kind="step"), Series("beta", [1], [2], kind="points"),
                           Series("value", [], [3], kind="hline"))))
    assert re.findall(r'<g class="legend">.*?<text[^>]*>([^<]*)</text>', svg) == ["lower bound", "beta", "value"]


@pytest.mark.parametrize("bad", [dict(kind="pie"), dict(style="bold"), dict(marker="x"), dict(y=[1.0])])
def test_a_series_that_cannot_be_drawn_is_refused(bad: dict[str, object]) -> None:
    fields: dict[str, object] = {"label": "s", "x": [1.0, 2.0], "y": [1.0, 2.0], **bad}
    with pytest.raises(ValueError, match="series 's'"):
        Series(**fields)  # type: ignore[arg-type]


def test_a_log_axis_ignores_nothing_it_can_draw() -> None:
    (points,) = polyline_points(parse(Chart((Series("v", [1, 2], [1, 1000]),), log_y=True)))
    assert math.isfinite(points[0][1]) and points[0][1] > points[1][1]


def test_error_bars_span_their_interval_and_a_fixed_range_holds() -> None:
    svg = parse(Chart((Series("score", [0, 1], [0.5, 0.8], kind="points", errors=[(0.25, 0.75), (0.6, 1.0)]),),
                      y_range=(0.0, 1.0), yticks=[(0.0, "lost"), (1.0, "won")]))
    bars = [path.get("d", "") for path in svg.iter(f"{SVG}path") if path.get("stroke") != "black"]
    assert len(bars) == 2
    # The first bar reaches from 0.25 to 0.75 of the fixed axis: centred on its point, half the axis tall.
    bottom, top = (float(v) for v in re.findall(r"M[\d.]+,([\d.]+) V([\d.]+)", bars[0])[0])
    axis_top, axis_bottom = (float(v) for v in re.findall(r"M[\d.]+,([\d.]+) V([\d.]+)", svg_axes(svg))[0])
    circle = next(svg.iter(f"{SVG}circle"))
    assert float(circle.get("cy", "0")) == pytest.approx((top + bottom) / 2, abs=0.11)
    assert bottom - top == pytest.approx((axis_bottom - axis_top) / 2, abs=0.11)
    labels = {"".join(text.itertext()) for text in svg.iter(f"{SVG}text")}
    assert {"lost", "won"} <= labels and "0.5" not in labels  # the named ticks, no others


def svg_axes(svg: ET.Element) -> str:
    """The axes' path: up the y-axis from its top, down to the bottom, along the x-axis."""
    return next(path.get("d", "") for path in svg.iter(f"{SVG}path") if path.get("stroke") == "black")


def test_a_log_x_axis_spaces_powers_of_ten_evenly() -> None:
    (points,) = polyline_points(parse(Chart((Series("v", [1, 10, 100, 1000], [1, 2, 3, 4]),), log_x=True)))
    steps = [later[0] - earlier[0] for earlier, later in zip(points, points[1:])]
    assert steps[0] == pytest.approx(steps[1], abs=0.11) == pytest.approx(steps[2], abs=0.11)
