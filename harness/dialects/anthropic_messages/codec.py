"""The anthropic-messages codec: the ``DialectCodec`` the registry hands out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects.anthropic_messages.render_stream import render_stream
from toolwire.harness.dialects.anthropic_messages.request import parse_request, render_request
from toolwire.harness.dialects.anthropic_messages.response import parse_response, render_response
from toolwire.harness.dialects.anthropic_messages.stream import parse_stream
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Conversation,
    Response,
    SSEEvent,
    StreamTranscript,
)


class AnthropicMessagesCodec:
    """Anthropic Messages API (``POST /v1/messages``) payloads and streams."""

    name = ANTHROPIC_MESSAGES

    def parse_request(self, payload: Any) -> Conversation:
        return parse_request(payload)

    def render_request(self, conversation: Conversation) -> dict[str, Any]:
        return render_request(conversation)

    def parse_response(self, payload: Any) -> Response:
        return parse_response(payload)

    def render_response(self, response: Response) -> dict[str, Any]:
        return render_response(response)

    def parse_stream(self, events: Sequence[SSEEvent]) -> StreamTranscript:
        return parse_stream(events)

    def render_stream(self, response: Response) -> tuple[SSEEvent, ...]:
        return render_stream(response)
