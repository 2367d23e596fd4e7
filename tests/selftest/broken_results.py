"""Broken adapters around how a tool result's text is carried: a converter's
own failure marker, a JSON value under a Gemini envelope, and parallel turns
regrouped (each call in its own turn, its result after it).

Each shows a fix of the referee (docs/accuracy.md, "Result texts: envelopes,
markers, regrouped turns"): a marker around the unchanged text of a failed
result and a JSON value under an envelope are accepted (tests/selftest/
variants_results.py), regrouped turns are the ordering rules' and not a
changed text; what these adapters really break still fails.
"""

from __future__ import annotations

import json
from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, BrokenAdapter, Json, Triple
from tests.selftest.broken_gemini import REQUESTS_TO_GEMINI, function_responses

TO_OPENAI_REQUESTS: frozenset[Triple] = frozenset({("request", ANTHROPIC, OPENAI)})


def _tool_messages(output: Json) -> list[Json]:
    return [
        m
        for m in output.get("messages") or ()
        if m.get("role") == "tool" and isinstance(m.get("content"), str)
    ]


class ErrorMarkerOnSuccess(BrokenAdapter):
    breaks = "fidelity.text"
    defect = "wraps every successful tool result sent to openai-chat in <error>...</error>"
    damaged = TO_OPENAI_REQUESTS
    no_round_trip = True
    shows_on = ("single-tool/weather-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in _tool_messages(output):
            if not message["content"].startswith("Error:"):
                message["content"] = f"<error>{message['content']}</error>"
        return output


class ErrorMarkerTextCut(BrokenAdapter):
    breaks = "fidelity.text"
    defect = (
        "marks a failed result toward openai-chat with a '[is_error=true]' line, "
        "but cuts the last character of its text"
    )
    damaged = TO_OPENAI_REQUESTS
    no_round_trip = True
    shows_on = ("error-result/missing-file-anthropic",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for message in _tool_messages(output):
            text = message["content"]
            if text.startswith("Error: ") and len(text) > len("Error: ") + 1:
                message["content"] = "[is_error=true]\n" + text[len("Error: ") : -1]
        return output


class GeminiEnvelopeValueAltered(BrokenAdapter):
    breaks = "fidelity.text"
    defect = (
        "sends a JSON-object result to Gemini under an `output` envelope, "
        "with the object's last key dropped"
    )
    damaged = REQUESTS_TO_GEMINI
    no_round_trip = True
    shows_on = ("single-tool/weather-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        for content in output.get("contents") or ():
            for part in function_responses(content):
                answer = part["functionResponse"]
                value = answer.get("response")
                if isinstance(value, dict) and set(value) == {"output"}:
                    value = _json_object(value["output"])  # the JSON text the reference kept
                if isinstance(value, dict) and len(value) > 1:
                    kept = dict(list(value.items())[:-1])
                    answer["response"] = {"output": kept}
        return output


def _json_object(text: Any) -> Any:
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def split_gemini_turns(contents: list[Json], keep_ids: bool) -> list[Json]:
    """Each call of a parallel model turn in a model content of its own, the
    response answering it (by id, else in order) in a user content after it."""
    split: list[Json] = []
    index = 0
    while index < len(contents):
        content = contents[index]
        calls = [p for p in content.get("parts") or () if "functionCall" in p]
        answer = contents[index + 1] if index + 1 < len(contents) else {}
        answers = function_responses(answer)
        if content.get("role") != "model" or len(calls) < 2 or not answers:
            split.append(content)
            index += 1
            continue
        others = [p for p in content["parts"] if "functionCall" not in p]
        rest = [p for p in answer["parts"] if "functionResponse" not in p]
        for n, call in enumerate(calls):
            call_id = call["functionCall"].get("id")
            mine = [a for a in answers if call_id and a["functionResponse"].get("id") == call_id]
            mine = mine or answers[n : n + 1]
            split.append({"role": "model", "parts": (others if n == 0 else []) + [call]})
            split.append({"role": "user", "parts": mine + (rest if n == len(calls) - 1 else [])})
        index += 2
    if not keep_ids:
        for content in split:
            for part in content.get("parts") or ():
                for key in ("functionCall", "functionResponse"):
                    if isinstance(part.get(key), dict):
                        part[key].pop("id", None)
    return split


class CallsSplitForGemini(BrokenAdapter):
    breaks = "ordering.parallel_calls_split"
    defect = (
        "sends each call of a parallel turn to Gemini as its own model content, its "
        "response after it, without ids (every text kept: no fidelity.text on the trip back)"
    )
    damaged = REQUESTS_TO_GEMINI
    # The trip back through the reference is the point: the ids are gone and the
    # turns regrouped, and the results' texts must still pair with their calls.
    shows_on = ("parallel/results-out-of-order-openai", "parallel/results-reversed-openai")

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["contents"] = split_gemini_turns(output["contents"], keep_ids=False)
        return output


class CallsSplitResultChanged(BrokenAdapter):
    breaks = "fidelity.text"
    defect = (
        "regroups a parallel turn toward Gemini (one call per content) and "
        "rewrites the first response's text"
    )
    damaged = REQUESTS_TO_GEMINI
    # Without ids, and judged on the trip back too, where the results pair by call.
    shows_on = ("parallel/results-out-of-order-openai",)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        output["contents"] = split_gemini_turns(output["contents"], keep_ids=False)
        for content in output["contents"]:
            for part in function_responses(content):
                answer = part["functionResponse"]
                if "error" not in (answer.get("response") or {}):  # a success: its text
                    answer["response"] = {"output": json.dumps({"status": "?"})}
                    return output
        return output
