"""Child processes for the shutdown tests (docs/hostile-input.md, rows S1-S3 and A25).

``python hanging_children.py adapter MARKER``: a ``cmd:`` adapter that
handshakes, then on its first convert writes its pid to MARKER and never
answers. ``python hanging_children.py proxy PORT MARKER``: a proxy that
accepts connections on 127.0.0.1:PORT, writes its pid to MARKER when the
first request arrives, and never answers. ``python hanging_children.py
endless-line``: a ``cmd:`` adapter whose answer to a convert is a line that
never ends (it writes until its stdout is closed). Standard library only.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path


def _mark(marker: str) -> None:
    temp = Path(f"{marker}.tmp")
    temp.write_text(str(os.getpid()), encoding="utf-8")
    os.replace(temp, marker)  # the test never reads half a pid


def _handshake() -> None:
    directions = [[kind, "openai-chat", "openai-chat"] for kind in ("request", "response")]
    handshake = {
        "type": "handshake",
        "protocol": 1,
        "name": "hangs-on-convert",
        "version": "1",
        "directions": directions,
    }
    sys.stdout.write(json.dumps(handshake) + "\n")
    sys.stdout.flush()


def adapter(marker: str) -> None:
    _handshake()
    for _line in sys.stdin:
        _mark(marker)
        time.sleep(3600)


def endless_line() -> None:
    _handshake()
    sys.stdin.readline()
    piece = b'{"type": "result", "payload": "' + b"x" * (1 << 20)
    try:
        while True:
            sys.stdout.buffer.write(piece)
    except (BrokenPipeError, OSError):
        os._exit(0)


def proxy(port: int, marker: str) -> None:
    with socket.create_server(("127.0.0.1", port)) as server:
        connections = []
        while True:
            connection, _ = server.accept()
            connections.append(connection)  # kept open, never answered
            connection.settimeout(0.05)
            try:
                received = connection.recv(65536)
            except TimeoutError:
                continue  # the readiness probe connects and sends nothing
            if received:
                _mark(marker)


if __name__ == "__main__":
    if sys.argv[1] == "adapter":
        adapter(sys.argv[2])
    elif sys.argv[1] == "endless-line":
        endless_line()
    else:
        proxy(int(sys.argv[2]), sys.argv[3])
