"""Looking for the processes a test's runs left behind: shared by the tests of hostile code.

A hostile submission that leaves a process running makes it ``sleep MARKER`` (a number no other
process sleeps for), so a test can find it by its command line, wait for it to go, and end it by id.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import psutil


def settled(condition: Callable[[], bool], seconds: float = 3.0) -> bool:
    """Wait until ``condition()`` holds (True) or ``seconds`` pass (False), looking every 20 ms."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def sleeping(marker: str) -> list[psutil.Process]:
    """The live processes running ``sleep marker`` (what a submission left behind), zombies left out."""
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if process.info["cmdline"] == ["sleep", marker] and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def alive_children() -> list[psutil.Process]:
    """This process's descendants that still run (zombies and those gone meanwhile left out)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found
