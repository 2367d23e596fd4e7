"""openai-chat / deepseek-chat responses: parse, render, shape errors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from toolwire.harness.dialects.openai_chat import (
    DEEPSEEK_CHAT_CODEC,
    OPENAI_CHAT_CODEC,
    OpenAIChatCodec,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    CanonicalStop,
    Choice,
    Response,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
    Usage,
)

codec = OPENAI_CHAT_CODEC


def _body(*choices: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test1",
        "object": "chat.completion",
        "created": 1760000000,
        "model": "gpt-test-2025",
        "choices": list(choices),
        **fields,
    }


def _choice(message: dict[str, Any], finish: Any = "stop", index: int = 0) -> dict[str, Any]:
    return {"index": index, "message": message, "logprobs": None, "finish_reason": finish}


def _roundtrip(payload: dict[str, Any], parser: OpenAIChatCodec = codec) -> Response:
    original = copy.deepcopy(payload)
    response = parser.parse_response(payload)
    assert parser.render_response(response) == original
    assert payload == original, "parsing must not mutate the payload"
    return response


USAGE = {
    "prompt_tokens": 61,
    "completion_tokens": 24,
    "total_tokens": 85,
    "prompt_tokens_details": {"cached_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0},
}


def test_tool_call_response_parses_and_round_trips() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_x1",
                "type": "function",
                "function": {"name": "lookup", "arguments": '{"q":"toolwire"}'},
            }
        ],
        "refusal": None,
        "annotations": [],
    }
    payload = _body(
        _choice(message, "tool_calls"),
        usage=USAGE,
        service_tier="default",
        system_fingerprint="fp_test",
    )
    response = _roundtrip(payload)
    assert response.dialect == "openai-chat"
    assert response.id == "chatcmpl-test1"
    assert response.model == "gpt-test-2025"
    assert response.extra == {
        "object": "chat.completion",
        "created": 1760000000,
        "service_tier": "default",
        "system_fingerprint": "fp_test",
    }
    assert response.usage == Usage(input_tokens=61, output_tokens=24, raw=USAGE)
    assert response.choices == (
        Choice(
            index=0,
            message=Turn(
                role="assistant",
                blocks=(
                    ToolCall(
                        id="call_x1",
                        name="lookup",
                        arguments={"q": "toolwire"},
                        raw_arguments='{"q":"toolwire"}',
                        extra={"type": "function"},
                    ),
                ),
                content_form="null",
                extra={"refusal": None, "annotations": []},
            ),
            stop_reason=StopReason(raw="tool_calls", canonical="tool_use"),
            extra={"logprobs": None},
        ),
    )


def test_deepseek_thinking_response_with_text_and_calls() -> None:
    message = {
        "role": "assistant",
        "content": "Let me look.",
        "reasoning_content": "The user wants two lookups.",
        "tool_calls": [
            {
                "index": 0,
                "id": "call_00_a",
                "type": "function",
                "function": {"name": "lookup", "arguments": "{}"},
            },
            {
                "index": 1,
                "id": "call_01_b",
                "type": "function",
                "function": {"name": "lookup", "arguments": '{"q": 1}'},
            },
        ],
    }
    payload = _body(_choice(message, "tool_calls"), usage=USAGE)
    response = _roundtrip(payload, DEEPSEEK_CHAT_CODEC)
    assert response.dialect == "deepseek-chat"
    blocks = response.message.blocks
    assert blocks[0] == ThinkingBlock(
        origin="reasoning_content", text="The user wants two lookups."
    )
    assert blocks[1] == TextBlock("Let me look.")
    assert [(c.id, c.arguments, c.extra) for c in response.message.tool_calls] == [
        ("call_00_a", {}, {"index": 0, "type": "function"}),
        ("call_01_b", {"q": 1}, {"index": 1, "type": "function"}),
    ]


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("stop", "end_turn"),
        ("tool_calls", "tool_use"),
        ("function_call", "tool_use"),
        ("length", "max_tokens"),
        ("content_filter", "content_filter"),
        ("insufficient_system_resource", "unknown"),
        ("eos", "unknown"),
        (None, "unknown"),
    ],
)
def test_finish_reasons_map_to_canonical_stop_reasons(
    raw: str | None, canonical: CanonicalStop
) -> None:
    response = _roundtrip(_body(_choice({"role": "assistant", "content": "x"}, raw)))
    assert response.stop_reason == StopReason(raw=raw, canonical=canonical)


def test_several_choices_keep_their_indices() -> None:
    payload = _body(
        _choice({"role": "assistant", "content": "one"}, "stop", 0),
        _choice({"role": "assistant", "content": "two"}, "length", 1),
    )
    response = _roundtrip(payload)
    assert [(c.index, c.message.text, c.stop_reason.canonical) for c in response.choices] == [
        (0, "one", "end_turn"),
        (1, "two", "max_tokens"),
    ]


def test_usage_null_or_absent_is_not_a_usage() -> None:
    with_null = _roundtrip(_body(_choice({"role": "assistant", "content": "x"}), usage=None))
    assert with_null.usage is None
    assert with_null.extra["usage"] is None
    absent = _roundtrip(_body(_choice({"role": "assistant", "content": "x"})))
    assert absent.usage is None
    assert "usage" not in absent.extra


def test_partial_usage_keeps_missing_counts_as_none() -> None:
    usage = {"prompt_tokens": 5, "total_tokens": 5}
    response = _roundtrip(_body(_choice({"role": "assistant", "content": "x"}), usage=usage))
    assert response.usage == Usage(input_tokens=5, output_tokens=None, raw=usage)


def test_error_body_raises_with_the_api_message() -> None:
    payload = {
        "error": {
            "message": "Tool call validation failed",
            "type": "invalid_request_error",
            "code": "tool_use_failed",
        }
    }
    with pytest.raises(WireFormatError) as caught:
        codec.parse_response(payload)
    assert caught.value.path == "error"
    assert "Tool call validation failed" in str(caught.value)
    assert "not a chat completion" in str(caught.value)


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ("not json", ""),
        ({"id": "x"}, "choices"),
        ({"choices": {"index": 0}}, "choices"),
        ({"choices": [None]}, "choices[0]"),
        (
            {"choices": [{"message": {"role": "assistant"}, "finish_reason": None}]},
            "choices[0].index",
        ),
        ({"choices": [{"index": 0, "message": {"role": "assistant"}}]}, "choices[0].finish_reason"),
        (
            {"choices": [{"index": 0, "finish_reason": 3, "message": {}}]},
            "choices[0].finish_reason",
        ),
        ({"choices": [{"index": 0, "finish_reason": "stop"}]}, "choices[0].message"),
        (
            {"choices": [{"index": 0, "finish_reason": "stop", "message": {"content": "x"}}]},
            "choices[0].message.role",
        ),
        (
            {
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls",
                        "message": {"role": "assistant", "tool_calls": [{"id": "c"}]},
                    }
                ]
            },
            "choices[0].message.tool_calls[0].function",
        ),
    ],
)
def test_response_shape_errors_name_their_path(payload: Any, path: str) -> None:
    with pytest.raises(WireFormatError) as caught:
        codec.parse_response(payload)
    assert caught.value.path == path


def test_code_built_response_renders_natural_openai_values() -> None:
    response = Response(
        dialect="anthropic-messages",
        id="msg_01",
        model="m",
        choices=(
            Choice(
                index=0,
                message=Turn(
                    role="assistant",
                    blocks=(
                        TextBlock("Calling."),
                        ToolCall(id="toolu_1", name="f", arguments={"a": [1, 2]}),
                    ),
                    content_form="string",
                ),
                # A stop reason carried over from anthropic keeps its raw value.
                stop_reason=StopReason(raw="tool_use", canonical="tool_use"),
            ),
        ),
        usage=Usage(input_tokens=10, output_tokens=4, raw={"input_tokens": 10, "output_tokens": 4}),
    )
    assert codec.render_response(response) == {
        "id": "msg_01",
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Calling.",
                    "tool_calls": [
                        {
                            "id": "toolu_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": '{"a": [1, 2]}'},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 14},
    }


@pytest.mark.parametrize(
    ("stop", "finish"),
    [
        (StopReason(raw=None, canonical="end_turn"), "stop"),
        (StopReason(raw="stop_sequence", canonical="stop_sequence"), "stop"),
        (StopReason(raw="max_tokens", canonical="max_tokens"), "length"),
        (StopReason(raw="refusal", canonical="refusal"), "refusal"),
        (StopReason(raw="length", canonical="max_tokens"), "length"),
    ],
)
def test_foreign_stop_reasons_render_as_openai_finish_reasons(
    stop: StopReason, finish: str
) -> None:
    message = Turn(role="assistant", blocks=(TextBlock("x"),), content_form="string")
    response = Response(dialect="x", choices=(Choice(0, message, stop),))
    assert codec.render_response(response)["choices"][0]["finish_reason"] == finish
