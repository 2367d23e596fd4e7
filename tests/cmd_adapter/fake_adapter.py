"""A cmd: adapter for the tests (standard library only, so it starts fast).

``python fake_adapter.py MODE [STATE_FILE]``: MODE picks one behaviour.

* ``echo``: a pass-through for openai-chat (every kind), with both capabilities:
  a convert for a response gets ``"request_seen"`` added when it carried the
  request; id_mapping answers ``{}``;
* ``error``: answers every convert with an error message;
* ``decline``: answers every convert with an unsupported message;
* ``garbage``: answers with a line that is not JSON;
* ``crash``: exits on every convert (writing to stderr first);
* ``crash-once``: exits on the first convert of its life if STATE_FILE is absent;
* ``hang``: never answers a convert;
* ``wrong-id``: answers with another id;
* ``invalid-result``: answers a result whose payload is a number;
* ``bad-direction``: a handshake naming an unknown dialect;
* ``no-handshake`` / ``old-protocol`` / ``silent``: a broken start.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

KINDS = ("request", "response", "stream")


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def handshake(mode: str) -> None:
    directions: list[list[str]] = [[kind, "openai-chat", "openai-chat"] for kind in KINDS]
    message: dict[str, Any] = {
        "type": "handshake",
        "protocol": 1,
        "name": f"fake-{mode}",
        "version": "1.0",
        "directions": directions,
        "capabilities": ["request_context", "id_mapping"],
    }
    if mode == "old-protocol":
        message["protocol"] = 0
    if mode == "bad-direction":
        directions[0] = ["request", "openai-chat", "mistral-chat"]
    if mode == "no-handshake":
        message = {"type": "result", "id": 1, "payload": {}}
    send(message)


def answer(mode: str, message: dict[str, Any], state: str | None) -> None:
    ident = message["id"]
    if mode == "error":
        send({"type": "error", "id": ident, "message": "cannot do that", "error_type": "Nope"})
    elif mode == "decline":
        send({"type": "unsupported", "id": ident, "message": "the name is too long"})
    elif mode == "garbage":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
    elif mode == "crash" or (mode == "crash-once" and state and not os.path.exists(state)):
        if state:
            open(state, "w").close()
        sys.stderr.write("fatal: converter exploded\n")
        sys.stderr.flush()
        sys.exit(7)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "wrong-id":
        send({"type": "result", "id": ident + 100, "payload": message["payload"]})
    elif mode == "invalid-result":
        send({"type": "result", "id": ident, "payload": 42})
    elif message["type"] == "id_mapping":
        send({"type": "result", "id": ident, "payload": {}})
    else:
        payload = message["payload"]
        if "request" in message and isinstance(payload, dict):
            payload = {**payload, "request_seen": True}
        send({"type": "result", "id": ident, "payload": payload})


def main() -> None:
    mode = sys.argv[1]
    state = sys.argv[2] if len(sys.argv) > 2 else None
    if mode == "silent":
        time.sleep(60)
        return
    handshake(mode)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "shutdown":
            return
        answer(mode, message, state)


if __name__ == "__main__":
    main()
