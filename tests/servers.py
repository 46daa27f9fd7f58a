"""Servers for the tests that need one: JupyterLab, and the course app started exactly as the README
says (``scripts/app.sh``, what ``make app`` runs), each in its own process group with Jupyter's
settings in a temporary folder, always stopped (with every kernel it started) however the test ends,
and every wait with a time limit."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP_SCRIPT = ROOT / "scripts" / "app.sh"
START_SECONDS = 90    # a server's start, on a busy 2-core machine
APP_URL = re.compile(r"(http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32,})")
"""The URL the app's script prints: localhost only, with a random hexadecimal token."""


@dataclass
class Server:
    """A running server: its base URL, token, log file, and the path that says it is ready (None:
    an open port is enough; Voila runs the notebook for any page, so it is not asked for one)."""

    url: str
    token: str
    log: Path
    process: subprocess.Popen[bytes]
    ready: str | None = "api/status"

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def isolated_env(tmp_path: Path, settings: dict[str, str] | None = None) -> dict[str, str]:
    """Jupyter's config, runtime, settings and workspaces in ``tmp_path``, not the user's; ``settings``
    are JupyterLab settings files (name: text) to write there."""
    env = dict(os.environ)
    for name, folder in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                         ("JUPYTERLAB_SETTINGS_DIR", "settings"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")):
        (tmp_path / folder).mkdir()
        env[name] = str(tmp_path / folder)
    for name, text in (settings or {}).items():
        path = tmp_path / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return env


def wait_until_ready(server: Server) -> None:
    """Poll the server's status until it answers, the process dies, or START_SECONDS pass."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"the server exited with {server.process.returncode}:\n{server.log.read_text()[-3000:]}")
        try:
            if server.ready is None:
                with socket.create_connection(("127.0.0.1", server.port), timeout=3):
                    return
            with urllib.request.urlopen(f"{server.url}{server.ready}?token={server.token}", timeout=3) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    pytest.fail(f"the server did not answer within {START_SECONDS} s:\n{server.log.read_text()[-3000:]}")


def stop(server: Server) -> None:
    """Ask the server to shut down (it stops its kernels), then terminate and kill its process group
    (a server stops its kernels when terminated, too)."""
    try:
        request = urllib.request.Request(f"{server.url}api/shutdown?token={server.token}", method="POST")
        urllib.request.urlopen(request, timeout=10).close()
        server.process.wait(timeout=30)
    except (urllib.error.URLError, ConnectionError, TimeoutError, subprocess.TimeoutExpired):
        pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if server.process.poll() is not None:
            break
        os.killpg(server.process.pid, sig)
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            continue


def launch(command: list[str], tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    """Start ``command`` in its own process group, its output in ``tmp_path``/server.log."""
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    return process, log


def start(command: list[str], tmp_path: Path, token: str, port: int, settings: dict[str, str] | None = None) -> Server:
    """Start a server whose URL and token the test chose."""
    process, log = launch(command, tmp_path, isolated_env(tmp_path, settings))
    return Server(f"http://127.0.0.1:{port}/", token, log, process)


def start_app(tmp_path: Path, *voila_arguments: str) -> Server:
    """Start the course app with the documented command, ``bash scripts/app.sh`` (this interpreter
    as its PYTHON, a free port as its PORT), and read the URL and token it prints. Raises (fails
    the test) if no such URL is printed within START_SECONDS."""
    env = isolated_env(tmp_path) | {"PYTHON": sys.executable, "PORT": str(free_port())}
    env.pop("APP_HOST", None)  # localhost, as documented
    process, log = launch(["bash", str(APP_SCRIPT), *voila_arguments], tmp_path, env)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        found = APP_URL.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return Server(found.group(1), found.group(2), log, process, ready=None)
        if process.poll() is not None:
            break
        time.sleep(0.3)
    server = Server("http://127.0.0.1:0/", "", log, process)
    stop(server)
    pytest.fail(f"scripts/app.sh printed no URL with a token within {START_SECONDS} s:\n{log.read_text()[-3000:]}")


def serving(server: Server) -> Iterator[Server]:
    """Wait for ``server``, hand it to the test, and stop it whatever happens."""
    try:
        wait_until_ready(server)
        yield server
    finally:
        stop(server)
