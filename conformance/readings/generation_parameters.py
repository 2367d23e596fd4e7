"""The generation parameters of a request, read alike in every dialect.

Each dialect names the same few settings its own way: the sampling values,
the stop sequences, the output-token limit, structured output, the reasoning
effort and the seed. ``parameters`` reads the ones a request sets, keyed by a
neutral name, with the path it sits at; ``equivalent`` says whether a dialect
has a field for a neutral name at all (a parameter the target cannot say can
only be dropped or declined). Sources: the request references of each API
(https://platform.openai.com/docs/api-reference/chat/create,
https://platform.openai.com/docs/api-reference/responses/create,
https://docs.anthropic.com/en/api/messages,
https://ai.google.dev/api/generate-content#generationconfig,
https://api-docs.deepseek.com/api/create-chat-completion).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    QWEN_XML,
    Conversation,
)

# Where each dialect keeps each setting, as key paths from the body's top;
# the first path present wins (Chat's max_completion_tokens replaced
# max_tokens, which it still reads). Gemini's generationConfig is looked up
# under its proto name too (generation_config).
_CHAT = {
    "temperature": (("temperature",),),
    "top_p": (("top_p",),),
    "stop": (("stop",),),
    "max_output_tokens": (("max_completion_tokens",), ("max_tokens",)),
    "structured_output": (("response_format",),),
    "reasoning_effort": (("reasoning_effort",),),
    "seed": (("seed",),),
}
_GEMINI_CONFIG = {
    "temperature": ("temperature",),
    "top_p": ("topP", "top_p"),
    "top_k": ("topK", "top_k"),
    "stop": ("stopSequences", "stop_sequences"),
    "max_output_tokens": ("maxOutputTokens", "max_output_tokens"),
    "seed": ("seed",),
    "structured_output": ("responseMimeType", "response_mime_type"),
}
FIELDS: Mapping[str, Mapping[str, tuple[tuple[str, ...], ...]]] = {
    OPENAI_CHAT: _CHAT,
    QWEN_XML: {k: v for k, v in _CHAT.items() if k != "reasoning_effort"},
    DEEPSEEK_CHAT: {k: v for k, v in _CHAT.items() if k not in ("reasoning_effort", "seed")},
    OPENAI_RESPONSES: {
        "temperature": (("temperature",),),
        "top_p": (("top_p",),),
        "max_output_tokens": (("max_output_tokens",),),
        "structured_output": (("text", "format"),),
        "reasoning_effort": (("reasoning", "effort"),),
    },
    ANTHROPIC_MESSAGES: {
        "temperature": (("temperature",),),
        "top_p": (("top_p",),),
        "top_k": (("top_k",),),
        "stop": (("stop_sequences",),),
        "max_output_tokens": (("max_tokens",),),
    },
    GEMINI: {
        name: tuple(
            (config, key) for config in ("generationConfig", "generation_config") for key in keys
        )
        for name, keys in _GEMINI_CONFIG.items()
    },
}
# The settings a dialect requires, which a converter must write whatever the
# source said (Anthropic: max_tokens is required).
REQUIRED: Mapping[str, frozenset[str]] = {ANTHROPIC_MESSAGES: frozenset({"max_output_tokens"})}


@dataclass(frozen=True)
class Parameter:
    name: str  # the neutral name
    path: str  # where the payload sets it
    value: Any  # as written


def equivalent(dialect: str, name: str) -> bool:
    return name in FIELDS.get(dialect, {})


def field_name(dialect: str, name: str) -> str:
    """The dialect's own name for a setting (its first path), for messages."""
    paths = FIELDS.get(dialect, {}).get(name)
    return ".".join(paths[0]) if paths else name


def parameters(conversation: Conversation, raw: Any) -> dict[str, Parameter]:
    """Every setting the request sets (null, and an empty list of stop
    sequences, read as unset, as the APIs read them)."""
    body = raw if isinstance(raw, Mapping) else {}
    found = {}
    for name, paths in FIELDS.get(conversation.dialect, {}).items():
        for path in paths:
            value = _at(body, path)
            if value is not None:
                neutral = _neutral(name, value, body, path)
                if neutral is not None:
                    found[name] = Parameter(name, ".".join(path), neutral)
                break
    return found


def _at(body: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = body
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _neutral(name: str, value: Any, body: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """A value in a form comparable across dialects."""
    if name == "stop":
        return [value] if isinstance(value, str) else (value or None)
    if name == "structured_output":
        return _output_format(value, body, path)
    return value


def _output_format(value: Any, body: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """Structured output as (kind, schema): ``json_schema`` with its schema,
    ``json_object`` or ``text``. Gemini says it with a MIME type and a schema
    beside it (responseJsonSchema is JSON Schema; responseSchema is its
    OpenAPI subset, compared by kind only)."""
    if path and path[0] in ("generationConfig", "generation_config"):
        config = body.get(path[0]) or {}
        if value != "application/json":
            return ("text", None)
        schema = config.get("responseJsonSchema", config.get("response_json_schema"))
        typed = schema is not None or "responseSchema" in config or "response_schema" in config
        return ("json_schema", schema) if typed else ("json_object", None)
    if not isinstance(value, Mapping):
        return (str(value), None)
    kind = value.get("type")
    if kind == "json_schema":
        inner = value.get("json_schema")
        schema = inner.get("schema") if isinstance(inner, Mapping) else value.get("schema")
        return ("json_schema", schema)
    return (str(kind), None)
