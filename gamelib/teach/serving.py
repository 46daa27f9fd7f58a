"""The app's server side: a kernel manager that caps how many kernels Voila runs at once.

Voila starts a kernel for every request of the app's page, a plain GET too, and Voila has no
setting of its own that limits them (voila-dashboards/voila issue 617). The project's ``voila.json``
names :class:`CappedKernelManager` as Voila's kernel manager (``VoilaConfiguration.
multi_kernel_manager_class``), sets its ``max_kernels``, and has jupyter_server's culler shut down
kernels that have been idle, with no page connected, for a while (``MappingKernelManager.
cull_idle_timeout``, ``cull_interval``, ``cull_connected``). A request beyond the cap is answered
503 with a message saying why, instead of a new kernel.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Integer

__all__ = ["CappedKernelManager"]


class CappedKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, refusing to start a kernel while ``max_kernels`` are
    running or starting (configurable: ``--CappedKernelManager.max_kernels=N``).

    Raises tornado's HTTPError 503 (the page says the app is full) for a kernel over the cap.
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
                                            f"(max_kernels {self.max_kernels}); try again in a few minutes.")
        self._starting += 1
        try:
            started: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        return started
