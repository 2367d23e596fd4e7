"""The blind spots of issue 14, through the engine: correct but different
converters pass the new rules, the reference passes them on the cases that
exercise them, and the broken adapters of ``broken_blind`` (run by
test_broken_adapters for their code and no other MUST) show what they show.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from tests.selftest.broken_base import (
    ANTHROPIC,
    OPENAI,
    BrokenAdapter,
    Json,
    Triple,
    blocks,
    stream_chunks,
)
from tests.selftest.broken_blind import CallsSplitIntoTurns, ResponseReasoningStripped
from tests.selftest.reach import focused
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.engine.verdicts import Verdict

NEW_RULES = (
    "reasoning.dropped",
    "reasoning.not_carried",
    "reasoning.invented",
    "reasoning.signature_invented",
    "ordering.parallel_calls_split",
)
THINKING_CASES = ("thinking/tool-use-anthropic", "thinking/stream-anthropic")


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


def run(adapter: Any, corpus: Corpus) -> tuple[Verdict, ...]:
    # A broken adapter is judged on what its damage reaches (reach.py).
    judged = focused(adapter, corpus) if isinstance(adapter, BrokenAdapter) else corpus
    loaded = check_adapter(adapter, adapter.name)
    return run_corpus(judged, loaded, RunOptions(corpus=corpus)).verdicts


def verdicts_of(verdicts: Iterable[Verdict], rule: str) -> dict[str, Verdict]:
    return {v.case_id: v for v in verdicts if v.rule_code == rule}


def flagged(verdicts: Iterable[Verdict], rules: Iterable[str]) -> list[str]:
    wanted = set(rules)
    return [
        f"{v.case_id}::{v.rule_code}: {v.message}"
        for v in verdicts
        if v.rule_code in wanted and v.outcome in ("fail", "warn")
    ]


# --- correct but different ------------------------------------------------------


class ReasoningAsReasoningField(BrokenAdapter):
    """Writes reasoning toward openai-chat as ``reasoning`` (Groq, OpenRouter)
    instead of ``reasoning_content``: the reasoning is carried all the same."""

    breaks = ""
    defect = "none: reasoning carried in the `reasoning` field"
    damaged = frozenset({("response", ANTHROPIC, OPENAI), ("stream", ANTHROPIC, OPENAI)})

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if isinstance(output, list):
            for chunk in stream_chunks(output):
                for choice in chunk.get("choices") or ():
                    _rename(choice.get("delta") or {})
            return output
        for choice in output.get("choices") or ():
            _rename(choice.get("message") or {})
        return output


def _rename(message: Json) -> None:
    if "reasoning_content" in message:
        message["reasoning"] = message.pop("reasoning_content")


class ThinkingKeepingProxy(BrokenAdapter):
    """An anthropic pass-through proxy: thinking, signatures and redacted data
    reach the output exactly as Anthropic returned them."""

    breaks = ""
    defect = "none: a faithful anthropic pass-through"
    pass_through = frozenset(
        {
            ("request", ANTHROPIC, ANTHROPIC),
            ("response", ANTHROPIC, ANTHROPIC),
            ("stream", ANTHROPIC, ANTHROPIC),
        }
    )


class IdsRenamedWithMapping(BrokenAdapter):
    """Renames every call id toward openai-chat (``call_<n>``) and declares the
    mapping: the parallel calls stay together under their new ids."""

    breaks = ""
    defect = "none: ids renamed through a declared mapping"
    damaged = frozenset({("request", ANTHROPIC, OPENAI)})
    no_round_trip = True  # the trip back would keep the new ids

    def id_mapping(self, payload: Any, kind: Any, source: str, target: str) -> dict[str, str]:
        if (kind, source, target) not in self.damaged:
            return super().id_mapping(payload, kind, source, target)
        return _renames(payload)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        renames = _renames(payload)
        for message in output["messages"]:
            for call in message.get("tool_calls") or ():
                call["id"] = renames[call["id"]]
            if message.get("role") == "tool":
                message["tool_call_id"] = renames.get(message["tool_call_id"], "")
        return output


def _renames(payload: Json) -> dict[str, str]:
    ids = [
        block["id"]
        for message in payload.get("messages", [])
        for block in blocks(message)
        if block.get("type") == "tool_use"
    ]
    return {old: f"call_{number}" for number, old in enumerate(ids, 1)}


def test_reasoning_in_the_reasoning_field_passes(bundled: Corpus) -> None:
    verdicts = run(ReasoningAsReasoningField(), bundled)
    assert (
        flagged(verdicts, ("reasoning.not_carried", "reasoning.altered", "reasoning.invented"))
        == []
    )
    carried = verdicts_of(verdicts, "reasoning.not_carried")
    for case in THINKING_CASES:
        assert carried[case].outcome == "pass"
        # Judged on the renamed field, not given a pass elsewhere.
        assert any("anthropic-messages->openai-chat" in d for d in carried[case].directions)


def test_a_proxy_that_keeps_thinking_passes_the_signature_rules(bundled: Corpus) -> None:
    verdicts = run(ThinkingKeepingProxy(), bundled)
    rules = ("reasoning.signature_invented", "reasoning.signature_lost", "reasoning.dropped")
    assert flagged(verdicts, rules) == []
    invented = verdicts_of(verdicts, "reasoning.signature_invented")
    proxied = [
        case
        for case, v in invented.items()
        if any("anthropic-messages->anthropic-messages" in d for d in v.directions)
    ]
    assert {"thinking/tool-use-anthropic", "thinking/redacted-anthropic"} <= set(proxied)


def test_ids_renamed_through_a_declared_mapping_keep_calls_together(bundled: Corpus) -> None:
    verdicts = run(IdsRenamedWithMapping(), bundled)
    assert flagged(verdicts, ("ordering.parallel_calls_split",)) == []
    split = verdicts_of(verdicts, "ordering.parallel_calls_split")
    assert split["parallel/two-cities-anthropic"].outcome == "pass"


# --- the reference ----------------------------------------------------------------


def test_the_reference_passes_the_new_rules_where_they_are_exercised(bundled: Corpus) -> None:
    verdicts = run(ReferenceAdapter(), bundled)
    assert flagged(verdicts, NEW_RULES) == []
    counts = {rule: len(verdicts_of(verdicts, rule)) for rule in NEW_RULES}
    assert all(counts.values()), counts
    # A case without reasoning or parallel calls gives these rules no verdict.
    plain = "single-tool/weather-anthropic"
    for rule in ("reasoning.dropped", "reasoning.not_carried", "reasoning.signature_invented"):
        assert plain not in verdicts_of(verdicts, rule)
    assert plain not in verdicts_of(verdicts, "ordering.parallel_calls_split")
    # DeepSeek with thinking off: parallel calls judged, no reasoning in the source
    # nor in the output, so no rule comparing reasoning gives a verdict.
    comparing = {
        "reasoning.dropped",
        "reasoning.not_carried",
        "reasoning.invented",
        "reasoning.signature_invented",
        "reasoning.altered",
        "reasoning.signature_lost",
    }
    for case in ("parallel/thinking-off-two-calls-deepseek",):
        assert verdicts_of(verdicts, "ordering.parallel_calls_split")[case].outcome == "pass"
        judged = {v.rule_code for v in verdicts if v.case_id == case} & comparing
        assert judged == set(), judged


# --- what the broken ones show ----------------------------------------------------


def test_stripped_reasoning_fails_tool_call_turns_and_warns_final_answers(
    bundled: Corpus,
) -> None:
    verdicts = run(ResponseReasoningStripped(), bundled)
    dropped = verdicts_of(verdicts, "reasoning.dropped")["thinking/tool-use-anthropic"]
    assert dropped.outcome == "fail"
    assert any("interaction 1 response" in f.where for f in dropped.findings)
    # Interaction 2 answers in text: its lost reasoning is the SHOULD rule's.
    carried = verdicts_of(verdicts, "reasoning.not_carried")["thinking/tool-use-anthropic"]
    assert carried.outcome == "warn"
    assert all("interaction 2 response" in f.where for f in carried.findings)


def test_split_calls_are_reported_where_they_land(bundled: Corpus) -> None:
    verdicts = run(CallsSplitIntoTurns(), bundled)
    split = verdicts_of(verdicts, "ordering.parallel_calls_split")["parallel/two-cities-anthropic"]
    assert split.outcome == "warn"
    finding = split.findings[0]
    assert finding.where.startswith("request anthropic-messages->openai-chat")
    assert "2 calls" in finding.message
    assert finding.path == "messages[3]"  # the second call's own assistant message
