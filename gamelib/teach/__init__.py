"""Layer 5, teach: checking a student's search against the reference (``checker``, its referees),
the exercises, their tree sets and their one verdict (``exercises``), typed code checked in the box
(``code_check``), plausible mistakes (``mistakes``), the lessons' predictions, measurements and choices checked
(``predictions``, with the questions in ``questions``), quizzes (``quiz``), grading a class's
hand-ins (``grading``), printed worksheets (``worksheet``), and the Voila app that puts them
together (``app``; its server side, for Voila, in ``serving``). Imports any layer below.
"""
