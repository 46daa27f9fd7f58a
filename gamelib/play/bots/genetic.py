"""The genetic minimax bot: a genetic algorithm over move sequences, scored by a reservation tree.

After Hong, Huang & Lin (2001), "Adversarial search by evolutionary computation" (Evolutionary
Computation 9(3)), as seed 002 describes it (sections 2.2.3 and 2.3.5):

- a chromosome is a sequence of ``depth`` moves from the position to move in, one per ply for
  both sides (shorter where the game ends);
- every chromosome ever made is stored in a :class:`~gamelib.play.bots.reservation.ReservationTree`,
  whose leaves get the static evaluation and whose inner nodes back up minimax values;
- a chromosome's fitness is the height its leaf's value climbs in that tree, so the sequences along
  the partial tree's principal variation, and the replies that refute other moves, are the fittest;
- parents are drawn in proportion to fitness + 1; crossover (one point, below the parents' last
  common node in the tree, as the seed says: children differ from where their parents part) swaps
  their tails; mutation replaces one move by a random legal one; a move that became illegal (its
  square was taken earlier in the new sequence) is repaired by a random legal move, so a chromosome
  never holds an illegal move;
- each generation keeps the ``population`` fittest of parents and children (ties: the older first);
- the answer is the first move of the best root child in the reservation tree.

The search stops after ``generations`` generations or when 85% of the time limit less 3 ms has
passed, whichever comes first, and answers with the best move so far. Its randomness comes from
``random.Random(seed)``: two bots with the same seed and settings choose the same moves as long as
the generation limit, not the clock, ends each search.

>>> from gamelib.search.random_trees import random_tree
>>> from gamelib.search.negamax import minimax
>>> tree = random_tree(3, 2, seed=4)
>>> decision = GeneticBot(seed=0, population=9, generations=20, depth=2).choose(tree, tree.root, 5.0)
>>> decision.value == minimax(tree).value
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gamelib.games.game import Game, format_value
from gamelib.play.bots.base import Decision, check_request, move_text, pause_collector, resume_collector
from gamelib.play.bots.reservation import ReservationTree
from gamelib.search.negamax import SearchError
from gamelib.search.time_rules import now

__all__ = ["ANSWER_SECONDS", "TIME_SHARE", "Chromosome", "Evolution", "GeneticBot"]

Chromosome = tuple[Any, ...]
"""A sequence of moves from the position to move in, one per ply, alternating sides."""

TIME_SHARE = 0.85
"""The share of ``seconds`` the bot may spend evolving; the rest is margin for answering."""

ANSWER_SECONDS = 0.003
"""Seconds kept back, besides the share, to pick the answer and free the tree (about 1 ms idle)."""


class GeneticBot:
    """Genetic minimax after Hong, Huang & Lin (2001) and seed 002; plays either side of any game.

    ``population`` chromosomes (>= 2) of ``depth`` plies (>= 1) evolve for at most ``generations``
    generations (>= 0, each making ``population`` children); ``mutation`` is the chance (0..1) that a
    child gets one random move. The Decision's ``value`` is the root value of the reservation tree
    from MAX's point of view (minimax over the sequences seen), ``nodes`` the positions it stores,
    ``depth`` None (no depth is searched completely). Raises SearchError (a ValueError) for settings
    out of range.
    """

    name = "genetic"

    def __init__(self, seed: int = 0, population: int = 24, generations: int = 200, depth: int = 4,
                 mutation: float = 0.3) -> None:
        if population < 2 or generations < 0 or depth < 1 or not 0.0 <= mutation <= 1.0:
            raise SearchError(f"need population >= 2, generations >= 0, depth >= 1 and 0 <= mutation <= 1; "
                              f"got {population}, {generations}, {depth}, {mutation}")
        self.seed, self.population, self.generations = seed, population, generations
        self.depth, self.mutation = depth, mutation
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """The first move of the best root child after evolving sequences from ``state``.

        Stops making chromosomes after :data:`TIME_SHARE` of ``seconds`` (wall time) less
        :data:`ANSWER_SECONDS`; the clock is read once a generation and once a crossover (two
        children), while seeding once a chromosome but the first, and at the start and end of
        ``choose``, so only the process being descheduled by a busy machine can push ``choose``
        past ``seconds`` (``benchmarks/genetic_bot.py`` measures it). Raises SearchError if ``seconds``
        is not positive or ``state`` is terminal.
        """
        start = now()
        running = pause_collector()
        try:
            check_request(game, state, seconds)
            run = Evolution(self, game, state, deadline=start + TIME_SHARE * seconds - ANSWER_SECONDS)
            generations = run.evolve(self.generations)
            decision = _decision(game, run.tree, generations, self.depth)
            del run  # freed here by reference counting, before the collector is back
            return replace(decision, seconds=now() - start)
        finally:
            resume_collector(running)

    def __repr__(self) -> str:
        return (f"GeneticBot(seed={self.seed}, population={self.population}, "
                f"generations={self.generations}, depth={self.depth}, mutation={self.mutation})")


class Evolution:
    """One search of ``bot`` from ``state``: the population, its reservation tree, the operators.

    :meth:`GeneticBot.choose` makes one per move; build one yourself to watch a search, e.g.
    ``run = Evolution(bot, game, state, deadline=math.inf); run.evolve(10); run.tree.value()``.
    ``deadline`` is a :func:`~gamelib.search.time_rules.now` reading after which no new generation or
    crossover starts (nor, while seeding, a new chromosome after the first).
    ``population`` is the current population, fittest first after each generation.
    """

    def __init__(self, bot: GeneticBot, game: Game[Any, Any], state: Any, deadline: float) -> None:
        self.bot, self.game, self.deadline = bot, game, deadline
        self.rng = bot._rng
        self.tree = ReservationTree(game, state)
        self.population: list[Chromosome] = []

    def evolve(self, generations: int) -> int:
        """Seed the population, then run up to ``generations`` generations before the deadline.

        Returns the number of whole generations run. At least one chromosome is always stored, so
        the tree has a best move even if the deadline has already passed.
        """
        self.population = self._initial()
        done = 0
        while done < generations and not self._late():
            children = self._children()
            self.population = self._survivors(self.population + children)
            done += 1
        return done

    def _late(self) -> bool:
        return now() >= self.deadline

    def _initial(self) -> list[Chromosome]:
        """Up to ``population`` distinct random legal sequences (stops early at the deadline)."""
        chosen: dict[Chromosome, None] = {}
        for _attempt in range(20 * self.bot.population):
            if len(chosen) == self.bot.population or (chosen and self._late()):
                break
            chosen.setdefault(self._store(self.repair(())))
        return list(chosen)

    def _children(self) -> list[Chromosome]:
        """``population`` children of parents drawn in proportion to fitness + 1, stored in the tree."""
        weights = [self.tree.fitness(parent) + 1 for parent in self.population]
        children: list[Chromosome] = []
        while len(children) < self.bot.population and not self._late():
            mother, father = self.rng.choices(self.population, weights=weights, k=2)
            for child in self.crossover(mother, father):
                if self.rng.random() < self.bot.mutation:
                    child = self.mutate(child)
                children.append(self._store(child))
        return children

    def _store(self, chromosome: Chromosome) -> Chromosome:
        self.tree.insert(chromosome)
        return chromosome

    def _survivors(self, candidates: list[Chromosome]) -> list[Chromosome]:
        """The ``population`` fittest distinct candidates; equal fitness keeps the earlier one."""
        distinct = list(dict.fromkeys(candidates))
        ranked = sorted(range(len(distinct)), key=lambda i: (-self.tree.fitness(distinct[i]), i))
        return [distinct[i] for i in ranked[:self.bot.population]]

    def crossover(self, mother: Chromosome, father: Chromosome) -> tuple[Chromosome, Chromosome]:
        """Two children that swap the parents' tails at a point below their last common node.

        If the parents differ only in their last move (or not at all) there is no such point, and
        the children are copies of the parents. Both children are repaired.
        """
        common = _common_prefix(mother, father)
        shortest = min(len(mother), len(father))
        if common + 1 >= shortest:
            return mother, father
        cut = self.rng.randint(common + 1, shortest - 1)
        return (self.repair(mother[:cut] + father[cut:]), self.repair(father[:cut] + mother[cut:]))

    def mutate(self, chromosome: Chromosome) -> Chromosome:
        """``chromosome`` with the move at one random ply replaced by a random legal move, repaired."""
        ply = self.rng.randrange(len(chromosome))
        return self.repair((*chromosome[:ply], None, *chromosome[ply + 1:]))

    def repair(self, genes: Sequence[Any]) -> Chromosome:
        """``genes`` made legal: each move that is illegal where it stands (or None) becomes a random
        legal move; the sequence is cut where the game ends and filled up to ``depth`` plies with
        random legal moves. Known prefixes are read from the reservation tree, not replayed.
        """
        moves: list[Any] = []
        node: Any = self.tree.root
        state = node.state
        for ply in range(self.bot.depth):
            gene = genes[ply] if ply < len(genes) else None
            child = None if node is None else node.children.get(gene)
            if child is not None:
                moves.append(gene)
                node, state = child, child.state
                continue
            if self.game.is_terminal(state):
                break
            legal = self.game.legal_moves(state)
            move = gene if gene is not None and gene in legal else self.rng.choice(legal)
            moves.append(move)
            node = None if node is None else node.children.get(move)
            state = node.state if node is not None else self.game.result(state, move)
        return tuple(moves)


def _decision(game: Game[Any, Any], tree: ReservationTree, generations: int, depth: int) -> Decision:
    """The answer: the first move of the best root child, the root value (MAX's view), a note."""
    line = " ".join(move_text(game, move) for move in tree.principal_variation())
    note = (f"genetic: {generations} generations, {len(tree)} sequences of up to {depth} plies, "
            f"value {format_value(tree.value())}, line {line}")
    return Decision(move=tree.best_move(), value=tree.value(), nodes=tree.nodes, note=note)


def _common_prefix(first: Chromosome, second: Chromosome) -> int:
    """The number of leading moves two chromosomes share: the depth of their last common node."""
    common = 0
    for a, b in zip(first, second):
        if a != b:
            break
        common += 1
    return common
