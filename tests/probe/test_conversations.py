"""The probe end to end: five kinds of model, each served by the replay upstream.

Every kind's recorded conversation must yield its expected profile, and the
probe must send exactly the recorded requests (each one matched a
recording; nothing unmatched).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.probe.support import KINDS, probe, recorded_path, serving
from toolwire.harness.probe.schema import validate_profile

DIMENSIONS = (
    "toolCallFormat",
    "schemaLevel",
    "supportsParallelToolUse",
    "requiresReasoningReplay",
    "supportsStreamingToolUse",
    "errorRepair",
)
ALL_PASS = {
    "basicFormat": "pass",
    "schemaAdherence": "pass",
    "singleToolLoop": "pass",
    "parallelCalls": "pass",
    "errorRepair": "pass",
    "reasoningState": "pass",
    "streaming": "pass",
}
EXPECTED: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "openai": (
        {
            "toolCallFormat": "openai",
            "schemaLevel": "strict-json-schema",
            "supportsParallelToolUse": True,
            "requiresReasoningReplay": False,
            "supportsStreamingToolUse": True,
            "errorRepair": "reliable",
        },
        ALL_PASS,
    ),
    "anthropic": (
        {
            "toolCallFormat": "anthropic",
            "schemaLevel": "strict-json-schema",
            "supportsParallelToolUse": True,
            "requiresReasoningReplay": False,
            "supportsStreamingToolUse": True,
            "errorRepair": "reliable",
        },
        ALL_PASS,
    ),
    "qwen": (
        {
            "toolCallFormat": "xml",
            "schemaLevel": "strict-json-schema",
            "supportsParallelToolUse": True,
            "requiresReasoningReplay": False,
            "supportsStreamingToolUse": True,
            "errorRepair": "reliable",
        },
        ALL_PASS,
    ),
    "deepseek": (
        {
            "toolCallFormat": "openai",
            "schemaLevel": "strict-json-schema",
            "supportsParallelToolUse": True,
            "requiresReasoningReplay": True,
            "supportsStreamingToolUse": True,
            "errorRepair": "reliable",
        },
        ALL_PASS,
    ),
    "no-parallel": (
        {
            "toolCallFormat": "openai",
            "schemaLevel": "simple-object",
            "supportsParallelToolUse": False,
            "requiresReasoningReplay": False,
            "supportsStreamingToolUse": True,
            "errorRepair": "none",
        },
        {
            **ALL_PASS,
            "schemaAdherence": "partial",
            "parallelCalls": "fail",
            "errorRepair": "fail",
        },
    ),
}
# Requests each probe sends: 10 for every kind (1+1+2+1+2+0+3), plus the
# continuation without reasoning and the replayed retry for DeepSeek.
REQUESTS = {"openai": 10, "anthropic": 10, "qwen": 10, "deepseek": 12, "no-parallel": 10}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_of_model_gets_its_profile(name: str) -> None:
    kind = KINDS[name]
    expected, statuses = EXPECTED[name]
    with serving(kind) as (upstream, base_url):
        run = probe(kind, base_url)
        received = upstream.received()
    document = run.profile.as_json()
    assert {key: document[key] for key in DIMENSIONS} == expected
    assert {key: item["status"] for key, item in document["evidence"].items()} == statuses
    assert validate_profile(document) == []
    assert len(received) == REQUESTS[name]
    assert [r.miss for r in received if r.matched is None] == []
    assert {r.path for r in received} == {recorded_path(kind)}
    assert document["binding"]["model"] == kind.model
    assert document["binding"]["endpoint"] == base_url + recorded_path(kind).removeprefix(
        kind.base_path
    )


def test_the_deepseek_probe_learns_replay_from_the_400_then_succeeds_with_it() -> None:
    kind = KINDS["deepseek"]
    with serving(kind) as (upstream, base_url):
        run = probe(kind, base_url)
        received = upstream.received()
    refused = [r for r in received if r.body["messages"][2:3] and _lacks_reasoning(r.body)]
    assert len(refused) == 1  # sent once without reasoning_content, on purpose
    evidence = run.profile.as_json()["evidence"]["reasoningState"]
    assert "HTTP 400" in evidence["reason"]
    assert "must be passed back" in evidence["reason"]
    assert evidence["requests"] == 2
    # Every other continuation carried the reasoning it got.
    continuations = [r for r in received if len(r.body["messages"]) > 2]
    assert len(continuations) - len(refused) == 4


def test_the_qwen_probe_reads_xml_in_text_with_the_incremental_parser_when_streamed() -> None:
    kind = KINDS["qwen"]
    with serving(kind) as (_upstream, base_url):
        run = probe(kind, base_url)
    evidence = run.profile.as_json()["evidence"]
    assert evidence["basicFormat"]["parser"] == "qwen_xml"
    assert evidence["streaming"]["parser"] == "qwen_xml incremental"
    assert evidence["streaming"]["format"] == "xml"


def test_the_model_without_parallel_support_is_explained() -> None:
    kind = KINDS["no-parallel"]
    with serving(kind) as (_upstream, base_url):
        run = probe(kind, base_url)
    evidence = run.profile.as_json()["evidence"]
    assert evidence["parallelCalls"]["reason"] == "one call only (probe_echo) where two were asked"
    assert evidence["schemaAdherence"]["failures"][0] == (
        "probe_echo meta.priority: '2' is not of type 'integer'"
    )
    assert evidence["errorRepair"]["reason"].startswith("drifted into prose after the error")


def _lacks_reasoning(body: dict[str, Any]) -> bool:
    return any(
        message["role"] == "assistant" and "reasoning_content" not in message
        for message in body["messages"]
    )
