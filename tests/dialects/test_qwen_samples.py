"""Shared Qwen3-Coder samples for the qwen-xml tests (tools and texts), and
the checks that the samples are what the other tests assume.

The malformed texts reproduce shapes reported in public issues (cited where
each is defined or used); they are written here, not copied.
"""

from __future__ import annotations

from toolwire.harness.dialects.qwen_xml import parse_qwen_xml
from toolwire.harness.model import ToolDef

WEATHER = ToolDef(
    name="get_weather",
    description="Weather for a city.",
    parameters={
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "detailed": {"type": "boolean"},
        },
        "required": ["city"],
    },
)

WRITE_FILE = ToolDef(
    name="write_file",
    parameters={
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
)

ALL_TYPES = ToolDef(
    name="all_types",
    parameters={
        "type": "object",
        "$defs": {"Mode": {"type": "string", "enum": ["fast", "safe"]}},
        "properties": {
            "s": {"type": "string"},
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "b": {"type": "boolean"},
            "z": {"type": "null"},
            "o": {"type": "object"},
            "a": {"type": "array", "items": {"type": "string"}},
            "e": {"enum": ["x", 2]},
            "u": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "t": {"type": ["string", "null"]},
            "r": {"$ref": "#/$defs/Mode"},
        },
    },
)

NO_SCHEMA = ToolDef(name="no_schema", parameters=None)

TOOLS = (WEATHER, WRITE_FILE, ALL_TYPES, NO_SCHEMA)


def call_xml(name: str, *params: tuple[str, str]) -> str:
    """A well-formed call block in the chat template's canonical layout."""
    body = "".join(f"<parameter={key}>\n{value}\n</parameter>\n" for key, value in params)
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


WEATHER_CALL = call_xml("get_weather", ("city", "Beijing"), ("days", "3"))
SIMPLE = "Let me check.\n" + WEATHER_CALL
PARALLEL = (
    "I'll check both cities.\n\n"
    + call_xml("get_weather", ("city", "Beijing"))
    + "\n"
    + call_xml("get_weather", ("city", "Paris"), ("units", "celsius"))
)
MULTILINE = call_xml(
    "write_file",
    ("path", "src/app.py"),
    ("content", "def f(x):\n    return x < 3 and x > 1\n\n\n# <b>done</b>\n"),
)

# ollama/ollama#16686 and #18530: the opener is dropped after prose, the
# closer is still written.
MISSING_OPENER = (
    "I'll use the Glob tool to list the markdown files.\n\n"
    "<function=Glob>\n<parameter=pattern>\n*.md\n</parameter>\n</function>\n</tool_call>"
)
# ollama/ollama#18563 and #17914: "element <parameter> closed by </function>".
DROPPED_PARAMETER_CLOSE = (
    "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n"
    "<parameter=content>\n# Notes\nline\n</function>\n</tool_call>\n" + WEATHER_CALL
)
# vllm-project/vllm#47903: a call cut by max_tokens inside a value.
TRUNCATED = "Writing it now.\n<tool_call>\n<function=write_file>\n<parameter=content>\nhello wor"
# sgl-project/sglang#39836, ggml-org/llama.cpp#19753: a parameter given twice.
DUPLICATE = call_xml("get_weather", ("city", "Beijing"), ("city", "Paris"))
# ml-explore/mlx-lm#1881, vllm-project/vllm#39771: '>' dropped after the name.
NAME_NOT_CLOSED = (
    "<tool_call>\n<function=get_weather>\n<parameter=city\nBeijing\n</parameter>\n"
    "</function>\n</tool_call>"
)
# The Qwen2.5 / Hermes JSON form inside <tool_call> (InternLM/lmdeploy#3840
# shows both formats side by side).
JSON_BODY = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Beijing"}}\n</tool_call>'

VALID_TEXTS = {
    "simple": SIMPLE,
    "parallel": PARALLEL,
    "multiline": MULTILINE,
    "no_text": WEATHER_CALL,
    "plain_text_with_angles": "if a<b and c>d: <br> </tool_> <function <tool_call",
}
MALFORMED_TEXTS = {
    "missing_opener": MISSING_OPENER,
    "dropped_parameter_close": DROPPED_PARAMETER_CLOSE,
    "truncated": TRUNCATED,
    "duplicate": DUPLICATE,
    "name_not_closed": NAME_NOT_CLOSED,
    "json_body": JSON_BODY,
    "text_after": WEATHER_CALL + "\nDone, it is sunny.",
    "bad_integer": call_xml("get_weather", ("city", "Oslo"), ("days", "three")),
    "stray_close": call_xml("get_weather", ("city", "Oslo")).replace(
        "</parameter>", "</parameter>\n</parameter>"
    ),
    "cut_in_tag": "<tool_call>\n<function=get_weather>\n<para",
}


def test_valid_samples_parse_without_issues() -> None:
    for name, text in VALID_TEXTS.items():
        assert parse_qwen_xml(text, TOOLS).issues == (), name


def test_malformed_samples_each_report_an_issue() -> None:
    for name, text in MALFORMED_TEXTS.items():
        assert parse_qwen_xml(text, TOOLS).issues, name


def test_call_xml_writes_the_template_layout() -> None:
    assert call_xml("f", ("a", "1")) == (
        "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>"
    )
