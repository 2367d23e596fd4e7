"""stream.done_consistent says where a Responses stream contradicts itself:
the field, the item (its id and output index) and both values, what the
later statement says and what the earlier events built (issue 27)."""

from __future__ import annotations

import json
from typing import Any

from tests.dialects.responses_fixtures import REASONING_RESPONSE, TEXT_RESPONSE
from toolwire.conformance.stream.responses_events import check_done_consistent
from toolwire.harness.dialects import get_codec
from toolwire.harness.model import MAX_ISSUE_VALUE, OPENAI_RESPONSES, SSEEvent

CODEC = get_codec(OPENAI_RESPONSES)


def _events(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(e.data) for e in CODEC.render_stream(CODEC.parse_response(payload))]


def _messages(datas: list[dict[str, Any]]) -> list[str]:
    stream = CODEC.parse_stream([SSEEvent(json.dumps(d), d.get("type")) for d in datas])
    return [found.message for found in check_done_consistent(stream)]


def _function_call(output: list[dict[str, Any]]) -> dict[str, Any]:
    return next(item for item in output if item["type"] == "function_call")


def test_output_mismatch_names_the_field_the_item_and_both_values() -> None:
    datas = _events(REASONING_RESPONSE)
    _function_call(datas[-1]["response"]["output"])["arguments"] = '{"city": "Lyon"}'
    (message,) = _messages(datas)
    assert "output[1]" in message and "'fc_01'" in message and "output_index 1" in message
    assert "arguments" in message
    assert """the final Response says '{"city": "Lyon"}'""" in message
    assert """the stream's events built '{"city": "Paris"}'""" in message


def test_output_mismatch_of_the_item_count_lists_both_outputs() -> None:
    datas = _events(REASONING_RESPONSE)
    datas[-1]["response"]["output"] = datas[-1]["response"]["output"][:1]
    (message,) = _messages(datas)
    assert "has 1 item, the stream's events finished 3 items" in message
    assert "the final Response says 'reasoning rs_0a1b2c3d'" in message


def test_done_text_mismatch_shows_what_the_done_event_said_and_the_deltas_built() -> None:
    datas = _events(TEXT_RESPONSE)
    next(d for d in datas if d["type"] == "response.output_text.delta")["delta"] = "The capital"
    text_done, item_done = _messages(datas)
    assert "output_index 0" in text_done and "msg_" in text_done
    assert "the .done event says 'The capital of PotatoLand is Potato City.'" in text_done
    assert "the deltas joined to 'The capital'" in text_done
    assert "content[0].text" in item_done and "the deltas built 'The capital'" in item_done


def test_long_values_are_cut_and_redacted() -> None:
    secret = "sk-proj-" + "Ab3" * 20
    datas = _events(REASONING_RESPONSE)
    arguments = json.dumps({"key": secret, "notes": "x" * 5000})
    _function_call(datas[-1]["response"]["output"])["arguments"] = arguments
    stream = CODEC.parse_stream([SSEEvent(json.dumps(d), d.get("type")) for d in datas])
    (issue,) = [i for i in stream.issues if i.code == "output_mismatch"]
    assert issue.said is not None and len(issue.said) <= MAX_ISSUE_VALUE
    (message,) = _messages(datas)
    assert secret not in message and len(message) < 400
