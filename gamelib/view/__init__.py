"""Layer 4, view: what people see. Replays of recorded traces (``replay``; ``mcts_replay`` and
``mcts_picture`` for Monte Carlo tree search), the picture's view
model (``picture``), its SVG painter and DOT writer, the stepper and explorer widgets (with
``projector`` mode, ``keys``, ``folding`` of big trees and the rule in words, ``rules_text``), the lessons'
figures, printouts in the seeds' formats, and the Adjacency board widget. Visualisers replay
traces; they never run or re-implement a search themselves. Imports only the layers below
(games, search, play). ``save_steps`` (from ``export``) saves every step of a search as SVG or
PNG files, for slides and handouts.
"""

from gamelib.view.export import save_steps

__all__ = ["save_steps"]
