"""Broken adapters whose defect lies in the gemini directions: function
responses paired by name and order, and thought signatures."""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Json, Triple

GEMINI = "gemini"
REQUESTS_TO_GEMINI: frozenset[Triple] = frozenset(
    {("request", OPENAI, GEMINI), ("request", ANTHROPIC, GEMINI)}
)
TO_GEMINI: frozenset[Triple] = frozenset(
    (kind, source, GEMINI)
    for kind in ("request", "response", "stream")
    for source in (OPENAI, ANTHROPIC)
)


def function_responses(content: Json) -> list[Json]:
    return [p for p in content.get("parts") or () if "functionResponse" in p]


class GeminiGhostResponse(BrokenAdapter):
    breaks = "pairing.orphan_result"
    defect = "sends Gemini a functionResponse for a call it filtered out of the model turn"
    damaged = REQUESTS_TO_GEMINI
    shows_on = ("single-tool/weather-openai", "parallel/two-cities-anthropic")
    # The trip back would carry the ghost into the other dialect, under other codes.
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for content in output["contents"]:
            answers = function_responses(content)
            if answers:
                ghost = {
                    "functionResponse": {"name": "filtered_tool", "response": {"output": "ok"}}
                }
                content["parts"].insert(content["parts"].index(answers[-1]) + 1, ghost)
        return output


class GeminiFirstResponseOnly(BrokenAdapter):
    breaks = "pairing.unanswered_call"
    defect = "keeps only the first functionResponse of each user turn sent to Gemini"
    damaged = REQUESTS_TO_GEMINI
    shows_on = ("parallel/two-cities-openai", "parallel/two-cities-anthropic")
    no_round_trip = True

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        answered = [c for c in output["contents"] if len(function_responses(c)) > 1]
        if answered:  # the last turn answering several calls keeps only its first answer
            content = answered[-1]
            for extra in function_responses(content)[1:]:
                content["parts"].remove(extra)
        return output


class GeminiSignatureDropped(BrokenAdapter):
    breaks = "reasoning.call_signature_lost"
    defect = "writes Gemini function calls without the thoughtSignature the call id carried back"
    damaged = TO_GEMINI
    shows_on = ("gemini-dev/signature-replay-stream",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        if direction[0] == "stream":
            for event in output:
                data = event.get("data")
                for candidate in (
                    (data or {}).get("candidates") or () if isinstance(data, dict) else ()
                ):
                    for part in (candidate.get("content") or {}).get("parts") or ():
                        part.pop("thoughtSignature", None)
            return output
        contents = output.get("contents") or [
            c.get("content") or {} for c in output.get("candidates") or ()
        ]
        for content in contents:
            for part in content.get("parts") or ():
                part.pop("thoughtSignature", None)
        return output


class GeminiStreamChunkCut(BrokenAdapter):
    breaks = "stream.event_order"
    defect = "writes a Gemini stream chunk whose candidates are not an array"
    damaged: frozenset[Triple] = frozenset(
        {("stream", OPENAI, GEMINI), ("stream", ANTHROPIC, GEMINI)}
    )
    shows_on = ("streaming/parallel-openai", "streaming/parallel-anthropic")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        # An extra chunk between the real ones: what they carry is unchanged.
        output.insert(1, {"event": None, "data": {"candidates": {"index": 0}}})
        return output


class GeminiJsonSchemaAsParameters(BrokenAdapter):
    breaks = "schema.gemini_parameters"
    defect = "writes the tools' JSON Schema under Gemini's OpenAPI `parameters`"
    damaged = REQUESTS_TO_GEMINI
    no_round_trip = True  # the reference reads parameters back as written
    shows_on = ("tool-schemas/nested-objects-closed-and-map-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for tool in output.get("tools") or ():
            for declaration in tool.get("functionDeclarations") or ():
                if "parametersJsonSchema" in declaration:
                    declaration["parameters"] = declaration.pop("parametersJsonSchema")
        return output
