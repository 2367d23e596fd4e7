"""Qwen3-Coder XML tool calls: well-formed texts, every value type, and every
malformed shape with its issue code (shapes from public issue reports)."""

from __future__ import annotations

import pytest

from tests.dialects.test_qwen_samples import (
    DROPPED_PARAMETER_CLOSE,
    DUPLICATE,
    JSON_BODY,
    MISSING_OPENER,
    MULTILINE,
    NAME_NOT_CLOSED,
    PARALLEL,
    SIMPLE,
    TOOLS,
    TRUNCATED,
    WEATHER,
    WEATHER_CALL,
    call_xml,
)
from toolwire.harness.dialects.qwen_xml import (
    ISSUE_CODES,
    CallSegment,
    QwenParse,
    QwenXmlParser,
    RejectedCall,
    TextSegment,
    parse_qwen_xml,
)
from toolwire.harness.model import ToolCall, ToolDef


def parse(text: str, tools: tuple[ToolDef, ...] | None = TOOLS) -> QwenParse:
    result = parse_qwen_xml(text, tools)
    assert result.source == text  # every character accounted for
    return result


def codes(result: QwenParse) -> list[str]:
    return [issue.code for issue in result.issues]


def only_rejected(result: QwenParse) -> RejectedCall:
    assert result.calls == ()
    assert len(result.rejected) == 1
    return result.rejected[0]


# -- well-formed texts ----------------------------------------------------------


def test_canonical_call_with_text_before() -> None:
    result = parse(SIMPLE)
    assert result.issues == ()
    assert result.text == "Let me check.\n"
    assert result.calls == (
        ToolCall(
            id=None,
            name="get_weather",
            arguments={"city": "Beijing", "days": 3},
            raw_arguments=WEATHER_CALL,
        ),
    )
    text, call = result.segments
    assert text == TextSegment("Let me check.\n", 0)
    assert isinstance(call, CallSegment)
    assert (call.offset, call.index) == (len("Let me check.\n"), 0)
    assert call.call.extra == {}
    assert call.call.arguments_error is None


def test_call_without_text() -> None:
    result = parse(WEATHER_CALL)
    assert [type(s) for s in result.segments] == [CallSegment]
    assert result.text == ""


def test_parallel_calls_keep_their_order() -> None:
    result = parse(PARALLEL)
    assert result.issues == ()
    assert [c.arguments for c in result.calls] == [
        {"city": "Beijing"},
        {"city": "Paris", "units": "celsius"},
    ]
    assert [s.index for s in result.segments if isinstance(s, CallSegment)] == [0, 1]
    # The newline between the blocks is kept as text, so the input rebuilds.
    assert result.text == "I'll check both cities.\n\n\n"


def test_multiline_value_keeps_inner_newlines_exactly() -> None:
    (call,) = parse(MULTILINE).calls
    assert call.arguments["content"] == "def f(x):\n    return x < 3 and x > 1\n\n\n# <b>done</b>\n"
    assert call.arguments["path"] == "src/app.py"


@pytest.mark.parametrize(
    "value",
    [
        "",
        "\n",
        "\n\nstarts with blank lines",
        "ends with a newline\n",
        "  spaces kept  ",
        "tabs\tand\r\nwindows lines",
        "x < y && <parameter",
        "</param and </tool_call without the bracket",
        "<tool_cal> <function> <functions=x> </functio>",
        "unicode: 北京 ✓ \u00a0",
    ],
)
def test_string_values_round_trip_through_the_markup(value: str) -> None:
    (call,) = parse(call_xml("write_file", ("path", "p"), ("content", value))).calls
    assert call.arguments["content"] == value


def test_only_one_markup_newline_is_removed_on_each_side() -> None:
    text = "<tool_call>\n<function=write_file>\n<parameter=path>\n\np\n\n</parameter>\n"
    text += "<parameter=content>c</parameter>\n</function>\n</tool_call>"
    (call,) = parse(text).calls
    assert call.arguments == {"path": "\np\n", "content": "c"}


def test_values_written_without_newlines() -> None:
    # The single-line shape of vllm-project/vllm#38885's example.
    text = "<tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n"
    text += "<parameter=days>42</parameter>\n</function>\n</tool_call>"
    assert parse(text).calls[0].arguments == {"city": "Oslo", "days": 42}


def test_every_json_schema_type_converts_by_the_tool_schema() -> None:
    text = call_xml(
        "all_types",
        ("s", "007"),
        ("i", "140.0"),  # float-formatted integer: ml-explore/mlx-lm#1417
        ("n", "2.5"),
        ("b", "True"),  # Python-style boolean from a chat template
        ("z", "None"),
        ("o", "{'k': [1, 2], 'ok': False}"),
        ("a", '["a", "b"]'),
        ("e", "2"),
        ("u", "null"),
        ("t", "text"),
        ("r", "safe"),
    )
    result = parse(text)
    assert result.issues == ()
    arguments = result.calls[0].arguments
    assert arguments == {
        "s": "007",
        "i": 140,
        "n": 2.5,
        "b": True,
        "z": None,
        "o": {"k": [1, 2], "ok": False},
        "a": ["a", "b"],
        "e": 2,
        "u": None,
        "t": "text",
        "r": "safe",
    }
    assert type(arguments["i"]) is int
    assert type(arguments["b"]) is bool


def test_without_tools_every_value_stays_a_string_and_names_are_not_checked() -> None:
    result = parse(call_xml("anything", ("days", "3"), ("flag", "true")), tools=None)
    assert result.issues == ()
    assert result.calls[0].arguments == {"days": "3", "flag": "true"}


def test_tool_without_parameter_schema_keeps_strings() -> None:
    result = parse(call_xml("no_schema", ("n", "3")))
    assert result.issues == ()
    assert result.calls[0].arguments == {"n": "3"}


def test_additional_properties_schema_admits_and_types_extra_parameters() -> None:
    tool = ToolDef(
        name="tag",
        parameters={
            "type": "object",
            "properties": {},
            "additionalProperties": {"type": "integer"},
        },
    )
    result = parse(call_xml("tag", ("weight", "5")), tools=(tool,))
    assert result.issues == ()
    assert result.calls[0].arguments == {"weight": 5}


def test_plain_text_with_angle_brackets_is_just_text() -> None:
    text = "Compare a<b, use <br> and </tool_call> or <parameter=x> in prose."
    result = parse(text)
    assert result.segments == (TextSegment(text, 0),)
    assert result.issues == ()


def test_empty_text() -> None:
    assert parse("") == QwenParse(segments=(), issues=())


# -- text after the calls -------------------------------------------------------


def test_text_after_calls_is_kept_and_reported_but_calls_stay_valid() -> None:
    text = WEATHER_CALL + "\nDone, it is sunny."
    result = parse(text)
    assert codes(result) == ["text_after_calls"]
    assert len(result.calls) == 1
    issue = result.issues[0]
    assert issue.offset == text.index("Done")
    assert issue.call_index is None
    assert result.segments[-1] == TextSegment("\nDone, it is sunny.", len(WEATHER_CALL))


def test_whitespace_after_and_between_calls_is_not_reported() -> None:
    assert parse(WEATHER_CALL + "\n\n").issues == ()
    assert parse(PARALLEL + "\n").issues == ()


# -- missing_opener ---------------------------------------------------------------


def test_missing_opener_is_rejected_with_its_closer() -> None:
    # ollama/ollama#16686, #18530: prose, then <function=...> without <tool_call>.
    result = parse(MISSING_OPENER, tools=None)
    rejected = only_rejected(result)
    assert codes(result) == ["missing_opener"]
    assert rejected.raw == MISSING_OPENER[MISSING_OPENER.index("<function=") :]
    assert rejected.name == "Glob"
    assert result.text == "I'll use the Glob tool to list the markdown files.\n\n"
    assert result.issues[0].offset == MISSING_OPENER.index("<function=")


def test_missing_opener_without_closer_ends_at_function_close() -> None:
    text = "Reading.\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n"
    result = parse(text)
    rejected = only_rejected(result)
    assert rejected.raw.endswith("</function>")
    assert result.segments[-1] == TextSegment("\n", len(text) - 1)
    assert codes(result) == ["missing_opener"]


def test_missing_opener_also_reports_unknown_tool() -> None:
    result = parse(MISSING_OPENER)  # TOOLS has no Glob
    assert codes(result) == ["missing_opener", "unknown_tool"]


# -- unclosed_tag ---------------------------------------------------------------


def test_truncated_inside_a_value() -> None:
    # vllm-project/vllm#47903: a call cut by max_tokens.
    result = parse(TRUNCATED)
    rejected = only_rejected(result)
    assert rejected.raw == TRUNCATED[len("Writing it now.\n") :]
    (issue,) = result.issues
    assert issue.code == "unclosed_tag"
    assert issue.parameter == "content"
    assert issue.offset == len(TRUNCATED)
    assert "<parameter=content>" in issue.message and "end of the input" in issue.message


@pytest.mark.parametrize(
    "text",
    [
        "<tool_call>",
        "<tool_call>\n",
        "<tool_call>\n<function=get_wea",
        "<tool_call>\n<function=get_weather>\n",
        "<tool_call>\n<function=get_weather>\n<parameter=ci",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</param",
    ],
)
def test_input_ending_inside_any_element_is_unclosed(text: str) -> None:
    result = parse(text)
    only_rejected(result)
    assert codes(result)[-1] == "unclosed_tag"
    assert result.issues[-1].offset == len(text)


def test_dropped_parameter_close_before_function_close() -> None:
    # ollama/ollama#18563: "element <parameter> closed by </function>".
    result = parse(DROPPED_PARAMETER_CLOSE)
    first, second = result.segments[0], result.segments[-1]
    assert isinstance(first, RejectedCall)
    assert [i.code for i in first.issues] == ["unclosed_tag"]
    assert first.issues[0].parameter == "content"
    assert first.raw.endswith("</function>\n</tool_call>")
    # The call after it is still read, whole and valid.
    assert isinstance(second, CallSegment)
    assert second.call.arguments == {"city": "Beijing", "days": 3}


def test_dropped_parameter_close_before_next_parameter() -> None:
    text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n"
    text += "<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>"
    result = parse(text)
    rejected = only_rejected(result)
    assert codes(result) == ["unclosed_tag"]
    assert rejected.issues[0].parameter == "city"
    assert rejected.raw == text


@pytest.mark.parametrize("closer", ["</parameter/>", "</parameter1>", "</parameter_function>"])
def test_broken_parameter_closers_leave_the_parameter_unclosed(closer: str) -> None:
    # sgl-project/sglang#27337 lists these closers emitted by Qwen3.6.
    text = f"<tool_call>\n<function=get_weather>\n<parameter=city>\n上海\n{closer}\n"
    text += "</function>\n</tool_call>"
    result = parse(text)
    only_rejected(result)
    assert codes(result) == ["unclosed_tag"]
    assert result.issues[0].parameter == "city"


def test_missing_function_close() -> None:
    text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</tool_call>"
    result = parse(text)
    only_rejected(result)
    assert codes(result) == ["unclosed_tag"]
    assert "<function=get_weather>" in result.issues[0].message


def test_missing_tool_call_close_before_text() -> None:
    text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>"
    text += "\nDone."
    result = parse(text)
    rejected = only_rejected(result)
    assert codes(result) == ["unclosed_tag", "text_after_calls"]
    assert rejected.raw.endswith("</function>")
    assert result.text == "\nDone."


def test_new_tool_call_inside_a_value_starts_a_new_block() -> None:
    text = "<tool_call>\n<function=write_file>\n<parameter=path>\na\n" + WEATHER_CALL
    result = parse(text)
    assert isinstance(result.segments[0], RejectedCall)
    assert codes(result) == ["unclosed_tag"]
    assert result.calls[0].arguments == {"city": "Beijing", "days": 3}


def test_prose_naming_the_opener_never_yields_a_call() -> None:
    # noonghunna/club-3090#1191: prose that explains the literal <tool_call> token.
    text = "The literal token <tool_call> starts a call, and </tool_call> ends it."
    result = parse(text)
    assert result.calls == ()
    assert codes(result) == ["malformed_markup", "text_after_calls"]
    assert result.rejected[0].raw == "<tool_call> starts a call, and </tool_call>"
    assert result.text == "The literal token  ends it."


# -- unknown_tool, unknown_parameter, duplicate_parameter, missing_required ------------------


def test_unknown_tool() -> None:
    result = parse(call_xml("read_file", ("path", "a.txt")))
    rejected = only_rejected(result)
    assert codes(result) == ["unknown_tool"]
    assert rejected.name == "read_file"


def test_empty_tool_list_makes_every_tool_unknown() -> None:
    assert codes(parse(WEATHER_CALL, tools=())) == ["unknown_tool"]


def test_unknown_parameter() -> None:
    closed = ToolDef(
        "get_weather",
        parameters={
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "additionalProperties": False,
        },
    )
    result = parse(call_xml("get_weather", ("city", "Oslo"), ("country", "NO")), (closed,))
    only_rejected(result)
    assert codes(result) == ["unknown_parameter"]
    assert result.issues[0].parameter == "country"


def test_a_parameter_outside_properties_is_a_string_unless_the_schema_closes_them() -> None:
    # JSON Schema admits other names unless additionalProperties is false;
    # Qwen's parser, vLLM and sglang keep such a value as a string.
    result = parse(call_xml("get_weather", ("city", "Oslo"), ("country", "NO")))
    assert codes(result) == []
    assert result.calls[0].arguments == {"city": "Oslo", "country": "NO"}


def test_duplicate_parameter() -> None:
    # sgl-project/sglang#39836, ggml-org/llama.cpp#19753.
    result = parse(DUPLICATE)
    only_rejected(result)
    assert codes(result) == ["duplicate_parameter"]
    assert result.issues[0].parameter == "city"


def test_missing_required() -> None:
    result = parse(call_xml("write_file", ("path", "a.txt")))
    only_rejected(result)
    assert codes(result) == ["missing_required"]
    assert result.issues[0].parameter == "content"


# -- invalid_value ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("parameter", "value"),
    [
        ("days", "three"),
        ("days", "2026-01-15"),  # ml-explore/mlx-lm#1330
        ("days", "3.5"),
        ("detailed", "yes"),
        ("units", "kelvin"),
    ],
)
def test_invalid_value(parameter: str, value: str) -> None:
    text = call_xml("get_weather", ("city", "Oslo"), (parameter, value))
    result = parse(text)
    only_rejected(result)
    assert codes(result) == ["invalid_value"]
    issue = result.issues[0]
    assert issue.parameter == parameter
    assert issue.offset == text.index(f"<parameter={parameter}>") + len(f"<parameter={parameter}>")


def test_a_call_with_one_bad_value_exposes_no_partial_arguments() -> None:
    result = parse(PARALLEL.replace("Paris", "Paris\n</parameter>\n<parameter=days>\nsoon"))
    assert len(result.calls) == 1  # only the first, fully valid call
    assert result.calls[0].arguments == {"city": "Beijing"}
    assert codes(result) == ["invalid_value"]


# -- malformed_markup ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("<tool_call>\n<function>\n</function>\n</tool_call>", "<function> has no =NAME"),
        ("<tool_call>\n<function=>\n</function>\n</tool_call>", "empty name"),
        ("<tool_call>\n</tool_call>", "empty <tool_call>"),
        (JSON_BODY, "found '{'"),
        (NAME_NOT_CLOSED, "not closed by '>'"),
        # OpenHands/OpenHands#10039: the value written into the name.
        (
            "<tool_call>\n<function=get_weather>\n<parameter=city=Oslo</parameter>\n"
            "</function>\n</tool_call>",
            "not closed by '>'",
        ),
        (
            "<tool_call>\n<function=get_weather>\nI will ask for Oslo.\n</function>\n</tool_call>",
            "outside any <parameter=NAME>",
        ),
        (
            "<tool_call>\n<function=get_weather>\n<parameter>\nOslo\n</parameter>\n"
            "</function>\n</tool_call>",
            "<parameter> has no =NAME",
        ),
        (
            "<tool_call>\n<function=get_weather>\n<param=city>\nOslo\n</param>\n"
            "</function>\n</tool_call>",
            "unexpected tag",
        ),
    ],
)
def test_malformed_markup(text: str, fragment: str) -> None:
    result = parse(text)
    rejected = only_rejected(result)
    assert codes(result)[0] == "malformed_markup"
    assert fragment in result.issues[0].message
    assert rejected.raw == text


def test_stray_parameter_close() -> None:
    # A duplicated </parameter> (reported with Qwen3-Coder-Next in ggml-org/llama.cpp#20260).
    text = call_xml("get_weather", ("city", "Oslo")).replace(
        "</parameter>", "</parameter>\n</parameter>"
    )
    result = parse(text)
    only_rejected(result)
    assert codes(result) == ["malformed_markup"]
    assert "stray </parameter>" in result.issues[0].message


def test_second_function_in_one_block_becomes_its_own_bare_call() -> None:
    text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"
    text += (
        "<function=get_weather>\n<parameter=city>\nRome\n</parameter>\n</function>\n</tool_call>"
    )
    result = parse(text)
    assert result.calls == ()
    assert [r.name for r in result.rejected] == ["get_weather", "get_weather"]
    assert codes(result) == ["unclosed_tag", "missing_opener"]


def test_skipping_resumes_after_the_broken_block() -> None:
    result = parse(JSON_BODY + "\n" + WEATHER_CALL)
    assert codes(result) == ["malformed_markup"]
    assert len(result.calls) == 1
    assert result.segments[0] == result.rejected[0]
    assert result.rejected[0].raw == JSON_BODY


# -- bookkeeping ---------------------------------------------------------------------


def test_call_indices_count_valid_and_rejected_blocks() -> None:
    text = WEATHER_CALL + "\n" + JSON_BODY + "\n" + WEATHER_CALL
    result = parse(text)
    kinds = [(type(s).__name__, s.index) for s in result.segments if not isinstance(s, TextSegment)]
    assert kinds == [("CallSegment", 0), ("RejectedCall", 1), ("CallSegment", 2)]
    assert result.issues[0].call_index == 1


def test_segment_offsets_are_positions_in_the_input() -> None:
    text = PARALLEL + "\n" + JSON_BODY + "\nbye"
    result = parse(text)
    for segment in result.segments:
        raw = segment.text if isinstance(segment, TextSegment) else segment.raw
        assert text[segment.offset : segment.offset + len(raw)] == raw


def test_every_issue_code_is_exercised_by_this_module() -> None:
    with open(__file__, encoding="utf-8") as module:
        source = module.read()
    for code in ISSUE_CODES:
        assert f'"{code}"' in source, code


def test_weather_tool_schema_is_what_the_tests_assume() -> None:
    assert WEATHER.parameters is not None
    assert WEATHER.parameters["required"] == ["city"]


# -- a literal <tool_call> block inside a value ----------------------------------------


LITERAL = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
    "</function>\n</tool_call>"
)


def test_a_literal_call_block_inside_a_value_is_text_of_the_value() -> None:
    # A file that holds a Qwen call: the value ends at its own </parameter>.
    text = call_xml("write_file", ("path", "example.txt"), ("content", LITERAL))
    result = parse(text)
    assert codes(result) == []
    assert result.calls[0].arguments == {"path": "example.txt", "content": LITERAL}


def test_a_literal_block_parses_the_same_fed_in_pieces() -> None:
    text = "Saving.\n" + call_xml("write_file", ("path", "a"), ("content", LITERAL + "\nend"))
    whole = parse(text)
    for size in (1, 2, 5, 11):
        parser = QwenXmlParser(TOOLS)
        for at in range(0, len(text), size):
            parser.feed(text[at : at + size])
        assert parser.finish() == whole


def test_a_value_never_closed_after_a_block_was_a_dropped_closer() -> None:
    text = "<tool_call>\n<function=write_file>\n<parameter=path>\na\n" + WEATHER_CALL
    result = parse(text)
    assert isinstance(result.segments[0], RejectedCall)
    assert result.calls[0].arguments == {"city": "Beijing", "days": 3}
