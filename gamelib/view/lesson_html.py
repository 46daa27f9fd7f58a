"""The lessons as self-contained HTML pages: executed, with every figure inside the page, read offline.

``make html`` runs, from the repository root::

    .venv/bin/python -m gamelib.view.lesson_html                 # every lesson in notebooks/ -> build/html/
    .venv/bin/python -m gamelib.view.lesson_html notebooks/01_minimax.ipynb --out build/html

Each lesson (``NN_name.ipynb``, the start page ``00_start_here.ipynb`` first; not the app's
notebook, in ``notebooks/app/``) is executed in its own folder by nbclient, so its outputs are there
and its checks have passed, then written by nbconvert's HTMLExporter with ``embed_images``: the
markdown's images (the committed figures, ``notebooks/figures/*.svg``) become ``data:`` URIs, and
SVG and PNG outputs are in the page already, so a page copied or uploaded anywhere still shows every
figure. A page that would still refer to a local file is refused (:func:`local_figures`).

A page needs nothing from the network (:func:`offline_notebook`): every widget shows the HTML form
it carries beside its widget view: an explorer is its player, which steps in the page from the
frames its cell computed (:mod:`gamelib.view.player`: the script and the frames are in the page),
and a quiz or a board shows the picture and words it showed when the cell ran; formulas are MathML,
converted from the markdown's TeX by latex2mathml (:func:`tex_as_mathml`), which browsers draw
themselves, so the page loads no MathJax, require.js or widget manager. The start page is written
as ``index.html`` too. Links between lessons (``02_alpha_beta.ipynb``) point
at their pages. The build prints a line a page and the failures; the kernels' own start-up warnings
are left out.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

__all__ = ["LessonHtmlError", "build", "lesson_html", "lessons", "local_figures", "main", "offline_notebook",
           "lesson_title", "run_link", "tex_as_mathml"]

LESSON = re.compile(r"\d\d_\w+\.ipynb")
"""A lesson's file name: two digits, an underscore, a snake_case name."""

_FIGURE_ATTRIBUTES = {"img": ("src",), "image": ("href", "xlink:href"), "object": ("data",), "embed": ("src",),
                      "source": ("src", "srcset"), "video": ("src", "poster"), "audio": ("src",),
                      "input": ("src",)}
"""The attributes through which an HTML page (or an SVG in it) shows a picture or other media."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

_FAR = ("data:", "http://", "https://", "//", "#")
"""How a reference begins that needs no file beside the page."""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
"""The mime type of a widget's output: a page without a kernel shows its HTML form instead."""

NO_STATIC_FORM = ('<p class="gamelib-static"><i>An interactive widget: open the notebook in JupyterLab to use '
                  "it.</i></p>")
"""What a page shows for a widget that carries no HTML form of its own."""

_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_css -%}<style>math { font-size: 1.15em; } .gamelib-static { margin: 4px 0; }
.jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited, .gamelib-run a {
  text-decoration: underline; }
:root { --jp-cell-prompt-not-active-opacity: 1; --jp-cell-inprompt-font-color: #2a6fa8;
  --jp-cell-outprompt-font-color: #a94f34; --jp-mirror-editor-atom-color: #5a5ab0;
  --jp-mirror-editor-bracket-color: #66664e; --jp-mirror-editor-comment-color: #367070;
  --jp-mirror-editor-error-color: #d00000; --jp-mirror-editor-hr-color: #666666;
  --jp-mirror-editor-meta-color: #8e1bd6; --jp-mirror-editor-number-color: #007a00;
  --jp-mirror-editor-operator-color: #8e1bd6; --jp-mirror-editor-quote-color: #007a00;
  --jp-mirror-editor-variable-3-color: #007449; }
.gamelib-folded > summary { cursor: pointer; padding: 4px 0; color: #1a1a1a; }</style>{%- endblock html_head_css -%}
{% block input_group -%}
{%- if cell.metadata.get("jupyter", {}).get("source_hidden") -%}
<details class="gamelib-folded"><summary>The cell's code, folded as in the notebook: show it</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock input_group %}
{#- A picture whose output metadata has an "alt" (a chart's text alternative: gamelib.view.charts, Chart.alt_text)
    has it as its <img>'s alt (WCAG 1.1.1): nbconvert's lab template reads no alt text from an output, and
    gives every <img> without one the words "No description has been provided for this image". #}
{% block data_png scoped -%}
{%- set alt = output | get_metadata('alt', 'image/png') -%}
{%- if alt %}{{ super() | replace('<img ', '<img alt="' ~ (alt | escape_html) ~ '" ', 1) }}{% else %}{{ super() }}{% endif -%}
{%- endblock data_png %}
{% block data_svg scoped -%}
{%- set alt = output | get_metadata('alt', 'image/svg+xml') -%}
{%- if alt %}{{ super() | replace('<img ', '<img alt="' ~ (alt | escape_html) ~ '" ', 1) }}{% else %}{{ super() }}{% endif -%}
{%- endblock data_svg %}
"""
"""nbconvert's JupyterLab page without the scripts it would fetch from the web (require.js, the widget
manager, MathJax, mermaid), its links underlined (WCAG 1.4.1), and its prompts and code colours at
4.5:1 or more against their backgrounds (WCAG 1.4.3: JupyterLab's light theme draws the prompts at
half opacity, about 2:1, and ten of its code colours at 2.6 to 4.4:1 on the cells' #f5f5f5; each is
darkened here to between 4.9 and 5.9:1): the widgets and formulas are static HTML and MathML already (an explorer
is its player, script and frames inside). A cell folded in the notebook (the Setup cell: its
``jupyter.source_hidden`` metadata) is folded in the page too, under a line that opens it."""

_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
"""Fenced code blocks and inline code spans of markdown, whose dollar signs are not formulas."""

_TEX = re.compile(r"\$\$(?P<block>.+?)\$\$|(?<![\\$\w])\$(?=\S)(?P<inline>[^$\n]+?)(?<=\S)\$(?![\w$])", re.S)
"""A formula of markdown: ``$$...$$`` (displayed) or ``$...$`` (in the line; not a price like "$5")."""

_LESSON_LINK = re.compile(r"\]\((\d\d_\w+)\.ipynb(#[^)\s]*)?\)")
"""A markdown link to another lesson's notebook, ``[...](02_alpha_beta.ipynb)``."""


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


def tex_as_mathml(markdown: str, formulas: dict[str, str] | None = None) -> str:
    """``markdown`` with every formula (``$...$``, ``$$...$$``; not inside code) as MathML, drawn by
    the browser without a network (latex2mathml), and links to other lessons' notebooks pointing at
    their pages (``02_alpha_beta.html``). With ``formulas``, each formula is replaced by a word that
    stands for it instead, and the word's MathML is put in ``formulas``: a markdown renderer that
    re-parses inline HTML tag by tag (nbconvert's, embedding images) cannot break it then. Raises
    LessonHtmlError naming a formula latex2mathml cannot read.

    >>> print(tex_as_mathml("costs $5, and $b^d$ leaves; `$x$` is code; [next](02_alpha_beta.ipynb)"))  # doctest: +ELLIPSIS
    costs $5, and <math ... display="inline"><mrow><msup><mi>b</mi><mi>d</mi></msup></mrow></math> leaves; `$x$` is code; [next](02_alpha_beta.html)
    """
    from latex2mathml.converter import convert

    def formula(found: re.Match[str]) -> str:
        tex, display = (found["block"], "block") if found["block"] is not None else (found["inline"], "inline")
        try:
            mathml = str(convert(tex.strip(), display=display))
        except Exception as error:  # latex2mathml raises its own errors, and others, on TeX it cannot read
            raise LessonHtmlError(f"cannot turn the formula ${tex}$ into MathML: {error}") from None
        if formulas is None:
            return mathml
        word = f"gamelibformula{len(formulas):04d}x"
        formulas[word] = mathml
        return word

    parts = _CODE.split(markdown)  # odd parts are code, left as they are
    text = "".join(part if index % 2 else _TEX.sub(formula, part) for index, part in enumerate(parts))
    return _LESSON_LINK.sub(lambda found: f"]({found[1]}.html{found[2] or ''})", text)


def offline_notebook(book: Any) -> dict[str, str]:
    """Make an executed notebook (an nbformat node) read without a kernel or a network, in place:
    every widget output shows its HTML form (the picture and words when the cell ran) or, for a
    widget that has none, a line saying to open the notebook; the widgets' saved state goes; lesson
    links point at pages and each formula of the markdown becomes a word standing for its MathML
    (:func:`tex_as_mathml`). Returns those words and their MathML, to put in the page."""
    formulas: dict[str, str] = {}
    for cell in book.cells:
        if cell.cell_type == "markdown":
            cell.source = tex_as_mathml(cell.source, formulas)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
                data.setdefault("text/html", NO_STATIC_FORM)
    book.metadata.pop("widgets", None)
    return formulas


def lessons(folder: Path) -> list[Path]:
    """The lessons in ``folder`` (``NN_name.ipynb``), in order."""
    return sorted(path for path in folder.glob("*.ipynb") if LESSON.fullmatch(path.name))


def lesson_title(book: Any, notebook: Path) -> str:
    """The page's title: the lesson's first heading (``# Minimax: ...``), or its file name if it has
    none. A page's title is what a browser's tab, its history and a screen reader announce first."""
    for cell in book.cells:
        if cell.cell_type == "markdown":
            for line in "".join(cell.source).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return notebook.stem


def lesson_html(notebook: Path, *, execute: bool = True, timeout: int = 600, browser_course: str | None = None) -> str:
    """The HTML page of ``notebook``: executed in its folder (unless ``execute`` is False; at most
    ``timeout`` seconds a cell), every figure embedded. With ``browser_course`` (the browser course's
    root, relative to the page: ``"../"``), the page opens with a link to the same lesson there
    (:func:`run_link`).

    Raises LessonHtmlError naming the lesson when a cell fails or a figure is still a local file
    (a markdown image whose file is missing), and FileNotFoundError for a missing notebook.
    """
    import nbformat
    from jinja2 import DictLoader
    from nbclient.exceptions import CellExecutionError
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    book = nbformat.read(notebook, as_version=4)  # type: ignore[no-untyped-call]
    resources = {"metadata": {"path": str(notebook.parent), "name": lesson_title(book, notebook)}}
    if execute:
        # the kernel's start-up warnings (running over TCP on this machine) are not the reader's business
        quiet = ["--IPKernelApp.log_level=ERROR"]
        try:
            ExecutePreprocessor(timeout=timeout, extra_arguments=quiet).preprocess(  # type: ignore[no-untyped-call]
                book, resources)
        except CellExecutionError as error:
            words = _ANSI.sub("", str(error))  # the traceback's terminal colours
            raise LessonHtmlError(f"{notebook.name}: a cell failed, so no page was written:\n{words}") from None
    try:
        formulas = offline_notebook(book)
    except LessonHtmlError as error:
        raise LessonHtmlError(f"{notebook.name}: {error}") from None
    exporter = HTMLExporter(embed_images=True, template_file="gamelib_lesson.html.j2",  # type: ignore[no-untyped-call]
                            extra_loaders=[DictLoader({"gamelib_lesson.html.j2": _TEMPLATE})])
    page, _ = exporter.from_notebook_node(book, resources=resources)
    for word, mathml in formulas.items():
        page = page.replace(word, mathml)
    if browser_course is not None:
        if page.count("<main>") != 1:
            raise LessonHtmlError(f"{notebook.name}: the page has no single <main> to put the link to the browser course in")
        page = page.replace("<main>", "<main>" + run_link(notebook.name, browser_course), 1)
    local = local_figures(page)
    if local:
        raise LessonHtmlError(f"{notebook.name}: figures still refer to local files {local}: "
                              f"check that they exist beside the notebook")
    return page


def run_link(lesson: str, browser_course: str) -> str:
    """The line at the top of a lesson's page that opens ``lesson`` (``01_minimax.ipynb``) in the browser
    course whose root is ``browser_course``, relative to the page.

    >>> run_link("01_minimax.ipynb", "../")  # doctest: +ELLIPSIS
    '<p class="gamelib-run"><a href="../lab/index.html?path=01_minimax.ipynb">Run this lesson in your browser</a>...'
    """
    return (f'<p class="gamelib-run"><a href="{browser_course}lab/index.html?path={lesson}">Run this lesson in your '
            "browser</a> (JupyterLab and Python in the page, nothing to install); below, the lesson as it ran.</p>")


def build(notebooks: Sequence[Path], out: Path, *, execute: bool = True,
          browser_course: str | None = None) -> list[Path]:
    """Write ``out/<lesson>.html`` for every notebook (:func:`lesson_html`, with ``browser_course``), going on past a lesson
    that fails (and removing its page of an earlier build), and the start page's as ``out/index.html`` too;
    returns the lessons' pages written. Raises LessonHtmlError at the end, with every failure,
    if any lesson failed."""
    out.mkdir(parents=True, exist_ok=True)
    pages, failures = [], []
    for notebook in notebooks:
        page = out / notebook.with_suffix(".html").name
        try:
            page.write_text(lesson_html(notebook, execute=execute, browser_course=browser_course), encoding="utf-8")
        except LessonHtmlError as error:
            page.unlink(missing_ok=True)  # no page of an earlier build passes for this one
            print(f"failed: {error}", file=sys.stderr, flush=True)
            failures.append(notebook.name)
            continue
        print(f"wrote {page}", flush=True)
        pages.append(page)
    start = out / "00_start_here.html"
    if start in pages:  # the folder's own start page, what a web server or a browser opens first
        (out / "index.html").write_text(start.read_text(encoding="utf-8"), encoding="utf-8")
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
