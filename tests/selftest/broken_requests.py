"""Broken adapters whose defect lies in a converted request (conversation history)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from tests.selftest.broken_base import (
    ANTHROPIC,
    OPENAI,
    BrokenAdapter,
    Json,
    Triple,
    blocks,
    messages_of,
    tool_results,
)

TO_ANTHROPIC: frozenset[Triple] = frozenset({("request", OPENAI, ANTHROPIC)})
TO_OPENAI: frozenset[Triple] = frozenset({("request", ANTHROPIC, OPENAI)})


# --- pairing -------------------------------------------------------------------


class OrphanResult(BrokenAdapter):
    breaks = "pairing.orphan_result"
    defect = "keeps the result of a call it filtered out of the assistant turn"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        results = tool_results(output)
        if results:
            last = next(m for m in output["messages"] if results[-1] in blocks(m))
            ghost = {"type": "tool_result", "tool_use_id": "toolu_filtered", "content": "ok"}
            last["content"].insert(last["content"].index(results[-1]) + 1, ghost)
        return output


class DuplicateResult(BrokenAdapter):
    breaks = "pairing.duplicate_result"
    defect = "sends the last tool result twice"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        results = tool_results(output)
        if results:
            last = next(m for m in output["messages"] if results[-1] in blocks(m))
            last["content"].insert(last["content"].index(results[-1]) + 1, dict(results[-1]))
        return output


class UnansweredCall(BrokenAdapter):
    breaks = "pairing.unanswered_call"
    defect = "keeps only the first tool message after an assistant message"
    damaged = TO_ANTHROPIC
    shows_on = ("parallel/two-cities-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "user"):
            results = [b for b in blocks(message) if b.get("type") == "tool_result"]
            for extra in results[1:]:
                message["content"].remove(extra)
        return output


class IdsRewritten(BrokenAdapter):
    breaks = "pairing.id_changed"
    defect = "renumbers tool call ids (call_1, call_2...) without declaring the mapping"
    damaged = TO_OPENAI
    shows_on = ("single-tool/weather-anthropic", "parallel/two-cities-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        renamed: dict[str, str] = {}
        for message in output["messages"]:
            for call in message.get("tool_calls") or ():
                call["id"] = renamed.setdefault(call["id"], f"call_{len(renamed) + 1}")
            if message.get("role") == "tool":
                message["tool_call_id"] = renamed.get(message["tool_call_id"], "call_0")
        return output


class IllegalAnthropicId(BrokenAdapter):
    breaks = "pairing.id_pattern"
    defect = "passes Kimi-style ids (functions.get_weather:0) to Anthropic, declaring the mapping"
    damaged = TO_ANTHROPIC
    no_round_trip = True  # the trip back would not restore the original ids
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def _mapping(self, payload: Json) -> dict[str, str]:
        mapping: dict[str, str] = {}
        for message in payload.get("messages", []):
            for call in message.get("tool_calls") or ():
                mapping[call["id"]] = f"functions.{call['function']['name']}:{len(mapping)}"
        return mapping

    def id_mapping(self, payload: Any, kind: Any, source: str, target: str) -> dict[str, str]:
        if (kind, source, target) in self.damaged:
            return self._mapping(payload)
        return super().id_mapping(payload, kind, source, target)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        mapping = self._mapping(payload)
        for message in output["messages"]:
            for block in blocks(message):
                if block.get("type") == "tool_use":
                    block["id"] = mapping.get(block["id"], block["id"])
                if block.get("type") == "tool_result":
                    block["tool_use_id"] = mapping.get(block["tool_use_id"], block["tool_use_id"])
        return output


# --- ordering ------------------------------------------------------------------


class ResultNotAdjacent(BrokenAdapter):
    breaks = "ordering.result_not_adjacent"
    defect = "emits the user message of a results turn (empty) before its tool messages"
    damaged = TO_OPENAI
    shows_on = ("single-tool/weather-anthropic", "parallel/two-cities-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        messages = output["messages"]
        for index in range(len(messages) - 1, 0, -1):
            if messages[index]["role"] == "tool" and messages[index - 1]["role"] == "assistant":
                messages.insert(index, {"role": "user", "content": ""})
        return output


class ResultAfterText(BrokenAdapter):
    breaks = "ordering.result_after_text"
    defect = "writes a placeholder text block (' ') before the tool_result blocks"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "user"):
            if any(b.get("type") == "tool_result" for b in blocks(message)):
                message["content"].insert(0, {"type": "text", "text": " "})
        return output


class ResultsSplit(BrokenAdapter):
    breaks = "ordering.parallel_results_split"
    defect = "turns each tool message into its own user message"
    damaged = TO_ANTHROPIC
    shows_on = ("parallel/two-cities-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        split: list[Json] = []
        for message in output["messages"]:
            results = [b for b in blocks(message) if b.get("type") == "tool_result"]
            if message["role"] == "user" and len(results) > 1:
                split.extend({"role": "user", "content": [result]} for result in results)
            else:
                split.append(message)
        output["messages"] = split
        return output


class ResultsSplitForMergingTarget(ResultsSplit):
    """The same split, judged for a target that merges consecutive user
    messages before it checks them: a warning there, not a failure."""

    profiles: ClassVar[Mapping[str, str]] = {ANTHROPIC: "anthropic-merging"}


class AssistantSplit(BrokenAdapter):
    breaks = "ordering.role_alternation"
    defect = "sends the text and the tool calls of one assistant turn as two assistant messages"
    damaged = TO_ANTHROPIC
    shows_on = ("mixed-text/text-then-call-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        split: list[Json] = []
        for message in output["messages"]:
            texts = [b for b in blocks(message) if b.get("type") == "text"]
            rest = [b for b in blocks(message) if b.get("type") != "text"]
            if message["role"] == "assistant" and texts and rest:
                split += [{"role": "assistant", "content": texts}, {**message, "content": rest}]
            else:
                split.append(message)
        output["messages"] = split
        return output


class SystemAsMessage(BrokenAdapter):
    breaks = "ordering.system_placement"
    defect = "leaves the system prompt as a role:system message inside messages"
    damaged = TO_ANTHROPIC
    no_round_trip = True  # the reference refuses a system role in anthropic messages
    shows_on = ("mixed-text/text-then-call-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if "system" in output:
            output["messages"].insert(0, {"role": "system", "content": output.pop("system")})
        return output


class TextAfterCalls(BrokenAdapter):
    breaks = "ordering.block_order"
    defect = "writes an assistant turn's tool_use blocks before its text"
    damaged = TO_ANTHROPIC
    shows_on = ("mixed-text/text-then-call-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            content = blocks(message)
            content.sort(key=lambda block: block.get("type") == "text")
        return output


class CallsReversed(BrokenAdapter):
    breaks = "ordering.block_order"
    defect = "writes the tool_use blocks of a parallel turn in reverse order"
    damaged = TO_ANTHROPIC
    shows_on = ("parallel/two-cities-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            calls = [b for b in blocks(message) if b.get("type") == "tool_use"]
            others = [b for b in blocks(message) if b.get("type") != "tool_use"]
            message["content"] = others + calls[::-1]
        return output


class ResultsReordered(BrokenAdapter):
    breaks = "ordering.result_order"
    defect = "sends the results of parallel calls in reverse order"
    damaged = TO_ANTHROPIC
    shows_on = ("parallel/two-cities-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "user"):
            content = blocks(message)
            if sum(b.get("type") == "tool_result" for b in content) > 1:
                content.reverse()
        return output


# --- fidelity ------------------------------------------------------------------


class AssistantTextDropped(BrokenAdapter):
    breaks = "fidelity.text"
    defect = "drops the text block of an assistant turn that calls tools"
    damaged = TO_ANTHROPIC
    shows_on = ("mixed-text/text-then-call-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            content = blocks(message)
            if any(b.get("type") == "tool_use" for b in content):
                message["content"] = [b for b in content if b.get("type") != "text"]
        return output


class ErrorFlagLost(BrokenAdapter):
    breaks = "fidelity.error_flag"
    defect = "copies a failed tool_result's text without marking the failure ('Error:')"
    damaged = TO_OPENAI
    shows_on = ("error-result/missing-file-anthropic", "error-result/retry-after-error-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "tool"):
            if isinstance(message["content"], str):
                message["content"] = message["content"].removeprefix("Error: ")
        return output


class IsErrorDropped(BrokenAdapter):
    # Not reading "Error:" into is_error (openai-chat -> anthropic) loses nothing:
    # the convention is accepted, not required (tests/selftest/variants.py). A flag
    # the source carried, dropped where the target can carry it, is the defect.
    breaks = "fidelity.error_flag"
    defect = "an anthropic pass-through proxy that drops is_error: true from tool results"
    pass_through = frozenset({("request", ANTHROPIC, ANTHROPIC)})
    damaged = pass_through
    shows_on = ("error-result/missing-file-anthropic", "error-result/retry-after-error-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for result in tool_results(output):
            result.pop("is_error", None)
        return output


class ErrorMarkerAndFlagLost(BrokenAdapter):
    breaks = "fidelity.error_flag"
    defect = "strips the 'Error:' text of a failed tool message and sets no is_error"
    damaged = TO_ANTHROPIC
    shows_on = ("error-result/missing-file-openai", "error-result/retry-after-error-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for result in tool_results(output):
            if result.pop("is_error", None) and isinstance(result.get("content"), str):
                result["content"] = result["content"].removeprefix("Error: ")
        return output


class DescriptionLost(BrokenAdapter):
    breaks = "fidelity.tool_definitions"
    defect = "drops each tool's description"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for tool in output.get("tools", []):
            tool.pop("description", None)
        return output


class ParallelCallsDisabled(BrokenAdapter):
    breaks = "fidelity.tool_choice"
    defect = "sets disable_parallel_tool_use on every request with tools"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if output.get("tools"):
            choice = output.get("tool_choice") or {"type": "auto"}
            output["tool_choice"] = {**choice, "disable_parallel_tool_use": True}
        return output


class ToolChoiceDropped(BrokenAdapter):
    breaks = "fidelity.tool_choice"
    defect = "does not translate tool_choice at all"
    damaged = TO_ANTHROPIC
    # No bundled case sets tool_choice in a direction the reference converts.
    corpus_patches = ("tool-choice",)
    shows_on = ("selftest/weather-openai-tool-choice-required",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.pop("tool_choice", None)
        return output


class EmptyTextBlock(BrokenAdapter):
    breaks = "fidelity.empty_content"
    defect = "writes content: null of a tool-call turn as an empty text block"
    damaged = TO_ANTHROPIC
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            content = blocks(message)
            if content and not any(b.get("type") == "text" for b in content):
                # Where the text would go: after the thinking a turn starts with.
                at = sum(1 for b in content if b.get("type") in ("thinking", "redacted_thinking"))
                content.insert(at, {"type": "text", "text": ""})
        return output


class MaxTokensNotKept(BrokenAdapter):
    breaks = "fidelity.roundtrip"
    defect = "does not carry max_tokens over to openai-chat"
    damaged = TO_OPENAI
    shows_on = ("single-tool/weather-anthropic", "thinking/tool-use-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output.pop("max_completion_tokens", None)
        output.pop("max_tokens", None)
        return output


class ArgumentsLeftAsString(BrokenAdapter):
    breaks = "fidelity.arguments"
    defect = "copies the arguments string into tool_use.input without parsing it"
    damaged = TO_ANTHROPIC
    no_round_trip = True  # the reference refuses input that is not an object
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in messages_of(output, "assistant"):
            for block in blocks(message):
                if block.get("type") == "tool_use":
                    block["input"] = json.dumps(block["input"])
        return output


# --- schema --------------------------------------------------------------------


class MaxTokensMissing(BrokenAdapter):
    breaks = "schema.request"
    defect = "sets no max_tokens when the openai request has none"
    damaged = TO_ANTHROPIC
    no_round_trip = True  # coming back, the anthropic source's max_tokens would be lost
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if "max_tokens" not in payload and "max_completion_tokens" not in payload:
            output.pop("max_tokens", None)
        return output


# --- fidelity.tool_definitions: schema edits that change meaning ---------------
# Each drops one thing a validator or the model reads (conformance/readings/schema_meaning.py);
# tests/selftest/variants.py holds the edits that change nothing.

ALL_REQUESTS: frozenset[Triple] = frozenset(
    {("request", OPENAI, ANTHROPIC), ("request", ANTHROPIC, OPENAI)}
)


def _schemas(output: Json) -> list[Json]:
    found = []
    for tool in output.get("tools") or ():
        schema = tool.get("input_schema", (tool.get("function") or {}).get("parameters"))
        if isinstance(schema, dict):
            found.append(schema)
    return found


def _drop_everywhere(value: Any, keys: frozenset[str]) -> None:
    """Remove ``keys`` from every object inside ``value`` (the schema's own
    property names are map keys, not keywords: ``properties`` is walked, not cut)."""
    if isinstance(value, dict):
        for key in [k for k in value if k in keys]:
            del value[key]
        for item in value.values():
            _drop_everywhere(item, keys)
    elif isinstance(value, list):
        for item in value:
            _drop_everywhere(item, keys)


class _SchemaKeywordDropped:
    """The shared frame of the schema edits below (a mixin, so that the broken
    adapter list, which collects BrokenAdapter subclasses, does not list it)."""

    breaks = "fidelity.tool_definitions"
    damaged = ALL_REQUESTS
    corpus_patches = ("rich-schema",)
    dropped: frozenset[str] = frozenset()

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for schema in _schemas(output):
            _drop_everywhere(schema, self.dropped)
        return output


class SchemaEnumDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops enum from tool parameter schemas"
    dropped = frozenset({"enum"})
    shows_on = ("single-tool/weather-openai", "selftest/weather-openai-rich-schema")


class SchemaAdditionalPropertiesDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops additionalProperties from tool parameter schemas"
    dropped = frozenset({"additionalProperties"})
    shows_on = ("selftest/weather-openai-rich-schema",)


class SchemaPropertyDescriptionDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops the descriptions inside tool parameter schemas (the tool's own is kept)"
    shows_on = ("single-tool/weather-openai", "selftest/weather-openai-rich-schema")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for schema in _schemas(output):
            schema.pop("description", None)
            for sub in (schema.get("properties") or {}).values():
                if isinstance(sub, dict):
                    sub.pop("description", None)
        return output


class SchemaFormatDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops format from tool parameter schemas"
    dropped = frozenset({"format"})
    shows_on = ("selftest/weather-openai-rich-schema",)


class SchemaBoundsDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops minimum, maximum, minLength and maxLength from tool parameter schemas"
    dropped = frozenset({"minimum", "maximum", "minLength", "maxLength"})
    shows_on = ("selftest/weather-openai-rich-schema",)


class SchemaUnionFlattened(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops anyOf and oneOf from tool parameter schemas (any value accepted there)"
    dropped = frozenset({"anyOf", "oneOf"})
    shows_on = ("selftest/weather-openai-rich-schema",)


class SchemaDefsDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops $defs that hold definitions (the $refs to them dangle)"
    dropped = frozenset({"$defs", "definitions"})
    shows_on = ("selftest/weather-openai-rich-schema",)


class ToolStrictDropped(_SchemaKeywordDropped, BrokenAdapter):
    defect = "drops strict: true from tool definitions"
    shows_on = ("selftest/weather-openai-rich-schema",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for tool in output.get("tools") or ():
            tool.pop("strict", None)
            (tool.get("function") or {}).pop("strict", None)
        return output
