"""The genetic minimax bot and its reservation tree (after Hong, Huang & Lin 2001; seed 002)."""

from __future__ import annotations

import math
from collections.abc import Set
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, parse_square
from gamelib.games.game import Game, IllegalMoveError, Player, Value
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.play.bots import make_bot
from gamelib.play.bots.genetic import Evolution, GeneticBot
from gamelib.play.bots.reservation import ReservationError, ReservationTree
from gamelib.search.negamax import SearchError
from gamelib.search.random_trees import random_tree
from tests.budget import examples

# Brute force, written independently of the tree: minimax over a set of sequences.


def brute_minimax(game: Game[Any, Any], state: Any, sequences: Set[tuple[Any, ...]]) -> Value:
    """Minimax over ``sequences`` (moves from ``state``), recursing on their first moves."""
    if () in sequences:
        return game.evaluate(state)
    values = [brute_minimax(game, game.result(state, move), {s[1:] for s in sequences if s[0] == move})
              for move in {s[0] for s in sequences}]
    return max(values) if game.to_move(state) is Player.MAX else min(values)


def all_paths(tree: GameTree, node: str) -> list[tuple[str, ...]]:
    """Every root-to-leaf path below ``node`` of an explicit tree."""
    children = tree.children_of(node)
    if not children:
        return [()]
    return [(child, *rest) for child in children for rest in all_paths(tree, child)]


def prefixes(sequences: Set[tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    return {s[:k] for s in sequences for k in range(len(s) + 1)}


@examples(60)
@given(st.integers(0, 10_000), st.integers(1, 3), st.integers(1, 4), st.data())
def test_backed_up_values_are_minimax_over_the_stored_sequences(seed: int, branching: int, depth: int,
                                                                 data: st.DataObject) -> None:
    game = random_tree((1, branching + 1), depth, seed=seed, low=-9, high=9)
    paths = all_paths(game, game.root)
    chosen = data.draw(st.lists(st.sampled_from(paths), min_size=1, unique=True))
    tree = ReservationTree(game, game.root)
    for path in chosen:
        tree.insert(path)
    stored = set(chosen)
    assert set(tree.sequences()) == stored and len(tree) == len(stored)
    assert tree.nodes == len(prefixes(stored))
    for prefix in prefixes(stored):
        below = {s[len(prefix):] for s in stored if s[:len(prefix)] == prefix}
        assert tree.value(prefix) == brute_minimax(game, game.node_id(_state_after(game, prefix)), below)


def _state_after(game: GameTree, path: tuple[str, ...]) -> str:
    return path[-1] if path else game.root


@examples(25)
@given(st.integers(0, 10_000), st.data())
def test_backed_up_values_on_adjacency_sequences(seed: int, data: st.DataObject) -> None:
    game = AdjacencyGame(rounds=3, rule=data.draw(st.sampled_from([8, 4])))
    state = game.play(game.root, ["c3", "f6"])  # 4 plies left
    moves = st.sampled_from(game.legal_moves(state))
    sequences = set()
    for _ in range(data.draw(st.integers(1, 12))):
        first, second = data.draw(moves), data.draw(moves)
        if first != second:
            sequences.add((first, second))
    if not sequences:
        return
    tree = ReservationTree(game, state)
    for sequence in sorted(sequences):
        tree.insert(sequence)
    for prefix in prefixes(sequences):
        below = {s[len(prefix):] for s in sequences if s[:len(prefix)] == prefix}
        assert tree.value(prefix) == brute_minimax(game, game.play(state, prefix), below)


# A tree worked by hand: MAX at r, MIN at a and b.
#   r -> a -> a1 = 3, a2 = 5;  r -> b -> b1 = 2, b2 = 9
HAND = tree_from_dict({"root": "r", "to_move": "max",
                       "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
                       "values": {"a1": 3, "a2": 5, "b1": 2, "b2": 9}})


def test_fitness_is_the_height_a_leaf_value_climbs_worked_by_hand() -> None:
    tree = ReservationTree(HAND, "r")
    for sequence in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2")]:
        tree.insert(sequence)
    # a = min(3, 5) = 3, b = min(2, 9) = 2, r = max(3, 2) = 3.
    # a1 = 3 climbs to a (3) and r (3): 2. a2 = 5 stops below a: 0. b1 = 2 reaches b only: 1. b2: 0.
    assert [tree.fitness(s) for s in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2")]] == [2, 0, 1, 0]
    assert tree.best_move() == "a" and tree.principal_variation() == ("a", "a1")


def test_the_tree_refuses_what_it_cannot_hold_and_stays_unchanged() -> None:
    game = AdjacencyGame()
    tree = ReservationTree(game, game.root)
    with pytest.raises(ReservationError, match="empty"):
        tree.best_move()
    c3, d4, a1 = parse_square("c3"), parse_square("d4"), parse_square("a1")
    assert tree.insert((c3, d4)) == 2 and tree.insert((c3, d4)) == 0
    with pytest.raises(IllegalMoveError, match="a1 is occupied"):
        tree.insert((d4, a1))
    with pytest.raises(ReservationError, match="start of a stored"):
        tree.insert((c3,))
    with pytest.raises(ReservationError, match="continues"):
        tree.insert((c3, d4, a1 + 40))
    with pytest.raises(ReservationError, match="at least one move"):
        tree.insert(())
    assert list(tree.sequences()) == [(c3, d4)] and tree.nodes == 3


# The genetic operators keep every chromosome legal.


@st.composite
def positions(draw: st.DrawFn) -> tuple[AdjacencyGame, AdjacencyState]:
    """A position reached by random moves, with at least one ply left."""
    game = AdjacencyGame(rounds=draw(st.integers(2, 28)), rule=draw(st.sampled_from([8, 4])))
    state = game.root
    for _ in range(draw(st.integers(0, 2 * game.rounds - 1))):
        state = game.result(state, draw(st.sampled_from(game.legal_moves(state))))
    return game, state


def assert_legal(game: AdjacencyGame, state: AdjacencyState, chromosome: tuple[Any, ...], depth: int) -> None:
    """Every move is legal in turn (result raises otherwise); the length is depth or the game ends."""
    for move in chromosome:
        state = game.result(state, move)
    assert len(chromosome) == depth or game.is_terminal(state)


genes = st.lists(st.one_of(st.none(), st.integers(0, 63)), max_size=6)


@examples(60)
@given(positions(), st.integers(1, 5), genes, genes, st.integers(0, 100))
def test_repair_crossover_and_mutation_give_legal_chromosomes(
        position: tuple[AdjacencyGame, AdjacencyState], depth: int, mother_genes: list[int | None],
        father_genes: list[int | None], seed: int) -> None:
    game, state = position
    run = Evolution(GeneticBot(seed=seed, depth=depth), game, state, deadline=math.inf)
    mother, father = run.repair(mother_genes), run.repair(father_genes)
    run.tree.insert(mother)  # repair also follows moves already in the tree
    for chromosome in (mother, father, *run.crossover(mother, father), run.mutate(mother), run.repair(mother)):
        assert_legal(game, state, chromosome, depth)
    legal_prefix: list[int] = []
    for gene in mother_genes[:depth]:
        if gene is None or gene not in game.legal_moves(game.play(state, legal_prefix)):
            break
        legal_prefix.append(gene)
    assert list(mother[:len(legal_prefix)]) == legal_prefix  # legal moves are kept


@examples(15)
@given(positions(), st.integers(0, 100))
def test_every_stored_sequence_of_a_search_is_legal(position: tuple[AdjacencyGame, AdjacencyState],
                                                     seed: int) -> None:
    game, state = position
    run = Evolution(GeneticBot(seed=seed, population=8, generations=10, depth=3), game, state,
                    deadline=math.inf)
    assert run.evolve(10) == 10
    for sequence in run.tree.sequences():
        assert_legal(game, state, sequence, 3)
    assert run.tree.best_move() in game.legal_moves(state)


# The bot.


def test_the_same_seed_gives_the_same_move() -> None:
    game = AdjacencyGame()
    state = game.play(game.root, ["c3", "f6", "d4"])
    first = GeneticBot(seed=11, population=12, generations=20, depth=3).choose(game, state, 60.0)
    second = GeneticBot(seed=11, population=12, generations=20, depth=3).choose(game, state, 60.0)
    assert (first.move, first.value, first.nodes, first.note) == (second.move, second.value, second.nodes,
                                                                  second.note)
    assert "20 generations" in first.note


@st.composite
def endgames(draw: st.DrawFn) -> tuple[AdjacencyGame, AdjacencyState]:
    """A random board with 3 or 4 empty squares and 2 plies left."""
    game = AdjacencyGame(rule=draw(st.sampled_from([8, 4])))
    empty = draw(st.integers(3, 4))
    board = draw(st.lists(st.sampled_from("XO"), min_size=64 - empty, max_size=64 - empty))
    holes = draw(st.lists(st.integers(0, 63), min_size=empty, max_size=empty, unique=True))
    cells = iter(board)
    text = "".join("." if i in holes else next(cells) for i in range(64))
    return game, game.from_board(text, draw(st.sampled_from("XO")), 2)


def two_ply_minimax(game: AdjacencyGame, state: AdjacencyState) -> dict[int, Value]:
    """Brute force: each first move's value, the best reply for the other side (MAX's view)."""
    reply = {Player.MAX: min, Player.MIN: max}[game.to_move(state)]
    return {move: reply(game.evaluate(game.result(game.result(state, move), answer))
                        for answer in game.legal_moves(game.result(state, move)))
            for move in game.legal_moves(state)}


@examples(30)
@given(endgames(), st.integers(0, 100))
def test_covering_a_tiny_endgame_it_finds_the_minimax_move(endgame: tuple[AdjacencyGame, AdjacencyState],
                                                           seed: int) -> None:
    game, state = endgame
    values = two_ply_minimax(game, state)
    sequences = len(values) * (len(values) - 1)  # 4 * 3 = 12 at most
    bot = GeneticBot(seed=seed, population=sequences, generations=5, depth=2)
    run = Evolution(bot, game, state, deadline=math.inf)
    run.evolve(5)
    assert len(run.tree) == sequences  # the population covers every sequence
    best = (max if game.to_move(state) is Player.MAX else min)(values.values())
    decision = GeneticBot(seed=seed, population=sequences, generations=5, depth=2).choose(game, state, 60.0)
    assert decision.value == best and values[decision.move] == best


def test_it_answers_with_a_legal_move_when_the_time_is_already_up() -> None:
    game = AdjacencyGame()
    decision = GeneticBot(seed=0, generations=1000).choose(game, game.root, 1e-9)
    assert decision.move in game.legal_moves(game.root)
    assert "0 generations" in decision.note


def test_it_plays_o_as_well_and_near_the_end_of_the_game() -> None:
    game = AdjacencyGame(rounds=2)
    state = game.play(game.root, ["c3", "f6", "d4"])  # O to move, the last ply: 64 - 11 = 53 moves
    decision = GeneticBot(seed=1, population=53, generations=5, depth=4).choose(game, state, 60.0)
    assert decision.nodes == 1 + 53  # sequences stop where the game ends: every move, one ply each
    gains = {move: game.gain(state, move) for move in game.legal_moves(state)}
    assert gains[decision.move] == max(gains.values())  # one ply left: minimax is the best gain
    assert decision.value == game.evaluate(game.result(state, decision.move))


def test_bad_settings_and_finished_games_are_refused() -> None:
    with pytest.raises(SearchError, match="population >= 2"):
        GeneticBot(population=1)
    with pytest.raises(SearchError, match="depth >= 1"):
        GeneticBot(depth=0)
    game = AdjacencyGame(rounds=2)
    with pytest.raises(SearchError, match="positive time"):
        GeneticBot().choose(game, game.root, 0)
    with pytest.raises(SearchError, match="game is over"):
        GeneticBot().choose(game, game.play(game.root, ["c3", "f6", "d4", "e5"]), 1.0)


def test_it_is_the_genetic_bot_by_name() -> None:
    bot = make_bot("genetic", seed=2, population=10, generations=3, depth=2)
    assert isinstance(bot, GeneticBot) and bot.name == "genetic" and bot.depth == 2
