"""One small payload per documented constraint: the schema must flag exactly that place.

Each case starts from a valid payload of the dialect (checked below), applies
one mutation, and asserts the exact JSON path of the single violation, so a
case that fails for the wrong reason still fails.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from toolwire.harness.schemas import validate_payload

Json = dict[str, Any]

ANTHROPIC_REQUEST: Json = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": [{"type": "text", "text": "Be brief."}],
    "tools": [
        {
            "name": "get_weather",
            "description": "Weather for a city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 1},
    ],
    "tool_choice": {"type": "auto"},
    "thinking": {"type": "enabled", "budget_tokens": 1024},
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Call the tool.", "signature": "EqQBCkgI"},
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
                {"type": "text", "text": "Checking."},
                {
                    "type": "tool_use",
                    "id": "toolu_01A09q90qw90lq917835lq9",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                    "content": [{"type": "text", "text": "15 degrees"}],
                    "is_error": False,
                },
                {"type": "text", "text": "Thanks"},
            ],
        },
    ],
}

ANTHROPIC_RESPONSE: Json = {
    "id": "msg_01Aq9w938a90dw8q",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "text", "text": ""},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 5},
}

OPENAI_REQUEST: Json = {
    "model": "gpt-4o",
    "messages": [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_abc123",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_abc123", "content": "15 degrees"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                "strict": True,
            },
        }
    ],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "parallel_tool_calls": False,
}

OPENAI_RESPONSE: Json = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [
                    {
                        "id": "call_abc123",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
}

OPENAI_CHUNK: Json = {
    "id": "chatcmpl-1",
    "object": "chat.completion.chunk",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "delta": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_abc123",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ],
            },
            "finish_reason": None,
        }
    ],
}

DEEPSEEK_REQUEST: Json = {
    "model": "deepseek-v4-pro",
    "thinking": {"type": "enabled"},
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": "",
            "reasoning_content": "The user wants the weather; call the tool.",
            "tool_calls": [
                {
                    "id": "call_0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_0", "content": "15 degrees"},
    ],
}

DEEPSEEK_RESPONSE: Json = {
    **copy.deepcopy(OPENAI_RESPONSE),
    "model": "deepseek-reasoner",
}
DEEPSEEK_RESPONSE["choices"][0]["message"]["reasoning_content"] = "Call the tool."

DEEPSEEK_CHUNK: Json = copy.deepcopy(OPENAI_CHUNK)
DEEPSEEK_CHUNK["choices"][0]["delta"] = {"reasoning_content": "Thinking", "content": None}


Target = tuple[str, str]  # (dialect, kind)
AM_REQ: Target = ("anthropic-messages", "request")
AM_RESP: Target = ("anthropic-messages", "response")
AM_STREAM: Target = ("anthropic-messages", "stream")
OC_REQ: Target = ("openai-chat", "request")
OC_RESP: Target = ("openai-chat", "response")
OC_STREAM: Target = ("openai-chat", "stream")
DS_REQ: Target = ("deepseek-chat", "request")
DS_RESP: Target = ("deepseek-chat", "response")
DS_STREAM: Target = ("deepseek-chat", "stream")
QX_REQ: Target = ("qwen-xml", "request")
QX_RESP: Target = ("qwen-xml", "response")
QX_STREAM: Target = ("qwen-xml", "stream")

BASES: dict[Target, Json] = {
    AM_REQ: ANTHROPIC_REQUEST,
    AM_RESP: ANTHROPIC_RESPONSE,
    OC_REQ: OPENAI_REQUEST,
    OC_RESP: OPENAI_RESPONSE,
    OC_STREAM: OPENAI_CHUNK,
    DS_REQ: DEEPSEEK_REQUEST,
    DS_RESP: DEEPSEEK_RESPONSE,
    DS_STREAM: DEEPSEEK_CHUNK,
    QX_REQ: OPENAI_REQUEST,
    QX_RESP: OPENAI_RESPONSE,
    QX_STREAM: OPENAI_CHUNK,
}

# Stream events of anthropic-messages, one per event type under test.
TOOL_USE_START: Json = {
    "type": "content_block_start",
    "index": 0,
    "content_block": {"type": "tool_use", "id": "toolu_01", "name": "f", "input": {}},
}
JSON_DELTA: Json = {
    "type": "content_block_delta",
    "index": 1,
    "delta": {"type": "input_json_delta", "partial_json": ""},
}
SIGNATURE_DELTA: Json = {
    "type": "content_block_delta",
    "index": 0,
    "delta": {"type": "signature_delta", "signature": "EqQB"},
}
MESSAGE_DELTA: Json = {
    "type": "message_delta",
    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
    "usage": {"output_tokens": 3},
}
OPENAI_ERROR_EVENT: Json = {
    "error": {"message": "Tool call validation failed", "type": "invalid_request_error"}
}

Mutation = Callable[[Json], Any]


def _with(base: Json, change: Mutation) -> Json:
    payload = copy.deepcopy(base)
    change(payload)
    return payload


def _paths(dialect: str, kind: str, payload: Any) -> list[str]:
    return [v.path for v in validate_payload(dialect, kind, payload)]  # type: ignore[arg-type]


def _delete(*keys: str | int) -> Mutation:
    def change(payload: Json) -> None:
        node: Any = payload
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]

    return change


def _set(value: Any, *keys: str | int) -> Mutation:
    def change(payload: Json) -> None:
        node: Any = payload
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return change


def _append(value: Any, *keys: str | int) -> Mutation:
    def change(payload: Json) -> None:
        node: Any = payload
        for key in keys:
            node = node[key]
        node.append(value)

    return change


def _neg(
    case_id: str, target: Target, change: Mutation, path: str, base: Json | None = None
) -> Any:
    dialect, kind = target
    payload = BASES[target] if base is None else base
    return pytest.param(dialect, kind, payload, change, path, id=case_id)


def _pos(case_id: str, target: Target, change: Mutation, base: Json | None = None) -> Any:
    dialect, kind = target
    payload = BASES[target] if base is None else base
    return pytest.param(dialect, kind, payload, change, id=case_id)


@pytest.mark.parametrize("target", sorted(BASES))
def test_base_payloads_are_valid(target: Target) -> None:
    assert _paths(*target, BASES[target]) == []


ASSISTANT = ("messages", 1, "content")  # the assistant turn of ANTHROPIC_REQUEST
RESULTS = ("messages", 2, "content")  # the tool_result turn of ANTHROPIC_REQUEST
CALL = ("messages", 2, "tool_calls", 0)  # the replayed call of OPENAI_REQUEST
RESPONSE_CALL = ("choices", 0, "message", "tool_calls", 0)
CHUNK_CALL = ("choices", 0, "delta", "tool_calls", 0)

NEGATIVE_CASES = [
    # anthropic-messages request
    _neg("anthropic-missing-max_tokens", AM_REQ, _delete("max_tokens"), "max_tokens"),
    _neg("anthropic-max_tokens-zero", AM_REQ, _set(0, "max_tokens"), "max_tokens"),
    _neg(
        "anthropic-system-role-in-messages",
        AM_REQ,
        _set("system", "messages", 0, "role"),
        "messages[0].role",
    ),
    _neg(
        "anthropic-tool_use-input-as-string",
        AM_REQ,
        _set('{"city": "Paris"}', *ASSISTANT, 3, "input"),
        "messages[1].content[3].input",
    ),
    _neg(
        "anthropic-tool_use-without-id",
        AM_REQ,
        _delete(*ASSISTANT, 3, "id"),
        "messages[1].content[3].id",
    ),
    _neg(
        "anthropic-tool_use-id-with-dot-and-colon",
        AM_REQ,
        _set("functions.get_weather:0", *ASSISTANT, 3, "id"),
        "messages[1].content[3].id",
    ),
    _neg(
        "anthropic-tool_result-without-tool_use_id",
        AM_REQ,
        _delete(*RESULTS, 0, "tool_use_id"),
        "messages[2].content[0].tool_use_id",
    ),
    _neg(
        "anthropic-tool_result-is_error-as-string",
        AM_REQ,
        _set("true", *RESULTS, 0, "is_error"),
        "messages[2].content[0].is_error",
    ),
    _neg(
        "anthropic-empty-text-block",
        AM_REQ,
        _set("", *RESULTS, 1, "text"),
        "messages[2].content[1].text",
    ),
    _neg(
        "anthropic-empty-text-inside-tool_result",
        AM_REQ,
        _set("", *RESULTS, 0, "content", 0, "text"),
        "messages[2].content[0].content[0].text",
    ),
    _neg("anthropic-empty-system-text", AM_REQ, _set("", "system", 0, "text"), "system[0].text"),
    _neg(
        "anthropic-thinking-without-signature",
        AM_REQ,
        _delete(*ASSISTANT, 0, "signature"),
        "messages[1].content[0].signature",
    ),
    _neg(
        "anthropic-redacted_thinking-without-data",
        AM_REQ,
        _delete(*ASSISTANT, 1, "data"),
        "messages[1].content[1].data",
    ),
    _neg(
        "anthropic-block-without-type",
        AM_REQ,
        _delete("messages", 0, "content", 0, "type"),
        "messages[0].content[0].type",
    ),
    _neg(
        "anthropic-tool-name-with-space",
        AM_REQ,
        _set("get weather", "tools", 0, "name"),
        "tools[0].name",
    ),
    _neg(
        "anthropic-tool-name-129-chars",
        AM_REQ,
        _set("a" * 129, "tools", 0, "name"),
        "tools[0].name",
    ),
    _neg(
        "anthropic-tool-without-input_schema",
        AM_REQ,
        _delete("tools", 0, "input_schema"),
        "tools[0].input_schema",
    ),
    _neg(
        "anthropic-input_schema-not-object-type",
        AM_REQ,
        _set("array", "tools", 0, "input_schema", "type"),
        "tools[0].input_schema.type",
    ),
    _neg(
        "anthropic-tool_choice-tool-without-name",
        AM_REQ,
        _set({"type": "tool"}, "tool_choice"),
        "tool_choice.name",
    ),
    _neg("anthropic-tool_choice-openai-string", AM_REQ, _set("auto", "tool_choice"), "tool_choice"),
    _neg(
        "anthropic-thinking-budget-below-1024",
        AM_REQ,
        _set(512, "thinking", "budget_tokens"),
        "thinking.budget_tokens",
    ),
    # anthropic-messages response and stream events
    _neg(
        "anthropic-response-tool_use-input-as-string",
        AM_RESP,
        _set("{}", "content", 1, "input"),
        "content[1].input",
    ),
    _neg(
        "anthropic-response-openai-stop-reason",
        AM_RESP,
        _set("tool_calls", "stop_reason"),
        "stop_reason",
    ),
    _neg("anthropic-response-user-role", AM_RESP, _set("user", "role"), "role"),
    _neg("anthropic-response-without-usage", AM_RESP, _delete("usage"), "usage"),
    _neg(
        "anthropic-stream-partial_json-as-object",
        AM_STREAM,
        _set({"city": "Paris"}, "delta", "partial_json"),
        "delta.partial_json",
        base=JSON_DELTA,
    ),
    _neg(
        "anthropic-stream-block-start-without-index",
        AM_STREAM,
        _delete("index"),
        "index",
        base=TOOL_USE_START,
    ),
    _neg(
        "anthropic-stream-block-start-tool_use-input-string",
        AM_STREAM,
        _set("", "content_block", "input"),
        "content_block.input",
        base=TOOL_USE_START,
    ),
    _neg(
        "anthropic-stream-message_delta-openai-stop-reason",
        AM_STREAM,
        _set("stop", "delta", "stop_reason"),
        "delta.stop_reason",
        base=MESSAGE_DELTA,
    ),
    _neg(
        "anthropic-stream-signature_delta-without-signature",
        AM_STREAM,
        _delete("delta", "signature"),
        "delta.signature",
        base=SIGNATURE_DELTA,
    ),
    # openai-chat request
    _neg("openai-missing-model", OC_REQ, _delete("model"), "model"),
    _neg("openai-empty-messages", OC_REQ, _set([], "messages"), "messages"),
    _neg("openai-unknown-role", OC_REQ, _set("bot", "messages", 1, "role"), "messages[1].role"),
    _neg(
        "openai-tool-message-without-tool_call_id",
        OC_REQ,
        _delete("messages", 3, "tool_call_id"),
        "messages[3].tool_call_id",
    ),
    _neg(
        "openai-tool-message-without-content",
        OC_REQ,
        _delete("messages", 3, "content"),
        "messages[3].content",
    ),
    _neg(
        "openai-arguments-as-object",
        OC_REQ,
        _set({"city": "Paris"}, *CALL, "function", "arguments"),
        "messages[2].tool_calls[0].function.arguments",
    ),
    _neg(
        "openai-tool_call-without-id",
        OC_REQ,
        _delete(*CALL, "id"),
        "messages[2].tool_calls[0].id",
    ),
    _neg(
        "openai-tool_call-without-type",
        OC_REQ,
        _delete(*CALL, "type"),
        "messages[2].tool_calls[0].type",
    ),
    _neg(
        "openai-replayed-call-name-with-dot",
        OC_REQ,
        _set("multi_tool_use.parallel", *CALL, "function", "name"),
        "messages[2].tool_calls[0].function.name",
    ),
    _neg(
        "openai-assistant-without-content-or-tool_calls",
        OC_REQ,
        _set({"role": "assistant"}, "messages", 2),
        "messages[2].content",
    ),
    _neg(
        "openai-tool-name-with-space",
        OC_REQ,
        _set("get weather", "tools", 0, "function", "name"),
        "tools[0].function.name",
    ),
    _neg(
        "openai-tool-name-65-chars",
        OC_REQ,
        _set("a" * 65, "tools", 0, "function", "name"),
        "tools[0].function.name",
    ),
    _neg(
        "openai-tool-unknown-type", OC_REQ, _set("retrieval", "tools", 0, "type"), "tools[0].type"
    ),
    _neg("openai-tool_choice-unknown-string", OC_REQ, _set("any", "tool_choice"), "tool_choice"),
    _neg(
        "openai-named-tool_choice-without-function",
        OC_REQ,
        _delete("tool_choice", "function"),
        "tool_choice.function",
    ),
    _neg(
        "openai-user-part-anthropic-shape",
        OC_REQ,
        _set({"type": "tool_result", "tool_use_id": "x"}, "messages", 1, "content", 0),
        "messages[1].content[0].type",
    ),
    # openai-chat response and stream chunks
    _neg(
        "openai-response-arguments-as-object",
        OC_RESP,
        _set({}, *RESPONSE_CALL, "function", "arguments"),
        "choices[0].message.tool_calls[0].function.arguments",
    ),
    _neg(
        "openai-response-anthropic-finish-reason",
        OC_RESP,
        _set("tool_use", "choices", 0, "finish_reason"),
        "choices[0].finish_reason",
    ),
    _neg(
        "openai-response-chunk-object-name",
        OC_RESP,
        _set("chat.completion.chunk", "object"),
        "object",
    ),
    _neg(
        "openai-response-tool_call-without-id",
        OC_RESP,
        _delete(*RESPONSE_CALL, "id"),
        "choices[0].message.tool_calls[0].id",
    ),
    _neg(
        "openai-chunk-tool_call-without-index",
        OC_STREAM,
        _delete(*CHUNK_CALL, "index"),
        "choices[0].delta.tool_calls[0].index",
    ),
    _neg(
        "openai-chunk-arguments-as-object",
        OC_STREAM,
        _set({}, *CHUNK_CALL, "function", "arguments"),
        "choices[0].delta.tool_calls[0].function.arguments",
    ),
    _neg("openai-chunk-without-choices", OC_STREAM, _delete("choices"), "choices"),
    _neg(
        "openai-error-event-without-message",
        OC_STREAM,
        _delete("error", "message"),
        "error.message",
        base=OPENAI_ERROR_EVENT,
    ),
    # deepseek-chat
    _neg(
        "deepseek-reasoning_content-not-a-string",
        DS_REQ,
        _set(["step 1"], "messages", 1, "reasoning_content"),
        "messages[1].reasoning_content",
    ),
    _neg(
        "deepseek-developer-role",
        DS_REQ,
        _set("developer", "messages", 0, "role"),
        "messages[0].role",
    ),
    _neg(
        "deepseek-inherits-tool_call_id",
        DS_REQ,
        _delete("messages", 2, "tool_call_id"),
        "messages[2].tool_call_id",
    ),
    _neg(
        "deepseek-inherits-string-arguments",
        DS_REQ,
        _set({"city": "Paris"}, "messages", 1, "tool_calls", 0, "function", "arguments"),
        "messages[1].tool_calls[0].function.arguments",
    ),
    _neg(
        "deepseek-response-reasoning_content-not-a-string",
        DS_RESP,
        _set(42, "choices", 0, "message", "reasoning_content"),
        "choices[0].message.reasoning_content",
    ),
    _neg(
        "deepseek-chunk-reasoning_content-not-a-string",
        DS_STREAM,
        _set({"text": "x"}, "choices", 0, "delta", "reasoning_content"),
        "choices[0].delta.reasoning_content",
    ),
    # qwen-xml shares the openai-chat envelope
    _neg(
        "qwen-xml-tool-message-without-tool_call_id",
        QX_REQ,
        _delete("messages", 3, "tool_call_id"),
        "messages[3].tool_call_id",
    ),
    _neg(
        "qwen-xml-response-arguments-as-object",
        QX_RESP,
        _set({}, *RESPONSE_CALL, "function", "arguments"),
        "choices[0].message.tool_calls[0].function.arguments",
    ),
    _neg(
        "qwen-xml-chunk-arguments-as-object",
        QX_STREAM,
        _set({}, *CHUNK_CALL, "function", "arguments"),
        "choices[0].delta.tool_calls[0].function.arguments",
    ),
]


@pytest.mark.parametrize(("dialect", "kind", "base", "change", "expected_path"), NEGATIVE_CASES)
def test_violation_is_reported_at_the_exact_path(
    dialect: str, kind: str, base: Json, change: Mutation, expected_path: str
) -> None:
    assert _paths(dialect, kind, base) == [], "the unmutated payload must be valid"
    assert _paths(dialect, kind, _with(base, change)) == [expected_path]


# --- what must stay accepted -----------------------------------------------

UNMODELLED_BLOCKS: list[Json] = [
    {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"q": "x"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
    {
        "type": "mcp_tool_use",
        "id": "mcptoolu_01",
        "name": "ask",
        "server_name": "wiki",
        "input": {},
    },
    {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01", "content": []},
    {"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_02", "content": {}},
    {"type": "container_upload", "file_id": "file_01"},
]
MEDIA_BLOCKS: list[Json] = [
    {"type": "image", "source": {"type": "url", "url": "https://example.invalid/a.png"}},
    {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "doc"}},
    {
        "type": "search_result",
        "source": "s",
        "title": "t",
        "content": [{"type": "text", "text": "r"}],
    },
]
QWEN_XML_MESSAGE: Json = {
    "role": "assistant",
    "content": "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
    "</parameter>\n</function>\n</tool_call>",
}

POSITIVE_CASES = [
    _pos("anthropic-tool-name-128-chars", AM_REQ, _set("a" * 128, "tools", 0, "name")),
    _pos("anthropic-whitespace-text-replayed", AM_REQ, _set(" ", *ASSISTANT, 2, "text")),
    _pos("anthropic-string-system", AM_REQ, _set("Be brief.", "system")),
    _pos("anthropic-string-content", AM_REQ, _set("Hi", "messages", 0, "content")),
    _pos(
        "anthropic-unmodelled-block-types",
        AM_REQ,
        lambda p: p["messages"][1]["content"].extend(UNMODELLED_BLOCKS),
    ),
    _pos(
        "anthropic-media-blocks",
        AM_REQ,
        lambda p: p["messages"][0]["content"].extend(MEDIA_BLOCKS),
    ),
    _pos("anthropic-unknown-top-level-field", AM_REQ, _set({"effort": "high"}, "output_config")),
    _pos("anthropic-adaptive-thinking", AM_REQ, _set({"type": "adaptive"}, "thinking")),
    _pos(
        "anthropic-response-unmodelled-block",
        AM_RESP,
        _append(
            {"type": "bash_code_execution_tool_result", "tool_use_id": "x", "content": {}},
            "content",
        ),
    ),
    _pos(
        "anthropic-response-context-window-stop",
        AM_RESP,
        _set("model_context_window_exceeded", "stop_reason"),
    ),
    _pos("anthropic-stream-ping", AM_STREAM, _set("ping", "type"), base=MESSAGE_DELTA),
    _pos(
        "anthropic-stream-unknown-event", AM_STREAM, _set("future_event", "type"), base=JSON_DELTA
    ),
    _pos(
        "openai-assistant-tool_calls-without-content",
        OC_REQ,
        _delete("messages", 2, "content"),
    ),
    _pos(
        "openai-compatible-extensions",
        OC_REQ,
        lambda p: p.update(reasoning_format="parsed", reasoning_effort="default"),
    ),
    _pos("openai-tool-name-64-chars", OC_REQ, _set("a" * 64, "tools", 0, "function", "name")),
    _pos("openai-string-tool_choice", OC_REQ, _set("required", "tool_choice")),
    _pos(
        "openai-response-without-refusal",
        OC_RESP,
        _delete("choices", 0, "message", "refusal"),
    ),
    _pos("openai-response-without-logprobs", OC_RESP, _delete("choices", 0, "logprobs")),
    _pos("openai-usage-only-final-chunk", OC_STREAM, _set([], "choices")),
    _pos(
        "openai-later-argument-fragment",
        OC_STREAM,
        _set(
            [{"index": 1, "function": {"arguments": '{"ci'}}], "choices", 0, "delta", "tool_calls"
        ),
    ),
    _pos("openai-error-event", OC_STREAM, lambda p: None, base=OPENAI_ERROR_EVENT),
    _pos("deepseek-empty-reasoning_content", DS_REQ, _set("", "messages", 1, "reasoning_content")),
    _pos("deepseek-null-reasoning_content", DS_REQ, _set(None, "messages", 1, "reasoning_content")),
    _pos(
        "deepseek-insufficient-system-resource",
        DS_RESP,
        _set("insufficient_system_resource", "choices", 0, "finish_reason"),
    ),
    _pos(
        "qwen-xml-markup-in-content",
        QX_RESP,
        lambda p: p["choices"][0].update(finish_reason="stop", message=QWEN_XML_MESSAGE),
    ),
]


@pytest.mark.parametrize(("dialect", "kind", "base", "change"), POSITIVE_CASES)
def test_documented_or_real_variation_is_accepted(
    dialect: str, kind: str, base: Json, change: Mutation
) -> None:
    assert _paths(dialect, kind, _with(base, change)) == []


def test_deepseek_finish_reason_is_not_openai() -> None:
    change = _set("insufficient_system_resource", "choices", 0, "finish_reason")
    assert _paths("openai-chat", "response", _with(OPENAI_RESPONSE, change)) == [
        "choices[0].finish_reason"
    ]


def test_reasoning_content_type_is_checked_only_for_deepseek() -> None:
    payload = _with(DEEPSEEK_REQUEST, _set(7, "messages", 1, "reasoning_content"))
    assert _paths("openai-chat", "request", payload) == []
    assert _paths("deepseek-chat", "request", payload) == ["messages[1].reasoning_content"]
