"""A small HTTP proxy for the tests, built on the reference adapter, with faults.

It listens on 127.0.0.1, converts each request front -> back with the
reference adapter, forwards it to its upstream (the replay server), converts
the answer back -> front and returns it (event by event for streams). A
``fault`` makes it misbehave in one precise way:

* ``drop-reasoning``: strips reasoning from the forwarded request;
* ``split-results``: sends parallel Anthropic tool results in one user turn each;
* ``status-500``: forwards, then answers HTTP 500;
* ``reset``: resets the connection without answering;
* ``hang``: never answers;
* ``stall-stream``: sends the first events of a stream, then nothing;
* ``close-mid-stream``: sends the first events, then closes the connection;
* ``invalid-sse``: sends an event whose data is not JSON;
* ``json-for-stream``: answers a streamed request with a JSON body;
* ``rename-tool``: renames the first tool call of the forwarded conversation;
* ``drop-tool``: forwards the request without its last tool definition;
* ``drop-tool-bad-answer``: that, and empties the arguments of the tool calls
  in the JSON answer it returns;
* ``flip-stream``: forwards a streamed request as a JSON one and the other way;
* ``wrong-endpoint``: forwards to the endpoint of the other dialect;
* ``die``: prints a last word and exits (status 3) on its first request;
* ``gemini-stream-in-body``: toward Gemini, asks for a stream with
  ``"stream": true`` in the body of a ``:generateContent`` call (Gemini reads
  the stream choice from the method in the URL);
* ``gemini-no-sse``: toward Gemini, streams with ``:streamGenerateContent``
  but without ``alt=sse`` (Gemini then answers one JSON array);
* ``gemini-drop-ids``: toward Gemini, drops the ``id`` of every function call
  and response and keeps the results in the client's order (as LiteLLM does
  for models before Gemini 3): results out of call order then answer, by name
  and order, other calls than their ids said;
* ``gemini-drop-ids-in-call-order``: drops the ids too, but puts each turn's
  function responses in the order of the calls they answer: no fault, a
  correct conversion that differs from the recording.

Toward Gemini it names the model and the stream choice in the path and
passes its key as ``?key=`` (both as Gemini allows); from a Gemini front it
reads them from the path.

Run as a program for ``--proxy-cmd``:
``python -m tests.proxy.toy_proxy --upstream URL --port N [--front F --back B --fault X]``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from typing import Any

from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.payloads import events_to_wire, wire_to_events, with_url_model
from toolwire.harness.proxy.replay_http import Server as QuietServer
from toolwire.harness.sse import parse_sse, render_sse

FAULTS = (
    "drop-reasoning",
    "split-results",
    "status-500",
    "reset",
    "hang",
    "stall-stream",
    "close-mid-stream",
    "invalid-sse",
    "json-for-stream",
    "rename-tool",
    "drop-tool",
    "drop-tool-bad-answer",
    "flip-stream",
    "wrong-endpoint",
    "die",
    "gemini-stream-in-body",
    "gemini-no-sse",
    "gemini-drop-ids",
    "gemini-drop-ids-in-call-order",
)
UPSTREAM_PATHS = {
    "anthropic-messages": "/v1/messages",
    "openai-chat": "/v1/chat/completions",
    "deepseek-chat": "/chat/completions",
    "openai-responses": "/v1/responses",
}
# What the toy sends as its Gemini key: a secret the replay must never record.
GEMINI_KEY = "toy-secret-gemini-key"


class ToyProxy:
    def __init__(
        self,
        upstream_url: str,
        front: str = "anthropic-messages",
        back: str = "openai-chat",
        fault: str | None = None,
        port: int = 0,
    ) -> None:
        assert fault is None or fault in FAULTS, fault
        assert upstream_url.startswith("http://127.0.0.1:"), upstream_url
        self.upstream_url, self.front, self.back, self.fault = upstream_url, front, back, fault
        self.released = threading.Event()  # ends the waits of hang and stall faults
        self.server = QuietServer(("127.0.0.1", port), _handler(self))

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def start(self) -> ToyProxy:
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()

    # --- conversion ------------------------------------------------------------------

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if source == target:
            return payload
        return ReferenceAdapter().convert(payload, kind, source, target)  # type: ignore[arg-type]

    def forward(self, front_request: dict[str, Any], stream: bool) -> tuple[int, str, str]:
        body = self.convert(front_request, "request", self.front, self.back)
        body = _apply_request_fault(body, self.fault)
        if self.back == "gemini":
            path = self._gemini_path(body, str(front_request.get("model") or "gemini-x"), stream)
        else:
            path = UPSTREAM_PATHS[self.back]
            if stream and self.front == "gemini":
                body["stream"] = True  # the Gemini front said it in its path
        if self.fault == "wrong-endpoint":
            path = "/v1/messages" if path != "/v1/messages" else "/v1/chat/completions"
        request = urllib.request.Request(
            self.upstream_url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **self._key_header()},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers.get("Content-Type", ""), answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read().decode()

    def _key_header(self) -> dict[str, str]:
        return {"x-goog-api-key": GEMINI_KEY} if self.back == "gemini" else {}

    def _gemini_path(self, body: dict[str, Any], model: str, stream: bool) -> str:
        for key in ("model", "stream"):
            body.pop(key, None)
        if self.fault == "gemini-stream-in-body" and stream:
            body["stream"] = True
            return f"/v1beta/models/{model}:generateContent?key={GEMINI_KEY}"
        if not stream:
            return f"/v1beta/models/{model}:generateContent?key={GEMINI_KEY}"
        sse = "" if self.fault == "gemini-no-sse" else "&alt=sse"
        return f"/v1beta/models/{model}:streamGenerateContent?key={GEMINI_KEY}{sse}"


def _apply_request_fault(body: dict[str, Any], fault: str | None) -> dict[str, Any]:
    if fault in ("gemini-drop-ids", "gemini-drop-ids-in-call-order"):
        _drop_gemini_ids(body.get("contents", []), fault.endswith("in-call-order"))
        return body
    messages = body.get("messages", [])
    if fault == "drop-reasoning":
        for message in messages:
            message.pop("reasoning_content", None)
            if isinstance(message.get("content"), list):
                message["content"] = [
                    b for b in message["content"] if b.get("type") not in ("thinking",)
                ]
    elif fault == "split-results":
        split: list[dict[str, Any]] = []
        for message in messages:
            content = message.get("content")
            results = (
                [b for b in content if b.get("type") == "tool_result"]
                if isinstance(content, list)
                else []
            )
            if message.get("role") == "user" and len(results) > 1:
                split.extend({"role": "user", "content": [block]} for block in content)
            else:
                split.append(message)
        body["messages"] = split
    elif fault in ("drop-tool", "drop-tool-bad-answer"):
        body["tools"] = body.get("tools", [])[:-1]
        if not body["tools"]:
            body.pop("tools")
            body.pop("tool_choice", None)
    elif fault == "flip-stream":
        body["stream"] = not body.get("stream")
        if not body["stream"]:
            body.pop("stream_options", None)
    elif fault == "rename-tool":
        for message in messages:
            for call in message.get("tool_calls") or []:
                call["function"]["name"] += "_renamed"
                return body
    return body


def _drop_gemini_ids(contents: list[dict[str, Any]], in_call_order: bool) -> None:
    """Gemini function calls and responses without their ids; ``in_call_order``:
    each turn's responses sorted into the order of the calls they answered."""
    order: dict[str, int] = {}
    for content in contents:
        parts = content.get("parts") or []
        for part in parts:
            call = part.get("functionCall")
            if call is not None and call.get("id"):
                order[call["id"]] = len(order)
        if in_call_order:  # the response parts change places among themselves
            slots = [i for i, part in enumerate(parts) if "functionResponse" in part]
            ranked = sorted((parts[i] for i in slots), key=lambda p: order.get(_response_id(p), 0))
            for slot, part in zip(slots, ranked, strict=True):
                parts[slot] = part
        for part in parts:
            for key in ("functionCall", "functionResponse"):
                if key in part:
                    part[key].pop("id", None)


def _response_id(part: dict[str, Any]) -> str:
    return str((part.get("functionResponse") or {}).get("id") or "")


def _empty_arguments(answer: dict[str, Any]) -> None:
    """Every tool call of a JSON answer loses its arguments (either front dialect)."""
    for block in answer.get("content") or []:
        if block.get("type") == "tool_use":
            block["input"] = {}
    for choice in answer.get("choices") or []:
        for call in choice.get("message", {}).get("tool_calls") or []:
            call["function"]["arguments"] = "{}"


def _handler(proxy: ToyProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            front_request = json.loads(self.rfile.read(length))
            stream = front_request.get("stream") is True
            if proxy.front == "gemini":  # the model and the stream choice are in the path
                front_request = with_url_model(front_request, self.path)
                stream = ":streamGenerateContent" in self.path
            fault = proxy.fault
            if fault == "die":
                print("toy proxy: out of memory", flush=True)
                os._exit(3)
            if fault == "hang":
                proxy.released.wait(60)
                return
            if fault == "reset":
                # SO_LINGER with a zero timeout makes close() send a TCP reset.
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.close_connection = True
                return
            status, content_type, text = proxy.forward(front_request, stream)
            if fault == "status-500":
                self._send(500, "application/json", '{"error": {"message": "boom"}}')
            elif not 200 <= status < 300:
                self._send(status, content_type or "application/json", text)
            elif content_type.startswith("text/event-stream"):
                self._stream(text)
            else:
                answer = proxy.convert(json.loads(text), "response", proxy.back, proxy.front)
                if fault == "drop-tool-bad-answer":
                    _empty_arguments(answer)
                self._send(200, "application/json", json.dumps(answer))

        def _stream(self, text: str) -> None:
            events = events_to_wire(parse_sse(text))
            converted = proxy.convert(events, "stream", proxy.back, proxy.front)
            blocks = [render_sse([event]) for event in wire_to_events(converted)]
            if proxy.fault == "json-for-stream":
                self._send(200, "application/json", json.dumps({"events": len(blocks)}))
                return
            if proxy.fault == "invalid-sse":
                blocks.insert(1, "data: {this is not json\n\n")
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for number, block in enumerate(blocks):
                if number == 2 and proxy.fault == "stall-stream":
                    proxy.released.wait(60)
                    return
                if number == 2 and proxy.fault == "close-mid-stream":
                    self.close_connection = True
                    return
                data = block.encode()
                self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

        def _send(self, status: int, content_type: str, text: str) -> None:
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--front", default="anthropic-messages")
    parser.add_argument("--back", default="openai-chat")
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--exit-at-start", action="store_true", help="fail like a bad config")
    args = parser.parse_args(argv)
    if args.exit_at_start:
        print("toy proxy: config error: no model list", flush=True)
        sys.exit(4)
    proxy = ToyProxy(args.upstream, args.front, args.back, args.fault, args.port)
    print(f"toy proxy listening on 127.0.0.1:{proxy.port}", flush=True)
    proxy.server.serve_forever()


if __name__ == "__main__":
    main()
