"""Gemini bodies in snake_case read as their lowerCamelCase spelling (proto3 JSON)."""

from __future__ import annotations

import copy
from typing import Any

from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.gemini.field_names import camel, camel_case_fields
from toolwire.harness.model import TextBlock, ToolCall, ToolResult

# What LiteLLM 1.106 sends toward Gemini (litellm/llms/vertex_ai/gemini/), trimmed.
SNAKE: dict[str, Any] = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "function_call": {"name": "get_weather", "args": {"city_name": "Paris"}},
                    "thought_signature": "c2ln",
                }
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "function_response": {
                        "name": "get_weather",
                        "response": {"content": "18 C", "unit_name": "C"},
                    }
                }
            ],
        },
    ],
    "system_instruction": {"parts": [{"text": "Be brief."}]},
    "tools": [
        {
            "function_declarations": [
                {
                    "name": "get_weather",
                    "parameters": {
                        "type": "object",
                        "properties": {"city_name": {"type": "string", "max_length": 40}},
                        "required": ["city_name"],
                    },
                }
            ]
        }
    ],
    "tool_config": {"function_calling_config": {"mode": "ANY", "allowed_function_names": ["x"]}},
    "generation_config": {"max_output_tokens": 64},
}


def test_snake_case_names_become_lower_camel_case() -> None:
    assert camel("function_call") == "functionCall"
    assert camel("max_output_tokens") == "maxOutputTokens"
    assert camel("functionCall") == "functionCall"
    assert camel("_private") == "_private"


def test_free_json_keeps_its_keys() -> None:
    body = camel_case_fields(copy.deepcopy(SNAKE))
    call = body["contents"][1]["parts"][0]
    assert call["functionCall"]["args"] == {"city_name": "Paris"}
    assert call["thoughtSignature"] == "c2ln"
    result = body["contents"][2]["parts"][0]["functionResponse"]["response"]
    assert result == {"content": "18 C", "unit_name": "C"}
    schema = body["tools"][0]["functionDeclarations"][0]["parameters"]
    assert schema["properties"] == {"city_name": {"type": "string", "max_length": 40}}
    assert body["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"] == ["x"]
    # a field the codec keeps as it is keeps its spelling, and renders back so
    assert body["generation_config"] == {"max_output_tokens": 64}


def test_a_body_in_lower_camel_case_is_left_as_it_is() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "safetySettings": []}
    assert camel_case_fields(body) is body


def test_the_codec_reads_a_snake_case_request_like_its_camel_case_twin() -> None:
    codec = get_codec("gemini")
    snake = codec.parse_request(copy.deepcopy(SNAKE))
    camel_body = codec.parse_request(camel_case_fields(copy.deepcopy(SNAKE)))
    assert snake == camel_body
    assert [tool.name for tool in snake.tools or ()] == ["get_weather"]
    blocks = [block for turn in snake.turns for block in turn.blocks]
    assert [type(block) for block in blocks] == [TextBlock, ToolCall, ToolResult]
    assert snake.system == (TextBlock(text="Be brief."),)
    assert snake.tool_choice is not None
