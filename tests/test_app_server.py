"""The app's server: the documented command binds it to localhost behind a random token, and the
project's voila.json culls idle kernels, caps how many run, and hides the app's check cells.

Today's problem, measured: every plain GET of the app started a kernel (about 58 MB) that stayed
for ever. Here three GETs against a cap of two get two pages and a 503 saying when to try again, and
the culler, set to a few seconds for the test, shuts a kernel down.

Every wait is on an event, never a fixed sleep, so the tests hold on a loaded machine: the cap is
checked on a server whose culler is off (no kernel can go away between the requests); culling is
checked in this process by one pass of the culler over a kernel whose last activity is set back, and
on a server of its own (slow) by waiting, up to a deadline, until the kernel is gone."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import nbformat
import psutil
import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from nbconvert.preprocessors import TagRemovePreprocessor
from tornado.web import HTTPError
from voila.configuration import VoilaConfiguration

from gamelib.teach.serving import CappedKernelManager, without_token
from tests.servers import ROOT, Server, serving, start_app

CONFIG = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
APP = ROOT / "notebooks" / "app" / "explorer_app.ipynb"
PAGE_SECONDS = 60  # one GET runs the whole app notebook in a new kernel, on a busy machine


def test_every_setting_in_voila_json_is_a_setting_of_the_installed_classes() -> None:
    classes = {"VoilaConfiguration": VoilaConfiguration, "CappedKernelManager": CappedKernelManager,
               "MappingKernelManager": AsyncMappingKernelManager, "TagRemovePreprocessor": TagRemovePreprocessor}
    assert set(CONFIG) == set(classes)
    for section, settings in CONFIG.items():
        assert set(settings) <= set(classes[section].class_trait_names(config=True)), section


def test_voila_json_culls_idle_kernels_and_caps_them() -> None:
    assert CONFIG["VoilaConfiguration"]["multi_kernel_manager_class"] == "gamelib.teach.serving.CappedKernelManager"
    culling = CONFIG["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and 0 < culling["cull_interval"] <= culling["cull_idle_timeout"]
    assert culling["cull_idle_timeout"] + culling["cull_interval"] <= 120  # a closed page's kernel: gone in 2 min
    assert culling["cull_connected"] is False  # a page that is open keeps its kernel
    assert 0 < CONFIG["CappedKernelManager"]["max_kernels"]


def test_the_apps_check_cells_and_only_those_are_hidden() -> None:
    hidden = set(CONFIG["TagRemovePreprocessor"]["remove_cell_tags"])
    assert CONFIG["TagRemovePreprocessor"]["enabled"] is True
    cells = nbformat.read(APP, as_version=4).cells  # type: ignore[no-untyped-call]  # nbformat is unannotated
    tagged = [cell for cell in cells if hidden & set(cell.metadata.get("tags", []))]
    assert [cell.cell_type for cell in tagged] == ["markdown", "code"]
    assert tagged[0].source.startswith("## Checks") and "assert" in tagged[1].source
    assert all("assert" not in cell.source for cell in cells if cell not in tagged)


def test_the_kernel_manager_refuses_a_kernel_over_its_cap() -> None:
    async def two_kernels() -> str:
        manager = CappedKernelManager(max_kernels=1)  # type: ignore[no-untyped-call]  # traitlets' __init__: no types
        first = await manager.start_kernel()
        try:
            assert await manager.start_kernel(kernel_id=first) == first  # an existing kernel is reused
            with pytest.raises(HTTPError) as refused:
                await manager.start_kernel()
            assert manager.list_kernel_ids() == [first]
            return str(refused.value.reason)
        finally:
            await manager.shutdown_all(now=True)

    reason = asyncio.run(two_kernels())
    assert reason.startswith("The app is full: 1 kernels are running, its limit (max_kernels 1)")
    assert reason.endswith("try again in 60 seconds.")  # no culler: a minute


def test_the_culler_frees_an_idle_kernels_room() -> None:
    # jupyter_server's culler with this manager, in this process: the kernel's last activity is set
    # back past the idle timeout (nothing waits), one culling pass shuts it down, and a new kernel fits.
    async def culled() -> list[str]:
        manager = CappedKernelManager(max_kernels=1, cull_idle_timeout=60)  # type: ignore[no-untyped-call]
        first = await manager.start_kernel()
        try:
            with pytest.raises(HTTPError):
                await manager.start_kernel()
            kernel: Any = manager.get_kernel(first)  # jupyter_server adds last_activity to jupyter_client's class
            kernel.last_activity = datetime.now(timezone.utc) - timedelta(seconds=61)
            await manager.cull_kernels()  # type: ignore[no-untyped-call]  # jupyter_server: no annotations
            assert manager.list_kernel_ids() == []
            return [await manager.start_kernel()]
        finally:
            await manager.shutdown_all(now=True)

    assert len(asyncio.run(culled())) == 1


def test_the_token_is_taken_out_of_a_kernels_environment() -> None:
    env = {"QUERY_STRING": "token=abc123&theme=dark", "VOILA_REQUEST_URL": "http://127.0.0.1:8866/?token=abc123",
           "JUPYTER_TOKEN": "abc123", "HOME": "/home/ada"}
    assert without_token(env) == {"QUERY_STRING": "theme=dark", "VOILA_REQUEST_URL": "http://127.0.0.1:8866/?",
                                  "HOME": "/home/ada"}


@pytest.fixture
def capped_app(tmp_path: Path) -> Iterator[Server]:
    """The app with the documented command, its cap set to two and its culler off."""
    yield from serving(start_app(tmp_path, "--MappingKernelManager.cull_idle_timeout=0",
                                 "--CappedKernelManager.max_kernels=2"))


@pytest.fixture
def quick_culling_app(tmp_path: Path) -> Iterator[Server]:
    """The app with the documented command, its culler set to seconds and its cap to one."""
    yield from serving(start_app(tmp_path, "--MappingKernelManager.cull_idle_timeout=2",
                                 "--MappingKernelManager.cull_interval=1", "--CappedKernelManager.max_kernels=1"))


def kernels(server: Server) -> list[psutil.Process]:
    """The server's running kernels: a culled kernel that has exited but is not yet reaped (a
    zombie), or is gone, is not one."""
    found = []
    for child in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel_launcher" in " ".join(child.cmdline()):
                found.append(child)
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            pass
    return found


def get(url: str, seconds: float = PAGE_SECONDS) -> tuple[int, str]:
    """The status and text of a GET of ``url``, each wait at most ``seconds``."""
    try:
        with urllib.request.urlopen(url, timeout=seconds) as answer:
            return int(answer.status), answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition`` came true within ``seconds`` (looked at every 0.2 s)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_plain_requests_get_kernels_up_to_the_cap_and_are_told_when_to_retry(capped_app: Server) -> None:
    page = f"{capped_app.url}?token={capped_app.token}"
    answers = [get(page) for _ in range(3)]
    assert [status for status, _ in answers] == [200, 200, 503]
    assert "The app is full" in answers[2][1] and "try again in 60 seconds" in answers[2][1]
    running = kernels(capped_app)
    assert len(running) == 2
    for kernel in running:  # the page's request reaches the kernel without the token
        assert all(capped_app.token not in value for value in kernel.environ().values())


@pytest.mark.slow
def test_an_idle_kernel_is_culled_and_its_room_given_again(quick_culling_app: Server) -> None:
    page = f"{quick_culling_app.url}?token={quick_culling_app.token}"
    assert get(page)[0] == 200
    assert len(kernels(quick_culling_app)) == 1
    assert wait_until(lambda: not kernels(quick_culling_app), PAGE_SECONDS), "the idle kernel was not culled"
    # room again, once the manager has finished shutting the kernel down (a 503 starts nothing)
    assert wait_until(lambda: get(page)[0] == 200, PAGE_SECONDS), "the culled kernel's room was not given again"


@pytest.mark.slow
def test_a_class_of_40_loading_the_page_at_once_is_served_or_told_when_to_retry(tmp_path: Path) -> None:
    for server in serving(start_app(tmp_path)):  # voila.json as it is: at most 10 kernels
        page = f"{server.url}?token={server.token}"
        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(lambda _: get(page, 10 * PAGE_SECONDS), range(40)))  # 10 notebooks at once
        statuses = [status for status, _ in answers]
        assert set(statuses) <= {200, 503} and statuses.count(200) == 10, statuses
        assert all("try again in 110 seconds" in text for status, text in answers if status == 503)
