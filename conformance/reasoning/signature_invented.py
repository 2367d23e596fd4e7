"""reasoning.signature_invented: no thinking signature or redacted data the
source did not carry, and none moved to another block.

Anthropic checks each thinking block sent back against its signature; a block
whose signature or redacted data differs in any way from what the API
returned (edited, reordered, merged, or produced by another model) is refused
with HTTP 400 "Invalid `signature` in `thinking` block"
(https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking;
https://github.com/anthropics/anthropic-sdk-python/issues/1598).

One defect, one code: a signature the source carried that is missing or
changed in the output is ``reasoning.signature_lost``'s; this rule reports
signatures the output carries that the source never had (when every source
signature is kept), and kept ones that moved to another block or order. An
empty signature is no signature: ``signature: ""`` on reasoning from a dialect
without signatures is the documented convention (docs/conventions.md,
"Thinking in deepseek-chat"). A signature the source carried in a field the
codec does not read (OpenRouter's ``reasoning_details``, LiteLLM's
``thinking_blocks``), or on a part (Gemini's ``thoughtSignature`` of a
function-call or text part), is carried, not invented: whether it may travel so is
the conventions' and ``reasoning.call_signature_lost``'s question.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolwire.conformance.context import (
    ConversionCheck,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.reasoning_views import AssistantView
from toolwire.conformance.reasoning import pairwise
from toolwire.conformance.reasoning.carried import aligned_views, extra_reasoning
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_SIGNATURE_400, ANTHROPIC_THINKING
from toolwire.harness.dialects.gemini.parts import SIGNATURE
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation, Response, TextBlock

SIGNATURE_INVENTED = rule(
    "reasoning.signature_invented",
    "MUST",
    "conversion roundtrip",
    "Every thinking signature and redacted_thinking data in the output is one the source "
    "carried, on the same block in the same order; an empty signature on reasoning that "
    "had none is the documented convention.",
    ANTHROPIC_THINKING,
    ANTHROPIC_SIGNATURE_400,
    dialects=frozenset({ANTHROPIC}),
    evidence=(
        rejected(
            ANTHROPIC_SIGNATURE_400,
            'Anthropic 400 "Invalid `signature` in `thinking` block" for foreign blocks',
        ),
    ),
    fix=(
        "Never write a signature or redacted data the source did not carry; thinking built "
        'from DeepSeek\'s reasoning_content gets `signature: ""`.'
    ),
    convention=(
        "Thinking in deepseek-chat",
        "a thinking block needs a signature field and DeepSeek's reasoning has none, so "
        '`signature: ""` is the convention, not an invented signature.',
    ),
)


@dataclass(frozen=True)
class _Signed:
    kind: str  # "thinking signature" or "redacted_thinking data"
    value: str
    path: str


def _signed(view: AssistantView) -> list[_Signed]:
    """The non-empty signature or redacted data of each thinking block, in order."""
    items = []
    for placed in view.thinking:
        block = placed.block
        if block.redacted_data:
            items.append(_Signed("redacted_thinking data", block.redacted_data, placed.path))
        elif block.signature:
            items.append(_Signed("thinking signature", block.signature, placed.path))
    return items


def _strings(values: list[object]) -> set[str]:
    """Every string inside ``values`` (nested lists and objects included)."""
    found: set[str] = set()
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _has_signature_field(view: AssistantView) -> bool:
    """Any thinking block of the view with a signature (``""`` included, which
    is judged and accepted) or redacted data."""
    return any(
        placed.block.signature is not None or placed.block.redacted_data is not None
        for placed in view.thinking
    )


def _gemini_signatures(view: AssistantView) -> set[str]:
    """The thoughtSignatures of the view's calls and text parts (Gemini)."""
    found = {call.signature for call in view.calls if call.signature}
    for turn in view.turns:
        for block in turn.blocks:
            value = block.extra.get(SIGNATURE) if isinstance(block, TextBlock) else None
            if isinstance(value, str) and value:
                found.add(value)
    return found


def _short(value: str) -> str:
    return repr(value) if len(value) <= 16 else repr(value[:12] + "…")


def _judge_view(source_view: AssistantView, output_view: AssistantView) -> list[Finding]:
    source_items, output_items = _signed(source_view), _signed(output_view)
    source_kinds = {item.value: item.kind for item in source_items}
    output_values = {item.value for item in output_items}
    found = []
    if not all(item.value in output_values for item in source_items):
        return []  # a source signature is missing or changed: signature_lost says so
    elsewhere = _strings(extra_reasoning(source_view))
    # A Gemini thoughtSignature (on a call or a text part), carried on as a
    # thinking block's signature (claude-code-router does), came from the source too.
    elsewhere |= _gemini_signatures(source_view)
    for item in output_items:
        kind = source_kinds.get(item.value)
        if kind == item.kind or (kind is None and item.value in elsewhere):
            continue  # kept, or carried by the source in a field of its own
        if kind is None and not source_items:
            why = f"{source_view.describe()} in the source carried no signature at all"
        elif kind is None:
            why = f"it is none of the {len(source_items)} that {source_view.describe()} carried"
        else:
            why = f"the source carried it as {kind}"
        found.append(
            finding(
                "reasoning.signature_invented",
                f"the {item.kind} at {item.path} ({_short(item.value)}) was not returned by "
                f"the model: {why}; Anthropic refuses a thinking block it did not sign",
                item.path,
                expected=None if kind is None else kind,
                actual=item.value,
            )
        )
    expected_order = [item.value for item in source_items]
    actual_order = [item.value for item in output_items if item.value in source_kinds]
    if not found and actual_order != expected_order:
        path = output_items[0].path
        found.append(
            finding(
                "reasoning.signature_invented",
                f"the thinking blocks at {output_view.path} carry the source's signatures in "
                "another order, so each sits on a block it does not sign; Anthropic refuses "
                "reordered or moved thinking blocks",
                path,
                expected=[_short(v) for v in expected_order],
                actual=[_short(v) for v in actual_order],
            )
        )
    return found


def check_signature_invented(
    source: Conversation | Response, output: Conversation | Response
) -> list[Finding] | None:
    pairs = aligned_views(source, output)
    if pairs is None:
        return None
    judged = [(s, o) for s, o in pairs if _has_signature_field(o)]
    if not judged:
        return None  # no signature field in the output: nothing can be invented
    return [item for s, o in judged for item in _judge_view(s, o)]


def _roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    if roundtrip.returned.dialect != ANTHROPIC_MESSAGES:
        return None
    original = roundtrip.original.conversation or roundtrip.original.response
    returned = roundtrip.returned.conversation or roundtrip.returned.response
    if original is None or returned is None:
        return None
    return check_signature_invented(original, returned)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.signature_invented": pairwise.conversion(
        check_signature_invented, ANTHROPIC_MESSAGES
    )
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"reasoning.signature_invented": _roundtrip}
