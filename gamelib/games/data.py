"""The course's data files, shipped inside the package and read with :mod:`importlib.resources`.

``gamelib/data/`` holds the trees from the seeds and textbooks (``trees/``), the outputs the seeds
print (``reference/``), the recorded matches (``tournaments/``), the figures benchmarks wrote
(``benchmarks/``) and lesson 10's submissions (``class_tournament/``). They travel with the
package: a lesson copied to another folder, a wheel installed anywhere and the course in the
browser read the same files, and no path is relative to the notebook or the repository.

>>> sorted(seed_tree_names())[:2]
['broeders31', 'negascout_table']
>>> data_file("trees", "broeders31.json").is_file()
True
"""

from __future__ import annotations

import json
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from gamelib.games.multiplayer import load_any_tree
from gamelib.games.trees import GameTree

__all__ = ["DATA_DIR", "TREE_SUFFIXES", "data_file", "load_reference", "load_seed_tree", "read_json",
           "seed_tree_names"]

TREE_SUFFIXES = (".json", ".test")
"""The course's tree files: the JSON tree format, or a CS188 GraphGameTreeTest file."""


def data_file(*parts: str) -> Traversable:
    """The file or folder ``gamelib/data/PART/...`` of the installed package (it need not exist:
    ask ``.is_file()``). Read it with ``.read_text()`` or ``.open()``."""
    return resources.files("gamelib").joinpath("data", *parts)


def _data_dir() -> Path:
    """``gamelib/data`` as a folder on disk: the package is installed as files (pip, an editable
    install, Pyodide's site-packages), never run from a zip, so the Traversable is a Path."""
    folder = data_file()
    if not isinstance(folder, Path):
        raise RuntimeError(f"gamelib's data is not a folder on disk ({folder!r}): install gamelib as files, not a zip")
    return folder


DATA_DIR = _data_dir()
"""``gamelib/data``, the installed package's data folder, as a Path (for code that needs a real
folder: a tournament runs the submissions in ``DATA_DIR / "class_tournament"`` as files)."""


def seed_tree_names() -> list[str]:
    """The names of the course's tree files in ``gamelib/data/trees`` (without ``.json`` or ``.test``)."""
    return sorted(entry.name.rsplit(".", 1)[0] for entry in data_file("trees").iterdir()
                  if entry.name.endswith(TREE_SUFFIXES))


def load_seed_tree(name: str) -> GameTree:
    """The course's tree ``name`` (``gamelib/data/trees/NAME.json`` or ``NAME.test``; a
    :class:`~gamelib.games.multiplayer.MultiPlayerTree` for a file with a ``player_count``); raises
    FileNotFoundError listing the names there are."""
    for suffix in TREE_SUFFIXES:
        entry = data_file("trees", f"{name}{suffix}")
        if entry.is_file():
            return load_any_tree(DATA_DIR / "trees" / entry.name)
    raise FileNotFoundError(f"the course has no tree {name!r}; there are: {', '.join(seed_tree_names())}")


def read_json(*parts: str) -> Any:
    """The JSON file ``gamelib/data/PART/...``, parsed (e.g. ``read_json("benchmarks", "strength.json")``)."""
    return json.loads(data_file(*parts).read_text(encoding="utf-8"))


def load_reference(name: str) -> Any:
    """``gamelib/data/reference/NAME.json``: outputs printed in a seed, kept as the seed prints them."""
    return read_json("reference", f"{name}.json")
