"""Shapes real OpenAI-compatible servers send, which the schemas and codecs must accept."""

from __future__ import annotations

from toolwire.harness.payloads import parse_payload
from toolwire.harness.schemas import validate_payload

# SGLang writes nulls for absent fields (sgl-project/sglang#4550).
SGLANG_RESPONSE = {
    "id": "2c8a5f0e1b6a4f53a0b4d4c0b2f2e7a1",
    "object": "chat.completion",
    "created": 1741420000,
    "model": "Qwen/Qwen3-Coder-30B-A3B-Instruct",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Done.", "tool_calls": None},
            "logprobs": None,
            "finish_reason": "stop",
            "matched_stop": 151645,
        }
    ],
    "usage": {"prompt_tokens": 20, "completion_tokens": 3, "total_tokens": 23},
}
SGLANG_CHUNKS = [
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "delta": {"role": "assistant", "content": "", "tool_calls": None},
                "logprobs": None,
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "delta": {"role": None, "content": "Done.", "tool_calls": None},
                "logprobs": None,
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "delta": {"role": None, "content": None, "tool_calls": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
    },
]


def test_sglang_nulls_are_valid_and_readable() -> None:
    assert validate_payload("openai-chat", "response", SGLANG_RESPONSE) == []
    for chunk in SGLANG_CHUNKS:
        assert validate_payload("openai-chat", "stream", chunk) == []
    response = parse_payload("openai-chat", "response", SGLANG_RESPONSE, "openai").response
    assert response is not None and response.message.text == "Done."
    events = [{"event": None, "data": c} for c in SGLANG_CHUNKS] + [
        {"event": None, "data": "[DONE]"}
    ]
    stream = parse_payload("openai-chat", "stream", events, "openai")
    assert stream.stream is not None and stream.stream.issues == ()
    assert stream.stream.response.message.text == "Done."
