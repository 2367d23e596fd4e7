"""Offline plumbing for the LiteLLM, any-llm and aisuite shims.

* ``Replay``: an in-process HTTP transport (httpx's ``MockTransport``) that
  records the body each request carries and answers it from the case: a JSON
  body, or an event stream. A library driven through its public client with
  this transport runs its whole conversion, both ways, and no socket opens.
* ``forbid_network``: from the moment a shim is built, a connection to any
  address other than this machine raises, so a library that tries to fetch
  something (a cost map, a tokenizer) fails loudly instead of going online.
* ``event_stream`` / ``events_from_text``: the adapter protocol's stream form
  (``[{"event", "data"}]``) to event-stream text and back.
* ``dump``: a library's pydantic object as the JSON it stands for.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._offline import load

_LOOPBACK = ("127.", "::1", "localhost")
_guard_lock = threading.Lock()
_guard_installed = False


class NetworkForbidden(OSError):
    """A third-party library tried to reach the network during an offline run."""


def forbid_network() -> None:
    """Refuse every connection that leaves this machine, for the rest of the process.

    Loopback stays open: toolwire's own proxy tests and replay servers use it.
    """
    global _guard_installed
    with _guard_lock:
        if _guard_installed:
            return
        original_connect = socket.socket.connect
        original_connect_ex = socket.socket.connect_ex

        def allowed(address: Any) -> bool:
            if isinstance(address, str | bytes):  # a Unix socket path
                return True
            host = str(address[0]) if isinstance(address, tuple) and address else ""
            return host.startswith(_LOOPBACK)

        def connect(self: socket.socket, address: Any) -> None:
            if not allowed(address):
                raise NetworkForbidden(f"toolwire runs third-party converters offline: {address!r}")
            original_connect(self, address)

        def connect_ex(self: socket.socket, address: Any) -> int:
            if not allowed(address):
                raise NetworkForbidden(f"toolwire runs third-party converters offline: {address!r}")
            return original_connect_ex(self, address)

        socket.socket.connect = connect  # type: ignore[method-assign, assignment]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign, assignment]
        _guard_installed = True


class Replay:
    """An in-process transport for one library call: records the request bodies
    and answers each with ``answer`` (a JSON value) or ``stream`` (event-stream text).

    ``httpx_module`` is the httpx the library's SDK sends through: ``httpx``
    for most, ``httpx2`` for the openai SDK from version 3 on.
    """

    def __init__(
        self,
        answer: Any = None,
        stream: str | None = None,
        httpx_module: str = "httpx",
        status: int = 200,
        answers: Iterable[Any] = (),
    ) -> None:
        self.answer = answer
        self.stream = stream
        # Answers for successive requests, before ``answer``: one client, many calls.
        self.answers = list(answers)
        self.status = status
        self.bodies: list[Any] = []
        self.urls: list[str] = []
        self._httpx: Any = load(httpx_module)

    def async_client(self) -> Any:
        return self._httpx.AsyncClient(transport=self._httpx.MockTransport(self._respond))

    def sync_client(self) -> Any:
        return self._httpx.Client(transport=self._httpx.MockTransport(self._respond))

    def only_body(self) -> Any:
        """The body of the one request the library sent."""
        if len(self.bodies) != 1:
            raise RuntimeError(f"the library sent {len(self.bodies)} requests, not one")
        return self.bodies[0]

    def _respond(self, request: Any) -> Any:
        self.urls.append(str(request.url))
        self.bodies.append(json.loads(request.content or b"null"))
        if self.stream is not None:
            return self._httpx.Response(
                self.status,
                content=self.stream.encode("utf-8"),
                headers={"content-type": "text/event-stream"},
            )
        answer = self.answers.pop(0) if self.answers else self.answer
        return self._httpx.Response(self.status, json=answer)


def event_stream(events: Iterable[Mapping[str, Any]]) -> str:
    """The protocol's stream form as the event-stream text a server sends."""
    lines: list[str] = []
    for event in events:
        name = event.get("event")
        data = event.get("data")
        if isinstance(name, str):
            lines.append(f"event: {name}")
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        lines.append(f"data: {text}")
        lines.append("")
    return "\n".join(lines) + "\n"


def stream_data(events: Iterable[Mapping[str, Any]]) -> list[Any]:
    """The parsed ``data`` of each event, without the ``[DONE]`` terminator."""
    return [event.get("data") for event in events if event.get("data") != "[DONE]"]


def dump(model: Any, exclude_none: bool = False, exclude_unset: bool = True) -> Any:
    """A pydantic object as the JSON it stands for: the fields the library set,
    by their wire names, as the SDKs' own ``to_dict()`` writes them
    (``exclude_unset``). ``exclude_none`` also drops fields set to ``None``,
    as LiteLLM's proxy writes its stream chunks; ``exclude_unset=False`` keeps
    every field, for a library whose objects have no wire form of their own."""
    text = model.model_dump_json(
        by_alias=True, exclude_unset=exclude_unset, exclude_none=exclude_none
    )
    return json.loads(text)


def chunk_events(
    chunks: Iterable[Any], exclude_none: bool = False, exclude_unset: bool = True
) -> list[dict[str, Any]]:
    """Chat Completions chunks (pydantic objects) as an OpenAI event stream,
    ending with ``data: [DONE]`` as the Chat Completions stream does."""
    events: list[dict[str, Any]] = [
        {"event": None, "data": dump(chunk, exclude_none, exclude_unset)} for chunk in chunks
    ]
    events.append({"event": None, "data": "[DONE]"})
    return events


# Answers to a request whose conversion is under test: the library must get a
# valid answer to finish its call, and what it makes of it is not judged.
_OPENAI_ANSWER: dict[str, Any] = {
    "id": "chatcmpl-toolwire",
    "object": "chat.completion",
    "created": 0,
    "model": "toolwire",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "ok"},
            "logprobs": None,
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}
_ANTHROPIC_ANSWER: dict[str, Any] = {
    "id": "msg_toolwire",
    "type": "message",
    "role": "assistant",
    "model": "toolwire",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


def placeholder_answer(dialect: str, stream: bool, httpx_module: str = "httpx") -> Replay:
    """A replay that answers any request with a one-word reply in ``dialect``
    ("anthropic" or "openai"), streamed when the request asks for a stream."""
    if dialect == "anthropic":
        if not stream:
            return Replay(answer=_ANTHROPIC_ANSWER, httpx_module=httpx_module)
        message = {**_ANTHROPIC_ANSWER, "content": [], "stop_reason": None}
        events: list[dict[str, Any]] = [
            {"event": "message_start", "data": {"type": "message_start", "message": message}},
            {
                "event": "content_block_start",
                "data": {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            },
            {
                "event": "content_block_delta",
                "data": {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "ok"},
                },
            },
            {"event": "content_block_stop", "data": {"type": "content_block_stop", "index": 0}},
            {
                "event": "message_delta",
                "data": {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                },
            },
            {"event": "message_stop", "data": {"type": "message_stop"}},
        ]
        return Replay(stream=event_stream(events), httpx_module=httpx_module)
    if not stream:
        return Replay(answer=_OPENAI_ANSWER, httpx_module=httpx_module)
    chunk = {k: v for k, v in _OPENAI_ANSWER.items() if k not in ("choices", "usage")}
    chunk["object"] = "chat.completion.chunk"
    choice = {"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": None}
    final = {"index": 0, "delta": {}, "finish_reason": "stop"}
    chunks = [{**chunk, "choices": [choice]}, {**chunk, "choices": [final]}]
    openai_events: list[dict[str, Any]] = [{"event": None, "data": data} for data in chunks]
    openai_events.append({"event": None, "data": "[DONE]"})
    return Replay(stream=event_stream(openai_events), httpx_module=httpx_module)
