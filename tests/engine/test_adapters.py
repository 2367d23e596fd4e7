"""Adapters the engine tests drive: a faithful pass-through and ways to break."""

from __future__ import annotations

import sys
import time
from typing import Any

from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS

EVERY_IDENTITY = {(kind, dialect, dialect) for kind in PAYLOAD_KINDS for dialect in DIALECTS}


class PassThrough:
    """Returns every payload unchanged: a perfect same-dialect proxy."""

    name = "pass-through"
    version = "1"
    directions = EVERY_IDENTITY

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return payload


class ReordersResults(PassThrough):
    """A pass-through, except that in an openai-chat request it reverses every run
    of three or more tool messages: a SHOULD (ordering.result_order) on a case
    with that many parallel results, nothing else."""

    name = "reorders-results"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if kind != "request" or source != "openai-chat" or not isinstance(payload, dict):
            return payload
        messages = list(payload.get("messages") or ())
        start = 0
        while start < len(messages):
            end = start
            while end < len(messages) and (messages[end] or {}).get("role") == "tool":
                end += 1
            if end - start >= 3:
                messages[start:end] = messages[start:end][::-1]
            start = end + 1
        return {**payload, "messages": messages}


class Raises(PassThrough):
    name = "raises"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise RuntimeError("upstream converter exploded")


class Sleeps(PassThrough):
    name = "sleeps"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        time.sleep(30)
        return payload


class Exits(PassThrough):
    name = "exits"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        sys.exit(4)


class ReturnsNone(PassThrough):
    name = "returns-none"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return None


class ReturnsGarbage(PassThrough):
    name = "returns-garbage"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return {"hello": "world"} if kind != "stream" else 42


class MutatesInput(PassThrough):
    """Changes its input in place, then returns it: the source must not change."""

    name = "mutates-input"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if isinstance(payload, dict):
            payload["injected"] = True
        return payload


class RaisesOnlyOnParallel(PassThrough):
    name = "raises-on-parallel"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if "Osaka" in str(payload):
            raise ValueError("cannot handle parallel calls")
        return payload


class Declines(PassThrough):
    """Refuses every payload on purpose, the documented way."""

    name = "declines"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        from toolwire.harness.adapters import UnsupportedConversion

        raise UnsupportedConversion("no faithful form for this payload")
