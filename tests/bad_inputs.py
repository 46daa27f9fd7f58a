"""Inputs shared by the bad-input tests (issue 12): tree files, deep chains, a tree MTD(f) cannot step through."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_tree(tmp_path: Path, content: str | bytes, name: str = "tree.json") -> Path:
    """Write ``content`` (text as UTF-8, or bytes as they are) to ``tmp_path / name``."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def chain(plies: int) -> dict[str, Any]:
    """A tree in the JSON format: a root, one child a node, and a leaf worth 1 ``plies`` plies down."""
    return {"root": "0", "children": {str(ply): [str(ply + 1)] for ply in range(plies)}, "values": {str(plies): 1}}


NON_INTEGER: dict[str, Any] = {
    "root": "0",
    "children": {"0": ["1", "2"], "1": ["3", "4"], "2": ["5", "6"], "3": ["7"], "4": ["8", "9", "10"],
                 "5": ["11", "12"], "6": ["13", "14", "15"]},
    "values": {"7": 4.01, "8": 7, "9": 6.5, "10": 4, "11": 9.99, "12": 3.99, "13": 2.99, "14": 4.99, "15": 2.01},
}
"""Seed 0 of random_tree((1, 3), 3) with values moved off whole numbers, as in three of Berkeley's
CS188 test trees: today's MTD(f) never ends on it, and its memory grows."""
