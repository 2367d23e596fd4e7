"""Token usage between anthropic-messages and the Chat Completions family.

Anthropic's ``input_tokens`` leaves out the tokens read from and written to
the prompt cache (``cache_read_input_tokens``, ``cache_creation_input_tokens``);
OpenAI's ``prompt_tokens`` counts them, and says how many were read from the
cache in ``prompt_tokens_details.cached_tokens`` (DeepSeek:
``prompt_cache_hit_tokens``). Each way the cache reads are carried and counted
once: Chat has no field for the tokens written to the cache, so they stay in
its prompt count (and come back to Anthropic inside ``input_tokens``).
References: https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching,
https://platform.openai.com/docs/guides/prompt-caching,
https://api-docs.deepseek.com/guides/kv_cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.model import DEEPSEEK_CHAT, Usage


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def chat_cache_reads(usage: Usage) -> int:
    details = usage.raw.get("prompt_tokens_details")
    cached = _count(details.get("cached_tokens")) if isinstance(details, Mapping) else 0
    return cached or _count(usage.raw.get("prompt_cache_hit_tokens"))


def usage_to_anthropic(usage: Usage | None) -> Usage:
    """A Chat usage as Anthropic counts it (0 where the source has none)."""
    if usage is None:
        return Usage(input_tokens=0, output_tokens=0)
    reads = chat_cache_reads(usage)
    prompt = usage.input_tokens or 0
    raw = {"cache_read_input_tokens": reads} if reads and reads <= prompt else {}
    return Usage(
        input_tokens=prompt - (raw.get("cache_read_input_tokens") or 0),
        output_tokens=usage.output_tokens or 0,
        raw=raw,
    )


def usage_to_chat(usage: Usage | None, target: str) -> Usage | None:
    """An Anthropic usage as the Chat family counts it."""
    if usage is None:
        return None
    reads = _count(usage.raw.get("cache_read_input_tokens"))
    written = _count(usage.raw.get("cache_creation_input_tokens"))
    if usage.input_tokens is None or not (reads or written):
        return Usage(usage.input_tokens, usage.output_tokens)
    prompt = usage.input_tokens + reads + written
    raw: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": usage.output_tokens}
    if usage.output_tokens is not None:
        raw["total_tokens"] = prompt + usage.output_tokens
    if reads and target == DEEPSEEK_CHAT:
        raw["prompt_cache_hit_tokens"] = reads
        raw["prompt_cache_miss_tokens"] = prompt - reads
    elif reads:
        raw["prompt_tokens_details"] = {"cached_tokens": reads}
    return Usage(prompt, usage.output_tokens, raw)


def _details(usage: Usage, key: str, inner: str) -> int:
    details = usage.raw.get(key)
    return _count(details.get(inner)) if isinstance(details, Mapping) else 0


def usage_responses_to_chat(usage: Usage | None) -> Usage | None:
    """Responses and Chat both count cached tokens inside the input count and
    reasoning tokens inside the output count; only the detail fields' names
    differ (``input_tokens_details`` / ``prompt_tokens_details``,
    ``output_tokens_details`` / ``completion_tokens_details``)."""
    return _renamed(usage, "input_tokens_details", "output_tokens_details", "prompt", "completion")


def usage_chat_to_responses(usage: Usage | None) -> Usage | None:
    return _renamed(usage, "prompt_tokens_details", "completion_tokens_details", "input", "output")


def _renamed(
    usage: Usage | None, input_details: str, output_details: str, to_input: str, to_output: str
) -> Usage | None:
    if usage is None:
        return None
    inputs, outputs = usage.input_tokens or 0, usage.output_tokens or 0
    raw: dict[str, Any] = {
        f"{to_input}_tokens": inputs,
        f"{to_output}_tokens": outputs,
        "total_tokens": inputs + outputs,
    }
    cached = _details(usage, input_details, "cached_tokens") or chat_cache_reads(usage)
    reasoning = _details(usage, output_details, "reasoning_tokens")
    if cached:
        raw[f"{to_input}_tokens_details"] = {"cached_tokens": cached}
    if reasoning:
        raw[f"{to_output}_tokens_details"] = {"reasoning_tokens": reasoning}
    return Usage(inputs, outputs, raw if cached or reasoning else {})
