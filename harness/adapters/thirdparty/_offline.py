"""Plumbing shared by the shims of LangChain, pydantic-ai, openai-agents and sglang.

Each shim drives a third-party library's own conversion code, offline:

* ``require``: the library is imported only inside the shim's methods, so
  toolwire loads without it; a shim built without it raises
  ``AdapterLoadError`` naming the extra to install;
* ``load``: a lazy import (``importlib``), typed ``Any`` since the library is
  not installed where toolwire is type-checked;
* ``capture_request_body``: runs a library's real request path against an
  in-process HTTP transport that records the body the library sends and
  answers 400, so no byte leaves the machine and the shim returns exactly
  the JSON the library would have put on the wire;
* ``plain_json``: what a shim returns is a JSON value (the protocol's
  payloads are plain JSON), never a library object.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
from collections.abc import Awaitable, Callable, Sequence
from importlib import metadata
from typing import Any

from toolwire.harness.errors import AdapterLoadError

# A key the libraries accept; no request ever reaches a server.
OFFLINE_API_KEY = "toolwire-offline-no-network"


def module_available(name: str) -> bool:
    """Whether ``name`` can be imported (``sys.modules[name] = None`` counts as missing)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def require(adapter: str, extra: str, modules: Sequence[str], distribution: str) -> str:
    """The installed version of ``distribution``, or ``AdapterLoadError`` when a
    module the shim imports is missing."""
    missing = [name for name in modules if not module_available(name)]
    if missing:
        raise AdapterLoadError(
            f"adapter {adapter!r} needs {', '.join(missing)}, which is not installed",
            hint=f"install toolwire[{extra}] (pip install 'toolwire[{extra}]')",
        )
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "unknown"


def load(module: str) -> Any:
    """Import a library module lazily (typed ``Any``: the library is optional)."""
    return importlib.import_module(module)


def plain_json(value: Any) -> Any:
    """``value`` as plain JSON (dicts, lists, strings, numbers, booleans, null).

    A library object that JSON cannot hold is an error of the shim's output,
    said in one line, not something to paper over."""
    try:
        return json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError) as error:
        raise TypeError(f"the library returned something that is not JSON: {error}") from error


def run_async(make: Callable[[], Awaitable[Any]]) -> Any:
    """Run a library coroutine to completion from synchronous code."""
    return asyncio.run(_awaited(make))


async def _awaited(make: Callable[[], Awaitable[Any]]) -> Any:
    return await make()


class RequestCapture:
    """An httpx2 transport that records each request body and answers 400.

    openai >= 3 and anthropic >= 2 (the SDKs pydantic-ai and openai-agents
    drive) send through ``httpx2``; its ``MockTransport`` runs in-process."""

    def __init__(self) -> None:
        self.bodies: list[Any] = []

    def client(self) -> Any:
        httpx = load("httpx2")
        return httpx.AsyncClient(transport=httpx.MockTransport(self._answer))

    def sync_client(self) -> Any:
        httpx = load("httpx2")
        return httpx.Client(transport=httpx.MockTransport(self._answer))

    def body(self, send: Callable[[], Any]) -> Any:
        """The body sent while running ``send`` (synchronous): see ``capture_request_body``."""
        try:
            send()
        except Exception:
            if not self.bodies:
                raise
        if not self.bodies:
            raise RuntimeError("the library sent no request")
        return plain_json(self.bodies[0])

    def _answer(self, request: Any) -> Any:
        httpx = load("httpx2")
        self.bodies.append(json.loads(request.content or b"null"))
        return httpx.Response(
            400,
            json={
                "type": "error",
                "error": {"type": "invalid_request_error", "message": "toolwire: captured"},
            },
        )


def capture_request_body(capture: RequestCapture, send: Callable[[], Awaitable[Any]]) -> Any:
    """The body the library sent through ``capture`` while running the coroutine
    ``send`` makes. The library then fails on the 400 answer, as expected; if it
    failed before sending anything, its own error is the conversion's error."""
    return capture.body(lambda: run_async(send))
