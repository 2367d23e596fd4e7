"""Correct converters that differ from the reference pass the stream rules.

Each variant below does one thing differently from the reference adapter, in
a way the dialect allows; the rule it varies must be exercised on the cases
named and give no failure or warning there, and no MUST rule may fail
anywhere (the broken twins of these rules are in broken_streams.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.selftest.broken_base import (
    ANTHROPIC,
    OPENAI,
    BrokenAdapter,
    Triple,
    call_fragments,
    stream_chunks,
)
from tests.selftest.broken_streams import FORCED_TOOL_ANSWERS
from tests.selftest.test_broken_adapters import run
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

STREAM_TO_OPENAI: frozenset[Triple] = frozenset({("stream", ANTHROPIC, OPENAI)})
STREAM_CASES = ("streaming/parallel-anthropic", "thinking/stream-anthropic")

# Azure OpenAI's first chunk: empty choices, empty id, model and object.
AZURE_FILTER_CHUNK: dict[str, Any] = {
    "choices": [],
    "created": 0,
    "id": "",
    "model": "",
    "object": "",
    "prompt_filter_results": [
        {"prompt_index": 0, "content_filter_results": {"hate": {"filtered": False}}}
    ],
}


class Variant(BrokenAdapter):
    """A correct variant: ``varies`` is the rule whose ground it changes."""

    varies = ""
    judged_on: tuple[str, ...] = ()


class OwnChunkIdBehindAzureFilter(Variant):
    varies = "stream.chunk_id"
    defect = "its own id on every chunk, after an Azure content-filter chunk with an empty id"
    damaged = STREAM_TO_OPENAI
    judged_on = STREAM_CASES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for chunk in stream_chunks(output):
            chunk["id"] = "chatcmpl-gateway-7f3a"
        return [{"event": None, "data": dict(AZURE_FILTER_CHUNK)}, *output]


class WholeCallsFromZero(Variant):
    varies = "stream.call_index"
    defect = "each call whole in its first fragment (Groq style), indices 0, 1, ..."
    damaged = STREAM_TO_OPENAI
    judged_on = STREAM_CASES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        first: dict[int, dict[str, Any]] = {}
        for fragment in call_fragments(output):
            function = fragment.setdefault("function", {})
            if fragment["index"] not in first:
                first[fragment["index"]] = fragment
                function["arguments"] = function.get("arguments") or ""
                continue
            head = first[fragment["index"]]["function"]
            head["arguments"] += function.pop("arguments", "") or ""
        for chunk in stream_chunks(output):
            for choice in chunk.get("choices") or ():
                delta = choice.get("delta") or {}
                kept = [f for f in delta.get("tool_calls") or () if "arguments" in f["function"]]
                if "tool_calls" in delta:
                    delta["tool_calls"] = kept or None
        return output


class ForcedToolAnswerForwarded(Variant):
    # 'stop' beside calls is what OpenAI itself sends, so the rule has nothing
    # to say about the forwarded copy (no verdict, not a failure); the same
    # cases' anthropic-messages outputs are where the rule is exercised.
    varies = "fidelity.stop_reason_content"
    defect = "forwards OpenAI's answer to a forced tool_choice ('stop' beside the calls) as is"
    pass_through: frozenset[Triple] = frozenset({("response", OPENAI, OPENAI)})
    damaged = pass_through
    judged_on = FORCED_TOOL_ANSWERS

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        return output


VARIANTS = (OwnChunkIdBehindAzureFilter, WholeCallsFromZero, ForcedToolAnswerForwarded)


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


def test_the_variants_really_differ_from_the_reference() -> None:
    events = [
        {"event": None, "data": {"id": "a", "choices": [{"index": 0, "delta": {}}]}},
    ]
    changed = OwnChunkIdBehindAzureFilter().damage(
        json.loads(json.dumps(events)), None, ("", "", "")
    )
    assert changed[0]["data"]["id"] == "" and changed[1]["data"]["id"] == "chatcmpl-gateway-7f3a"
