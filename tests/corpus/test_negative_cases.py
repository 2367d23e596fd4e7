"""The negative cases of the bundled corpus: each one breaks one rule, and
`toolwire lint` on the whole cassette (so the replay rules run too) finds
exactly the codes the case declares, at the level its profile gives them.

Every rule a payload or a conversation can break has such a case, and every
other bundled case lints clean. A case declares one rule; a second code is
accepted only where the defect cannot exist without it (COMPANIONS).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml

from toolwire.conformance.catalogue import RULES, RULES_BY_CODE
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.lint.check import LintViolation, lint_text
from toolwire.harness.model import SSEEvent
from toolwire.harness.sse import parse_sse, render_sse

CORPUS = load_corpus(bundled_corpus_root())
NEGATIVE = [case for case in CORPUS if case.has_feature("negative")]
POSITIVE = [case for case in CORPUS if not case.has_feature("negative")]
LINTABLE_RULES = [rule for rule in RULES if rule.scopes & {"payload", "replay"}]

# Codes a case may list beside its own because the defect cannot exist without
# them: case id -> {companion code: why}.
COMPANIONS: dict[str, dict[str, str]] = {
    "negative/ordering-system-placement": {
        "schema.request": (
            "anthropic-messages has no system role: the request schema's role enum "
            "(user, assistant) refuses the very message ordering.system_placement points at"
        ),
    },
}

GITHUB_THREAD = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+$")


def lint_case(case: Case, profile: str | None = None) -> list[LintViolation]:
    return lint_text(case.source.read_text(encoding="utf-8"), case.id, profile=profile)


def codes(found: list[LintViolation], levels: tuple[str, ...] = ("MUST", "SHOULD")) -> set[str]:
    return {violation.code for violation in found if violation.level in levels}


def primary_code(case: Case) -> str:
    """The one rule the case is about: its codes minus its companions."""
    own = set(case.expect.violations) - set(COMPANIONS.get(case.id, {}))
    assert len(own) == 1, f"{case.id} must declare one rule (besides COMPANIONS), has {own}"
    return own.pop()


def ids(cases: list[Case]) -> list[str]:
    return [case.id for case in cases]


# --- each negative case triggers exactly what it declares ---------------------


def test_the_corpus_has_negative_cases_for_every_family_that_lint_judges() -> None:
    families = {primary_code(case).split(".")[0] for case in NEGATIVE}
    assert families == {rule.family for rule in LINTABLE_RULES}


@pytest.mark.parametrize("case", NEGATIVE, ids=ids(NEGATIVE))
def test_lint_finds_exactly_the_declared_codes(case: Case) -> None:
    found = lint_case(case)
    assert codes(found) == set(case.expect.violations), [v.line() for v in found]


@pytest.mark.parametrize("case", NEGATIVE, ids=ids(NEGATIVE))
def test_the_declared_rule_is_judged_at_its_own_level_under_the_case_profile(case: Case) -> None:
    rule = RULES_BY_CODE[primary_code(case)]
    assert rule.applies_to_dialect(case.dialect)
    assert rule.level_for(case.profile) == rule.level
    levels = {v.level for v in lint_case(case) if v.code == rule.code}
    assert levels == {rule.level}


@pytest.mark.parametrize("case", NEGATIVE, ids=ids(NEGATIVE))
def test_the_case_id_names_its_rule(case: Case) -> None:
    code = primary_code(case)
    assert case.id.startswith("negative/" + code.replace(".", "-").replace("_", "-"))


@pytest.mark.parametrize("case", NEGATIVE, ids=ids(NEGATIVE))
def test_provenance_is_the_rule_documentation_or_a_public_report(case: Case) -> None:
    rule = RULES_BY_CODE[primary_code(case)]
    if case.provenance.kind == "documented":
        assert case.provenance.url in rule.docs
    else:
        assert case.provenance.kind == "reported"
        assert GITHUB_THREAD.match(case.provenance.url or "")


def test_companion_codes_are_declared_by_their_case() -> None:
    by_id = {case.id: case for case in NEGATIVE}
    for case_id, companions in COMPANIONS.items():
        assert case_id in by_id, f"stale COMPANIONS entry {case_id}"
        assert set(companions) < set(by_id[case_id].expect.violations)
        assert all(reason.strip() for reason in companions.values())


# --- every rule lint can judge has a negative case -----------------------------


def test_every_payload_and_replay_rule_has_a_negative_case() -> None:
    covered = {primary_code(case) for case in NEGATIVE}
    missing = sorted(rule.code for rule in LINTABLE_RULES if rule.code not in covered)
    assert missing == []


def test_negative_cases_only_declare_rules_lint_can_judge() -> None:
    lintable = {rule.code for rule in LINTABLE_RULES}
    declared = {code for case in NEGATIVE for code in case.expect.violations}
    assert declared <= lintable


# --- the other bundled cases lint clean ----------------------------------------


def test_the_corpus_has_cases_that_must_lint_clean() -> None:
    assert len(POSITIVE) >= 20


@pytest.mark.parametrize("case", POSITIVE, ids=ids(POSITIVE))
def test_a_bundled_case_without_the_negative_feature_has_no_must_finding(case: Case) -> None:
    found = lint_case(case)
    assert codes(found, ("MUST",)) == set(), [v.line() for v in found]


# --- the profile decides the verdict --------------------------------------------


def _case(case_id: str) -> Case:
    return CORPUS[case_id]


def test_split_results_are_only_a_should_where_the_server_merges_them() -> None:
    case = _case("negative/ordering-parallel-results-split")
    merged = lint_case(case, profile="anthropic-merging")
    assert {v.level for v in merged if v.code == "ordering.parallel_results_split"} == {"SHOULD"}
    # The default profile: Vertex AI, DeepSeek's Anthropic endpoint and
    # Anthropic's API answered 400 to such a split (docs/levels.md).
    default = lint_case(case, profile="anthropic")
    assert {v.level for v in default if v.code == "ordering.parallel_results_split"} == {"MUST"}


def test_replayed_reasoning_is_only_refused_by_the_legacy_reasoner() -> None:
    case = _case("negative/reasoning-replay-forbidden")
    assert codes(lint_case(case)) == {"reasoning.replay_forbidden"}
    assert codes(lint_case(case, profile="deepseek-thinking")) == set()


def test_the_replay_rule_needs_the_whole_conversation() -> None:
    case = _case("negative/replay-assistant-altered")
    requests = [i.request_json() for i in case.interactions]
    # Each request on its own is valid: only the cassette shows what changed.
    for request in requests:
        assert codes(lint_text(json.dumps(request), case.id, dialect=case.dialect)) == set()
    assert codes(lint_case(case)) == {"replay.assistant_altered"}


# --- what the real API answered ---------------------------------------------------


def _errors(cases: list[Case]) -> Iterator[tuple[Case, str, object]]:
    for case in cases:
        for interaction in case.interactions:
            if not interaction.is_success():
                yield case, interaction.uri, interaction.response_json()


ERRORS = list(_errors(NEGATIVE))


def test_negative_cases_record_api_errors() -> None:
    assert len(ERRORS) >= 10


@pytest.mark.parametrize(("case", "uri", "body"), ERRORS, ids=[c.id for c, _, _ in ERRORS])
def test_an_error_response_has_the_provider_error_shape(case: Case, uri: str, body: object) -> None:
    assert isinstance(body, dict)
    error = body["error"]
    assert isinstance(error, dict)
    assert isinstance(error["message"], str)
    assert error["message"].strip()
    if uri.startswith("https://generativelanguage.googleapis.com/"):
        # Google's error shape: {"error": {"code", "message", "status"}}
        assert case.dialect == "gemini"
        assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT")
        return
    assert error["type"] == "invalid_request_error"
    if uri.startswith("https://api.anthropic.com/"):
        # {"type": "error", "error": {"type", "message"}, "request_id"?}
        assert body["type"] == "error"
        assert case.dialect == "anthropic-messages"
    else:
        # OpenAI and DeepSeek (also on its Anthropic endpoint): {"error": {..., "param", "code"}}
        assert "type" not in body
        assert {"param", "code"} <= set(error)


# --- one defect: repairing it gives a cassette that lints clean -------------------

Json = Any
Edit = Callable[[dict[str, Any]], None]


def in_request(n: int, edit: Callable[[Json], None]) -> Edit:
    def run(document: dict[str, Any]) -> None:
        request = document["interactions"][n]["request"]
        body = json.loads(request["body"])
        edit(body)
        request["body"] = json.dumps(body)

    return run


def in_response(n: int, edit: Callable[[Json], None]) -> Edit:
    def run(document: dict[str, Any]) -> None:
        holder = document["interactions"][n]["response"]["body"]
        body = json.loads(holder["string"])
        edit(body)
        holder["string"] = json.dumps(body)

    return run


def in_stream(n: int, edit: Callable[[list[dict[str, Any]]], None]) -> Edit:
    """Edit the events ({"event", "data"}, data decoded; the [DONE] sentinel stays text)."""

    def run(document: dict[str, Any]) -> None:
        holder = document["interactions"][n]["response"]["body"]
        events = [
            {"event": e.event, "data": e.data if e.data == "[DONE]" else json.loads(e.data)}
            for e in parse_sse(holder["string"])
        ]
        edit(events)
        holder["string"] = render_sse(
            SSEEvent(e["data"] if isinstance(e["data"], str) else json.dumps(e["data"]), e["event"])
            for e in events
        )

    return run


def _calls(body: Json) -> list[Json]:
    calls: list[Json] = body["choices"][0]["message"]["tool_calls"]
    return calls


def _set(holder: Json, key: str, value: object) -> None:
    holder[key] = value


def _swap(items: list[Json], a: int, b: int) -> None:
    items[a], items[b] = items[b], items[a]


def _merge_into_previous(messages: list[Json], index: int) -> None:
    messages[index - 1]["content"] += messages.pop(index)["content"]


def _tool_fragments(events: list[dict[str, Any]]) -> Iterator[Json]:
    for event in events:
        data = event["data"]
        choices = data.get("choices") if isinstance(data, dict) else None
        yield from (choices[0]["delta"].get("tool_calls") or []) if choices else []


def _reindex_calls(events: list[dict[str, Any]]) -> None:
    index = -1
    for fragment in _tool_fragments(events):
        index += "id" in fragment
        fragment["index"] = index


def _one_chunk_id(events: list[dict[str, Any]]) -> None:
    for event in events:
        if isinstance(event["data"], dict):
            event["data"]["id"] = "chatcmpl-2EHCQqsRzdOlFskNehCMu2oOMTXhSjey"


def _message_start_first(events: list[dict[str, Any]]) -> None:
    start = next(i for i, e in enumerate(events) if e["event"] == "message_start")
    events.insert(0, events.pop(start))


def _arguments_as_delta(events: list[dict[str, Any]]) -> None:
    """Cumulative fragments -> incremental ones: the last one sends only the new text."""
    fragments = [f for f in _tool_fragments(events) if "id" not in f]
    fragments[-1]["function"]["arguments"] = 'app.py"}'


def _cancelled_result(messages: list[Json]) -> None:
    call_id = messages[1]["content"][1]["id"]
    text = messages[2]["content"]
    messages[2]["content"] = [
        {"type": "tool_result", "tool_use_id": call_id, "content": "Cancelled by the user."},
        {"type": "text", "text": text},
    ]


def _system_to_top_level(body: Json) -> None:
    body["system"] = body["messages"].pop(0)["content"]


def _restore_text(document: dict[str, Any]) -> None:
    returned = json.loads(document["interactions"][0]["response"]["body"]["string"])["content"]
    in_request(1, lambda b: b["messages"][1]["content"].insert(0, returned[0]))(document)


def _renumber_sequence(events: list[dict[str, Any]]) -> None:
    for number, event in enumerate(events):
        if isinstance(event["data"], dict):
            event["data"]["sequence_number"] = number


def _deltas_from_done(events: list[dict[str, Any]]) -> None:
    done = [e["data"] for e in events if e["data"].get("type") == "response.output_text.done"]
    for event in events:
        if event["data"].get("type") == "response.output_text.delta":
            event["data"]["delta"] = done[0]["text"]


REPAIRS: dict[str, Edit] = {
    "negative/schema-gemini-parameters": in_request(
        0,
        lambda b: b["tools"][0]["functionDeclarations"][0]["parameters"].pop(
            "additionalProperties"
        ),
    ),
    "negative/pairing-call-id-missing": in_response(
        0, lambda b: _set(_calls(b)[0], "id", "1936293")
    ),
    "negative/pairing-call-id-duplicate": in_response(
        0, lambda b: _set(_calls(b)[1], "id", "functions.read_file:1")
    ),
    "negative/pairing-orphan-result": in_request(0, lambda b: b["messages"].pop(1)),
    "negative/fidelity-empty-content-error-result": in_request(
        0,
        lambda b: _set(
            b["messages"][2]["content"][0], "content", "The lookup service timed out after 30 s."
        ),
    ),
    "negative/pairing-orphan-result-after-compaction": in_request(
        0, lambda b: b["messages"][0]["content"].pop(0)
    ),
    "negative/pairing-duplicate-result": in_request(0, lambda b: b["messages"].pop(2)),
    "negative/pairing-unanswered-call": in_request(0, lambda b: _cancelled_result(b["messages"])),
    "negative/pairing-id-pattern": in_response(
        0, lambda b: _set(_calls(b)[0]["function"], "name", "WeatherPlugin-GetWeather")
    ),
    "negative/ordering-result-not-adjacent": in_request(0, lambda b: _swap(b["messages"], 2, 3)),
    "negative/ordering-result-after-text": in_request(
        0, lambda b: b["messages"][2]["content"].reverse()
    ),
    "negative/ordering-parallel-results-split": in_request(
        0, lambda b: _merge_into_previous(b["messages"], 3)
    ),
    "negative/ordering-role-alternation": in_request(
        0, lambda b: _merge_into_previous(b["messages"], 3)
    ),
    "negative/ordering-system-placement": in_request(0, _system_to_top_level),
    "negative/fidelity-arguments": in_response(
        0,
        lambda b: _set(
            _calls(b)[0]["function"], "arguments", json.loads(_calls(b)[0]["function"]["arguments"])
        ),
    ),
    "negative/fidelity-empty-content": in_request(
        0, lambda b: _set(b["messages"][1], "content", [{"type": "text", "text": "csv2json"}])
    ),
    "negative/reasoning-replay-missing": in_request(
        0, lambda b: _set(b["messages"][1], "reasoning_content", "I need today's date first.")
    ),
    "negative/reasoning-replay-forbidden": in_request(
        0, lambda b: b["messages"][1].pop("reasoning_content")
    ),
    "negative/reasoning-position": in_request(
        1, lambda b: _swap(b["messages"][1]["content"], 0, 1)
    ),
    "negative/stream-index-collision": in_stream(0, _reindex_calls),
    "negative/stream-event-order": in_stream(0, _message_start_first),
    "negative/stream-partial-json": in_stream(0, _arguments_as_delta),
    "negative/stream-call-index-claude-proxy": in_stream(0, _reindex_calls),
    "negative/stream-chunk-id": in_stream(0, _one_chunk_id),
    "negative/fidelity-stop-reason-content": in_response(
        0, lambda b: _set(b["choices"][0], "finish_reason", "stop")
    ),
    "negative/replay-assistant-altered": _restore_text,
    "negative/schema-request": in_request(0, lambda b: _set(b, "max_tokens", 1024)),
    # openai-responses: the reasoning item goes back with nothing after it; its
    # repair replays no reasoning item at all.
    "negative/reasoning-item-unfollowed-responses": in_request(0, lambda b: b["input"].pop(1)),
    "negative/stream-item-reference-responses": in_stream(0, _renumber_sequence),
    "negative/stream-done-consistent-responses": in_stream(0, _deltas_from_done),
    "negative/schema-response": in_response(
        0, lambda b: _set(b["choices"][0], "finish_reason", "tool_calls")
    ),
}


def test_every_negative_case_has_a_repair() -> None:
    assert set(REPAIRS) == {case.id for case in NEGATIVE}


@pytest.mark.parametrize("case", NEGATIVE, ids=ids(NEGATIVE))
def test_repairing_the_one_defect_leaves_nothing_to_report(case: Case) -> None:
    document = yaml.safe_load(case.source.read_text(encoding="utf-8"))
    REPAIRS[case.id](document)
    found = lint_text(yaml.safe_dump(document, allow_unicode=True), case.id)
    assert codes(found) == set(), [v.line() for v in found]
