"""The openai-chat codec and its deepseek-chat twin.

DeepSeek's thinking mode is the Chat Completions wire shape plus
``reasoning_content`` on assistant messages
(https://api-docs.deepseek.com/guides/thinking_mode); both codecs read both
reasoning fields (``reasoning_content`` and ``reasoning``) because many
OpenAI-compatible servers send one or the other. They differ only in the
dialect name stamped on what they parse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects.openai_chat.render_stream import render_stream
from toolwire.harness.dialects.openai_chat.request import parse_request, render_request
from toolwire.harness.dialects.openai_chat.response import parse_response, render_response
from toolwire.harness.dialects.openai_chat.stream import parse_stream
from toolwire.harness.model import (
    DEEPSEEK_CHAT,
    OPENAI_CHAT,
    Conversation,
    Response,
    SSEEvent,
    StreamTranscript,
)


class OpenAIChatCodec:
    """A ``DialectCodec`` for the Chat Completions wire shape."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"OpenAIChatCodec({self.name!r})"

    def parse_request(self, payload: Any) -> Conversation:
        return parse_request(payload, self.name)

    def render_request(self, conversation: Conversation) -> dict[str, Any]:
        return render_request(conversation)

    def parse_response(self, payload: Any) -> Response:
        return parse_response(payload, self.name)

    def render_response(self, response: Response) -> dict[str, Any]:
        return render_response(response)

    def parse_stream(self, events: Sequence[SSEEvent]) -> StreamTranscript:
        return parse_stream(events, self.name)

    def render_stream(self, response: Response) -> tuple[SSEEvent, ...]:
        return render_stream(response)


OPENAI_CHAT_CODEC = OpenAIChatCodec(OPENAI_CHAT)
DEEPSEEK_CHAT_CODEC = OpenAIChatCodec(DEEPSEEK_CHAT)
