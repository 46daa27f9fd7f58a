"""The course's terms: each with the lesson that teaches it and a one-line definition.

:data:`GLOSSARY` lists them in the order the lessons teach them. ``tests/test_glossary.py`` reads the
lessons in order and fails where a sentence uses a term before its lesson without pointing forward
to it ("lesson 4", "later lessons", a link to the lesson): a term is taught before it is used.
:func:`glossary_markdown` is the table the start page shows.

>>> [term.name for term in GLOSSARY if term.lesson == 3]
['null window', 'fail high, fail low', 're-search', 'NegaScout', 'PVS', 'PV, cut and all nodes']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GLOSSARY", "Term", "glossary_markdown"]


@dataclass(frozen=True)
class Term:
    """A term of the course: its ``name``, the ``lesson`` that teaches it (1 to 10), a one-line
    ``definition``, and ``pattern``, a regular expression that finds it in a lesson's text (case
    matters only where the pattern says so)."""

    name: str
    lesson: int
    definition: str
    pattern: str


GLOSSARY: tuple[Term, ...] = (
    Term("ply", 1, "one move of one side; a search to depth d looks d plies ahead", r"\bpl(?:y|ies)\b"),
    Term("static evaluation", 1, "a position's value judged without searching it: at a leaf, or where a search "
         "stops", r"\bstatic (?:evaluation|value)s?\b"),
    Term("minimax", 1, "a position's value when both sides play their best: MAX takes the largest value of its "
         "moves, MIN the smallest", r"\bminimax\b"),
    Term("negamax", 1, "minimax written for the side to move: each position takes the largest of its children's "
         "negated values", r"\bnegamax\b"),
    Term("principal variation", 1, "the line of moves both sides play when each plays its best",
         r"\bprincipal variation\b"),
    Term("window", 2, "the values (alpha, beta) a search is still interested in at a position; a value outside it "
         "cannot change the root's", r"\bwindows?\b"),
    Term("alpha-beta", 2, "minimax that skips the moves which cannot change the root's value, keeping a window of the "
         "values still of interest (analysed by Knuth & Moore 1975)", r"\balpha-beta\b"),
    Term("cutoff", 2, "a search leaves a position without trying its other moves, because its value already lies "
         "outside the window", r"\bcutoffs?\b"),
    Term("fail-hard, fail-soft", 2, "alpha-beta whose value at a position starts at its own end of the window "
         "(alpha at MAX, beta at MIN), so a position whose moves all fall short reports that edge; or one that starts "
         "at minus (plus) infinity and reports the best it found, a bound that can lie beyond the window",
         r"\bfail-(?:hard|soft)\b"),
    Term("bound", 2, "what a search proves of a value that fell outside its window: at least (a lower bound) or at "
         "most (an upper bound)", r"\b(?:lower|upper) bounds?\b"),
    Term("deep cutoff", 2, "a cutoff on a bound set more than one ply above the position (Knuth & Moore 1975)",
         r"\bdeep cutoffs?\b"),
    Term("move ordering", 2, "the order in which a search tries the moves; alpha-beta prunes most with the best move "
         "first", r"\bmove ordering\b"),
    Term("bootstrap", 2, "drawing a sample again from itself, with replacement, to see how far a value measured on it "
         "could move (Efron 1979)", r"\bbootstrap\b"),
    Term("minimal tree", 2, "the positions every alpha-beta must visit to prove the value, which it visits with the "
         "best move first everywhere (Knuth & Moore 1975)", r"\bminimal tree\b"),
    Term("null window", 3, "a window (a, a + 1) that holds no value: a search in it only answers whether the value "
         "is above a", r"\b(?:null|zero|minimal)[- ]windows?\b"),
    Term("fail high, fail low", 3, "the answer of a search whose value came out at or above its window's top, or at "
         "or below its bottom", r"\b(?:fails?|failed|failing)[- ](?:high|low)\b"),
    Term("re-search", 3, "a position searched again with a wider window after a narrower one failed: in NegaScout "
         "after a null-window test fails high (lesson 4: after an aspiration window fails)", r"\bre-search(?:es|ed)?\b"),
    Term("NegaScout", 3, "alpha-beta that searches the first move with the full window and tests every other with a "
         "null window, searching again only a test that fails high (Reinefeld 1983)",
         r"(?<!Algoritma )\bnegascout\b(?! tutorial)"),
    Term("PVS", 3, "principal variation search (Marsland & Campbell 1982): the first move with the full window, the "
         "others tested with a null window; the form the course runs searches a move again with (a, beta)",
         r"\bPVS\b|\bprincipal variation search\b"),
    Term("PV, cut and all nodes", 3, "the minimal tree's positions: on the principal variation; where one refuting "
         "move suffices; where every move must be searched (Knuth & Moore 1975; named by Marsland & Popowich 1985)",
         r"\bPV nodes?\b|\bcut nodes?\b|\bPV, cut and all\b"),
    Term("transposition table", 4, "a table of the positions searched, by key, with their value, its bound and "
         "best move, so that a position reached again is not searched again", r"\btransposition tables?\b"),
    Term("Zobrist key", 4, "a position's number for the table: the XOR of one random number for each mark on its "
         "square, and one for the side to move (Zobrist 1970)", r"\bZobrist\b"),
    Term("iterative deepening", 4, "searching to depth 1, 2, 3, ... in turn, each depth ordered by the one before",
         r"\biterative deepening\b"),
    Term("MTD(f)", 4, "a search made of null-window tests alone, each around the value the last one returned "
         "(Plaat et al. 1996)", r"\bMTD\b"),
    Term("aspiration window", 4, "a narrow window around a guess at the value, searched first and widened if the "
         "value falls outside", r"\baspiration windows?\b"),
    Term("killer move", 6, "a move that caused a cutoff at the same depth elsewhere, tried early (Akl & Newborn 1977)",
         r"\bkiller moves?\b"),
    Term("history heuristic", 6, "move ordering by how often a move has caused cutoffs anywhere (Schaeffer 1989)",
         r"\bhistory heuristics?\b"),
    Term("Wilson's interval", 7, "an interval for a rate measured on n results, at a chosen level (95% unless a "
         "lesson says another), that does not shrink to a point when every result is the same (Wilson 1927)", r"\bWilson(?:'s)?(?: score)? intervals?\b"),
    Term("Bonferroni's correction", 7, "testing each of k claims at level 0.05 / k, so that the chance of any false "
         "alarm among them stays under 0.05", r"\bBonferroni\b"),
    Term("sign test", 7, "a test of whether one side comes out ahead more often than chance, from how many of the "
         "decided pairs or games it won", r"\bsign tests?\b"),
    Term("permutation test", 7, "a test that asks how often relabelling the results at random gives a difference as "
         "large as the one seen", r"\bpermutation tests?\b"),
    Term("Elo", 7, "a scale of playing strength; in the logistic form engine testers use, a player D points stronger "
         "scores 1 / (1 + 10^(-D/400)) a game (Elo 1978 built his tables on the normal curve)", r"\bElo\b"),
    Term("chance node", 8, "a position where chance, not a player, chooses the next move, with known probabilities",
         r"\bchance nodes?\b"),
    Term("expectiminimax", 8, "minimax with chance nodes, each worth the expected value of its outcomes",
         r"\bexpectiminimax\b"),
    Term("Star1", 8, "alpha-beta's cutoffs at chance nodes, from the bounds on the values of the outcomes not yet "
         "searched (Ballard 1983)", r"\bStar1\b"),
    Term("max^n", 8, "search for three or more players: each position takes the payoff vector best for the player "
         "to move (Luckhardt & Irani 1986)", r"max\^n"),
    Term("paranoid search", 8, "search for three or more players that takes every other player to play against "
         "the one at the root (Sturtevant & Korf 2000)", r"\bparanoid\b"),
    Term("MCTS", 9, "Monte Carlo tree search: a tree grown one node an iteration, each new node judged by a random "
         "game to the end", r"\bMCTS\b|\bMonte Carlo tree search\b"),
    Term("UCT", 9, "MCTS that chooses among a node's children by UCB1 (Kocsis & Szepesvári 2006)", r"\bUCT\b"),
    Term("UCB1", 9, "a child's mean reward plus sqrt(2 ln N / n), for N visits of the parent and n of the child "
         "(Auer et al. 2002); UCT scales that bonus by a constant to tune (Kocsis & Szepesvári 2006), which the "
         "lessons write c sqrt(ln N / n)", r"\bUCB1?\b"),
    Term("rollout", 9, "the random game MCTS plays from a new node to the end, whose result it backs up",
         r"\brollouts?\b|\brolls? out\b"),
    Term("Bradley-Terry", 10, "a model in which entry i beats entry j with probability 1 / (1 + e^(s_j - s_i)), "
         "fitted from all the games at once (Bradley & Terry 1952)", r"\bBradley[-–]Terry\b"),
)
"""The terms, in the order the lessons teach them."""


def glossary_markdown() -> str:
    """The glossary as a Markdown table: term, lesson, definition."""
    rows = [f"| {term.name} | {term.lesson} | {term.definition} |" for term in GLOSSARY]
    return "\n".join(["| term | lesson | meaning |", "|---|---|---|", *rows])
