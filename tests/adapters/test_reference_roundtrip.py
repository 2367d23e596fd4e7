"""Round trips A -> B -> A through the reference adapter give A back.

Compared as the rules compare (``toolwire.conformance.readings.semantic.comparable``): text
blocks joined with a documented separator say the same. The only other
normalisations are what B cannot carry:

* through deepseek-chat: thinking signatures and redacted thinking
  (docs/conventions.md, "Thinking in deepseek-chat"), and empty reasoning,
  which carries nothing and becomes no thinking block;
* through openai-chat: the same for responses and streams (reasoning travels
  as ``reasoning_content``), and all reasoning for requests (OpenAI has no
  reasoning input field; the adapter sends none);
* through openai-responses: the same as through openai-chat (another
  provider's reasoning travels as summary text, and none in requests);
* from openai-responses through any other dialect: reasoning items without
  summary text (only ``encrypted_content`` or an id, which only OpenAI reads).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.adapters.test_reference_engine import declined_as_documented
from tests.adapters.test_reference_support import (
    ADAPTER,
    corpus,
    payload_of,
    positive_cases,
    semantic,
)
from toolwire.conformance.readings.semantic import MessageSummary, SemThinking, comparable
from toolwire.harness.adapters import UnsupportedConversion
from toolwire.harness.adapters.reference import DIRECTIONS
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    PayloadKind,
)


def _roundtrip_params() -> list[Any]:
    params = []
    for case in positive_cases():
        for kind, source, via in sorted(DIRECTIONS):
            if source != case.dialect or (kind, via, source) not in DIRECTIONS:
                continue
            for index, interaction in enumerate(case.interactions):
                if interaction.is_success() and kind in interaction.payload_kinds:
                    params.append(
                        pytest.param(
                            case.id, index, kind, via, id=f"{case.id}[{index}]:{kind}:{via}"
                        )
                    )
    return params


ROUNDTRIPS = _roundtrip_params()


def _there_and_back(case_id: str, index: int, kind: PayloadKind, via: str) -> tuple[Any, Any]:
    case = corpus()[case_id]
    original = payload_of(case.interactions[index], kind)
    middle = ADAPTER.convert(original, kind, case.dialect, via)
    return original, ADAPTER.convert(middle, kind, via, case.dialect)


def test_round_trips_cover_every_reversible_pair_and_kind() -> None:
    seen = {(corpus()[p.values[0]].dialect, p.values[3], p.values[2]) for p in ROUNDTRIPS}
    for dialect, via in (
        (OPENAI_CHAT, ANTHROPIC_MESSAGES),
        (ANTHROPIC_MESSAGES, OPENAI_CHAT),
        (ANTHROPIC_MESSAGES, DEEPSEEK_CHAT),
        (DEEPSEEK_CHAT, ANTHROPIC_MESSAGES),
    ):
        for kind in ("request", "response", "stream"):
            assert (dialect, via, kind) in seen


@pytest.mark.parametrize(("case_id", "index", "kind", "via"), ROUNDTRIPS)
def test_round_trip_gives_the_original_back(
    case_id: str, index: int, kind: PayloadKind, via: str
) -> None:
    dialect = corpus()[case_id].dialect
    try:
        original, returned = _there_and_back(case_id, index, kind, via)
    except UnsupportedConversion as declined:
        # Only the documented refusals (see test_reference_engine.DECLINED).
        assert declined_as_documented(case_id, str(declined)), str(declined)
        return
    # anthropic -> openai-chat requests drop thinking (docs/conventions.md), on
    # the way there or, for openai-chat requests that carry reasoning, back.
    # So do openai-responses requests (docs/conventions.md, "The Responses API").
    loses_thinking = bool({OPENAI_CHAT, OPENAI_RESPONSES} & {via, dialect}) and kind == "request"
    # Through gemini thinking is not sent in requests, and Anthropic signatures
    # cannot travel (docs/conventions.md, "Gemini"); nor are Gemini's thought
    # parts sent to another provider in a request.
    loses_thinking = loses_thinking or via == GEMINI or (dialect == GEMINI and kind == "request")
    # Ids are compared as they are: a round trip must keep every one.
    assert _said(dialect, kind, returned, via, loses_thinking) == _said(
        dialect, kind, original, via, loses_thinking
    )


def _said(
    dialect: str, kind: PayloadKind, payload: Any, via: str, loses_thinking: bool
) -> list[MessageSummary]:
    summaries = []
    for message in semantic(dialect, kind, payload):
        # Both dialects: what one of them cannot hold does not come back.
        summary = comparable(message, dialect, via)
        thinking = (
            () if loses_thinking else tuple(t for t in summary.thinking if _carried(t, dialect))
        )
        summaries.append(replace(summary, thinking=thinking))
    return summaries


def _carried(thinking: SemThinking, dialect: str) -> bool:
    """Whether reasoning can come back from another dialect: empty reasoning
    carries nothing, and an openai-responses reasoning item without summary text
    holds only what OpenAI can read (``encrypted_content``, its ``rs_`` id), which
    cannot leave the Responses API (docs/conventions.md, "The Responses API")."""
    if thinking.text == "":
        return False
    return thinking.text is not None or dialect != OPENAI_RESPONSES
