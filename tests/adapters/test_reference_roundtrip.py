"""Round trips A -> B -> A through the reference adapter give A back.

The only normalisations are what B cannot carry:

* through deepseek-chat: thinking signatures and redacted thinking
  (docs/conventions.md, "Thinking in deepseek-chat");
* through openai-chat: the same for responses and streams (reasoning travels
  as ``reasoning_content``), and all reasoning for requests (OpenAI has no
  reasoning input field; the adapter sends none).
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.semantic import SemThinking
from harness.adapters.reference import DIRECTIONS
from harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, OPENAI_CHAT, PayloadKind
from tests.adapters.test_reference_support import (
    ADAPTER,
    corpus,
    payload_of,
    positive_cases,
    semantic,
    view,
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
    original, returned = _there_and_back(case_id, index, kind, via)
    loses_signatures = via in (DEEPSEEK_CHAT, OPENAI_CHAT)
    loses_thinking = via == OPENAI_CHAT and kind == "request"
    normalise = {"drop_signatures": loses_signatures, "drop_thinking": loses_thinking}
    # Ids are compared as they are: a round trip must keep every one.
    assert view(semantic(dialect, kind, returned), **normalise) == view(
        semantic(dialect, kind, original), **normalise
    )


def test_signature_loss_through_deepseek_is_the_only_difference() -> None:
    case = corpus()["thinking/tool-use-anthropic"]
    original, returned = _there_and_back(case.id, 1, "request", DEEPSEEK_CHAT)
    before = semantic(ANTHROPIC_MESSAGES, "request", original)
    after = semantic(ANTHROPIC_MESSAGES, "request", returned)
    assert view(after) != view(before)  # the signature did not survive...
    thinking_before = [i for m in before for i in m.items if isinstance(i, SemThinking)]
    thinking_after = [i for m in after for i in m.items if isinstance(i, SemThinking)]
    assert [t.signature for t in thinking_before] != [None]
    assert [t.signature for t in thinking_after] == [""]  # present and empty: no real one exists
    # ...and the reasoning text did, unchanged.
    assert [t.text for t in thinking_after] == [t.text for t in thinking_before]
    assert view(after, drop_signatures=True) == view(before, drop_signatures=True)


def test_redacted_thinking_is_dropped_through_deepseek_and_nothing_else() -> None:
    case = corpus()["thinking/redacted-anthropic"]
    original, returned = _there_and_back(case.id, 1, "request", DEEPSEEK_CHAT)
    before = semantic(ANTHROPIC_MESSAGES, "request", original)
    after = semantic(ANTHROPIC_MESSAGES, "request", returned)
    redacted = [i for m in before for i in m.items if isinstance(i, SemThinking)]
    assert redacted and all(t.redacted_data for t in redacted)
    assert not [i for m in after for i in m.items if isinstance(i, SemThinking)]
    assert view(after, drop_signatures=True) == view(before, drop_signatures=True)


# The fields a converter writes on a Chat Completions message.
_NATURAL = {"role", "content", "reasoning_content", "tool_calls", "tool_call_id"}


def test_deepseek_round_trip_returns_the_messages_exactly() -> None:
    # Reasoning on every tool-call turn, content "" beside calls, arguments
    # text and ids: all as DeepSeek sent them.
    case = corpus()["reasoning-replay/deepseek-two-step"]
    last = len(case.interactions) - 1
    original, returned = _there_and_back(case.id, last, "request", ANTHROPIC_MESSAGES)
    expected = [{k: v for k, v in m.items() if k in _NATURAL} for m in original["messages"]]
    assert returned["messages"] == expected
    assert sum("reasoning_content" in m for m in returned["messages"]) >= 2
