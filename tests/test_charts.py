"""The lessons' plots as SVG (gamelib.view.charts), what the browser shows where matplotlib is missing:
points land where their values say, on a linear or a log axis, steps and bars keep their shape, and a
series that cannot be drawn is refused."""

from __future__ import annotations

import html
import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

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
    rises = [earlier[1] - later[1] for earlier, later in itertools.pairwise(points)]
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


@pytest.mark.parametrize("bad", [{"kind": "pie"}, {"style": "bold"}, {"marker": "x"}, {"y": [1.0]}])
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
    steps = [later[0] - earlier[0] for earlier, later in itertools.pairwise(points)]
    assert steps[0] == pytest.approx(steps[1], abs=0.11) == pytest.approx(steps[2], abs=0.11)


# Accessibility (WCAG 2.1 AA): every chart has a text alternative that reaches the page, its colours are 3:1 or
# more against white, its words 4.5:1, and no two series look alike (colour and marker, dash or hatching).

def contrast_on_white(colour: str) -> float:
    """WCAG 2.1's contrast ratio of a #rrggbb colour against white, from its relative luminance (computed
    here, not by gamelib)."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(int(colour.lstrip("#")[i:i + 2], 16)) for i in (0, 2, 4))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return 1.05 / (luminance + 0.05)


def test_the_contrast_formula_agrees_with_wcags_examples() -> None:
    assert contrast_on_white("#000000") == pytest.approx(21.0)
    assert contrast_on_white("#ffffff") == pytest.approx(1.0)
    assert contrast_on_white("#767676") == pytest.approx(4.54, abs=0.01)  # the grey known as the lightest at 4.5:1
    assert contrast_on_white("#ff7f0e") < 3  # tab10's orange, the palette's old second colour


NAMED = {"black": "#000000", "white": "#ffffff", "grey": "#808080", "gray": "#808080"}


def hex_colour(value: str) -> str:
    value = NAMED.get(value.lower(), value.lower())
    assert re.fullmatch(r"#[0-9a-f]{6}", value), f"not a #rrggbb colour: {value!r}"
    return value


MANY = Chart([*(Series(f"line {k}", [1, 2, 3], [k, k + 1, k + 3]) for k in range(7)),
              *(Series(f"points {k}", [1, 2, 3], [k, k, k], kind="points") for k in range(6)),
              Series("with errors", [1, 2], [1, 2], kind="points", errors=[(0, 2), (1, 3)]),
              Series("step", [1, 2, 3], [3, 1, 2], kind="step"),
              Series("reference", [1, 3], [0, 9], style="dotted"), Series("bound", [1, 3], [0, 5], style="faint"),
              *(Series(f"rule {k}", [], [k], kind="hline") for k in range(3))],
             title="every kind of series", xlabel="x", ylabel="y")
BARS = Chart([Series(f"bars {k}", [k, k + 6], [k + 1, 7 - k], kind="bar", width=0.8) for k in range(6)],
             ylabel="height", xticks=[(2.5, "first"), (8.5, "second")])


def shape(part: ET.Element) -> str:
    """A polygon's shape (its corners from its first, so a triangle up is not a triangle down), a rectangle's size."""
    if part.tag == f"{SVG}polygon":
        corners = [tuple(map(float, pair.split(","))) for pair in part.get("points", "").split()]
        return ";".join(f"{x - corners[0][0]:.1f},{y - corners[0][1]:.1f}" for x, y in corners)
    return f"{part.get('width', '')}x{part.get('height', '')}" if part.tag == f"{SVG}rect" else ""


def legend_keys(chart: Chart) -> list[tuple[str, tuple[str, ...]]]:
    """Each legend entry of the SVG: its label, and how its key looks (colour, shapes, dashes, hatching)."""
    keys = []
    for entry in parse(chart).iter(f"{SVG}g"):
        if entry.get("class") != "legend":
            continue
        parts = [part for part in entry if part.tag != f"{SVG}text"]
        looks = tuple(sorted(f"{part.tag.split('}')[1]} {shape(part)} {part.get('fill', '')} {part.get('stroke', '')} "
                             f"{part.get('stroke-dasharray', '')} {part.get('stroke-width', '')}"
                             for part in parts))
        keys.append((entry.findtext(f"{SVG}text", ""), looks))
    return keys


@pytest.mark.parametrize("chart", [MANY, BARS], ids=["lines-points-rules", "bars"])
def test_no_two_series_look_alike_in_the_svg(chart: Chart) -> None:
    keys = legend_keys(chart)
    assert [label for label, _ in keys] == [series.label for series in chart.series]
    looks = [look for _, look in keys]
    twins = {look for look in looks if looks.count(look) > 1}
    assert not twins, f"series drawn alike (colour, marker, dashes and hatching all the same): {twins}"


def svg_colours(chart: Chart) -> set[str]:
    """The colours the SVG draws its series in: every fill and stroke but the white background, the white
    hatching, the light grid (not needed to read a value: the ticks are) and the hatching's pattern."""
    colours = set()
    for element in parse(chart).iter():
        for name in ("fill", "stroke"):
            value = element.get(name)
            if value and value != "none" and not value.startswith("url("):
                colours.add(hex_colour(value))
    return colours - {"#ffffff", "#e6e6e6"}


@pytest.mark.parametrize("chart", [MANY, BARS], ids=["lines-points-rules", "bars"])
def test_every_colour_of_a_chart_is_3_to_1_on_white_and_its_words_4_5_to_1(chart: Chart) -> None:
    colours = svg_colours(chart)
    assert len(colours) >= 5
    low = {colour: round(contrast_on_white(colour), 2) for colour in colours if contrast_on_white(colour) < 3}
    assert not low, f"colours below 3:1 against white (WCAG 1.4.11): {low}"
    svg = parse(chart)
    assert svg.find(f"{SVG}rect").get("fill") == "white"  # type: ignore[union-attr]  # the background they are on
    words = [text.get("fill", "#000000") for text in svg.iter(f"{SVG}text")]
    assert words and all(contrast_on_white(hex_colour(colour)) >= 4.5 for colour in words)
    assert all(element.get("opacity") is None and element.get("stroke-opacity") is None for element in svg.iter())


def test_the_palette_is_3_to_1_on_white_and_colour_blind_safe() -> None:
    from gamelib.view.charts import COLOURS

    assert len(COLOURS) >= 4 and len(set(COLOURS)) == len(COLOURS)
    assert all(contrast_on_white(colour) >= 3 for colour in COLOURS), {c: contrast_on_white(c) for c in COLOURS}
    okabe_ito = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"}
    assert {colour.lower() for colour in COLOURS} <= okabe_ito


def test_no_two_series_look_alike_in_matplotlib_and_every_colour_is_3_to_1() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_hex
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    from gamelib.view.charts import chart_figure

    for chart in (MANY, BARS):
        figure = chart_figure(chart)
        legend = figure.axes[0].get_legend()
        assert legend is not None
        assert [text.get_text() for text in legend.get_texts()] == [series.label for series in chart.series]
        artists, labels = figure.axes[0].get_legend_handles_labels()
        drawn = dict(zip(labels, artists))
        looks = []
        for series in chart.series:
            artist = drawn[series.label]
            if isinstance(artist, BarContainer):
                bar = artist.patches[0]
                looks.append((to_hex(bar.get_facecolor()), bar.get_hatch() or "", ""))
                continue
            line = artist.lines[0] if isinstance(artist, ErrorbarContainer) else artist
            assert isinstance(line, Line2D)
            dashes = "" if line.get_linestyle() in ("None", "-") else str(line._unscaled_dash_pattern)  # type: ignore[attr-defined]
            looks.append((to_hex(line.get_color()), str(line.get_marker()), dashes))
        twins = {look for look in looks if looks.count(look) > 1}
        assert not twins, f"series drawn alike (colour, marker, dashes and hatching all the same): {twins}"
        low = {colour for colour, _, _ in looks if contrast_on_white(colour) < 3}
        assert not low, f"colours below 3:1 against white (WCAG 1.4.11): {low}"
        words = [to_hex(text.get_color()) for text in figure.findobj(Text) if text.get_text()]
        assert words and all(contrast_on_white(colour) >= 4.5 for colour in words)


LESSON_LIKE = Chart([Series("minimax: b^d", range(1, 6), [3**d for d in range(1, 6)], style="dotted"),
                     Series("alpha-beta, best first", range(1, 6), [3, 5, 11, 17, 35], marker="o"),
                     Series("alpha-beta, worst first", range(1, 6), [3**d for d in range(1, 6)], marker="^")],
                    title="Alpha-beta and move ordering, b = 3", xlabel="depth d (plies)", ylabel="leaves evaluated",
                    log_y=True)


def test_a_chart_says_what_it_shows_from_its_own_numbers() -> None:
    text = LESSON_LIKE.alt_text
    assert text.startswith("Chart: Alpha-beta and move ordering, b = 3. Vertical axis: leaves evaluated, log scale. "
                           "Horizontal axis: depth d (plies).")
    assert "Series “minimax: b^d”: 3 at 1, 9 at 2, 27 at 3, 81 at 4, 243 at 5; on average ×3 from each point" in text
    assert "“alpha-beta, best first”: 3 at 1, 5 at 2, 11 at 3, 17 at 4, 35 at 5; on average ×1.85" in text
    assert "“alpha-beta, worst first”: the same values as “minimax: b^d” at every point." in text


def test_a_long_series_is_told_by_its_ends_and_extremes_and_a_step_by_its_levels() -> None:
    chart = Chart([Series("c = 0.50", range(1, 601), [min(40, i // 10) for i in range(1, 601)]),
                   Series("choice", range(1, 801), [2.05 if i < 37 else 0.95 for i in range(1, 801)], kind="step")],
                  xlabel="iterations", ylabel="searches right (of 40)", log_x=True,
                  yticks=[(1, "move 1 (best)"), (2, "move 2")])
    text = chart.alt_text
    assert "Horizontal axis: iterations, log scale." in text
    assert ("“c = 0.50”: 600 points from 1 to 600: 0 at 1, 40 at 600; lowest 0 (first at 1), highest 40 "
            "(first at 400).") in text
    assert "“choice”: move 2 at 1 to 36, move 1 (best) at 37 to 800." in text


def test_a_value_that_is_no_number_is_a_gap_not_an_error() -> None:
    """A mean of nothing yet is NaN (lesson 9's mean rewards start so): the chart says there is no value there,
    draws a gap, and still shows itself."""
    nan = math.nan
    chart = Chart([Series("mean", range(1, 21), [nan, nan, *(0.5 + k / 100 for k in range(18))]),
                   Series("short", [1, 2, 3], [nan, 2, 3]), Series("depth", [1, 2, 3], [None, 6, 7], kind="step"),
                   Series("nothing", [], [nan], kind="hline")], xlabel="iterations", ylabel="mean reward")
    text = chart.alt_text
    assert ("“mean”: 20 points from 1 to 20 (2 without a value): 0.5 at 3, 0.67 at 20; lowest 0.5 (first at 3), "
            "highest 0.67 (first at 20).") in text
    assert "“short”: 2 at 2, 3 at 3, no value at 1." in text
    assert "“depth”: 6 at 2, 7 at 3, no value at 1." in text and "“nothing”: no line." in text
    svg = chart_svg(chart)
    assert "nan" not in svg.lower() and len(polyline_points(parse(chart))) == 3
    assert chart._repr_mimebundle_()[1]


def test_categories_are_named_by_their_ticks_and_bars_by_their_ends() -> None:
    chart = Chart([Series("rule 8", [-0.1, 0.9], [0.75, 0.5], kind="points", errors=[(0.6, 0.9), (0.3, 0.7)]),
                   Series("even (0.5)", [], [0.5], kind="hline")],
                  title="bot A's score", ylabel="score", xticks=[(0, "a\nvs b"), (1, "a\nvs c")])
    assert chart.alt_text == ("Chart: bot A's score. Vertical axis: score. Horizontal axis: a vs b, a vs c. "
                              "Series “rule 8”: a vs b 0.75 (bar from 0.6 to 0.9), a vs c 0.5 (bar from 0.3 to 0.7). "
                              "Series “even (0.5)”: a horizontal line at 0.5.")


def test_the_svg_is_an_image_named_by_its_title_and_described_by_its_alt_text() -> None:
    svg = parse(LESSON_LIKE)
    assert svg.get("role") == "img"
    assert svg.findtext(f"{SVG}title") == "Alpha-beta and move ordering, b = 3"
    assert svg.findtext(f"{SVG}desc") == LESSON_LIKE.alt_text
    untitled = parse(Chart((Series("v", [1, 2], [1, 2]),), xlabel="pass", ylabel="value"))
    assert untitled.findtext(f"{SVG}title") == "value against pass"


@pytest.mark.parametrize("matplotlib", [True, False], ids=["png", "svg"])
def test_a_chart_shows_itself_with_its_alt_text(monkeypatch: pytest.MonkeyPatch, matplotlib: bool) -> None:
    from gamelib.view import charts

    if matplotlib:
        pytest.importorskip("matplotlib")
    monkeypatch.setattr(charts, "has_matplotlib", lambda: matplotlib)
    data, metadata = LESSON_LIKE._repr_mimebundle_()
    mime = "image/png" if matplotlib else "image/svg+xml"
    assert set(data) == {mime, "text/plain"} and data["text/plain"] == LESSON_LIKE.alt_text
    assert metadata == {mime: {"alt": LESSON_LIKE.alt_text}}
    assert len(LESSON_LIKE.alt_text) > 100 and "No description" not in LESSON_LIKE.alt_text


def test_the_alt_text_reaches_the_lessons_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What make html writes (gamelib.view.lesson_html): the chart's <img> has the chart's alt text as its alt,
    not nbconvert's "No description has been provided for this image", as a PNG and as an SVG."""
    import nbformat

    from gamelib.view import charts
    from gamelib.view.lesson_html import lesson_html

    outputs = []
    for matplotlib in ((True, False) if charts.has_matplotlib() else (False,)):
        monkeypatch.setattr(charts, "has_matplotlib", lambda matplotlib=matplotlib: matplotlib)
        data, metadata = LESSON_LIKE._repr_mimebundle_()
        outputs.append(nbformat.v4.new_output("display_data", data=data, metadata=metadata))  # type: ignore[no-untyped-call]
    book = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    book.cells = [nbformat.v4.new_markdown_cell("# A chart"),  # type: ignore[no-untyped-call]
                  nbformat.v4.new_code_cell("show_chart(chart)", outputs=outputs)]  # type: ignore[no-untyped-call]
    notebook = tmp_path / "99_chart.ipynb"
    nbformat.write(book, notebook)  # type: ignore[no-untyped-call]
    page = lesson_html(notebook, execute=False)
    images = re.findall(r"<img [^>]*>", page)
    assert len(images) == len(outputs)
    for image in images:
        alt = re.search(r"""alt=(?:"([^"]*)"|'([^']*)')""", image)
        assert alt is not None, image[:200]
        assert html.unescape(alt[1] or alt[2]) == LESSON_LIKE.alt_text
    assert "No description has been provided" not in page


def test_every_lesson_chart_is_a_chart_that_carries_its_alt_text() -> None:
    """The lessons draw every plot through show_chart (a Chart, with its alt text), none with matplotlib
    directly, whose picture would have none; and their stored notebooks hold no picture output without one."""
    import json

    notebooks = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    drawn = 0
    for notebook in notebooks:
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            assert not re.search(r"\b(matplotlib|pyplot|plt\.)", source), f"{notebook.name}: a plot without alt text"
            drawn += len(re.findall(r"\bshow_chart\(", source))
            for output in cell.get("outputs", []):
                for mime in set(output.get("data", {})) & {"image/png", "image/svg+xml", "image/jpeg"}:
                    assert output.get("metadata", {}).get(mime, {}).get("alt"), f"{notebook.name}: a picture without alt"
    assert drawn > 0  # the lessons' plots were found (13 when this was written: lessons 2, 3, 4, 6, 7 and 9)
