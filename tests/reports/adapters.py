"""Adapters for report tests: the reference converter, damaged in a known way."""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.adapters.loader import load_adapter

_REFERENCE = load_adapter("reference")


class RenamesIds:
    """The reference converter, but in requests to anthropic-messages with several tool
    calls the ``call_`` id of the first call loses a letter while its result keeps it:
    pairing breaks (a consistent rename of both is only a pairing.id_changed warning,
    docs/levels.md)."""

    name = "renames-ids"
    version = "2.0"
    directions = frozenset(tuple(direction) for direction in _REFERENCE.directions)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        converted = _REFERENCE.convert(payload, kind, source, target)
        text = json.dumps(converted)
        if kind != "request" or target != "anthropic-messages" or text.count('"tool_use"') < 2:
            return converted
        return json.loads(text.replace('"id": "call_', '"id": "cal_', 1))
