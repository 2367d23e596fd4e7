"""What each official SDK's own tests expect its stream accumulator to build
from the fixtures beside this file (sources: SOURCES.md).

openai-python: the ``snapshot(...)`` of the final choices in
tests/lib/chat/test_completions_streaming.py, per fixture (file name = the
test, hash prefix noted). anthropic-sdk-python: the EXPECTED_* messages and
the assert_* helpers of tests/lib/streaming/test_beta_messages.py and
test_messages.py. anthropic-sdk-typescript: the EXPECTED_* messages of
tests/api-resources/BetaMessageStream.test.ts. Only what those tests assert
is listed; a fixture whose test asserts little (the fable-fallback streams)
is held to its stop reason.
"""

from __future__ import annotations

from typing import Any

WEATHER_TEXT = (
    "I'm unable to provide real-time weather updates. To get the current weather in San "
    "Francisco, I recommend checking a reliable weather website or a weather app."
)


def _choice(
    finish: str,
    content: str | None = None,
    refusal: str | None = None,
    calls: tuple[tuple[str, str, str], ...] = (),
    index: int = 0,
) -> dict[str, Any]:
    return {
        "index": index,
        "finish_reason": finish,
        "content": content,
        "refusal": refusal,
        "tool_calls": [{"id": i, "name": n, "arguments": a} for i, n, a in calls],
    }


# file -> the final choices (test name; external snapshot hash prefix)
OPENAI_PYTHON: dict[str, list[dict[str, Any]]] = {
    # test_parse_nothing; e2aad469b71d
    "parse_nothing.sse": [_choice("stop", WEATHER_TEXT)],
    # test_parse_pydantic_model_multiple_choices; a491adda08c3
    "multiple_choices.sse": [
        _choice("stop", '{"city":"San Francisco","temperature":65,"units":"f"}', index=0),
        _choice("stop", '{"city":"San Francisco","temperature":61,"units":"f"}', index=1),
        _choice("stop", '{"city":"San Francisco","temperature":59,"units":"f"}', index=2),
    ],
    # test_parse_pydantic_model_refusal; 173417d55340
    "refusal.sse": [_choice("stop", refusal="I'm sorry, I can't assist with that request.")],
    # test_content_logprobs_events; 83b060bae42e
    "content_logprobs.sse": [_choice("stop", "Foo!")],
    # test_refusal_logprobs_events; 569c877e6942
    "refusal_logprobs.sse": [
        _choice("stop", refusal="I'm very sorry, but I can't assist with that.")
    ],
    # test_parse_pydantic_tool; c6aa7e397b71
    "pydantic_tool.sse": [
        _choice(
            "tool_calls",
            calls=(
                (
                    "call_c91SqDXlYFuETYv8mUHzz6pp",
                    "GetWeatherArgs",
                    '{"city":"Edinburgh","country":"UK","units":"c"}',
                ),
            ),
        )
    ],
    # test_parse_multiple_pydantic_tools; f82268f2fefd
    "multiple_tools.sse": [
        _choice(
            "tool_calls",
            calls=(
                (
                    "call_JMW1whyEaYG438VE1OIflxA2",
                    "GetWeatherArgs",
                    '{"city": "Edinburgh", "country": "GB", "units": "c"}',
                ),
                (
                    "call_DNYTawLBoN8fj3KN6qU9N1Ou",
                    "get_stock_price",
                    '{"ticker": "AAPL", "exchange": "NASDAQ"}',
                ),
            ),
        )
    ],
    # test_parse_strict_tools; a247c49c5fcd
    "strict_tools.sse": [
        _choice(
            "tool_calls",
            calls=(
                (
                    "call_CTf1nWJLqSeRgDqaCG27xZ74",
                    "get_weather",
                    '{"city":"San Francisco","state":"CA"}',
                ),
            ),
        )
    ],
    # test_allows_non_strict_tools_but_no_parsing; 2018feb66ae1
    "non_strict_tools.sse": [
        _choice(
            "tool_calls",
            calls=(("call_4XzlGBLtUe9dy3GVNV4jhq7h", "get_weather", '{"city":"New York City"}'),),
        )
    ],
}
# test_parse_max_tokens_reached (4cc50a6135d2) asserts only that the stream
# ends with finish_reason "length" (the helper raises LengthFinishReasonError).
OPENAI_PYTHON_FINISH_ONLY = {"max_tokens_reached.sse": "length"}
# The logprob tokens the choice accumulates (test_content_logprobs_events,
# test_refusal_logprobs_events).
OPENAI_PYTHON_LOGPROBS = {
    "content_logprobs.sse": ("content", ["Foo", "!"]),
    "refusal_logprobs.sse": (
        "refusal",
        ["I'm", " very", " sorry", ",", " but", " I", " can't", " assist", " with", " that", "."],
    ),
}

TAX_TEXT = (
    "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a "
    "file called taxes.txt. Let me do that for you now."
)
TAX_TITLE = "# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s"
WEATHER_CALL_TEXT = "I'll check the current weather in Paris for you."
TOOL_USE_USAGE = {
    "input_tokens": 377,
    "output_tokens": 65,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
    "service_tier": "standard",
}
INCOMPLETE_USAGE = {**TOOL_USE_USAGE, "input_tokens": 450, "output_tokens": 124}


def _tool_use(call_id: str, name: str, arguments: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments, **extra}


# file -> the message fields the SDK's test compares (a subset of the message)
ANTHROPIC_PYTHON: dict[str, dict[str, Any]] = {
    "basic_response.sse": {
        "id": "msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK",
        "model": "claude-3-opus-latest",
        "role": "assistant",
        "stop_reason": "end_turn",
        "type": "message",
        "content": [{"type": "text", "text": "Hello there!"}],
        "usage": {"input_tokens": 11, "output_tokens": 6},
    },
    "tool_use_response.sse": {
        "id": "msg_019Q1hrJbZG26Fb9BQhrkHEr",
        "model": "claude-sonnet-4-20250514",
        "role": "assistant",
        "stop_reason": "tool_use",
        "type": "message",
        "content": [
            {"type": "text", "text": WEATHER_CALL_TEXT},
            _tool_use(
                "toolu_01NRLabsLyVHZPKxbKvkfSMn",
                "get_weather",
                {"location": "Paris"},
                caller={"type": "direct"},
            ),
        ],
        "usage": TOOL_USE_USAGE,
    },
    "incomplete_partial_json_response.sse": {
        "id": "msg_01UdjYBBipA9omjYhicnevgq",
        "model": "claude-3-7-sonnet-20250219",
        "role": "assistant",
        "stop_reason": "max_tokens",
        "type": "message",
        "content": [
            {"type": "text", "text": TAX_TEXT},
            _tool_use(
                "toolu_01EKqbqmZrGRXy18eN7m9kvY",
                "make_file",
                {
                    "filename": "taxes.txt",
                    "lines_of_text": [TAX_TITLE, "", "## INTRODUCTION", ""],
                },
            ),
        ],
        "usage": INCOMPLETE_USAGE,
    },
    "compaction_response.sse": {
        "id": "msg_01CompactionEncryptedContent01",
        "model": "claude-opus-4-7",
        "role": "assistant",
        "stop_reason": "end_turn",
        "type": "message",
        "content": [
            {
                "type": "compaction",
                "content": "Earlier conversation summarized.",
                "encrypted_content": "EpwBCioIDxgCEAEYASJALd_opaque_compaction_payload",
            },
            {"type": "text", "text": "Hello there!"},
        ],
        "usage": {"input_tokens": 30, "output_tokens": 8},
    },
    # assert_refusal_response
    "refusal_response.sse": {
        "stop_reason": "refusal",
        "stop_details": {
            "type": "refusal",
            "category": "cyber",
            "explanation": "This request was refused due to policy.",
        },
    },
    # assert_fallback_response: the model relabeled from the fallback block
    "fallback_response.sse": {"model": "claude-sonnet-4-5"},
    # assert_fallback_credit_response
    "fallback_credit_response.sse": {
        "usage": {
            "input_tokens": 25,
            "output_tokens": 8,
            "fallback_credit": {"status": {"type": "redeemed"}},
        }
    },
    # tests/lib/test_refusal_fallback_streaming.py (stop reasons it reads)
    "fable-stream-a-refusal.sse": {"stop_reason": "refusal"},
    "fable-stream-a-toolrefusal.sse": {"stop_reason": "refusal"},
    "fable-stream-b-fallback.sse": {"stop_reason": "end_turn"},
}
# Block types the fallback test reads (content[0].type, content[1] text).
ANTHROPIC_PYTHON_BLOCKS = {
    "fallback_response.sse": [("fallback", None), ("text", "Hello there!")],
}

ANTHROPIC_TYPESCRIPT: dict[str, dict[str, Any]] = {
    "basic_response.sse": {
        **ANTHROPIC_PYTHON["basic_response.sse"],
        "model": "claude-opus-4-8",
        "stop_sequence": None,
    },
    "tool_use_response.sse": {
        "id": "msg_019Q1hrJbZG26Fb9BQhrkHEr",
        "model": "claude-opus-4-8",
        "role": "assistant",
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "type": "message",
        "content": [
            {"type": "text", "text": WEATHER_CALL_TEXT},
            _tool_use("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"}),
        ],
        "usage": TOOL_USE_USAGE,
    },
}

# Where the SDKs disagree, toolwire follows anthropic-sdk-python (jiter's
# partial mode, the parser it shares): the TypeScript SDK's vendored
# partial-json-parser keeps only the first element of the cut array.
TYPESCRIPT_SPLITS: dict[str, dict[str, Any]] = {
    "incomplete_partial_json_response.sse": {
        "typescript": {"filename": "taxes.txt", "lines_of_text": [TAX_TITLE]},
        "python": {
            "filename": "taxes.txt",
            "lines_of_text": [TAX_TITLE, "", "## INTRODUCTION", ""],
        },
    }
}
