"""`make html`: a lesson becomes one HTML page that holds its figures, so a copied page shows them."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import nbformat  # its functions are unannotated: each call says type: ignore[no-untyped-call], as gamelib's do
import pytest

from gamelib.view.lesson_html import LessonHtmlError, build, lesson_html, lessons, local_figures, main

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
    figure, output = embedded(page)
    assert figure == (tmp_path / "lesson" / "figures" / "tree.svg").read_bytes()
    assert b'<g id="node-30" class="node max' in output  # show_tree's SVG output: the tree's last leaf


def test_a_missing_figure_stops_the_build(tmp_path: Path) -> None:
    with pytest.raises(LessonHtmlError, match=r"99_tiny.ipynb: figures still refer to local files \['figures/gone.svg'\]"):
        lesson_html(tiny_notebook(tmp_path, "figures/gone.svg"), execute=False)


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
    assert "01_minimax.ipynb" in names and "explorer_app.ipynb" not in names
    assert names == sorted(names)


def test_main_says_when_there_is_nothing_to_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([]) == 1
    assert "no lessons found" in capsys.readouterr().err


@pytest.mark.slow
def test_make_html_builds_a_whole_lesson(tmp_path: Path) -> None:
    assert main([str(SMALL_LESSON), "--out", str(tmp_path)]) == 0
    page = (tmp_path / "01_minimax.html").read_text(encoding="utf-8")
    assert local_figures(page) == []
    pictures = embedded(page)  # the markdown's figures and any picture a cell drew
    assert all((NOTEBOOKS / figure).read_bytes() in pictures for figure in markdown_figures(SMALL_LESSON))
    assert "application/vnd.jupyter.widget-state+json" in page  # executed: the explorer's state is kept
