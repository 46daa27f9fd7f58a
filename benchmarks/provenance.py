"""Where, when and how a benchmark's data file was made, for the file itself (not a benchmark)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
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


def quick_argument(arguments: list[str]) -> bool:
    """Whether a benchmark's command line (``sys.argv[1:]``) asks for its ``--quick`` run; any
    other argument ends the program with one line and status 2."""
    if any(argument != "--quick" for argument in arguments):
        print(f"unknown argument {arguments[0]!r}: give nothing or --quick", file=sys.stderr)
        raise SystemExit(2)
    return bool(arguments)
