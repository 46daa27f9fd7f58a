"""What the notebook board shows, without a browser: a game between people and bots, and its HTML.

:class:`BoardModel` holds one Adjacency game (seed 002): who plays X and O (a bot name for
:func:`gamelib.play.bots.make_bot`, a bot object, or ``"human"`` for clicks), the position, and the
history of plies with each bot's :class:`~gamelib.play.bots.base.Decision`. It applies a human's click,
asks a bot for its move, undoes a human's last move and describes the game in words. The ipywidgets
board (:mod:`gamelib.view.board_widget`) only displays a model and forwards clicks to it.

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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Mark, Outcome, Square, parse_square, square_name
from gamelib.games.game import format_value
from gamelib.play.bots.base import Bot, Decision, make_bot

__all__ = ["HUMAN", "BoardModel", "Ply", "TurnError", "board_html", "describe_decision"]

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
