"""A student-style entry that forgets its deadline: it searches forever and never answers."""


class SlowBot:
    name = "slow"

    def choose(self, game, state, seconds):
        while True:  # the tournament ends it after the time limit plus the grace
            pass
