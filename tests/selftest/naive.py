"""The two naive converters of NAIVE_CONVERTERS.md, flaws included, as test subjects.

Written from the described behaviour only. Where the description says
nothing, the simplest choice is made and noted here:

A ("adapter pattern", ``NaiveAdapterPattern``): request openai-chat ->
anthropic-messages and response anthropic-messages -> openai-chat. The
request keeps ``model`` and the listed fields only (no ``max_tokens``, no
``stream``: "no max_tokens is set unless the caller adds it"). The response
carries ``id``, ``object``, ``created`` (0) and ``model`` beside the choice.

B ("unified builder", ``NaiveUnifiedBuilder``): the directions the
description supports are its imports from openai-chat and its two exports:

* request openai-chat -> anthropic-messages (import, export to Anthropic);
* request openai-chat -> openai-chat (import, export back to OpenAI);
* request deepseek-chat -> deepseek-chat: DeepSeek is OpenAI-compatible and
  the streaming import reads its ``reasoning_content``; the request import
  reads no reasoning, so the export sends none back;
* stream openai-chat -> openai-chat and deepseek-chat -> deepseek-chat: the
  streaming import, then the message re-emitted as openai chunks (one role
  chunk, one content chunk, one chunk per call, the finish chunk, [DONE]);
  thinking is dropped on the openai export.

Not described, chosen here: system messages are imported into the builder's
system prompt (joined with newlines: the openai export writes it "first");
tools are translated to ``{name, description, input_schema}`` for Anthropic
and copied for OpenAI; ``max_tokens`` is never set; the finish reason of a
stream is the one the import read.
"""

from __future__ import annotations

import json
from typing import Any

from tests.selftest.broken_base import ANTHROPIC, OPENAI, Json

# --- A: "adapter pattern" --------------------------------------------------------


def a_request_to_anthropic(body: Json) -> Json:
    messages: list[Json] = []
    for message in body["messages"]:
        role = message["role"]
        if role == "tool":
            result = {
                "type": "tool_result",
                "tool_use_id": message["tool_call_id"],
                "content": message["content"],
            }
            messages.append({"role": "user", "content": [result]})
        elif role == "assistant" and message.get("tool_calls"):
            content: list[Json] = []
            if message.get("content"):
                content.append({"type": "text", "text": message["content"]})
            for call in message["tool_calls"]:
                function = call["function"]
                content.append(
                    {
                        "type": "tool_use",
                        "id": call["id"],
                        "name": function["name"],
                        "input": json.loads(function["arguments"]),
                    }
                )
            messages.append({"role": "assistant", "content": content})
        else:
            messages.append({"role": role, "content": message.get("content")})
    out: Json = {"model": body["model"], "messages": messages}
    if "tools" in body:
        out["tools"] = [
            {
                "name": tool["function"]["name"],
                "description": tool["function"].get("description", ""),
                "input_schema": tool["function"].get("parameters"),
            }
            for tool in body["tools"]
        ]
    return out


def a_response_to_openai(body: Json) -> Json:
    texts = [block["text"] for block in body["content"] if block["type"] == "text"]
    message: Json = {"role": "assistant", "content": "\n".join(texts) if texts else None}
    calls = [
        {
            "id": block["id"],
            "type": "function",
            "function": {
                "name": block["name"],
                "arguments": json.dumps(block["input"], ensure_ascii=False),
            },
        }
        for block in body["content"]
        if block["type"] == "tool_use"
    ]
    if calls:
        message["tool_calls"] = calls
    return {
        "id": body["id"],
        "object": "chat.completion",
        "created": 0,
        "model": body["model"],
        "choices": [{"index": 0, "message": message}],
    }


class NaiveAdapterPattern:
    name = "naive-a"
    version = "0"
    directions = frozenset({("request", OPENAI, ANTHROPIC), ("response", ANTHROPIC, OPENAI)})

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if kind == "request":
            return a_request_to_anthropic(payload)
        return a_response_to_openai(payload)


# --- B: "unified builder" --------------------------------------------------------


class Builder:
    """B's internal form: Anthropic-like messages of blocks, and a system prompt."""

    def __init__(self) -> None:
        self.system: str | None = None
        self.messages: list[Json] = []

    def import_openai(self, body: Json) -> Builder:
        for message in body["messages"]:
            role, content = message["role"], message.get("content")
            if role in ("system", "developer"):
                self.system = f"{self.system}\n{content}" if self.system else str(content)
            elif role == "user":
                self.messages.append({"role": "user", "content": [_text(str(content))]})
            elif role == "assistant":
                self.messages.append({"role": "assistant", "content": _assistant_blocks(message)})
            elif role == "tool":
                self._add_result(message)
        return self

    def _add_result(self, message: Json) -> None:
        result = {
            "type": "tool_result",
            "tool_use_id": message["tool_call_id"],
            "content": str(message["content"]),
        }
        last = self.messages[-1] if self.messages else None
        if last is not None and last["role"] == "user":
            last["content"].append(result)  # even after text: the result lands after it
        else:
            self.messages.append({"role": "user", "content": [result]})

    def export_anthropic(self, body: Json) -> Json:
        out: Json = {"model": body["model"], "messages": self.messages}
        if self.system:
            out["system"] = self.system
        if "tools" in body:
            out["tools"] = [
                {
                    "name": tool["function"]["name"],
                    "description": tool["function"].get("description", ""),
                    "input_schema": tool["function"].get("parameters"),
                }
                for tool in body["tools"]
            ]
        return out

    def export_openai_messages(self) -> list[Json]:
        out: list[Json] = []
        if self.system:
            out.append({"role": "system", "content": self.system})
        for message in self.messages:
            content = message["content"]
            text = "".join(block["text"] for block in content if block["type"] == "text")
            if message["role"] == "assistant":
                exported: Json = {"role": "assistant", "content": text}
                calls = [_openai_call(block) for block in content if block["type"] == "tool_use"]
                if calls:
                    exported["tool_calls"] = calls
                out.append(exported)
                continue
            if text:
                out.append({"role": "user", "content": text})
            out.extend(
                {"role": "tool", "tool_call_id": block["tool_use_id"], "content": block["content"]}
                for block in content
                if block["type"] == "tool_result"
            )
        return out

    def export_openai(self, body: Json) -> Json:
        out: Json = {"model": body["model"], "messages": self.export_openai_messages()}
        if "tools" in body:
            out["tools"] = body["tools"]
        return out


def _text(text: str) -> Json:
    return {"type": "text", "text": text}


def _assistant_blocks(message: Json) -> list[Json]:
    content = message.get("content")
    found = [_text(content)] if isinstance(content, str) and content else []
    for call in message.get("tool_calls") or ():
        function = call["function"]
        # The arguments string is stored as the input, never parsed.
        found.append(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": function["name"],
                "input": function["arguments"],
            }
        )
    return found


def _openai_call(block: Json) -> Json:
    return {
        "id": block["id"],
        "type": "function",
        "function": {"name": block["name"], "arguments": block["input"]},
    }
