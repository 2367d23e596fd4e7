"""Telling a cassette's dialect and features from its payloads.

The dialect comes from the URI and the payload shapes (WIRE.md section 1):
- openai-responses: a ``/responses`` endpoint, a Response object
  (``"object": "response"``) or typed ``response.*`` stream events
  (https://platform.openai.com/docs/api-reference/responses);
- anthropic-messages: a ``/messages`` endpoint, an ``anthropic-version``
  request header, a ``"type": "message"`` response or a ``message_start``
  event (https://docs.anthropic.com/en/api/messages);
- otherwise the OpenAI family (``/chat/completions``, ``choices``), then
  qwen-xml when assistant content holds Qwen3-Coder XML calls
  (``<tool_call>`` / ``<function=``), deepseek-chat when a DeepSeek host or a
  ``reasoning_content`` field appears
  (https://api-docs.deepseek.com/guides/thinking_mode), else openai-chat.
  Any server that speaks ``reasoning_content`` is read as deepseek-chat.
- gemini: a ``models/{model}:generateContent`` or ``:streamGenerateContent``
  path, or bodies of Gemini's shape (a request's ``contents``, a response's
  ``candidates``: https://ai.google.dev/api/generate-content).

Features come from the canonical model the dialect's codec builds: tool
calls per assistant turn (one: single-tool, several: parallel), text beside
calls (mixed-text), failed results (error-result: ``is_error`` or the
``Error:`` convention of docs/conventions.md), thinking blocks (thinking),
reasoning sent back in a request (reasoning-replay), event streams
(streaming), XML calls (qwen-xml), several exchanges (multi-turn).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from toolwire.conformance.readings.conventions import result_is_error_by_convention
from toolwire.harness import json_text
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.corpus.vocabulary import FEATURES
from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolDef,
    ToolResult,
    Turn,
)

# The folder a case goes to: its most specific feature first.
MAIN_FEATURE_ORDER: tuple[str, ...] = (
    "qwen-xml",
    "reasoning-replay",
    "thinking",
    "streaming",
    "error-result",
    "parallel",
    "mixed-text",
    "single-tool",
    "multi-turn",
)
XML_MARKERS = ("<tool_call>", "<function=")
ANTHROPIC_BLOCKS = ("tool_use", "tool_result", "thinking", "redacted_thinking")
# DeepSeek's field and the Responses reasoning item; the `reasoning` field of
# other servers is thinking, not replay.
_REPLAYED_REASONING = ("reasoning_content", "reasoning_item")


def gemini_path(path: str) -> bool:
    """A Gemini API method path: ``.../models/{model}:generateContent`` or
    ``:streamGenerateContent``."""
    return re.search(r"/models/[^/]+:(stream)?[gG]enerateContent$", path) is not None


def gemini_body(kind: str, value: Any) -> bool:
    """A body of Gemini's shape: a request with ``contents``, a response (or a
    stream chunk) with ``candidates`` or ``promptFeedback``."""
    if kind == "stream" and isinstance(value, list):
        datas = [e.get("data") if isinstance(e, dict) else None for e in value]
        return bool(datas) and all(gemini_body("response", d) for d in datas)
    if not isinstance(value, dict):
        return False
    if kind == "request":
        return "contents" in value and "messages" not in value
    return ("candidates" in value or "promptFeedback" in value) and "choices" not in value


def _is_gemini(interaction: Interaction) -> bool:
    try:
        path = urlsplit(interaction.uri).path.rstrip("/")
    except ValueError:
        path = ""
    if gemini_path(path):
        return True
    try:
        return gemini_body("request", interaction.request_json())
    except (ToolwireError, ValueError):
        return False


def detect_dialect(interactions: Sequence[Interaction], source: str) -> str:
    """The dialect every exchange of the cassette is written in."""
    if interactions and all(_is_gemini(interaction) for interaction in interactions):
        return GEMINI
    if interactions and all(is_responses(interaction) for interaction in interactions):
        return OPENAI_RESPONSES
    if any(_is_anthropic(interaction) for interaction in interactions):
        return ANTHROPIC_MESSAGES
    if not all(_is_openai_family(interaction) for interaction in interactions):
        raise CorpusError(
            source,
            "cannot tell the dialect: the exchanges are neither Chat Completions nor Messages",
            "pass --dialect, or import a cassette of LLM API calls only",
        )
    texts = [text for interaction in interactions for text in _assistant_texts(interaction)]
    if any(marker in text for text in texts for marker in XML_MARKERS):
        return QWEN_XML
    if any(_mentions_deepseek(interaction) for interaction in interactions):
        return DEEPSEEK_CHAT
    return OPENAI_CHAT


def detect_features(
    dialect: str, interactions: Sequence[Interaction], source: str
) -> tuple[str, ...]:
    """The features the payloads show, in vocabulary order."""
    found: set[str] = set()
    for interaction in interactions:
        request, response = _parsed(dialect, interaction, source)
        turns = list(request) + ([response] if response is not None else [])
        for turn in turns:
            found |= _turn_features(turn)
        for turn in request:
            if turn.role == "assistant" and any(
                (isinstance(block, ThinkingBlock) and block.origin in _REPLAYED_REASONING)
                or (isinstance(block, ToolCall) and block.signature)
                for block in turn.blocks
            ):
                found.add("reasoning-replay")
        if interaction.is_stream():
            found.add("streaming")
    if dialect == QWEN_XML:
        found.add("qwen-xml")
    if len(interactions) > 1:
        found.add("multi-turn")
    if "parallel" in found:
        found.discard("single-tool")
    return tuple(feature for feature in FEATURES if feature in found)


def main_feature(features: Sequence[str]) -> str:
    for feature in MAIN_FEATURE_ORDER:
        if feature in features:
            return feature
    return features[0]


def request_model(interactions: Sequence[Interaction]) -> str | None:
    for interaction in interactions:
        body = _json(interaction.request_body_text)
        if isinstance(body, dict) and isinstance(body.get("model"), str) and body["model"]:
            return str(body["model"])
    return None


def first_tool_name(interactions: Sequence[Interaction]) -> str | None:
    for interaction in interactions:
        body = _json(interaction.request_body_text)
        tools = body.get("tools") if isinstance(body, dict) else None
        for tool in tools if isinstance(tools, list) else []:
            if not isinstance(tool, dict):
                continue
            function = tool.get("function")
            name = function.get("name") if isinstance(function, dict) else tool.get("name")
            if isinstance(name, str) and name:
                return name
    return None


def count_tool_calls(dialect: str, interactions: Sequence[Interaction], source: str) -> int:
    """Tool calls the model made in the recorded responses."""
    total = 0
    for interaction in interactions:
        _request, response = _parsed(dialect, interaction, source)
        if response is not None:
            total += len(response.tool_calls)
    return total


# --- features ------------------------------------------------------------------


def _turn_features(turn: Turn) -> set[str]:
    found: set[str] = set()
    calls = turn.tool_calls
    if turn.role == "assistant" and calls:
        found.add("parallel" if len(calls) > 1 else "single-tool")
        if turn.text.strip():
            found.add("mixed-text")
    for block in turn.blocks:
        if isinstance(block, ThinkingBlock):
            found.add("thinking")
        elif isinstance(block, TextBlock) and any(m in block.text for m in XML_MARKERS):
            found.add("qwen-xml")
        elif isinstance(block, ToolResult) and _is_error(block):
            found.add("error-result")
    return found


def _is_error(result: ToolResult) -> bool:
    if result.is_error:
        return True
    text = "".join(block.text for block in result.content if isinstance(block, TextBlock))
    return result.is_error is None and result_is_error_by_convention(text)


def _parsed(
    dialect: str, interaction: Interaction, source: str
) -> tuple[tuple[Turn, ...], Turn | None]:
    """The request's turns and the response's message (None for an error answer)."""
    codec = get_codec(dialect)
    where = f"{source}: interaction {interaction.index + 1}"
    try:
        conversation = codec.parse_request(interaction.request_json())
        if not interaction.is_success():
            return conversation.turns, None
        if interaction.is_stream():
            transcript = codec.parse_stream(interaction.response_events())
            return conversation.turns, _first_message(transcript.response)
        response = _parse_response(codec, interaction.response_json(), conversation.tools)
        return conversation.turns, _first_message(response)
    except ToolwireError as error:
        raise CorpusError(
            where,
            f"does not parse as {dialect}: {_bare(error)}",
            "pass --dialect if the detected dialect is wrong",
        ) from None


def _bare(error: ToolwireError) -> str:
    """The message without the empty source an imported exchange has (``: interaction 1``)."""
    return error.message.removeprefix(": ")


def _first_message(response: Response) -> Turn | None:
    """The answer's message; None for an answer with no choice (an empty stream)."""
    return response.choices[0].message if response.choices else None


def _parse_response(codec: Any, payload: Any, tools: tuple[ToolDef, ...] | None) -> Any:
    if tools is not None:
        try:  # the qwen-xml codec types XML values by the request's tools
            return codec.parse_response(payload, tools=tools)
        except TypeError:
            pass
    return codec.parse_response(payload)


# --- dialect ------------------------------------------------------------------


def is_responses(interaction: Interaction) -> bool:
    """An exchange with the OpenAI Responses API (``POST /v1/responses``)."""
    path = urlsplit(interaction.uri).path.rstrip("/")
    if path.endswith("/responses"):
        return True
    # The answer decides (an embeddings request has "input" too).
    if interaction.is_stream():
        return any(
            isinstance(data, dict) and str(data.get("type", "")).startswith("response.")
            for data in _stream_data(interaction)
        )
    body = _json(interaction.response_body_text)
    return isinstance(body, dict) and body.get("object") == "response"


def _is_anthropic(interaction: Interaction) -> bool:
    path = urlsplit(interaction.uri).path.rstrip("/")
    if path.endswith("/messages") and not path.endswith("/chat/completions"):
        return True
    if interaction.request_header("anthropic-version") is not None:
        return True
    request = _json(interaction.request_body_text)
    if isinstance(request, dict) and ("system" in request or _has_anthropic_blocks(request)):
        return True  # openai-chat carries no top-level system, and no such blocks
    if interaction.is_stream():
        return any(
            isinstance(data, dict) and data.get("type") == "message_start"
            for data in _stream_data(interaction)
        )
    body = _json(interaction.response_body_text)
    # A message, or Anthropic's error envelope {"type": "error", "error": {...}}.
    return isinstance(body, dict) and body.get("type") in ("message", "error")


def _has_anthropic_blocks(request: dict[str, Any]) -> bool:
    messages = request.get("messages")
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") in ANTHROPIC_BLOCKS:
                return True
    return False


def _is_openai_family(interaction: Interaction) -> bool:
    path = urlsplit(interaction.uri).path.rstrip("/")
    if path.endswith("/chat/completions"):
        return True
    request = _json(interaction.request_body_text)
    return isinstance(request, dict) and isinstance(request.get("messages"), list)


def _mentions_deepseek(interaction: Interaction) -> bool:
    if "deepseek" in (urlsplit(interaction.uri).hostname or ""):
        return True
    request = _json(interaction.request_body_text)
    messages = request.get("messages") if isinstance(request, dict) else None
    if isinstance(messages, list) and any(
        isinstance(m, dict) and "reasoning_content" in m for m in messages
    ):
        return True
    return any("reasoning_content" in part for part in _response_parts(interaction))


def _assistant_texts(interaction: Interaction) -> Iterator[str]:
    request = _json(interaction.request_body_text)
    messages = request.get("messages") if isinstance(request, dict) else None
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str) and message.get("role") == "assistant":
            yield content
    if interaction.is_success():
        pieces = [part.get("content") for part in _response_parts(interaction)]
        yield "".join(piece for piece in pieces if isinstance(piece, str))


def _response_parts(interaction: Interaction) -> Iterator[dict[str, Any]]:
    """The message of each choice, or each streamed delta."""
    if interaction.is_stream():
        payloads: list[Any] = list(_stream_data(interaction))
        key = "delta"
    else:
        payloads = [_json(interaction.response_body_text)]
        key = "message"
    for payload in payloads:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        for choice in choices if isinstance(choices, list) else []:
            part = choice.get(key) if isinstance(choice, dict) else None
            if isinstance(part, dict):
                yield part


def _stream_data(interaction: Interaction) -> Iterator[Any]:
    try:
        events = interaction.response_events()
    except ToolwireError:
        return
    for event in events:
        value = _json(event.data)
        if value is not None:
            yield value


def _json(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json_text.loads(text)
    except ValueError:
        return None
