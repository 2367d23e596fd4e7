"""A stand-in dialect codec, so corpus validation tests do not depend on the
real codecs (written separately). It refuses exactly what the tests break."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import SSEEvent


class FakeCodec:
    def __init__(self, name: str) -> None:
        self.name = name
        self.calls: list[tuple[str, Any]] = []

    def parse_request(self, payload: Any) -> Any:
        self.calls.append(("request", payload))
        if not isinstance(payload, dict) or not isinstance(payload.get("messages"), list):
            raise WireFormatError("messages", "must be a list", "send the conversation as a list")
        if payload.get("crash"):
            raise KeyError("boom")
        return payload

    def parse_response(self, payload: Any) -> Any:
        self.calls.append(("response", payload))
        if not isinstance(payload, dict):
            raise WireFormatError("", "must be an object")
        return payload

    def parse_stream(self, events: Sequence[SSEEvent]) -> Any:
        self.calls.append(("stream", tuple(events)))
        if not events:
            raise WireFormatError("events", "the stream holds no events")
        return events


def install_fake_codecs(monkeypatch: pytest.MonkeyPatch) -> dict[str, FakeCodec]:
    """Make ``validate_corpus`` use FakeCodecs; returns them by dialect."""
    codecs: dict[str, FakeCodec] = {}

    def get_codec(dialect: str) -> FakeCodec:
        return codecs.setdefault(dialect, FakeCodec(dialect))

    monkeypatch.setattr("toolwire.harness.corpus.validate.get_codec", get_codec)
    return codecs
