"""The arena: one game, a match run in parallel and resumed from its file, and the summary."""

from __future__ import annotations

import json
import math
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, parse_square
from gamelib.games.game import IllegalMoveError
from gamelib.play.arena import build_bot, game_seed, match_tasks, play_game, run_match
from gamelib.play.bots.base import Decision, RandomBot
from gamelib.play.match_stats import score_interval, summarise, summarise_file, wilson_interval
from gamelib.play.records import GameRecord, MatchFileError, Turn, read_records


class Script:
    """A bot that plays the given square names in order, reporting a depth and a value."""

    def __init__(self, name: str, moves: list[str]) -> None:
        self.name, self.moves = name, list(moves)

    def choose(self, game: Any, state: AdjacencyState, seconds: float) -> Decision:
        return Decision(move=parse_square(self.moves.pop(0)), depth=3, value=-math.inf, nodes=7)


def scripted_game(o_moves: list[str]) -> GameRecord:
    return play_game(AdjacencyGame(rounds=2), Script("x", ["g6", "b3"]), Script("o", o_moves), 2.0, seed=9, index=4)


def test_a_drawn_game_by_hand() -> None:
    # X g6 flips g7 h7 (X 7, O 2); O c3 flips b2 (6, 4); X b3 flips b2 c3 (9, 2);
    # O h6 flips g6 g7 h7, its neighbours g5 h5 g6 g7 h7 under rule 8 (6, 6): a draw.
    record = scripted_game(["c3", "h6"])
    assert record.moves == ("g6", "c3", "b3", "h6")
    assert (record.counts, record.result) == ((6, 6), "draw")
    assert (record.index, record.seed, record.x, record.o, record.rule, record.rounds) == (4, 9, "x", "o", 8, 2)
    assert record.depths == (3, 3, 3, 3) and record.nodes == (7, 7, 7, 7) and len(record.seconds) == 4


def test_a_won_game_by_hand() -> None:
    # As above to (9, 2), then O d4 flips only c3 of its neighbours c3 d3 e3 c4 e4 c5 d5 e5: (8, 4).
    record = scripted_game(["c3", "d4"])
    assert (record.counts, record.result) == ((8, 4), "X")


def test_an_illegal_move_names_the_bot() -> None:
    with pytest.raises(IllegalMoveError, match="bot o .* as O: a1 is occupied by X"):
        scripted_game(["a1"])


def test_on_move_sees_every_turn() -> None:
    turns: list[Turn] = []
    record = play_game(AdjacencyGame(rounds=3), RandomBot(1), RandomBot(2), 1.0, 0, on_move=turns.append)
    assert [turn.ply for turn in turns] == list(range(6))
    assert [turn.side.value for turn in turns] == ["X", "O"] * 3
    assert AdjacencyGame(rounds=3).counts(turns[-1].after) == record.counts


def test_random_game_replays_to_its_counts() -> None:
    game = AdjacencyGame(rounds=28)
    record = play_game(game, RandomBot(5), RandomBot(6), 1.0, 0)
    assert len(record.moves) == 56 and len(set(record.moves)) == 56  # 28 rounds, every square once
    assert game.counts(game.play(game.root, list(record.moves))) == record.counts
    assert sum(record.counts) == 64  # 8 marks at the start plus one a move: the board is full


def test_record_survives_json() -> None:
    record = scripted_game(["c3", "h6"])
    line = record.to_json()
    assert "Infinity" not in line and json.loads(line)["values"] == ["-inf"] * 4
    assert GameRecord.from_json(line) == record


def test_colours_alternate_and_seeds_differ() -> None:
    tasks = match_tasks("a", "b", 4, 10, 4, 0.5, seed=7)
    assert [(t.x, t.o) for t in tasks] == [("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")]
    assert [t.seed for t in tasks] == [game_seed(7, i) for i in range(4)]
    assert len({t.seed for t in tasks}) == 4 and game_seed(8, 0) != game_seed(7, 0)


def test_build_bot_seeds_what_takes_a_seed() -> None:
    bot = build_bot("random", seed=12)
    assert isinstance(bot, RandomBot) and bot.seed == 12
    assert build_bot("human").name == "human"  # takes no seed
    with pytest.raises(ValueError, match="unknown bot"):
        build_bot("chess")


def threads(workers: int = 2) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(workers)


def match(path: Path, games: int, executor: Executor, **options: Any) -> Any:
    settings: dict[str, Any] = {"rounds": 3, "seed": 1, "progress": False, **options}
    return run_match("random", "hillclimb", games, out=path, executor=executor, **settings)


def moves_by_index(path: Path) -> dict[int, tuple[str, ...]]:
    return {record.index: record.moves for record in read_records(path)}


def test_in_a_browser_a_match_plays_in_the_kernel_game_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no process can start (Pyodide), run_match plays its games here, one after another, each written to the
    file as it ends: the same games as a pool of threads plays for the same seed."""
    import gamelib.play.arena as arena

    played: list[int] = []  # how many games the file held as each game began
    real = arena.play_task

    def play(task: Any) -> GameRecord:
        played.append(len(read_records(tmp_path / "k.jsonl")) if (tmp_path / "k.jsonl").exists() else 0)
        return real(task)

    monkeypatch.setattr(arena, "in_browser", lambda: True)
    monkeypatch.setattr(arena, "ProcessPoolExecutor", None)  # a pool would fail: none may be started
    monkeypatch.setattr(arena, "play_task", play)
    run_match("random", "hillclimb", 4, rounds=3, seed=1, progress=False, out=tmp_path / "k.jsonl")
    monkeypatch.undo()
    with threads() as pool:
        match(tmp_path / "t.jsonl", 4, pool)
    assert moves_by_index(tmp_path / "k.jsonl") == moves_by_index(tmp_path / "t.jsonl")
    assert played == [0, 1, 2, 3], f"each game should start after the one before is on file; files held {played}"


def test_match_file_has_every_game_once(tmp_path: Path) -> None:
    with threads() as pool:
        summary = match(tmp_path / "m.jsonl", 6, pool)
    records = read_records(tmp_path / "m.jsonl")
    assert sorted(record.index for record in records) == list(range(6)) and summary.games == 6
    assert [(r.x, r.o) for r in sorted(records, key=lambda r: r.index)][:2] == [("random", "hillclimb"),
                                                                               ("hillclimb", "random")]


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    with threads() as pool:
        match(whole, 6, pool)
        match(part, 3, pool)
        before = part.read_bytes()
        with part.open("ab") as file:  # a game cut short by a kill while it was written
            file.write(b'{"index": 5, "se')
        summary = match(part, 6, pool)
    assert part.read_bytes().startswith(before) and len(part.read_text().splitlines()) == 6
    assert moves_by_index(part) == moves_by_index(whole)  # seeded games: the same whichever run played them
    assert summary == summarise_file(part)


def test_any_executor_will_do(tmp_path: Path) -> None:
    class Inline(Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
            future: Future[Any] = Future()
            future.set_result(fn(*args, **kwargs))
            return future

    with threads() as pool:
        match(tmp_path / "threads.jsonl", 4, pool)
    match(tmp_path / "inline.jsonl", 4, Inline())
    assert moves_by_index(tmp_path / "inline.jsonl") == moves_by_index(tmp_path / "threads.jsonl")


def test_process_pool_plays_the_same_games(tmp_path: Path) -> None:
    run_match("random", "random", 4, 3, out=tmp_path / "processes.jsonl", workers=2, seed=1, progress=False)
    with threads() as pool:
        run_match("random", "random", 4, 3, out=tmp_path / "threads.jsonl", executor=pool, seed=1, progress=False)
    assert moves_by_index(tmp_path / "processes.jsonl") == moves_by_index(tmp_path / "threads.jsonl")


@pytest.mark.parametrize("change, named", [({"rounds": 4}, "rounds 3"), ({"seed": 2}, "seed"),
                                           ({"rule": 4}, "rule 8"), ({"seconds": 0.5}, "time_limit")])
def test_other_settings_are_refused(tmp_path: Path, change: dict[str, Any], named: str) -> None:
    path = tmp_path / "m.jsonl"
    with threads() as pool:
        match(path, 2, pool)
        before = path.read_bytes()
        with pytest.raises(MatchFileError, match=named):
            match(path, 4, pool, **change)
    assert path.read_bytes() == before


def test_fewer_games_than_the_file_is_refused(tmp_path: Path) -> None:
    with threads() as pool:
        match(tmp_path / "m.jsonl", 3, pool)
        with pytest.raises(MatchFileError, match="holds game 2"):
            match(tmp_path / "m.jsonl", 2, pool)


def test_bad_lines_are_named(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"index": 0}\n')
    with pytest.raises(MatchFileError, match="line 1"):
        read_records(path)


@pytest.mark.parametrize("options", [{"rounds": 1}, {"rule": 6}, {"seconds": 0}, {"workers": 0}])
def test_bad_settings_are_value_errors(options: dict[str, Any]) -> None:
    settings: dict[str, Any] = {"rounds": 3, "progress": False, **options}
    with pytest.raises(ValueError):
        run_match("random", "random", 2, **settings)


def test_a_human_cannot_join_a_match() -> None:
    with pytest.raises(ValueError, match="human"):
        run_match("human", "random", 2, progress=False)


def test_a_failing_game_stops_the_match(tmp_path: Path) -> None:
    with threads(1) as pool, pytest.raises(ValueError, match="unknown bot"):
        run_match("random", "nobody", 3, 3, out=tmp_path / "m.jsonl", executor=pool, progress=False)


# The summary, on records written by hand.

def record(index: int, result: str, seconds: tuple[float, ...] = (0.1, 0.1), limit: float = 1.0) -> GameRecord:
    a_is_x = index % 2 == 0
    return GameRecord(index=index, seed=0, x="a" if a_is_x else "b", o="b" if a_is_x else "a", rule=8, rounds=1,
                      time_limit=limit, moves=("c3", "d4"), counts=(5, 5), result=result, seconds=seconds,
                      depths=(None, None), values=(None, None), nodes=(0, 0))


def test_summary_counts_by_colour() -> None:
    # Game 0: a is X and X wins; 1: a is O, X wins; 2: a is X, draw; 3: a is O, O wins;
    # 4: a is X, O wins. a: as X win, draw, loss; as O loss, win. Score (1 + 0 + .5 + 1 + 0) / 5.
    summary = summarise([record(0, "X"), record(1, "X"), record(2, "draw"), record(3, "O"), record(4, "O")])
    a, b = summary.a, summary.b
    assert (a.name, a.as_x, a.as_o, (a.wins, a.draws, a.losses)) == ("a", (1, 1, 1), (1, 0, 1), (2, 1, 2))
    assert (b.name, b.as_x, b.as_o, (b.wins, b.draws, b.losses)) == ("b", (1, 0, 1), (1, 1, 1), (2, 1, 2))
    assert a.score == pytest.approx(0.5) and b.score == pytest.approx(0.5) and summary.games == 5


def test_self_play_is_told_apart_by_index() -> None:
    same = [replace(record(i, "X"), x="random", o="random") for i in range(4)]
    summary = summarise(same)  # X wins every game: A was X in games 0 and 2
    assert (summary.a.as_x, summary.a.as_o) == ((2, 0, 0), (0, 0, 2))


def test_move_times_and_slow_moves() -> None:
    # a moves first in game 0 (X) and second in game 1 (O); 5% over 1 s is 1.05 s.
    summary = summarise([record(0, "X", (1.06, 0.2, 1.0, 0.3)), record(1, "O", (0.4, 2.0))])
    assert (summary.a.moves, summary.a.slow_moves) == (3, 2)  # 1.06, 1.0, 2.0
    assert summary.a.mean_seconds == pytest.approx((1.06 + 1.0 + 2.0) / 3) and summary.a.max_seconds == 2.0
    assert (summary.b.moves, summary.b.slow_moves, summary.b.max_seconds) == (3, 0, 0.4)


def test_wilson_interval_against_published_values() -> None:
    # Clopper-Pearson and Wilson both give [0.912, 1] for 40 of 40 at 95% (the Clopper-Pearson
    # end is 0.025^(1/40) = 0.9119, Wilson's 40/(40 + 1.96^2) = 0.9124) and [0, 0.088] for 0 of 40.
    low, high = wilson_interval(40, 40)
    assert round(low, 3) == 0.912 and round(low, 2) == 0.91 and high == pytest.approx(1.0)
    low, high = wilson_interval(0, 40)
    assert low == pytest.approx(0.0) and round(high, 3) == 0.088
    # Newcombe (1998)'s worked examples of the Wilson interval: 81/263, 15/148, 0/20, 1/29.
    for (points, games), published in [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)),
                                       ((0, 20), (0.0, 0.1611)), ((1, 29), (0.0061, 0.1718))]:
        assert tuple(round(end, 4) for end in wilson_interval(points, games)) == published


def test_wilson_interval_matches_scipy() -> None:
    from scipy.stats import binomtest  # type: ignore[import-untyped]  # scipy ships no types: marked as gamelib's are

    for games in (1, 3, 7, 40):
        for wins in range(games + 1):
            for confidence in (0.9, 0.95, 0.99):
                scipy = binomtest(wins, games).proportion_ci(confidence_level=confidence, method="wilson")
                assert wilson_interval(wins, games, confidence) == pytest.approx((scipy.low, scipy.high), abs=1e-9)


def test_score_interval_counts_a_draw_as_half_a_point() -> None:
    # 1 0 .5 .5 1 0 .5 1: 4.5 points in 8 games, p = 0.5625; with z = 1.959964 (z^2 = 3.841459):
    # centre (0.5625 + 3.841459/16) / (1 + 3.841459/8) = 0.802591 / 1.480182 = 0.542224,
    # half z * sqrt(0.5625 * 0.4375 / 8 + 3.841459/256) / 1.480182 = 0.283277.
    low, high = score_interval([1, 0, 0.5, 0.5, 1, 0, 0.5, 1])  # type: ignore[misc]
    assert low == pytest.approx(0.542224 - 0.283277, abs=1e-5) and high == pytest.approx(0.542224 + 0.283277, abs=1e-5)


def test_score_interval_never_collapses() -> None:
    assert score_interval([]) is None
    for scores in ([1.0], [0.5] * 3, [1.0] * 40, [0.0] * 40):
        low, high = score_interval(scores)  # type: ignore[misc]
        assert low <= sum(scores) / len(scores) <= high and high - low > 0.08  # 40 games: 0.088 wide
    with pytest.raises(ValueError, match="0 <= points <= games"):
        wilson_interval(5, 4)


def test_summary_of_a_perfect_match_has_an_honest_interval() -> None:
    games = [record(i, "X" if i % 2 == 0 else "O") for i in range(40)]  # A wins all 40
    summary = summarise(games)
    assert summary.a.score == 1.0 and round(summary.a.interval[0], 2) == 0.91
    assert round(summary.b.interval[1], 3) == 0.088
    assert "1.000  [0.91, 1.00]" in summary.table() and "Wilson" in summary.table()


def test_summary_of_a_file_matches_the_match(tmp_path: Path) -> None:
    with threads() as pool:
        summary = match(tmp_path / "m.jsonl", 4, pool)
    assert summarise_file(tmp_path / "m.jsonl") == summary
    assert "A random" in summary.table() and "B hillclimb" in summary.table()
