"""Layer 4, view: what people see. Replays of recorded traces (``replay``; ``mcts_replay`` for
Monte Carlo tree search), the picture's view model (``picture``), its SVG ``painter`` and ``dot``
writer, every step's ``frames`` computed once and the ``player`` that steps them in the page (in a
notebook, a lesson's page and a ``slides`` page), the ``stepper`` and the explorers (``explorer``
and ``mcts_explorer``, in the shell of ``stage``, with Projector mode, and the rule in words,
``rules_text``), widget parts (``ui``), the lessons' figures, saved steps and printouts in the seeds' formats (``export``), plots (``charts``), lessons
as HTML pages (``lesson_html``), a tournament's ``leaderboard`` and the Adjacency ``board``.
Visualisers replay traces; they never run or re-implement a search themselves. Imports only the
layers below (games, search, play). ``save_steps`` (from ``export``) saves every step of a search
as SVG or PNG files, for slides and handouts.
"""

from gamelib.view.export import save_steps

__all__ = ["save_steps"]
