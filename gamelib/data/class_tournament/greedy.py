"""A student-style entry that plays well: the move that leaves it the most marks (one ply)."""

from gamelib.play.bots.base import Decision


class GreedyBot:
    name = "greedy"

    def choose(self, game, state, seconds):
        side = 0 if state.to_move.value == "X" else 1
        best = max(game.legal_moves(state), key=lambda move: game.counts(game.result(state, move))[side])
        return Decision(move=best)
