"""Broken adapters whose tool results vanish or turn into text (issue 14, item 3).

No rule may pass because the thing it checks is gone: a converter that drops
results, or flattens them into plain user text, must fail a MUST rule
(``pairing.unanswered_call``: OpenAI answers 400 "An assistant message with
'tool_calls' must be followed by tool messages responding to each
'tool_call_id'", Anthropic 400 "`tool_use` ids were found without
`tool_result` blocks immediately after"), on the last turn of a conversation
too, where only the source shows that the call had been answered.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Json, Triple, blocks

TO_ANTHROPIC: frozenset[Triple] = frozenset({("request", OPENAI, ANTHROPIC)})
OPENAI_PROXY: frozenset[Triple] = frozenset({("request", OPENAI, OPENAI)})


def _only_results(message: Json) -> bool:
    content = blocks(message)
    return bool(content) and all(b.get("type") == "tool_result" for b in content)


class FinalResultsDropped(BrokenAdapter):
    breaks = "pairing.unanswered_call"
    defect = "drops the results of the last turn (the request then ends on the calls)"
    damaged = TO_ANTHROPIC
    shows_on = (
        "single-tool/weather-openai",
        "parallel/two-cities-openai",
        "error-result/missing-file-openai",
    )

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        messages = output["messages"]
        if messages and messages[-1].get("role") == "user" and _only_results(messages[-1]):
            messages.pop()
        return output


class ResultsFlattenedToText(BrokenAdapter):
    breaks = "pairing.unanswered_call"
    defect = "writes each tool result as a plain text block of the user message"
    damaged = TO_ANTHROPIC
    shows_on = (
        "single-tool/weather-openai",
        "parallel/two-cities-openai",
        "error-result/missing-file-openai",
    )

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in output["messages"]:
            content = blocks(message)
            for index, block in enumerate(content):
                if block.get("type") != "tool_result":
                    continue
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "".join(str(part.get("text", "")) for part in inner)
                text = f"Result of {block['tool_use_id']}: {inner or ''}"
                content[index] = {"type": "text", "text": text}
        return output


class ResultsVanishProxy(BrokenAdapter):
    breaks = "pairing.unanswered_call"
    defect = "an openai-chat proxy that forwards every message but the tool messages"
    pass_through = OPENAI_PROXY
    damaged = OPENAI_PROXY
    shows_on = (
        "single-tool/weather-openai",
        "error-result/missing-file-openai",
        "error-result/several-error-rounds-openai",
    )

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["messages"] = [m for m in output["messages"] if m.get("role") != "tool"]
        return output
