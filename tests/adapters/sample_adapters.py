"""Adapters used by the loader tests, in each form a spec may name."""

from __future__ import annotations

from typing import Any


class EchoAdapter:
    """Returns the payload unchanged, for one direction."""

    name = "echo"
    version = "1.0"
    directions = (("request", "openai-chat", "openai-chat"),)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return payload


ECHO = EchoAdapter()


def make_echo() -> EchoAdapter:
    return EchoAdapter()


class NoDirections(EchoAdapter):
    directions = ()


class UnknownDialect(EchoAdapter):
    directions = (("request", "openai-chat", "mistral-chat"),)


class UnknownKind(EchoAdapter):
    directions = (("batch", "openai-chat", "openai-chat"),)


class MissingConvert:
    name = "half"
    version = "0"
    directions = (("request", "openai-chat", "openai-chat"),)


class RaisesOnInit:
    def __init__(self) -> None:
        raise RuntimeError("needs an API key")


NOT_AN_ADAPTER = 42


class ExitsOnInit:
    def __init__(self) -> None:
        raise SystemExit(0)
