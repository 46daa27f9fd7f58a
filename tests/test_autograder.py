"""The Gradescope autograder: the zip as Gradescope takes it, and its run_autograder graded against a fake /autograder
folder tree (AUTOGRADER_ROOT), run as Gradescope runs it: the script, from the zip's own copy of gamelib."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import solutions.lesson_01_minimax
from gamelib.cli import main
from gamelib.teach.exercises import EXERCISES

RIGHT = "from gamelib import Player, Value\n\n" + inspect.getsource(solutions.lesson_01_minimax.my_minimax)
WRONG = "def my_minimax(tree, node):\n    return 0\n"


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The minimax autograder, 12 points, built by the command line and unpacked as Gradescope unpacks it."""
    folder = tmp_path_factory.mktemp("gradescope")
    zip_path = folder / "autograder.zip"
    assert main(["autograder", "minimax", "--out", str(zip_path), "--points", "12", "--time", "20"]) == 0
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        assert {"setup.sh", "run_autograder", "gamelib/__init__.py"} <= set(names), names[:5]
        assert not any("__pycache__" in name for name in names)
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111, "both scripts should be executable"
        archive.extractall(folder / "autograder" / "source")
    for name in ("setup.sh", "run_autograder"):
        (folder / "autograder" / "source" / name).chmod(0o755)
    return folder / "autograder"


def graded(root: Path, files: dict[str, str]) -> dict[str, Any]:
    """Run the unpacked run_autograder on a submission of ``files``, as Gradescope does; its results.json."""
    submission = root / "submission"
    if submission.exists():
        for path in sorted(submission.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
    submission.mkdir(exist_ok=True)
    for name, text in files.items():
        (submission / name).write_text(text, encoding="utf-8")
    results = root / "results" / "results.json"
    results.unlink(missing_ok=True)
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH",)}
    env["AUTOGRADER_ROOT"] = str(root)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"  # this machine's Python 3.11 as python3
    finished = subprocess.run([str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
    assert finished.returncode == 0, finished.stderr[-2000:]
    data: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    return data


def test_setup_installs_what_the_grader_needs(autograder: Path) -> None:
    setup = (autograder / "source" / "setup.sh").read_text(encoding="utf-8")
    assert "apt-get install" in setup and "python3.11" in setup and "bubblewrap" in setup


@pytest.mark.slow  # runs the unpacked run_autograder in a child Python: seconds
def test_a_right_submission_scores_every_point(autograder: Path) -> None:
    trees = len(EXERCISES["minimax"].trees())
    data = graded(autograder, {"answer.py": RIGHT})
    assert data["score"] == 12 and len(data["tests"]) == trees and all(test["status"] == "passed"
                                                                        for test in data["tests"])
    assert sum(test["max_score"] for test in data["tests"]) == pytest.approx(12)


@pytest.mark.slow  # runs the unpacked run_autograder in a child Python: seconds
def test_a_wrong_submission_is_told_on_each_tree(autograder: Path) -> None:
    data = graded(autograder, {"answer.py": WRONG})
    assert data["score"] == 0 and all(test["status"] == "failed" and test["output"].startswith("wrong: ")
                                      for test in data["tests"])


@pytest.mark.slow  # runs the unpacked run_autograder in a child Python: seconds
def test_a_submission_without_one_file_to_grade_is_told_so(autograder: Path) -> None:
    none = graded(autograder, {"notes.txt": "hi"})
    assert none["score"] == 0 and "no .py or .ipynb file" in none["output"]
    several = graded(autograder, {"a.py": RIGHT, "b.py": RIGHT})
    assert several["score"] == 0 and "several files to grade (a.py, b.py)" in several["output"]


@pytest.mark.parametrize("args, message", [
    (["autograder", "nothing"], "invalid choice"),
    (["autograder", "minimax", "--time", "0"], "--time"),
    (["autograder", "minimax", "--seed", "-3"], "--seed"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--out", str(tmp_path / "a.zip")]) == 2 and message in capsys.readouterr().err
