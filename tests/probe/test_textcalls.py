"""Calls written as text (Qwen XML, JSON) and the probe tools' own checks."""

from __future__ import annotations

import json

import pytest

from toolwire.harness.probe.textcalls import find_text_calls, json_calls, text_calls_from_fragments
from toolwire.harness.probe.tools import (
    FAIL_ONCE_ERROR,
    as_integer,
    run_tool,
    schema_failures,
    tool_defs,
)

TOOLS = tool_defs()
TWO_XML_CALLS = (
    "Both at once.\n\n<tool_call>\n<function=probe_echo>\n<parameter=message>\nparallel\n"
    "</parameter>\n<parameter=tag>\nbeta\n</parameter>\n</function>\n</tool_call>\n"
    "<tool_call>\n<function=probe_add>\n<parameter=a>\n2\n</parameter>\n<parameter=b>\n3\n"
    "</parameter>\n</function>\n</tool_call>"
)


def test_xml_calls_are_read_and_typed_by_the_tool_schemas() -> None:
    found = find_text_calls(TWO_XML_CALLS, TOOLS)
    assert found.format == "xml"
    assert found.parser == "qwen_xml"
    assert [(c.name, c.arguments) for c in found.calls] == [
        ("probe_echo", {"message": "parallel", "tag": "beta"}),
        ("probe_add", {"a": 2, "b": 3}),
    ]
    assert all(not call.rejected for call in found.calls)
    assert found.text == "Both at once."


def test_a_broken_xml_call_is_reported_and_never_executable() -> None:
    text = "<tool_call>\n<function=probe_add>\n<parameter=a>\n2\n</parameter>\n</function>\n"
    [call] = find_text_calls(text + "</tool_call>", TOOLS).calls
    assert call.rejected
    assert call.arguments is None
    assert call.problems == ("missing_required: required parameter 'b' of 'probe_add' is missing",)


@pytest.mark.parametrize("size", [1, 2, 7])
def test_feeding_the_xml_in_fragments_gives_the_whole_text_result(size: int) -> None:
    fragments = [TWO_XML_CALLS[i : i + size] for i in range(0, len(TWO_XML_CALLS), size)]
    assert text_calls_from_fragments(fragments, TOOLS) == find_text_calls(TWO_XML_CALLS, TOOLS)


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "probe_add", "arguments": {"a": 2, "b": 3}}\n</tool_call>',
        'Sure:\n```json\n{"name": "probe_add", "parameters": {"a": 2, "b": 3}}\n```',
        '{"name": "probe_add", "input": {"a": 2, "b": 3}}',
        '{"tool_calls": [{"name": "probe_add", "arguments": {"a": 2, "b": 3}}]}',
    ],
)
def test_json_calls_in_text_are_found_in_their_usual_wrappings(text: str) -> None:
    found = find_text_calls(text, TOOLS)
    assert found.format == "json-text"
    assert found.parser == "json_text"
    assert [(c.name, c.arguments, c.rejected) for c in found.calls] == [
        ("probe_add", {"a": 2, "b": 3}, False)
    ]


def test_several_json_calls_keep_their_order_and_nested_objects_are_not_calls() -> None:
    calls = [
        {
            "name": "probe_echo",
            "arguments": {"message": "m", "tag": "alpha", "meta": {"name": "x"}},
        },
        {"name": "probe_add", "arguments": {"a": 1, "b": 2}},
    ]
    found = json_calls(json.dumps(calls))
    assert [c.name for c in found] == ["probe_echo", "probe_add"]


def test_double_encoded_json_arguments_are_read_but_flagged() -> None:
    text = json.dumps({"name": "probe_add", "arguments": json.dumps({"a": 2, "b": 3})})
    [call] = json_calls(text)
    assert call.arguments == {"a": 2, "b": 3}
    assert call.problems == ("arguments is JSON encoded in a string",)
    assert not call.rejected
    [broken] = json_calls(json.dumps({"name": "probe_add", "arguments": "a=2, b=3"}))
    assert broken.rejected and broken.arguments is None


@pytest.mark.parametrize(
    "text", ["The answer is {roughly} 5.", '{"name": "x"}', "", "<tool_call>oops</tool_call>"]
)
def test_prose_holds_no_call(text: str) -> None:
    found = find_text_calls(text, TOOLS)
    assert (found.format, found.parser, found.calls) == (None, None, ())


def test_arguments_are_judged_by_the_tool_json_schema() -> None:
    assert schema_failures("probe_add", {"a": 1, "b": 2}) == []
    assert schema_failures("probe_add", {"a": "1"}) == [
        "probe_add $: 'b' is a required property",
        "probe_add a: '1' is not of type 'integer'",
    ]
    assert schema_failures("probe_echo", {"message": "m", "tag": "alpha", "meta": {}}) == [
        "probe_echo meta: 'source' is a required property",
        "probe_echo meta: 'priority' is a required property",
    ]
    assert schema_failures("rm_rf", {}) == ["'rm_rf' is not one of the probe tools"]


def test_the_tools_answer_without_side_effects() -> None:
    assert json.loads(run_tool("probe_add", {"a": 40, "b": "2"}).content) == {"sum": 42}
    echoed = run_tool("probe_echo", {"message": "é", "tag": "beta"})
    assert (json.loads(echoed.content), echoed.is_error) == ({"message": "é", "tag": "beta"}, False)
    failed = run_tool("probe_fail_once", {"path": "/abs"})
    assert (json.loads(failed.content), failed.is_error) == (dict(FAIL_ONCE_ERROR), True)
    unknown = run_tool("probe_add", {"a": "two", "b": 3})
    assert unknown.is_error and json.loads(unknown.content)["error_code"] == "INVALID_CALL"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, 3), ("3", 3), (" -4 ", -4), (2.0, 2), (2.5, None), (True, None), ("3a", None)],
)
def test_integers_are_read_leniently_for_the_sum(value: object, expected: int | None) -> None:
    assert as_integer(value) == expected
