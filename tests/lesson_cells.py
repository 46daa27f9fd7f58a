"""Run one tagged check cell of a lesson outside Jupyter, on inputs a test chooses.

A lesson checks its own claims in cells tagged ``check:<name>`` (cell metadata ``tags``). Each such
cell reads only names the lesson's setup cell defines and the inputs named in the test, so a test can
run it on the lesson's own data (it passes) and on a broken input (a wrong tree, a swapped rule, a
perturbed record: it must fail). That is how tests/test_lesson_claims*.py show that a check could
fail if its claim were false.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _code_cells(name: str) -> list[dict[str, Any]]:
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def python_of(cell: str) -> str:
    """A code cell as plain Python: IPython's ``%magic`` and ``!shell`` lines, and ``x = !shell``
    captures, blanked out (kept as empty lines, so line numbers stay)."""
    return "\n".join("" if re.match(r"\s*(%|!|\w+\s*=\s*!)", line) else line for line in cell.splitlines())


def tagged_cell(name: str, tag: str) -> str:
    """The source of the one code cell of notebook ``name`` tagged ``tag``.

    Raises LookupError if no code cell, or more than one, carries the tag.
    """
    found = ["".join(cell["source"]) for cell in _code_cells(name) if tag in cell.get("metadata", {}).get("tags", [])]
    if len(found) != 1:
        raise LookupError(f"{name}: {len(found)} code cells are tagged {tag!r}, not 1")
    return found[0]


def setup_namespace(name: str) -> dict[str, Any]:
    """The names the lesson's setup cell (its first code cell) defines, run here without magics."""
    namespace: dict[str, Any] = {"__name__": f"lesson_{name.split('_')[0]}"}
    exec(compile(python_of("".join(_code_cells(name)[0]["source"])), f"{name}:setup", "exec"), namespace)
    return namespace


def run_check(name: str, tag: str, **inputs: Any) -> dict[str, Any]:
    """Run the check cell of notebook ``name`` tagged ``tag`` after its setup cell, with ``inputs``
    (the names the cell reads from the lesson's earlier cells) bound first; return the namespace.

    An AssertionError from the cell propagates: a test of a broken input expects it.
    """
    namespace = setup_namespace(name)
    namespace.update(inputs)
    exec(compile(python_of(tagged_cell(name, tag)), f"{name}:{tag}", "exec"), namespace)
    return namespace
