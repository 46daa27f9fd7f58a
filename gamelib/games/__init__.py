"""Layer 1, the games: the :class:`~gamelib.games.game.Game` protocol and what follows it.

Explicit trees (``trees``, with their JSON format, chance nodes included, and the seeds' trees in
``data``; ``cs188`` reads Berkeley CS188's ``.test`` trees), Pig with a turn limit (``pig``, a dice
game with chance nodes), tic-tac-toe,
the Adjacency Strategy Game of seed 002 (rules, evaluation features, move lookahead) and Zobrist
keys; and the cells every CSV writer of the course writes, safe for a spreadsheet
(``spreadsheet``, here so that any room can import it). Imports nothing else of gamelib.
"""
