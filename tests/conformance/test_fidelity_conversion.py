"""fidelity.* across a conversion: each broken output fails exactly its rule."""

from __future__ import annotations

import unicodedata
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
    roundtrip_codes,
)
from toolwire.conformance import fidelity
from toolwire.conformance.context import ConversionUnderTest, RoundTripUnderTest
from toolwire.conformance.readings.json_values import json_equal
from toolwire.conformance.readings.text import same_text
from toolwire.conformance.readings.views import pair_up

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


def _check(code: str, source: Any, output: Any, **kw: Any) -> Any:
    return fidelity.CONVERSION_CHECKS[code](ConversionUnderTest(source, output, **kw))


def _use(arguments: Any, call_id: str = "toolu_1", name: str = "get_weather") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _openai_calls(*calls: tuple[str, str], content: str | None = None) -> dict[str, Any]:
    return {
        "content": content,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": "get_weather", "arguments": a}}
            for i, a in calls
        ],
    }


# --- fidelity.arguments ------------------------------------------------------


@pytest.mark.parametrize(
    ("source_input", "output_arguments"),
    [
        ({"city": "Zürich", "days": 3}, '{"days": 3, "city": "Z\\u00fcrich"}'),
        ({"ratio": 1}, '{"ratio": 1.0}'),  # one JSON number
        ({"n": 12345678901234567890}, '{"n": 12345678901234567890}'),
        ({"nested": {"a": [1, {"b": None}]}}, '{"nested": {"a": [1, {"b": null}]}}'),
    ],
)
def test_arguments_that_keep_their_json_value(source_input: Any, output_arguments: str) -> None:
    source = anthropic_response([_use(source_input)], "tool_use")
    output = openai_response(_openai_calls(("toolu_1", output_arguments)), "tool_calls")
    assert _check("fidelity.arguments", source, output) == []
    assert conversion_codes(source, output) == set()


@pytest.mark.parametrize(
    ("source_input", "output_arguments", "where"),
    [
        ({"flag": True}, '{"flag": 1}', "$.flag"),
        ({"n": 12345678901234567890}, '{"n": 12345678901234567000}', "$.n"),
        ({"city": "Zürich"}, '{"city": "Z\\u00c3\\u00bcrich"}', "$.city"),  # mojibake
        ({"city": "Paris", "days": 3}, '{"city": "Paris"}', "'days' is missing"),
    ],
)
def test_arguments_that_change_value(source_input: Any, output_arguments: str, where: str) -> None:
    source = anthropic_response([_use(source_input)], "tool_use")
    output = openai_response(_openai_calls(("toolu_1", output_arguments)), "tool_calls")
    found = only(_check("fidelity.arguments", source, output))
    assert found.path == "choices[0].message.tool_calls[0]"
    assert where in found.message
    assert conversion_codes(source, output) == {"fidelity.arguments"}


def test_unicode_normal_forms_are_not_the_same_string() -> None:
    decomposed = unicodedata.normalize("NFD", "Zürich")
    assert not json_equal({"city": "Zürich"}, {"city": decomposed})
    assert json_equal({"a": 1, "b": [1.5]}, {"b": [1.5], "a": 1.0})
    assert not json_equal(True, 1)
    assert not json_equal(None, 0)


def test_a_call_that_never_arrives() -> None:
    source = anthropic_response([_use({"city": "Paris"}), _use({"city": "Rome"}, "toolu_2")])
    output = openai_response(_openai_calls(("toolu_1", '{"city": "Paris"}')), "tool_calls")
    assert "never arrive" in only(_check("fidelity.arguments", source, output)).message


def test_malformed_output_arguments_are_left_to_the_payload_check() -> None:
    source = anthropic_response([_use({"city": "Paris"})], "tool_use")
    output = openai_response(_openai_calls(("toolu_1", '"{\\"city\\": \\"Paris\\"}"')))
    assert _check("fidelity.arguments", source, output) == []
    assert fidelity.PAYLOAD_CHECKS["fidelity.arguments"](output)


# --- fidelity.text ------------------------------------------------------------


@pytest.mark.parametrize("separator", ["", "\n", "\n\n"])
def test_text_blocks_joined_with_an_accepted_separator(separator: str) -> None:
    source = anthropic_response(
        [{"type": "text", "text": "First."}, {"type": "text", "text": "Second."}]
    )
    output = openai_response({"content": f"First.{separator}Second."})
    assert _check("fidelity.text", source, output) == []
    assert conversion_codes(source, output) == set()


def test_text_split_at_a_paragraph_break_is_the_same_text() -> None:
    source = openai_response({"content": "One.\n\nTwo."})
    output = anthropic_response(
        [{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}]
    )
    assert _check("fidelity.text", source, output) == []


@pytest.mark.parametrize(
    ("sent", "received"),
    [
        ("Fahrt nach Zürich", "Fahrt nach Zurich"),
        ("line one\nline two", "line one line two"),
        ("Two.\n\nParagraphs.", "Two.\n\n\nParagraphs."),
    ],
)
def test_text_that_changed(sent: str, received: str) -> None:
    source = openai_response({"content": sent})
    output = anthropic_response([{"type": "text", "text": received}])
    found = only(_check("fidelity.text", source, output))
    assert found.path == "content"
    assert (found.expected, found.actual) == (sent, received)
    assert conversion_codes(source, output) == {"fidelity.text"}


def test_a_lost_system_prompt() -> None:
    source = openai_request([{"role": "system", "content": "Answer in French."}, ASK])
    output = anthropic_request([ASK])
    found = only(_check("fidelity.text", source, output))
    assert found.path == "system"
    assert "system prompt" in found.message and "is lost" in found.message
    assert conversion_codes(source, output) == {"fidelity.text"}


def test_the_system_prompt_moves_to_the_top_level_field() -> None:
    source = openai_request([{"role": "system", "content": "Answer in French."}, ASK])
    output = anthropic_request([ASK], system="Answer in French.")
    assert conversion_codes(source, output) == set()


def test_a_tool_result_rendered_as_a_python_list() -> None:
    # NAIVE_CONVERTERS.md B: str(content) of a list of parts.
    parts = [{"type": "text", "text": "18C"}]
    source = openai_request(
        [
            ASK,
            {"role": "assistant", **_openai_calls(("call_1", "{}"))},
            {"role": "tool", "tool_call_id": "call_1", "content": parts},
        ]
    )
    output = anthropic_request(
        [
            ASK,
            {"role": "assistant", "content": [_use({}, "call_1")]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": str(parts)}
                ],
            },
        ]
    )
    found = only(_check("fidelity.text", source, output))
    assert found.path == "messages[2].content[0]"
    assert conversion_codes(source, output) == {"fidelity.text"}


def test_a_lost_user_message_is_reported_once_for_its_role() -> None:
    source = anthropic_request([ASK, {"role": "assistant", "content": "Sunny."}, ASK])
    output = openai_request([ASK, {"role": "assistant", "content": "Sunny."}])
    found = only(_check("fidelity.text", source, output))
    assert "'Weather in Paris?' is missing from character 17 on" in found.message


@pytest.mark.parametrize(
    ("expected", "actual", "same"),
    [
        (["a", "b"], ["a\nb"], True),
        (["a", "b"], ["a\n\nb"], True),
        (["a\n", "b"], ["a\nb"], True),
        (["a"], ["a\n"], True),
        (["a", "b"], ["a\n\n\nb"], False),
        (["a b"], ["a\nb"], False),
        (["ab"], ["a\nb"], False),
    ],
)
def test_same_text_allows_only_the_documented_separators(
    expected: list[str], actual: list[str], same: bool
) -> None:
    assert same_text(expected, actual) is same
    assert same_text(actual, expected) is same


def test_same_text_is_fast_on_long_texts() -> None:
    pieces = ["paragraph\n" * 2000] * 20
    assert same_text(pieces, ["\n".join(pieces)])


# --- fidelity.error_flag -------------------------------------------------------


def _anthropic_error_result(is_error: bool | None) -> Any:
    return _anthropic_result("not found", is_error)


def _openai_result(content: str) -> Any:
    # max_tokens: the limit every anthropic request of these pairs sets, carried.
    return openai_request(
        [
            ASK,
            {"role": "assistant", **_openai_calls(("call_1", "{}"))},
            {"role": "tool", "tool_call_id": "call_1", "content": content},
        ],
        max_tokens=1024,
    )


def test_is_error_carried_by_the_documented_convention() -> None:
    assert (
        conversion_codes(_anthropic_error_result(True), _openai_result("Error: not found")) == set()
    )
    assert (
        conversion_codes(_openai_result("Error: not found"), _anthropic_error_result(True)) == set()
    )


def test_is_error_lost_on_the_way_to_openai_chat() -> None:
    source, output = _anthropic_error_result(True), _openai_result("not found")
    found = only(_check("fidelity.error_flag", source, output))
    assert found.path == "messages[2]"
    assert "Error:" in found.message
    assert conversion_codes(source, output) == {"fidelity.error_flag"}


def test_an_error_result_read_from_openai_without_its_flag() -> None:
    source, output = _openai_result("Error: not found"), _anthropic_error_result(None)
    assert only(_check("fidelity.error_flag", source, output)).path == "messages[2].content[0]"
    assert conversion_codes(source, output) == {"fidelity.error_flag"}


def test_not_reading_the_marker_into_is_error_loses_nothing() -> None:
    # openai-chat has no flag: an unflagged tool_result that keeps the Error:
    # text says all the source said (the convention is accepted, not required).
    source = _openai_result("Error: not found")
    for output in (
        _anthropic_result("Error: not found", None),
        _anthropic_result("Error: not found", False),
    ):
        assert _check("fidelity.error_flag", source, output) == []
        assert conversion_codes(source, output) == set()


def test_a_flag_the_source_carried_lost_where_the_target_carries_it() -> None:
    source, output = _anthropic_error_result(True), _anthropic_error_result(None)
    found = only(_check("fidelity.error_flag", source, output))
    assert "is_error: true" in found.message
    # Keeping the text "Error: ..." does not make up for a dropped flag there.
    output = _anthropic_result("Error: not found", None)
    assert only(_check("fidelity.error_flag", source, output)).expected is True


def test_a_result_marked_failed_that_did_not_fail() -> None:
    source, output = _anthropic_error_result(False), _anthropic_error_result(True)
    assert "did not fail" in only(_check("fidelity.error_flag", source, output)).message


def _anthropic_result(content: str, is_error: bool | None) -> Any:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": "call_1", "content": content}
    if is_error is not None:
        result["is_error"] = is_error
    return anthropic_request(
        [
            ASK,
            {"role": "assistant", "content": [_use({}, "call_1")]},
            {"role": "user", "content": [result]},
        ]
    )


def test_a_failed_result_starting_with_whitespace_keeps_its_text_behind_the_marker() -> None:
    # Found by fuzzing: " not found" flagged became "Error:  not found", which
    # the comparison read as "not found", a false "text changed".
    source = _anthropic_result(" not found", True)
    assert conversion_codes(source, _openai_result("Error:  not found")) == set()
    assert conversion_codes(source, _openai_result("Error: not found")) == set()
    assert conversion_codes(source, _openai_result("Error:  not fond")) == {"fidelity.text"}
    # A successful result keeps its leading whitespace exactly.
    assert conversion_codes(_anthropic_result(" ok", None), _openai_result("ok")) == {
        "fidelity.text"
    }


def test_a_successful_result_starting_with_the_marker_cannot_stay_successful_in_openai() -> None:
    # Found by fuzzing: openai-chat reads "Error: ..." as failed whatever the
    # source said; no converter can say otherwise (docs/conventions.md).
    source = _anthropic_result("Error: none found, which is fine", None)
    assert conversion_codes(source, _openai_result("Error: none found, which is fine")) == set()
    # Between two dialects with a flag, the flag must still be kept.
    kept_flag = _anthropic_result("Error: none found, which is fine", True)
    assert "did not fail" in only(_check("fidelity.error_flag", source, kept_flag)).message
    # And a result that did not start with the marker must not gain one.
    plain = _anthropic_result("none found", None)
    assert conversion_codes(plain, _openai_result("Error: none found")) == {"fidelity.error_flag"}


def test_through_openai_a_marker_result_may_come_back_failed() -> None:
    original = _anthropic_result("Error: none found", None)
    returned = _anthropic_result("Error: none found", True)
    assert roundtrip_codes(original, returned, "openai-chat") == set()
    assert roundtrip_codes(original, returned, "anthropic-messages") == {"fidelity.error_flag"}


def test_no_results_means_no_error_flag_to_judge() -> None:
    assert _check("fidelity.error_flag", openai_request([ASK]), anthropic_request([ASK])) is None


# --- the pairing helper -----------------------------------------------------------


def test_pair_up_matches_ids_then_positions() -> None:
    assert pair_up(["a", "b"], ["b", "a"]) == [(0, 1), (1, 0)]
    assert pair_up(["a", "b"], ["x", "y"]) == [(0, 0), (1, 1)]
    assert pair_up(["a", "b"], ["B", "x"], {"b": "B"}) == [(0, 1), (1, 0)]
    assert pair_up(["a", "b", "c"], ["c"]) == [(2, 0)]


def test_a_qwen_xml_source_leaves_text_and_arguments_to_the_xml_rules() -> None:
    tools = payload(
        "openai-chat", "request", {"model": "m", "messages": [ASK], "tools": [TOOL_OPENAI]}
    ).tools
    xml = (
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "</function>\n</tool_call>"
    )
    source = payload(
        "qwen-xml",
        "response",
        {
            "id": "c",
            "object": "chat.completion",
            "created": 1,
            "model": "qwen3-coder",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": xml},
                    "finish_reason": "stop",
                }
            ],
        },
        tools=tools,
    )
    output = openai_response({"content": "garbled"})
    assert _check("fidelity.arguments", source, output) is None
    assert _check("fidelity.text", source, output) is None


# --- whitespace the target documents as insignificant --------------------------


def _ends_on_assistant(text: str, dialect: str) -> Any:
    messages = [ASK, {"role": "assistant", "content": text}]
    return openai_request(messages) if dialect == "openai" else anthropic_request(messages)


def test_trailing_whitespace_of_a_final_assistant_message_may_go_toward_anthropic() -> None:
    # Anthropic answers 400 "final assistant content cannot end with trailing whitespace".
    source, output = (
        _ends_on_assistant("The answer is ", "openai"),
        _ends_on_assistant("The answer is", "anthropic"),
    )
    assert _check("fidelity.text", source, output) == []
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.text"]
    returned = _ends_on_assistant("The answer is", "openai")
    assert check(RoundTripUnderTest(source, returned, "anthropic-messages")) == []


def test_whitespace_anthropic_does_not_require_dropping_is_still_text() -> None:
    # Toward openai-chat, or not at the very end, trailing whitespace is kept text.
    source, output = (
        _ends_on_assistant("The answer is ", "anthropic"),
        _ends_on_assistant("The answer is", "openai"),
    )
    assert only(_check("fidelity.text", source, output)).code == "fidelity.text"
    check = fidelity.ROUNDTRIP_CHECKS["fidelity.text"]
    original = _ends_on_assistant("The answer is ", "openai")
    returned = _ends_on_assistant("The answer is", "openai")
    assert only(check(RoundTripUnderTest(original, returned, "deepseek-chat"))).path
    middle = openai_request(
        [ASK, {"role": "assistant", "content": "Hi "}, {"role": "user", "content": "Go on"}]
    )
    trimmed = anthropic_request(
        [ASK, {"role": "assistant", "content": "Hi"}, {"role": "user", "content": "Go on"}]
    )
    assert only(_check("fidelity.text", middle, trimmed)).code == "fidelity.text"


def test_an_error_flag_finding_names_an_id_less_result_by_its_tool() -> None:
    # Gemini results may carry no id: the finding names the tool, never "None".
    source = openai_request(
        [
            ASK,
            {"role": "assistant", **_openai_calls(("call_1", '{"city": "Paris"}'))},
            {"role": "tool", "tool_call_id": "call_1", "content": "Error: city not found"},
        ],
        tools=[TOOL_OPENAI],
    )
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
    answer = {"name": "get_weather", "response": {"output": "city not found"}}
    output = payload(
        "gemini",
        "request",
        {
            "contents": [
                {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
                {"role": "model", "parts": [call]},
                {"role": "user", "parts": [{"functionResponse": answer}]},
            ]
        },
    )
    found = _check("fidelity.error_flag", source, output)
    assert found, "the lost error mark is a finding"
    assert "the result of get_weather" in found[0].message
    assert "None" not in found[0].message
    assert 'expected a response with an "error" key' in found[0].message
