"""The course's data files: trees and reference outputs from the seeds, under ``data/``.

>>> sorted(seed_tree_names())[:2]
['broeders31', 'negascout_table']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gamelib.games.trees import GameTree, load_tree

__all__ = ["DATA_DIR", "load_reference", "load_seed_tree", "seed_tree_names"]

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
"""The repository's ``data/`` folder (the course runs from a checkout, installed editable)."""


def seed_tree_names() -> list[str]:
    """The names of the tree files in ``data/trees`` (without ``.json``)."""
    return sorted(path.stem for path in (DATA_DIR / "trees").glob("*.json"))


def load_seed_tree(name: str) -> GameTree:
    """Load ``data/trees/NAME.json``; raises FileNotFoundError listing the names there are."""
    path = DATA_DIR / "trees" / f"{name}.json"
    if not path.exists():
        raise FileNotFoundError(f"no tree {name!r} in {path.parent}; there are: {', '.join(seed_tree_names())}")
    return load_tree(path)


def load_reference(name: str) -> Any:
    """Load ``data/reference/NAME.json``: outputs printed in a seed, kept as the seed prints them."""
    path = DATA_DIR / "reference" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))
