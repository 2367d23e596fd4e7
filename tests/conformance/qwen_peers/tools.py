"""The tool definitions the peer test suites parse against (facts copied from
their fixtures; each set names the file it comes from)."""

from __future__ import annotations

from typing import Any

from toolwire.harness.model import ToolDef


def _tool(name: str, properties: dict[str, Any], required: list[str] | None = None) -> ToolDef:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    return ToolDef(name, parameters=schema)


def _s(type_name: str) -> dict[str, Any]:
    return {"type": type_name}


# vllm-project/vllm tests/tool_use/test_qwen3coder_tool_parser.py (sample_tools).
VLLM = (
    _tool(
        "get_current_weather",
        {
            "city": _s("string"),
            "state": _s("string"),
            "unit": {"type": "string", "enum": ["fahrenheit", "celsius"]},
        },
        ["city", "state"],
    ),
    _tool(
        "calculate_area",
        {"shape": _s("string"), "dimensions": _s("object"), "precision": _s("integer")},
    ),
)
# Same file, test_extract_tool_calls_type_conversion: "float" is no JSON Schema type.
VLLM_TYPES = (
    _tool(
        "test_types",
        {
            "int_param": _s("integer"),
            "float_param": _s("float"),
            "bool_param": _s("boolean"),
            "str_param": _s("string"),
            "obj_param": _s("object"),
        },
    ),
)

# sgl-project/sglang test/registered/function_call/test_qwen3_coder_detector.py (setUp).
SGLANG = (
    _tool(
        "get_current_weather",
        {
            "location": _s("string"),
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": _s("integer"),
        },
        ["location"],
    ),
    _tool("sql_interpreter", {"query": _s("string"), "dry_run": _s("boolean")}),
    _tool(
        "TodoWrite",
        {
            "todos": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"content": _s("string"), "status": _s("string")},
                    "required": ["content", "status"],
                },
            }
        },
    ),
)

# ggml-org/llama.cpp tests/test-chat.cpp (special_function_tool, python_tool) and
# the Qwen3-Coder tool list of ochafik/llama.cpp tests/chat-parsers/test-qwen3-coder-xml.cpp
# (a llama.cpp maintainer's branch of the same suite).
LLAMA = (
    _tool("special_function", {"arg1": _s("integer")}, ["arg1"]),
    _tool("special_function_with_opt", {"arg1": _s("integer"), "arg2": _s("integer")}, ["arg1"]),
    _tool("python", {"code": _s("string")}, ["code"]),
    _tool(
        "complex_function",
        {
            "name": _s("string"),
            "age": _s("integer"),
            "active": _s("boolean"),
            "score": _s("number"),
        },
        ["name", "age", "active", "score"],
    ),
    _tool("unicode_function", {"message": _s("string")}, ["message"]),
    _tool("code_function", {"code": _s("string")}, ["code"]),
    _tool("json_function", {"config": _s("object")}, ["config"]),
    _tool("array_function", {"items": _s("array")}, ["items"]),
    _tool("empty_function", {"empty_param": _s("string")}, ["empty_param"]),
    _tool(
        "boolean_function", {"enabled": _s("boolean"), "debug": _s("boolean")}, ["enabled", "debug"]
    ),
    _tool("null_function", {"optional_param": _s("null")}, ["optional_param"]),
    _tool(
        "math_function",
        {
            "negative": _s("integer"),
            "decimal": _s("number"),
            "scientific": _s("number"),
            "formula": _s("string"),
        },
    ),
    _tool("xml_function", {"xml_content": _s("string")}, ["xml_content"]),
    _tool("quote_function", {"message": _s("string")}, ["message"]),
    _tool("search_function", {"query": _s("string")}, ["query"]),
    _tool("compact_function", {"param": _s("string")}, ["param"]),
    _tool("get_user_data_v2", {"user_id": _s("integer")}, ["user_id"]),
    _tool(
        "test_function",
        {"param_1": _s("string"), "param_2_name": _s("string"), "param3": _s("integer")},
        ["param_1", "param_2_name", "param3"],
    ),
    _tool("whitespace_function", {"spaces": _s("string")}, ["spaces"]),
    _tool("tab_function", {"content": _s("string")}, ["content"]),
    _tool("control_function", {"text": _s("string")}, ["text"]),
    _tool("number_function", {"big_int": _s("integer")}, ["big_int"]),
    _tool("html_function", {"content": _s("string")}, ["content"]),
)

# The tool shapes of the known disagreements (issue 15), written for the
# behaviour of Qwen/Qwen3-Coder-30B-A3B-Instruct's qwen3coder_tool_parser.py.
QWEN = (
    _tool("write_file", {"path": _s("string"), "content": _s("string")}, ["path", "content"]),
    _tool("get_weather", {"city": _s("string"), "days": _s("integer")}, ["city"]),
    _tool("set_flag", {"enabled": _s("boolean"), "note": {"type": ["string", "null"]}}),
    _tool("lookup", {"zip": _s("integer"), "count": _s("int")}),
)
