"""Adapters for report tests: the reference converter, damaged in a known way."""

from __future__ import annotations

import json
from typing import Any

from harness.adapters.loader import load_adapter

_REFERENCE = load_adapter("reference")


class RenamesIds:
    """The reference converter, but every ``call_`` id loses a letter: pairing breaks."""

    name = "renames-ids"
    version = "2.0"
    directions = frozenset(tuple(direction) for direction in _REFERENCE.directions)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        converted = _REFERENCE.convert(payload, kind, source, target)
        return json.loads(json.dumps(converted).replace('"call_', '"cal_'))
