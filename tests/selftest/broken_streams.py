"""Broken adapters for what a stream or a response says about itself: chunk
ids, tool call indices, and a stop reason that contradicts the content."""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import (
    ANTHROPIC,
    OPENAI,
    BrokenAdapter,
    Triple,
    call_fragments,
    stream_chunks,
)

STREAM_TO_OPENAI: frozenset[Triple] = frozenset({("stream", ANTHROPIC, OPENAI)})
RESPONSE_TO_ANTHROPIC: frozenset[Triple] = frozenset({("response", OPENAI, ANTHROPIC)})
FORCED_TOOL_ANSWERS = (
    "single-tool/tool-choice-named-openai",
    "single-tool/tool-choice-required-openai",
)


class StreamIdPerChunk(BrokenAdapter):
    breaks = "stream.chunk_id"
    defect = "mints a new chunk id for every chunk of one stream"
    damaged = STREAM_TO_OPENAI
    shows_on = ("streaming/parallel-anthropic", "thinking/stream-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for number, chunk in enumerate(stream_chunks(output)):
            if isinstance(chunk.get("id"), str):
                chunk["id"] = f"{chunk['id']}-{number}"
        return output


class StreamIndexFromBlock(BrokenAdapter):
    breaks = "stream.call_index"
    defect = "numbers streamed tool calls by their Anthropic content-block index"
    damaged = STREAM_TO_OPENAI
    shows_on = ("streaming/parallel-anthropic", "thinking/stream-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        # The source's blocks before the first tool_use (text, thinking) shift
        # every call's index; at least one block is assumed, as in the leak.
        shift = max(1, _blocks_before_first_call(payload))
        for fragment in call_fragments(output):
            fragment["index"] += shift
        return output


def _blocks_before_first_call(events: Any) -> int:
    for event in events if isinstance(events, list) else ():
        data = event.get("data") if isinstance(event, dict) else None
        if (
            isinstance(data, dict)
            and data.get("type") == "content_block_start"
            and (data.get("content_block") or {}).get("type") == "tool_use"
        ):
            index = data.get("index")
            return index if isinstance(index, int) else 0
    return 0


class StopReasonTakenLiterally(BrokenAdapter):
    breaks = "fidelity.stop_reason_content"
    defect = "maps finish_reason 'stop' to end_turn without looking at the calls beside it"
    damaged = RESPONSE_TO_ANTHROPIC
    # OpenAI answers a forced tool_choice with 'stop' beside the calls.
    shows_on = FORCED_TOOL_ANSWERS

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if choices and choices[0].get("finish_reason") == "stop":
            output["stop_reason"] = "end_turn"
        return output


class EmptyTextForEmptyContent(BrokenAdapter):
    breaks = "fidelity.empty_text_added"
    defect = "turns an answer's empty or null content into an empty anthropic text block"
    damaged = RESPONSE_TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choices = payload.get("choices") if isinstance(payload, dict) else None
        if choices and not (choices[0].get("message") or {}).get("content"):
            # After any thinking: before it, the block would also break
            # reasoning.position, a second defect this adapter is not about.
            blocks = output["content"]
            at = sum(1 for b in blocks if b.get("type") in ("thinking", "redacted_thinking"))
            blocks.insert(at, {"type": "text", "text": ""})
        return output
