"""What Chat Completions bridges write in Responses form, read as the API means it.

A bridge (the Agents SDK's Chat Completions model, gpt-oss servers) carries
raw reasoning in a reasoning item's ``content`` (``reasoning_text`` parts,
"Reasoning text content" in the Response object reference) rather than its
``summary``; and its stream's terminal Response may leave ``status`` out,
the event's type (``response.completed``) saying it instead.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.fidelity.stop_reason import check_stop_reason
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import GEMINI, OPENAI_CHAT, OPENAI_RESPONSES, SSEEvent, ThinkingBlock

CODEC = get_codec(OPENAI_RESPONSES)

RAW_REASONING: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "status": "completed",
    "model": "Qwen/Qwen3-32B",
    "output": [
        {
            "id": "rs_1",
            "type": "reasoning",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "Search for the constant."}],
        },
        {
            "id": "fc_1",
            "type": "function_call",
            "call_id": "call_1",
            "name": "grep",
            "arguments": '{"pattern": "MAX"}',
        },
    ],
}


def _thinking(payload: dict[str, Any]) -> ThinkingBlock:
    block = CODEC.parse_response(copy.deepcopy(payload)).message.blocks[0]
    assert isinstance(block, ThinkingBlock)
    return block


def test_reasoning_content_is_the_reasoning_text_and_round_trips() -> None:
    assert _thinking(RAW_REASONING).text == "Search for the constant."
    rendered = CODEC.render_response(CODEC.parse_response(copy.deepcopy(RAW_REASONING)))
    assert rendered == RAW_REASONING  # no summary invented beside the content


def test_a_summary_wins_over_the_content() -> None:
    both = copy.deepcopy(RAW_REASONING)
    both["output"][0]["summary"] = [{"type": "summary_text", "text": "Summary."}]
    assert _thinking(both).text == "Summary."
    neither = copy.deepcopy(RAW_REASONING)
    neither["output"][0]["content"] = [{"type": "output_text", "text": "not reasoning"}]
    assert _thinking(neither).text is None


def _stream(status: Any, terminal: str = "response.completed") -> list[SSEEvent]:
    response = {"id": "resp_1", "object": "response", "model": "m", "output": []}
    if status is not None:
        response["status"] = status
    datas = [
        {"type": "response.created", "sequence_number": 0, "response": response},
        {"type": terminal, "sequence_number": 1, "response": response},
    ]
    return [SSEEvent(json.dumps(d), d["type"]) for d in datas]


def test_a_terminal_response_without_status_takes_the_events_type() -> None:
    assert CODEC.parse_stream(_stream(None)).response.stop_reason.canonical == "end_turn"
    incomplete = CODEC.parse_stream(_stream(None, "response.incomplete")).response
    assert incomplete.stop_reason.raw == "incomplete"
    # A status the Response states is kept as it is.
    stated = CODEC.parse_stream(_stream("incomplete")).response
    assert stated.stop_reason.raw == "incomplete"


def _payload(dialect: str, body: dict[str, Any]) -> PayloadUnderTest:
    codec = get_codec(dialect)
    return PayloadUnderTest(dialect, "response", dialect, body, codec.parse_response(body))


def test_stop_reason_message_names_the_targets_own_field() -> None:
    truncated = {
        "id": "c",
        "object": "chat.completion",
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "partial"},
                "finish_reason": "length",
            }
        ],
    }
    completed = {
        "id": "r",
        "object": "response",
        "status": "completed",
        "model": "m",
        "output": [
            {
                "id": "msg_0",
                "type": "message",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "partial", "annotations": []}],
            }
        ],
    }
    found = check_stop_reason(
        _payload(OPENAI_CHAT, truncated), _payload(OPENAI_RESPONSES, completed)
    )
    assert found and found[0].path == "status"
    assert "'incomplete (max_output_tokens)'" in found[0].message
    stopped = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "partial"}]}, "finishReason": "STOP"}
        ]
    }
    found = check_stop_reason(_payload(OPENAI_CHAT, truncated), _payload(GEMINI, stopped))
    assert found and found[0].path == "candidates[0].finishReason"
    assert "'MAX_TOKENS'" in found[0].message
