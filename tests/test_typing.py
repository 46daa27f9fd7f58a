"""gamelib is `mypy --strict` clean (STYLE.md 7: type hints everywhere, py.typed)."""

from __future__ import annotations

import subprocess
import sys

from gamelib.games.data import DATA_DIR


def test_mypy_strict_on_gamelib() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "gamelib"], cwd=DATA_DIR.parent,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
