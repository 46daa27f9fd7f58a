"""`make html`: a lesson becomes one HTML page that holds its figures, so a copied page shows them."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import nbformat  # its functions are unannotated: each call says type: ignore[no-untyped-call], as gamelib's do
import pytest

from gamelib.view.lesson_html import (
    NO_STATIC_FORM,
    WIDGET_VIEW,
    LessonHtmlError,
    build,
    lesson_html,
    lessons,
    local_figures,
    main,
    offline_notebook,
    tex_as_mathml,
)
from tests.player_pages import page_data

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SMALL_LESSON = NOTEBOOKS / "01_minimax.ipynb"


def markdown_figures(notebook: Path) -> list[str]:
    """The files a notebook's markdown shows as images: ``![words](figures/x.svg)``."""
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", notebook.read_text(encoding="utf-8"))


def embedded(page: str) -> list[bytes]:
    """The bytes of every image embedded as a base64 data: URI in an <img>."""
    return [base64.b64decode(data) for data in re.findall(r'<img[^>]*src="data:image/[\w+.-]+;base64,([^"]+)"', page)]


def test_a_lessons_figures_are_inside_its_page() -> None:
    figures = markdown_figures(SMALL_LESSON)
    assert len(figures) == 3  # lesson 1 shows Broeders' tree bare and done, and Rich & Knight's tree
    page = lesson_html(SMALL_LESSON, execute=False)
    assert local_figures(page) == []
    assert embedded(page) == [(NOTEBOOKS / figure).read_bytes() for figure in figures]


def tiny_notebook(folder: Path, figure: str = "figures/tree.svg") -> Path:
    """A lesson with a markdown figure beside it and a cell drawing a tree (not yet run)."""
    (folder / "figures").mkdir(parents=True)
    (folder / "figures" / "tree.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    book = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    book.cells = [
        nbformat.v4.new_markdown_cell(f"# A lesson\n\n![a tree]({figure})"),  # type: ignore[no-untyped-call]
        nbformat.v4.new_code_cell('from gamelib import load_seed_tree, show_tree\n'  # type: ignore[no-untyped-call]
                                  'show_tree(load_seed_tree("broeders31"))')]
    path = folder / "99_tiny.ipynb"
    nbformat.write(book, path)  # type: ignore[no-untyped-call]
    return path


def test_an_executed_lesson_has_its_output_pictures_inline(tmp_path: Path) -> None:
    pages = build([tiny_notebook(tmp_path / "lesson")], tmp_path / "html")
    assert [page.name for page in pages] == ["99_tiny.html"]
    page = pages[0].read_text(encoding="utf-8")
    assert local_figures(page) == []
    assert embedded(page) == [(tmp_path / "lesson" / "figures" / "tree.svg").read_bytes()]
    # show_tree's output is its SVG in the page (nbconvert writes attributes in alphabetical order),
    # scaled to the page's width: the tree's last leaf is there
    assert re.search(r'<svg class="gamelib-tree"[^>]* style="display:block;width:100%;height:auto"', page)
    assert '<g class="node max' in page and 'id="node-30"' in page


def test_a_missing_figure_stops_the_build(tmp_path: Path) -> None:
    with pytest.raises(LessonHtmlError, match=r"99_tiny.ipynb: figures still refer to local files \['figures/gone.svg'\]"):
        lesson_html(tiny_notebook(tmp_path, "figures/gone.svg"), execute=False)


@pytest.mark.slow  # executes a lesson to its failing cell: a long run
def test_a_failing_cell_leaves_its_lesson_without_a_page(tmp_path: Path) -> None:
    failing = tiny_notebook(tmp_path / "failing")
    book = nbformat.read(failing, as_version=4)  # type: ignore[no-untyped-call]
    failure = nbformat.v4.new_code_cell("assert 1 == 2, 'a lesson check fails'")  # type: ignore[no-untyped-call]
    book.cells.append(failure)
    nbformat.write(book, failing)  # type: ignore[no-untyped-call]
    passing = tiny_notebook(tmp_path / "passing")
    passing = passing.rename(passing.with_name("98_tiny.ipynb"))
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "99_tiny.html").write_text("a page of an earlier build")
    with pytest.raises(LessonHtmlError, match=r"1 of 2 lessons failed, so they have no page: 99_tiny.ipynb"):
        build([failing, passing], tmp_path / "html")
    assert [page.name for page in (tmp_path / "html").iterdir()] == ["98_tiny.html"]


def test_the_lessons_are_the_numbered_notebooks() -> None:
    names = [path.name for path in lessons(NOTEBOOKS)]
    assert names[:2] == ["00_start_here.ipynb", "01_minimax.ipynb"] and "explorer_app.ipynb" not in names
    assert names == sorted(names) and (NOTEBOOKS / "app" / "explorer_app.ipynb").exists()  # the app: a folder of its own


def test_main_says_when_there_is_nothing_to_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 1
    assert "no lessons found" in capsys.readouterr().err


def test_a_widget_shows_its_picture_and_formulas_are_mathml(tmp_path: Path) -> None:
    from gamelib import load_seed_tree
    from gamelib.view.explorer import explore

    book = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    widget = nbformat.v4.new_code_cell('explore(load_seed_tree("broeders31"), "alphabeta", step=19)')  # type: ignore[no-untyped-call]
    # the output the cell leaves when it runs (built here, without a kernel): the widget and its HTML form
    bundle, _ = explore(load_seed_tree("broeders31"), "alphabeta", step=19)._repr_mimebundle_()
    widget.outputs = [nbformat.v4.new_output("execute_result", bundle, execution_count=1)]  # type: ignore[no-untyped-call]
    book.cells = [
        nbformat.v4.new_markdown_cell("# A lesson\n\n$(b^{d+1}-1)/(b-1)$ nodes; next: "  # type: ignore[no-untyped-call]
                                      "[lesson 2](02_alpha_beta.ipynb)\n\n$$b^{\\lceil d/2 \\rceil}$$"), widget]
    book.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2}}
    path = tmp_path / "98_widget.ipynb"
    nbformat.write(book, path)  # type: ignore[no-untyped-call]
    page = lesson_html(path, execute=False)
    # the explorer's output is its player, opened at step 19 (the cut at 8), its frames in the page, and no
    # widget manager: the frames at step 19 draw the cut edge and say the cut
    data, opens_at = page_data(page)
    assert opens_at == 19
    panel = data["panels"][0]
    at_19 = [[when, value] for when, value in panel["parts"]["edge-8-18"] if when <= 19][-1][1]
    assert 'class="edge cut"' in data["strings"][at_19[0]]
    words = [[when, value] for when, value in panel["words"] if when <= 19][-1][1]
    assert "pos 8: 3 &lt;= alpha 4, cut: position 18 is never searched" in data["strings"][words]
    assert "widget-state+json" not in page and "widget-view+json" not in page
    # nothing is fetched: no script from the web, no MathJax; the formulas are MathML
    assert re.findall(r'<script[^>]+src="(?:https?:)?//', page) == [] and "mathjax" not in page.lower()
    assert page.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">') == 1
    assert page.count('display="block"') == 1 and "$(b^" not in page
    assert 'href="02_alpha_beta.html"' in page  # the next lesson's page, beside this one


def test_a_widget_without_a_picture_says_to_open_the_notebook() -> None:
    book = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    cell = nbformat.v4.new_code_cell("slider")  # type: ignore[no-untyped-call]
    cell.outputs = [nbformat.v4.new_output("display_data", {  # type: ignore[no-untyped-call]
        "text/plain": "IntSlider(value=3)", WIDGET_VIEW: {"model_id": "abc", "version_major": 2}})]
    book.cells = [cell]
    book.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    assert offline_notebook(book) == {}  # no formulas
    assert book.cells[0].outputs[0].data == {"text/plain": "IntSlider(value=3)", "text/html": NO_STATIC_FORM}
    assert "widgets" not in book.metadata


def test_a_price_and_code_are_not_formulas() -> None:
    assert tex_as_mathml("a book costs $5 and `$x = 1$` is code") == "a book costs $5 and `$x = 1$` is code"
    with pytest.raises(LessonHtmlError, match=r"cannot turn the formula \$a\^\$ into MathML"):
        tex_as_mathml("$a^$")


@pytest.mark.slow
def test_make_html_builds_a_whole_lesson(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert main([str(SMALL_LESSON), "--out", str(tmp_path)]) == 0
    page = (tmp_path / "01_minimax.html").read_text(encoding="utf-8")
    assert local_figures(page) == []
    pictures = embedded(page)  # the markdown's figures
    assert all((NOTEBOOKS / figure).read_bytes() in pictures for figure in markdown_figures(SMALL_LESSON))
    assert "widget-state+json" not in page and 'class="gamelib-static"' in page  # the explorer's picture
    assert "<math " in page and "mathjax" not in page.lower()
    out, err = capfd.readouterr()
    assert out.strip() == f"wrote {tmp_path / '01_minimax.html'}" and "TCP" not in err  # what a user needs


def test_a_page_for_the_site_opens_with_a_link_to_the_same_lesson_in_the_browser_course() -> None:
    page = lesson_html(SMALL_LESSON, execute=False, browser_course="../")
    main_start = page.index("<main>")
    link = '<a href="../lab/index.html?path=01_minimax.ipynb">Run this lesson in your browser</a>'
    assert page.count(link) == 1 and page.index(link) < page.index("<h1", main_start)
    assert "Run this lesson" not in lesson_html(SMALL_LESSON, execute=False)  # make html's own pages have none


def test_a_page_has_its_lessons_title_and_underlined_links() -> None:
    """The page's <title> is the lesson's first heading (an empty one is a WCAG 2.4.2 failure), and its links are
    underlined, not told apart by colour alone (WCAG 1.4.1)."""
    page = lesson_html(SMALL_LESSON, execute=False)

    heading = json.loads(SMALL_LESSON.read_text(encoding="utf-8"))["cells"][0]["source"][0]  # the lesson's first line
    assert heading.startswith("# Minimax")
    assert re.search(r"<title>(.*?)</title>", page).group(1) == heading[2:].strip()  # type: ignore[union-attr]
    assert re.search(r"\.jp-RenderedHTMLCommon a:link, [^{]*\{\s*text-decoration: underline; \}", page)
