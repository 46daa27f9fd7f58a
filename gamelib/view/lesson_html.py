"""The lessons as self-contained HTML pages: executed, with every figure inside the page.

``make html`` runs, from the repository root::

    .venv/bin/python -m gamelib.view.lesson_html                 # every lesson in notebooks/ -> build/html/
    .venv/bin/python -m gamelib.view.lesson_html notebooks/01_minimax.ipynb --out build/html

Each lesson (``NN_name.ipynb``; not the app's notebook) is executed in its own folder by nbclient,
so its outputs are there and its checks have passed, then written by nbconvert's HTMLExporter with
``embed_images``: the markdown's images (the committed figures, ``notebooks/figures/*.svg``) become
``data:`` URIs, and SVG and PNG outputs are in the page already, so a page copied or uploaded
anywhere still shows every figure. A page that would still refer to a local file is refused
(:func:`local_figures`). Widgets (the explorer, the quiz) need their JavaScript from the web and a
kernel to step; the page keeps their last state.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["LessonHtmlError", "build", "lesson_html", "lessons", "local_figures", "main"]

LESSON = re.compile(r"\d\d_\w+\.ipynb")
"""A lesson's file name: two digits, an underscore, a snake_case name."""

_FIGURE_ATTRIBUTES = {"img": ("src",), "image": ("href", "xlink:href"), "object": ("data",), "embed": ("src",),
                      "source": ("src", "srcset"), "video": ("src", "poster"), "audio": ("src",),
                      "input": ("src",)}
"""The attributes through which an HTML page (or an SVG in it) shows a picture or other media."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

_FAR = ("data:", "http://", "https://", "//", "#")
"""How a reference begins that needs no file beside the page."""


class LessonHtmlError(RuntimeError):
    """A lesson cannot become a self-contained page: a cell failed, or a figure is still a local file."""


class _Figures(HTMLParser):
    """Collects every figure reference (see ``_FIGURE_ATTRIBUTES``) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.references: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = _FIGURE_ATTRIBUTES.get(tag.lower(), ())
        self.references += [value.strip() for name, value in attrs if name.lower() in names and value]


def local_figures(html: str) -> list[str]:
    """The figures of ``html`` that refer to a file beside the page (not a ``data:`` URI or a web address).

    >>> local_figures('<img src="figures/a.svg"><img src="data:image/png;base64,AA"><svg><image href="b.png"/></svg>')
    ['figures/a.svg', 'b.png']
    """
    parser = _Figures()
    parser.feed(html)
    return [reference for reference in parser.references if not reference.startswith(_FAR)]


def lessons(folder: Path) -> list[Path]:
    """The lessons in ``folder`` (``NN_name.ipynb``), in order."""
    return sorted(path for path in folder.glob("*.ipynb") if LESSON.fullmatch(path.name))


def lesson_html(notebook: Path, *, execute: bool = True, timeout: int = 600) -> str:
    """The HTML page of ``notebook``: executed in its folder (unless ``execute`` is False; at most
    ``timeout`` seconds a cell), every figure embedded.

    Raises LessonHtmlError naming the lesson when a cell fails or a figure is still a local file
    (a markdown image whose file is missing), and FileNotFoundError for a missing notebook.
    """
    import nbformat
    from nbclient.exceptions import CellExecutionError
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    book = nbformat.read(notebook, as_version=4)  # type: ignore[no-untyped-call]
    resources = {"metadata": {"path": str(notebook.parent)}}
    if execute:
        try:
            ExecutePreprocessor(timeout=timeout).preprocess(book, resources)  # type: ignore[no-untyped-call]
        except CellExecutionError as error:
            words = _ANSI.sub("", str(error))  # the traceback's terminal colours
            raise LessonHtmlError(f"{notebook.name}: a cell failed, so no page was written:\n{words}") from None
    page, _ = HTMLExporter(embed_images=True).from_notebook_node(  # type: ignore[no-untyped-call]
        book, resources=resources)
    local = local_figures(page)
    if local:
        raise LessonHtmlError(f"{notebook.name}: figures still refer to local files {local}: "
                              f"check that they exist beside the notebook")
    return page


def build(notebooks: Sequence[Path], out: Path, *, execute: bool = True) -> list[Path]:
    """Write ``out/<lesson>.html`` for every notebook (:func:`lesson_html`), going on past a lesson
    that fails (and removing its page of an earlier build); returns the pages written. Raises LessonHtmlError at the end, with every failure,
    if any lesson failed."""
    out.mkdir(parents=True, exist_ok=True)
    pages, failures = [], []
    for notebook in notebooks:
        page = out / notebook.with_suffix(".html").name
        try:
            page.write_text(lesson_html(notebook, execute=execute), encoding="utf-8")
        except LessonHtmlError as error:
            page.unlink(missing_ok=True)  # no page of an earlier build passes for this one
            print(f"failed: {error}", file=sys.stderr, flush=True)
            failures.append(notebook.name)
            continue
        print(f"wrote {page}", flush=True)
        pages.append(page)
    if failures:
        raise LessonHtmlError(f"{len(failures)} of {len(notebooks)} lessons failed, so they have no page: "
                              f"{', '.join(failures)} (the reasons are above)")
    return pages


def main(argv: Sequence[str] = ()) -> int:
    """``python -m gamelib.view.lesson_html [NOTEBOOK ...] [--out FOLDER]``: the lessons given (default:
    every lesson in ``notebooks/``) as pages in FOLDER (default ``build/html``). Returns the exit
    status: 0, or 1 with the reason on stderr."""
    parser = argparse.ArgumentParser(prog="python -m gamelib.view.lesson_html",
                                     description="the lessons as self-contained HTML pages")
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons to build (default: notebooks/NN_*.ipynb)")
    parser.add_argument("--out", type=Path, default=Path("build") / "html", help="folder for the pages")
    args = parser.parse_args(list(argv))
    notebooks = args.notebooks or lessons(Path("notebooks"))
    if not notebooks:
        print("no lessons found: run this from the repository root, or name the notebooks", file=sys.stderr)
        return 1
    try:
        build(notebooks, args.out)
    except (LessonHtmlError, OSError) as error:
        print(f"make html: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
