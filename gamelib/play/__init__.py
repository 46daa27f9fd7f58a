"""Layer 3, play: bots for the Adjacency game (``bots``), the arena that pits them against each
other from balanced openings, game records, what a match or a tournament's games say
(``match_stats``), ratings and the SPRT (``ratings``), strength against an earlier version, the
engine line protocol, tournaments of submitted entries, the box that runs untrusted code (``box``),
and the game commands of the CLI. Imports only :mod:`gamelib.games` and :mod:`gamelib.search`.
"""
