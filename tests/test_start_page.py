"""The start page lists every lesson in order with its measured run-all time, its links lead somewhere,
it says plainly whether a student may open solutions/, and the lessons open and end as a student
finds their way: the setup cell folded, a link on to the next lesson and back to the start page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamelib.games.data import read_json
from gamelib.view.lesson_html import lessons

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
START = NOTEBOOKS / "00_start_here.ipynb"
LESSONS = [path for path in lessons(NOTEBOOKS) if path != START]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def cells(notebook: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return found


def text(cell: dict[str, object]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else str(source)


def markdown(notebook: Path) -> str:
    return "\n".join(text(cell) for cell in cells(notebook) if cell["cell_type"] == "markdown")


def test_the_start_page_lists_every_lesson_in_order_with_its_measured_time() -> None:
    page = markdown(START)
    rows = re.findall(r"^\| (\d+) \| \[[^\]]+\]\((\d\d_\w+\.ipynb)\) \|.*\| (\d+) s \|$", page, re.M)
    assert [name for _, name, _ in rows] == [path.name for path in LESSONS] and len(rows) == 10
    assert [int(number) for number, _, _ in rows] == list(range(1, 11))
    measured = {row["lesson"]: row["seconds"] for row in read_json("benchmarks", "lesson_times.json")["lessons"]}
    assert set(measured) == {path.name for path in lessons(NOTEBOOKS)}  # this page too
    assert {name: int(seconds) for _, name, seconds in rows} == {name: round(measured[name]) for _, name, _ in rows}


def test_the_start_page_says_under_what_load_the_times_were_measured() -> None:
    provenance = read_json("benchmarks", "lesson_times.json")["provenance"]
    assert provenance["command"].startswith("python benchmarks/lesson_times.py") and provenance["commit"]
    assert re.search(r"measured on \d{4}-\d\d-\d\d on an \w+ machine with \d+ CPUs, under a 1-minute load average "
                     r"of [\d.]+ to [\d.]+", " ".join(markdown(START).split()))


def test_the_start_page_says_plainly_that_a_student_may_open_solutions() -> None:
    assert "Yes. You may open `solutions/`" in markdown(START)
    assert (NOTEBOOKS.parent / "solutions").is_dir()


@pytest.mark.parametrize("notebook", [START, *LESSONS, NOTEBOOKS / "app" / "explorer_app.ipynb"], ids=lambda path: path.stem)
def test_links_lead_to_files_and_the_setup_cell_is_folded(notebook: Path) -> None:
    for target in LINK.findall(markdown(notebook)):
        if not target.startswith(("http://", "https://")):
            assert (notebook.parent / target).exists(), f"{notebook.name} links to {target}, which is not there"
    setup = cells(notebook)[1]
    assert text(setup).startswith("# Setup") and setup["metadata"] == {"jupyter": {"source_hidden": True}}


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda path: path.stem)
def test_every_lesson_ends_with_a_way_on(lesson: Path) -> None:
    """The next lesson first, then the start page; the last lesson, the start page."""
    last = text(cells(lesson)[-1])
    targets = LINK.findall(last)
    assert "00_start_here.ipynb" in targets, f"{lesson.name} ends with no link to the start page"
    if lesson != LESSONS[-1]:
        following = LESSONS[LESSONS.index(lesson) + 1].name
        assert "**Next:**" in last and targets[0] == following, f"{lesson.name} should end with a link to {following}"
