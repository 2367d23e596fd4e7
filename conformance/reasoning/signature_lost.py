"""reasoning.signature_lost: Anthropic thinking keeps its signature and redacted data.

Judged where the target can carry them (anthropic-messages,
https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking); a
deepseek-chat target cannot carry signatures (docs/conventions.md), so a round
trip through it loses them by a named normalisation.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, RoundTripCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.reasoning_views import AssistantView, thinking_pairs
from toolwire.conformance.reasoning import pairwise
from toolwire.conformance.reasoning.carried import emptied
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation, Response

SIGNATURE_LOST = rule(
    "reasoning.signature_lost",
    "MUST",
    "conversion roundtrip",
    "Thinking signatures and redacted_thinking data come back unchanged.",
    ANTHROPIC_THINKING,
    evidence=(
        documented(
            ANTHROPIC_THINKING, "the signature of a thinking block is verified when sent back"
        ),
        rejected(
            "https://github.com/kaitranntt/ccs/issues/415",
            'Anthropic 400 "Invalid `signature` in `thinking` block" for an emptied signature',
        ),
    ),
    fix=(
        "Keep each thinking block's `signature` and each redacted_thinking block's `data` "
        "byte for byte when the target is anthropic-messages."
    ),
    convention=(
        "Thinking in deepseek-chat",
        "DeepSeek has no field for a signature: it is judged only where the target can carry "
        "one (anthropic-messages).",
    ),
)


def _signed_items(view: AssistantView) -> list[tuple[str, str, str]]:
    """(kind, value, path) of the signature or redacted data of each thinking block."""
    items = []
    for placed in view.thinking:
        if placed.block.redacted_data is not None:
            items.append(("redacted_thinking data", placed.block.redacted_data, placed.path))
        elif placed.block.signature is not None:
            items.append(("thinking signature", placed.block.signature, placed.path))
    return items


def check_signature_lost(
    source: Conversation | Response,
    output: Conversation | Response,
    emptied_elsewhere: bool = False,
) -> list[Finding] | None:
    """Signatures and redacted data survive into an anthropic-messages output.

    Required on the assistant turn in progress (after the last genuine user
    message) and in a response; on earlier turns a client may omit thinking,
    but thinking it keeps must keep its signature.
    """
    pairs = thinking_pairs(source, output, lambda s: bool(_signed_items(s)))
    if not pairs:
        return None
    found = []
    judged = False
    for source_view, output_view in pairs:
        kept = {value for _, value, _ in _signed_items(output_view)}
        if not source_view.open_loop and not output_view.thinking:
            continue  # thinking of an earlier turn may be omitted whole
        if emptied_elsewhere and emptied(output, output_view):
            continue  # a response that lost all its reasoning: reasoning.dropped or not_carried
        judged = True
        for kind, value, path in _signed_items(source_view):
            if value in kept:
                continue
            where = output_view.thinking[0].path if output_view.thinking else output_view.path
            found.append(
                finding(
                    "reasoning.signature_lost",
                    f"the {kind} of {path} ({_short(value)}) is not in the output at {where}",
                    where,
                    expected=value,
                    actual=sorted(kept) or None,
                )
            )
    return found if judged else None


def _short(value: str) -> str:
    return repr(value) if len(value) <= 16 else repr(value[:12] + "…")


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.signature_lost": pairwise.conversion(
        pairwise.response_aware(check_signature_lost), ANTHROPIC_MESSAGES
    ),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "reasoning.signature_lost": pairwise.roundtrip(check_signature_lost, ANTHROPIC_MESSAGES),
}
