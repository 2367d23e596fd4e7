"""Broken adapters whose token counts go astray (fidelity.usage, issue 27).

Cache reads are counted once in every dialect's input count (inside it for
the Chat family, Responses and Gemini; beside it for Anthropic): a converter
that counts them twice, or drops them where the target reports them, bills
its client wrongly; one that writes -1 for a count it does not know has
clients add a negative number.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, DEEPSEEK, BrokenAdapter, Triple

GEMINI = "gemini"

CACHED_DEEPSEEK = ("error-result/several-error-rounds-thinking-deepseek",)


class CacheReadsCountedTwice(BrokenAdapter):
    breaks = "fidelity.usage"
    defect = (
        "keeps DeepSeek's prompt_tokens (cache hits inside) as input_tokens and adds the hits again"
    )
    damaged = frozenset({("response", DEEPSEEK, ANTHROPIC)})
    shows_on = CACHED_DEEPSEEK
    no_round_trip = True  # the trip back would show the same count again

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        usage = output.get("usage") or {}
        reads = usage.get("cache_read_input_tokens") or 0
        if reads:
            usage["input_tokens"] = usage.get("input_tokens", 0) + 2 * reads
        return output


class CacheReadsDropped(BrokenAdapter):
    breaks = "fidelity.usage"
    defect = "subtracts DeepSeek's cache hits from the input count but never reports them"
    damaged = frozenset({("response", DEEPSEEK, ANTHROPIC)})
    shows_on = CACHED_DEEPSEEK
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        (output.get("usage") or {}).pop("cache_read_input_tokens", None)
        return output


class UnknownCountAsSentinel(BrokenAdapter):
    breaks = "fidelity.usage"
    defect = "writes cachedContentTokenCount: -1 (its sentinel for unknown) in every gemini answer"
    damaged = frozenset({("response", ANTHROPIC, GEMINI)})
    shows_on = ("single-tool/weather-anthropic",)
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.setdefault("usageMetadata", {})["cachedContentTokenCount"] = -1
        return output
