"""reasoning.altered: replayed reasoning is the text returned.

Reasoning the output leaves out is judged by replay_missing and
signature_lost (where the target requires it), a response whose reasoning is
gone by reasoning.dropped / not_carried (carried.py), and reasoning where the
source returned none by reasoning.invented.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, RoundTripCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.reasoning_views import AssistantView, thinking_pairs
from toolwire.conformance.readings.text import same_text
from toolwire.conformance.reasoning import pairwise
from toolwire.conformance.reasoning.carried import carries_reasoning, emptied, extra_reasoning
from toolwire.conformance.rule import documented, means, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING, DEEPSEEK_THINKING
from toolwire.harness.model import Conversation, Response

ALTERED = rule(
    "reasoning.altered",
    "MUST",
    "conversion roundtrip",
    "Replayed reasoning is the real text returned: not summarised, regenerated or "
    "replaced by a placeholder.",
    DEEPSEEK_THINKING,
    ANTHROPIC_THINKING,
    evidence=(
        documented(ANTHROPIC_THINKING, "thinking blocks are passed back unmodified"),
        means(DEEPSEEK_THINKING, "reasoning_content is the model's own reasoning, passed back"),
    ),
    fix=(
        "Send back the reasoning text exactly as it was returned: do not summarise, shorten, "
        "regenerate or replace it with a placeholder."
    ),
    convention=(
        "Thinking in deepseek-chat",
        "DeepSeek carries reasoning as plain `reasoning_content` text; several thinking "
        "blocks are joined with no separator, and that is not an alteration.",
    ),
)


def _thinking_pieces(view: AssistantView) -> list[str]:
    """The view's reasoning texts, a Responses reasoning item's summary parts
    each a piece of its own (the codec joins them with no separator)."""
    pieces: list[str] = []
    for thinking in view.thinking:
        block = thinking.block
        parts = block.extra.get("summary") if block.origin == "reasoning_item" else None
        texts = (
            [
                p["text"]
                for p in parts or ()
                if isinstance(p, dict) and isinstance(p.get("text"), str)
            ]
            if isinstance(parts, list)
            else []
        )
        if texts:
            pieces.extend(texts)
        elif block.text is not None:
            pieces.append(block.text)
    return pieces


def _whitespace_only(a: str, b: str) -> bool:
    return a.strip() == b.strip()


def _returned(view: AssistantView) -> bool:
    """The source view carries reasoning (carried.py's reading)."""
    return carries_reasoning(view) or bool(extra_reasoning(view))


def check_altered(
    source: Conversation | Response,
    output: Conversation | Response,
    emptied_elsewhere: bool = False,
) -> list[Finding] | None:
    """Reasoning that reaches the output is the source's text, unchanged.

    Reasoning the output leaves out is judged by replay_missing and
    signature_lost (where the target requires it), not here; with
    ``emptied_elsewhere`` (a conversion), a response whose reasoning is gone
    or blank is left to reasoning.dropped / not_carried, and text where the
    source returned none (``reasoning_content: ""``) to reasoning.invented.
    """
    pairs = thinking_pairs(source, output, lambda s: s.thinking_text() is not None)
    if not pairs:
        return None
    found = []
    judged = False  # reasoning the output left out is not compared here
    for source_view, output_view in pairs:
        expected, actual = source_view.thinking_text(), output_view.thinking_text()
        if actual is None or expected is None:
            continue
        if emptied_elsewhere and emptied(output, output_view):
            continue  # the whole reasoning is gone: reasoning.dropped or not_carried
        if emptied_elsewhere and not _returned(source_view):
            continue  # the model returned none: what the output carries is invented
        judged = True
        if actual == expected:
            continue
        signed = any(t.block.signature for t in output_view.thinking)
        if not signed and (
            _whitespace_only(expected, actual)
            or same_text(_thinking_pieces(source_view), _thinking_pieces(output_view))
        ):
            # Unsigned reasoning: surrounding whitespace, or the separators
            # fidelity.text accepts where pieces (summary parts) were joined,
            # are no alteration.
            continue
        path = output_view.thinking[0].path
        found.append(
            finding(
                "reasoning.altered",
                f"the reasoning of {source_view.path} arrives at {path} as different text "
                f"({len(expected)} characters returned, {len(actual)} sent)",
                path,
                expected=expected,
                actual=actual,
            )
        )
    return found if judged else None


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.altered": pairwise.conversion(pairwise.response_aware(check_altered)),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "reasoning.altered": pairwise.roundtrip(check_altered),
}
