"""The Adjacency game engine against seed 002's rules, brute-force counts and a hand-written board."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.adjacency import (
    ZOBRIST,
    AdjacencyGame,
    AdjacencyState,
    Mark,
    NotationError,
    Outcome,
    parse_square,
    square_name,
)
from gamelib.games.game import IllegalMoveError, Player

# Random games: a rule, who moves first, a round limit, and move choices taken modulo the moves left.
rules = st.sampled_from([8, 4])
firsts = st.sampled_from(["X", "O"])
choices = st.lists(st.integers(0, 10_000), max_size=56)


def playout(game: AdjacencyGame, picks: list[int]) -> Iterator[AdjacencyState]:
    """The states of a game from the start, each move the pick-th legal move (mod the count)."""
    state = game.root
    yield state
    for pick in picks:
        moves = game.legal_moves(state)
        if not moves:
            return
        state = game.result(state, moves[pick % len(moves)])
        yield state


# A hand-written board: a dict {(file, rank): "X" or "O"}, files and ranks 0..7, and its own
# neighbour check, independent of the engine's bit masks.

def neighbours(file: int, rank: int, rule: int) -> list[tuple[int, int]]:
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if rule == 8:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return [(file + df, rank + dr) for df, dr in steps if 0 <= file + df < 8 and 0 <= rank + dr < 8]


def hand_board(game: AdjacencyGame, state: AdjacencyState) -> dict[tuple[int, int], str]:
    text = game.board_string(state)  # rank 8 first
    return {(i % 8, 7 - i // 8): c for i, c in enumerate(text) if c != "."}


def hand_move(board: dict[tuple[int, int], str], mover: str, file: int, rank: int, rule: int) -> set[tuple[int, int]]:
    """Place ``mover`` at (file, rank) in ``board``; return the squares flipped."""
    flipped = {n for n in neighbours(file, rank, rule) if board.get(n, mover) != mover}
    board[(file, rank)] = mover
    for n in flipped:
        board[n] = mover
    return flipped


# Squares and marks.

def test_squares_are_numbered_from_a1_along_the_ranks() -> None:
    # a1 = 0, h1 = 7, a2 = 8, c3 = 2 + 8 * 2 = 18, h8 = 63 (the brief's numbering)
    assert [square_name(s) for s in (0, 7, 8, 18, 63)] == ["a1", "h1", "a2", "c3", "h8"]
    assert [parse_square(t) for t in ("a1", "h1", "a2", "c3", "h8")] == [0, 7, 8, 18, 63]
    assert all(parse_square(square_name(s)) == s for s in range(64))


@pytest.mark.parametrize("square", [-1, 64, 100])
def test_square_name_off_the_board(square: int) -> None:
    with pytest.raises(ValueError, match=f"square {square} is off the board"):
        square_name(square)


@pytest.mark.parametrize("text", ["i1", "a9", "a0", "C3", "c", "c33", "", " c3", "3c"])
def test_parse_square_rejects_malformed_text(text: str) -> None:
    with pytest.raises(NotationError, match=f"bad square {text!r}"):
        parse_square(text)


def test_marks_are_players() -> None:
    assert (Mark.X.player, Mark.O.player, Mark.X.other, Mark.O.other) == (Player.MAX, Player.MIN, Mark.O, Mark.X)


# The start (seed 002, 1.2: four X in the bottom-left corner, four O in the top-right one).

def test_start_position() -> None:
    game = AdjacencyGame()
    start = game.initial_state()
    assert start is game.root
    assert {square_name(s) for s in range(64) if start.x >> s & 1} == {"a1", "b1", "a2", "b2"}
    assert {square_name(s) for s in range(64) if start.o >> s & 1} == {"g7", "h7", "g8", "h8"}
    assert (start.to_move, start.plies_left, game.counts(start)) == (Mark.X, 56, (4, 4))
    assert game.to_notation(start) == "6OO/6OO/8/8/8/8/XX6/XX6 X 56 r8"  # the brief's example
    assert game.board_string(start) == "......OO" * 2 + "." * 32 + "XX......" * 2
    assert game.to_move(start) is Player.MAX and game.value_range == (-64, 64)


@pytest.mark.parametrize("rounds, rule, first", [(1, 8, "X"), (29, 8, "X"), (8, 6, "X"), (8, 8, "Z")])
def test_bad_game_settings(rounds: int, rule: int, first: str) -> None:
    with pytest.raises(ValueError, match="rounds|rule|first"):
        AdjacencyGame(rounds, rule, first)


def test_settings_are_read_only() -> None:
    game = AdjacencyGame(rounds=10, rule=4, first="O")
    assert (game.rounds, game.rule, game.first) == (10, 4, Mark.O)
    with pytest.raises(AttributeError):
        game.rounds = 12  # type: ignore[misc]


# Perft: every empty square is a legal move, and the start has 64 - 8 = 56 of them.

def perft(game: AdjacencyGame, state: AdjacencyState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(game, game.result(state, m), depth - 1) for m in game.legal_moves(state))


@pytest.mark.parametrize("depth, count", [(1, 56), (2, 56 * 55), (3, 56 * 55 * 54)])
def test_perft_from_the_start(depth: int, count: int) -> None:
    assert perft(AdjacencyGame(), AdjacencyGame().root, depth) == count


@pytest.mark.parametrize("rule", [8, 4])
def test_perft_two_plies_under_both_rules_and_first_players(rule: int) -> None:
    game = AdjacencyGame(rule=rule, first="O")
    assert perft(game, game.root, 2) == 56 * 55


# Seed 002's example (1.2). The seed indexes its board as board[row][column], row 0 the top row
# as drawn and column 0 the left one (its Java Board keeps matrix[y][x] with y counting rows down
# from the top of the window). Its picture is a 4-row, 3-column corner:
#
#     before          after O fills board[1][1]
#     .  O  .         .  O  .
#     X  .  .         O  O  .
#     X  X  O         O  O  O
#     X  X  X         X  X  X
#
# "Perhatikan bahwa kotak pada arah diagonal berubah" - note that the diagonal square changed:
# board[2][0] turns from X to O under the 8-neighbour rule.
SEED_BEFORE = [".O.", "X..", "XXO", "XXX"]
SEED_AFTER = [".O.", "OO.", "OOO", "XXX"]


def seed_board(rows: list[str], top_rank: int) -> str:
    """The seed's rows on our board with board[0][0] on file a, rank ``top_rank``."""
    ranks = {top_rank - r: row + "." * 5 for r, row in enumerate(rows)}
    return "".join(ranks.get(rank, "." * 8) for rank in range(8, 0, -1))


@pytest.mark.parametrize("top_rank", [8, 4])  # the picture in the top-left corner, or the bottom-left one
def test_seed_example_move(top_rank: int) -> None:
    game = AdjacencyGame()
    before = game.from_board(seed_board(SEED_BEFORE, top_rank), "O", 10)
    board_1_1 = parse_square("b" + str(top_rank - 1))  # row 1 below the top row, column 1 = file b
    after = game.result(before, board_1_1)
    assert game.board_string(after) == seed_board(SEED_AFTER, top_rank)
    assert game.gain(before, board_1_1) == 1 + 2 * 3  # the placed O and three flipped X


def test_seed_example_under_the_orthogonal_rule_keeps_the_diagonal() -> None:
    game = AdjacencyGame(rule=4)
    before = game.from_board(seed_board(SEED_BEFORE, 8), "O", 10)
    after = game.result(before, parse_square("b7"))
    assert game.board_string(after) == seed_board([".O.", "OO.", "XOO", "XXX"], 8)


# Flips against the hand-written board.

@given(rules, firsts, choices)
def test_flips_match_a_hand_written_neighbour_check(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    states = list(playout(game, picks))
    board = hand_board(game, states[0])
    for state, after in zip(states, states[1:]):
        move = next(s for s in range(64) if (after.x | after.o) >> s & 1 and not (state.x | state.o) >> s & 1)
        flipped = hand_move(board, state.to_move.value, move % 8, move // 8, rule)
        assert {(s % 8, s // 8) for s in range(64) if game.flips(state, move) >> s & 1} == flipped
        assert game.gain(state, move) == 1 + 2 * len(flipped)
        assert hand_board(game, after) == board


@given(rules, firsts, choices)
def test_marks_grow_by_one_per_move_and_gain_is_the_change(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    states = list(playout(game, picks))
    for state, after in zip(states, states[1:]):
        assert sum(game.counts(after)) == sum(game.counts(state)) + 1
        sign = 1 if state.to_move is Mark.X else -1
        move = (after.x | after.o) ^ (state.x | state.o)
        assert move.bit_count() == 1
        assert sign * (game.evaluate(after) - game.evaluate(state)) == game.gain(state, move.bit_length() - 1)
        assert after.to_move is state.to_move.other and after.plies_left == state.plies_left - 1


@given(rules, firsts, choices)
def test_marks_of_the_mover_never_turn(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    states = list(playout(game, picks))
    for state, after in zip(states, states[1:]):
        own_before, own_after = (state.x, after.x) if state.to_move is Mark.X else (state.o, after.o)
        assert own_before & own_after == own_before


# Zobrist keys.

@given(rules, firsts, choices)
def test_incremental_key_equals_the_key_from_scratch(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    for state in playout(game, picks):
        assert game.key(state) == ZOBRIST.of_bitboards((state.x, state.o), second_to_move=state.to_move is Mark.O)


def test_transpositions_share_a_key() -> None:
    game = AdjacencyGame()
    a = game.play(game.root, ["c3", "f6", "a5", "h4"])  # no move is next to another's mark
    b = game.play(game.root, ["a5", "h4", "c3", "f6"])
    assert a == b and game.key(a) == game.key(b) and hash(a) == hash(b)


# Text forms.

@given(rules, firsts, choices)
def test_text_forms_round_trip(rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rule=rule, first=first)
    for state in playout(game, picks):
        assert game.from_notation(game.to_notation(state)) == state
        assert game.from_board(game.board_string(state), state.to_move, state.plies_left) == state
        assert game.from_board(game.board_string(state), state.to_move.value, state.plies_left) == state
        assert eval(repr(state), {"AdjacencyState": AdjacencyState, "Mark": Mark}) == state
        assert game.node_id(state) == game.to_notation(state)
        assert pickle.loads(pickle.dumps(state)) == state


def test_notation_by_hand() -> None:
    game = AdjacencyGame(rule=4)
    # X c3 (no O next to it), O b3 flips b2 and c3 (orthogonal), X a3 flips b3 (a2 is X's already)
    state = game.play(game.root, ["c3", "b3", "a3"])
    assert game.to_notation(state) == "6OO/6OO/8/8/8/XXO5/XO6/XX6 O 53 r4"
    assert game.counts(state) == (5, 6)  # X a1 b1 a2 a3 b3; O g7 h7 g8 h8 b2 c3


def test_render_text_shows_coordinates_counts_and_the_end() -> None:
    game = AdjacencyGame()
    lines = game.render_text(game.from_notation("XXXXXXXX/8/8/8/8/8/8/OO6 O 0 r8")).splitlines()
    assert lines[0] == lines[-2] == "  a b c d e f g h"
    assert lines[1] == "8 X X X X X X X X 8" and lines[8] == "1 O O . . . . . . 1"
    assert lines[-1] == "X 8, O 2; X wins, rule 8"


@pytest.mark.parametrize("text, message", [
    ("6OO/6OO/8/8/8/8/XX6/XX6 X 56", "has 3 fields"),
    ("6OO/6OO/8/8/8/8/XX6/XX6 X 56 r5", "bad rule 'r5'"),
    ("6OO/6OO/8/8/8/8/XX6/XX6 X 56 r4", "the position is for rule 4 but this game plays rule 8"),
    ("6OO/6OO/8/8/8/8/XX6/XX6 X many r8", "bad plies left 'many'"),
    ("6OO/6OO/8/8/8/8/XX6/XX6 X 57 r8", "plies left is 57"),
    ("6OO/6OO/8/8/8/8/XX6/XX6 Z 56 r8", "bad side to move 'Z'"),
    ("6OO/6OO/8/8/8/XX6/XX6 X 56 r8", "has 7 ranks"),
    ("6OO/6OO/8/8/8/8/XX6/XX6/8 X 56 r8", "has 9 ranks"),
    ("6OO/6OO/8/8/9/8/XX6/XX6 X 56 r8", "rank 4 is '9'"),
    ("6OO/6OO/8/8/8/8/XX7/XX6 X 56 r8", "rank 2 is 'XX7', 9 squares"),
    ("6OO/6OO/8/8/8/8/XX5/XX6 X 56 r8", "rank 2 is 'XX5', 7 squares"),
    ("6OO/6Oo/8/8/8/8/XX6/XX6 X 56 r8", "rank 7 is '6Oo'"),
])
def test_notation_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message.replace("(", r"\(")):
        AdjacencyGame().from_notation(text)


@pytest.mark.parametrize("board, side, plies, message", [
    ("." * 63, "X", 56, "board has 63 characters"),
    ("." * 63 + "x", "X", 56, r"board character 63 \(h1\) is 'x'"),
    ("Z" + "." * 63, "X", 56, r"board character 0 \(a8\) is 'Z'"),
    ("." * 64, "x", 56, "bad side to move 'x'"),
    ("." * 64, "X", -1, "plies left is -1"),
])
def test_board_errors_say_what_is_wrong(board: str, side: str, plies: int, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        AdjacencyGame().from_board(board, side, plies)


def test_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)


# Illegal moves.

def test_illegal_moves_name_the_square() -> None:
    game = AdjacencyGame(rounds=2)
    start = game.root
    with pytest.raises(IllegalMoveError, match="b2 is occupied by X"):
        game.result(start, parse_square("b2"))
    with pytest.raises(IllegalMoveError, match="h8 is occupied by O"):
        game.result(start, 63)
    for off in (-1, 64):
        with pytest.raises(IllegalMoveError, match=f"square {off} is off the board"):
            game.result(start, off)
    with pytest.raises(IllegalMoveError, match="move 'c3' is not a square"):
        game.result(start, "c3")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="c3 is occupied"):
        game.flips(game.play(start, ["c3"]), parse_square("c3"))
    end = game.play(start, ["c3", "c4", "c5", "c6"])
    with pytest.raises(IllegalMoveError, match="d4: the game is over"):
        game.result(end, parse_square("d4"))
    with pytest.raises(IllegalMoveError, match="d4: the game is over"):
        game.gain(end, parse_square("d4"))


def test_a_failed_move_changes_nothing() -> None:
    game = AdjacencyGame()
    state = game.play(game.root, ["c3"])
    copy = game.from_notation(game.to_notation(state))
    with pytest.raises(IllegalMoveError):
        game.result(state, parse_square("c3"))
    assert state == copy


# The end: rounds used up or the board full.

@given(st.integers(2, 28), rules, firsts, st.lists(st.integers(0, 10_000), min_size=56, max_size=56))
def test_terminal_after_the_rounds(rounds: int, rule: int, first: str, picks: list[int]) -> None:
    game = AdjacencyGame(rounds=rounds, rule=rule, first=first)
    states = list(playout(game, picks))
    assert len(states) == 2 * rounds + 1  # the start and one state per ply, one X and one O move a round
    assert not any(game.is_terminal(s) for s in states[:-1])
    end = states[-1]
    assert game.is_terminal(end) and game.legal_moves(end) == [] and end.plies_left == 0
    assert game.outcome(states[-2]) is None and game.winner(states[-2]) is None
    if rounds == 28:
        assert sum(game.counts(end)) == 64  # 8 marks at the start and 56 placed


def test_a_full_board_ends_the_game_whatever_the_plies() -> None:
    game = AdjacencyGame()
    full = game.from_board("XO" * 32, "X", 10)
    assert game.is_terminal(full) and game.outcome(full) is Outcome.DRAW and game.winner(full) is None


@pytest.mark.parametrize("text, outcome, winner", [
    ("XXXXX3/8/8/8/8/8/8/OOOO4 O 0 r8", Outcome.X_WINS, Mark.X),
    ("XXXX4/8/8/8/8/8/8/OOOOO3 X 0 r8", Outcome.O_WINS, Mark.O),
    ("XXXX4/8/8/8/8/8/8/OOOO4 X 0 r8", Outcome.DRAW, None),
    ("XXXXX3/8/8/8/8/8/8/OOOO4 O 1 r8", None, None),
])
def test_outcome_and_winner(text: str, outcome: Outcome | None, winner: Mark | None) -> None:
    game = AdjacencyGame()
    state = game.from_notation(text)
    assert game.outcome(state) is outcome and game.winner(state) is winner


def test_legal_moves_are_the_empty_squares_in_order() -> None:
    game = AdjacencyGame()
    state = game.play(game.root, ["h1", "a8", "d5"])
    empty = [s for s in range(64) if not (state.x | state.o) >> s & 1]
    assert game.legal_moves(state) == empty and len(empty) == 53


# O moves first (the option).

def test_o_first() -> None:
    game = AdjacencyGame(rounds=3, first=Mark.O)
    start = game.root
    assert start.to_move is Mark.O and game.to_move(start) is Player.MIN and start.plies_left == 6
    assert start.key == ZOBRIST.of_bitboards((start.x, start.o), second_to_move=True)
    after = game.result(start, parse_square("c3"))  # O's mark next to b2: b2 turns
    assert game.counts(after) == (3, 6) and after.to_move is Mark.X
    assert game.to_notation(after) == "6OO/6OO/8/8/8/2O5/XO6/XX6 X 5 r8"


def test_games_pickle_and_compare_by_settings() -> None:
    game = AdjacencyGame(rounds=9, rule=4, first="O")
    assert pickle.loads(pickle.dumps(game)) == game == AdjacencyGame(9, 4, Mark.O) != AdjacencyGame(9, 4, "X")
    assert eval(repr(game), {"AdjacencyGame": AdjacencyGame, "Mark": Mark}) == game
