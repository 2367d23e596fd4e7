"""The ``anthropic-messages`` dialect (Anthropic Messages API).

Modules: ``blocks`` (content blocks), ``tools`` (tool definitions and
tool_choice), ``request``, ``response``, ``stream`` (SSE reassembly),
``render_stream`` (SSE writing), ``codec`` (the ``DialectCodec``).
"""

from __future__ import annotations

from toolwire.harness.dialects.anthropic_messages.codec import AnthropicMessagesCodec
from toolwire.harness.dialects.base import DialectCodec

ANTHROPIC_MESSAGES_CODEC: DialectCodec = AnthropicMessagesCodec()

__all__ = ["ANTHROPIC_MESSAGES_CODEC", "AnthropicMessagesCodec"]
