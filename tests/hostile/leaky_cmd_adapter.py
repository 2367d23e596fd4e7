"""A cmd: adapter that leaks a fake key (tests/hostile/test_secrets_leak.py).

``python leaky_cmd_adapter.py MODE``: ``stderr`` writes the key on stderr and
exits on every convert; ``error`` answers every convert with an ``error``
message quoting it; ``unsupported`` declines, quoting it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.hostile.fake_keys import anthropic_key


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode: str) -> None:
    kinds = ("request", "response", "stream")
    send(
        {
            "type": "handshake",
            "protocol": 1,
            "name": f"leaky-{mode}",
            "version": "1.0",
            "directions": [[kind, "openai-chat", "openai-chat"] for kind in kinds],
            "capabilities": [],
        }
    )
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "convert":
            return
        leak = f"x-api-key: {anthropic_key()}"
        if mode == "stderr":
            sys.stderr.write(f"fatal: the upstream refused {leak}\n")
            sys.stderr.flush()
            sys.exit(1)
        if mode == "error":
            send({"type": "error", "id": message["id"], "message": f"refused {leak}"})
        else:
            send({"type": "unsupported", "id": message["id"], "message": f"no {leak}"})


if __name__ == "__main__":
    main(sys.argv[1])
