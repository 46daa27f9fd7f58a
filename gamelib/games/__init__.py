"""Layer 1, the games: the :class:`~gamelib.games.game.Game` protocol and what follows it.

Explicit trees (``trees``, with their JSON format and the seeds' trees in ``data``), tic-tac-toe,
the Adjacency Strategy Game of seed 002 (rules, evaluation features, move lookahead) and Zobrist
keys. Imports nothing else of gamelib.
"""
