"""Real-shaped openai-responses payloads for the codec, lint and adapter tests.

Written from the facts of public recordings of api.openai.com/v1/responses
(not copied files): pydantic-ai's cassettes
tests/models/cassettes/test_openai_responses/
test_openai_responses_model_simple_response_with_tool_call.yaml (a flat
function tool, a function_call answered by function_call_output, the
Response object with status/usage) and the shapes openai-agents-python
sends (output items replayed with their ids, reasoning items with
encrypted_content kept before the calls they preceded, store: false with
include: ["reasoning.encrypted_content"]). Ids and encrypted blobs are
shortened stand-ins.
"""

from __future__ import annotations

from typing import Any

GET_CAPITAL = {
    "type": "function",
    "name": "get_capital",
    "description": "",
    "parameters": {
        "additionalProperties": False,
        "properties": {"country": {"type": "string"}},
        "required": ["country"],
        "type": "object",
    },
    "strict": True,
}

# Second request of the pydantic-ai tool-call recording (HTTP 200 upstream).
TOOL_CALL_REQUEST: dict[str, Any] = {
    "input": [
        {"content": "What is the capital of PotatoLand?", "role": "user"},
        {"content": "", "role": "assistant"},
        {
            "arguments": '{"country":"PotatoLand"}',
            "call_id": "call_61cRAI5gleGxCN89umufHn2a",
            "name": "get_capital",
            "type": "function_call",
        },
        {
            "call_id": "call_61cRAI5gleGxCN89umufHn2a",
            "output": "Potato City",
            "type": "function_call_output",
        },
    ],
    "instructions": "",
    "model": "gpt-4o",
    "tool_choice": "auto",
    "tools": [GET_CAPITAL],
}

# First response of that recording: one function_call item.
TOOL_CALL_RESPONSE: dict[str, Any] = {
    "created_at": 1743072656,
    "error": None,
    "id": "resp_67e52d90176c819180bd8b6823aff4c7",
    "incomplete_details": None,
    "instructions": "",
    "max_output_tokens": None,
    "metadata": {},
    "model": "gpt-4o-2024-08-06",
    "object": "response",
    "output": [
        {
            "arguments": '{"country":"PotatoLand"}',
            "call_id": "call_61cRAI5gleGxCN89umufHn2a",
            "id": "fc_67e52d9092bc81919a2b08c7d037eb68",
            "name": "get_capital",
            "status": "completed",
            "type": "function_call",
        }
    ],
    "parallel_tool_calls": True,
    "previous_response_id": None,
    "reasoning": {"effort": None, "generate_summary": None},
    "status": "completed",
    "store": True,
    "temperature": 1.0,
    "text": {"format": {"type": "text"}},
    "tool_choice": "auto",
    "tools": [{**GET_CAPITAL, "description": None}],
    "top_p": 1.0,
    "truncation": "disabled",
    "usage": {
        "input_tokens": 256,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 18,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 274,
    },
    "user": None,
}

TEXT_RESPONSE: dict[str, Any] = {
    **TOOL_CALL_RESPONSE,
    "id": "resp_67e52d90d50c81918b6b4f637e7869fe",
    "output": [
        {
            "content": [
                {
                    "annotations": [],
                    "text": "The capital of PotatoLand is Potato City.",
                    "type": "output_text",
                }
            ],
            "id": "msg_67e52d9130c081918ed389a3b5a2862b",
            "role": "assistant",
            "status": "completed",
            "type": "message",
        }
    ],
    "usage": {
        "input_tokens": 287,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 11,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 298,
    },
}

REASONING_ITEM = {
    "id": "rs_0a1b2c3d",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "Look up the weather in both cities."}],
    "encrypted_content": "gAAAAABo-stand-in-encrypted-reasoning==",
}

# A reasoning model's turn replayed statelessly (store: false), as
# openai-agents does: reasoning, then two parallel calls, then both outputs.
REASONING_REPLAY_REQUEST: dict[str, Any] = {
    "model": "o4-mini",
    "instructions": "You are a weather assistant.",
    "input": [
        {"role": "user", "content": [{"type": "input_text", "text": "Weather in Paris and Rome?"}]},
        REASONING_ITEM,
        {
            "type": "function_call",
            "id": "fc_01",
            "call_id": "call_paris",
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_02",
            "call_id": "call_rome",
            "name": "get_weather",
            "arguments": '{"city": "Rome"}',
            "status": "completed",
        },
        {"type": "function_call_output", "call_id": "call_paris", "output": "18C, cloudy"},
        {"type": "function_call_output", "call_id": "call_rome", "output": "24C, sunny"},
    ],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            },
            "strict": True,
        }
    ],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "store": False,
    "include": ["reasoning.encrypted_content"],
    "reasoning": {"effort": "medium", "summary": "auto"},
}

REASONING_RESPONSE: dict[str, Any] = {
    "id": "resp_0a1b",
    "object": "response",
    "created_at": 1750000000,
    "status": "completed",
    "incomplete_details": None,
    "model": "o4-mini-2025-04-16",
    "output": [
        REASONING_ITEM,
        {
            "type": "function_call",
            "id": "fc_01",
            "call_id": "call_paris",
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_02",
            "call_id": "call_rome",
            "name": "get_weather",
            "arguments": '{"city": "Rome"}',
            "status": "completed",
        },
    ],
    "parallel_tool_calls": True,
    "usage": {
        "input_tokens": 80,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 140,
        "output_tokens_details": {"reasoning_tokens": 96},
        "total_tokens": 220,
    },
}

TRUNCATED_RESPONSE: dict[str, Any] = {
    **TEXT_RESPONSE,
    "status": "incomplete",
    "incomplete_details": {"reason": "max_output_tokens"},
}

# pydantic-ai's test_openai_responses_model_thinking_part recording (gpt-5,
# reasoning effort high, summary detailed, include reasoning.encrypted_content):
# a reasoning item with two summary parts and its encrypted_content, then the
# answer. Texts and the encrypted blob shortened.
THINKING_REQUEST: dict[str, Any] = {
    "include": ["reasoning.encrypted_content"],
    "input": [{"content": "How do I cross the street?", "role": "user"}],
    "model": "gpt-5",
    "reasoning": {"effort": "high", "summary": "detailed"},
    "stream": False,
}
THINKING_RESPONSE: dict[str, Any] = {
    "background": False,
    "created_at": 1757686928,
    "error": None,
    "id": "resp_68c42c902794819cb9335264c342f654",
    "incomplete_details": None,
    "instructions": None,
    "max_output_tokens": None,
    "max_tool_calls": None,
    "metadata": {},
    "model": "gpt-5-2025-08-07",
    "object": "response",
    "output": [
        {
            "encrypted_content": "gAAAAABoxCyzDT6i7ehEoWDBoDGMZmLc-shortened==",
            "id": "rs_68c42c90b950819c9e32c46d4f8326ca",
            "summary": [
                {
                    "text": "**Considering street crossing safety**\n\nGeneral advice.",
                    "type": "summary_text",
                },
                {
                    "text": "**Providing street crossing advice**\n\nStep by step.",
                    "type": "summary_text",
                },
            ],
            "type": "reasoning",
        },
        {
            "content": [
                {
                    "annotations": [],
                    "logprobs": [],
                    "text": "Find a crosswalk, stop at the curb, look left-right-left.",
                    "type": "output_text",
                }
            ],
            "id": "msg_68c42cb1aaf8819cb8b0e6aa4b9e1b47",
            "role": "assistant",
            "status": "completed",
            "type": "message",
        },
    ],
    "parallel_tool_calls": True,
    "reasoning": {"effort": "high", "summary": "detailed"},
    "status": "completed",
    "store": True,
    "usage": {
        "input_tokens": 13,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 1909,
        "output_tokens_details": {"reasoning_tokens": 1472},
        "total_tokens": 1922,
    },
}
