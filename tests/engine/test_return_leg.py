"""The return leg of a round trip is judged by the payload rules too (issue 27).

What comes back from A->B->A is a payload of A a client will send on: a
converter that breaks it only on the way back fails there, though every
forward leg held. Findings the source itself gives are the client's and are
left out, so a faithful trip never warns about its input.
"""

from __future__ import annotations

import copy
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.collect import VerdictCollector
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import UNSUPPORTED, Verdict
from toolwire.harness.payloads import case_payloads

CORPUS = load_corpus(bundled_corpus_root())
HERE = "tests.engine.test_return_leg"
ANTHROPIC, OPENAI, GEMINI = "anthropic-messages", "openai-chat", "gemini"
CASE = "parallel/two-cities-anthropic"


class _Trip(ReferenceAdapter):
    """The reference, offering only anthropic -> openai-chat -> anthropic requests."""

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset({("request", ANTHROPIC, OPENAI), ("request", OPENAI, ANTHROPIC)})

    def convert(
        self, payload: Any, kind: Any, source: str, target: str, request: Any = None
    ) -> Any:
        output = super().convert(payload, kind, source, target, request)
        return self.on_the_way_back(copy.deepcopy(output)) if target == ANTHROPIC else output

    def on_the_way_back(self, output: Any) -> Any:
        return output


class ReferenceTrip(_Trip):
    name = "reference-trip"


class ResultRepeatedOnTheWayBack(_Trip):
    """Writes the last tool result twice when it converts back to anthropic."""

    name = "result-repeated-on-the-way-back"

    def on_the_way_back(self, output: Any) -> Any:
        for message in reversed(output["messages"]):
            content = message.get("content")
            if message["role"] == "user" and isinstance(content, list):
                results = [b for b in content if b.get("type") == "tool_result"]
                if results:
                    content.append(copy.deepcopy(results[-1]))
                    break
        return output


class ResultsAsTextBlocksOnTheWayBack(_Trip):
    """Writes each tool result's text as a list of text blocks: the same result."""

    name = "results-as-text-blocks-on-the-way-back"

    def on_the_way_back(self, output: Any) -> Any:
        for message in output["messages"]:
            for block in message.get("content") if isinstance(message["content"], list) else ():
                text = block.get("content")
                if block.get("type") == "tool_result" and isinstance(text, str):
                    block["content"] = [{"type": "text", "text": text}]
        return output


class GeminiTrip(ReferenceAdapter):
    """The reference, offering only openai-chat -> gemini -> openai-chat requests."""

    name = "gemini-trip"

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset({("request", OPENAI, GEMINI), ("request", GEMINI, OPENAI)})


def _run(adapter_class: str, case: str = CASE) -> dict[str, Verdict]:
    adapter = load_adapter(f"{HERE}:{adapter_class}")
    verdicts = run_case(CORPUS[case], adapter, RunOptions(timeout=10.0, corpus=CORPUS))
    # The trips offer requests only: the responses and streams are unsupported.
    return {v.rule_code: v for v in verdicts if v.rule_code != UNSUPPORTED}


def test_a_result_repeated_only_on_the_way_back_fails_there() -> None:
    verdict = _run("ResultRepeatedOnTheWayBack")["pairing.duplicate_result"]
    assert verdict.outcome == "fail"
    wheres = {f.where for f in verdict.findings}
    assert wheres == {"request anthropic-messages->openai-chat, interaction 2 request, and back"}


def test_results_written_as_text_blocks_on_the_way_back_pass() -> None:
    verdicts = _run("ResultsAsTextBlocksOnTheWayBack")
    bad = {code: v.message for code, v in verdicts.items() if v.outcome not in ("pass",)}
    assert bad == {}
    assert any(w.endswith("and back") for w in verdicts["pairing.duplicate_result"].directions)


def test_the_reference_passes_the_payload_rules_on_its_return_leg() -> None:
    verdicts = _run("ReferenceTrip")
    assert {v.outcome for v in verdicts.values()} == {"pass"}
    judged_back = [
        c for c, v in verdicts.items() if any(w.endswith("and back") for w in v.directions)
    ]
    assert "pairing.duplicate_result" in judged_back and "schema.request" in judged_back


def test_a_trip_through_gemini_keeps_the_model_the_url_would_name() -> None:
    # A Gemini body never names the model; the return leg is given the
    # source's, as a proxy reading the URL would have it.
    verdict = _run("GeminiTrip", "single-tool/weather-openai")["schema.request"]
    assert verdict.outcome == "pass"
    assert any(w.endswith("and back") for w in verdict.directions)


def _payload() -> PayloadUnderTest:
    return case_payloads(CORPUS[CASE], "request")[0].under_test


def test_what_the_source_itself_shows_is_not_the_converters() -> None:
    source = _payload()
    returned = copy.copy(source)
    in_both = Finding("pairing.duplicate_result", "the client's own finding", "messages[1]")
    added = Finding("pairing.duplicate_result", "one the trip added", "messages[3]")

    def check(payload: PayloadUnderTest) -> list[Finding]:
        return [in_both, added] if payload is returned else [in_both]

    collector = VerdictCollector(CASE, "test")
    collector.judge_returned_payload(
        returned, source, {"pairing.duplicate_result": check}, "and back"
    )
    (verdict,) = collector.verdicts()
    assert [f.message for f in verdict.findings] == ["one the trip added"]

    held = VerdictCollector(CASE, "test")
    held.judge_returned_payload(
        returned, source, {"pairing.duplicate_result": lambda p: [in_both]}, "and back"
    )
    assert [v.outcome for v in held.verdicts()] == ["pass"]
