"""A toy gateway that routes by request headers, as Portkey does.

It forwards a Chat Completions request unchanged to the host named by
``x-portkey-custom-host`` when ``x-portkey-provider`` is ``openai``, and
answers HTTP 400 naming the missing header otherwise. It listens on
127.0.0.1 and only forwards to 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler
from typing import Any

from toolwire.harness.proxy.replay_http import Server as QuietServer

PROVIDER = "x-portkey-provider"
CUSTOM_HOST = "x-portkey-custom-host"


class ToyGateway:
    def __init__(self) -> None:
        self.server = QuietServer(("127.0.0.1", 0), _handler())

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def start(self) -> ToyGateway:
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _handler() -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            host = self.headers.get(CUSTOM_HOST, "")
            if self.headers.get(PROVIDER) != "openai" or not host.startswith("http://127.0.0.1:"):
                missing = PROVIDER if self.headers.get(PROVIDER) != "openai" else CUSTOM_HOST
                error = {"error": {"message": f"route by {missing}: header missing or wrong"}}
                self._send(400, "application/json", json.dumps(error).encode())
                return
            request = urllib.request.Request(
                host.rstrip("/") + "/v1/chat/completions",
                data=body,
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    self._send(answer.status, answer.headers["Content-Type"], answer.read())
            except urllib.error.HTTPError as error:
                self._send(error.code, error.headers["Content-Type"], error.read())

        def _send(self, status: int, content_type: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type or "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
