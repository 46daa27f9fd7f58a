"""Every lesson holds wherever it is opened, and says which of its claims failed when one does.

A lesson reads the course's data through the package (``gamelib.games.data``, importlib.resources),
never by a path relative to the notebook or the repository, and every ``assert`` in it carries a
message in words a student understands. The fast checks read the lessons' code; the slow one runs
every lesson, copied alone into an empty folder, and expects no error.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.lesson_cells import python_of

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
RELATIVE = re.compile(r"""\.\./|["'](?:\./)?(?:data|notebooks|solutions|tests|gamelib)/""")
"""A path a lesson would resolve against its own folder or the repository's."""


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def test_the_lessons_are_found() -> None:
    assert len(LESSONS) >= 10, LESSONS


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda path: path.stem)
def test_no_lesson_reads_a_file_by_a_relative_path(lesson: Path) -> None:
    for number, cell in enumerate(code_cells(lesson)):
        found = RELATIVE.search(cell)
        assert found is None, f"{lesson.name}, code cell {number}: {found and found.group()!r} is a path relative to " \
                              "the notebook; read the course's data through gamelib.games.data"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_assert_says_which_claim_failed(notebook: Path) -> None:
    for number, cell in enumerate(code_cells(notebook)):
        for node in ast.walk(ast.parse(python_of(cell))):
            if isinstance(node, ast.Assert):
                assert node.msg is not None, (f"{notebook.name}, code cell {number}, line {node.lineno}: "
                                              "this assert needs a message saying which claim of the lesson failed")


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda path: path.stem)
def test_every_lesson_runs_alone_in_an_empty_folder(lesson: Path, tmp_path: Path) -> None:
    """One lesson downloaded on its own (no figures, no data, no repository beside it) runs every
    cell, checks included."""
    import nbformat
    from nbclient import NotebookClient

    copy = tmp_path / lesson.name
    shutil.copy(lesson, copy)
    notebook = nbformat.read(copy, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(notebook, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on the first error
    errors = [output for cell in notebook.cells for output in cell.get("outputs", [])
              if output.get("output_type") == "error"]
    assert not errors, errors
