"""The app's server: the documented command binds it to localhost behind a random token, and the
project's voila.json culls idle kernels, caps how many run, and hides the app's check cells.

Today's problem, measured: every plain GET of the app started a kernel (about 58 MB) that stayed
for ever. Here three GETs against a cap of two get two pages and a 503, and the culler, set to a
few seconds for the test, shuts both kernels down."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import psutil
import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from nbconvert.preprocessors import TagRemovePreprocessor
from tornado.web import HTTPError
from voila.configuration import VoilaConfiguration

from gamelib.teach.serving import CappedKernelManager
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

    assert asyncio.run(two_kernels()).startswith("The app is full: 1 kernels are running, its limit (max_kernels 1)")


@pytest.fixture
def quick_culling_app(tmp_path: Path) -> Iterator[Server]:
    """The app with the documented command, its culler set to seconds and its cap to two."""
    yield from serving(start_app(tmp_path, "--MappingKernelManager.cull_idle_timeout=3",
                                 "--MappingKernelManager.cull_interval=1", "--CappedKernelManager.max_kernels=2"))


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


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=PAGE_SECONDS) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_plain_requests_get_kernels_up_to_the_cap_and_idle_ones_are_culled(quick_culling_app: Server) -> None:
    page = f"{quick_culling_app.url}?token={quick_culling_app.token}"
    assert [get(page) for _ in range(3)] == [200, 200, 503]
    assert len(kernels(quick_culling_app)) == 2
    deadline = time.monotonic() + 30
    while kernels(quick_culling_app) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert kernels(quick_culling_app) == [], "idle kernels were not culled"
    assert get(page) == 200  # room again
