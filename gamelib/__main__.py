"""``python -m gamelib``: see :mod:`gamelib.cli`."""

import sys

from gamelib.cli import main

sys.exit(main())
