"""Layer 1, the games: the :class:`~gamelib.games.game.Game` protocol and what follows it.

``game`` (the protocol, its optional methods and values), explicit trees (``trees``, with their JSON
format, chance nodes included; ``tree_text`` for trees typed as text and Berkeley CS188's ``.test``
trees; the seeds' trees in ``data``), ``multiplayer`` (trees of three or more players), Pig with a
turn limit (``pig``, a dice game with chance nodes), ``tictactoe``, the Adjacency Strategy Game of
seed 002 (the ``adjacency`` package), ``zobrist`` keys, and ``user_text``: what a person types,
checked as it enters, and the CSV cells every writer of the course makes safe for a spreadsheet
(here so that any layer can import it). Imports nothing else of gamelib.
"""
