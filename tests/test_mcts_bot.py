"""The MCTS bot on the Adjacency game: its name everywhere, its clock, its seed, its playout, its strength.

Strength is tested with a fixed number of iterations, so the games are the same on any machine
and the test cannot flake; the clock is tested on real time with the margins the bot keeps
(rerun a failure alone: the machine is shared).
"""

from __future__ import annotations

import io
import random
import sys
import time
from collections import Counter

import pytest

from gamelib.cli import main
from gamelib.games.adjacency import AdjacencyGame, Mark
from gamelib.games.trees import tree_from_dict
from gamelib.play.arena import build_bot, play_game
from gamelib.play.bots.alphabeta import MARGIN_SECONDS, MARGIN_SHARE
from gamelib.play.bots.base import BOT_NAMES, RandomBot, make_bot
from gamelib.play.bots.mcts import MctsBot, adjacency_playout
from gamelib.search.negamax import SearchError
from tests.conftest import SetClock

LIMIT = 0.05
"""Seconds a move in the clock test."""


def test_it_is_the_mcts_bot_by_name() -> None:
    assert "mcts" in BOT_NAMES
    bot = make_bot("mcts", seed=3)
    assert isinstance(bot, MctsBot) and bot.name == "mcts"
    assert repr(bot) == "MctsBot(seed=3, iterations=None, c=1.4142135623730951, rollout_plies=None)"
    assert build_bot("mcts:iterations=50,c=0.5", seed=2).iterations == 50  # type: ignore[attr-defined]


def test_the_bot_keeps_its_time_limit() -> None:
    # 30 moves at 0.05 s: the bot as X for 15 rounds, then as O for 15 rounds, against the random bot.
    # Its search has 0.05 * (1 - 0.04) - 0.01 = 0.038 s, 0.76 of the limit, and stops at the first
    # clock reading after that: its own (thread) CPU time, which cannot exceed its wall time, stays
    # under 0.043 s whatever else the machine runs. The wall time itself is not asserted (a busy
    # machine changes it; test_the_bot_stops_at_its_deadline_on_a_fake_clock checks the deadline
    # exactly): measured in this process on the shared machine, at most 0.86-0.94 of the limit.
    budget = LIMIT * (1 - MARGIN_SHARE) - MARGIN_SECONDS
    moves = 0
    for side in (Mark.X, Mark.O):
        game, bot, other = AdjacencyGame(rounds=15), MctsBot(seed=1), RandomBot(seed=2)
        state = game.root
        while not game.is_terminal(state):
            player = bot if state.to_move is side else other
            cpu = time.thread_time()
            decision = player.choose(game, state, LIMIT)
            cpu = time.thread_time() - cpu
            if player is bot:
                assert cpu < budget + 0.005, f"{cpu:.3f} s of CPU time for a {budget:.3f} s search"
                assert decision.move in game.legal_moves(state)
                moves += 1
            state = game.result(state, decision.move)
    assert moves == 30


class FakeClock:
    """``perf_counter()`` for the bot and the search: each reading moves time on by ``step``
    seconds, so the number of readings, not the machine, decides when time is up."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1024.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def test_the_bot_stops_at_its_deadline_on_a_fake_clock(set_clock: SetClock) -> None:
    # A reading every s = 1/1024 s (exact in binary), limit 0.05 s, clock at t before the bot. The bot
    # reads the clock at its start (t + s) and for its budget (t + 2s): 0.05 * (1 - 0.04) - 0.01 - s =
    # 0.0370234375 s. The search starts at t + 3s = t + 0.0029296875, so its deadline is t + 0.0399531250;
    # it reads the clock before each iteration, at t + k s for k = 4, 5, ...: k s < 0.039953125 for
    # k <= 40, so 37 iterations, and reading 41 stops it. It reads once more for its wall time (42),
    # the bot once more (43): 42 s after the bot's start, 43 s = 0.042 s after t, within the limit.
    fake = FakeClock(step=1 / 1024)
    set_clock(fake.perf_counter)
    game = AdjacencyGame()
    start = fake.now
    decision = MctsBot(seed=0).choose(game, game.root, LIMIT)
    assert decision.note.startswith("mcts 37 iterations, 38 nodes")
    assert decision.seconds == 42 / 1024 and fake.now - start == 43 / 1024 < LIMIT


def test_a_limit_too_short_for_the_margins_plays_the_first_move(set_clock: SetClock) -> None:
    # 0.01 s less 4% and 10 ms is below zero: the search gets a microsecond, and the fake clock's
    # first reading inside it (1/1024 s later) is past its deadline, so no iteration runs.
    fake = FakeClock(step=1 / 1024)
    set_clock(fake.perf_counter)
    game = AdjacencyGame()
    decision = MctsBot().choose(game, game.root, 0.01)
    assert (decision.move, decision.value, decision.nodes) == (game.legal_moves(game.root)[0], None, 1)
    assert decision.note.startswith("mcts 0 iterations")


def test_the_bot_beats_the_random_bot() -> None:
    # Six 8-round games, colours alternating, 200 iterations a move: measured 6 wins of 6.
    wins = 0
    for index in range(6):
        bot, other = MctsBot(seed=index, iterations=200), RandomBot(seed=100 + index)
        x, o = (bot, other) if index % 2 == 0 else (other, bot)
        record = play_game(AdjacencyGame(rounds=8), x, o, 1.0, seed=index)
        wins += record.result == ("X" if x is bot else "O")
    assert wins >= 5


def test_the_same_seed_plays_the_same_moves() -> None:
    game = AdjacencyGame(rounds=6)
    positions = [game.root, game.play(game.root, ["c3"]), game.play(game.root, ["c3", "f6"])]

    def answers(seed: int) -> list[tuple[object, ...]]:
        bot = MctsBot(seed=seed, iterations=150)
        return [(d.move, d.value, d.note) for d in (bot.choose(game, state, 1.0) for state in positions)]

    assert answers(7) == answers(7)
    assert answers(7) != answers(8)


def test_the_decision_reports_the_search() -> None:
    game = AdjacencyGame(rounds=4)
    decision = MctsBot(seed=0, iterations=120).choose(game, game.root, 1.0)
    assert decision.depth is None and decision.nodes == 121  # the root and one node an iteration
    assert decision.value is not None and -1 <= decision.value <= 1
    assert decision.note.startswith("mcts 120 iterations, 121 nodes, ")
    assert "visited" in decision.note and "MAX's expected score" in decision.note


def test_a_tree_is_played_with_the_generic_playout() -> None:
    tree = tree_from_dict({"name": "fork", "source": "made up", "root": "0", "to_move": "min",
                           "children": {"0": ["1", "2"]}, "values": {"1": -1, "2": 1}})
    decision = MctsBot(iterations=20).choose(tree, tree.root, 1.0)
    assert decision.move == "1" and decision.note.endswith("MAX's expected score 0.00")


def test_the_shuffled_playout_ends_the_game_with_legal_moves() -> None:
    game = AdjacencyGame(rounds=28)
    state = game.play(game.root, ["c3", "f6", "d4"])
    final, moves = adjacency_playout(game, state, random.Random(1))
    assert len(moves) == 53 and game.is_terminal(final) and game.play(state, moves) == final
    short, few = adjacency_playout(game, state, random.Random(1), plies=4)
    assert len(few) == 4 and game.play(state, few) == short
    full = game.from_notation("XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXX3 O 20 r8")
    _, last = adjacency_playout(game, full, random.Random(1))
    assert len(last) == 3  # the board fills before the plies run out


def test_the_shuffled_playouts_first_move_is_uniform() -> None:
    # 5,600 playouts of one ply from the opening's 56 empty squares: about 100 each. A chi-square
    # statistic with 55 degrees of freedom is above 93.2 with probability 0.001; seeded, so fixed.
    game = AdjacencyGame()
    rng = random.Random(0)
    counts = Counter(adjacency_playout(game, game.root, rng, plies=1)[1][0] for _ in range(5600))
    assert set(counts) == set(game.legal_moves(game.root))
    assert sum((count - 100) ** 2 / 100 for count in counts.values()) < 93.2


def test_bad_options_and_calls_are_refused() -> None:
    with pytest.raises(SearchError, match="iterations is 0"):
        MctsBot(iterations=0)
    with pytest.raises(SearchError, match="c is -1"):
        MctsBot(c=-1)
    game = AdjacencyGame(rounds=2)
    with pytest.raises(SearchError, match="positive time limit"):
        MctsBot().choose(game, game.root, 0)
    with pytest.raises(SearchError, match="the game is over"):
        MctsBot().choose(game, game.play(game.root, ["c3", "f6", "d4", "e5"]), 1.0)


def test_the_engine_serves_the_mcts_bot(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("go 60\nquit\n"))
    status = main(["engine", "--bot", "mcts", "--seed", "2"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0 and out[0].startswith("move ") and len(out[0].split()) == 2


def test_the_command_line_plays_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["match", "mcts", "random", "--games", "2", "--rounds", "3", "--time", "0.05", "--workers", "1",
                   "--quiet"])
    out = capsys.readouterr().out
    assert status == 0 and "A mcts" in out and "B random" in out
