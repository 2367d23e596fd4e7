"""Correct openai-responses streams that differ from the reference pass
stream.item_reference and stream.item_call_id (their broken twins are in
broken_responses_items.py).

* no ``sequence_number`` on any event: what api.openai.com itself streamed
  before the field existed (recorded traffic of 2025, e.g. the pydantic-ai and
  llm-openai-plugin recordings in the shared real transcripts);
* each call whole in ``output_item.added`` (call_id, name and arguments) with
  no argument deltas, the done event repeating it;
* function_call item ids another server minted (UUIDs, as DeepSeek's), which
  pairing.call_id_as_item_id leaves alone: only a call id or an empty string
  in ``id`` is its failure.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.selftest.broken_base import OPENAI
from tests.selftest.broken_responses_api import RESPONSES, STREAMS_TO_RESPONSES, _events
from tests.selftest.broken_responses_items import STREAMED_CALLS, ResponsesDoneCallIdEmpty
from tests.selftest.test_broken_adapters import run
from tests.selftest.test_stream_variants import Variant
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus


class ResponsesUnnumberedStream(Variant):
    varies = "stream.item_reference"
    defect = "no sequence_number on any event (api.openai.com's streams before the field)"
    damaged = STREAMS_TO_RESPONSES
    judged_on = STREAMED_CALLS

    def damage(self, output: Any, payload: Any, direction: Any) -> Any:
        for event in _events(output):
            event.pop("sequence_number", None)
        return output


class ResponsesWholeCallAdded(Variant):
    varies = "stream.item_call_id"
    defect = "each call whole in output_item.added, no argument deltas"
    damaged = STREAMS_TO_RESPONSES
    judged_on = STREAMED_CALLS

    def damage(self, output: Any, payload: Any, direction: Any) -> Any:
        done = {
            event["output_index"]: event["item"]
            for event in _events(output)
            if event.get("type") == "response.output_item.done"
        }
        kept = []
        for event in output:
            data: dict[str, Any] = event.get("data") or {}
            kind = data.get("type")
            if kind == "response.function_call_arguments.delta":
                continue
            if kind == "response.output_item.added" and data["item"].get("type") == (
                "function_call"
            ):
                data["item"] = dict(done[data["output_index"]])
            kept.append(event)
        for number, data in enumerate(_events(kept)):
            data["sequence_number"] = number
        return kept


class ResponsesServerItemIds(Variant):
    """Item ids another server of the dialect minted: DeepSeek's Responses
    endpoint gives its items UUIDs and accepts them back (a recorded replay in
    the shared real transcripts). Only where the source has no reasoning:
    an item id tied to no reasoning (reasoning.item_separated judges the rest)."""

    varies = "pairing.call_id_as_item_id"
    defect = "sends each function_call with a UUID item id, as DeepSeek mints them"
    damaged = frozenset({("request", OPENAI, RESPONSES)})
    # A trip back from openai-chat carries no reasoning to tie the ids to.
    no_round_trip = True
    judged_on = ("single-tool/weather-openai",)

    def damage(self, output: Any, payload: Any, direction: Any) -> Any:
        items = [i for i in output.get("input") or () if isinstance(i, dict)]
        messages = payload.get("messages") if isinstance(payload, dict) else None
        if any(
            isinstance(m, dict) and ("reasoning_content" in m or "reasoning" in m)
            for m in messages or ()
        ):
            return output  # the source's calls had reasoning before them
        for n, item in enumerate(items):
            if item.get("type") == "function_call":
                item["id"] = f"84cf774d-60a1-4e20-85e3-{n:012d}"
        return output


VARIANTS = (ResponsesUnnumberedStream, ResponsesWholeCallAdded, ResponsesServerItemIds)


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.__name__)
def test_a_correct_variant_passes_the_rule_it_varies(
    variant: type[Variant], bundled: Corpus
) -> None:
    result = run(variant(), bundled)
    failing = [f"{v.item_id}: {v.message}" for v in result.verdicts if v.is_failure]
    assert failing == []
    on_rule = [v for v in result.verdicts if v.rule_code == variant.varies]
    assert [v.message for v in on_rule if v.outcome in ("fail", "warn")] == []
    exercised = {v.case_id for v in on_rule if v.outcome == "pass"}
    assert set(variant.judged_on) <= exercised, f"{variant.varies} was not exercised"


def test_the_broken_twin_really_empties_the_done_call_id() -> None:
    events = [
        {
            "event": None,
            "data": {
                "type": "response.output_item.done",
                "output_index": 0,
                "item": {"type": "function_call", "call_id": "call_1", "name": "f"},
            },
        }
    ]
    changed = ResponsesDoneCallIdEmpty().damage(events, None, ("", "", ""))
    assert changed[0]["data"]["item"]["call_id"] == ""
