"""Broken adapters for the openai-responses rules: the typed event stream and
the reasoning items a reasoning model's replay must keep in place.

The reasoning defects are a Responses -> Responses proxy (``pass_through``)
that rewrites the replayed input: the reference itself never writes reasoning
items into a request, since only OpenAI can read ``encrypted_content``.
"""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Json, Triple

RESPONSES = "openai-responses"
STREAMS_TO_RESPONSES: frozenset[Triple] = frozenset(
    {("stream", OPENAI, RESPONSES), ("stream", ANTHROPIC, RESPONSES)}
)
PROXY: frozenset[Triple] = frozenset({("request", RESPONSES, RESPONSES)})
REPLAY_CASE = "responses-dev/reasoning-parallel-replay"


def _events(output: Any) -> list[Json]:
    return [e["data"] for e in output if isinstance(e, dict) and isinstance(e.get("data"), dict)]


class ResponsesSequenceRestarted(BrokenAdapter):
    breaks = "stream.item_reference"
    defect = "numbers the events of each output item from 0 again (sequence_number per item)"
    damaged = STREAMS_TO_RESPONSES
    shows_on = ("streaming/parallel-anthropic", "streaming/parallel-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        number = 0
        for event in _events(output):
            if event.get("type") == "response.output_item.added":
                number = 0
            event["sequence_number"] = number
            number += 1
        return output


class ResponsesDeltaCut(BrokenAdapter):
    breaks = "stream.done_consistent"
    defect = "streams each text delta without its last character (the .done text stays whole)"
    damaged = STREAMS_TO_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for event in _events(output):
            delta = event.get("delta")
            if event.get("type") == "response.output_text.delta" and len(delta or "") > 1:
                event["delta"] = delta[:-1]
        return output


def _reasoning_moved_after_calls(items: list[Json]) -> list[Json]:
    """Each reasoning item moved behind the function calls that follow it, in
    its own round (moving every round's reasoning to the end would also move
    it into another turn, a second defect)."""
    moved = list(items)
    n = 0
    while n < len(moved):
        if moved[n].get("type") != "reasoning":
            n += 1
            continue
        end = n + 1
        while end < len(moved) and moved[end].get("type") == "function_call":
            end += 1
        if end == n + 1:
            n += 1  # no call right after it: nothing to move behind
            continue
        moved.insert(end - 1, moved.pop(n))
        n = end
    return moved


class ResponsesReasoningAfterCalls(BrokenAdapter):
    breaks = "reasoning.item_unfollowed"
    defect = "a proxy that replays the reasoning item after the function calls it preceded"
    damaged = PROXY
    pass_through = PROXY
    shows_on = (REPLAY_CASE,)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if isinstance(output.get("input"), list):
            output["input"] = _reasoning_moved_after_calls(output["input"])
        return output


class ResponsesReasoningStripped(BrokenAdapter):
    breaks = "reasoning.item_separated"
    defect = "a proxy that strips reasoning items from the input but keeps the fc_ item ids"
    damaged = PROXY
    pass_through = PROXY
    shows_on = (REPLAY_CASE,)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if isinstance(output.get("input"), list):
            output["input"] = [i for i in output["input"] if i.get("type") != "reasoning"]
        return output


class ResponsesStrictFalseDropped(BrokenAdapter):
    """Writes a tool that was not strict to openai-responses without ``strict``,
    as a converter that copies ``strict`` only when it is set. A Responses
    function tool without ``strict`` is strict: its schema is normalized into
    strict mode, optional fields made required
    (https://platform.openai.com/docs/guides/function-calling)."""

    breaks = "fidelity.tool_definitions"
    defect = "leaves strict out of a Responses tool that was not strict (strict by default there)"
    damaged = frozenset({("request", OPENAI, RESPONSES), ("request", ANTHROPIC, RESPONSES)})
    shows_on = ("single-tool/weather-openai", "single-tool/weather-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for tool in output.get("tools") or ():
            if isinstance(tool, dict) and tool.get("strict") is False:
                del tool["strict"]
        return output
