"""The suite on the two naive converters of NAIVE_CONVERTERS.md.

Each report is kept as a syrupy snapshot (one line per verdict: item id,
outcome, first finding message; sorted). The findings the description
expects are asserted one by one: ``FOUND`` where the suite gives them,
``NOT_FOUND`` with the reason where it does not (asserted absent, so that a
change in the rules or the corpus brings the conclusion back for review).

The run uses the bundled corpus plus two test-local cases
(``patched_corpus``): no bundled case sets ``tool_choice``, and no bundled
stream carries text and a tool-call fragment in one chunk.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.selftest.naive import NaiveAdapterPattern
from tests.selftest.naive_stream import NaiveUnifiedBuilder
from tests.selftest.patched_corpus import PATCHES, patched_corpus
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import RunResult, run_corpus
from toolwire.harness.lint.check import lint_text

TOOL_CHOICE_CASE = PATCHES["tool-choice"].case_id
TEXT_IN_CALL_CHUNK_CASE = PATCHES["text-in-call-chunk"].case_id
RICH_SCHEMA_CASE = PATCHES["rich-schema"].case_id

# Expected findings the suite gives: converter -> {code: a case where it shows}.
FOUND: dict[str, dict[str, str]] = {
    "naive-a": {
        "ordering.system_placement": "mixed-text/text-then-call-openai",
        # A MUST under the default `anthropic` profile (Vertex AI, DeepSeek's
        # Anthropic endpoint and Anthropic's API answered 400 to split results);
        # a warning only under anthropic-merging (docs/levels.md).
        "ordering.parallel_results_split": "parallel/two-cities-openai",
        # Corpus gap: no bundled case sets tool_choice; shown on a test-local case.
        "fidelity.tool_choice": TOOL_CHOICE_CASE,
        "schema.request": "mixed-text/text-then-call-openai",  # role system, no max_tokens
        # Its tool translation keeps name, description and parameters, not strict.
        "fidelity.tool_definitions": RICH_SCHEMA_CASE,
    },
    "naive-b": {
        "fidelity.arguments": "single-tool/weather-openai",
        # deepseek-chat -> deepseek-chat: the request import reads no reasoning.
        "reasoning.replay_missing": "reasoning-replay/deepseek-two-step",
        # Its re-emitted streams drop the thinking ("thinking dropped (openai
        # export)"): on a tool-call turn the client cannot send it back (MUST) ...
        "reasoning.dropped": "thinking/stream-deepseek",
        # ... and on a final answer, or toward the legacy reasoner, it is lost (SHOULD).
        "reasoning.not_carried": "streaming/thinking-replay-deepseek",
        # Corpus gap: no bundled stream has text and a call fragment in one chunk.
        "stream.reassembly": TEXT_IN_CALL_CHUNK_CASE,
        "schema.request": "single-tool/weather-openai",
        "fidelity.tool_definitions": RICH_SCHEMA_CASE,  # strict: true not kept
    },
}

# Expected findings the suite does not give, each with what is wrong: the
# description, the corpus, or a rule (asserted absent).
NOT_FOUND: dict[str, dict[str, str]] = {
    "naive-a": {
        # Codec, not rule: OpenAI documents finish_reason on every choice, so the
        # codec refuses the response; the verdict is schema.response instead.
        "fidelity.stop_reason": "no finish_reason: the output is unreadable, so "
        "schema.response stands for it and no other rule judges the response",
        # Masked by the same refusal (a lenient read would let usage be judged).
        "fidelity.usage": "the response is unreadable (schema.response): usage is never compared",
        # Description: A has no deepseek-chat target, where the rule is judged.
        "reasoning.replay_missing": "judged on deepseek-chat output only; A has none",
        # Description: signatures are judged on anthropic output only. A drops
        # thinking on its way to openai-chat (reasoning.not_carried's subject), but
        # its responses are unreadable (schema.response), so no rule judges them.
        "reasoning.signature_lost": "judged on anthropic-messages output only",
        "reasoning.not_carried": "the response is unreadable (schema.response)",
        # Not a defect: A keeps an openai tool message's "Error:" text and sets no
        # is_error; the convention is accepted, not required (docs/levels.md).
        "fidelity.error_flag": "A loses nothing: openai-chat carries no flag to keep",
    },
    "naive-b": {
        # Description: B puts a result after text (and text before tool messages on
        # the openai export) only for an openai history where a user message comes
        # between the calls and their tool messages, itself invalid input that no
        # positive case can hold; test_naive_b_result_after_text_... shows it by lint.
        "ordering.result_after_text": "needs an out-of-order openai history as input",
        "ordering.result_not_adjacent": "needs an out-of-order openai history as input",
        # Description: B imports only openai-family payloads; none carries a signature
        # the codecs read (OpenRouter's reasoning_details signatures are not read).
        "reasoning.signature_lost": "B's sources carry no signature",
        # Description vs documented scope: B's only empty content is openai
        # content "" beside tool_calls, which docs document as allowed.
        "fidelity.empty_content": "openai content '' beside tool_calls is allowed",
    },
}

# Found though not listed. A: its responses have no finish_reason, which the
# openai-chat schema requires (schema.response stands for the unmapped stop
# reason). B: is_error dropped (fidelity.error_flag), tool_choice untranslated
# (not described), no usage in its re-emitted streams, and the fragment it loses
# from a chunk that also carries text was the call's first (id and name):
# pairing.call_id_missing and stream.event_order, beside stream.reassembly.
# Both (SHOULD): results in their own user messages followed by user text break
# alternation (ordering.role_alternation, merged by Anthropic). Both keep the
# corpus's out-of-order results as the client sent them: ordering.result_order
# holds that (issue 27), so it is not found.
# B: a user content list of parts becomes its Python repr (fidelity.text).
# Both (SHOULD) leave the client's max_completion_tokens out of the anthropic
# request (fidelity.parameters), which schema.request already fails for lack of
# max_tokens.
ALSO_FOUND: dict[str, set[str]] = {
    "naive-a": {"schema.response", "ordering.role_alternation", "fidelity.parameters"},
    "naive-b": {
        "fidelity.error_flag",
        "fidelity.parameters",
        "fidelity.text",
        "fidelity.tool_choice",
        "fidelity.usage",
        "ordering.role_alternation",
        "pairing.call_id_missing",
        "stream.event_order",
    },
}

CONVERTERS = {"naive-a": NaiveAdapterPattern, "naive-b": NaiveUnifiedBuilder}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return patched_corpus(tmp_path_factory.mktemp("naive") / "corpus", PATCHES)


@pytest.fixture(scope="module")
def runs(corpus: Corpus) -> dict[str, RunResult]:
    found = {}
    for name, converter in CONVERTERS.items():
        adapter = check_adapter(converter(), name)
        found[name] = run_corpus(corpus, adapter, RunOptions(corpus=corpus))
    return found


def render(result: RunResult) -> str:
    lines = []
    for verdict in sorted(result.verdicts, key=lambda v: v.item_id):
        message = f": {verdict.message}" if verdict.message else ""
        lines.append(f"{verdict.item_id} {verdict.outcome}{message}")
    return "\n".join(lines) + "\n"


def flagged(result: RunResult) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for verdict in result.verdicts:
        if verdict.outcome in ("fail", "warn"):
            found.setdefault(verdict.rule_code, set()).add(verdict.case_id)
    return found


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_report_matches_snapshot(
    name: str, runs: dict[str, RunResult], corpus: Corpus, snapshot: SnapshotAssertion
) -> None:
    report = render(runs[name])
    assert str(corpus.root) not in report  # no absolute paths in a snapshot
    assert report == snapshot


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_expected_findings(name: str, runs: dict[str, RunResult]) -> None:
    codes = flagged(runs[name])
    for code, case_id in FOUND[name].items():
        assert case_id in codes.get(code, set()), f"{name}: {code} not on {case_id}"
    assert sorted(set(codes) & set(NOT_FOUND[name])) == []
    unlisted = set(codes) - set(FOUND[name])
    assert unlisted == ALSO_FOUND[name]
    assert all(v.outcome != "error" for v in runs[name].verdicts)


def test_naive_a_schema_request_names_system_role_and_max_tokens(
    runs: dict[str, RunResult],
) -> None:
    verdict = next(
        v
        for v in runs["naive-a"].verdicts
        if v.rule_code == "schema.request" and v.case_id == "mixed-text/text-then-call-openai"
    )
    messages = " | ".join(finding.message for finding in verdict.findings)
    assert "'max_tokens'" in messages
    assert '"system" is not one of' in messages


def test_naive_a_split_results_fail_under_anthropic_strict(corpus: Corpus) -> None:
    adapter = check_adapter(NaiveAdapterPattern(), "naive-a")
    options = RunOptions(corpus=corpus, profiles={"anthropic-messages": "anthropic-strict"})
    result = run_corpus(corpus, adapter, options)
    split = [v for v in result.verdicts if v.rule_code == "ordering.parallel_results_split"]
    failing = {v.case_id for v in split if v.outcome == "fail"}
    assert "parallel/two-cities-openai" in failing
    # Every case it splits has parallel results (or several results in one turn).
    assert all(corpus[case_id].has_feature("parallel") or "error" in case_id for case_id in failing)
    # A single result cannot be split: no verdict there (not a pass).
    assert "single-tool/weather-openai" not in {v.case_id for v in split}


def test_naive_b_result_after_text_on_an_out_of_order_history(tmp_path: Path) -> None:
    # A user message between the calls and their tool messages: invalid openai
    # input, so it cannot be a positive corpus case; B turns it into a tool_result
    # placed after text, which lint names.
    history = {
        "model": "gpt-4.1-mini",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            {"role": "user", "content": "In celsius, please."},
            {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
        ],
    }
    output = NaiveUnifiedBuilder().convert(history, "request", "openai-chat", "anthropic-messages")
    path = tmp_path / "b-output.json"
    path.write_text(json.dumps(output), encoding="utf-8")
    codes = {v.code for v in lint_text(path.read_text(encoding="utf-8"), path.name)}
    assert "ordering.result_after_text" in codes
