"""Lesson 10, exercise 2: slow.py with a deadline.

The submission's loop never ended. This one searches deeper and deeper (depth 1, 2, 3, ...: negamax
on the marks each side holds), keeps the best move of the last depth it finished, and returns it
when half of ``seconds`` is used: the rest is for the answer to travel back to the tournament and
for a busy machine. A depth cut short by the deadline is thrown away.
"""

import time

from gamelib.play.bots.base import Decision


class OutOfTime(Exception):
    pass


class SlowBot:
    name = "slow"

    def choose(self, game, state, seconds):
        deadline = time.monotonic() + seconds / 2
        moves = game.legal_moves(state)
        best = moves[0]
        depth = 1
        while depth <= 2 * len(moves):
            try:
                best = max(moves, key=lambda move: -self.value(game, game.result(state, move), depth - 1, deadline))
            except OutOfTime:
                break
            depth += 1
        return Decision(move=best)

    def value(self, game, state, depth, deadline):
        """The marks the side to move holds more than the other, ``depth`` plies on (negamax)."""
        if time.monotonic() > deadline:
            raise OutOfTime
        if depth == 0 or game.is_terminal(state):
            mine, theirs = game.counts(state) if state.to_move.value == "X" else game.counts(state)[::-1]
            return mine - theirs
        return max(-self.value(game, game.result(state, move), depth - 1, deadline) for move in game.legal_moves(state))
