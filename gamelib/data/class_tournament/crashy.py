"""A student-style entry with a bug: it indexes past the end of its list of moves."""

from gamelib.play.bots.base import Decision


class CrashyBot:
    name = "crashy"

    def choose(self, game, state, seconds):
        moves = game.legal_moves(state)
        return Decision(move=moves[len(moves)])  # IndexError: one past the end
