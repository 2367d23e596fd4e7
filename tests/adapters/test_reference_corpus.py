"""The reference adapter on the bundled corpus: every case with a twin in a
dialect it targets converts into what the twin says, in a schema-valid payload."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.adapters.test_reference_engine import declined_as_documented
from tests.adapters.test_reference_support import (
    adapter_for,
    call_ids,
    corpus,
    parse,
    payload_of,
    positive_cases,
    schema_violations,
    semantic,
)
from toolwire.conformance.fidelity.stop_reason import check_stop_reason
from toolwire.conformance.fidelity.usage import check_usage
from toolwire.conformance.readings.conventions import split_gemini_id
from toolwire.conformance.readings.semantic import comparable, relabel_ids
from toolwire.harness.adapters import UnsupportedConversion
from toolwire.harness.adapters.reference import DIRECTIONS
from toolwire.harness.adapters.reference.ids import from_anthropic_id
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    PayloadKind,
    Response,
)
from toolwire.harness.payloads import parse_payload


def _twin_params() -> list[Any]:
    params = []
    for case in positive_cases():
        for target, twin_id in sorted(case.twins.items()):
            if ("request", case.dialect, target) not in DIRECTIONS:
                continue
            twin = corpus()[twin_id]
            for index, interaction in enumerate(case.interactions):
                if not interaction.is_success():
                    continue
                assert twin.interactions[index].is_stream() == interaction.is_stream()
                for kind in interaction.payload_kinds:
                    params.append(
                        pytest.param(
                            case.id, twin_id, index, kind, id=f"{case.id}[{index}]:{kind}->{target}"
                        )
                    )
    return params


TWIN_PARAMS = _twin_params()


def test_twins_cover_every_declared_pair_but_qwen() -> None:
    pairs = {(corpus()[p.values[0]].dialect, corpus()[p.values[1]].dialect) for p in TWIN_PARAMS}
    assert pairs == {
        (OPENAI_CHAT, ANTHROPIC_MESSAGES),
        (ANTHROPIC_MESSAGES, OPENAI_CHAT),
        (ANTHROPIC_MESSAGES, DEEPSEEK_CHAT),
        (DEEPSEEK_CHAT, ANTHROPIC_MESSAGES),
        (OPENAI_CHAT, OPENAI_RESPONSES),
        (OPENAI_RESPONSES, OPENAI_CHAT),
        (ANTHROPIC_MESSAGES, OPENAI_RESPONSES),
        (OPENAI_RESPONSES, ANTHROPIC_MESSAGES),
        (OPENAI_CHAT, GEMINI),
        (GEMINI, OPENAI_CHAT),
        (ANTHROPIC_MESSAGES, GEMINI),
        (GEMINI, ANTHROPIC_MESSAGES),
    }
    assert {p.values[3] for p in TWIN_PARAMS} == {"request", "response", "stream"}
    # Each pair of a new dialect is judged on every kind of payload.
    for pair in [(a, b) for a, b in pairs if {OPENAI_RESPONSES, GEMINI} & {a, b}]:
        kinds = {
            p.values[3]
            for p in TWIN_PARAMS
            if (corpus()[p.values[0]].dialect, corpus()[p.values[1]].dialect) == pair
        }
        assert kinds == {"request", "response", "stream"}, pair


def _convert(case_id: str, index: int, kind: PayloadKind, target: str) -> tuple[Any, Any]:
    case = corpus()[case_id]
    interaction = case.interactions[index]
    source = payload_of(interaction, kind)
    return source, adapter_for(case, interaction).convert(source, kind, case.dialect, target)


def _said(dialect: str, kind: PayloadKind, payload: Any, *through: str) -> list[Any]:
    """What a payload says, compared as the rules and the twin check compare it:
    documented text joins accepted, ids relabelled by first appearance (twins
    were recorded with their own ids), what ``through`` cannot carry dropped."""
    summaries = [comparable(m, *through) for m in semantic(dialect, kind, payload)]
    if _request_across_responses(kind, *through) or _request_across_gemini(kind, *through):
        summaries = [replace(summary, thinking=()) for summary in summaries]
    return relabel_ids(summaries)


def _request_across_gemini(kind: PayloadKind, *through: str) -> bool:
    """Reasoning in a request is not sent across gemini: Gemini's thought parts
    and another provider's signed reasoning are each their own provider's
    (docs/conventions.md, "Gemini")."""
    return kind == "request" and GEMINI in through and len(set(through)) > 1


def _request_across_responses(kind: PayloadKind, *through: str) -> bool:
    """A request converted into or out of openai-responses carries no reasoning:
    an encrypted reasoning item only OpenAI can read, an Anthropic thinking
    block only with Anthropic's signature (docs/conventions.md, "The Responses
    API"). Each twin keeps its own provider's reasoning, which a conversion
    cannot give: in requests the twins agree on everything but reasoning."""
    return kind == "request" and OPENAI_RESPONSES in through and len(set(through)) > 1


@pytest.mark.parametrize(("case_id", "twin_id", "index", "kind"), TWIN_PARAMS)
def test_conversion_says_what_the_twin_says(
    case_id: str, twin_id: str, index: int, kind: PayloadKind
) -> None:
    case, twin = corpus()[case_id], corpus()[twin_id]
    source, output = _convert(case_id, index, kind, twin.dialect)
    expected = payload_of(twin.interactions[index], kind)
    dialects = (case.dialect, twin.dialect)
    assert _said(twin.dialect, kind, output, *dialects) == _said(
        twin.dialect, kind, expected, *dialects
    )
    # Ids are kept unchanged (the corpus ids are legal everywhere); across
    # gemini, as its documented id convention reads them back.
    read = _gemini_id if GEMINI in dialects else _same_id
    assert [read(i) for i in call_ids(semantic(twin.dialect, kind, output))] == [
        read(i) for i in call_ids(semantic(case.dialect, kind, source))
    ]


def _same_id(call_id: str | None) -> str | None:
    return call_id


def _gemini_id(call_id: str | None) -> str | None:
    """The Gemini id an id stands for (docs/conventions.md, "Gemini"): a
    generated ``gm_`` id is none, a ``__thought__`` signature is not part of
    it, and the ``twid_`` encoding toward Anthropic is undone first."""
    return split_gemini_id(from_anthropic_id(call_id) if call_id else call_id)[0]


@pytest.mark.parametrize(
    ("case_id", "twin_id", "index", "kind"), [p for p in TWIN_PARAMS if p.values[3] != "request"]
)
def test_stop_reason_and_usage_survive(
    case_id: str, twin_id: str, index: int, kind: PayloadKind
) -> None:
    case, twin = corpus()[case_id], corpus()[twin_id]
    source, output = _convert(case_id, index, kind, twin.dialect)
    # Judged by the rule itself: a forced call may end with openai "stop" in one
    # payload and "tool_calls" in another, and both are the same stop reason.
    judged = check_stop_reason(
        parse_payload(case.dialect, kind, source, case.profile),
        parse_payload(twin.dialect, kind, output, twin.profile),
    )
    assert judged == []
    got = parse(twin.dialect, kind, output)
    original = parse(case.dialect, kind, source)
    assert isinstance(got, Response) and isinstance(original, Response)
    assert got.usage is not None and original.usage is not None
    assert got.usage.output_tokens == original.usage.output_tokens
    # The input count moves the cache reads out or in by dialect: the rule judges it.
    usage_judged = check_usage(
        parse_payload(case.dialect, kind, source, case.profile),
        parse_payload(twin.dialect, kind, output, twin.profile),
    )
    assert usage_judged == []


def _conversion_params() -> list[Any]:
    params = []
    for case in positive_cases():
        for kind_, source, target in sorted(DIRECTIONS):
            if source != case.dialect:
                continue
            for index, interaction in enumerate(case.interactions):
                if interaction.is_success() and kind_ in interaction.payload_kinds:
                    params.append(
                        pytest.param(
                            case.id,
                            index,
                            kind_,
                            target,
                            id=f"{case.id}[{index}]:{kind_}->{target}",
                        )
                    )
    return params


@pytest.mark.parametrize(("case_id", "index", "kind", "target"), _conversion_params())
def test_every_output_validates_against_the_target_schema(
    case_id: str, index: int, kind: PayloadKind, target: str
) -> None:
    case = corpus()[case_id]
    try:
        _, output = _convert(case_id, index, kind, target)
    except UnsupportedConversion as declined:
        # Only the documented refusals (see test_reference_engine.DECLINED).
        assert declined_as_documented(case_id, str(declined)), str(declined)
        return
    assert schema_violations(target, kind, output) == [], case.id


def test_deepseek_reasoning_becomes_a_thinking_block_with_an_empty_signature() -> None:
    """docs/conventions.md: the documented block shape needs a signature field and
    no real signature exists, so it is present and empty."""
    case = corpus()["thinking/tool-use-deepseek"]
    interaction = case.interactions[1]
    output = adapter_for(case, interaction).convert(
        interaction.request_json(), "request", DEEPSEEK_CHAT, ANTHROPIC_MESSAGES
    )
    thinking = output["messages"][1]["content"][0]
    assert thinking["type"] == "thinking"
    assert thinking["signature"] == ""
    assert thinking["thinking"]
    assert schema_violations(ANTHROPIC_MESSAGES, "request", output) == []
