"""The checker in the Python the browser site runs: Pyodide 314.0.6 (Python 3.14), under Node.js instead of a
browser tab, with this checkout's gamelib. There ``check_function``'s path (``check_code``) checks in the kernel
(``sys.platform == "emscripten"``), and every solution, every mistake and runaway recursion must get the
message the sandbox gives on this machine's CPython; code that swallows the stop must be stopped, and the
backstop must end code whose steps slow down. Slow: Pyodide starts in a few seconds, and the sandbox checks
every case here too. Needs ``node`` and Pyodide's npm package in ``.cache/lite`` (``make lite`` fetches it)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from gamelib.teach.code_check import check_source
from tests.test_stepped import CASES, RUNAWAY, SWALLOWED

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / ".cache" / "lite" / "pyodide-314.0.6.tgz"
NODE = shutil.which("node")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(NODE is None, reason="node is missing: apt-get install nodejs"),
              pytest.mark.skipif(not PYODIDE.exists(), reason=f"{PYODIDE} is missing: make lite downloads it")]

RUNNER = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
const py = await loadPyodide({indexURL: "%(pyodide)s/"});
for (const [folder, at] of [["%(root)s", "/src"], ["%(work)s", "/work"]]) {
  py.FS.mkdirTree(at);
  py.FS.mount(py.FS.filesystems.NODEFS, {root: folder}, at);
}
py.runPython(`
import json, sys
sys.dont_write_bytecode = True  # no Python 3.14 caches in the checkout
sys.path.insert(0, "/src")
from gamelib.play.box import stepped
from gamelib.teach.code_check import check_code, check_in_kernel
cases = json.load(open("/work/cases.json"))
found = {"platform": sys.platform, "version": sys.version_info[:2]}
for name, (exercise, source) in cases["checked"].items():
    verdict = check_code(exercise, source)
    found[name] = [str(verdict), verdict.boundary]
for name, source in cases["swallowed"].items():
    found[name] = [str(check_in_kernel("minimax", source, steps=5000)), ""]
stepped.BACKSTOP_SECONDS = 1.0
found["backstop"] = [str(check_in_kernel("minimax", cases["slowing"])), ""]
json.dump(found, open("/work/found.json", "w"))
`);
"""


def test_pyodide_checks_in_the_kernel_with_the_sandbox_s_verdicts(tmp_path: Path) -> None:
    with tarfile.open(PYODIDE) as archive:
        archive.extractall(tmp_path, filter="data")
    checked = {f"{exercise}-{name}": (exercise, source) for exercise, name, source in CASES}
    checked.update({name: ("minimax", source) for name, source in RUNAWAY.items() if name != "the depth it reaches"})
    (tmp_path / "cases.json").write_text(json.dumps({
        "checked": checked, "swallowed": SWALLOWED,
        "slowing": SWALLOWED["a recursion that catches its own RecursionError"]}))
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER % {"pyodide": tmp_path / "package", "root": ROOT, "work": tmp_path})
    done = subprocess.run([str(NODE), str(runner)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and (tmp_path / "found.json").exists(), done.stderr[-3000:]
    found = json.loads((tmp_path / "found.json").read_text())
    assert found.pop("platform") == "emscripten" and found.pop("version") == [3, 14]
    for name, (exercise, source) in checked.items():
        assert found[name] == [str(check_source(exercise, source)), "in the kernel"], name
    for name in SWALLOWED:
        assert found[name][0].startswith("minimax: my_minimax ran more than 5,000 steps on tree 1 of 6"), name
    assert found["backstop"][0].startswith("minimax: my_minimax ran longer than 1 s on tree 1 of 6")
