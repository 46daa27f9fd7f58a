"""Statements the lessons once made that their data did not support (issue 24) stay out, and terms
are defined before the lessons use them. Each lesson's own Checks cell tests what it now says; this
file only guards against the old wording coming back (each phrase is the old text, whitespace
aside) and checks the order of definitions, reading the notebooks' JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

RETRACTED = [
    ("04_transpositions_and_mtdf.ipynb", "the order of the strategies is not the same at both sizes",
     "one swap of 1.5% on one position, where the lesson calls a 3.5% spread no winner"),
    ("06_adjacency_bots.ipynb", "engines play it (Hyatt's Crafty, Stockfish)",
     "Stockfish takes nothing from an interrupted search; a fail-high proves only under conditions"),
    ("06_adjacency_bots.ipynb", "covers zero, as it must", "a 95% interval misses one time in twenty"),
    ("06_adjacency_bots.ipynb", "more nodes a second let the search see deeper", "the strength data records no depths"),
    ("07_tournament.ipynb", "and so is a little wider", "from 3 of 3 Clopper-Pearson starts at 0.29, Wilson at 0.44"),
    ("07_tournament.ipynb", "Overlapping intervals alone would not prove that; the test does",
     "p = 0.34 shows no detectable difference, not that the difference is chance"),
    ("08_chance_and_many_players.ipynb", "an evaluation must be proportional to how good a position really is",
     "positive linear transformations keep the choices, and an offset is allowed"),
    ("08_chance_and_many_players.ipynb", "An independent check: the definition of expectiminimax written straight",
     "the fractions use Pig's own rules code: only the tests' value iteration is independent of it"),
    ("09_monte_carlo_tree_search.ipynb", "looks five plies ahead exactly, every time",
     "the depth finished varies from 1 to 11 in the 1 s records"),
    ("09_monte_carlo_tree_search.ipynb", "nodes are (at least) its random games",
     "a tree gains at most one node an iteration: games >= nodes - 1"),
    ("09_monte_carlo_tree_search.ipynb", "it gained more from the extra time than alpha-beta did",
     "neither drop is clearly more than chance, and the 5 s games ran three at a time"),
    ("09_monte_carlo_tree_search.ipynb", "With five times the time the scores move towards MCTS under both rules",
     "not separated by the data"),
    ("09_monte_carlo_tree_search.ipynb", "MCTS scored about half its points as X",
     "MCTS won all 20 games as O: its X games gave about a third of its points"),
    ("10_class_tournament.ipynb", "fitted by maximum likelihood",
     "the fit is penalised; for entries that never score no maximum-likelihood estimate exists"),
]


def cells(name: str) -> list[dict[str, str]]:
    """The notebook's cells as {"type": ..., "text": ...}, runs of whitespace collapsed."""
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return [{"type": cell["cell_type"], "text": " ".join("".join(cell["source"]).split())} for cell in notebook["cells"]]


@pytest.mark.parametrize("name, phrase, why", RETRACTED, ids=[phrase[:40] for _, phrase, _ in RETRACTED])
def test_a_retracted_statement_stays_out(name: str, phrase: str, why: str) -> None:
    said = [cell["text"] for cell in cells(name) if phrase in cell["text"]]
    assert not said, f"{name} says again {phrase!r}, which its data does not support ({why})"


def test_lesson_7_defines_elo_where_it_first_uses_it() -> None:
    first = next(cell for cell in cells("07_tournament.ipynb")[1:] if re.search(r"\bElo\b", cell["text"]))
    assert first["type"] == "markdown" and "10^{-D/400}" in first["text"], (
        f"lesson 7's first mention of Elo should define it (the expected score 1 / (1 + 10^(-D/400))); it is: "
        f"{first['text'][:200]!r}")


def test_lesson_9_defines_ucb1_before_it_uses_it() -> None:
    first = next(cell for cell in cells("09_monte_carlo_tree_search.ipynb")[1:] if "UCB1" in cell["text"])
    assert "\\mathrm{UCB1} =" in first["text"], (
        f"lesson 9's first cell to use UCB1 after the goals should define it; it is: {first['text'][:200]!r}")
