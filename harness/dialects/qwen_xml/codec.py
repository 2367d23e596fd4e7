"""The ``qwen-xml`` codec: a Qwen3-Coder model behind an OpenAI-compatible
server that does not parse tool calls, so they arrive as XML text in
``message.content`` (WIRE.md 1.4).

The envelope (request, response, stream) is the openai-chat codec's; this
codec only reads and writes the markup in assistant turns (``turns.py``).
A response does not carry the tool schemas, so ``parse_response`` and
``parse_stream`` take the request's ``tools`` as an optional extra argument;
without them calls are not checked against tools and every value stays a
string. ``parse_request`` uses the request's own ``tools``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from toolwire.harness.dialects.base import DialectCodec
from toolwire.harness.dialects.qwen_xml.turns import parse_turn, unparse_turn
from toolwire.harness.model import (
    OPENAI_CHAT,
    QWEN_XML,
    Choice,
    Conversation,
    Response,
    SSEEvent,
    StreamTranscript,
    ToolDef,
)


def _envelope() -> DialectCodec:
    # Imported on use: the registry loads each dialect lazily.
    from toolwire.harness.dialects import get_codec

    return get_codec(OPENAI_CHAT)


class QwenXmlCodec:
    """A ``DialectCodec`` for Qwen3-Coder XML tool calls in Chat Completions."""

    name = QWEN_XML

    def __repr__(self) -> str:
        return "QwenXmlCodec()"

    def parse_request(self, payload: Any) -> Conversation:
        conversation = _envelope().parse_request(payload)
        turns = tuple(parse_turn(turn, conversation.tools) for turn in conversation.turns)
        return replace(conversation, dialect=QWEN_XML, turns=turns)

    def render_request(self, conversation: Conversation) -> dict[str, Any]:
        turns = tuple(
            unparse_turn(turn, f"messages[{i}]") for i, turn in enumerate(conversation.turns)
        )
        return _envelope().render_request(replace(conversation, dialect=OPENAI_CHAT, turns=turns))

    def parse_response(self, payload: Any, tools: Sequence[ToolDef] | None = None) -> Response:
        return _read_response(_envelope().parse_response(payload), tools)

    def render_response(self, response: Response) -> dict[str, Any]:
        return _envelope().render_response(_write_response(response))

    def parse_stream(
        self, events: Sequence[SSEEvent], tools: Sequence[ToolDef] | None = None
    ) -> StreamTranscript:
        transcript = _envelope().parse_stream(events)
        response = _read_response(transcript.response, tools)
        return replace(transcript, dialect=QWEN_XML, response=response)

    def render_stream(self, response: Response) -> tuple[SSEEvent, ...]:
        return _envelope().render_stream(_write_response(response))


def _read_response(response: Response, tools: Sequence[ToolDef] | None) -> Response:
    choices = tuple(
        replace(choice, message=parse_turn(choice.message, tools)) for choice in response.choices
    )
    return replace(response, dialect=QWEN_XML, choices=choices)


def _write_response(response: Response) -> Response:
    choices: list[Choice] = []
    for position, choice in enumerate(response.choices):
        message = unparse_turn(choice.message, f"choices[{position}].message")
        choices.append(replace(choice, message=message))
    return replace(response, dialect=OPENAI_CHAT, choices=tuple(choices))


QWEN_XML_CODEC = QwenXmlCodec()
