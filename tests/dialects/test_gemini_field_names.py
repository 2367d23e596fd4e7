"""Proto field names in snake_case read as their lowerCamelCase twins (gemini requests)."""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.gemini.field_names import camel_case, camel_case_fields
from toolwire.harness.dialects.gemini.request import parse_request

CAMEL: dict[str, Any] = {
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"name": "get_weather", "args": {"city_name": "Oslo"}},
                    "thoughtSignature": "c2ln",
                }
            ],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp_c": 3}}}],
        },
    ],
    "systemInstruction": {"parts": [{"text": "Be brief."}]},
    "tools": [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"city_name": {"type": "STRING", "maxLength": 40}},
                    },
                }
            ]
        }
    ],
    "toolConfig": {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}
    },
}
# The same request as LiteLLM writes it: proto names in snake_case.
SNAKE: dict[str, Any] = {
    "contents": [
        CAMEL["contents"][0],
        {
            "role": "model",
            "parts": [
                {
                    "function_call": {"name": "get_weather", "args": {"city_name": "Oslo"}},
                    "thought_signature": "c2ln",
                }
            ],
        },
        {
            "role": "user",
            "parts": [{"function_response": {"name": "get_weather", "response": {"temp_c": 3}}}],
        },
    ],
    "system_instruction": {"parts": [{"text": "Be brief."}]},
    "tools": [
        {
            "function_declarations": [
                {
                    "name": "get_weather",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"city_name": {"type": "STRING", "max_length": 40}},
                    },
                }
            ]
        }
    ],
    "tool_config": {
        "function_calling_config": {"mode": "ANY", "allowed_function_names": ["get_weather"]}
    },
}


def test_a_snake_case_request_reads_as_its_camel_case_twin() -> None:
    snake, camel = parse_request(SNAKE), parse_request(CAMEL)
    assert snake.turns == camel.turns
    assert snake.system == camel.system
    assert snake.tools == camel.tools
    assert snake.tool_choice == camel.tool_choice
    assert snake.tools and snake.tool_choice is not None  # not vacuous: both were read


def test_data_keeps_its_keys() -> None:
    renamed = camel_case_fields(SNAKE["contents"][1:])
    assert renamed[0]["parts"][0]["functionCall"]["args"] == {"city_name": "Oslo"}
    assert renamed[1]["parts"][0]["functionResponse"]["response"] == {"temp_c": 3}
    schema = camel_case_fields(SNAKE["tools"])[0]["functionDeclarations"][0]["parameters"]
    assert schema["properties"] == {"city_name": {"type": "STRING", "maxLength": 40}}


def test_names_and_collisions() -> None:
    assert camel_case("function_call") == "functionCall"
    assert camel_case("functionCall") == "functionCall"
    assert camel_case("_private") == "_private"
    both = camel_case_fields({"functionCall": {"name": "a"}, "function_call": {"name": "b"}})
    assert both == {"functionCall": {"name": "a"}, "function_call": {"name": "b"}}


def test_fields_outside_the_named_ones_round_trip_as_they_came() -> None:
    body = {**CAMEL, "custom_field": {"max_output_tokens": 5}}
    assert parse_request(body).extra["custom_field"] == {"max_output_tokens": 5}


def test_the_request_parameters_are_read_under_either_spelling() -> None:
    """generation_config, safety_settings, cached_content are fields of the
    request message too: kept in ``extra`` under their lowerCamelCase names."""
    body = {**CAMEL, "generation_config": {"max_output_tokens": 5}, "cached_content": "c/1"}
    extra = parse_request(body).extra
    assert extra["generationConfig"] == {"maxOutputTokens": 5}
    assert extra["cachedContent"] == "c/1"
    assert "generation_config" not in extra


def test_json_schema_name_maps_keep_their_names() -> None:
    # A `$ref` names a `$defs` entry by its key: renaming the key would break it.
    schema = {
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/linked_list_node"}},
        "$defs": {"linked_list_node": {"type": "object"}},
    }
    assert camel_case_fields(schema) == schema


def test_a_null_field_is_an_absent_one_but_null_data_stays() -> None:
    from toolwire.harness.dialects.gemini.field_names import nulls_dropped

    body = {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"x": None}}}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "f", "description": None}]}],
        "generationConfig": None,
    }
    assert nulls_dropped(body) == {
        "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"x": None}}}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "f"}]}],
    }


def test_a_declaration_with_a_null_description_fits_the_schema() -> None:
    """As llm-gemini sends it, and the Gemini API accepted (proto3 JSON: null is absent)."""
    from toolwire.harness.schemas import validate_payload

    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [{"name": "f", "description": None}]}],
    }
    assert validate_payload("gemini", "request", body) == []
    body["tools"][0]["functionDeclarations"][0]["description"] = 7  # type: ignore[index]
    assert [v.path for v in validate_payload("gemini", "request", body)] == [
        "tools[0].functionDeclarations[0].description"
    ]


def test_snake_case_generation_config_reaches_the_reference_converter() -> None:
    """generation_config.max_output_tokens means generationConfig.maxOutputTokens
    (proto3 JSON); the reference's Gemini reader used to drop it."""
    from toolwire.harness.adapters.reference.from_gemini import params_from_gemini
    from toolwire.harness.dialects import get_codec

    codec = get_codec("gemini")
    both = [
        {"generation_config": {"max_output_tokens": 64, "stop_sequences": ["END"]}},
        {"generationConfig": {"maxOutputTokens": 64, "stopSequences": ["END"]}},
    ]
    read = []
    for config in both:
        conversation = codec.parse_request(
            {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], **config}
        )
        read.append(params_from_gemini(conversation.extra))
    assert read[0] == read[1]
    assert read[0]["max_tokens"] == 64
    assert read[0]["stop_sequences"] == ["END"]


def test_a_snake_case_response_reads_as_its_camel_case_twin() -> None:
    from toolwire.harness.dialects import get_codec

    codec = get_codec("gemini")
    call = {"name": "f", "args": {"a_b": 1}}
    snake = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"function_call": call}]},
                "finish_reason": "STOP",
            }
        ],
        "usage_metadata": {"prompt_token_count": 3},
    }
    camel = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"functionCall": call}]},
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"promptTokenCount": 3},
    }
    assert codec.parse_response(snake) == codec.parse_response(camel)
