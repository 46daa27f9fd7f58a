"""The human player: a person types a square name at the terminal.

Bad input (not a square, an occupied square) gets the reason and the question again; ``?`` lists
the empty squares. The end of input raises EOFError and Ctrl-C KeyboardInterrupt, which
``python -m gamelib play`` turns into a one-line goodbye.

>>> import io
>>> from gamelib.games.adjacency import AdjacencyGame, square_name
>>> game, out = AdjacencyGame(), io.StringIO()
>>> human = HumanPlayer(input=io.StringIO("z9\\na1\\nc3\\n"), output=out)
>>> square_name(human.choose(game, game.root, 5.0).move)
'c3'
>>> for line in out.getvalue().splitlines():
...     print(line.split(": ", 1)[1])
bad square 'z9': give a file a-h and a rank 1-8, like 'c3'
a1 is occupied by X
<BLANKLINE>
"""

from __future__ import annotations

import sys
from typing import TextIO

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Square, parse_square, square_name
from gamelib.games.game import IllegalMoveError
from gamelib.play.bots.base import Decision
from gamelib.search.time_rules import now

__all__ = ["HumanPlayer"]


class HumanPlayer:
    """Asks for each move on ``output`` and reads it from ``input`` (the terminal by default).

    It plays the Adjacency game (moves are square names) and takes no time limit: ``seconds`` is
    ignored and the decision's ``seconds`` is how long the person took.
    """

    name = "human"

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self.input = input
        self.output = output

    def choose(self, game: AdjacencyGame, state: AdjacencyState, seconds: float) -> Decision:
        """The first legal square typed for ``state``. Raises EOFError at the end of input and
        ValueError if the game is over."""
        if game.is_terminal(state):
            raise ValueError("the game is over: there is no move to make")
        start = now()
        prompt = f"{state.to_move.value} to move, a square like c3 (? lists them): "
        while True:
            reason, move = self._read_move(game, state, self._ask(prompt))
            if move is not None:
                return Decision(move=move, seconds=now() - start, note="typed")
            self._say(reason)

    def _read_move(self, game: AdjacencyGame, state: AdjacencyState, text: str) -> tuple[str, Square | None]:
        """(why not, None) if ``text`` is no legal move in ``state``, else ("", the square)."""
        if text == "?":
            return "empty squares: " + " ".join(square_name(s) for s in game.legal_moves(state)), None
        try:
            move = parse_square(text)
            game.result(state, move)  # raises IllegalMoveError, saying why
        except (ValueError, IllegalMoveError) as error:
            return str(error), None
        return "", move

    def _ask(self, prompt: str) -> str:
        """One stripped, lower-cased line typed after ``prompt``. Raises EOFError at the end of input."""
        if self.input is None and self.output is None:
            return input(prompt).strip().lower()  # the builtin: line editing on a terminal
        self._write(prompt)
        line = (self.input or sys.stdin).readline()
        if not line:
            raise EOFError("the input ended")
        return line.strip().lower()

    def _say(self, text: str) -> None:
        self._write(text + "\n")

    def _write(self, text: str) -> None:
        output = self.output or sys.stdout
        output.write(text)
        output.flush()

    def __repr__(self) -> str:
        return "HumanPlayer()"
