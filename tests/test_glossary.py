"""Ideas in order: no lesson uses a term of the glossary before the lesson that teaches it, unless the sentence
points forward to it ("lesson 4", "later lessons", a link to the lesson)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamelib.teach.glossary import GLOSSARY, Term

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = {int(path.name[:2]): path for path in NOTEBOOKS.glob("[01][0-9]_*.ipynb") if not path.name.startswith("00")}
CASED = {"PVS", "Elo", "MCTS", "UCT", "UCB1", "Star1", "MTD(f)"}


def sentences(path: Path) -> list[str]:
    """The sentences a student reads in a lesson, each on one line: its markdown (math and code spans kept) and
    the comments of its code cells."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    comments = ["\n".join(line.split("#", 1)[1] for line in "".join(cell["source"]).splitlines() if "#" in line)
                for cell in cells if cell["cell_type"] == "code"]
    text = "\n\n".join(["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"] + comments)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # a figure's alt text describes its picture, not a claim
    parts = re.split(r"(?<=[.!?:])\s+(?=[A-Z(*\[`$-])|\n\s*\n|\n(?=\s*(?:[-*] |\d+\. |#))", text)
    return [" ".join(part.split()) for part in parts if part.strip()]


def points_forward(sentence: str, lesson: int) -> bool:
    """Whether ``sentence`` names lesson ``lesson`` (alone, in a list or in a range "lessons 4 to 6"), links to
    it, or says "later lessons"."""
    for listed in re.findall(r"[Ll]essons? ((?:\d+(?:, | and | to | or )?)+)", sentence):
        numbers = [int(n) for n in re.findall(r"\d+", listed)]
        ranges = [(int(a), int(b)) for a, b in re.findall(r"(\d+) to (\d+)", listed)]
        if lesson in numbers or any(a <= lesson <= b for a, b in ranges):
            return True
    return f"({lesson:02d}_" in sentence or bool(re.search(r"\blater lessons?\b", sentence))


def uses(term: Term, sentence: str) -> bool:
    return bool(re.search(term.pattern, sentence, 0 if term.name in CASED else re.I))


def early_uses(term: Term, lessons: dict[int, Path] = LESSONS) -> list[tuple[int, str]]:
    return [(number, sentence) for number, path in sorted(lessons.items()) if number < term.lesson
            for sentence in sentences(path) if uses(term, sentence) and not points_forward(sentence, term.lesson)]


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_no_term_is_used_before_its_lesson(term: Term) -> None:
    early = early_uses(term)
    assert not early, f"{term.name!r} (lesson {term.lesson}) is used earlier without pointing to its lesson: " + \
        "; ".join(f"lesson {number}: {sentence[:160]!r}" for number, sentence in early[:4])


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_each_term_is_named_in_its_own_lesson(term: Term) -> None:
    assert any(uses(term, sentence) for sentence in sentences(LESSONS[term.lesson])), (
        f"{term.name!r} should be taught in lesson {term.lesson}, whose text never names it")


@pytest.mark.parametrize("inserted, found", [
    ("A transposition table remembers positions.", True),
    ("A cut node needs one refuting move, and PV, cut and all nodes make the minimal tree.", True),
    ("Negascout tests the later moves.", True), ("# the transposition table, in a comment", True),
    ("As lesson 9 shows, NegaScout tests the later moves.", True), ("Bradley–Terry, with an en dash.", True),
    ("A transposition table (lesson 4) remembers positions.", False),
    ("See [Lesson 4](04_transpositions_and_mtdf.ipynb) for the table.", False),
])
def test_a_term_moved_before_its_lesson_is_found(tmp_path: Path, inserted: str, found: bool) -> None:
    """A sentence put into a copy of lesson 2 (markdown, or a code comment when it starts with #) is found when it
    uses a later lesson's term without pointing to that lesson, and only then."""
    notebook = json.loads(LESSONS[2].read_text(encoding="utf-8"))
    kind = "code" if inserted.startswith("#") else "markdown"
    notebook["cells"].insert(3, {"cell_type": kind, "metadata": {}, "source": [inserted], "id": "probe",
                                 **({"outputs": [], "execution_count": None} if kind == "code" else {})})
    copy = tmp_path / LESSONS[2].name
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    hits = [sentence for term in GLOSSARY for number, sentence in early_uses(term, {2: copy})
            if sentence.strip("# ") in inserted]
    assert bool(hits) == found, hits


def test_the_terms_come_in_the_order_of_their_lessons() -> None:
    assert [term.lesson for term in GLOSSARY] == sorted(term.lesson for term in GLOSSARY)
