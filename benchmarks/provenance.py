"""Where, when and how a benchmark's data file was made, for the file itself (not a benchmark)."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def provenance(command: str, **more: Any) -> dict[str, Any]:
    """The ``command`` that ran, the date (UTC), the commit checked out, Python's version, the
    machine and its load average now, and any ``more`` fields."""
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    return {"command": command, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
            "python": platform.python_version(), "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
            "load": "load average " + " ".join(f"{load:.1f}" for load in os.getloadavg()), **more}
