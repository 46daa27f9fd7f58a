"""Lesson 10, exercise 2: slow.py with a deadline.

The submission's loop never ended. This one keeps the best move found so far and returns it in
time: first the move that leaves it the most marks (greedy.py's), then, while time is left, each
move judged two plies deep (the fewest marks the opponent's best reply leaves it), stopping when
half of ``seconds`` is used; the rest is for the answer to travel back to the tournament and for a
busy machine. With a whole move's time, it would search all the second ply on an early board.
"""

import time

from gamelib.play.bots.base import Decision


class SlowBot:
    name = "slow"

    def choose(self, game, state, seconds):
        deadline = time.monotonic() + seconds / 2
        side = 0 if state.to_move.value == "X" else 1
        moves = game.legal_moves(state)
        best = max(moves, key=lambda move: game.counts(game.result(state, move))[side])
        best_worst = None
        for move in moves:
            after = game.result(state, move)
            if game.is_terminal(after):
                continue
            worst = None
            for reply in game.legal_moves(after):
                if time.monotonic() > deadline:
                    return Decision(move=best)
                mine = game.counts(game.result(after, reply))[side]
                worst = mine if worst is None else min(worst, mine)
            if best_worst is None or worst > best_worst:
                best, best_worst = move, worst
        return Decision(move=best)
