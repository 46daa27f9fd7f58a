"""What the tests read of a player: its display data, the frames a page holds, pictures compared, and a
browser page opened from a file with every other request refused (shared by the player's tests)."""

from __future__ import annotations

import base64
import gzip
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_FRAMES = re.compile(r'<script (?=[^>]*data-gamelib-frames)(?=[^>]*data-step="(\d+)")[^>]*>([^<]*)</script>')
"""A page's frames element, whatever the order of its attributes (nbconvert rewrites them)."""


def mime_data(bundle: Any) -> Mapping[str, Any]:
    """The data of a ``_repr_mimebundle_`` answer: IPython takes a dict, or a (data, metadata) pair."""
    data: Mapping[str, Any] = bundle[0] if isinstance(bundle, tuple) else bundle
    return data


def page_data(page: str) -> tuple[dict[str, Any], int]:
    """The frames a page without a kernel holds (base64 of gzipped JSON), and the step it opens at."""
    found = _FRAMES.search(page)
    assert found, page[:300]
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(found[2])))
    return data, int(found[1])


def same_picture(one: str, other: str) -> bool:
    """Whether two SVG texts draw the same: the same elements, attributes and texts, leaving out the
    part ids the player moves to ``data-k``, the step number and the whitespace between elements."""
    def plain(svg: str) -> str:
        return re.sub(r'\s(?:id|data-k|data-step)="[^"]*"', "", svg)

    def quick(svg: str) -> tuple[dict[str, str], str]:  # the <svg> tag's attributes (any order), and the rest
        opening, _, rest = plain(svg).partition(">")
        return dict(re.findall(r'([\w:.-]+)="([^"]*)"', opening)), re.sub(r">\s+<", "><", rest).strip()

    if quick(one) == quick(other):  # the same text but for the <svg> tag's order and the whitespace: the same
        return True
    return ET.canonicalize(plain(one), strip_text=True) == ET.canonicalize(plain(other), strip_text=True)


def open_offline(browser: Any, page_file: Path, viewport: Mapping[str, int]) -> tuple[Any, list[str]]:
    """``page_file`` in a fresh page of ``viewport`` that refuses, and records, every request but files."""
    asked: list[str] = []

    def files_only(route: Any) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    page = browser.new_page(viewport=dict(viewport))
    page.route("**/*", files_only)
    page.goto(page_file.as_uri())
    return page, asked
