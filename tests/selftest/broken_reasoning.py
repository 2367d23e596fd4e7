"""Broken adapters whose defect lies in reasoning: DeepSeek replay, Anthropic thinking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tests.selftest.broken_base import (
    ANTHROPIC,
    DEEPSEEK,
    BrokenAdapter,
    Triple,
    blocks,
    messages_of,
)

TO_DEEPSEEK: frozenset[Triple] = frozenset({("request", ANTHROPIC, DEEPSEEK)})
FROM_DEEPSEEK: frozenset[Triple] = frozenset(
    {("request", DEEPSEEK, ANTHROPIC), ("response", DEEPSEEK, ANTHROPIC)}
)


class ReasoningDropped(BrokenAdapter):
    breaks = "reasoning.replay_missing"
    defect = "drops reasoning_content on tool-call turns sent to DeepSeek"
    damaged = TO_DEEPSEEK
    shows_on = ("thinking/tool-use-anthropic", "thinking/redacted-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            message.pop("reasoning_content", None)
        return output


class ReasoningAndThinkingDropped(BrokenAdapter):
    """Drops reasoning_content and the thinking toggle toward DeepSeek, naming
    the non-thinking model: the request then runs no thinking mode, so the
    replay requirement is a warning saying what thinking mode would do
    (judged under the ``deepseek`` profile)."""

    breaks = "reasoning.replay_missing"
    defect = "drops reasoning_content and the thinking toggle, names deepseek-chat"
    damaged = TO_DEEPSEEK
    shows_on = ("thinking/tool-use-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            message.pop("reasoning_content", None)
        output.pop("thinking", None)
        output["model"] = "deepseek-chat"
        return output


class ReasoningSummarised(BrokenAdapter):
    breaks = "reasoning.altered"
    defect = "sends DeepSeek the first sentence of the reasoning instead of the whole text"
    damaged = TO_DEEPSEEK
    shows_on = ("thinking/tool-use-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            reasoning = message.get("reasoning_content")
            if reasoning:
                message["reasoning_content"] = reasoning.split(". ")[0] + "."
        return output


class LegacyReasonerUnaware(BrokenAdapter):
    """The reference itself, sending to a legacy deepseek-reasoner: it replays
    reasoning_content (right for thinking mode), which that server rejects. No
    damage: the defect is relative to the target profile the run names."""

    breaks = "reasoning.replay_forbidden"
    defect = "replays reasoning_content to the legacy deepseek-reasoner"
    profiles: ClassVar[Mapping[str, str]] = {DEEPSEEK: "deepseek-reasoner-legacy"}
    shows_on = ("thinking/tool-use-anthropic",)


class SignatureStripped(BrokenAdapter):
    breaks = "reasoning.signature_lost"
    defect = "an anthropic pass-through proxy that empties thinking signatures"
    pass_through = frozenset(
        {("request", ANTHROPIC, ANTHROPIC), ("response", ANTHROPIC, ANTHROPIC)}
    )
    damaged = pass_through
    shows_on = ("thinking/tool-use-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        turns = output.get("messages", [output])
        for message in turns:
            for block in blocks(message):
                if block.get("type") == "thinking":
                    block["signature"] = ""
        return output


class ThinkingAfterText(BrokenAdapter):
    breaks = "reasoning.position"
    defect = "appends the thinking block built from reasoning_content after text and calls"
    damaged = FROM_DEEPSEEK
    shows_on = ("thinking/tool-use-deepseek", "reasoning-replay/deepseek-two-step")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in output.get("messages", [output]):
            if message.get("role") == "assistant":
                blocks(message).sort(key=lambda block: block.get("type") == "thinking")
        return output
