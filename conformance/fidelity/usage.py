"""fidelity.usage: token usage survives conversion.

fidelity.usage (SHOULD) compares input and output tokens. Anthropic's
``input_tokens`` excludes cached tokens while OpenAI's ``prompt_tokens``
includes them, so a converter that adds or subtracts the cached counts the
source reports keeps the meaning and is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.conformance.context import ConversionCheck, PayloadUnderTest, RoundTripCheck
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    Response,
    Usage,
)

USAGE = rule(
    "fidelity.usage",
    "SHOULD",
    "conversion roundtrip",
    "Token usage (input and output tokens) survives conversion.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    fix=(
        "Copy input and output token counts into the target's own fields: "
        "prompt_tokens<->input_tokens<->usageMetadata.promptTokenCount, "
        "completion_tokens<->output_tokens<->usageMetadata.candidatesTokenCount (Gemini's "
        "thoughtsTokenCount counts as output too)."
    ),
)


def check_usage(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.response, output.response
    if before is None or after is None:
        return None
    usage = before.usage
    if usage is None or (usage.input_tokens is None and usage.output_tokens is None):
        return None
    got = after.usage
    if got is None:
        return [
            finding(
                "fidelity.usage",
                f"the source reports {usage.input_tokens} input and {usage.output_tokens} output "
                f"tokens; the output has no {_usage_object(output.dialect)}",
                _usage_object(output.dialect),
                expected=_counts(usage),
                actual=None,
            )
        ]
    found = []
    accepted_inputs = _accepted_inputs(before, usage)
    if usage.input_tokens is not None and got.input_tokens not in accepted_inputs:
        found.append(_mismatch("input", before, after, sorted(accepted_inputs), got.input_tokens))
    if usage.output_tokens is not None and got.output_tokens != usage.output_tokens:
        found.append(_mismatch("output", before, after, [usage.output_tokens], got.output_tokens))
    return found


def _accepted_inputs(response: Response, usage: Usage) -> set[int]:
    assert usage.input_tokens is not None
    base = usage.input_tokens
    raw = usage.raw
    if response.dialect == ANTHROPIC_MESSAGES:
        cached = _int(raw, "cache_read_input_tokens") + _int(raw, "cache_creation_input_tokens")
        return {base, base + cached}
    details = raw.get("prompt_tokens_details")
    cached = _int(details, "cached_tokens") if isinstance(details, Mapping) else 0
    return {base, base - cached}


def _int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _usage_object(dialect: str) -> str:
    return "usageMetadata" if dialect == GEMINI else "usage"


def _count_field(which: str, response: Response) -> tuple[str, str]:
    """The field a payload of ``response``'s dialect carries its ``which``
    (input or output) token count in: its path, and how a message names it
    (Gemini's output count is candidatesTokenCount plus thoughtsTokenCount)."""
    dialect = response.dialect
    if dialect == GEMINI:
        if which == "input":
            return "usageMetadata.promptTokenCount", "usageMetadata.promptTokenCount"
        path = "usageMetadata.candidatesTokenCount"
        usage = response.usage
        if usage is not None and "thoughtsTokenCount" in usage.raw:
            return path, f"{path} plus thoughtsTokenCount"
        return path, path
    if dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES):
        key = f"usage.{which}_tokens"
    else:  # the openai-chat family
        key = "usage.prompt_tokens" if which == "input" else "usage.completion_tokens"
    return key, key


def _mismatch(
    which: str, source: Response, output: Response, accepted: list[int], actual: int | None
) -> Finding:
    path, named = _count_field(which, output)
    _, source_named = _count_field(which, source)
    wanted = " or ".join(map(str, accepted))
    return finding(
        "fidelity.usage",
        f"{named} is {actual}, but the source reports {wanted} {which} tokens "
        f"({source.dialect} {source_named})",
        path,
        expected=accepted[0] if len(accepted) == 1 else accepted,
        actual=actual,
    )


def _counts(usage: Usage) -> dict[str, int | None]:
    return {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"fidelity.usage": pairwise.conversion(check_usage)}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"fidelity.usage": pairwise.roundtrip(check_usage)}
