"""Pig with a turn limit: a dice game with chance nodes, small enough to solve exactly.

Pig (a folk game; Neller & Presser, "Optimal Play of the Dice Game Pig", *UMAP Journal* 25(1),
2004): on your turn you roll a die again and again, adding each roll to a turn total, until you
hold (the total joins your score) or roll a 1 (the total is lost); either ends your turn.

Plain Pig can go on for ever (both players rolling 1s return to the same scores), so a search
that recurses over its states never ends: expectiminimax is defined on a finite tree, and Neller
and Presser need value iteration instead. This Pig has a limit of ``turns`` turns for both
players together, counted in the state: every turn ends with the count one lower, and within a
turn every roll raises the turn total, so no state comes back and the game tree is finite. Who
first has ``target`` points (banked score plus turn total: holding then would win anyway) wins
at once; when the turns run out, the higher score wins and equal scores draw.

MAX moves first. A state is MAX's or MIN's choice (``"roll"`` or ``"hold"``) or, after a roll, a
chance node whose moves are the die's faces 1 to ``sides``, each with probability 1/sides.
Values are from MAX's point of view: +1 a win, -1 a loss, 0 a draw, so a state's expectiminimax
value is P(MAX wins) - P(MIN wins) under best play by both.

>>> game = Pig(target=4, turns=2, sides=3)
>>> game.legal_moves(game.root), game.to_move(game.result(game.root, "roll"))
(('roll', 'hold'), <Player.CHANCE: 'chance'>)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gamelib.games.game import IllegalMoveError, Player, Value

__all__ = ["Pig", "PigMove", "PigState"]

PigMove = str | int
"""``"roll"`` or ``"hold"`` at a player's choice; a face 1 to ``sides`` at a chance node."""

_CHOICES = ("roll", "hold")


@dataclass(frozen=True)
class PigState:
    """One position: banked ``scores`` (MAX's, MIN's), the mover's turn ``total``, the ``turns``
    left (the current one included), who is rolling (``mover``), and whether the die is in the
    air (``rolling``: a chance node)."""

    scores: tuple[int, int]
    total: int
    turns: int
    mover: Player
    rolling: bool = False

    def __str__(self) -> str:
        """``"MAX 3 MIN 5, max +2, 4 turns"``, with ``" rolling"`` at a chance node."""
        return (f"MAX {self.scores[0]} MIN {self.scores[1]}, {self.mover.value} +{self.total}, {self.turns} turns"
                + " rolling" * self.rolling)


@dataclass(frozen=True)
class Pig:
    """The rules: first to ``target`` points wins, at most ``turns`` turns, a die of ``sides`` faces.
    Raises ValueError for a target, turn count or die below 1, 1 and 2."""

    target: int = 6
    turns: int = 4
    sides: int = 6

    def __post_init__(self) -> None:
        if self.target < 1 or self.turns < 1 or self.sides < 2:
            raise ValueError(f"Pig needs target >= 1, turns >= 1 and sides >= 2; got target={self.target}, "
                             f"turns={self.turns}, sides={self.sides}")

    @property
    def value_range(self) -> tuple[Value, Value]:
        """(-1, 1): a loss and a win for MAX."""
        return (-1, 1)

    @property
    def has_chance(self) -> bool:
        """True: the die makes chance nodes, so searches without them (alpha-beta...) refuse Pig."""
        return True

    @property
    def root(self) -> PigState:
        """No points, MAX to roll, every turn left."""
        return PigState((0, 0), 0, self.turns, Player.MAX)

    def to_move(self, state: PigState) -> Player:
        """The mover at a choice, ``Player.CHANCE`` while the die rolls."""
        return Player.CHANCE if state.rolling else state.mover

    def legal_moves(self, state: PigState) -> tuple[PigMove, ...]:
        """``("roll", "hold")``, the die's faces while it rolls, nothing once the game is over."""
        if self.is_terminal(state):
            return ()
        return tuple(range(1, self.sides + 1)) if state.rolling else _CHOICES

    def chance_outcomes(self, state: PigState) -> tuple[tuple[PigMove, float], ...]:
        """Each face with probability 1/sides (a fair die)."""
        return tuple((face, 1 / self.sides) for face in self.legal_moves(state))

    def result(self, state: PigState, move: PigMove) -> PigState:
        """The state after ``move``. Raises IllegalMoveError for a move not in ``legal_moves``."""
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"{move!r} is not a move of {state}: play one of {self.legal_moves(state)}")
        if move == "roll":
            return replace(state, rolling=True)
        if move == "hold":
            return self._next_turn(state, state.total)
        assert isinstance(move, int)
        if move == 1:
            return self._next_turn(state, 0)
        return replace(state, total=state.total + move, rolling=False)

    def _next_turn(self, state: PigState, banked: int) -> PigState:
        mine = 0 if state.mover is Player.MAX else 1
        scores = tuple(score + banked * (side == mine) for side, score in enumerate(state.scores))
        return PigState((scores[0], scores[1]), 0, state.turns - 1, state.mover.other)

    def _reached(self, state: PigState) -> bool:
        mine = 0 if state.mover is Player.MAX else 1
        return state.scores[mine] + state.total >= self.target

    def is_terminal(self, state: PigState) -> bool:
        """True once a player has ``target`` points (score plus turn total) or no turn is left."""
        return state.turns == 0 or self._reached(state) or max(state.scores) >= self.target

    def evaluate(self, state: PigState) -> Value:
        """+1 if MAX has won, -1 if MIN has, 0 for a draw; before the end (a depth limit), the
        banked lead over the target, MAX's view: (MAX's score - MIN's score) / target, in (-1, 1)."""
        mine = 0 if state.mover is Player.MAX else 1
        points = [state.scores[0], state.scores[1]]
        points[mine] += state.total
        if max(points) >= self.target or state.turns == 0:
            return (points[0] > points[1]) - (points[0] < points[1])
        return (state.scores[0] - state.scores[1]) / self.target

    def node_id(self, state: PigState) -> str:
        """The state as text (see :meth:`PigState.__str__`)."""
        return str(state)
