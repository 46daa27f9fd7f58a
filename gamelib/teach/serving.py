"""The app's server side: a kernel manager that caps how many kernels Voila runs at once, and keeps
the server's token out of them.

Voila starts a kernel for every request of the app's page, a plain GET too, and Voila has no
setting of its own that limits them (voila-dashboards/voila issue 617). The project's ``voila.json``
names :class:`CappedKernelManager` as Voila's kernel manager (``VoilaConfiguration.
multi_kernel_manager_class``), sets its ``max_kernels``, and has jupyter_server's culler shut down
kernels that have been idle, with no page connected, for a while (``MappingKernelManager.
cull_idle_timeout``, ``cull_interval``, ``cull_connected``): a closed page's kernel is gone within
their sum (90 + 20 s). A request beyond the cap is answered 503 with a message saying why and when
to try again, instead of a new kernel.

Voila hands each kernel the page's request in its environment (``QUERY_STRING``,
``VOILA_REQUEST_URL``), the token with it; the manager takes the token out (:func:`without_token`),
so code in a kernel cannot read the server's token there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Integer

__all__ = ["CappedKernelManager", "without_token"]

_TOKEN = re.compile(r"(?:^|(?<=[?&]))token=[^&#]*&?", re.IGNORECASE)
_SECRETS = ("JUPYTER_TOKEN", "JUPYTER_TOKEN_FILE", "JPY_API_TOKEN", "JUPYTERHUB_API_TOKEN")


def without_token(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the server's token: no ``token=`` query parameter in any value (Voila's
    ``QUERY_STRING`` and ``VOILA_REQUEST_URL``), and none of Jupyter's token variables.

    >>> without_token({"QUERY_STRING": "token=abc&x=1", "VOILA_REQUEST_URL": "http://h/?token=abc", "JUPYTER_TOKEN": "abc"})
    {'QUERY_STRING': 'x=1', 'VOILA_REQUEST_URL': 'http://h/?'}
    """
    return {name: _TOKEN.sub("", value) for name, value in env.items() if name not in _SECRETS}


class CappedKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, refusing to start a kernel while ``max_kernels`` are
    running or starting (configurable: ``--CappedKernelManager.max_kernels=N``), and starting each
    kernel without the server's token in its environment.

    Raises tornado's HTTPError 503 (the page says the app is full, and when to try again) for a
    kernel over the cap.
    """

    max_kernels = Integer(10, config=True, help="The most kernels that may run at once; a page "
                                                "request beyond them is answered 503.")

    _starting = 0

    # jupyter_client types start_kernel as synchronous; the async managers override it as a coroutine
    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        """Start a kernel as jupyter_server does, unless that would make more than
        ``max_kernels``; an existing ``kernel_id`` is always reused."""
        kernel_id = kwargs.get("kernel_id")
        if kernel_id is None or kernel_id not in self:
            running = len(self.list_kernel_ids()) + self._starting
            if running >= self.max_kernels:
                raise HTTPError(503, reason=f"The app is full: {running} kernels are running, its limit "
                                            f"(max_kernels {self.max_kernels}); try again in "
                                            f"{self.retry_seconds()} seconds.")
        if isinstance(kwargs.get("env"), Mapping):
            kwargs["env"] = without_token(kwargs["env"])
        self._starting += 1
        try:
            started: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        return started

    def retry_seconds(self) -> int:
        """When a kernel may have been freed at the latest: a page closed now has its kernel culled
        after the idle timeout plus one culling interval (a minute without culling)."""
        idle, interval = int(self.cull_idle_timeout), int(self.cull_interval)
        return idle + interval if idle > 0 else 60
