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
CASED = {"NegaScout", "PVS", "Elo", "MCTS", "UCT", "UCB1", "Star1", "PV, cut and all nodes"}


def sentences(path: Path) -> list[str]:
    """The markdown sentences of a lesson, math and code spans kept, each on one line."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)  # a figure's alt text describes its picture, not a claim
    parts = re.split(r"(?<=[.!?:])\s+(?=[A-Z(*\[`$-])|\n\s*\n|\n(?=\s*(?:[-*] |\d+\. |#))", text)
    return [" ".join(part.split()) for part in parts if part.strip()]


def points_forward(sentence: str, lesson: int) -> bool:
    """Whether ``sentence`` names lesson ``lesson`` or a later one, links to one, or says "later lessons"."""
    named = [int(n) for listed in re.findall(r"[Ll]essons? ((?:\d+(?:, | and | to | or )?)+)", sentence)
             for n in re.findall(r"\d+", listed)]
    linked = [int(n) for n in re.findall(r"\((\d\d)_\w+\.ipynb", sentence)]
    return any(n >= lesson for n in named + linked) or bool(re.search(r"\blater lessons?\b", sentence))


def uses(term: Term, sentence: str) -> bool:
    return bool(re.search(term.pattern, sentence, 0 if term.name in CASED else re.I))


def early_uses(term: Term) -> list[tuple[int, str]]:
    return [(number, sentence) for number, path in sorted(LESSONS.items()) if number < term.lesson
            for sentence in sentences(path) if uses(term, sentence) and not points_forward(sentence, term.lesson)]


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_no_term_is_used_before_its_lesson(term: Term) -> None:
    early = early_uses(term)
    assert not early, f"{term.name!r} (lesson {term.lesson}) is used earlier without pointing to its lesson: " + \
        "; ".join(f"lesson {number}: {sentence[:160]!r}" for number, sentence in early[:4])


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda term: term.name)
def test_each_term_is_in_its_own_lesson(term: Term) -> None:
    assert any(uses(term, sentence) for sentence in sentences(LESSONS[term.lesson])), (
        f"{term.name!r} should be taught in lesson {term.lesson}, whose text never names it")


def test_the_check_fails_when_a_term_moves_before_its_lesson() -> None:
    """A sentence of lesson 1 that used "transposition table" would fail the check; with "(lesson 4)" it would not."""
    table = next(term for term in GLOSSARY if term.name == "transposition table")
    assert uses(table, "A transposition table remembers positions.") and not points_forward(
        "A transposition table remembers positions.", 4)
    assert points_forward("A transposition table (lesson 4) remembers positions.", 4)
    assert points_forward("See [Lesson 4](04_transpositions_and_mtdf.ipynb) for the table.", 4)
    assert not points_forward("As lesson 2 showed, a transposition table helps.", 4)


def test_the_terms_come_in_the_order_of_their_lessons() -> None:
    assert [term.lesson for term in GLOSSARY] == sorted(term.lesson for term in GLOSSARY)
