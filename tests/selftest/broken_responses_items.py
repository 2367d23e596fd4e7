"""Broken adapters for the items of an openai-responses stream: the call_id
of a function_call stated in ``response.output_item.done``, the
``sequence_number`` and ``item_id`` of its events.

Each is the reference converting a stream into openai-responses, then one
defect the way a gateway writes it: a done event built from a fresh item
whose call_id was never filled in, events serialised without the fields the
reference numbers them with.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import OPENAI, BrokenAdapter, Json, Triple
from tests.selftest.broken_responses_api import RESPONSES, STREAMS_TO_RESPONSES, _events

STREAMED_CALLS = ("streaming/parallel-anthropic", "streaming/parallel-openai")
_CONTENT_EVENTS = (".delta",)


class ResponsesDoneCallIdEmpty(BrokenAdapter):
    breaks = "stream.item_call_id"
    defect = "sends call_id '' in response.output_item.done (the final Response keeps the id)"
    damaged = STREAMS_TO_RESPONSES
    shows_on = STREAMED_CALLS

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for event in _events(output):
            item = event.get("item")
            done = event.get("type") == "response.output_item.done"
            if done and isinstance(item, dict) and item.get("type") == "function_call":
                item["call_id"] = ""
        return output


class ResponsesDeltaUnnumbered(BrokenAdapter):
    breaks = "stream.item_reference"
    defect = "numbers every event but the deltas (no sequence_number on *.delta events)"
    damaged = STREAMS_TO_RESPONSES
    shows_on = STREAMED_CALLS

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for event in _events(output):
            if str(event.get("type", "")).endswith(_CONTENT_EVENTS):
                event.pop("sequence_number", None)
        return output


class ResponsesDeltaWithoutItemId(BrokenAdapter):
    breaks = "stream.item_reference"
    defect = "sends its delta events with output_index only, no item_id"
    damaged = STREAMS_TO_RESPONSES
    shows_on = STREAMED_CALLS

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for event in _events(output):
            if str(event.get("type", "")).endswith(_CONTENT_EVENTS):
                event.pop("item_id", None)
        return output


def _function_calls(payload: Any) -> list[Json]:
    items = payload.get("input") if isinstance(payload, dict) else None
    return [i for i in items or () if isinstance(i, dict) and i.get("type") == "function_call"]


class ResponsesCallIdAsItemId(BrokenAdapter):
    breaks = "pairing.call_id_as_item_id"
    defect = "writes each function_call's call_id into its item id too (id: 'call_...')"
    damaged = frozenset({("request", OPENAI, RESPONSES)})
    shows_on = ("single-tool/weather-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for item in _function_calls(output):
            item["id"] = item.get("call_id")
        return output
