"""The ``openai-chat`` and ``deepseek-chat`` dialects (Chat Completions).

Modules: ``request`` / ``response`` (bodies), ``messages``, ``content``,
``tool_calls``, ``tools`` (pieces of a body), ``stream`` (SSE reassembly),
``render_stream`` (SSE writing), ``common`` (paths, stop reasons, usage,
arguments) and ``codec`` (the two codec objects).
"""

from __future__ import annotations

from toolwire.harness.dialects.openai_chat.codec import (
    DEEPSEEK_CHAT_CODEC,
    OPENAI_CHAT_CODEC,
    OpenAIChatCodec,
)

__all__ = ["DEEPSEEK_CHAT_CODEC", "OPENAI_CHAT_CODEC", "OpenAIChatCodec"]
