"""The ``openai-responses`` dialect (OpenAI Responses API, ``POST /v1/responses``).

Modules: ``content`` (message content and tool outputs), ``items`` (input and
output items <-> turns), ``tools`` (flat function tools, tool_choice),
``request``, ``response`` (the Response object, status -> stop reason),
``stream`` (typed-event reassembly), ``render_stream`` (event writing),
``codec`` (the ``DialectCodec``).
"""

from __future__ import annotations

from toolwire.harness.dialects.base import DialectCodec
from toolwire.harness.dialects.openai_responses.codec import OpenAIResponsesCodec

OPENAI_RESPONSES_CODEC: DialectCodec = OpenAIResponsesCodec()

__all__ = ["OPENAI_RESPONSES_CODEC", "OpenAIResponsesCodec"]
