"""fidelity.tool_definitions, tool_choice, stop_reason and usage across a conversion."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import (
    anthropic_request,
    anthropic_response,
    conversion_codes,
    only,
    openai_request,
    openai_response,
    payload,
)
from toolwire.conformance import fidelity
from toolwire.conformance.context import ConversionUnderTest

ASK = {"role": "user", "content": "Weather in Paris?"}
TOOL_OPENAI = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
TOOL_ANTHROPIC = {
    "name": "get_weather",
    "description": "Get the weather.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
}


def _check(code: str, source: Any, output: Any) -> Any:
    return fidelity.CONVERSION_CHECKS[code](ConversionUnderTest(source, output))


def _use(call_id: str = "toolu_1", name: str = "get_weather") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {}}


def _openai_call(call_id: str = "call_1", name: str = "get_weather") -> dict[str, Any]:
    function = {"name": name, "arguments": "{}"}
    return {
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": function}],
    }


# --- fidelity.tool_definitions -------------------------------------------------


def _with_tools(
    openai_tools: list[Any] | None = None, anthropic_tools: list[Any] | None = None
) -> tuple[Any, Any]:
    source = openai_request([ASK], tools=openai_tools or [TOOL_OPENAI])
    output = anthropic_request([ASK], tools=anthropic_tools or [TOOL_ANTHROPIC])
    return source, output


def test_tool_definitions_that_survive() -> None:
    assert conversion_codes(*_with_tools()) == set()


def test_an_omitted_description_and_parameters_equal_their_empty_forms() -> None:
    bare = {"type": "function", "function": {"name": "ping"}}
    filled = {"name": "ping", "description": "", "input_schema": {"type": "object"}}
    source, output = _with_tools([bare], [filled])
    assert _check("fidelity.tool_definitions", source, output) == []


@pytest.mark.parametrize(
    "parameters",
    [{}, {"type": "object"}, {"type": "object", "properties": {}, "required": []}],
)
def test_spellings_of_no_parameters_are_one(parameters: dict[str, Any]) -> None:
    bare = {"type": "function", "function": {"name": "ping", "parameters": parameters}}
    filled = {"name": "ping", "input_schema": {"type": "object", "properties": {}}}
    assert _check("fidelity.tool_definitions", *_with_tools([bare], [filled])) == []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"description": "Weather."}, "tools[0].description"),
        (
            {"input_schema": {"type": "object", "properties": {"city": {"type": "integer"}}}},
            "tools[0]",
        ),
        ({"name": "get-weather"}, "tools[0].name"),
        ({"strict": True}, "tools[0].strict"),
        (
            {
                "input_schema": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "additionalProperties": False,
                }
            },
            "tools[0]",
        ),
    ],
)
def test_a_tool_definition_that_changed(change: dict[str, Any], path: str) -> None:
    source, output = _with_tools(anthropic_tools=[{**TOOL_ANTHROPIC, **change}])
    assert only(_check("fidelity.tool_definitions", source, output)).path == path
    assert conversion_codes(source, output) == {"fidelity.tool_definitions"}


def test_schema_spellings_that_mean_the_same_are_not_findings() -> None:
    schema = {
        "required": [],
        "$defs": {},
        "properties": {"city": {"type": "string"}},
        "type": "object",
    }
    source, output = _with_tools(anthropic_tools=[{**TOOL_ANTHROPIC, "input_schema": schema}])
    assert _check("fidelity.tool_definitions", source, output) == []
    strict_off = {**TOOL_ANTHROPIC, "strict": False}
    assert _check("fidelity.tool_definitions", *_with_tools(anthropic_tools=[strict_off])) == []


def test_a_schema_finding_names_the_difference_in_meaning() -> None:
    dropped = {"type": "object", "properties": {"city": {"type": "string"}}, "$defs": {}}
    source = openai_request(
        [ASK],
        tools=[
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Get the weather.",
                    "parameters": {
                        "type": "object",
                        "properties": {"city": {"type": "string", "enum": ["Paris", "Rome"]}},
                    },
                },
            }
        ],
    )
    output = anthropic_request([ASK], tools=[{**TOOL_ANTHROPIC, "input_schema": dropped}])
    found = only(_check("fidelity.tool_definitions", source, output))
    assert "enum" in found.message
    assert "$defs" not in found.message


def test_a_tool_lost_and_a_tool_added() -> None:
    other = {"name": "get_time", "input_schema": {"type": "object"}}
    two = [TOOL_OPENAI, {"type": "function", "function": {"name": "get_time"}}]
    source, output = _with_tools(two, [TOOL_ANTHROPIC])
    assert "missing" in only(_check("fidelity.tool_definitions", source, output)).message
    source, output = _with_tools(anthropic_tools=[TOOL_ANTHROPIC, other])
    assert "did not define" in only(_check("fidelity.tool_definitions", source, output)).message


def test_a_call_renamed_in_a_response() -> None:
    source = anthropic_response([_use("toolu_1", "get_weather")], "tool_use")
    output = openai_response(_openai_call("toolu_1", "get_weather_v2"), "tool_calls")
    found = only(_check("fidelity.tool_definitions", source, output))
    assert (found.expected, found.actual) == ("get_weather", "get_weather_v2")


# --- fidelity.tool_choice -------------------------------------------------------


@pytest.mark.parametrize(
    ("openai_choice", "anthropic_choice"),
    [
        ("required", {"type": "any"}),
        ("none", {"type": "none"}),
        (
            {"type": "function", "function": {"name": "get_weather"}},
            {"type": "tool", "name": "get_weather"},
        ),
        (None, None),
        ("auto", None),
    ],
)
def test_tool_choices_that_keep_their_meaning(openai_choice: Any, anthropic_choice: Any) -> None:
    source_top = {"tools": [TOOL_OPENAI]} | (
        {"tool_choice": openai_choice} if openai_choice else {}
    )
    output_top = {"tools": [TOOL_ANTHROPIC]} | (
        {"tool_choice": anthropic_choice} if anthropic_choice else {}
    )
    source, output = openai_request([ASK], **source_top), anthropic_request([ASK], **output_top)
    assert _check("fidelity.tool_choice", source, output) == []


def test_a_tool_choice_that_is_not_translated() -> None:
    # NAIVE_CONVERTERS.md A drops tool_choice.
    source = openai_request([ASK], tools=[TOOL_OPENAI], tool_choice="required")
    output = anthropic_request([ASK], tools=[TOOL_ANTHROPIC])
    found = only(_check("fidelity.tool_choice", source, output))
    assert (found.expected, found.actual) == ("required", "auto")
    assert conversion_codes(source, output) == {"fidelity.tool_choice"}


def test_the_parallel_call_setting() -> None:
    source = openai_request([ASK], tools=[TOOL_OPENAI], parallel_tool_calls=False)
    kept = anthropic_request(
        [ASK],
        tools=[TOOL_ANTHROPIC],
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    )
    lost = anthropic_request([ASK], tools=[TOOL_ANTHROPIC])
    assert _check("fidelity.tool_choice", source, kept) == []
    found = only(_check("fidelity.tool_choice", source, lost))
    assert found.path == "tool_choice.disable_parallel_tool_use"
    # Absent is the documented default, said as such (not "got True").
    assert found.message.endswith(
        "(tool_choice.disable_parallel_tool_use is absent, and the default allows them)"
    )
    assert found.expected == "disabled"


def test_the_parallel_call_setting_written_wrong_is_named_as_written() -> None:
    source = anthropic_request(
        [ASK],
        tools=[TOOL_ANTHROPIC],
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
    )
    output = openai_request([ASK], tools=[TOOL_OPENAI], parallel_tool_calls=True)
    found = only(_check("fidelity.tool_choice", source, output))
    assert found.message.endswith("(parallel_tool_calls is true)")


def test_no_tools_and_no_choice_means_nothing_to_judge() -> None:
    assert _check("fidelity.tool_choice", openai_request([ASK]), anthropic_request([ASK])) is None


# --- fidelity.stop_reason -------------------------------------------------------

_TABLE = [
    ("end_turn", "stop"),
    ("tool_use", "tool_calls"),
    ("max_tokens", "length"),
    ("stop_sequence", "stop"),
]


@pytest.mark.parametrize(("anthropic_stop", "openai_finish"), _TABLE)
def test_the_stop_reason_table_both_ways(anthropic_stop: str, openai_finish: str) -> None:
    anthropic = anthropic_response([{"type": "text", "text": "Hi."}], anthropic_stop)
    openai = openai_response({"content": "Hi."}, openai_finish)
    assert _check("fidelity.stop_reason", anthropic, openai) == []
    assert _check("fidelity.stop_reason", openai, anthropic) == []


@pytest.mark.parametrize(
    ("anthropic_stop", "openai_finish"),
    [("tool_use", "stop"), ("end_turn", "length"), ("max_tokens", "stop"), ("tool_use", None)],
)
def test_stop_reasons_that_do_not_map(anthropic_stop: str, openai_finish: str | None) -> None:
    source = anthropic_response([{"type": "text", "text": "Hi."}], anthropic_stop)
    output = openai_response({"content": "Hi."}, openai_finish)
    found = only(_check("fidelity.stop_reason", source, output))
    assert found.path == "choices[0].finish_reason"
    assert found.actual == openai_finish


def test_a_stop_sequence_must_stay_one_between_anthropic_payloads() -> None:
    source = anthropic_response([{"type": "text", "text": "Hi."}], "stop_sequence")
    output = anthropic_response([{"type": "text", "text": "Hi."}], "end_turn")
    assert only(_check("fidelity.stop_reason", source, output)).expected == "stop_sequence"


def test_stop_with_calls_may_become_tool_use() -> None:
    # Some compatible servers answer finish_reason "stop" beside tool calls.
    source = openai_response(_openai_call("call_1"), "stop")
    output = anthropic_response([_use("call_1")], "tool_use")
    assert _check("fidelity.stop_reason", source, output) == []


# --- fidelity.usage -------------------------------------------------------------


def test_usage_that_survives_with_or_without_cached_tokens() -> None:
    usage = {"input_tokens": 100, "output_tokens": 7, "cache_read_input_tokens": 50}
    source = anthropic_response([{"type": "text", "text": "Hi."}], usage=usage)
    cached = {"prompt_tokens_details": {"cached_tokens": 50}}
    for prompt in (100, 150):
        output = openai_response(
            {"content": "Hi."}, usage={"prompt_tokens": prompt, "completion_tokens": 7, **cached}
        )
        assert _check("fidelity.usage", source, output) == []
    # The cache reads left out where the target reports them: one finding (issue 27).
    output = openai_response(
        {"content": "Hi."}, usage={"prompt_tokens": 150, "completion_tokens": 7}
    )
    assert "50 tokens read from the cache" in only(_check("fidelity.usage", source, output)).message


def test_usage_dropped_or_changed() -> None:
    source = anthropic_response([{"type": "text", "text": "Hi."}])
    dropped = openai_response({"content": "Hi."}, omit_usage=True)
    assert "no usage" in only(_check("fidelity.usage", source, dropped)).message
    assert conversion_codes(source, dropped) == {"fidelity.usage"}
    changed = openai_response(
        {"content": "Hi."}, usage={"prompt_tokens": 10, "completion_tokens": 6}
    )
    assert only(_check("fidelity.usage", source, changed)).path == "usage.completion_tokens"


def _gemini_response(usage: dict[str, Any] | None) -> Any:
    raw: dict[str, Any] = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "Hi."}]}, "finishReason": "STOP"}
        ],
        "modelVersion": "gemini-2.5-flash",
    }
    if usage is not None:
        raw["usageMetadata"] = usage
    return payload("gemini", "response", raw)


def _responses_response(usage: dict[str, Any]) -> Any:
    raw = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-4.1",
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Hi.", "annotations": []}],
            }
        ],
        "usage": usage,
    }
    return payload("openai-responses", "response", raw)


def test_usage_names_the_gemini_fields_of_a_gemini_output() -> None:
    source = openai_response({"content": "Hi."})  # 10 prompt, 5 completion tokens
    changed = _gemini_response({"promptTokenCount": 11, "candidatesTokenCount": 6})
    found = {f.path: f.message for f in _check("fidelity.usage", source, changed) or []}
    assert set(found) == {"usageMetadata.promptTokenCount", "usageMetadata.candidatesTokenCount"}
    assert found["usageMetadata.candidatesTokenCount"] == (
        "usageMetadata.candidatesTokenCount is 6, but the source reports 5 output tokens "
        "(openai-chat usage.completion_tokens)"
    )
    thinking = _gemini_response(
        {"promptTokenCount": 10, "candidatesTokenCount": 4, "thoughtsTokenCount": 3}
    )
    message = only(_check("fidelity.usage", source, thinking)).message
    assert message.startswith("usageMetadata.candidatesTokenCount plus thoughtsTokenCount is 7")
    dropped = only(_check("fidelity.usage", source, _gemini_response(None)))
    assert dropped.path == "usageMetadata" and "no usageMetadata" in dropped.message


def test_usage_names_each_dialects_own_fields() -> None:
    source = _gemini_response({"promptTokenCount": 10, "candidatesTokenCount": 5})
    to_anthropic = anthropic_response(
        [{"type": "text", "text": "Hi."}], usage={"input_tokens": 10, "output_tokens": 6}
    )
    found = only(_check("fidelity.usage", source, to_anthropic))
    assert found.path == "usage.output_tokens"
    assert found.message == (
        "usage.output_tokens is 6, but the source reports 5 output tokens "
        "(gemini usageMetadata.candidatesTokenCount)"
    )
    to_responses = _responses_response({"input_tokens": 9, "output_tokens": 5, "total_tokens": 14})
    found = only(_check("fidelity.usage", source, to_responses))
    assert found.path == "usage.input_tokens"
    assert found.message.startswith("usage.input_tokens is 9, but the source reports 10 input")
