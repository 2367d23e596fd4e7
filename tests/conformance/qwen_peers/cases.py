"""Peer cases: model text, tools, and what each real Qwen3-Coder parser's own
test suite expects from it. The texts and expected values are facts taken
from those suites (each case names its repository, file and test); the
code that uses them is toolwire's.

``outcome`` says how toolwire's strict parser relates to the peer:

* ``agree``: toolwire's own parse gives the same calls and text;
* ``accepted``: toolwire's parser reads it more strictly (it refuses the
  call, or keeps a value as written) because the peers split on the point,
  and its checks accept the peer's output; ``split`` names the point
  (docs/rules/xml-peers.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.conformance.qwen_peers import tools as T
from toolwire.harness.model import ToolDef

VLLM_FILE = "vllm-project/vllm tests/tool_use/test_qwen3coder_tool_parser.py"
SGLANG_UNIT = "sgl-project/sglang TestQwen3CoderDetector (test/registered/function_call)"
SGLANG_STREAM = (
    "sgl-project/sglang test/registered/function_call/test_qwen3_coder_detector/test_cases.py"
)
LLAMA_FILE = "ggml-org/llama.cpp tests/test-chat.cpp (Qwen3-Coder peg_tester block)"
LLAMA_XML = "ochafik/llama.cpp tests/chat-parsers/test-qwen3-coder-xml.cpp"
QWEN_PARSER = (
    "Qwen/Qwen3-Coder-30B-A3B-Instruct qwen3coder_tool_parser.py "
    "(_convert_param_value and its parameter regex; the hub ships no tests)"
)


@dataclass(frozen=True)
class PeerCase:
    id: str
    project: str  # vllm | sglang | llama.cpp | qwen
    where: str
    text: str
    tools: tuple[ToolDef, ...] | None
    calls: list[tuple[str, dict[str, Any]]]
    content: str = ""
    outcome: str = "agree"
    split: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def call(name: str, *params: tuple[str, str], inline: bool = False, opener: bool = True) -> str:
    nl = "" if inline else "\n"
    body = "".join(f"<parameter={k}>{nl}{v}{nl}</parameter>\n" for k, v in params)
    block = f"<function={name}>\n{body}</function>"
    return f"<tool_call>\n{block}\n</tool_call>" if opener else block


WEATHER_DALLAS = call(
    "get_current_weather", ("city", "Dallas"), ("state", "TX"), ("unit", "fahrenheit")
)
DALLAS = {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}
MISSING_CLOSER = (
    "Let me check the weather for you:\n<tool_call>\n<function=get_current_weather>\n"
    "<parameter=city>\nDallas\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\n"
    "fahrenheit\n</parameter>\n</function>\n</tool_call>"
)

VLLM: list[PeerCase] = [
    PeerCase(
        "vllm/no_tools",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_no_tools",
        "This is a test response without any tool calls",
        None,
        [],
        "This is a test response without any tool calls",
    ),
    PeerCase(
        "vllm/single_tool",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls[single_tool]",
        WEATHER_DALLAS,
        T.VLLM,
        [("get_current_weather", DALLAS)],
    ),
    PeerCase(
        "vllm/single_tool_with_content",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls[single_tool_with_content]",
        "Sure! Let me check the weather for you." + WEATHER_DALLAS,
        T.VLLM,
        [("get_current_weather", DALLAS)],
        "Sure! Let me check the weather for you.",
    ),
    PeerCase(
        "vllm/single_tool_multiline_param",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls[single_tool_multiline_param]",
        call(
            "calculate_area",
            ("shape", "rectangle"),
            ("dimensions", '{"width": 10, \n "height": 20}'),
            ("precision", "2"),
        ),
        T.VLLM,
        [
            (
                "calculate_area",
                {"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2},
            )
        ],
    ),
    PeerCase(
        "vllm/parallel_tools",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls[parallel_tools]",
        WEATHER_DALLAS
        + "\n"
        + call("get_current_weather", ("city", "Orlando"), ("state", "FL"), ("unit", "fahrenheit")),
        T.VLLM,
        [
            ("get_current_weather", DALLAS),
            ("get_current_weather", {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}),
        ],
    ),
    PeerCase(
        "vllm/tool_with_typed_params",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls[tool_with_typed_params]",
        "Let me calculate that area for you."
        + call(
            "calculate_area",
            ("shape", "circle"),
            ("dimensions", '{"radius": 15.5}'),
            ("precision", "3"),
        ),
        T.VLLM,
        [("calculate_area", {"shape": "circle", "dimensions": {"radius": 15.5}, "precision": 3})],
        "Let me calculate that area for you.",
    ),
    PeerCase(
        "vllm/fallback_no_tags",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_fallback_no_tags",
        call("get_current_weather", ("city", "Dallas"), ("state", "TX"), opener=False),
        T.VLLM,
        [("get_current_weather", {"city": "Dallas", "state": "TX"})],
        outcome="accepted",
        split="missing <tool_call> opener",
    ),
    PeerCase(
        "vllm/type_conversion",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_type_conversion",
        call(
            "test_types",
            ("int_param", "42"),
            ("float_param", "3.14"),
            ("bool_param", "true"),
            ("str_param", "hello world"),
            ("obj_param", '{"key": "value"}'),
        ),
        T.VLLM_TYPES,
        [
            (
                "test_types",
                {
                    "int_param": 42,
                    "float_param": 3.14,
                    "bool_param": True,
                    "str_param": "hello world",
                    "obj_param": {"key": "value"},
                },
            )
        ],
        outcome="accepted",
        split="type name outside JSON Schema",
    ),
    PeerCase(
        "vllm/missing_closing_parameter_tag",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_missing_closing_parameter_tag (qwen3_xml parser)",
        MISSING_CLOSER,
        T.VLLM,
        [("get_current_weather", DALLAS)],
        "Let me check the weather for you:\n",
        outcome="accepted",
        split="dropped </parameter>",
    ),
    PeerCase(
        "vllm/complex_type_with_single_quote",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_complex_type_with_single_quote",
        call("test_types", ("obj_param", "{'key': 'value'}")),
        T.VLLM_TYPES,
        [("test_types", {"obj_param": {"key": "value"}})],
    ),
    PeerCase(
        "vllm/streaming_missing_opening_tag",
        "vllm",
        f"{VLLM_FILE}::test_extract_tool_calls_streaming_missing_opening_tag",
        "I'll check the weather for you.\n\n"
        + call(
            "get_current_weather",
            ("city", "Dallas"),
            ("state", "TX"),
            ("unit", "fahrenheit"),
            opener=False,
        )
        + "\n</tool_call>",
        T.VLLM,
        [("get_current_weather", DALLAS)],
        "I'll check the weather for you.\n\n",
        outcome="accepted",
        split="missing <tool_call> opener",
    ),
]

BOSTON = {"location": "Boston", "unit": "celsius", "days": 3}
SGLANG: list[PeerCase] = [
    PeerCase(
        "sglang/plain_text_only",
        "sglang",
        f"{SGLANG_UNIT}::test_plain_text_only",
        "This is plain text without any tool calls.",
        T.SGLANG,
        [],
        "This is plain text without any tool calls.",
    ),
    PeerCase(
        "sglang/single_tool_call",
        "sglang",
        f"{SGLANG_UNIT}::test_single_tool_call",
        call(
            "get_current_weather",
            ("location", "Boston"),
            ("unit", "celsius"),
            ("days", "3"),
            inline=True,
        ),
        T.SGLANG,
        [("get_current_weather", BOSTON)],
    ),
    PeerCase(
        "sglang/single_tool_call_with_text_prefix",
        "sglang",
        f"{SGLANG_UNIT}::test_single_tool_call_with_text_prefix",
        "Let me check the weather for you.\n\n"
        + call("get_current_weather", ("location", "New York"), inline=True),
        T.SGLANG,
        [("get_current_weather", {"location": "New York"})],
        "Let me check the weather for you.\n\n",
    ),
    PeerCase(
        "sglang/multiple_tool_calls",
        "sglang",
        f"{SGLANG_UNIT}::test_multiple_tool_calls",
        call("get_current_weather", ("location", "New York"), inline=True)
        + "\n"
        + call(
            "sql_interpreter", ("query", "SELECT * FROM users"), ("dry_run", "True"), inline=True
        ),
        T.SGLANG,
        [
            ("get_current_weather", {"location": "New York"}),
            ("sql_interpreter", {"query": "SELECT * FROM users", "dry_run": True}),
        ],
    ),
    PeerCase(
        "sglang/integer_parameter_conversion",
        "sglang",
        f"{SGLANG_UNIT}::test_integer_parameter_conversion",
        call("get_current_weather", ("location", "Tokyo"), ("days", "5"), inline=True),
        T.SGLANG,
        [("get_current_weather", {"location": "Tokyo", "days": 5})],
    ),
    PeerCase(
        "sglang/boolean_parameter_conversion",
        "sglang",
        f"{SGLANG_UNIT}::test_boolean_parameter_conversion",
        call("sql_interpreter", ("query", "SELECT 1"), ("dry_run", "True"), inline=True),
        T.SGLANG,
        [("sql_interpreter", {"query": "SELECT 1", "dry_run": True})],
    ),
    PeerCase(
        "sglang/complex_array_parameter",
        "sglang",
        f"{SGLANG_UNIT}::test_complex_array_parameter",
        call(
            "TodoWrite",
            (
                "todos",
                '[\n  {"content": "Buy groceries", "status": "pending"},\n'
                '  {"content": "Finish report", "status": "completed"}\n]',
            ),
        ),
        T.SGLANG,
        [
            (
                "TodoWrite",
                {
                    "todos": [
                        {"content": "Buy groceries", "status": "pending"},
                        {"content": "Finish report", "status": "completed"},
                    ]
                },
            )
        ],
    ),
    PeerCase(
        "sglang/empty_parameter_value",
        "sglang",
        f"{SGLANG_UNIT}::test_empty_parameter_value",
        call("get_current_weather", ("location", ""), inline=True),
        T.SGLANG,
        [("get_current_weather", {"location": ""})],
    ),
    PeerCase(
        "sglang/parameter_with_special_characters",
        "sglang",
        f"{SGLANG_UNIT}::test_parameter_with_special_characters",
        call(
            "sql_interpreter",
            ("query", "SELECT * FROM users WHERE name = 'John \"Doe\"'"),
            inline=True,
        ),
        T.SGLANG,
        [("sql_interpreter", {"query": "SELECT * FROM users WHERE name = 'John \"Doe\"'"})],
    ),
    PeerCase(
        "sglang/stream_single_tool_call",
        "sglang",
        f"{SGLANG_STREAM}::test_single_tool_call",
        call(
            "get_current_weather",
            ("location", "Boston"),
            ("unit", "celsius"),
            ("days", "3"),
            inline=True,
            opener=False,
        ),
        T.SGLANG,
        [("get_current_weather", BOSTON)],
        outcome="accepted",
        split="missing <tool_call> opener",
    ),
    PeerCase(
        "sglang/stream_double_tool_call",
        "sglang",
        f"{SGLANG_STREAM}::test_double_tool_call",
        "Text prefix + double tool call test\n\n"
        + call("get_current_weather", ("location", "New York"), inline=True, opener=False)
        + "\n"
        + call(
            "sql_interpreter",
            ("query", "SELECT * FROM users"),
            ("dry_run", "True"),
            inline=True,
            opener=False,
        )
        + "\n",
        T.SGLANG,
        [
            ("get_current_weather", {"location": "New York"}),
            ("sql_interpreter", {"query": "SELECT * FROM users", "dry_run": True}),
        ],
        "Text prefix + double tool call test\n\n",
        outcome="accepted",
        split="missing <tool_call> opener",
    ),
    PeerCase(
        "sglang/stream_implicit_parameter_close",
        "sglang",
        f"{SGLANG_STREAM}::test_implicit_parameter_close",
        "Text prefix + implicit parameter close test\n\n<function=get_current_weather>\n"
        "<parameter=location>Paris\n<parameter=unit>celsius\n<parameter=days>3\n</function>",
        T.SGLANG,
        [("get_current_weather", {"location": "Paris", "unit": "celsius", "days": 3})],
        "Text prefix + implicit parameter close test\n\n",
        outcome="accepted",
        split="dropped </parameter>",
    ),
    PeerCase(
        "sglang/stream_complex_schema",
        "sglang",
        f"{SGLANG_STREAM}::test_complex_schema_toolcall",
        "Text prefix + complex schema tool call test\n\n"
        + call(
            "TodoWrite",
            (
                "todos",
                '[\n {"content": "Buy a new car", "status": \'pending\'},\n'
                ' {"content": "Buy a new house", "status": "completed"}\n]',
            ),
            opener=False,
        )
        + "\n\n",
        T.SGLANG,
        [
            (
                "TodoWrite",
                {
                    "todos": [
                        {"content": "Buy a new car", "status": "pending"},
                        {"content": "Buy a new house", "status": "completed"},
                    ]
                },
            )
        ],
        "Text prefix + complex schema tool call test\n\n",
        outcome="accepted",
        split="missing <tool_call> opener",
    ),
]


def indented(name: str, *params: tuple[str, str]) -> str:
    """llama.cpp's indented layout; each value is the exact text between
    ``<parameter=K>\\n`` and ``</parameter>``."""
    body = "".join(f"    <parameter={k}>\n{v}    </parameter>\n" for k, v in params)
    return f"<tool_call>\n  <function={name}>\n{body}  </function>\n</tool_call>"


def pad(value: str) -> str:
    return f"      {value}\n"


TRIM = "whitespace around a value"
LLAMA: list[PeerCase] = [
    PeerCase(
        "llama.cpp/content_only",
        "llama.cpp",
        f"{LLAMA_FILE}: message_assist",
        "Hello, world!\nWhat's up?",
        T.LLAMA,
        [],
        "Hello, world!\nWhat's up?",
    ),
    PeerCase(
        "llama.cpp/special_function",
        "llama.cpp",
        f"{LLAMA_FILE}: message_assist_call",
        call("special_function", ("arg1", "1")),
        T.LLAMA,
        [("special_function", {"arg1": 1})],
    ),
    PeerCase(
        "llama.cpp/parallel_calls",
        "llama.cpp",
        f"{LLAMA_FILE}: special_function + special_function_with_opt",
        call("special_function", ("arg1", "1"))
        + "\n"
        + call("special_function_with_opt", ("arg1", "1"), ("arg2", "2")),
        T.LLAMA,
        [("special_function", {"arg1": 1}), ("special_function_with_opt", {"arg1": 1, "arg2": 2})],
    ),
    PeerCase(
        "llama.cpp/python_multiline_code",
        "llama.cpp",
        f"{LLAMA_FILE}: python_tool, multiline code",
        call("python", ("code", 'def hello():\n    print("Hello, world!")\n\nhello()')),
        T.LLAMA,
        [("python", {"code": 'def hello():\n    print("Hello, world!")\n\nhello()'})],
    ),
    PeerCase(
        "llama.cpp/spaces_between_tags",
        "llama.cpp",
        f"{LLAMA_XML}: message_assist_call with spaces between the tags",
        " <tool_call>\n<function=special_function> <parameter=arg1>1\n</parameter>\n"
        "</function> </tool_call>\n\n\n",
        T.LLAMA,
        [("special_function", {"arg1": 1})],
    ),
    PeerCase(
        "llama.cpp/indented_call",
        "llama.cpp",
        f"{LLAMA_XML}: basic XML tool call parsing",
        indented("special_function", ("arg1", pad("1"))),
        T.LLAMA,
        [("special_function", {"arg1": 1})],
    ),
    PeerCase(
        "llama.cpp/multiple_typed_parameters",
        "llama.cpp",
        f"{LLAMA_XML}: expected_multi_param",
        indented(
            "complex_function",
            ("name", pad("John Doe")),
            ("age", pad("30")),
            ("active", pad("true")),
            ("score", pad("95.5")),
        ),
        T.LLAMA,
        [("complex_function", {"name": "John Doe", "age": 30, "active": True, "score": 95.5})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/unicode",
        "llama.cpp",
        f"{LLAMA_XML}: expected_special_chars",
        indented("unicode_function", ("message", pad("Hello 世界! 🌍 Special chars: @#$%^&*()"))),
        T.LLAMA,
        [("unicode_function", {"message": "Hello 世界! 🌍 Special chars: @#$%^&*()"})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/multiline_code",
        "llama.cpp",
        f"{LLAMA_XML}: expected_multiline",
        indented(
            "code_function",
            ("code", 'def hello():\n    print("Hello, World!")\n    return True\n'),
        ),
        T.LLAMA,
        [("code_function", {"code": 'def hello():\n    print("Hello, World!")\n    return True'})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/json_object",
        "llama.cpp",
        f"{LLAMA_XML}: expected_json_param",
        indented(
            "json_function", ("config", pad('{"host": "localhost", "port": 8080, "ssl": false}'))
        ),
        T.LLAMA,
        [("json_function", {"config": {"host": "localhost", "port": 8080, "ssl": False}})],
    ),
    PeerCase(
        "llama.cpp/array",
        "llama.cpp",
        f"{LLAMA_XML}: expected_array_param",
        indented("array_function", ("items", pad('["apple", "banana", "cherry"]'))),
        T.LLAMA,
        [("array_function", {"items": ["apple", "banana", "cherry"]})],
    ),
    PeerCase(
        "llama.cpp/empty_parameter",
        "llama.cpp",
        f"{LLAMA_XML}: expected_empty_param",
        indented("empty_function", ("empty_param", "")),
        T.LLAMA,
        [("empty_function", {"empty_param": ""})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/booleans",
        "llama.cpp",
        f"{LLAMA_XML}: expected_boolean",
        indented("boolean_function", ("enabled", pad("true")), ("debug", pad("false"))),
        T.LLAMA,
        [("boolean_function", {"enabled": True, "debug": False})],
    ),
    PeerCase(
        "llama.cpp/null",
        "llama.cpp",
        f"{LLAMA_XML}: expected_null",
        indented("null_function", ("optional_param", pad("null"))),
        T.LLAMA,
        [("null_function", {"optional_param": None})],
    ),
    PeerCase(
        "llama.cpp/numbers",
        "llama.cpp",
        f"{LLAMA_XML}: expected_numbers",
        indented(
            "math_function",
            ("negative", pad("-42")),
            ("decimal", pad("-3.14")),
            ("scientific", pad("1.23e-4")),
        ),
        T.LLAMA,
        [("math_function", {"negative": -42, "decimal": -3.14, "scientific": 1.23e-4})],
    ),
    PeerCase(
        "llama.cpp/xml_in_value",
        "llama.cpp",
        f"{LLAMA_XML}: expected_xml_content",
        indented("xml_function", ("xml_content", pad("<root><item>value</item></root>"))),
        T.LLAMA,
        [("xml_function", {"xml_content": "<root><item>value</item></root>"})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/quotes",
        "llama.cpp",
        f"{LLAMA_XML}: expected_quotes",
        indented("quote_function", ("message", pad('She said "Hello!" and left.'))),
        T.LLAMA,
        [("quote_function", {"message": 'She said "Hello!" and left.'})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/text_before_call",
        "llama.cpp",
        f"{LLAMA_XML}: expected_mixed_content",
        "I'll help you search for products. "
        + indented("search_function", ("query", pad("laptops"))),
        T.LLAMA,
        [("search_function", {"query": "laptops"})],
        "I'll help you search for products. ",
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/compact",
        "llama.cpp",
        f"{LLAMA_XML}: expected_compact",
        "<tool_call><function=compact_function><parameter=param>value</parameter>"
        "</function></tool_call>",
        T.LLAMA,
        [("compact_function", {"param": "value"})],
    ),
    PeerCase(
        "llama.cpp/name_with_digits",
        "llama.cpp",
        f"{LLAMA_XML}: expected_complex_name",
        indented("get_user_data_v2", ("user_id", pad("12345"))),
        T.LLAMA,
        [("get_user_data_v2", {"user_id": 12345})],
    ),
    PeerCase(
        "llama.cpp/parameter_names_with_digits",
        "llama.cpp",
        f"{LLAMA_XML}: expected_complex_params",
        indented(
            "test_function",
            ("param_1", pad("value1")),
            ("param_2_name", pad("value2")),
            ("param3", pad("123")),
        ),
        T.LLAMA,
        [("test_function", {"param_1": "value1", "param_2_name": "value2", "param3": 123})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/whitespace_only_value",
        "llama.cpp",
        f"{LLAMA_XML}: expected_whitespace_param",
        indented("whitespace_function", ("spaces", "      \n")),
        T.LLAMA,
        [("whitespace_function", {"spaces": ""})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/tabs_and_indentation",
        "llama.cpp",
        f"{LLAMA_XML}: expected_mixed_whitespace",
        indented("tab_function", ("content", "line1\n\tindented line\n    spaces\n")),
        T.LLAMA,
        [("tab_function", {"content": "line1\n\tindented line\n    spaces"})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/control_characters",
        "llama.cpp",
        f"{LLAMA_XML}: expected_control_chars",
        indented("control_function", ("text", "Line1\nLine2\tTabbed\rCarriage return\n")),
        T.LLAMA,
        [("control_function", {"text": "Line1\nLine2\tTabbed\rCarriage return"})],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/html_in_value",
        "llama.cpp",
        f"{LLAMA_XML}: expected_html",
        indented(
            "html_function",
            ("content", pad("<script>alert('xss')</script><img src=x onerror=alert(1)>")),
        ),
        T.LLAMA,
        [
            (
                "html_function",
                {"content": "<script>alert('xss')</script><img src=x onerror=alert(1)>"},
            )
        ],
        outcome="accepted",
        split=TRIM,
    ),
    PeerCase(
        "llama.cpp/very_large_integer",
        "llama.cpp",
        f"{LLAMA_XML}: expected_large_numbers",
        indented("number_function", ("big_int", pad("9" * 60))),
        T.LLAMA,
        [("number_function", {"big_int": 1e60})],
        outcome="accepted",
        split="integer beyond double precision",
    ),
]

QWEN: list[PeerCase] = [
    PeerCase(
        "qwen/parameter_outside_properties",
        "qwen",
        f"{QWEN_PARSER}: a name not in the properties is kept as a string",
        call("get_weather", ("city", "Oslo"), ("country", "NO")),
        T.QWEN,
        [("get_weather", {"city": "Oslo", "country": "NO"})],
    ),
    PeerCase(
        "qwen/upper_case_spellings",
        "qwen",
        f"{QWEN_PARSER}: booleans lower-cased, 'null' in any case is null",
        call("set_flag", ("enabled", "TRUE"), ("note", "NULL")),
        T.QWEN,
        [("set_flag", {"enabled": True, "note": None})],
        outcome="accepted",
        split="TRUE / NULL spellings",
    ),
    PeerCase(
        "qwen/leading_zeros_and_int_type",
        "qwen",
        f"{QWEN_PARSER}: integers read with int(); the type name 'int' maps to integer",
        call("lookup", ("zip", "03106"), ("count", "7")),
        T.QWEN,
        [("lookup", {"zip": 3106, "count": 7})],
        outcome="accepted",
        split="leading zeros; type name outside JSON Schema",
    ),
    PeerCase(
        "qwen/missing_required_parameter",
        "qwen",
        f"{QWEN_PARSER}: required parameters are not checked",
        call("get_weather", ("days", "3")),
        T.QWEN,
        [("get_weather", {"days": 3})],
        outcome="accepted",
        split="missing required parameter",
    ),
    PeerCase(
        "qwen/dropped_parameter_closer",
        "qwen",
        f"{QWEN_PARSER}: a value also ends at the next <parameter= or at </function>",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
        "<parameter=days>\n2\n</function>\n</tool_call>",
        T.QWEN,
        [("get_weather", {"city": "Paris", "days": 2})],
        outcome="accepted",
        split="dropped </parameter>",
    ),
]

CASES: list[PeerCase] = VLLM + SGLANG + LLAMA + QWEN
