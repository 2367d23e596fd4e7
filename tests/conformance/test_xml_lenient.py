"""xml_lenient: the readings of the real Qwen3-Coder parsers that toolwire
accepts, and where they stop (arguments that really are partial)."""

from __future__ import annotations

import pytest

from toolwire.conformance.readings.xml_lenient import recovered_call, value_alternatives
from toolwire.harness.dialects.qwen_xml import RejectedCall, parse_qwen_xml
from toolwire.harness.model import ToolDef

TOOL = ToolDef(
    "save",
    parameters={
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "size": {"type": "integer"},
            "force": {"type": "boolean"},
        },
        "required": ["path", "size"],
    },
)


@pytest.mark.parametrize(
    ("raw", "schema", "accepted", "refused"),
    [
        ("03106", {"type": "integer"}, [3106], ["03106"]),
        ("TRUE", {"type": "boolean"}, [True], ["TRUE"]),
        ("NULL", {"type": ["string", "null"]}, [None, "NULL"], []),
        ("3.14", {"type": "float"}, [3.14, "3.14"], []),
        ("7", {"type": "int"}, [7, "7"], []),
        ("  padded \n", {"type": "string"}, ["  padded \n", "padded"], ["padded \n"]),
        ("9" * 30, {"type": "integer"}, [int("9" * 30), 1e30], ["9" * 30]),
        # Qwen's parser (vLLM and sglang with it) falls back to the text of a
        # value its typing cannot read, and reads an untyped enum as text.
        ("abc", {"type": "integer"}, ["abc"], [0]),
        ("230.0", {"type": "integer"}, ["230.0", 230], []),
        ("2", {"enum": [0, 1, 2]}, ["2"], []),
    ],
)
def test_value_readings(
    raw: str, schema: object, accepted: list[object], refused: list[object]
) -> None:
    found = value_alternatives(raw, schema)
    for value in accepted:
        assert any(type(v) is type(value) and v == value for v in found), value
    for value in refused:
        assert not any(type(v) is type(value) and v == value for v in found), value


def rejected(text: str) -> RejectedCall:
    parse = parse_qwen_xml(text, [TOOL])
    assert len(parse.rejected) == 1
    return parse.rejected[0]


def test_a_dropped_closer_before_the_next_tag_recovers_the_whole_value() -> None:
    text = (
        "<tool_call>\n<function=save>\n<parameter=path>\na.txt\n<parameter=size>\n12\n</tool_call>"
    )
    call = recovered_call(rejected(text), [TOOL])
    assert call is not None and call.arguments == {"path": "a.txt", "size": 12}


def test_a_value_the_typing_cannot_read_recovers_as_its_text() -> None:
    text = (
        "<tool_call>\n<function=save>\n<parameter=path>\na\n</parameter>\n<parameter=size>\n"
        "big\n</parameter>\n</function>\n</tool_call>"
    )
    call = recovered_call(rejected(text), [TOOL])
    assert call is not None and call.arguments == {"path": "a", "size": "big"}


def test_a_missing_required_parameter_and_a_lenient_value_recover() -> None:
    text = (
        "<tool_call>\n<function=save>\n<parameter=size>\n012\n</parameter>\n"
        "</function>\n</tool_call>"
    )
    call = recovered_call(rejected(text), [TOOL])
    assert call is not None and call.arguments == {"size": 12}


@pytest.mark.parametrize(
    "text",
    [
        # The input ends inside the value: the arguments really are partial.
        "<tool_call>\n<function=save>\n<parameter=path>\na.txt\n</parameter>\n<parameter=size>\n1",
        # Broken markup.
        "<tool_call>\n<function=save>\nstray text\n</function>\n</tool_call>",
    ],
)
def test_partial_or_broken_calls_do_not_recover(text: str) -> None:
    assert recovered_call(rejected(text), [TOOL]) is None
