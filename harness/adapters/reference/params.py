"""Top-level request parameters between anthropic-messages and Chat Completions.

Only parameters with a documented equivalent are carried; everything else is
dropped, because each API rejects arguments it does not know (OpenAI answers
"Unrecognized request argument supplied").

openai-chat / deepseek-chat -> anthropic-messages:

* ``max_tokens`` is required by Anthropic: ``max_completion_tokens`` or else
  ``max_tokens`` of the source, else ``DEFAULT_MAX_TOKENS`` (4096);
* ``temperature`` (Anthropic's range is 0..1, OpenAI's 0..2: values above 1
  become 1), ``top_p``, ``stop`` -> ``stop_sequences`` (a list),
  ``user`` -> ``metadata.user_id``;
* DeepSeek ``thinking: {type: enabled}`` -> ``thinking: {type: enabled,
  budget_tokens}`` with ``DEFAULT_THINKING_BUDGET`` (2048) kept within
  Anthropic's limits (at least 1024, below ``max_tokens``; no thinking when
  ``max_tokens`` leaves no room); ``{type: disabled}`` is carried as is;
* dropped: ``n``, ``seed``, ``response_format``, ``stream_options``,
  ``logprobs``, penalties, ``reasoning_effort``, ``service_tier``, ``store``,
  ``metadata`` (OpenAI's is not Anthropic's), ...

anthropic-messages -> openai-chat / deepseek-chat:

* ``max_tokens`` -> ``max_completion_tokens`` for openai-chat (``max_tokens``
  is deprecated there) and ``max_tokens`` for deepseek-chat;
* ``temperature``, ``top_p``; ``stop_sequences`` -> ``stop``;
  ``metadata.user_id`` -> ``user`` (openai-chat);
* ``thinking`` -> DeepSeek ``thinking: {type}`` (the budget has no DeepSeek
  equivalent); openai-chat has no switch for it;
* ``stream: true`` adds ``stream_options: {include_usage: true}`` so the
  streamed answer carries the usage an Anthropic stream reports;
* dropped: ``top_k``, ``service_tier``, ``container``, ``mcp_servers``, ...

References: https://platform.openai.com/docs/api-reference/chat/create,
https://docs.anthropic.com/en/api/messages,
https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking,
https://api-docs.deepseek.com/guides/thinking_mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.model import DEEPSEEK_CHAT

DEFAULT_MAX_TOKENS = 4096
DEFAULT_THINKING_BUDGET = 2048
MIN_THINKING_BUDGET = 1024


def _integer(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(value: Any) -> float | int | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return None


def params_to_anthropic(extra: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    max_tokens = _integer(extra.get("max_completion_tokens"))
    if max_tokens is None:
        max_tokens = _integer(extra.get("max_tokens"))
    out["max_tokens"] = DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens
    temperature = _number(extra.get("temperature"))
    if temperature is not None:
        out["temperature"] = min(temperature, 1)
    top_p = _number(extra.get("top_p"))
    if top_p is not None:
        out["top_p"] = top_p
    stop = extra.get("stop")
    if isinstance(stop, str):
        out["stop_sequences"] = [stop]
    elif isinstance(stop, list) and stop:
        out["stop_sequences"] = [s for s in stop if isinstance(s, str)]
    user = extra.get("user")
    if isinstance(user, str):
        out["metadata"] = {"user_id": user}
    thinking = _thinking_to_anthropic(extra.get("thinking"), out["max_tokens"])
    if thinking is not None:
        out["thinking"] = thinking
    return out


def _thinking_to_anthropic(thinking: Any, max_tokens: int) -> dict[str, Any] | None:
    if not isinstance(thinking, Mapping):
        return None
    if thinking.get("type") == "disabled":
        return {"type": "disabled"}
    if thinking.get("type") != "enabled":
        return None
    budget = min(DEFAULT_THINKING_BUDGET, max_tokens - 1)
    if budget < MIN_THINKING_BUDGET:
        return None
    return {"type": "enabled", "budget_tokens": budget}


def params_to_openai(extra: Mapping[str, Any], target: str, stream: bool | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    max_tokens = _integer(extra.get("max_tokens"))
    if max_tokens is not None:
        key = "max_tokens" if target == DEEPSEEK_CHAT else "max_completion_tokens"
        out[key] = max_tokens
    for key in ("temperature", "top_p"):
        value = _number(extra.get(key))
        if value is not None:
            out[key] = value
    stop = extra.get("stop_sequences")
    if isinstance(stop, list) and stop:
        out["stop"] = stop
    metadata = extra.get("metadata")
    user = metadata.get("user_id") if isinstance(metadata, Mapping) else None
    if isinstance(user, str) and target != DEEPSEEK_CHAT:
        out["user"] = user
    thinking = extra.get("thinking")
    if target == DEEPSEEK_CHAT and isinstance(thinking, Mapping):
        kind = thinking.get("type")
        if kind in ("enabled", "disabled"):
            out["thinking"] = {"type": kind}
    if stream:
        out["stream_options"] = {"include_usage": True}
    return out


def thinking_disabled(extra: Mapping[str, Any]) -> bool:
    thinking = extra.get("thinking")
    return isinstance(thinking, Mapping) and thinking.get("type") == "disabled"
