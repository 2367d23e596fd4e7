"""Responses items the server writes, and raw reasoning streamed as
``response.reasoning_text.*``, in the shapes real recordings carry them
(vercel-ai openai-tool-search.1: a hosted tool search answers with a
``tool_search_call`` and a ``tool_search_output``, both ``"execution":
"server"``; pydantic-ai's client tool search: the same output item with
``"execution": "client"``, written by the client)."""

from __future__ import annotations

import json
from typing import Any

from toolwire.harness.dialects import get_codec
from toolwire.harness.model import SSEEvent, ThinkingBlock

CODEC = get_codec("openai-responses")


def _search(execution: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "tool_search_call",
            "id": "tsc_1",
            "call_id": None if execution == "server" else "call_ts",
            "execution": execution,
            "arguments": {"paths": ["get_weather"]},
            "status": "completed",
        },
        {
            "type": "tool_search_output",
            **({"id": "tso_1"} if execution == "server" else {}),
            "call_id": None if execution == "server" else "call_ts",
            "execution": execution,
            "tools": [{"type": "function", "name": "get_weather", "parameters": {}}],
            "status": "completed",
        },
    ]


def _request(execution: str) -> dict[str, Any]:
    return {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "Weather in Paris?"},
            *_search(execution),
            {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": "{}",
            },
            {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        ],
    }


def test_a_server_written_output_item_stays_in_the_assistant_turn() -> None:
    body = _request("server")
    conversation = CODEC.parse_request(body)
    assert [(t.role, len(t.blocks)) for t in conversation.turns] == [
        ("user", 1),
        ("assistant", 3),  # the search, its server-written output, the call: one turn
        ("tool", 1),
    ]
    assert CODEC.render_request(conversation) == body


def test_a_client_written_output_item_is_the_clients_turn() -> None:
    conversation = CODEC.parse_request(_request("client"))
    assert [t.role for t in conversation.turns] == [
        "user",
        "assistant",
        "item",
        "assistant",
        "tool",
    ]


def _event(kind: str, **fields: Any) -> SSEEvent:
    return SSEEvent(data=json.dumps({"type": kind, **fields}), event=kind)


def test_reasoning_text_events_build_the_reasoning_items_content() -> None:
    item = {"id": "rs_1", "type": "reasoning", "summary": [], "content": []}
    done = {**item, "content": [{"type": "reasoning_text", "text": "think hard"}]}
    where = {"item_id": "rs_1", "output_index": 0, "content_index": 0}
    events = [
        _event("response.created", sequence_number=0, response={"id": "r", "output": []}),
        _event("response.output_item.added", sequence_number=1, output_index=0, item=item),
        _event("response.reasoning_text.delta", sequence_number=2, delta="think ", **where),
        _event("response.reasoning_text.delta", sequence_number=3, delta="hard", **where),
        _event("response.reasoning_text.done", sequence_number=4, text="think hard", **where),
        _event("response.output_item.done", sequence_number=5, output_index=0, item=done),
        _event("response.completed", sequence_number=6, response={"id": "r"}),
    ]
    # The terminal Response here leaves its output out: the items the stream built are read.
    transcript = CODEC.parse_stream(events)
    assert transcript.issues == ()
    (block,) = transcript.response.choices[0].message.blocks
    assert isinstance(block, ThinkingBlock)
    assert block.text == "think hard"


def test_reasoning_text_deltas_alone_are_the_reasoning() -> None:
    """Without a .done event or a finished item, the deltas are all there is."""
    item = {"id": "rs_1", "type": "reasoning", "summary": [], "content": []}
    where = {"item_id": "rs_1", "output_index": 0, "content_index": 0}
    events = [
        _event("response.created", sequence_number=0, response={"id": "r", "output": []}),
        _event("response.output_item.added", sequence_number=1, output_index=0, item=item),
        _event("response.reasoning_text.delta", sequence_number=2, delta="think ", **where),
        _event("response.reasoning_text.delta", sequence_number=3, delta="hard", **where),
        _event("response.completed", sequence_number=4, response={"id": "r"}),
    ]
    (block,) = CODEC.parse_stream(events).response.choices[0].message.blocks
    assert isinstance(block, ThinkingBlock)
    assert block.text == "think hard"
