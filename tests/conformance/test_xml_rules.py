"""xml.*: a qwen-xml source (the corpus cases) converted to openai-chat
outputs written here, right and wrong. Each wrong output triggers exactly
the code of the rule it breaks."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from tests.conformance.test_reasoning import corpus_case, interaction_payload
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.xml_lenient import recovered_call
from toolwire.conformance.readings.xml_values import same_json
from toolwire.conformance.xml import CONVERSION_CHECKS
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml import parse_qwen_xml
from toolwire.harness.model import ToolDef

TEXT_THEN_CALL = "qwen-xml/text-then-call"
TWO_CALLS = "qwen-xml/two-typed-calls"
TRUNCATED = "qwen-xml/truncated-second-call"
MISSING_OPENER = "qwen-xml/missing-opener"
STREAMED = "qwen-xml/stream-text-then-call"


def source(case_id: str) -> PayloadUnderTest:
    kind = "stream" if case_id == STREAMED else "response"
    return interaction_payload(case_id, 0, kind)


def source_text(case_id: str) -> str:
    put = source(case_id)
    if put.kind == "stream":
        return "".join(
            chunk["choices"][0]["delta"].get("content") or ""
            for chunk in (json.loads(e.data) for e in put.raw if e.data != "[DONE]")
            if chunk.get("choices")
        )
    content = put.raw["choices"][0]["message"]["content"]
    assert isinstance(content, str)
    return content


def expected_calls(case_id: str) -> list[dict[str, Any]]:
    expect = corpus_case(case_id).expect
    assert expect.tool_calls is not None
    return [{"name": c.name, "arguments": dict(c.arguments)} for c in expect.tool_calls]


def expected_text(case_id: str) -> str:
    text = corpus_case(case_id).expect.text
    assert text is not None
    return text


def openai_output(content: str | None, calls: list[dict[str, Any]]) -> PayloadUnderTest:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": call["raw"]
                    if "raw" in call
                    else json.dumps(call["arguments"], ensure_ascii=False),
                },
            }
            for n, call in enumerate(calls)
        ]
    body = {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "model": "qwen3-coder",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
    }
    parsed = get_codec("openai-chat").parse_response(body)
    return PayloadUnderTest("openai-chat", "response", "openai", body, parsed)


def run(case_id: str, output: PayloadUnderTest) -> dict[str, list[Finding] | None]:
    conversion = ConversionUnderTest(source=source(case_id), output=output)
    return {code: check(conversion) for code, check in CONVERSION_CHECKS.items()}


def violated(results: Mapping[str, list[Finding] | None]) -> list[str]:
    return sorted({f.code for found in results.values() for f in found or []})


def correct_output(case_id: str) -> PayloadUnderTest:
    text = expected_text(case_id)
    return openai_output(text or None, expected_calls(case_id))


# --- correct conversions hold ------------------------------------------------------


@pytest.mark.parametrize(
    "case_id", [TEXT_THEN_CALL, TWO_CALLS, TRUNCATED, MISSING_OPENER, STREAMED]
)
def test_the_expected_calls_and_text_are_a_correct_conversion(case_id: str) -> None:
    results = run(case_id, correct_output(case_id))
    assert violated(results) == []


def test_which_rules_apply_to_which_source() -> None:
    one_call = run(TEXT_THEN_CALL, correct_output(TEXT_THEN_CALL))
    assert one_call["xml.call_order"] is None  # a single call has no order
    assert one_call["xml.malformed_executed"] is None  # nothing malformed
    assert one_call["xml.stream_equivalence"] is None  # not streamed
    assert one_call["xml.parameter_type"] == []
    streamed = run(STREAMED, correct_output(STREAMED))
    assert streamed["xml.stream_equivalence"] == []
    assert streamed["xml.call_not_parsed"] is None  # judged as a whole for a stream
    assert run(TWO_CALLS, correct_output(TWO_CALLS))["xml.call_order"] == []


def test_a_non_qwen_source_is_out_of_scope() -> None:
    output = correct_output(TEXT_THEN_CALL)
    conversion = ConversionUnderTest(source=output, output=output)
    assert all(check(conversion) is None for check in CONVERSION_CHECKS.values())


# --- each broken output triggers exactly its code -----------------------------------


def test_a_dropped_call_is_call_not_parsed() -> None:
    results = run(TEXT_THEN_CALL, openai_output(expected_text(TEXT_THEN_CALL), []))
    assert violated(results) == ["xml.call_not_parsed"]
    found = results["xml.call_not_parsed"]
    assert found is not None and "it is lost" in found[0].message


def test_markup_left_in_content_is_not_parsed_and_not_removed() -> None:
    # The real failure of WIRE.md 3: Qwen XML left in content, finish_reason stop.
    results = run(TEXT_THEN_CALL, openai_output(source_text(TEXT_THEN_CALL), []))
    # One defect, one code: the markup of the unparsed call is call_not_parsed's.
    assert violated(results) == ["xml.call_not_parsed"]
    found = results["xml.call_not_parsed"]
    assert found is not None and "still in the text" in found[0].message


@pytest.mark.parametrize(
    ("days", "actual"), [('"3"', "the string '3'"), ("3.5", "parameter 'days' is 3.5")]
)
def test_an_untyped_or_changed_value_is_parameter_type(days: str, actual: str) -> None:
    raw = '{"city": "Beijing", "days": ' + days + "}"
    output = openai_output(expected_text(TEXT_THEN_CALL), [{"name": "get_weather", "raw": raw}])
    results = run(TEXT_THEN_CALL, output)
    assert violated(results) == ["xml.parameter_type"]
    found = results["xml.parameter_type"]
    assert found is not None and actual in found[0].message
    assert found[0].path == "choices[0].message.tool_calls[0]"


def test_a_boolean_left_as_a_string_is_parameter_type() -> None:
    calls = expected_calls(TWO_CALLS)
    calls[0]["arguments"]["overwrite"] = "true"
    results = run(TWO_CALLS, openai_output(None, calls))
    assert violated(results) == ["xml.parameter_type"]
    found = results["xml.parameter_type"]
    assert found is not None and "'overwrite' is the string" in found[0].message


def test_the_markup_newlines_are_not_part_of_the_value() -> None:
    calls = expected_calls(TEXT_THEN_CALL)
    calls[0]["arguments"]["city"] = "\nBeijing\n"
    assert violated(run(TEXT_THEN_CALL, openai_output(expected_text(TEXT_THEN_CALL), calls))) == [
        "xml.parameter_type"
    ]


def test_dropped_text_is_text_preserved() -> None:
    results = run(TEXT_THEN_CALL, openai_output(None, expected_calls(TEXT_THEN_CALL)))
    assert violated(results) == ["xml.text_preserved"]


def test_markup_left_beside_parsed_calls_is_text_preserved() -> None:
    output = openai_output(source_text(TEXT_THEN_CALL), expected_calls(TEXT_THEN_CALL))
    results = run(TEXT_THEN_CALL, output)
    assert violated(results) == ["xml.text_preserved"]
    found = results["xml.text_preserved"]
    assert found is not None and any("<tool_call>" in f.message for f in found)


def test_rejoined_whitespace_around_the_calls_is_not_a_loss() -> None:
    text = "  " + expected_text(TEXT_THEN_CALL) + "\n\n"
    assert violated(run(TEXT_THEN_CALL, openai_output(text, expected_calls(TEXT_THEN_CALL)))) == []


def test_reversed_calls_are_call_order() -> None:
    results = run(TWO_CALLS, openai_output(None, list(reversed(expected_calls(TWO_CALLS)))))
    assert violated(results) == ["xml.call_order"]
    found = results["xml.call_order"]
    assert found is not None and found[0].expected == ["write_file", "run_tests"]


def truncated_partial_call() -> dict[str, Any]:
    parse = parse_qwen_xml(source_text(TRUNCATED))
    assert len(parse.rejected) == 1 and parse.rejected[0].name == "write_file"
    return {"name": "write_file", "arguments": {"path": "src/app/version.py"}}


def test_running_a_truncated_call_is_malformed_executed() -> None:
    calls = [*expected_calls(TRUNCATED), truncated_partial_call()]
    results = run(TRUNCATED, openai_output(expected_text(TRUNCATED), calls))
    assert violated(results) == ["xml.malformed_executed"]
    found = results["xml.malformed_executed"]
    assert found is not None and "unclosed_tag" in found[0].message
    assert found[0].path == "choices[0].message.tool_calls[1]"


def test_showing_a_rejected_call_as_text_is_accepted() -> None:
    rejected = parse_qwen_xml(source_text(TRUNCATED)).rejected[0].raw
    text = expected_text(TRUNCATED) + "\n" + rejected
    output = openai_output(text, expected_calls(TRUNCATED))
    assert violated(run(TRUNCATED, output)) == []


# The block of qwen-xml/missing-opener lacks only its <tool_call>; its body is complete.
RECOVERED = {"name": "glob", "arguments": {"pattern": "docs/**/*.md"}}


def test_a_complete_recovery_of_a_missing_opener_is_accepted() -> None:
    results = run(MISSING_OPENER, openai_output(expected_text(MISSING_OPENER), [RECOVERED]))
    assert violated(results) == []
    assert results["xml.malformed_executed"] == []
    # ...and so is not running it at all.
    results = run(MISSING_OPENER, openai_output(expected_text(MISSING_OPENER), []))
    assert violated(results) == []


def test_a_missing_opener_recovered_with_other_arguments_is_malformed_executed() -> None:
    calls = [{"name": "glob", "arguments": {"pattern": "docs/"}}]
    results = run(MISSING_OPENER, openai_output(expected_text(MISSING_OPENER), calls))
    assert violated(results) == ["xml.malformed_executed"]


def test_only_a_missing_opener_is_recoverable() -> None:
    tools = source(TRUNCATED).tools
    rejected = parse_qwen_xml(source_text(TRUNCATED), tools).rejected[0]
    assert recovered_call(rejected, tools) is None
    tools = source(MISSING_OPENER).tools
    rejected = parse_qwen_xml(source_text(MISSING_OPENER), tools).rejected[0]
    recovered = recovered_call(rejected, tools)
    assert recovered is not None
    assert same_json(recovered.arguments, RECOVERED["arguments"])


def test_a_streamed_source_parsed_differently_is_stream_equivalence() -> None:
    # A streaming parser that lost the call when a tag was split.
    results = run(STREAMED, openai_output(expected_text(STREAMED), []))
    assert violated(results) == ["xml.stream_equivalence"]
    found = results["xml.stream_equivalence"]
    assert found is not None and "tool calls" in found[0].message
    # ...or that leaked a tag fragment into the text.
    leaked = openai_output(expected_text(STREAMED) + "\n<tool_", expected_calls(STREAMED))
    results = run(STREAMED, leaked)
    assert violated(results) == ["xml.stream_equivalence"]
    found = results["xml.stream_equivalence"]
    assert found is not None and "text" in found[0].message


def test_without_tool_schemas_the_case_expectation_types_the_values() -> None:
    untyped = PayloadUnderTest(
        "qwen-xml",
        "response",
        "qwen3-coder",
        source(TEXT_THEN_CALL).raw,
        get_codec("qwen-xml").parse_response(source(TEXT_THEN_CALL).raw),
    )
    expect = {"tool_calls": expected_calls(TEXT_THEN_CALL)}
    wrong = openai_output(
        expected_text(TEXT_THEN_CALL),
        [{"name": "get_weather", "raw": '{"city": "Beijing", "days": "3"}'}],
    )
    check = CONVERSION_CHECKS["xml.parameter_type"]
    found = check(ConversionUnderTest(source=untyped, output=wrong, expect=expect))
    assert [f.code for f in found or []] == ["xml.parameter_type"]
    right = correct_output(TEXT_THEN_CALL)
    assert check(ConversionUnderTest(source=untyped, output=right, expect=expect)) == []
    # No schemas and no expectation: the types cannot be judged.
    assert check(ConversionUnderTest(source=untyped, output=wrong)) is None


def test_request_histories_are_judged_turn_by_turn() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                },
            },
        }
    ]
    text = source_text(TEXT_THEN_CALL)
    history = [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": text}]
    body = {"model": "qwen3-coder", "messages": history, "tools": tools}
    put = PayloadUnderTest(
        "qwen-xml", "request", "qwen3-coder", body, get_codec("qwen-xml").parse_request(body)
    )
    arguments = json.dumps({"city": "Beijing", "days": 3})
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": arguments},
    }
    good = {
        **body,
        "messages": [
            history[0],
            {"role": "assistant", "content": expected_text(TEXT_THEN_CALL), "tool_calls": [call]},
        ],
    }
    bad = {
        **body,
        "messages": [history[0], {"role": "assistant", "content": expected_text(TEXT_THEN_CALL)}],
    }

    def outcome(output: dict[str, Any]) -> list[str]:
        parsed = get_codec("openai-chat").parse_request(output)
        conversion = ConversionUnderTest(
            source=put, output=PayloadUnderTest("openai-chat", "request", "openai", output, parsed)
        )
        return violated({c: k(conversion) for c, k in CONVERSION_CHECKS.items()})

    assert outcome(good) == []
    assert outcome(bad) == ["xml.call_not_parsed"]


def test_unknown_tool_schemas_leave_values_as_strings_in_the_oracle() -> None:
    parse = parse_qwen_xml(source_text(TEXT_THEN_CALL), None)
    assert parse.calls[0].arguments == {"city": "Beijing", "days": "3"}
    tool = ToolDef(
        "get_weather",
        parameters={
            "type": "object",
            "properties": {"days": {"type": "integer"}, "city": {"type": "string"}},
        },
    )
    assert parse_qwen_xml(source_text(TEXT_THEN_CALL), [tool]).calls[0].arguments["days"] == 3
