"""``from gamelib import ...`` offers the names lessons use most: each is the object its own room
defines (no second copy), and issue 13's searches and games are among them."""

from __future__ import annotations

import importlib

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
