"""Broken adapters for the blind spots of issue 14: reasoning lost or made up in
responses and streams, signatures the source never carried, and the parallel
calls of one turn spread over several turns."""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import (
    ANTHROPIC,
    DEEPSEEK,
    OPENAI,
    BrokenAdapter,
    Json,
    Triple,
    blocks,
    messages_of,
    stream_chunks,
)

ANSWERS_TO_DEEPSEEK: frozenset[Triple] = frozenset(
    {("response", ANTHROPIC, DEEPSEEK), ("stream", ANTHROPIC, DEEPSEEK)}
)
ANSWERS_TO_OPENAI: frozenset[Triple] = frozenset(
    {("response", ANTHROPIC, OPENAI), ("stream", ANTHROPIC, OPENAI)}
)
REASONING_FIELDS = ("reasoning_content", "reasoning")


def strip_reasoning(output: Any) -> Any:
    """Remove every reasoning field from an openai-family response or stream."""
    if isinstance(output, list):  # a stream: the reasoning deltas go
        for chunk in stream_chunks(output):
            for choice in chunk.get("choices") or ():
                delta = choice.get("delta") or {}
                for field in REASONING_FIELDS:
                    delta.pop(field, None)
        return output
    for choice in output.get("choices") or ():
        for field in REASONING_FIELDS:
            choice.get("message", {}).pop(field, None)
    return output


class ResponseReasoningStripped(BrokenAdapter):
    breaks = "reasoning.dropped"
    defect = "strips reasoning_content from the responses and streams it returns to DeepSeek"
    damaged = ANSWERS_TO_DEEPSEEK
    # The trip back would only lose the thinking again, under fidelity.roundtrip.
    no_round_trip = True
    shows_on = ("thinking/tool-use-anthropic", "thinking/stream-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        return strip_reasoning(output)


class ResponseReasoningStrippedForOpenai(BrokenAdapter):
    breaks = "reasoning.not_carried"
    defect = "strips the reasoning from responses and streams toward openai-chat"
    damaged = ANSWERS_TO_OPENAI
    no_round_trip = True
    shows_on = ("thinking/tool-use-anthropic", "thinking/stream-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        return strip_reasoning(output)


class ResponseReasoningSummarised(BrokenAdapter):
    breaks = "reasoning.altered"
    defect = "returns the first sentence of a response's reasoning instead of the whole text"
    damaged = frozenset({("response", ANTHROPIC, DEEPSEEK)})
    no_round_trip = True
    shows_on = ("thinking/tool-use-anthropic", "thinking/parallel-calls-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        message = output["choices"][0]["message"]
        reasoning = message.get("reasoning_content")
        if reasoning:
            message["reasoning_content"] = reasoning.split(". ")[0] + "."
        return output


class ReasoningPlaceholder(BrokenAdapter):
    breaks = "reasoning.invented"
    defect = (
        "fills the reasoning_content DeepSeek needs on tool-call turns with a placeholder "
        "instead of the empty string"
    )
    damaged = frozenset({("request", ANTHROPIC, DEEPSEEK)})
    # The trip back would carry the placeholder into a thinking block.
    no_round_trip = True
    shows_on = (
        "single-tool/weather-anthropic",
        "parallel/two-cities-anthropic",
    )

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            if message.get("reasoning_content") == "":
                message["reasoning_content"] = "(reasoning not available)"
        return output


class ThinkingInvented(BrokenAdapter):
    breaks = "reasoning.invented"
    defect = (
        "opens every anthropic answer built from DeepSeek with a thinking block, "
        "placeholder text where DeepSeek returned no reasoning"
    )
    damaged = frozenset({("response", DEEPSEEK, ANTHROPIC)})
    no_round_trip = True
    shows_on = ("parallel/thinking-off-two-calls-deepseek",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        content = blocks(output)
        if not any(block.get("type") == "thinking" for block in content):
            placeholder = {"type": "thinking", "thinking": "Thinking...", "signature": ""}
            output["content"] = [placeholder, *content]
        return output


class SignatureForged(BrokenAdapter):
    breaks = "reasoning.signature_invented"
    defect = "writes a made-up signature on thinking built from DeepSeek's reasoning_content"
    damaged = frozenset({("request", DEEPSEEK, ANTHROPIC), ("response", DEEPSEEK, ANTHROPIC)})
    shows_on = ("thinking/tool-use-deepseek", "reasoning-replay/deepseek-two-step")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in output.get("messages", [output]):
            for block in blocks(message):
                if block.get("type") == "thinking":
                    block["signature"] = "c2lnbmF0dXJlLW5vdC1mcm9tLWFudGhyb3BpYw=="
        return output


def _split_calls(messages: list[Json], result_role: str) -> list[Json]:
    """Each call of a parallel turn in its own assistant message, its result after it."""
    split: list[Json] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        calls = _calls_of(message)
        if message.get("role") != "assistant" or len(calls) < 2:
            split.append(message)
            index += 1
            continue
        results, index = _results_after(messages, index + 1, result_role)
        for number, call in enumerate(calls):
            split.append(_with_calls(message, [call], first=number == 0))
            split.extend(_answer(results, call, result_role))
        # Anything else the results' user message held stays after the last result.
        rest = [b for m in results for b in blocks(m) if b.get("type") != "tool_result"]
        if rest and split[-1].get("role") == "user":
            split[-1]["content"] = split[-1]["content"] + rest
    return split


def _calls_of(message: Json) -> list[Json]:
    if "tool_calls" in message:
        return list(message.get("tool_calls") or ())
    return [b for b in blocks(message) if b.get("type") == "tool_use"]


def _with_calls(message: Json, calls: list[Json], first: bool) -> Json:
    if "tool_calls" in message:
        return {**message, "tool_calls": calls, **({} if first else {"content": None})}
    keep = [b for b in blocks(message) if b.get("type") != "tool_use"] if first else []
    return {**message, "content": keep + calls}


def _results_after(messages: list[Json], start: int, result_role: str) -> tuple[list[Json], int]:
    """The results right after a call turn (tool messages, or one user message's
    tool_result blocks), and where the rest of the conversation starts."""
    if result_role == "tool":
        end = start
        while end < len(messages) and messages[end].get("role") == "tool":
            end += 1
        return messages[start:end], end
    if start < len(messages) and messages[start].get("role") == "user":
        return [messages[start]], start + 1
    return [], start


def _answer(results: list[Json], call: Json, result_role: str) -> list[Json]:
    if result_role == "tool":
        return [m for m in results if m.get("tool_call_id") == call.get("id")]
    found = [
        b
        for m in results
        for b in blocks(m)
        if b.get("type") == "tool_result" and b.get("tool_use_id") == call.get("id")
    ]
    return [{"role": "user", "content": found}] if found else []


class CallsSplitIntoTurns(BrokenAdapter):
    breaks = "ordering.parallel_calls_split"
    defect = (
        "sends each call of a parallel turn to openai-chat as its own assistant message, "
        "its tool message after it"
    )
    damaged = frozenset({("request", ANTHROPIC, OPENAI)})
    no_round_trip = True
    shows_on = (
        "parallel/two-cities-anthropic",
        "parallel/five-calls-four-tools-anthropic",
    )

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["messages"] = _split_calls(output["messages"], "tool")
        return output


class CallsSplitForAnthropic(BrokenAdapter):
    breaks = "ordering.parallel_calls_split"
    defect = (
        "sends each tool_use of a parallel turn to anthropic as its own assistant message, "
        "its tool_result in a user message after it"
    )
    damaged = frozenset({("request", OPENAI, ANTHROPIC)})
    no_round_trip = True
    shows_on = ("parallel/two-cities-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["messages"] = _split_calls(output["messages"], "user")
        return output
