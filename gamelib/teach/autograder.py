"""A Gradescope autograder for an exercise: the zip Gradescope builds its image from, and what it runs per submission.

:func:`build_autograder` writes the zip Gradescope's "Configure Autograder" page takes
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): at its top ``setup.sh`` (run once, as root, when
the image is built: it installs Python 3.11 and bubblewrap with apt) and ``run_autograder`` (run for each
submission), beside a copy of the course's ``gamelib`` package, which grading needs nothing outside the standard
library to run. ``run_autograder`` calls :func:`run` (``python -m gamelib.teach.autograder``), which grades the one
``.py`` or ``.ipynb`` file in ``/autograder/submission`` (a lesson notebook handed in is graded on its answer cell,
:mod:`gamelib.teach.grading`) in the sandbox, on every tree, and writes ``/autograder/results/results.json``: the
points, a test a tree with the checker's words. A submission with no file to grade, or several, gets a
``results.json`` that says so, worth 0. The exercise, points, ``--seed`` and time limit are fixed when the zip is
built. ``AUTOGRADER_ROOT`` in the environment stands for ``/autograder`` (the tests run the script in a folder of
their own).
"""

from __future__ import annotations

import argparse
import json
import shlex
import stat
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamelib.play.box.sandbox import Limits
from gamelib.play.records import write_atomically
from gamelib.teach.exercises import MAX_SEED, exercise_trees
from gamelib.teach.grading import (
    MAX_POINTS,
    MAX_SUBMISSION_SECONDS,
    failed_grade,
    grade_file,
    gradescope_results,
)
from gamelib.teach.hand_in import folder_submission

__all__ = ["build_autograder", "run"]

_SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
apt-get update
apt-get install -y --no-install-recommends python3.11 bubblewrap
"""

_RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: the student's files are in /autograder/submission, the results go to
# /autograder/results/results.json. AUTOGRADER_ROOT stands for /autograder (for a test in a folder of its own).
set -uo pipefail
root="${{AUTOGRADER_ROOT:-/autograder}}"
cd "$root/source"
python="$(command -v python3.11 || command -v python3)"
exec "$python" -m gamelib.teach.autograder "$root" {arguments}
"""


def build_autograder(exercise: str, out: str | Path, *, possible: float | None = None, seed: int | None = None,
                     seconds: float = 10.0) -> Path:
    """Write the autograder zip for ``exercise`` to ``out`` (``possible`` points, one a tree by default;
    ``seed``: add trees no lesson shows; ``seconds`` for each submission). Returns its absolute path. Raises
    UnknownExerciseError for an unknown exercise, ValueError for points, a seed or seconds out of range, OSError if
    it cannot be written."""
    exercise_trees(exercise, seed)  # refuses an unknown exercise or a seed out of range
    _check(possible, seconds)
    arguments = [exercise, "--time", f"{seconds:g}"]
    arguments += ["--points", f"{possible:g}"] if possible is not None else []
    arguments += ["--seed", str(seed)] if seed is not None else []
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    package = Path(__file__).resolve().parents[1]  # the gamelib package this module is part of
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", _SETUP, executable=True)
        _add(archive, "run_autograder", _RUN.format(arguments=shlex.join(arguments)), executable=True)
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                archive.write(path, f"gamelib/{path.relative_to(package).as_posix()}")
    return out


def _add(archive: zipfile.ZipFile, name: str, text: str, *, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def _check(possible: float | None, seconds: float) -> None:
    if possible is not None and not 0 < possible <= MAX_POINTS:
        raise ValueError(f"points is {possible}: give more than 0 and at most {MAX_POINTS:g}")
    if not 0.5 <= seconds <= MAX_SUBMISSION_SECONDS:
        raise ValueError(f"time is {seconds} s: give 0.5 to {MAX_SUBMISSION_SECONDS:g}")


def run(root: str | Path, exercise: str, *, possible: float | None = None, seed: int | None = None,
        seconds: float = 10.0) -> dict[str, Any]:
    """Grade the submission in ``root/submission`` and write ``root/results/results.json`` (Gradescope's shape,
    :func:`gamelib.teach.grading.gradescope_results`); return what was written."""
    root = Path(root)
    found = folder_submission(root / "submission")  # one file to grade, or why there is none (as for a class)
    if found.path is not None:
        grade = grade_file(exercise, found.path, Limits(seconds=seconds), student="submission", possible=possible,
                           seed=seed)
    else:
        grade = failed_grade(exercise, "submission", "", found.problem, f"not run: {found.problem}", possible, seed)
    results = gradescope_results(exercise, grade)
    write_atomically(root / "results" / "results.json", json.dumps(results, indent=1))
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamelib.teach.autograder ROOT EXERCISE [--points N] [--seed N] [--time S]``: :func:`run`."""
    parser = argparse.ArgumentParser(prog="python -m gamelib.teach.autograder")
    parser.add_argument("root")
    parser.add_argument("exercise")
    parser.add_argument("--points", type=float, default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--time", type=float, default=10.0)
    args = parser.parse_args(argv)
    try:
        _check(args.points, args.time)
        if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
            raise ValueError(f"seed is {args.seed}: give 0 to {MAX_SEED:,}")
        run(args.root, args.exercise, possible=args.points, seed=args.seed, seconds=args.time)
    except (ValueError, OSError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
