"""schema.unknown_fields: an openai-chat request sent to a strict
OpenAI-compatible server carries only the fields the OpenAI Chat Completions
reference defines.

The known fields are those of the request reference
(https://platform.openai.com/docs/api-reference/chat/create, the published
OpenAPI description ``CreateChatCompletionRequest`` and the message, tool call,
tool and content part objects it names). Strict servers validate the body
against such a model and refuse anything else with HTTP 400: Fireworks
"Extra inputs are not permitted, field: 'messages[7].tool_calls[0].approxNumTokens'"
(``STRICT_TOOL_CALL_FIELD_400``) and "field: 'promptCacheKey'"
(``STRICT_TOP_LEVEL_FIELD_400``); Groq "'messages.1' : for 'role:user' the
following must be satisfied[('messages.1' : property 'metadata' is
unsupported)]" (``STRICT_MESSAGE_FIELD_400``).

Judged only under ``openai-compatible-strict``: a server that accepts the
reference's fields and nothing else. Groq and Fireworks refuse the fields they
do not know, but each documents extensions of its own (Groq's
``reasoning_format`` and ``reasoning`` on assistant messages,
https://console.groq.com/docs/reasoning); those are reported under this
profile, so a converter that sends one on purpose judges that target under
``openai``. Under the default ``openai``
profile the rule is out of scope: the openai-chat dialect is also spoken by
servers that document fields of their own (Groq's ``reasoning_format``, Z.ai's
``thinking``, ``reasoning_content`` on assistant messages; all in the real
recordings, answered 200), so an unknown field is not wrong there by itself.
Free JSON (tool ``parameters``, ``metadata``, ``logit_bias``,
``response_format``, ...) is never walked into.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import OPENAI_STRICT_ONLY
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    OPENAI_DOCS,
    STRICT_MESSAGE_FIELD_400,
    STRICT_TOOL_CALL_FIELD_400,
    STRICT_TOP_LEVEL_FIELD_400,
)
from toolwire.harness.model import OPENAI_CHAT

CODE = "schema.unknown_fields"

UNKNOWN_FIELDS = rule(
    CODE,
    "MUST",
    "payload",
    "An openai-chat request for a strict OpenAI-compatible server carries only the fields "
    "the OpenAI Chat Completions reference defines (top level, messages, tool calls, tools, "
    "content parts).",
    OPENAI_DOCS,
    STRICT_TOOL_CALL_FIELD_400,
    dialects=frozenset({OPENAI_CHAT}),
    profile_levels=dict(OPENAI_STRICT_ONLY),
    evidence=(
        rejected(
            STRICT_TOOL_CALL_FIELD_400,
            'Fireworks 400 "Extra inputs are not permitted, field: '
            "'messages[7].tool_calls[0].approxNumTokens'\"",
        ),
        rejected(
            STRICT_TOP_LEVEL_FIELD_400,
            'Fireworks rejects unknown body fields: 400 "Extra inputs are not permitted, '
            "field: 'promptCacheKey'\"",
        ),
        rejected(
            STRICT_MESSAGE_FIELD_400,
            "Groq 400 \"'messages.1' : for 'role:user' the following must be satisfied"
            "[('messages.1' : property 'metadata' is unsupported)]\"",
        ),
    ),
    fix=(
        "Write only the fields the OpenAI Chat Completions reference defines: drop a client "
        "library's bookkeeping (provider_specific_fields, index, timestamps, metadata on "
        "messages) before sending, and send a server's own extension only where that server "
        "documents it (judge such a target under the default openai profile)."
    ),
)

# CreateChatCompletionRequest.
TOP_LEVEL = frozenset(
    {
        "messages",
        "model",
        "audio",
        "frequency_penalty",
        "function_call",
        "functions",
        "logit_bias",
        "logprobs",
        "max_completion_tokens",
        "max_tokens",
        "metadata",
        "modalities",
        "n",
        "parallel_tool_calls",
        "prediction",
        "presence_penalty",
        "prompt_cache_key",
        "prompt_cache_retention",
        "reasoning_effort",
        "response_format",
        "safety_identifier",
        "seed",
        "service_tier",
        "stop",
        "store",
        "stream",
        "stream_options",
        "temperature",
        "tool_choice",
        "tools",
        "top_logprobs",
        "top_p",
        "user",
        "verbosity",
        "web_search_options",
    }
)
# ChatCompletionRequest{Developer,System,User,Assistant,Tool,Function}Message.
MESSAGE: dict[str, frozenset[str]] = {
    "developer": frozenset({"role", "content", "name"}),
    "system": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    "assistant": frozenset(
        {"role", "content", "refusal", "name", "audio", "tool_calls", "function_call"}
    ),
    "tool": frozenset({"role", "content", "tool_call_id"}),
    "function": frozenset({"role", "content", "name"}),
}
# ChatCompletionMessageToolCall (function) and ChatCompletionMessageCustomToolCall.
TOOL_CALL: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "function": (frozenset({"id", "type", "function"}), frozenset({"name", "arguments"})),
    "custom": (frozenset({"id", "type", "custom"}), frozenset({"name", "input"})),
}
# ChatCompletionTool (FunctionObject) and CustomToolChatCompletions.
TOOL: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "function": (
        frozenset({"type", "function"}),
        frozenset({"name", "description", "parameters", "strict"}),
    ),
    "custom": (frozenset({"type", "custom"}), frozenset({"name", "description", "format"})),
}
# ChatCompletionRequestMessageContentPart{Text,Image,Audio,File,Refusal}.
PART: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "text": (frozenset({"type", "text"}), frozenset()),
    "refusal": (frozenset({"type", "refusal"}), frozenset()),
    "image_url": (frozenset({"type", "image_url"}), frozenset({"url", "detail"})),
    "input_audio": (frozenset({"type", "input_audio"}), frozenset({"data", "format"})),
    "file": (frozenset({"type", "file"}), frozenset({"file_data", "file_id", "filename"})),
}


def _extra(obj: Mapping[str, Any], known: frozenset[str], path: str) -> Iterator[str]:
    for key in obj:
        if key not in known:
            yield f"{path}.{key}" if path else str(key)


def _typed(
    obj: Any,
    table: Mapping[str, tuple[frozenset[str], frozenset[str]]],
    path: str,
    default: str | None = None,
) -> Iterator[str]:
    """The unknown fields of an object typed by ``type`` and of its inner object."""
    if not isinstance(obj, Mapping):
        return
    kind = obj.get("type", default)
    if not isinstance(kind, str) or kind not in table:
        return  # an unknown type is the schema's to report (schema.request)
    outer, inner = table[kind]
    yield from _extra(obj, outer, path)
    body = obj.get(kind)
    if inner and isinstance(body, Mapping):
        yield from _extra(body, inner, f"{path}.{kind}")


def _message(message: Any, path: str) -> Iterator[str]:
    if not isinstance(message, Mapping):
        return
    known = MESSAGE.get(str(message.get("role")))
    if known is None:
        return  # an unknown role is schema.request's
    yield from _extra(message, known, path)
    content = message.get("content")
    for index, part in enumerate(content if isinstance(content, list) else ()):
        yield from _typed(part, PART, f"{path}.content[{index}]")
    calls = message.get("tool_calls") if "tool_calls" in known else None
    for index, call in enumerate(calls if isinstance(calls, list) else ()):
        yield from _typed(call, TOOL_CALL, f"{path}.tool_calls[{index}]", "function")


def unknown_fields(raw: Any) -> Iterator[str]:
    """The path of every field of an openai-chat request the reference does not define."""
    if not isinstance(raw, Mapping):
        return
    yield from _extra(raw, TOP_LEVEL, "")
    messages = raw.get("messages")
    for index, message in enumerate(messages if isinstance(messages, list) else ()):
        yield from _message(message, f"messages[{index}]")
    tools = raw.get("tools")
    for index, tool in enumerate(tools if isinstance(tools, list) else ()):
        yield from _typed(tool, TOOL, f"tools[{index}]", "function")


def check_unknown_fields(payload: PayloadUnderTest) -> list[Finding] | None:
    if payload.dialect != OPENAI_CHAT or payload.kind != "request":
        return None
    if not isinstance(payload.raw, Mapping):
        return None
    return [
        finding(
            CODE,
            f"{path.rsplit('.', 1)[-1]!r} at {path} is not a field of the OpenAI Chat "
            "Completions request; a strict OpenAI-compatible server refuses fields it does not "
            'define with HTTP 400 (Fireworks: "Extra inputs are not permitted", Groq: '
            '"property ... is unsupported")',
            path,
        )
        for path in unknown_fields(payload.raw)
    ]


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {CODE: check_unknown_fields}
