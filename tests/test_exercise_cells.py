"""Every exercise answers back: each numbered exercise of lessons 1 to 10 has a code cell that begins
``# Exercise N`` and calls a check, or is a **Discuss** item whose model answer is folded under it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(path for path in NOTEBOOKS.glob("[01][0-9]_*.ipynb") if not path.name.startswith("00_"))
ITEM = re.compile(r"^(?:(\d+)\. \*\*([^*]+?)[.?]\*\*|\*\*(\d+)\. ([^*]+?)\.\*\*|## Exercise (\d+): (.+))", re.M)
CHECKS = ("check_answer(", "check_function(", "check(")


def cells(path: Path) -> list[tuple[str, str]]:
    return [(cell["cell_type"], "".join(cell["source"])) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def exercises(path: Path) -> dict[int, tuple[str, str]]:
    """The lesson's numbered exercises, from its first "## Exercise" heading to "## Checks": number -> (title, the
    markdown cell it is in)."""
    found: dict[int, tuple[str, str]] = {}
    inside = False
    for kind, text in cells(path):
        inside = (inside or bool(re.search(r"^## Exercise", text, re.M))) and not text.lstrip().startswith("## Checks")
        if kind == "markdown" and inside:
            for match in ITEM.finditer(text):
                number, title = next((int(n), t) for n, t in zip(match.groups()[::2], match.groups()[1::2]) if n)
                assert number not in found, f"{path.name}: exercise {number} is numbered twice"
                found[number] = (title, text)
    return found


def exercise_cells(path: Path) -> dict[int, str]:
    """The code cells whose first line begins "# Exercise N": N -> the cell's text."""
    found: dict[int, str] = {}
    for kind, text in cells(path):
        named = re.match(r"# Exercise (\d+)\b", text)
        if kind == "code" and named:
            assert int(named[1]) not in found, f"{path.name}: two cells begin # Exercise {named[1]}"
            found[int(named[1])] = text
    return found


@pytest.mark.parametrize("path", LESSONS, ids=lambda path: path.name[:2])
def test_every_exercise_answers_back(path: Path) -> None:
    listed, checked = exercises(path), exercise_cells(path)
    assert listed, f"{path.name} has no numbered exercises"
    assert sorted(listed) == list(range(1, len(listed) + 1)), f"{path.name}: exercises numbered {sorted(listed)}"
    for number, (title, text) in listed.items():
        if title.startswith("Discuss"):
            after = text[text.index(title):]
            assert re.search(r"<details><summary>A model answer[^<]*</summary>\s*\S", after), (
                f"{path.name}: Discuss item {number} should fold its model answer under it")
            assert number not in checked, f"{path.name}: Discuss item {number} has a check cell"
        else:
            assert number in checked, f"{path.name}: exercise {number} ({title}) has no cell beginning # Exercise {number}"
            assert any(call in checked[number] for call in CHECKS), (
                f"{path.name}: the cell of exercise {number} calls no check")
    assert set(checked) <= set(listed), f"{path.name}: cells for exercises not in the list: {set(checked) - set(listed)}"


def test_the_pattern_finds_each_way_the_lessons_number_exercises() -> None:
    text = "1. **Predict.** x\n**2. Write it.** y\n## Exercise 3: write UCT yourself\n4. **Discuss: why?** z"
    found = {int(n): t for match in ITEM.finditer(text) for n, t in zip(match.groups()[::2], match.groups()[1::2]) if n}
    assert found == {1: "Predict", 2: "Write it", 3: "write UCT yourself", 4: "Discuss: why"}
