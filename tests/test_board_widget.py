"""The notebook board: the model's moves, clicks and undo, the static HTML, and the widget's children
after simulated clicks (the handlers are called directly, no browser)."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

from gamelib.games.adjacency import AdjacencyState, Mark, NotationError, Square, parse_square
from gamelib.games.game import Game, IllegalMoveError
from gamelib.play.bots.base import Decision
from gamelib.play.bots.genetic import GeneticBot
from gamelib.view.board import AdjacencyBoard, BoardModel, TurnError, board_html


class LowestSquareBot:
    """A bot for tests whose moves are easy to follow by hand: the lowest empty square (a1 first)."""

    name = "lowest"

    def choose(self, game: Game[AdjacencyState, Square], state: AdjacencyState, seconds: float) -> Decision:
        move = min(game.legal_moves(state))
        return Decision(move=move, value=game.evaluate(game.result(state, move)), depth=0, seconds=0.001,
                        nodes=1, note="lowest empty square")


class GatedBot(LowestSquareBot):
    """LowestSquareBot that waits for ``gate`` before each move, so a test can act while it thinks."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()

    def choose(self, game: Game[AdjacencyState, Square], state: AdjacencyState, seconds: float) -> Decision:
        self.started.set()
        assert self.gate.wait(10), "the test never opened the gate"
        return super().choose(game, state, seconds)


# Two rounds of LowestSquareBot against itself, rule 8, worked by hand from the start
# (X a1 b1 a2 b2, O g7 h7 g8 h8):
#   X c1: no O next to it        -> X 5, O 4
#   O d1: flips c1               -> X 4, O 6
#   X e1: flips d1               -> X 6, O 5
#   O f1: flips e1               -> X 5, O 7, O wins.
LOWEST_GAME_END = {"c1": "O", "d1": "X", "e1": "O", "f1": "O"}


# The model.


def test_a_click_plays_the_square_worked_by_hand() -> None:
    model = BoardModel("human", "human", rounds=2)
    model.click("c3")  # no O next to c3: X gains one mark
    assert model.counts == (5, 4) and model.to_move is Mark.O and len(model.history) == 1
    assert model.status() == "Round 1 of 2, 2 rounds left · X 5, O 4 · O (human) to move"
    model.click(parse_square("f6"))
    assert model.status() == "Round 2 of 2, 1 rounds left · X 5, O 5 · X (human) to move"


def test_illegal_clicks_say_why_and_change_nothing() -> None:
    model = BoardModel("human", LowestSquareBot(), rounds=2)
    with pytest.raises(IllegalMoveError, match="a1 is occupied by X"):
        model.click("a1")
    with pytest.raises(NotationError, match="bad square 'z9'"):
        model.click("z9")
    with pytest.raises(TurnError, match="played by clicks"):
        model.bot_move()
    assert model.state == model.game.root and model.history == []
    model.click("c3")
    with pytest.raises(TurnError, match="O's turn, played by lowest"):
        model.click("d4")


def test_two_bots_play_to_the_end_worked_by_hand() -> None:
    model = BoardModel(LowestSquareBot(), LowestSquareBot(), rounds=2)
    moves = [model.bot_move().move for _ in range(4)]
    assert moves == [parse_square(s) for s in ("c1", "d1", "e1", "f1")]
    assert model.is_over and model.counts == (5, 7)
    assert model.status() == "Game over after 2 rounds · X 5, O 7 · O (lowest) wins"
    with pytest.raises(TurnError, match="game is over"):
        model.bot_move()
    assert model.thinking() == "O (lowest) played f1: depth 0, value -2, 0.00 s, 1 nodes · lowest empty square"
    assert model.flipped() == 1 << parse_square("e1")


def test_undo_takes_back_the_human_move_and_the_replies() -> None:
    model = BoardModel(LowestSquareBot(), "human", rounds=3)
    model.bot_move()  # X c1
    after_bot = model.state
    model.click("c3")
    model.bot_move()
    assert model.undo() == 2 and model.state == after_bot and model.to_move is Mark.O
    with pytest.raises(TurnError, match="nothing to undo"):
        model.undo()


def test_bots_are_built_by_name_with_their_options() -> None:
    model = BoardModel("human", "genetic", options={"genetic": {"seed": 3, "generations": 2}})
    bot = model.players[Mark.O]
    assert isinstance(bot, GeneticBot) and bot.generations == 2 and model.player_name(Mark.X) == "human"
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        BoardModel("nobody")


def test_the_static_board_shows_every_square_with_coordinates() -> None:
    model = BoardModel("human", "human", rounds=2)
    model.click("c3")
    page = model._repr_html_()
    assert page.count('<td title="') == 64 and page.count(">X<") == 5 and page.count(">O<") == 4
    assert page.count("outline:") == 1 and 'title="c3" style="' in page
    for label in [*"abcdefgh", *"12345678"]:
        assert re.search(rf'<td style="[^"]*">{label}</td>', page), label
    # every square centres its mark itself (a notebook's table style aligns cells right), in a font
    # whose O is not read as 0
    assert page.count("text-align:center") == 100 and "monospace" not in page
    assert board_html(model.game, model.state) != board_html(model.game, model.game.root)


# The widget.


def descriptions(board: AdjacencyBoard) -> dict[str, str]:
    """The marks the square buttons show, by square name."""
    return {button.tooltip: button.description for button in board.squares if button.description}


def test_the_widget_builds_a_grid_with_coordinates() -> None:
    board = AdjacencyBoard("human", "human", rounds=2)
    grid = board.widget.children[1]
    assert len(board.squares) == 64 and len(grid.children) == 100
    assert descriptions(board) == {"a1": "X", "b1": "X", "a2": "X", "b2": "X",
                                   "g7": "O", "h7": "O", "g8": "O", "h8": "O"}
    # Row 0 and 9 hold the files, column 0 and 9 the ranks; rank 8 is row 1, so a8 is cell 11, h1 cell 88.
    assert grid.children[11] is board.square_button("a8") and grid.children[88] is board.square_button("h1")
    assert "X 4, O 4" in board.status.value and "X (human) to move" in board.status.value
    bundle = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle and "<table" in bundle["text/html"]


def test_a_click_moves_and_the_bot_replies() -> None:
    board = AdjacencyBoard("human", LowestSquareBot(), rounds=2)
    board.square_button("c3").click()
    board.wait(10)
    # X c3 flips nothing; O's lowest empty square is c1, next to b1 and b2: both flip. X 3, O 7.
    shown = descriptions(board)
    assert (shown["c3"], shown["c1"], shown["b1"], shown["b2"], shown["a1"]) == ("X", "O", "O", "O", "X")
    assert "X 3, O 7" in board.status.value and "O (lowest) played c1" in board.thinking.value
    assert board.message.value == ""


def test_an_illegal_click_says_why_and_changes_nothing() -> None:
    board = AdjacencyBoard("human", LowestSquareBot(), rounds=2)
    before = descriptions(board)
    board.square_button("h8").click()
    assert board.message.value == "h8 is occupied by O"
    assert descriptions(board) == before and board.model.history == []


def test_a_bot_playing_x_moves_first_by_itself() -> None:
    board = AdjacencyBoard(LowestSquareBot(), "human", rounds=2)
    board.wait(10)
    assert descriptions(board)["c1"] == "X" and "O (human) to move" in board.status.value
    board.square_button("d4").click()
    board.wait(10)
    assert descriptions(board)["d1"] == "X" and len(board.model.history) == 3
    board.undo.click()
    assert "d4" not in descriptions(board) and "d1" not in descriptions(board)
    assert len(board.model.history) == 1


def test_two_bots_step_and_play_to_the_end() -> None:
    board = AdjacencyBoard(LowestSquareBot(), LowestSquareBot(), rounds=2, pause=0.0)
    assert board.model.history == []  # bots wait for Bot move or Play
    board.bot_move.click()
    board.wait(10)
    assert descriptions(board)["c1"] == "X" and len(board.model.history) == 1
    board.play.value = True
    board.wait(10)
    assert {name: descriptions(board)[name] for name in LOWEST_GAME_END} == LOWEST_GAME_END
    assert "Game over after 2 rounds · X 5, O 7 · O (lowest) wins" in board.status.value
    assert board.play.value is False and board.play.disabled and board.bot_move.disabled


def test_pause_stops_after_the_move_in_progress() -> None:
    bot = GatedBot()
    board = AdjacencyBoard(bot, bot, rounds=2, pause=0.0)
    board.play.value = True
    assert bot.started.wait(10)
    board.square_button("c3").click()  # clicks wait while a bot thinks
    assert "is thinking" in board.message.value
    board.play.value = False
    assert board.play.description == "▶ Play"
    bot.gate.set()
    board.wait(10)
    assert len(board.model.history) == 1 and not board.model.is_over


def test_new_game_uses_the_controls() -> None:
    board = AdjacencyBoard("human", LowestSquareBot(), rounds=2)
    board.square_button("c3").click()
    board.wait(10)
    board.rule.value, board.rounds.value, board.seconds.value = 4, 3, 0.5
    board.x_player.value, board.o_player.value = "lowest", "human"
    board.new_game.click()
    board.wait(10)
    model: Any = board.model
    assert (model.game.rule, model.game.rounds, model.seconds) == (4, 3, 0.5)
    assert model.player_name(Mark.X) == "lowest" and len(model.history) == 1  # the bot opened
    assert "Round 1 of 3" in board.status.value and "O (human) to move" in board.status.value


def test_in_a_browser_the_bot_replies_within_the_click_with_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide starts no thread (it raises): there the bot's reply is played within the click itself."""
    import gamelib.view.board as board_module

    def no_thread(*args: object, **options: object) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(board_module, "in_browser", lambda: True)
    import threading

    monkeypatch.setattr(threading, "Thread", no_thread)  # the board's module uses threading.Thread
    board = AdjacencyBoard("human", LowestSquareBot(), rounds=2)
    board.square_button("c3").click()  # no wait: the reply is already there
    shown = descriptions(board)
    assert (shown["c3"], shown["c1"]) == ("X", "O") and "X 3, O 7" in board.status.value
    two = AdjacencyBoard(LowestSquareBot(), LowestSquareBot(), rounds=2, pause=0.0)
    two.play.value = True
    assert {name: descriptions(two)[name] for name in LOWEST_GAME_END} == LOWEST_GAME_END
