"""fidelity.usage: token usage survives conversion.

fidelity.usage (SHOULD) compares input and output tokens. Anthropic's
``input_tokens`` excludes cached tokens while OpenAI's ``prompt_tokens``
(and Responses' ``input_tokens``, Gemini's ``promptTokenCount``, DeepSeek's
``prompt_tokens``) includes them, so a converter that adds or subtracts the
cached counts the source reports keeps the meaning and is accepted; counting
them twice is not. Tokens read from the cache are compared too where both
dialects report them (``cache_read_input_tokens``,
``prompt_tokens_details.cached_tokens``, ``input_tokens_details.cached_tokens``,
``cachedContentTokenCount``, ``prompt_cache_hit_tokens``), and no count of
the output may be negative (a sentinel such as ``-1`` for "unknown" is read
by clients as a count; an unknown count is left out).
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
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_CHAT,
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
        "thoughtsTokenCount counts as output too). Carry the tokens read from the cache "
        "(cache_read_input_tokens<->prompt_tokens_details.cached_tokens<->"
        "cachedContentTokenCount) and count them once: inside the input count except for "
        "Anthropic, whose input_tokens leaves them out. Leave an unknown count out; never "
        "write a negative one."
    ),
)


def check_usage(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.response, output.response
    if before is None or after is None:
        return None
    negative = _negative_counts(after)
    usage = before.usage
    if usage is None or (usage.input_tokens is None and usage.output_tokens is None):
        return negative or None
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
    found = list(negative)
    accepted_inputs = _accepted_inputs(before, usage)
    reads_beside = _cache_reads(after) if after.dialect == ANTHROPIC_MESSAGES else None
    if reads_beside and before.dialect != ANTHROPIC_MESSAGES and usage.input_tokens is not None:
        # Anthropic reports cache reads beside its input count: once they are
        # reported there, the input count leaves them out (else they count twice).
        accepted_inputs = {usage.input_tokens - reads_beside}
    if usage.input_tokens is not None and got.input_tokens not in accepted_inputs:
        found.append(_mismatch("input", before, after, sorted(accepted_inputs), got.input_tokens))
    if usage.output_tokens is not None and got.output_tokens != usage.output_tokens:
        found.append(_mismatch("output", before, after, [usage.output_tokens], got.output_tokens))
    cache_reads = _cache_reads(before)
    if cache_reads and after.dialect in CACHE_READS and _cache_reads(after) != cache_reads:
        path = CACHE_READS[after.dialect][0]
        found.append(
            finding(
                "fidelity.usage",
                f"the source reports {cache_reads} tokens read from the cache; the output's "
                f"{path} is {_cache_reads(after)}",
                path,
                expected=cache_reads,
                actual=_cache_reads(after),
            )
        )
    return found


# Where each dialect reports the input tokens read from a prompt cache (the
# first path present; OpenAI-compatible servers such as GLM's use OpenAI's
# field under the DeepSeek dialect).
_CHAT_CACHE_READS = ("usage.prompt_tokens_details.cached_tokens", "usage.prompt_cache_hit_tokens")
CACHE_READS: dict[str, tuple[str, ...]] = {
    ANTHROPIC_MESSAGES: ("usage.cache_read_input_tokens",),
    OPENAI_CHAT: _CHAT_CACHE_READS,
    OPENAI_RESPONSES: ("usage.input_tokens_details.cached_tokens",),
    GEMINI: ("usageMetadata.cachedContentTokenCount",),
    DEEPSEEK_CHAT: _CHAT_CACHE_READS[::-1],
}


def _cache_reads(response: Response) -> int | None:
    if response.usage is None:
        return None
    for path in CACHE_READS.get(response.dialect, ()):
        value: Any = response.usage.raw
        for key in path.split(".")[1:]:
            value = value.get(key) if isinstance(value, Mapping) else None
        if _is_count(value):
            return int(value)
    return None


def _accepted_inputs(response: Response, usage: Usage) -> set[int]:
    assert usage.input_tokens is not None
    base = usage.input_tokens
    raw = usage.raw
    if response.dialect == ANTHROPIC_MESSAGES:
        read, written = (
            _int(raw, "cache_read_input_tokens"),
            _int(raw, "cache_creation_input_tokens"),
        )
        # Chat has no field for the tokens written to the cache: a converter
        # counts them in with the input (and they come back inside input_tokens).
        return {base, base + read + written, base + written}
    # Every other dialect counts the cached tokens inside its input count.
    return {base, base - (_cache_reads(response) or 0)}


def _negative_counts(response: Response) -> list[Finding]:
    usage = response.usage
    if usage is None:
        return []
    found = []
    for path, value in _counts_in(usage.raw, _usage_object(response.dialect)):
        if value < 0:
            found.append(
                finding(
                    "fidelity.usage",
                    f"{path} is {value}: a token count is never negative (leave an unknown "
                    "count out rather than write a sentinel)",
                    path,
                    expected=None,
                    actual=value,
                )
            )
    return found


def _counts_in(value: Any, path: str) -> list[tuple[str, int]]:
    if isinstance(value, Mapping):
        return [pair for key, item in value.items() for pair in _counts_in(item, f"{path}.{key}")]
    return [(path, value)] if _is_count(value) else []


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
