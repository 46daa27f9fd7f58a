"""The lessons' static pictures: regenerating them gives the committed files, and every lesson's
figure exists and is used, so a lesson opened without a kernel shows its key steps."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamelib.view.export import FIGURES, figure_svg, main

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_regenerating_gives_the_committed_file(name: str) -> None:
    committed = (NOTEBOOKS / "figures" / name).read_text(encoding="utf-8")
    assert figure_svg(FIGURES[name]) == committed, f"run .venv/bin/python -m gamelib.view.export and commit {name}"


def test_every_figure_is_embedded_and_every_embedded_figure_exists() -> None:
    embedded = {match for notebook in NOTEBOOKS.glob("*.ipynb")
                for match in re.findall(r"\]\(figures/([\w.]+)\)", notebook.read_text(encoding="utf-8"))}
    assert embedded == set(FIGURES) == {path.name for path in (NOTEBOOKS / "figures").glob("*.svg")}


def test_the_cutoff_figure_shows_18_pruned() -> None:
    # Seed 003: the first cutoff is at position 8 and skips position 18.
    svg = ET.fromstring((NOTEBOOKS / "figures" / "02_cutoff_at_8.svg").read_text(encoding="utf-8"))
    node = next(g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("id") == "node-18")
    assert node.get("data-status") == "pruned"


def test_check_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(NOTEBOOKS.parent)
    assert main(["--check"]) == 0
    monkeypatch.chdir(tmp_path)  # no figures here: all missing
    assert main(["--check"]) == 1
    assert "run python -m gamelib.view.export" in capsys.readouterr().out
