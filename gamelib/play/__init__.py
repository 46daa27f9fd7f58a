"""Layer 3, play: bots for the Adjacency game, the arena that pits them against each other, the
game records and match statistics, the engine line protocol, and the game commands of the CLI.
Imports only :mod:`gamelib.games` and :mod:`gamelib.search`.
"""
