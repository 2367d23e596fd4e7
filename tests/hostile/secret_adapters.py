"""Adapters that leak a fake key every way an adapter can speak (test_secrets_leak.py).

Each key is built from a seed (``tests.hostile.fake_keys``), so the test
that runs the adapter in a subprocess knows it without this module saying it.
"""

from __future__ import annotations

import os
from typing import Any

from tests.hostile.adapters import PassThrough
from tests.hostile.fake_keys import anthropic_key

AZURE_ENV = "TOOLWIRE_TEST_AZURE_OPENAI_API_KEY"


class RaisesWithKey(PassThrough):
    """An SDK error quoting the key it was given."""

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise RuntimeError(f"upstream refused api_key={anthropic_key()} (401)")


class RaisesWithEnvironmentKey(PassThrough):
    """An error quoting a key of no known shape, taken from the environment."""

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise RuntimeError(f"Azure answered 401 for {os.environ.get(AZURE_ENV, '')}")


class DropsStreamText(PassThrough):
    """Converts a stream without its text: the text rules then quote the
    text the source streamed, joined across its events."""

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if kind != "stream":
            return payload
        for event in payload:
            data = event.get("data") if isinstance(event, dict) else None
            for choice in data.get("choices", []) if isinstance(data, dict) else []:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                if isinstance(delta, dict) and delta.get("content"):
                    delta["content"] = ""
        return payload
