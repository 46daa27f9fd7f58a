"""Layer 5, teach: checking a student's search against the reference (``checker``), exercises
and their tree sets, typed code checked (``code_check``), plausible mistakes, the pruning quiz,
and the Voila app that puts them together. Imports any layer below.
"""
