"""Layer 2, the searches: one traced negamax core and the algorithms built on it.

``negamax`` (minimax, alpha-beta, NegaScout/PVS, alpha-beta with memory), ``mtdf`` (MTD(f) and
iterative deepening), ``clock`` (iterative deepening's time rules), ``expectimax`` (expectiminimax, expectimax and
Star1 at chance nodes), ``mcts`` (Monte Carlo tree search with UCT), ``ttable`` (the transposition table), ``tracing`` (the tracer hooks and
recorded events), ``algorithms`` (every search by name), ``pitfalls`` (deliberately broken parts
for lessons) and ``random_trees`` (seeded trees, ordered by their minimax values). Imports only
:mod:`gamelib.games`.
"""
