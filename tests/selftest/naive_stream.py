"""Naive converter B's streaming import, and B as an adapter (see ``naive``)."""

from __future__ import annotations

from typing import Any

from tests.selftest.broken_base import ANTHROPIC, DEEPSEEK, OPENAI, Json
from tests.selftest.naive import Builder


class StreamImport:
    """B's import of openai-chat chunks into one internal assistant message."""

    def __init__(self) -> None:
        self.text = ""
        self.thinking: str | None = None
        self.calls: dict[int, Json] = {}
        self.emitted: list[Json] = []
        self.finish_reason: str | None = None
        self.first: Json = {}

    def read(self, events: list[Json]) -> StreamImport:
        for event in events:
            chunk = event.get("data")
            if not isinstance(chunk, dict):
                continue  # [DONE]
            self.first = self.first or chunk
            for choice in chunk.get("choices") or ():
                self._choice(choice)
        return self

    def _choice(self, choice: Json) -> None:
        delta = choice.get("delta") or {}
        if delta.get("content"):
            self.text += delta["content"]
            return  # a text chunk is text and nothing else: its other fields are not read
        details = delta.get("reasoning_details") or [{}]
        reasoning = (
            details[0].get("text") or delta.get("reasoning") or delta.get("reasoning_content")
        )
        if reasoning:
            self.thinking = (self.thinking or "") + reasoning
        for fragment in delta.get("tool_calls") or ():
            call = self.calls.setdefault(fragment.get("index", 0), {"arguments": ""})
            if fragment.get("id"):
                call["id"] = fragment["id"]
            function = fragment.get("function") or {}
            if function.get("name"):
                call["name"] = function["name"]
            call["arguments"] += function.get("arguments") or ""
        if choice.get("finish_reason"):
            self.finish_reason = choice["finish_reason"]
            self.emitted = [self.calls[index] for index in sorted(self.calls)]

    def message(self) -> Json:
        """The internal message: thinking (no signature), text, tool_use (input a string)."""
        blocks: list[Json] = []
        if self.thinking is not None:
            blocks.append({"type": "thinking", "thinking": self.thinking})
        if self.text:
            blocks.append({"type": "text", "text": self.text})
        blocks += [
            {"type": "tool_use", "id": c.get("id"), "name": c.get("name"), "input": c["arguments"]}
            for c in self.emitted
        ]
        return {"role": "assistant", "content": blocks}

    def export_openai_chunks(self) -> list[Json]:
        """The message re-emitted as openai chunks; thinking dropped (openai export)."""
        base = {key: self.first.get(key) for key in ("id", "object", "created", "model")}
        deltas: list[Json] = [{"role": "assistant", "content": None}]
        content = self.message()["content"]
        text = "".join(block["text"] for block in content if block["type"] == "text")
        if text:
            deltas.append({"content": text})
        calls = [block for block in content if block["type"] == "tool_use"]
        for index, call in enumerate(calls):
            fragment: Json = {"index": index, "type": "function"}
            function: Json = {"arguments": call["input"]}
            if call["id"] is not None:  # written when the import read one
                fragment["id"] = call["id"]
            if call["name"] is not None:
                function["name"] = call["name"]
            deltas.append({"tool_calls": [{**fragment, "function": function}]})
        chunks = [
            {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            for delta in deltas
        ]
        finish = {"index": 0, "delta": {}, "finish_reason": self.finish_reason}
        chunks.append({**base, "choices": [finish]})
        return [{"event": None, "data": chunk} for chunk in chunks] + [
            {"event": None, "data": "[DONE]"}
        ]


class NaiveUnifiedBuilder:
    name = "naive-b"
    version = "0"
    directions = frozenset(
        {
            ("request", OPENAI, ANTHROPIC),
            ("request", OPENAI, OPENAI),
            ("request", DEEPSEEK, DEEPSEEK),
            ("stream", OPENAI, OPENAI),
            ("stream", DEEPSEEK, DEEPSEEK),
        }
    )

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if kind == "stream":
            return StreamImport().read(payload).export_openai_chunks()
        builder = Builder().import_openai(payload)
        if target == ANTHROPIC:
            return builder.export_anthropic(payload)
        return builder.export_openai(payload)
