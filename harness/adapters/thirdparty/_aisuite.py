"""What the aisuite shims share: a client whose provider SDK talks to a replay,
and the envelope aisuite's objects lack.

Pinned (extra ``aisuite``): aisuite 0.2.0 with its anthropic and openai
extras (the openai SDK 1, both SDKs sending through ``httpx``).

Each shim drives aisuite's public API, ``aisuite.Client().chat.completions.create(
"provider:model", messages, ...)``, with the provider's SDK client on an
in-process transport (``_replay.Replay``). aisuite builds each provider from
one config for its sync and async SDK clients, and an HTTP client cannot be
both, so the shim puts the provider in the client's table itself, its sync
SDK client built on the replay.

aisuite answers with its own ``ChatCompletionResponse`` (choices with a
message and a finish reason, usage) and, streaming, chunks with choices and
usage: no ``id``, ``object``, ``created`` nor ``model``. Those four are
toolwire's leg, copied from the case's response, so the payload can be read
as a Chat Completions body; everything else is aisuite's, every field of its
objects written out (``None`` as ``null``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._offline import load, require
from toolwire.harness.adapters.thirdparty._replay import Replay, dump, forbid_network

EXTRA = "aisuite"
MODULES = ("aisuite", "anthropic", "openai", "httpx")
API_KEY = "toolwire-offline-no-network"


def load_aisuite(adapter: str) -> str:
    """Check aisuite is installed, forbid the network; return its version."""
    version = require(adapter, EXTRA, MODULES, "aisuite")
    forbid_network()
    load("aisuite")
    return version


def client(provider_key: str, replay: Replay) -> Any:
    """An ``aisuite.Client`` whose ``provider_key`` provider sends to ``replay``."""
    aisuite = load("aisuite")
    factory = load("aisuite.provider").ProviderFactory
    provider = factory.create_provider(provider_key, {"api_key": API_KEY})
    sdk_client = provider.client
    provider.client = type(sdk_client)(
        api_key=API_KEY, base_url=sdk_client.base_url, http_client=replay.sync_client()
    )
    suite = aisuite.Client(provider_configs={provider_key: {"api_key": API_KEY}})
    suite.providers[provider_key] = provider
    return suite


def envelope(source: Mapping[str, Any]) -> dict[str, Any]:
    """The fields aisuite's objects lack, from the case's response (or first chunk)."""
    return {
        "id": source.get("id", "toolwire"),
        "object": "chat.completion",
        "created": source.get("created", 0),
        "model": source.get("model", "toolwire"),
    }


def response_body(response: Any, source: Mapping[str, Any]) -> dict[str, Any]:
    """aisuite's ``ChatCompletionResponse`` as a Chat Completions body."""
    body = envelope(source)
    body["choices"] = [
        {
            "index": index,
            "message": dump(choice.message, exclude_unset=False),
            "finish_reason": choice.finish_reason,
        }
        for index, choice in enumerate(response.choices)
    ]
    if response.usage is not None:
        body["usage"] = dump(response.usage, exclude_unset=False)
    return body


def stream_events(chunks: Iterable[Any], source: Mapping[str, Any]) -> list[dict[str, Any]]:
    """aisuite's chunks as a Chat Completions event stream (``[DONE]`` last)."""
    head = {**envelope(source), "object": "chat.completion.chunk"}
    events: list[dict[str, Any]] = []
    for chunk in chunks:
        data = dump(chunk, exclude_unset=False)
        events.append({"event": None, "data": {**head, **data}})
    events.append({"event": None, "data": "[DONE]"})
    return events
