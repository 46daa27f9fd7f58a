"""Layer 2, the searches: one traced negamax core and the algorithms built on it.

``negamax`` (minimax, alpha-beta, NegaScout/PVS, alpha-beta with memory), ``mtdf`` (MTD(f)),
``deepening`` (iterative deepening), ``time_rules`` (the clock and iterative deepening's time
rules), ``expectimax`` (expectiminimax, expectimax and Star1 at chance nodes), ``maxn`` (max^n),
``mcts`` (Monte Carlo tree search with UCT), ``ttable`` (the transposition table), ``tracing`` (the
tracer hooks and recorded events), ``algorithms`` (every search by name), ``heuristics`` (move
ordering), ``pitfalls`` (deliberately broken tables for lesson 4) and ``random_trees`` (seeded
trees, ordered by their minimax values). Imports only :mod:`gamelib.games`, and of the games only
what :mod:`gamelib.games.game` declares.
"""
