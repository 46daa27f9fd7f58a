"""``from gamelib import ...`` offers the names lessons use most: each is the object its own room
defines (no second copy), and issue 13's searches and games are among them."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import gamelib
from gamelib.games.pig import Pig
from gamelib.games.trees import from_cs188
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.mcts import mcts


def test_every_listed_name_is_there_and_comes_from_a_room() -> None:
    assert len(set(gamelib.__all__)) == len(gamelib.__all__)
    for name in gamelib.__all__:
        found = getattr(gamelib, name)
        home = getattr(found, "__module__", None)
        if home is not None and home.startswith("gamelib."):  # a constant or an alias has no home of its own
            assert getattr(importlib.import_module(home), name, found) is found, name


def test_chance_many_players_and_mcts_are_offered() -> None:
    offered = {"expectiminimax": expectiminimax, "expectimax": expectimax, "mcts": mcts, "Pig": Pig,
               "from_cs188": from_cs188}
    assert set(offered) <= set(gamelib.__all__)
    assert all(getattr(gamelib, name) is found for name, found in offered.items())


def test_the_offered_names_work_together() -> None:
    # Pig to 2 with a coin and one turn: rolling wins on heads (+1) and draws 0-0 on tails (0),
    # holding draws at once (0): rolling, worth 1/2 (worked by hand).
    result = gamelib.expectiminimax(gamelib.Pig(target=2, turns=1, sides=2))
    assert (result.value, result.move) == (0.5, "roll")


def test_the_names_for_type_checkers_are_the_names_offered() -> None:
    # gamelib/__init__.py lists its names twice: imports under TYPE_CHECKING, and the lazy map.
    source = Path(gamelib.__file__).read_text(encoding="utf-8")
    checked = next(node for node in ast.parse(source).body if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
    imported = {(node.module, alias.name) for node in checked.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    offered = {(module, name) for module, names in gamelib._EXPORTS.items() for name in names}
    assert imported == offered, imported ^ offered


def test_importing_the_package_loads_no_room_until_a_name_is_read() -> None:
    # A boxed check or a tournament entry imports one room; the package alone must not pull in all.
    code = ("import sys, gamelib; before = sorted(m for m in sys.modules if m.startswith('gamelib.')); "
            "gamelib.GameTree; after = {m for m in sys.modules if m.startswith('gamelib.')}; "
            "print(before, 'gamelib.games.trees' in after, 'gamelib.view.painter' in after)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["[]", "True", "False"], shown
    with pytest.raises(AttributeError, match="no attribute 'alphabta'"):
        gamelib.alphabta  # noqa: B018 - a misspelt name is an AttributeError, as for any module
