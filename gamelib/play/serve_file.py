"""What a tournament's file entry runs: ``python -m gamelib.play.serve_file FILE.py CLASS SEED``.

It serves the bot class ``CLASS`` of the submission ``FILE.py``, built with ``SEED``, over the
engine line protocol (:mod:`gamelib.play.engine_protocol`) until ``quit`` or the end of input: what
``python -m gamelib engine --bot-file FILE.py --bot-class CLASS --seed SEED`` does for a person, but
importing only what serving a file needs, not the whole command line. A tournament starts an entry
for every game, so this start-up is paid many times: 0.23 s here against 0.43 s through the command
line (measured on the course's two-core machine, 2026-11-25). The command is built by
:func:`gamelib.play.entries.entry_command`, never typed; a file that cannot be served is one line
on stderr (the entry's log) and status 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from gamelib.play.engine_protocol import serve
from gamelib.play.entries import EntryError, load_file_bot

__all__ = ["main", "own_channel"]


def own_channel() -> TextIO:
    """The protocol's answers on a stream of their own (a copy of stdout), and stdout itself pointed
    at stderr, the entry's log: a submission's ``print`` goes to its log, never into the protocol."""
    sys.stdout.flush()
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return answers


def main(argv: Sequence[str]) -> int:
    """Serve ``argv`` = (file, class name, seed) until ``quit`` or the end of input: 0, or 2 with one
    line on stderr if the arguments or the file cannot be used. The file's own errors (a syntax
    error, an exception while it loads) end the process with Python's traceback in the log."""
    if len(argv) != 3 or not argv[2].isdigit():
        print(f"serve_file: need FILE.py CLASS SEED, got {list(argv)!r}", file=sys.stderr)
        return 2
    answers = own_channel()
    try:
        bot = load_file_bot(argv[0], argv[1], int(argv[2]))
    except EntryError as error:
        print(f"serve_file: {error}", file=sys.stderr)
        return 2
    try:
        serve(bot, sys.stdin, answers)
    except BrokenPipeError:  # the tournament went away: nobody is left to answer
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
