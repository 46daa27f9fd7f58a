"""Write the lock's versions into environment.yml, so conda users get the versions pip users get.

`make lock` runs this after uv has written requirements/lock.txt. Every package environment.yml
names that the lock pins (by its pip name: conda's `python-graphviz` is pip's `graphviz`) is
rewritten as `name==version`, its comment kept; the interpreter, pip and graphviz's `dot` program
(conda-only) are left as they are. tests/test_environment_files.py checks that the two files agree.

Usage: python scripts/pin_environment.py [--check]
  --check  change nothing; exit 1, naming each difference, if environment.yml is out of step.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from packaging.markers import Marker
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "lock.txt"
ENVIRONMENT = ROOT / "environment.yml"

# The platform the course is tested on: where the lock forks by Python version or platform, this
# fork's version is the one environment.yml names (its `python=3.11`).
TESTED = {"python_version": "3.11", "python_full_version": "3.11.7", "sys_platform": "linux",
          "os_name": "posix", "platform_system": "Linux", "implementation_name": "cpython",
          "platform_python_implementation": "CPython", "platform_machine": "x86_64"}

# conda-forge name -> pip name, where the two differ.
CONDA_TO_PIP = {"python-graphviz": "graphviz"}
# Named in environment.yml but not pinned from the lock: the interpreter, pip, and graphviz's `dot`
# program (conda's `graphviz` is the C program, not pip's `graphviz` bindings).
UNPINNED = {"python", "pip", "graphviz"}

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
_ENTRY = re.compile(r"^(\s*-\s+)([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?([^\s#]*)(\s*)(#.*)?$")


def locked_versions(lock: Path = LOCK) -> dict[str, str]:
    """The version the lock pins for each package on the tested platform (Python 3.11, Linux),
    by canonical name (PEP 503: lowercase, runs of `-_.` as `-`).

    Raises ValueError, naming the line, if a package is pinned twice for that platform.
    """
    versions: dict[str, str] = {}
    for number, line in enumerate(lock.read_text(encoding="utf-8").splitlines(), start=1):
        match = _PIN.match(line)
        if match is None:
            continue
        name, version, marker = canonicalize_name(match[1]), match[2], match[3]
        if marker and not Marker(marker).evaluate(TESTED):
            continue
        if name in versions:
            raise ValueError(f"{lock.name}:{number}: {name} is pinned twice for Python 3.11 on Linux")
        versions[name] = version
    return versions


def pinned_environment(text: str, versions: dict[str, str]) -> tuple[str, list[str]]:
    """environment.yml's ``text`` with every conda package of its `dependencies` (not its pip
    section) that the lock pins written `name==version`, and
    the names of the packages the lock does not pin (a package environment.yml names that no pip
    dependency brings: an error for the caller to report).
    """
    lines, missing, section = [], [], ""
    for line in text.splitlines():
        if re.match(r"^[A-Za-z]", line):
            section = line.split(":")[0]
        elif line.lstrip().startswith("- pip:"):
            section = "pip"
        match = _ENTRY.match(line)
        if match is None or section != "dependencies":
            lines.append(line)
            continue
        name = match[2]
        pip_name = canonicalize_name(CONDA_TO_PIP.get(name, name))
        if name in UNPINNED:
            entry = line[:match.end(4)]
        elif pip_name in versions:
            entry = f"{match[1]}{name}=={versions[pip_name]}"
        else:
            missing.append(name)
            entry = line[:match.end(4)]
        lines.append(f"{entry:<33} {match[6]}" if match[6] else entry)
    return "\n".join(lines) + "\n", missing


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 2
    text = ENVIRONMENT.read_text(encoding="utf-8")
    pinned, missing = pinned_environment(text, locked_versions())
    if missing:
        print(f"environment.yml names packages the lock does not pin: {missing}", file=sys.stderr)
        return 1
    if check:
        if pinned != text:
            print("environment.yml is out of step with requirements/lock.txt: run make lock", file=sys.stderr)
            return 1
        return 0
    ENVIRONMENT.write_text(pinned, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
