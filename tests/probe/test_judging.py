"""How each step judges what comes back: scripted models, no network."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.probe.fakes import Answer, Script, ScriptedModel, good
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.probe.loops import LOOP_PROMPT, REPAIR_PROMPT
from toolwire.harness.probe.recording import CONVERSATION_SLUGS, save_run
from toolwire.harness.probe.runner import ProbeOptions, ProbeRun, ProbeUsageError, run_probe
from toolwire.harness.probe.schema import validate_profile
from toolwire.harness.probe.transport import Endpoint, Exchange, ProbeError, ProbeTimeout

OPTIONS = ProbeOptions("http://127.0.0.1:9/v1", "scripted-model", "openai-chat")


def _run(script: Script) -> tuple[ProbeRun, dict[str, Any], ScriptedModel]:
    model = ScriptedModel(script)
    run = run_probe(OPTIONS, send=model)
    document = run.profile.as_json()
    assert validate_profile(document) == []
    return run, document, model


def _profile(script: Script) -> tuple[dict[str, Any], ScriptedModel]:
    _run_of, document, model = _run(script)
    return document, model


def _with(**overrides: Any) -> Script:
    """``good``, with some scenarios answered by other functions."""

    def script(scenario: str, stage: int, body: Mapping[str, Any]) -> Answer:
        if scenario in overrides:
            answer: Answer = overrides[scenario](stage, body)
            return answer
        return good(scenario, stage, body)

    return script


def test_a_model_that_only_writes_prose_fails_every_tool_step(tmp_path: Path) -> None:
    def prose(scenario: str, stage: int, _body: Mapping[str, Any]) -> Answer:
        if scenario == "loop":
            return Answer(text="48213 + 97351 = 145,564")
        return Answer(text="I cannot call tools, but here is my best answer.")

    run, document, model = _run(prose)
    assert document["toolCallFormat"] == "none"
    assert document["schemaLevel"] == "string-only"
    assert document["supportsParallelToolUse"] is False
    assert document["errorRepair"] == "none"
    assert document["supportsStreamingToolUse"] is False
    assert document["requiresReasoningReplay"] is False
    evidence = document["evidence"]
    assert evidence["basicFormat"]["reason"].startswith("answered in prose: 'I cannot call")
    assert evidence["singleToolLoop"]["reason"] == (
        "answered 145564 from its own arithmetic, without calling probe_add"
    )
    statuses = [item["status"] for item in evidence.values()]
    assert statuses == ["fail"] * 5 + ["pass", "fail"]
    assert len(model.requests) == 7  # no continuation without a call
    saved = save_run(run, tmp_path, datetime.date(2026, 5, 1))
    assert saved.cases != ()  # the streamed prose is still a streaming case
    assert all("answered in prose" in reason for reason in saved.skipped)
    assert {reason.split(":")[0] for reason in saved.skipped} == {
        "basic-format",
        "schema-adherence",
        "single-tool-loop",
        "parallel-calls",
        "error-repair",
    }
    assert validate_corpus(tmp_path).ok


def test_json_in_text_is_its_own_format_and_is_answered_in_text() -> None:
    def hermes(stage: int, _body: Mapping[str, Any]) -> Answer:
        if stage == 0:
            call = {"name": "probe_add", "arguments": {"a": 48213, "b": 97351}}
            return Answer(text=f"<tool_call>\n{json.dumps(call)}\n</tool_call>")
        return Answer(text="It is 145564.")

    def fenced(stage: int, _body: Mapping[str, Any]) -> Answer:
        call = {"name": "probe_echo", "parameters": {"message": "toolwire probe", "tag": "alpha"}}
        return Answer(text=f"Calling:\n```json\n{json.dumps(call)}\n```")

    document, model = _profile(_with(loop=hermes, basic=fenced))
    assert document["toolCallFormat"] == "json-text"
    assert document["evidence"]["basicFormat"]["parser"] == "json_text"
    assert document["evidence"]["basicFormat"]["status"] == "pass"
    assert document["evidence"]["singleToolLoop"]["status"] == "pass"
    continuation = [r for r in model.requests if r["messages"][1]["content"] == LOOP_PROMPT][1]
    assert continuation["messages"][3] == {
        "role": "user",
        "content": '<tool_response>\n{"sum": 145564}\n</tool_response>',
    }


def test_two_calls_squeezed_into_one_argument_set_mean_no_parallel_support() -> None:
    merged = {"message": "parallel", "tag": "beta", "a": 2, "b": 3}
    script = _with(parallel=lambda _s, _b: Answer(calls=(("probe_echo", merged),)))
    document, _model = _profile(script)
    assert document["supportsParallelToolUse"] is False
    evidence = document["evidence"]["parallelCalls"]
    assert evidence["reason"] == "both calls squeezed into one argument set (probe_echo)"
    assert (
        "probe_echo $: Additional properties are not allowed ('a', 'b' were unexpected)"
        in (evidence["failures"])
    )


def test_the_openai_multi_tool_use_wrapper_is_a_squeezed_call() -> None:
    wrapper = {"tool_uses": [{"recipient_name": "functions.probe_echo", "parameters": {}}]}
    script = _with(parallel=lambda _s, _b: Answer(calls=(("multi_tool_use.parallel", wrapper),)))
    document, _model = _profile(script)
    assert document["supportsParallelToolUse"] is False
    assert "squeezed" in document["evidence"]["parallelCalls"]["reason"]


def test_a_final_answer_from_its_own_arithmetic_is_caught() -> None:
    def misread(stage: int, _body: Mapping[str, Any]) -> Answer:
        if stage == 0:  # b mistyped: the tool answers 145528
            return Answer(calls=(("probe_add", {"a": 48213, "b": 97315}),))
        return Answer(text="48213 + 97351 = 145564")

    document, model = _profile(_with(loop=misread))
    evidence = document["evidence"]["singleToolLoop"]
    assert evidence["status"] == "partial"
    assert evidence["reason"] == "the final answer states its own sum 145564, not the tool's 145528"
    assert evidence["failures"] == ["probe_add b: asked 97351, got 97315"]
    sent = [r for r in model.requests if r["messages"][1]["content"] == LOOP_PROMPT][1]
    assert sent["messages"][3]["content"] == '{"sum": 145528}'


def test_an_integer_sent_as_a_string_is_a_simple_object_schema() -> None:
    def strings(stage: int, _body: Mapping[str, Any]) -> Answer:
        arguments = {"message": "schema check", "tag": "gamma", "meta": {"source": "toolwire"}}
        return Answer(calls=(("probe_echo", arguments),))

    document, _model = _profile(_with(schema=strings))
    assert document["schemaLevel"] == "simple-object"
    failures = document["evidence"]["schemaAdherence"]["failures"]
    assert "probe_echo meta: 'priority' is a required property" in failures
    assert "probe_echo tag: 'gamma' is not one of ['alpha', 'beta']" in failures


def test_a_nested_object_left_out_is_not_strict() -> None:
    flat = lambda _s, _b: Answer(  # noqa: E731
        calls=(("probe_echo", {"message": "schema check", "tag": "beta"}),)
    )
    document, _model = _profile(_with(schema=flat))
    assert document["schemaLevel"] == "simple-object"
    assert document["evidence"]["schemaAdherence"]["reason"] == (
        "schema-valid, but the nested object asked for was left out"
    )


def test_double_encoded_arguments_are_string_only() -> None:
    encoded = json.dumps(json.dumps({"message": "schema check", "tag": "beta"}))
    document, _model = _profile(
        _with(schema=lambda _s, _b: Answer(calls=(("probe_echo", encoded),)))
    )
    assert document["schemaLevel"] == "string-only"
    assert document["evidence"]["schemaAdherence"]["status"] == "fail"


def test_a_retry_that_does_not_fix_the_path_is_limited_repair() -> None:
    def stubborn(stage: int, _body: Mapping[str, Any]) -> Answer:
        return Answer(calls=(("probe_fail_once", {"path": "notes/today.txt"}),))

    document, model = _profile(_with(repair=stubborn))
    assert document["errorRepair"] == "limited"
    assert document["evidence"]["errorRepair"]["reason"] == (
        "called probe_fail_once again without fixing the path (got 'notes/today.txt')"
    )
    continuation = [r for r in model.requests if r["messages"][1]["content"] == REPAIR_PROMPT][1]
    result = continuation["messages"][3]
    assert result["role"] == "tool"
    assert json.loads(result["content"])["error_code"] == "SCHEMA_VALIDATION_FAILED"


def _thinking(status_without: int) -> Script:
    """A thinking model; a continuation without reasoning gets ``status_without``."""

    def script(scenario: str, stage: int, body: Mapping[str, Any]) -> Answer:
        dropped = any(
            m["role"] == "assistant" and "reasoning_content" not in m for m in body["messages"]
        )
        if dropped and status_without != 200:
            return Answer(status=status_without, error="reasoning missing")
        answer = good(scenario, stage, body)
        return Answer(answer.text, answer.calls, reasoning="Let me think.")

    return script


def test_reasoning_that_need_not_be_replayed_is_false_and_saved_as_accepted(
    tmp_path: Path,
) -> None:
    run, document, _model = _run(_thinking(200))
    assert document["requiresReasoningReplay"] is False
    assert document["evidence"]["reasoningState"]["reason"] == (
        "the continuation without the reasoning was accepted"
    )
    slugs = [c.slug for c in run.conversations]
    assert "reasoning-dropped" in slugs
    assert "reasoning-not-replayed" not in slugs
    assert set(slugs) <= set(CONVERSATION_SLUGS)  # so --record checks it before probing
    saved = save_run(run, tmp_path, datetime.date(2026, 5, 1))
    assert "probe/scripted-model/reasoning-dropped" in {case.case_id for case in saved.cases}


def test_an_error_other_than_400_leaves_reasoning_replay_on_and_partial() -> None:
    document, _model = _profile(_thinking(500))
    assert document["requiresReasoningReplay"] is True
    evidence = document["evidence"]["reasoningState"]
    assert evidence["status"] == "partial"
    assert "HTTP 500: reasoning missing; not a 400, so undecided" in evidence["reason"]


def test_a_stream_answered_as_json_means_no_streaming_tool_use() -> None:
    def script(scenario: str, stage: int, body: Mapping[str, Any]) -> Answer:
        answer = good(scenario, stage, body)
        return Answer(answer.text, answer.calls, stream_as_json=True)

    document, _model = _profile(script)
    assert document["supportsStreamingToolUse"] is False
    failures = document["evidence"]["streaming"]["failures"]
    assert "step 1 streamed: answered application/json, not an event stream" in failures


def test_a_step_that_times_out_fails_alone_and_the_probe_goes_on() -> None:
    model = ScriptedModel(good)

    def send(endpoint: Endpoint, body: Mapping[str, Any]) -> Exchange:
        if body["messages"][1]["content"].startswith("Call both tools"):
            raise ProbeTimeout("http://127.0.0.1:9/v1/chat/completions: no answer within 1 s")
        return model(endpoint, body)

    document = run_probe(OPTIONS, send=send).profile.as_json()
    assert document["evidence"]["parallelCalls"]["status"] == "fail"
    assert "no answer within 1 s" in document["evidence"]["parallelCalls"]["reason"]
    assert document["supportsParallelToolUse"] is False
    assert document["evidence"]["streaming"]["status"] == "pass"


def test_a_404_stops_the_probe_with_the_hint_to_check_url_and_model() -> None:
    model = ScriptedModel(lambda *_: Answer(status=404, error="The model `x` does not exist"))
    with pytest.raises(ProbeError) as raised:
        run_probe(OPTIONS, send=model)
    assert "not found (HTTP 404: The model `x` does not exist)" in str(raised.value)
    assert "check --base-url" in str(raised.value)
    assert len(model.requests) == 1


def test_the_probe_refuses_a_dialect_it_does_not_speak() -> None:
    with pytest.raises(ProbeUsageError, match="openai-chat or anthropic-messages"):
        run_probe(
            ProbeOptions("http://127.0.0.1:9", "m", "deepseek-chat"), send=ScriptedModel(good)
        )
