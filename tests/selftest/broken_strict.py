"""Toward a strict OpenAI-compatible server (schema.unknown_fields, issue 27).

``ToolCallBookkeepingLeaked`` leaves a client library's internal
``provider_specific_fields`` inside every tool call it writes to openai-chat,
the way LiteLLM-based clients do; Groq and Fireworks answer 400 "Extra inputs
are not permitted". ``DocumentedFieldsOnly`` writes the same requests another
legal way, with fields the OpenAI reference defines only (tool results and
system prompts as text parts, ``strict`` and ``type`` spelled out): it passes.
Both are judged under ``openai-compatible-strict``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tests.selftest.broken_base import OPENAI, BrokenAdapter, Triple
from tests.selftest.variants import REQUESTS, VariantAdapter

STRICT = "openai-compatible-strict"
TO_OPENAI = frozenset(d for d in REQUESTS if d[2] == OPENAI)


class ToolCallBookkeepingLeaked(BrokenAdapter):
    breaks = "schema.unknown_fields"
    defect = "leaves provider_specific_fields inside every openai-chat tool call it writes"
    damaged = TO_OPENAI
    shows_on = ("single-tool/multi-turn-loop-anthropic", "parallel/two-cities-anthropic")
    profiles: ClassVar[Mapping[str, str]] = {OPENAI: STRICT}

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in output.get("messages") or ():
            for call in message.get("tool_calls") or ():
                call["provider_specific_fields"] = {"thought_signature": None}
        return output


class DocumentedFieldsOnly(VariantAdapter):
    variation = (
        "tool results and system prompts as text parts, tools' strict: false and calls' "
        "type spelled out: only fields the OpenAI reference defines"
    )
    varied = TO_OPENAI

    @property
    def target_profiles(self) -> Mapping[str, str]:
        return {OPENAI: STRICT}

    def vary(self, output: Any, direction: Triple) -> Any:
        for message in output.get("messages") or ():
            text = message.get("content")
            if message.get("role") in ("tool", "system") and isinstance(text, str) and text:
                message["content"] = [{"type": "text", "text": text}]
            for call in message.get("tool_calls") or ():
                call.setdefault("type", "function")
        for tool in output.get("tools") or ():
            function = tool.get("function")
            if isinstance(function, dict):
                function.setdefault("strict", False)
        return output
