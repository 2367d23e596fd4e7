"""An adapter whose output holds an integer Python cannot write as JSON text (N15)."""

from __future__ import annotations

from typing import Any

from tests.hostile.adapters import PassThrough


class BigIntegerOutput(PassThrough):
    name = "big-integer-output"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if isinstance(payload, dict):
            return {**payload, "max_tokens": 10**5000}
        return payload
