"""Shared fixtures: the seed trees and the reference outputs copied from the seeds."""

from __future__ import annotations

from typing import Any

import pytest

from gamelib import GameTree, load_reference, load_seed_tree


@pytest.fixture(scope="session")
def broeders() -> GameTree:
    """Broeders' 31-node tree (seed 003)."""
    return load_seed_tree("broeders31")


@pytest.fixture(scope="session")
def broeders_printed() -> dict[str, Any]:
    """The outputs printed in seed 003, as the seed prints them."""
    return load_reference("broeders")  # type: ignore[no-any-return]


def words(text: str | list[str]) -> str:
    """Text with runs of whitespace collapsed, as the seed's web page shows program output."""
    if isinstance(text, list):
        text = "\n".join(text)
    return " ".join(text.split())
