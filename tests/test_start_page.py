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
    measured = read_json("benchmarks", "lesson_times.json")["lessons"]
    assert [row["lesson"] for row in measured] == [path.name for path in lessons(NOTEBOOKS)], (
        "lesson_times.json should time every notebook on disk, this page too, once each and in order: "
        "run benchmarks/lesson_times.py again after adding or renaming a lesson")
    seconds = {row["lesson"]: row["seconds"] for row in measured}
    assert {name: int(quoted) for _, name, quoted in rows} == {name: max(1, int(seconds[name] + 0.5))
                                                                 for _, name, _ in rows}, (
        "the table's run-all times should be lesson_times.json's, rounded to whole seconds (half up), at least 1 s")


def test_the_start_page_says_when_and_under_what_load_the_times_were_measured() -> None:
    """The date, machine, commit and load range the page gives are the JSON's, so a new measurement
    that leaves the page's sentence behind fails here."""
    times = read_json("benchmarks", "lesson_times.json")
    provenance = times["provenance"]
    assert provenance["command"].startswith("python benchmarks/lesson_times.py") and provenance["commit"]
    said = re.search(r"measured on (\d{4}-\d\d-\d\d) on an (\w+) machine with (\d+) CPUs, under a 1-minute load "
                     r"average of ([\d.]+) to ([\d.]+) \(([^)]*)\), on the lessons as they were at "
                     r"commit ([0-9a-f]{7})", " ".join(markdown(START).split()))
    assert said, "the start page should say when, on what machine, under what load and at which commit it timed the lessons"
    machine = re.fullmatch(r"(\w+), (\d+) CPUs", provenance["machine"])
    assert machine, f"lesson_times.json's machine should read like 'x86_64, 2 CPUs'; it is {provenance['machine']!r}"
    loads = [load for row in times["lessons"] for load in (row["load_before"], row["load_after"])]
    expected = (provenance["date"][:10], *machine.groups(), f"{min(loads):.2f}", f"{max(loads):.2f}", provenance["commit"][:7])
    # What the load says (the page's own scale: about 1 is a lesson alone, 2 or more other work competing)
    alone = max(loads) < 1.5
    assert ("the lessons' own run" in said.group(6)) == alone, (
        f"with loads up to {max(loads):.2f} the page should say {'the lessons ran alone' if alone else 'other work ran'}; "
        f"it says ({said.group(6)})")
    assert said.group(1, 2, 3, 4, 5, 7) == expected, (
        f"the start page's sentence on the measurement should give lesson_times.json's date, machine, CPUs, load range "
        f"and commit, {expected}; it gives {said.groups()}")


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
