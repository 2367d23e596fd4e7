"""Broken adapters whose defect lies in a converted response, stream or XML parse."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.selftest.broken_base import (
    ANTHROPIC,
    OPENAI,
    QWEN,
    BrokenAdapter,
    Json,
    Triple,
    call_fragments,
    choice_message,
    stream_chunks,
)

RESPONSE_TO_OPENAI: frozenset[Triple] = frozenset({("response", ANTHROPIC, OPENAI)})
STREAM_TO_OPENAI: frozenset[Triple] = frozenset({("stream", ANTHROPIC, OPENAI)})
STREAM_TO_ANTHROPIC: frozenset[Triple] = frozenset({("stream", OPENAI, ANTHROPIC)})
XML_RESPONSE: frozenset[Triple] = frozenset({("response", QWEN, OPENAI)})
XML_STREAM: frozenset[Triple] = frozenset({("stream", QWEN, OPENAI)})
TOOL_CALL_RESPONSES = ("single-tool/weather-anthropic", "parallel/two-cities-anthropic")


# --- fidelity and schema of responses ------------------------------------------


class StopHardCoded(BrokenAdapter):
    breaks = "fidelity.stop_reason"
    defect = "hard-codes finish_reason to 'stop'"
    damaged = RESPONSE_TO_OPENAI
    shows_on = TOOL_CALL_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["choices"][0]["finish_reason"] = "stop"
        return output


class UsageDropped(BrokenAdapter):
    breaks = "fidelity.usage"
    defect = "drops usage"
    damaged = RESPONSE_TO_OPENAI
    shows_on = TOOL_CALL_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.pop("usage", None)
        return output


class DoubleEncodedArguments(BrokenAdapter):
    breaks = "fidelity.arguments"
    defect = "JSON-encodes the arguments string a second time"
    damaged = RESPONSE_TO_OPENAI
    no_round_trip = True  # the reference refuses arguments that are not an object
    shows_on = TOOL_CALL_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for call in choice_message(output).get("tool_calls") or ():
            call["function"]["arguments"] = json.dumps(call["function"]["arguments"])
        return output


class ResponseRoleMissing(BrokenAdapter):
    breaks = "schema.response"
    defect = "writes choices[0].message without its role"
    damaged = RESPONSE_TO_OPENAI
    shows_on = TOOL_CALL_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice_message(output).pop("role", None)
        return output


# --- streams -------------------------------------------------------------------


class StreamIndexZero(BrokenAdapter):
    breaks = "stream.index_collision"
    defect = "streams every tool call of a parallel turn at index 0"
    damaged = STREAM_TO_OPENAI
    shows_on = ("streaming/parallel-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for fragment in call_fragments(output):
            fragment["index"] = 0
        return output


class StreamBlockNotStopped(BrokenAdapter):
    breaks = "stream.event_order"
    defect = "never sends content_block_stop for the last content block"
    damaged = STREAM_TO_ANTHROPIC
    shows_on = ("streaming/parallel-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        stops = [e for e in output if e.get("event") == "content_block_stop"]
        if stops:
            output.remove(stops[-1])
        return output


class StreamArgumentsTruncated(BrokenAdapter):
    breaks = "stream.partial_json"
    defect = "loses the last character of each call's argument fragments"
    damaged = STREAM_TO_OPENAI
    no_round_trip = True  # the reference refuses arguments that do not join to JSON
    shows_on = ("streaming/parallel-anthropic", "thinking/stream-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        last: dict[int, Json] = {}
        for fragment in call_fragments(output):
            if (fragment.get("function") or {}).get("arguments"):
                last[fragment["index"]] = fragment
        for fragment in last.values():
            fragment["function"]["arguments"] = fragment["function"]["arguments"][:-1]
        return output


class StreamTextChanged(BrokenAdapter):
    breaks = "stream.reassembly"
    defect = "drops the first text delta of a stream"
    damaged = STREAM_TO_OPENAI
    shows_on = ("thinking/stream-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for chunk in stream_chunks(output):
            for choice in chunk.get("choices") or ():
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    delta["content"] = delta["content"][: len(delta["content"]) // 2]
                    return output
        return output


# --- Qwen XML ------------------------------------------------------------------


def _stop_without_calls(output: Json) -> None:
    # No calls left: "tool_calls" becomes "stop"; "length" stays what it was.
    if output["choices"][0].get("finish_reason") == "tool_calls":
        output["choices"][0]["finish_reason"] = "stop"


class XmlCallDropped(BrokenAdapter):
    breaks = "xml.call_not_parsed"
    defect = "drops XML tool calls it parsed and answers finish_reason 'stop'"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/text-then-call", "qwen-xml/two-typed-calls")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice_message(output).pop("tool_calls", None)
        _stop_without_calls(output)
        return output


class XmlLeftInContent(BrokenAdapter):
    breaks = "xml.call_not_parsed"
    defect = "leaves the XML tool calls in content with finish_reason 'stop'"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/text-then-call", "qwen-xml/two-typed-calls")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice_message(output).pop("tool_calls", None)
        choice_message(output)["content"] = choice_message(payload)["content"]
        _stop_without_calls(output)
        return output


class XmlValuesUntyped(BrokenAdapter):
    breaks = "xml.parameter_type"
    defect = "keeps every XML parameter value as the string written"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/text-then-call", "qwen-xml/two-typed-calls")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for call in choice_message(output).get("tool_calls") or ():
            values = json.loads(call["function"]["arguments"])
            written = {
                name: value if isinstance(value, str) else json.dumps(value)
                for name, value in values.items()
            }
            call["function"]["arguments"] = json.dumps(written)
        return output


class XmlTextDropped(BrokenAdapter):
    breaks = "xml.text_preserved"
    defect = "drops the text written before the XML calls"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/text-then-call", "qwen-xml/missing-opener")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        choice_message(output)["content"] = None
        return output


class XmlCallsReversed(BrokenAdapter):
    breaks = "xml.call_order"
    defect = "emits parallel XML calls in reverse order"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/two-typed-calls",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        calls = choice_message(output).get("tool_calls")
        if calls:
            calls.reverse()
        return output


_FUNCTION = re.compile(r"<function=([^>\s]+)>")
_PARAMETER = re.compile(r"<parameter=([^>\s]+)>\n(.*?)\n</parameter>", re.S)


class XmlMalformedExecuted(BrokenAdapter):
    breaks = "xml.malformed_executed"
    defect = "runs a truncated XML call with the parameters it managed to read"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/truncated-second-call",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        message = choice_message(output)
        left = message.get("content") or ""
        function = _FUNCTION.search(left)
        if function is None:
            return output
        partial = dict(_PARAMETER.findall(left[function.end() :]))
        calls = message.setdefault("tool_calls", [])
        calls.append(
            {
                "id": f"call_partial_{len(calls)}",
                "type": "function",
                "function": {"name": function.group(1), "arguments": json.dumps(partial)},
            }
        )
        return output


class XmlStreamTextLost(BrokenAdapter):
    breaks = "xml.stream_equivalence"
    defect = "a streaming XML parser that loses the text streamed before the calls"
    damaged = XML_STREAM
    shows_on = ("qwen-xml/stream-text-then-call",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for chunk in stream_chunks(output):
            for choice in chunk.get("choices") or ():
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    delta["content"] = ""
        return output


# --- pairing of calls in responses ---------------------------------------------


class XmlCallIdEmpty(BrokenAdapter):
    breaks = "pairing.call_id_missing"
    defect = "gives the calls it parses from XML an empty id"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/text-then-call", "qwen-xml/two-typed-calls")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for call in choice_message(output).get("tool_calls") or ():
            call["id"] = ""
        return output


class XmlCallIdRepeated(BrokenAdapter):
    breaks = "pairing.call_id_duplicate"
    defect = "numbers the calls it parses from XML per response, always call_0"
    damaged = XML_RESPONSE
    shows_on = ("qwen-xml/two-typed-calls",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for call in choice_message(output).get("tool_calls") or ():
            call["id"] = "call_0"
        return output


class CallIdEmptied(BrokenAdapter):
    breaks = "pairing.call_id_missing"
    defect = "loses the tool_use id, giving an empty tool call id"
    damaged = RESPONSE_TO_OPENAI
    no_round_trip = True
    shows_on = TOOL_CALL_RESPONSES

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for call in choice_message(output).get("tool_calls") or ():
            call["id"] = ""
        return output
