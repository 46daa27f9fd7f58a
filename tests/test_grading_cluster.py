"""Grading on a dask.distributed cluster (``grade --scheduler``) gives the rows grading on threads here gives: a
LocalCluster of two worker processes, started in a child process (its multiprocessing leaves a resource tracker
behind), grades a small class, and its rows, all but the seconds, match the thread pool's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamelib.teach.grading import Grade, grade_folder

ROOT = Path(__file__).resolve().parents[1]
CLASS = {"ada.py": "from gamelib import Player\n\n"
                   "def my_minimax(tree, node):\n    if tree.is_terminal(node):\n        return tree.evaluate(node)\n"
                   "    values = [my_minimax(tree, child) for child in tree.children_of(node)]\n"
                   "    return max(values) if tree.to_move(node) is Player.MAX else min(values)\n",
         "bob.py": "def my_minimax(tree, node):\n    return 0\n", "cy.py": "def my_minimax(tree, node)\n",
         "dee/": "", "notes.txt": "hi"}


def make_class(folder: Path) -> Path:
    for name, text in CLASS.items():
        if name.endswith("/"):
            (folder / name).mkdir(parents=True)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
    return folder


def rows_without_time(grades: list[Grade]) -> list[dict[str, str]]:
    return [{key: value for key, value in grade.row().items() if key not in ("seconds", "folder")} for grade in grades]


def graded_on_dask(folder: str, out: str) -> None:
    """Print the rows of the class graded on a LocalCluster of two worker processes, as JSON (run in a child)."""
    import distributed

    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,  # type: ignore[no-untyped-call]
                                   host="127.0.0.1", dashboard_address=None) as cluster,
          distributed.Client(cluster) as client):  # type: ignore[no-untyped-call]
        grades = grade_folder("minimax", folder, out, progress=False, executor=client.get_executor())
    print(json.dumps(rows_without_time(list(grades))))


@pytest.mark.slow  # starts a dask LocalCluster in a child process: seconds
def test_a_cluster_grades_as_the_threads_do(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    folder = make_class(tmp_path / "class")
    here = rows_without_time(list(grade_folder("minimax", folder, tmp_path / "here.csv", progress=False)))
    child = subprocess.run([sys.executable, "-c", "from tests.test_grading_cluster import graded_on_dask; "
                            f"graded_on_dask({str(folder)!r}, {str(tmp_path / 'dask.csv')!r})"],
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                           timeout=180)
    assert child.returncode == 0, child.stderr[-2000:]
    assert json.loads(child.stdout.splitlines()[-1]) == here and len(here) == 5
