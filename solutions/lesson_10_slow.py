"""Lesson 10, exercise 2: slow.py with a deadline.

The submission's loop never ended. This one searches the moves one at a time, keeps the best found so
far (the move that leaves it the most marks, as greedy.py's), and stops when half of ``seconds`` is
used: the rest is for the answer to travel back to the tournament and for a busy machine.
"""

import time

from gamelib.play.bots.base import Decision


class SlowBot:
    name = "slow"

    def choose(self, game, state, seconds):
        deadline = time.monotonic() + seconds / 2
        side = 0 if state.to_move.value == "X" else 1
        moves = game.legal_moves(state)
        best, most = moves[0], -1
        for move in moves:
            if time.monotonic() > deadline:
                break
            marks = game.counts(game.result(state, move))[side]
            if marks > most:
                best, most = move, marks
        return Decision(move=best)
