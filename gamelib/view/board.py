"""The clickable Adjacency board for the notebooks: people and bots on an ipywidgets 8x8 grid, and its model.

:class:`AdjacencyBoard` displays a :class:`~gamelib.view.board.BoardModel` and forwards clicks to
it: a grid of 64 buttons with files a-h and ranks 1-8 around it, a status line (round, rounds left,
both scores, who is to move, the winner at the end), a line with the latest bot's thinking (depth,
value from X's point of view, time, nodes, its note), and a line that says why a click was refused
(an occupied square, a bot's turn) while the board stays as it was.

Below the board: **Bot move** asks the bot to move for one move; **Play** / **Pause** lets two bots
play on, pausing ``pause`` seconds between moves; **Undo** takes back the latest human move and the
bot replies after it; **New game** starts over with the players (bot names, or "human" for clicks),
rule (8 or 4 neighbours), rounds and think time chosen in the controls. When a human plays a bot,
the bot replies by itself.

Bots think in a background thread (``threading.Thread``), so the kernel stays free while a bot
thinks and while two bots play: other cells run, Pause is heard at once and takes effect after the
move in progress. The widgets are updated from that thread. :meth:`AdjacencyBoard.wait` blocks until
the bots have stopped, for scripts and tests. In a browser's Python (Pyodide), where no thread can
start, a bot moves within the click that asks for it, and the board waits for it; two bots on Play
play their game out within the click, the board drawn after each move. Outside a kernel with widgets (a rendered notebook)
the board shows as a static HTML table (:func:`gamelib.view.board.board_html`).

>>> board = AdjacencyBoard(x="human", o="hillclimb", rounds=4)
>>> board.square_button("f7").click()  # X on f7 flips g7 and g8; the bot replies f8
>>> board.wait()
>>> board.square_button("f8").description, board.model.counts
('O', (4, 6))
>>> board.square_button("f8").click()
>>> board.message.value
'f8 is occupied by O'

What the notebook board shows, without a browser: a game between people and bots, and its HTML.

:class:`BoardModel` holds one Adjacency game (seed 002): who plays X and O (a bot name for
:func:`gamelib.play.bots.make_bot`, a bot object, or ``"human"`` for clicks), the position, and the
history of plies with each bot's :class:`~gamelib.play.bots.base.Decision`. It applies a human's click,
asks a bot for its move, undoes a human's last move and describes the game in words. The ipywidgets
board (:mod:`gamelib.view.board`) only displays a model and forwards clicks to it.

:func:`board_html` draws a position as a static HTML table with coordinates, so a lesson shows a
board even where widgets do not run (a model's ``_repr_html_`` uses it).

>>> model = BoardModel(x="human", o="hillclimb", rounds=4)
>>> model.click("f7")  # X on f7 flips g7 and g8
>>> model.status()
'Round 1 of 4, 4 rounds left · X 7, O 2 · O (hillclimb) to move'
>>> square_name(model.bot_move().move)  # the only square next to three X marks: f7 g7 g8
'f8'
>>> model.counts, model.undo(), model.counts
((4, 6), 2, (4, 4))
"""

from __future__ import annotations

import html
import math
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamelib.games.adjacency import (
    AdjacencyGame,
    AdjacencyState,
    Mark,
    Outcome,
    Square,
    parse_square,
    square_name,
)
from gamelib.games.game import format_value
from gamelib.play.bots.base import BOT_NAMES, Bot, Decision, make_bot
from gamelib.play.box.stepped import in_browser

__all__ = ["AdjacencyBoard", "BoardModel", "HUMAN", "Ply", "TurnError", "board_html", "describe_decision"]


HUMAN = "human"
"""The player name that means "moves by clicking on the board"."""


class TurnError(ValueError):
    """A move asked of the wrong player: a click on a bot's turn, a bot move on a human's, any move
    after the end, or an undo with no human move to take back."""


@dataclass(frozen=True)
class Ply:
    """One move in the history: the ``before`` position, the ``move`` (a square), the ``mark`` that
    made it, and the bot's ``decision`` (None for a human's click)."""

    before: AdjacencyState
    move: Square
    mark: Mark
    decision: Decision | None = None


class BoardModel:
    """An Adjacency game between ``x`` and ``o``: each a bot name (see :data:`gamelib.play.bots.BOT_NAMES`),
    a bot object, or ``"human"``.

    ``rounds``, ``rule`` (8 or 4) and ``first`` make the :class:`~gamelib.games.adjacency.AdjacencyGame`;
    bots get ``seconds`` of wall time per move; ``options`` maps a bot name to the keyword
    arguments it is built with (``{"genetic": {"seed": 1}}``). Raises ValueError for an unknown bot
    name or a bad rule or round count.
    """

    def __init__(self, x: str | Bot = HUMAN, o: str | Bot = "hillclimb", *, rounds: int = 28, rule: int = 8,
                 first: Mark | str = Mark.X, seconds: float = 1.0,
                 options: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.game = AdjacencyGame(rounds=rounds, rule=rule, first=first)
        self.seconds = seconds
        self.players: dict[Mark, Bot | None] = {Mark.X: _player(x, options), Mark.O: _player(o, options)}
        self.state = self.game.root
        self.history: list[Ply] = []

    # What the board shows.

    @property
    def to_move(self) -> Mark:
        """The mark to move (also at the end, where nobody moves)."""
        return self.state.to_move

    @property
    def is_over(self) -> bool:
        """True when the rounds are used up or the board is full."""
        return self.game.is_terminal(self.state)

    @property
    def is_human_turn(self) -> bool:
        """True if the game goes on and the side to move plays by clicks."""
        return not self.is_over and self.players[self.to_move] is None

    @property
    def counts(self) -> tuple[int, int]:
        """(X marks, O marks) on the board."""
        return self.game.counts(self.state)

    @property
    def rounds_left(self) -> int:
        """Rounds not yet finished: a round ends when both players have moved."""
        return math.ceil(self.state.plies_left / 2)

    @property
    def last_decision(self) -> Decision | None:
        """The decision of the latest ply if a bot played it, else None."""
        return self.history[-1].decision if self.history else None

    def player_name(self, mark: Mark) -> str:
        """The name of who plays ``mark``: "human" or the bot's name."""
        player = self.players[mark]
        return HUMAN if player is None else player.name

    def status(self) -> str:
        """One line: the round, both scores, and who is to move or how the game ended."""
        x, o = self.counts
        scores = f"X {x}, O {o}"
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            result = "a draw" if outcome is Outcome.DRAW else f"{outcome.value} ({self.player_name(Mark(outcome.value))}) wins"
            return f"Game over after {self.game.rounds} rounds · {scores} · {result}"
        played = self.game.rounds - self.rounds_left + 1
        return (f"Round {played} of {self.game.rounds}, {self.rounds_left} rounds left · {scores} · "
                f"{self.to_move.value} ({self.player_name(self.to_move)}) to move")

    def thinking(self) -> str:
        """One line about the latest bot move (see :func:`describe_decision`); "" if a human moved last."""
        if not self.history or self.history[-1].decision is None:
            return ""
        ply = self.history[-1]
        assert ply.decision is not None
        return describe_decision(f"{ply.mark.value} ({self.player_name(ply.mark)})", ply.decision)

    def flipped(self) -> int:
        """The bitboard of the marks the latest move flipped (0 before the first move)."""
        if not self.history:
            return 0
        ply = self.history[-1]
        before = ply.before.o if ply.mark is Mark.X else ply.before.x
        return before & ~(self.state.o if ply.mark is Mark.X else self.state.x)

    # Moves.

    def click(self, square: Square | str) -> None:
        """Play ``square`` (0..63 or a name like "c3") for the human to move.

        Raises TurnError if the game is over or a bot is to move, NotationError for a bad square
        name, and IllegalMoveError (naming the square) for an occupied square; nothing changes
        when it raises.
        """
        if not self.is_human_turn:
            raise TurnError(self._not_your_turn())
        move = parse_square(square) if isinstance(square, str) else square
        self._play(move, None)

    def bot_move(self) -> Decision:
        """Ask the bot to move to choose within ``seconds`` and play its move; return its decision.

        Raises TurnError if the game is over or a human is to move.
        """
        bot = None if self.is_over else self.players[self.to_move]
        if bot is None:
            raise TurnError(self._not_your_turn() if self.is_over else
                            f"{self.to_move.value} is played by clicks, not by a bot")
        decision = bot.choose(self.game, self.state, self.seconds)
        self._play(decision.move, decision)
        return decision

    def undo(self) -> int:
        """Take back the latest human move and every bot move after it; return how many plies.

        Raises TurnError if no human has moved yet.
        """
        humans = [i for i, ply in enumerate(self.history) if ply.decision is None]
        if not humans:
            raise TurnError("nothing to undo: no human move yet")
        taken = len(self.history) - humans[-1]
        self.state = self.history[humans[-1]].before
        del self.history[humans[-1]:]
        return taken

    def _play(self, move: Square, decision: Decision | None) -> None:
        after = self.game.result(self.state, move)
        self.history.append(Ply(self.state, move, self.to_move, decision))
        self.state = after

    def _not_your_turn(self) -> str:
        if self.is_over:
            return "the game is over: start a new one"
        return f"it is {self.to_move.value}'s turn, played by {self.player_name(self.to_move)}"

    def _repr_html_(self) -> str:
        return board_html(self.game, self.state, last=self.history[-1].move if self.history else None,
                          flipped=self.flipped(), caption=self.status())


def _player(player: str | Bot, options: Mapping[str, Mapping[str, Any]] | None) -> Bot | None:
    """None for a human, the bot itself, or the bot built by name with its ``options``."""
    if not isinstance(player, str):
        return player
    if player == HUMAN:
        return None
    return make_bot(player, **(options or {}).get(player, {}))


def describe_decision(who: str, decision: Decision) -> str:
    """One line about a bot's move, e.g. "O (hillclimb) played c3: depth 1, value −5, 0.00 s, 56 nodes".

    ``value`` is from MAX's (X's) point of view; the bot's note follows after a dot.

    >>> describe_decision("X (genetic)", Decision(move=18, value=3, seconds=0.25, nodes=120, note="4 plies"))
    'X (genetic) played c3: depth –, value 3, 0.25 s, 120 nodes · 4 plies'
    """
    depth = "–" if decision.depth is None else str(decision.depth)
    text = (f"{who} played {square_name(decision.move)}: depth {depth}, value {format_value(decision.value)}, "
            f"{decision.seconds:.2f} s, {decision.nodes} nodes")
    return f"{text} · {decision.note}" if decision.note else text


CELL_COLOURS: dict[str, str] = {"X": "#1f5fa8", "O": "#c0392b", ".": "#f4f1e8"}
"""Background colours of the cells of :func:`board_html` by mark; change them to restyle."""


def board_html(game: AdjacencyGame, state: AdjacencyState, *, last: Square | None = None, flipped: int = 0,
               caption: str = "") -> str:
    """A static HTML table (class ``gamelib-board``) of ``state``: files a-h above and below, ranks 8-1 on both sides, marks
    coloured by :data:`CELL_COLOURS`, the ``last`` move outlined and ``flipped`` squares (a
    bitboard) underlined; ``caption`` (plain text) goes above the board.

    >>> page = board_html(AdjacencyGame(), AdjacencyGame().root, caption="the start")
    >>> page.count("<td"), page.count(">X<"), page.count(">O<"), "the start" in page
    (100, 4, 4, True)
    """
    board = game.board_string(state)
    label = f'<td style="{_CELL};color:#555555;border:none;background:transparent">{{}}</td>'
    files = "<tr>" + label.format("") + "".join(label.format(f) for f in "abcdefgh") + label.format("") + "</tr>"
    rows = [files]
    for row in range(8):
        rank = 8 - row
        cells = "".join(_cell_html(board[8 * row + col], 8 * (rank - 1) + col, last, flipped) for col in range(8))
        rows.append(f"<tr>{label.format(rank)}{cells}{label.format(rank)}</tr>")
    rows.append(files)
    head = f'<caption style="caption-side:top;text-align:left">{html.escape(caption)}</caption>' if caption else ""
    return (f'<table class="gamelib-board" style="border-collapse:collapse;font-family:{BOARD_FONT};margin:0">'
            f"{head}{''.join(rows)}</table>")


BOARD_FONT = "Helvetica, Arial, sans-serif"
"""The static board's font: a sans-serif whose O is round and wide, unlike its narrow 0 (a
monospaced font's bold O and 0 look alike)."""

_CELL = ("width:1.9em;height:1.9em;min-width:1.9em;padding:0;text-align:center;vertical-align:middle;"
         "line-height:1.9em;font-size:15px")
"""Every square of the static board, set on the cell itself: a notebook's table style (cells aligned
right, padded) does not move its mark off the centre."""


def _cell_html(mark: str, square: Square, last: Square | None, flipped: int) -> str:
    """One square of :func:`board_html`."""
    style = (f"{_CELL};border:1px solid #999;background:{CELL_COLOURS[mark]};"
             f"color:white;font-weight:bold")
    if square == last:
        style += ";outline:3px solid #f1c40f"
    if flipped >> square & 1:
        style += ";text-decoration:underline"
    text = "" if mark == "." else mark
    return f'<td title="{square_name(square)}" style="{style}">{text}</td>'


SQUARE_PX = 38
"""The side of a square button, in pixels."""


class AdjacencyBoard:
    """An ipywidgets board for an Adjacency game between ``x`` and ``o`` (bot names, bot objects or
    ``"human"``); ``rounds``, ``rule``, ``seconds`` (a bot's think time) and ``options`` (keyword
    arguments per bot name) go to :class:`~gamelib.view.board.BoardModel`; ``pause`` is the
    wait between two bots' moves, in seconds.

    Show it by leaving it last in a cell. ``model`` is the game shown; ``squares[s]`` the button of
    square s; ``status``, ``thinking`` and ``message`` the three text lines (HTML widgets); the
    other controls are attributes named after their labels. Raises ValueError as BoardModel does.
    """

    def __init__(self, x: str | Bot = HUMAN, o: str | Bot = "hillclimb", *, rounds: int = 28, rule: int = 8,
                 seconds: float = 1.0, options: Mapping[str, Mapping[str, Any]] | None = None,
                 pause: float = 0.5) -> None:
        import ipywidgets as widgets  # type: ignore[import-untyped]

        self._widgets = widgets
        self._options = options
        self._bots = {p.name: p for p in (x, o) if not isinstance(p, str)}
        self.model = BoardModel(x, o, rounds=rounds, rule=rule, seconds=seconds, options=options)
        self._thread: threading.Thread | None = None
        self._busy = False
        self.squares = [self._square(square) for square in range(64)]
        self.status, self.thinking, self.message = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self._build_controls(x, o, rounds, rule, seconds, pause)
        self.widget = widgets.VBox([self.status, self._grid(), self.thinking, self.message,
                                    widgets.HBox([self.bot_move, self.play, self.pause, self.undo]),
                                    widgets.HBox([self.x_player, self.o_player, self.rule]),
                                    widgets.HBox([self.rounds, self.seconds, self.new_game])])
        self.refresh()
        self._reply()

    # Building.

    def _square(self, square: Square) -> Any:
        """The button of ``square``: clicking it plays there."""
        button = self._widgets.Button(description="", tooltip=square_name(square),
                                      layout=self._widgets.Layout(width=f"{SQUARE_PX}px", height=f"{SQUARE_PX}px",
                                                                  padding="0px"))
        button.on_click(lambda _button: self.click(square))
        return button

    def _grid(self) -> Any:
        """The 10 x 10 grid: the squares, rank 8 on top, with file and rank labels around them."""
        label = self._label
        files = [label(""), *(label(f) for f in "abcdefgh"), label("")]
        cells = list(files)
        for rank in range(8, 0, -1):
            row = [self.squares[8 * (rank - 1) + file] for file in range(8)]
            cells += [label(str(rank)), *row, label(str(rank))]
        cells += [label(""), *(label(f) for f in "abcdefgh"), label("")]
        return self._widgets.GridBox(cells, layout=self._widgets.Layout(
            grid_template_columns=f"repeat(10, {SQUARE_PX}px)", grid_gap="2px", width="max-content"))

    def _label(self, text: str) -> Any:
        return self._widgets.HTML(f"<div style='text-align:center;line-height:{SQUARE_PX}px'>{text}</div>",
                                  layout=self._widgets.Layout(width=f"{SQUARE_PX}px"))

    def _build_controls(self, x: str | Bot, o: str | Bot, rounds: int, rule: int, seconds: float,
                        pause: float) -> None:
        w = self._widgets
        names = [*BOT_NAMES, *(name for name in self._bots if name not in BOT_NAMES)]
        self.bot_move = w.Button(description="Bot move", tooltip="the bot to move plays one move")
        self.play = w.ToggleButton(value=False, description="▶ Play", tooltip="two bots play on; click to pause")
        self.pause = w.FloatSlider(value=pause, min=0.0, max=3.0, step=0.1, description="pause (s)")
        self.undo = w.Button(description="Undo", tooltip="take back your last move and the replies after it")
        self.x_player = w.Dropdown(options=names, value=_name(x), description="X")
        self.o_player = w.Dropdown(options=names, value=_name(o), description="O")
        self.rule = w.ToggleButtons(options=[("8 neighbours", 8), ("4 neighbours", 4)], value=rule,
                                    description="rule")
        self.rounds = w.IntSlider(value=rounds, min=2, max=28, description="rounds")
        self.seconds = w.FloatSlider(value=seconds, min=0.1, max=10.0, step=0.1, description="think (s)")
        self.new_game = w.Button(description="New game", button_style="primary")
        self.bot_move.on_click(lambda _b: self.step())
        self.play.observe(self._on_play, names="value")
        self.undo.on_click(lambda _b: self.take_back())
        self.new_game.on_click(lambda _b: self.restart())
        self.seconds.observe(self._on_seconds, names="value")

    # Actions (the buttons call these; tests and scripts may too).

    def square_button(self, name: str) -> Any:
        """The button of the square called ``name`` ("c3")."""
        return self.squares[parse_square(name)]

    def click(self, square: Square) -> None:
        """A click on ``square``: the human to move plays there, or the message line says why not."""
        if self._busy:
            return self._say(f"wait: {self._who(self.model.to_move)} is thinking")
        try:
            self.model.click(square)
        except ValueError as error:  # TurnError, IllegalMoveError
            return self._say(str(error))
        self._say("")
        self.refresh()
        self._reply()

    def step(self) -> None:
        """One bot move, in the background (Bot move)."""
        if self._busy:
            return
        if self.model.is_over or self.model.is_human_turn:
            return self._say(str(TurnError(self._why_no_bot())))
        self._start(continuous=False)

    def take_back(self) -> None:
        """Undo the latest human move and the bot moves after it."""
        if self._busy:
            return self._say("wait for the bot to finish its move")
        try:
            self.model.undo()
        except TurnError as error:
            return self._say(str(error))
        self._say("")
        self.refresh()

    def restart(self) -> None:
        """A new game with the players, rule, rounds and think time in the controls."""
        if self._busy:
            return self._say("pause the bots first")
        try:
            self.model = BoardModel(self._player(self.x_player.value), self._player(self.o_player.value),
                                    rounds=self.rounds.value, rule=self.rule.value, seconds=self.seconds.value,
                                    options=self._options)
        except (ValueError, ImportError) as error:
            return self._say(f"cannot start that game: {error}")
        self._say("")
        self.refresh()
        self._reply()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the bots' background thread (if any) has stopped, or ``timeout`` seconds."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    # Display.

    def refresh(self) -> None:
        """Show the model: the marks, the latest move (yellow) and the marks it flipped (pale, italic),
        the text lines, and which buttons can be used."""
        board = self.model.game.board_string(self.model.state)
        last = self.model.history[-1].move if self.model.history else None
        flipped = self.model.flipped()
        for square, button in enumerate(self.squares):
            mark = board[8 * (7 - square // 8) + square % 8]
            button.description = "" if mark == "." else mark
            button.style.button_color = CELL_COLOURS[mark]
            button.style.text_color = "#f1c40f" if square == last else "#ffe9a8" if flipped >> square & 1 else "white"
            button.style.font_style = "italic" if flipped >> square & 1 else "normal"
            button.style.font_weight = "bold"
            button.style.font_family = BOARD_FONT  # its O is round: not read as 0
            button.style.font_size = "16px"
        self.status.value = f"<b>{html.escape(self.model.status())}</b>"
        self.thinking.value = html.escape(self.model.thinking())
        self._enable()

    def _enable(self) -> None:
        model, busy = self.model, self._busy
        bots_only = HUMAN not in (model.player_name(Mark.X), model.player_name(Mark.O))
        self.bot_move.disabled = busy or model.is_over or model.is_human_turn
        self.play.disabled = model.is_over or not bots_only
        self.undo.disabled = busy or all(ply.decision is not None for ply in model.history)
        self.new_game.disabled = busy
        self.play.description = "⏸ Pause" if self.play.value else "▶ Play"

    def _say(self, text: str) -> None:
        self.message.value = html.escape(text)

    def _who(self, mark: Mark) -> str:
        return f"{mark.value} ({self.model.player_name(mark)})"

    def _why_no_bot(self) -> str:
        if self.model.is_over:
            return "the game is over: start a new one"
        return f"it is {self._who(self.model.to_move)}'s turn: click a square"

    # Bots in the background.

    def _reply(self) -> None:
        """Let a bot answer a human at once (not when two bots play: they wait for Bot move or Play)."""
        model = self.model
        humans = HUMAN in (model.player_name(Mark.X), model.player_name(Mark.O))
        if humans and not model.is_over and not model.is_human_turn and not self._busy:
            self._start(continuous=True)

    def _on_play(self, change: dict[str, Any]) -> None:
        self._enable()
        if change["new"] and not self._busy:
            self._start(continuous=True)

    def _on_seconds(self, change: dict[str, Any]) -> None:
        self.model.seconds = change["new"]

    def _start(self, continuous: bool) -> None:
        self._busy = True
        self._enable()
        if in_browser():  # no thread can start there: the bots move now, in this call, and the board waits
            self._run_bots(self.model, continuous)
            return
        self._thread = threading.Thread(target=self._run_bots, args=(self.model, continuous), daemon=True,
                                        name="adjacency-board-bots")
        self._thread.start()

    def _run_bots(self, model: BoardModel, continuous: bool) -> None:
        """The thread: bot moves while a bot is to move. Only one unless ``continuous``: then a bot
        answering a human plays until the human is to move, and two bots play while Play is on,
        pausing between moves."""
        bots_only = HUMAN not in (model.player_name(Mark.X), model.player_name(Mark.O))
        try:
            while not model.is_over and not model.is_human_turn:
                self.thinking.value = html.escape(f"{self._who(model.to_move)} is thinking…")
                model.bot_move()
                self.refresh()
                if bots_only and continuous and self.play.value and not model.is_over:
                    time.sleep(self.pause.value)
                if not continuous or (bots_only and not self.play.value):
                    break
        except Exception as error:  # a bot's failure is shown, not lost in the thread
            self._say(f"{self._who(model.to_move)} failed: {type(error).__name__}: {error}")
        finally:
            self._busy = False
            if model.is_over:
                self.play.value = False
            self.refresh()

    def _player(self, name: str) -> str | Bot:
        return self._bots.get(name, name)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, with the static HTML board for front ends that cannot show widgets."""
        bundle: dict[str, Any] = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.model._repr_html_()
        return bundle

    def __repr__(self) -> str:
        model = self.model
        return (f"AdjacencyBoard(x={model.player_name(Mark.X)!r}, o={model.player_name(Mark.O)!r}, "
                f"{model.status()!r})")


def _name(player: str | Bot) -> str:
    return player if isinstance(player, str) else player.name
