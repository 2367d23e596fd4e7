"""fidelity.stop_reason: the stop reason maps to its equivalent.

fidelity.stop_reason follows the catalogue's table on the neutral stop
reason: end_turn<->stop, tool_use<->tool_calls, max_tokens<->length,
stop_sequence<->stop. openai-chat's ``stop`` covers both a natural end and a
stop sequence, so where either side is of the openai family those two are
one. Accepted too, being documented equivalents rather than losses: Anthropic
``refusal`` and OpenAI ``content_filter`` (the anthropic codec writes one as
the other); a message that carries tool calls reported as ``tool_use``
although the source said ``stop`` (some compatible servers say ``stop`` with
calls). Anthropic ``pause_turn`` has no openai-chat counterpart, and a stop
reason the neutral model does not know (Gemini ``MALFORMED_FUNCTION_CALL``)
has no documented mapping: neither is judged, even when the output drops the
choice. An output with an empty ``choices`` / ``candidates`` list otherwise
lost the stop reason, like a null ``finish_reason`` (docs/conventions.md,
"Stop reasons").
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwire.conformance.context import (
    ConversionCheck,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.views import is_openai_family
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES, StopReason

STOP_REASON = rule(
    "fidelity.stop_reason",
    "MUST",
    "conversion roundtrip",
    "The stop reason maps to its equivalent: end_turn<->stop, tool_use<->tool_calls, "
    "max_tokens<->length, stop_sequence<->stop.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    evidence=(
        means(OPENAI_DOCS, "finish_reason stop, length, tool_calls, content_filter"),
        means(ANTHROPIC_DOCS, "stop_reason end_turn, max_tokens, stop_sequence, tool_use"),
    ),
    fix=(
        "Map the stop reason by its meaning: end_turn<->stop, tool_use<->tool_calls, "
        "max_tokens<->length, stop_sequence<->stop. Never hard-code one value."
    ),
    convention=(
        "Stop reasons",
        "the documented details of the mapping (pause_turn, refusal, content_filter, a named "
        "tool_choice answered with stop); an empty choices list loses the stop reason, and a "
        "stop reason with no documented equivalent (Gemini MALFORMED_FUNCTION_CALL) gets no "
        "verdict.",
    ),
)


_OPENAI_WIRE = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "content_filter": "content_filter",
    "refusal": "content_filter",
}
_ANTHROPIC_WIRE = {
    "end_turn": "end_turn",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "content_filter": "refusal",
    "refusal": "refusal",
}
# How the other targets say a stop reason, for the message only.
_RESPONSES_WIRE = {
    "end_turn": "completed",
    "stop_sequence": "completed",
    "tool_use": "completed",
    "max_tokens": "incomplete (max_output_tokens)",
    "content_filter": "incomplete (content_filter)",
    "refusal": "incomplete (content_filter)",
}
_GEMINI_WIRE = {
    "end_turn": "STOP",
    "stop_sequence": "STOP",
    "tool_use": "STOP",
    "max_tokens": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "SAFETY",
}
_WIRE_PATH = {
    ANTHROPIC_MESSAGES: ("stop_reason", _ANTHROPIC_WIRE),
    OPENAI_RESPONSES: ("status", _RESPONSES_WIRE),
    GEMINI: ("candidates[0].finishReason", _GEMINI_WIRE),
}
_NOT_JUDGED = frozenset({"unknown", "pause_turn"})


def _classes(dialects: Sequence[str]) -> dict[str, str]:
    """Canonical stop reason -> equivalence class, given every dialect the
    response was written in on its way."""
    classes = {"content_filter": "filtered", "refusal": "filtered"}
    if any(is_openai_family(dialect) for dialect in dialects):
        classes["stop_sequence"] = "end_turn"
    return classes


def check_stop_reason(
    source: PayloadUnderTest, output: PayloadUnderTest, via: Sequence[str] = ()
) -> list[Finding] | None:
    before, after = source.response, output.response
    if before is None or after is None or not before.choices:
        return None
    expected = before.stop_reason
    if expected.canonical in _NOT_JUDGED:
        return None
    if not after.choices:
        return [_choice_lost(expected, output.dialect)]
    actual = after.stop_reason
    classes = _classes((source.dialect, output.dialect, *via))
    same = classes.get(expected.canonical, expected.canonical) == classes.get(
        actual.canonical, actual.canonical
    )
    calls_now_named = actual.canonical == "tool_use" and bool(after.message.tool_calls)
    if same or (expected.canonical == "end_turn" and calls_now_named):
        return []
    path, wanted = _wanted(expected, output.dialect)
    got = "no stop reason" if actual.raw is None else repr(actual.raw)
    return [
        finding(
            "fidelity.stop_reason",
            f"the source stopped with {_raw(expected)}; the output at {path} has {got}, "
            f"expected {wanted!r}",
            path,
            expected=wanted,
            actual=actual.raw,
        )
    ]


def _wanted(expected: StopReason, dialect: str) -> tuple[str, str | None]:
    """Where ``dialect`` says a stop reason, and how it says ``expected``."""
    path, wire = _WIRE_PATH.get(dialect, ("choices[0].finish_reason", _OPENAI_WIRE))
    return path, wire.get(expected.canonical, expected.raw)


def _choice_lost(expected: StopReason, dialect: str) -> Finding:
    # An empty choices / candidates list carries no stop reason at all: the
    # same loss as a null finish_reason, and a client reading choices[0]
    # fails (openai/openai-agents-python#1559).
    path, wanted = _wanted(expected, dialect)
    field = path.split("[", 1)[0]
    return finding(
        "fidelity.stop_reason",
        f"the source stopped with {_raw(expected)}; the output's {field} list is empty, so "
        f"that stop reason is lost, expected {wanted!r} at {path}",
        field,
        expected=wanted,
        actual=[],
    )


def _raw(stop: StopReason) -> str:
    return repr(stop.raw) if stop.raw is not None else stop.canonical


def _stop_reason_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through openai-chat, a stop sequence comes back as a plain end of turn.
    return check_stop_reason(roundtrip.original, roundtrip.returned, (roundtrip.via,))


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.stop_reason": pairwise.conversion(check_stop_reason),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"fidelity.stop_reason": _stop_reason_roundtrip}
