"""Dialect codecs, looked up by name."""

from __future__ import annotations

from importlib import import_module

from toolwire.harness.dialects.base import DialectCodec
from toolwire.harness.errors import UnsupportedDialectError
from toolwire.harness.model import DIALECTS

# name -> "module:attribute"; imported on first use so that loading one
# dialect does not pay for the others.
_CODECS: dict[str, str] = {
    "openai-chat": "toolwire.harness.dialects.openai_chat:OPENAI_CHAT_CODEC",
    "deepseek-chat": "toolwire.harness.dialects.openai_chat:DEEPSEEK_CHAT_CODEC",
    "anthropic-messages": "toolwire.harness.dialects.anthropic_messages:ANTHROPIC_MESSAGES_CODEC",
    "qwen-xml": "toolwire.harness.dialects.qwen_xml:QWEN_XML_CODEC",
    "gemini": "toolwire.harness.dialects.gemini:GEMINI_CODEC",
    "openai-responses": "toolwire.harness.dialects.openai_responses:OPENAI_RESPONSES_CODEC",
}
# Codecs already imported: a run asks for one per payload it parses.
_LOADED: dict[str, DialectCodec] = {}


def get_codec(dialect: str) -> DialectCodec:
    """Return the codec for ``dialect`` or raise a clear error naming the valid ones."""
    loaded = _LOADED.get(dialect)
    if loaded is not None:
        return loaded
    target = _CODECS.get(dialect)
    if target is None:
        raise UnsupportedDialectError(
            f"unknown dialect {dialect!r}", hint=f"use one of: {', '.join(DIALECTS)}"
        )
    module_name, _, attribute = target.partition(":")
    codec: DialectCodec = getattr(import_module(module_name), attribute)
    _LOADED[dialect] = codec
    return codec


__all__ = ["DIALECTS", "DialectCodec", "get_codec"]
