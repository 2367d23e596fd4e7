"""Which dialect ``toolwire lint`` reads a payload in, and why it chose it.

What a file says about itself wins over a guess from the body: ``--dialect``
first, then a cassette's ``toolwire:`` block, then what the recorded request
says (its URI path, ``/v1/messages``, ``/v1/responses``, ``/chat/completions`` or Gemini's
``models/{model}:generateContent`` / ``:streamGenerateContent``, and the
``anthropic-version`` header that Anthropic requires on every call,
https://docs.anthropic.com/en/api/versioning), and only then the fields of
the payload. Inside the OpenAI family the body still decides between
openai-chat, deepseek-chat and qwen-xml, as ``corpus add`` does
(harness/corpus/detect.py): DeepSeek's host or its ``reasoning_content``
field, Qwen3-Coder XML calls in the assistant text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from toolwire.harness.corpus.detect import ANTHROPIC_BLOCKS, XML_MARKERS, gemini_body, gemini_path
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
    PayloadKind,
)

GUESSED = "guessed from the body; pass --dialect if it is wrong"


@dataclass(frozen=True)
class DialectChoice:
    """The dialect a payload is read in, and what said so (printed by ``lint``)."""

    dialect: str
    reason: str

    def describe(self) -> str:
        return f"{self.dialect} ({self.reason})"


def given(dialect: str) -> DialectChoice:
    return DialectChoice(dialect, "given with --dialect")


def from_metadata(dialect: str) -> DialectChoice:
    return DialectChoice(dialect, "from the cassette's toolwire: block")


def from_body(kind: PayloadKind, value: Any) -> DialectChoice:
    """The dialect from the fields only one dialect uses."""
    return DialectChoice(_body_dialect(kind, value), GUESSED)


def from_interaction(
    request: Mapping[str, Any], request_value: Any, response_kind: str, response_value: Any
) -> DialectChoice:
    """One recorded exchange's dialect: what its request says first, then its body."""
    uri = request.get("uri")
    try:
        parts = urlsplit(uri) if isinstance(uri, str) else None
    except ValueError:  # a malformed [host]: judge by the body
        parts = None
    path = parts.path.rstrip("/") if parts is not None else ""
    if gemini_path(path):
        return DialectChoice(GEMINI, f"from the URI path {path}")
    if path.endswith("/messages") and not path.endswith("/chat/completions"):
        return DialectChoice(ANTHROPIC_MESSAGES, f"from the URI path {path}")
    if path.endswith("/responses"):
        return DialectChoice(OPENAI_RESPONSES, f"from the URI path {path}")
    if _has_header(request.get("headers"), "anthropic-version"):
        return DialectChoice(ANTHROPIC_MESSAGES, "from the anthropic-version request header")
    if not path.endswith("/chat/completions"):
        return from_body("request", request_value)
    said = f"from the URI path {path}"
    texts = [
        *_request_assistant_texts(request_value),
        _response_text(response_kind, response_value),
    ]
    if any(marker in text for text in texts for marker in XML_MARKERS):
        return DialectChoice(QWEN_XML, f"{said} and Qwen3-Coder XML calls in the assistant text")
    host = (parts.hostname or "") if parts is not None else ""
    if "deepseek" in host:
        return DialectChoice(DEEPSEEK_CHAT, f"{said} on host {host}")
    if _mentions_reasoning_content(request_value) or _mentions_reasoning_content(response_value):
        return DialectChoice(DEEPSEEK_CHAT, f"{said} and reasoning_content in the body")
    return DialectChoice(OPENAI_CHAT, said)


def _is_responses_body(kind: PayloadKind, value: Any) -> bool:
    """Fields only the Responses API uses: typed ``response.*`` events, a
    Response object, a request with ``input`` and no ``messages``."""
    if kind == "stream":
        datas = [e.get("data") for e in value if isinstance(e, dict)]
        return any(
            isinstance(d, dict) and str(d.get("type", "")).startswith("response.") for d in datas
        )
    if not isinstance(value, dict):
        return False
    if kind == "response":
        return value.get("object") == "response" or (
            "output" in value and "choices" not in value and "candidates" not in value
        )
    return "input" in value and "messages" not in value and "contents" not in value


def _body_dialect(kind: PayloadKind, value: Any) -> str:
    if gemini_body(kind, value):
        return GEMINI
    if _is_responses_body(kind, value):
        return OPENAI_RESPONSES
    if kind == "stream":
        datas = [e.get("data") for e in value if isinstance(e, dict)]
        if any(isinstance(d, dict) and d.get("type") == "message_start" for d in datas):
            return ANTHROPIC_MESSAGES
        return DEEPSEEK_CHAT if _mentions_reasoning_content(datas) else OPENAI_CHAT
    if kind == "response":
        if isinstance(value, dict) and value.get("type") == "message":
            return ANTHROPIC_MESSAGES
        found_choices = value.get("choices") if isinstance(value, dict) else None
        choices: list[Any] = found_choices if isinstance(found_choices, list) else []
        replies = [c.get("message") for c in choices if isinstance(c, dict)]
        reasoning = any(isinstance(m, dict) and "reasoning_content" in m for m in replies)
        return DEEPSEEK_CHAT if reasoning else OPENAI_CHAT
    found = value.get("messages") if isinstance(value, dict) else None
    messages: list[Any] = found if isinstance(found, list) else []
    found_tools = value.get("tools") if isinstance(value, dict) else None
    tools: list[Any] = found_tools if isinstance(found_tools, list) else []
    if (
        (isinstance(value, dict) and "system" in value)
        or any(_has_anthropic_blocks(m) for m in messages)
        # Anthropic's tools name their schema input_schema; OpenAI's nest a function.
        or any(isinstance(t, dict) and "input_schema" in t for t in tools)
    ):
        return ANTHROPIC_MESSAGES
    if any(isinstance(m, dict) and "reasoning_content" in m for m in messages):
        return DEEPSEEK_CHAT
    return OPENAI_CHAT


def _has_anthropic_blocks(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return False
    return any(isinstance(b, dict) and b.get("type") in ANTHROPIC_BLOCKS for b in content)


def _has_header(headers: Any, name: str) -> bool:
    if not isinstance(headers, Mapping):
        return False
    return any(str(key).lower() == name for key in headers)


def _mentions_reasoning_content(value: Any) -> bool:
    try:
        return '"reasoning_content"' in json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False


def _request_assistant_texts(request_value: Any) -> Iterator[str]:
    messages = request_value.get("messages") if isinstance(request_value, dict) else None
    for message in messages if isinstance(messages, list) else ():
        if isinstance(message, dict) and message.get("role") == "assistant":
            content = message.get("content")
            if isinstance(content, str):
                yield content


def _response_text(kind: str, value: Any) -> str:
    """The assistant text of a response, or of a stream's deltas joined."""
    if kind == "stream":
        pieces = (_choice_text(e.get("data"), "delta") for e in value if isinstance(e, dict))
        return "".join(pieces)
    return _choice_text(value, "message")


def _choice_text(payload: Any, key: str) -> str:
    choices = payload.get("choices") if isinstance(payload, dict) else None
    texts = []
    for choice in choices if isinstance(choices, list) else ():
        part = choice.get(key) if isinstance(choice, dict) else None
        content = part.get("content") if isinstance(part, dict) else None
        if isinstance(content, str):
            texts.append(content)
    return "".join(texts)
