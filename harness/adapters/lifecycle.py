"""Adapters that hold resources for a run: started before it, always stopped after.

An ``http://`` adapter runs the replay upstream and, with ``--proxy-cmd``,
the proxy itself; a ``cmd:`` adapter runs a subprocess. ``adapter_session``
starts what needs starting and stops it however the run ends. Other adapters
pass through untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.errors import ToolwireError


class ProxyCommandUsageError(ToolwireError):
    exit_code = 2


@contextmanager
def adapter_session(adapter: LoadedAdapter, proxy_command: str | None = None) -> Iterator[None]:
    from toolwire.harness.adapters.cmd import CmdAdapter
    from toolwire.harness.adapters.http_adapter import HttpProxyAdapter

    implementation = adapter.implementation
    if proxy_command is not None and not isinstance(implementation, HttpProxyAdapter):
        raise ProxyCommandUsageError(
            f"--proxy-cmd starts a proxy, but adapter {adapter.spec!r} is not one",
            hint="use --adapter 'http://127.0.0.1:PORT?front=...&back=...'",
        )
    try:
        if isinstance(implementation, HttpProxyAdapter):
            implementation.start(proxy_command)
        yield
    finally:
        if isinstance(implementation, HttpProxyAdapter | CmdAdapter):
            implementation.close()
