"""axe-core (Deque's accessibility engine, from npm) for the real-browser tests, pinned and checked.

``axe_script()`` is axe.min.js of :data:`VERSION`, fetched once with ``npm pack`` into ``.cache/axe``
and checked against npm's sha512 (:data:`INTEGRITY`, ``npm view axe-core@4.14.1 dist.integrity``);
:func:`violations` runs it on a page for WCAG 2.0 and 2.1, levels A and AA, and returns what it finds.
A test skips, saying why, where npm is missing and the tarball is not in the cache.
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import subprocess
import tarfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "axe"
VERSION = "4.14.1"
INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""axe's tags for the success criteria of WCAG 2.0 and 2.1 at levels A and AA."""


@cache
def axe_script() -> str:
    """axe.min.js, from the cache or npm; skips the test if neither has it, fails if its hash differs."""
    tarball = CACHE / f"axe-core-{VERSION}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip(f"npm is needed once to fetch axe-core {VERSION} (apt-get install npm), or put {tarball.name} "
                        f"into {CACHE}")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "pack", f"axe-core@{VERSION}", "--pack-destination", str(CACHE)], check=True,
                       capture_output=True, timeout=300)
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    assert digest == INTEGRITY, f"{tarball} is not npm's axe-core {VERSION}: delete it and run the test again"
    with tarfile.open(fileobj=io.BytesIO(tarball.read_bytes())) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode("utf-8")


def violations(page: Any, within: str | None = None) -> list[dict[str, Any]]:
    """axe's WCAG 2.1 A and AA violations on ``page`` (inside the elements matching the CSS selector
    ``within``, or the whole document): each as its rule's id, impact, help, and its elements' targets
    and failure summaries."""
    page.add_script_tag(content=axe_script())
    found: list[dict[str, Any]] = page.evaluate(
        """async ([within, tags]) => {
             const context = within ? { include: [[within]] } : document;
             const result = await axe.run(context, { runOnly: { type: "tag", values: tags } });
             return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map((n) => [n.target.join(" "), n.failureSummary]) }));
           }""", [within, WCAG_21_AA])
    return found


def summary(found: list[dict[str, Any]]) -> str:
    """The violations in a few lines: each rule, how many elements, the first two."""
    return "\n".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements): {v['help']}; "
                     + " | ".join(f"{target}: {(words or '')[:160]}" for target, words in v["nodes"][:2])
                     for v in found)
