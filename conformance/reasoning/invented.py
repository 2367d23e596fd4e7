"""reasoning.invented: a conversion makes up no reasoning.

* Output reasoning where the source view had none is invented
  (``reasoning.invented``), in requests and responses alike. ``""`` is no
  reasoning: the ``reasoning_content: ""`` DeepSeek needs on tool-call turns
  (docs/conventions.md) is not an invention.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, ConversionUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import SHOULD_ON_OPENAI_FAMILY
from toolwire.conformance.readings.conventions import provider_bound
from toolwire.conformance.reasoning.carried import aligned_views, carries_reasoning, extra_reasoning
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_SIGNATURE_400,
    ANTHROPIC_THINKING,
    DEEPSEEK_THINKING,
)
from toolwire.harness.model import Conversation, Response

INVENTED = rule(
    "reasoning.invented",
    "MUST",
    "conversion",
    "The output carries no reasoning where the source carried none: no placeholder or "
    "made-up reasoning text, no redacted_thinking block of its own.",
    ANTHROPIC_THINKING,
    ANTHROPIC_SIGNATURE_400,
    DEEPSEEK_THINKING,
    # Anthropic rejects thinking blocks it did not produce; the openai family
    # documents no rejection, so there it is a SHOULD.
    profile_levels=dict(SHOULD_ON_OPENAI_FAMILY),
    evidence=(
        rejected(
            ANTHROPIC_SIGNATURE_400,
            "Anthropic refuses thinking blocks it did not produce: invalid signature 400",
        ),
    ),
    fix=(
        "Write reasoning only where the source had some: no placeholder text, no thinking "
        "block of your own, no redacted_thinking block."
    ),
    convention=(
        "Thinking in deepseek-chat",
        'DeepSeek answers 400 when a tool-call turn comes back without reasoning; `""` '
        "there carries no reasoning and is not invented.",
    ),
)


def check_invented(
    source: Conversation | Response, output: Conversation | Response
) -> list[Finding] | None:
    """No output view carries reasoning where its source view carried none."""
    pairs = aligned_views(source, output)
    if pairs is None:
        return None
    judged = [(s, o) for s, o in pairs if carries_reasoning(o)]
    if not judged:
        return None  # the output carries no reasoning: nothing can be invented
    found = []
    for source_view, output_view in judged:
        # Any reasoning in the source, even redacted, signed only, encrypted
        # only (an openai-responses reasoning item without summary) or in a
        # field the codec does not read, is a reason for the output's; whether
        # its text is right is altered's.
        if (
            carries_reasoning(source_view)
            or extra_reasoning(source_view)
            or any(provider_bound(placed.block) for placed in source_view.thinking)
        ):
            continue
        path = output_view.thinking[0].path
        text = output_view.thinking_text()
        shown = f"{len(text)} characters of reasoning" if text else "redacted thinking"
        found.append(
            finding(
                "reasoning.invented",
                f"{path} carries {shown}, but {source_view.describe()} in the source carried "
                "no reasoning: the model never returned it",
                path,
                expected=None,
                actual=text,
            )
        )
    return found


def _invented_conversion(conversion: ConversionUnderTest) -> list[Finding] | None:
    source = conversion.source.conversation or conversion.source.response
    output = conversion.output.conversation or conversion.output.response
    if source is None or output is None:
        return None
    return check_invented(source, output)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"reasoning.invented": _invented_conversion}
