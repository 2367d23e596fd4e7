"""Correct-but-different ways to carry a tool result's text (the fixes of
docs/accuracy.md, "Result texts: envelopes, markers, regrouped turns"):

* ``GeminiJsonValueEnveloped``: a result whose text is JSON reaches Gemini as
  that value under ``output`` (``{"output": {...}}``), the key the
  FunctionResponse reference names for a function's output;
* ``FailureMarkedByOwnMarker``: a failed result reaches openai-chat marked by
  the converter's own marker around the unchanged text (``<error>...</error>``),
  and deepseek-chat by a prefix line (``[is_error=true]``), instead of
  ``Error:``; the converter reads its marker back into ``is_error``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.selftest.broken_base import DEEPSEEK, OPENAI, Json, Triple
from tests.selftest.broken_gemini import REQUESTS_TO_GEMINI, function_responses
from tests.selftest.variants import REQUESTS, VariantAdapter
from toolwire.harness.model import PayloadKind

_MARKED = re.compile(
    r"\A(?:<error>(?P<wrapped>.*)</error>|\[is_error=true\]\n(?P<line>.*))\Z", re.S
)


class GeminiJsonValueEnveloped(VariantAdapter):
    variation = "a JSON result sent to Gemini as its value under `output` ({'output': {...}})"
    varied = REQUESTS_TO_GEMINI

    def vary(self, output: Any, direction: Triple) -> Any:
        for content in output.get("contents") or ():
            for part in function_responses(content):
                answer = part["functionResponse"]
                value = answer.get("response")
                if not isinstance(value, dict):
                    continue
                if "output" in value or "error" in value:
                    inner = value.get("output")
                    parsed = _json_container(inner) if len(value) == 1 else None
                    if parsed is not None:  # JSON text kept as text: its value
                        answer["response"] = {"output": parsed}
                    continue
                answer["response"] = {"output": value}  # the object the text spelled
        return output


def _json_container(text: Any) -> Any:
    if not isinstance(text, str) or text.lstrip()[:1] not in ("[", "{"):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


class FailureMarkedByOwnMarker(VariantAdapter):
    variation = (
        "a failed result marked <error>...</error> (openai-chat) or by an "
        "'[is_error=true]' line (deepseek-chat) around its unchanged text, read back as is_error"
    )
    varied = frozenset(d for d in REQUESTS if d[2] in (OPENAI, DEEPSEEK))

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        if kind == "request" and source in (OPENAI, DEEPSEEK) and isinstance(payload, dict):
            payload = _read_own_markers(payload)  # the converter reads its marker back
        return super().convert(payload, kind, source, target, request)

    def vary(self, output: Any, direction: Triple) -> Any:
        for message in output.get("messages") or ():
            text = message.get("content")
            if message.get("role") == "tool" and isinstance(text, str) and text[:7] == "Error: ":
                inner = text[len("Error: ") :]
                if direction[2] == OPENAI:
                    message["content"] = f"<error>{inner}</error>"
                else:
                    message["content"] = f"[is_error=true]\n{inner}"
        return output


def _read_own_markers(payload: Json) -> Json:
    messages = []
    for message in payload.get("messages") or ():
        text = message.get("content")
        tool = message.get("role") == "tool" and isinstance(text, str)
        found = _MARKED.match(text) if tool else None
        if found:
            wrapped = found.group("wrapped")
            inner = wrapped if wrapped is not None else found.group("line")
            message = {**message, "content": f"Error: {inner}"}
        messages.append(message)
    return {**payload, "messages": messages}


VARIANTS_RESULTS: tuple[type[VariantAdapter], ...] = (
    GeminiJsonValueEnveloped,
    FailureMarkedByOwnMarker,
)
