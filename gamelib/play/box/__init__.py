"""Everything that runs code we do not trust, in one place: the boundary's one home.

- :mod:`~gamelib.play.box.guard`: the boundary itself, bubblewrap's namespaces where they work and
  the guard (a user of its own for each run, as root) elsewhere;
- :mod:`~gamelib.play.box.limits`: resource limits, a minimal environment, killing a process group;
- :mod:`~gamelib.play.box.sandbox`: a short-lived child process in the box, its channel, and what a
  run returns (:class:`~gamelib.play.box.sandbox.SandboxResult`); :class:`~gamelib.play.box.sandbox.Runner`
  is what every way of running untrusted code offers;
- :mod:`~gamelib.play.box.child`: the child's side, what runs inside the box around the entry;
- :mod:`~gamelib.play.box.answers`: the student's side of a check (the watched tree, the answers
  sent back as data) and the trusted side's total reading of the channel;
- :mod:`~gamelib.play.box.stepped`: the same entry run in this process under a step budget, where
  no process can be started (Pyodide);
- :mod:`~gamelib.play.box.student_api`: the names of gamelib a student's code may import in the box.

Tournament entries (:mod:`gamelib.play.entries`) and the checkers (:mod:`gamelib.teach.code_check`)
run through these modules. The box's own copy of gamelib holds this package's ``limits``, ``child``
and ``answers`` and :mod:`gamelib.games.game`, so this file imports nothing.
"""
