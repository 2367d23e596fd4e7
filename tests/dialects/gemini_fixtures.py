"""Short Gemini payloads shaped after real recorded traffic.

Facts (field names, key spelling, where signatures sit, the empty final
chunk) come from pydantic-ai's recordings of the Gemini API
(github.com/pydantic/pydantic-ai, tests/models/cassettes/test_google/:
test_google_streaming_tool_call_thought_signature.yaml,
test_google_model_thinking_part.yaml); texts and signatures are shortened.
Every request here has the shape the API accepted there.
"""

from __future__ import annotations

from typing import Any

SIGNATURE_STD = "Et8ECtwEAXLI2nyCB1jKZUE4+xMB7Gil/OxBK6VMDg=="
# The client sent the same bytes back in base64url (google-genai re-encodes).
SIGNATURE_URLSAFE = "Et8ECtwEAXLI2nyCB1jKZUE4-xMB7Gil_OxBK6VMDg=="

TOOLS: list[dict[str, Any]] = [
    {
        "functionDeclarations": [
            {
                "description": "",
                "name": "get_country",
                "parameters_json_schema": {
                    "additionalProperties": False,
                    "properties": {},
                    "type": "object",
                },
            }
        ]
    }
]

FIRST_REQUEST: dict[str, Any] = {
    "contents": [
        {
            "parts": [{"text": "What is the capital of the user country? Call the tool"}],
            "role": "user",
        }
    ],
    "generationConfig": {"responseModalities": ["TEXT"]},
    "tools": TOOLS,
}

# Chunks of :streamGenerateContent?alt=sse for FIRST_REQUEST.
CALL_STREAM: list[dict[str, Any]] = [
    {
        "candidates": [
            {
                "content": {
                    "parts": [
                        {
                            "functionCall": {"name": "get_country", "args": {}},
                            "thoughtSignature": SIGNATURE_STD,
                        }
                    ],
                    "role": "model",
                },
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 29,
            "candidatesTokenCount": 10,
            "totalTokenCount": 149,
            "thoughtsTokenCount": 110,
        },
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "SVV8aY6uBqe6qtsPmJbEuAM",
    },
    {
        "candidates": [
            {
                "content": {"parts": [{"text": ""}], "role": "model"},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 29,
            "candidatesTokenCount": 10,
            "totalTokenCount": 149,
            "thoughtsTokenCount": 110,
        },
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "SVV8aY6uBqe6qtsPmJbEuAM",
    },
]

# The next request: the call replayed with its signature and a client id,
# then the function's answer.
SECOND_REQUEST: dict[str, Any] = {
    "contents": [
        FIRST_REQUEST["contents"][0],
        {
            "parts": [
                {
                    "functionCall": {
                        "args": {},
                        "id": "pyd_ai_2c58246573624ed1a963f429338ded57",
                        "name": "get_country",
                    },
                    "thoughtSignature": SIGNATURE_URLSAFE,
                }
            ],
            "role": "model",
        },
        {
            "parts": [
                {
                    "functionResponse": {
                        "id": "pyd_ai_2c58246573624ed1a963f429338ded57",
                        "name": "get_country",
                        "response": {"return_value": "Mexico"},
                    }
                }
            ],
            "role": "user",
        },
    ],
    "generationConfig": {"responseModalities": ["TEXT"]},
    "tools": TOOLS,
}

TEXT_STREAM: list[dict[str, Any]] = [
    {
        "candidates": [
            {
                "content": {"parts": [{"text": "The capital of Mexico"}], "role": "model"},
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 55, "candidatesTokenCount": 4, "totalTokenCount": 59},
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "S1V8aZK2NpGKqtsPvPuEqAw",
    },
    {
        "candidates": [
            {"content": {"parts": [{"text": " is Mexico City."}], "role": "model"}, "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 55, "candidatesTokenCount": 8, "totalTokenCount": 63},
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "S1V8aZK2NpGKqtsPvPuEqAw",
    },
    {
        "candidates": [
            {
                "content": {"parts": [{"text": ""}], "role": "model"},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 165,
            "candidatesTokenCount": 8,
            "totalTokenCount": 173,
        },
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "S1V8aZK2NpGKqtsPvPuEqAw",
    },
]

# A thinking answer: the thought summary carries no signature; the answer
# text after it does (Gemini 3).
THINKING_REQUEST: dict[str, Any] = {
    "contents": [{"parts": [{"text": "How do I cross the street?"}], "role": "user"}],
    "generationConfig": {
        "responseModalities": ["TEXT"],
        "thinkingConfig": {"include_thoughts": True},
    },
    "systemInstruction": {"parts": [{"text": "You are a helpful assistant."}], "role": "user"},
    "tools": [
        {
            "functionDeclarations": [
                {
                    "description": "",
                    "name": "dummy",
                    "parameters_json_schema": {
                        "additionalProperties": False,
                        "properties": {},
                        "type": "object",
                    },
                }
            ]
        }
    ],
}

THINKING_RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "text": "**A Safe Street-Crossing Guide**\n\nLet's break this down.\n",
                        "thought": True,
                    },
                    {
                        "text": "Crossing the street safely takes patience.",
                        "thoughtSignature": "EqoeCqceAdHtim+cXhv3",
                    },
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "modelVersion": "gemini-3-pro-preview",
    "responseId": "ON4gaYT4Gc20qtsP2bSiiQ0",
    "usageMetadata": {
        "candidatesTokenCount": 736,
        "promptTokenCount": 29,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 29}],
        "thoughtsTokenCount": 1001,
        "totalTokenCount": 1766,
    },
}

# Parallel calls in one answer: only the first functionCall part carries a
# signature (https://ai.google.dev/gemini-api/docs/thought-signatures).
PARALLEL_RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "parts": [
                    {
                        "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "CiIBcsjafAbc",
                    },
                    {"functionCall": {"name": "get_weather", "args": {"city": "London"}}},
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 20, "totalTokenCount": 60},
    "modelVersion": "gemini-2.5-flash",
    "responseId": "pRl1aLm2F5ac1dkP",
}

PARALLEL_REPLAY: dict[str, Any] = {
    "contents": [
        {"parts": [{"text": "Weather in Paris and London?"}], "role": "user"},
        PARALLEL_RESPONSE["candidates"][0]["content"],
        {
            "parts": [
                {
                    "functionResponse": {
                        "name": "get_weather",
                        "response": {"output": "18C, cloudy"},
                    }
                },
                {
                    "functionResponse": {
                        "name": "get_weather",
                        "response": {"error": "service down"},
                    }
                },
            ],
            "role": "user",
        },
    ],
    "tools": [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": "Current weather for a city",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"city": {"type": "STRING"}},
                        "required": ["city"],
                    },
                }
            ]
        }
    ],
    "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
}

REQUESTS = [FIRST_REQUEST, SECOND_REQUEST, THINKING_REQUEST, PARALLEL_REPLAY]
RESPONSES = [THINKING_RESPONSE, PARALLEL_RESPONSE]
STREAMS = [CALL_STREAM, TEXT_STREAM]
