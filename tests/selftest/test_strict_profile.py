"""schema.unknown_fields shown three ways under openai-compatible-strict (issue 27).

The broken adapter fails it, the variant that writes only documented fields
differently passes it, and the reference's only findings under the profile are
the two carry-overs named in ``REFERENCE_CARRIES`` (true findings, reported);
under the default ``openai`` profile the rule is not judged at all.
"""

from __future__ import annotations

import pytest

from tests.selftest.broken_strict import STRICT, DocumentedFieldsOnly, ToolCallBookkeepingLeaked
from tests.selftest.reach import focused
from tests.selftest.test_broken_adapters import run
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus

CODE = "schema.unknown_fields"
PROFILES = {"openai-chat": STRICT}
# What the reference itself writes toward openai-chat that OpenAI's reference
# does not define: Anthropic's cache_control kept on a text part, and the
# sampling extensions of a vLLM (qwen-xml) request kept as they came.
REFERENCE_CARRIES = frozenset({"cache_control", "top_k", "repetition_penalty", "repeat_penalty"})


@pytest.fixture(scope="module")
def bundled() -> Corpus:
    return load_corpus(bundled_corpus_root())


def test_a_leaked_tool_call_field_fails_under_the_strict_profile(bundled: Corpus) -> None:
    adapter = ToolCallBookkeepingLeaked()
    result = run(adapter, bundled, PROFILES, focused(adapter, bundled))
    failing = [v for v in result.verdicts if v.rule_code == CODE and v.outcome == "fail"]
    leaked = [v for v in failing if any("provider_specific_fields" in f.path for f in v.findings)]
    assert {v.case_id for v in leaked} >= set(ToolCallBookkeepingLeaked.shows_on)
    assert all(v.level == "MUST" for v in leaked)
    paths = {f.path for v in leaked for f in v.findings}
    assert any(p.endswith(".tool_calls[0].provider_specific_fields") for p in paths)


def test_documented_fields_written_differently_pass(bundled: Corpus) -> None:
    adapter = DocumentedFieldsOnly()
    result = run(adapter, bundled, PROFILES, focused(adapter, bundled))
    assert adapter.rewritten > 0
    judged = [v for v in result.verdicts if v.rule_code == CODE]
    assert any(v.outcome == "pass" for v in judged)
    failing = [f.message for v in judged if v.outcome == "fail" for f in v.findings]
    assert [m for m in failing if not _carried_by_reference(m)] == []


def test_the_reference_under_the_strict_profile_fails_only_on_what_it_carries(
    bundled: Corpus,
) -> None:
    only = Corpus(bundled.root, [c for c in bundled if c.dialect != "openai-chat"])
    result = run(ReferenceAdapter(), bundled, PROFILES, only)
    judged = [v for v in result.verdicts if v.rule_code == CODE]
    assert sum(v.outcome == "pass" for v in judged) > 100
    failing = [f.message for v in judged if v.outcome == "fail" for f in v.findings]
    assert failing, "the reference's carry-overs are gone: empty REFERENCE_CARRIES"
    assert [m for m in failing if not _carried_by_reference(m)] == []


def test_the_default_openai_profile_does_not_judge_it(bundled: Corpus) -> None:
    adapter = ToolCallBookkeepingLeaked()
    result = run(adapter, bundled, None, focused(adapter, bundled))
    # Out of the profile's scope: no verdict at all, not even a pass.
    assert [v.outcome for v in result.verdicts if v.rule_code == CODE] == []
    assert result.verdicts, "the run judged nothing"


def _carried_by_reference(message: str) -> bool:
    return message.split("'")[1] in REFERENCE_CARRIES
