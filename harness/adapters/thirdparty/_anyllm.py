"""What the any-llm shims share: a provider whose SDK client talks to a replay.

Pinned (extra ``anyllm``): any-llm-sdk 1.40.2 with its anthropic, deepseek and
openai extras (the openai SDK 3, which sends through ``httpx2``; the
anthropic SDK sends through ``httpx``).

Each shim drives any-llm's public API (``AnyLLM.create(provider,
http_client=...)``, then ``acompletion`` or ``amessages``) with the SDK's HTTP
client on an in-process transport (``_replay.Replay``): the request body is
what the SDK would put on the wire, and the answer any-llm converts is the
case's own response or stream. No socket opens. any-llm answers with
pydantic objects, which have no wire form of their own: every field they
hold is written out (``None`` as ``null``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._offline import load, require, run_async
from toolwire.harness.adapters.thirdparty._replay import Replay, forbid_network

EXTRA = "anyllm"
MODULES = ("any_llm", "anthropic", "openai", "httpx", "httpx2")
API_KEY = "toolwire-offline-no-network"
# The httpx each provider's SDK sends through.
HTTPX = {"anthropic": "httpx", "openai": "httpx2", "deepseek": "httpx2"}


def load_anyllm(adapter: str) -> str:
    """Check any-llm is installed, forbid the network; return its version."""
    version = require(adapter, EXTRA, MODULES, "any-llm-sdk")
    forbid_network()
    load("any_llm")
    return version


def provider(name: str, replay: Replay) -> Any:
    """An any-llm provider whose SDK client sends to ``replay``."""
    any_llm = load("any_llm")
    if name != "deepseek":
        return any_llm.AnyLLM.create(name, api_key=API_KEY, http_client=replay.async_client())
    # DeepseekProvider hands ``http_client`` to both its openai client (httpx2)
    # and its Anthropic one (httpx), and one object cannot be both: build it
    # plainly, then give its Chat Completions client the replay's transport.
    llm = any_llm.AnyLLM.create(name, api_key=API_KEY)
    llm.client = load("openai").AsyncOpenAI(
        base_url=llm.client.base_url, api_key=API_KEY, http_client=replay.async_client()
    )
    return llm


def call(make: Callable[[], Any]) -> Any:
    """Run an any-llm coroutine; a stream is read to its end inside the same loop."""

    async def run() -> Any:
        result = await make()
        if isinstance(result, AsyncIterator) or hasattr(result, "__aiter__"):
            return [item async for item in result]
        return result

    return run_async(run)


def call_for_body(replay: Replay, make: Callable[[], Any]) -> Any:
    """The body the library sent while running ``make``. If the library failed
    after sending (on the placeholder answer), the body still stands."""
    try:
        call(make)
    except Exception:
        if not replay.bodies:
            raise
    return replay.only_body()


def split_request(body: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A request body as any-llm's arguments: the model and the other keys."""
    arguments = {key: value for key, value in body.items() if key != "model"}
    return str(body.get("model", "")), arguments
