"""A compact, dialect-agnostic view of a case's interactions (for `corpus show`).

It peeks at the JSON without the dialect codecs, so it works on any case,
including negative ones whose payloads a codec refuses. Anything it cannot
read becomes a short note, never an error.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from toolwire.harness import json_text
from toolwire.harness.corpus.case import Case, Interaction
from toolwire.harness.sse import parse_sse

_TEXT_LIMIT = 60


def case_summary(case: Case) -> dict[str, Any]:
    """The case's metadata and a compact view of every interaction."""
    data: dict[str, Any] = {
        "id": case.id,
        "description": case.description,
        "dialect": case.dialect,
        "profile": case.profile,
        "features": list(case.features),
        "provenance": {
            key: getattr(case.provenance, key)
            for key in ("kind", "url", "endpoint", "model", "date", "recorder")
            if getattr(case.provenance, key)
        },
    }
    if case.twins:
        data["twins"] = dict(case.twins)
    expect = _expect(case)
    if expect:
        data["expect"] = expect
    data["source"] = str(case.source)
    data["interactions"] = [interaction_summary(i) for i in case.interactions]
    return data


def interaction_summary(interaction: Interaction) -> dict[str, Any]:
    stream = interaction.is_stream()
    return {
        "index": interaction.index,
        "request": f"{interaction.method} {interaction.uri}",
        "request_body": _request(interaction.request_body_text),
        "status": interaction.status_code,
        "kind": "stream" if stream else "response",
        "response_body": _stream(interaction.response_body_text)
        if stream
        else _response(interaction.response_body_text),
    }


def _expect(case: Case) -> dict[str, Any]:
    expect = case.expect
    data: dict[str, Any] = {}
    if expect.violations:
        data["violations"] = list(expect.violations)
    if expect.tool_calls is not None:
        data["tool_calls"] = [
            {"name": call.name, "arguments": dict(call.arguments)} for call in expect.tool_calls
        ]
    if expect.text is not None:
        data["text"] = expect.text
    if expect.xml_issues:
        data["xml_issues"] = list(expect.xml_issues)
    return data


def _load(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json_text.loads(text)
    except ValueError:
        return None


def _request(text: str | None) -> Any:
    payload = _load(text)
    if not isinstance(payload, Mapping):
        return _not_json(text)
    data: dict[str, Any] = {}
    if "model" in payload:
        data["model"] = payload["model"]
    if payload.get("stream") is not None:
        data["stream"] = payload["stream"]
    tools = payload.get("tools")
    if isinstance(tools, list):
        data["tools"] = [_tool_name(tool) for tool in tools]
    messages = payload.get("messages")
    if isinstance(messages, list):
        data["messages"] = [_message(message) for message in messages]
    return data


def _response(text: str) -> Any:
    payload = _load(text)
    if not isinstance(payload, Mapping):
        return _not_json(text)
    if "error" in payload:
        return {"error": _short(json.dumps(payload["error"], ensure_ascii=False))}
    choices = payload.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
        choice = choices[0]
        return {
            "choices": len(choices),
            "finish_reason": choice.get("finish_reason"),
            "message": _message(choice.get("message")),
        }
    if "content" in payload:
        return {"stop_reason": payload.get("stop_reason"), "message": _message(payload)}
    return {"keys": sorted(str(key) for key in payload)}


def _stream(text: str) -> dict[str, Any]:
    events = parse_sse(text)
    names: Counter[str] = Counter()
    for event in events:
        name = event.event
        if name is None:
            payload = _load(event.data)
            name = (
                payload.get("type") or payload.get("object") or "data"
                if isinstance(payload, Mapping)
                else event.data
            )
        names[str(name)] += 1
    return {"events": len(events), "by_type": dict(names)}


def _message(message: Any) -> str:
    """`role → part, part, ...` for an openai-chat or anthropic-messages message."""
    if not isinstance(message, Mapping):
        return "?"
    parts: list[str] = []
    if message.get("reasoning_content") is not None:
        parts.append("reasoning_content")
    content = message.get("content")
    if isinstance(content, str):
        parts.append(f"text {_quote(content)}")
    elif content is None and "content" in message:
        parts.append("content null")
    elif isinstance(content, list):
        parts.extend(_block(block) for block in content)
    tool_calls = message.get("tool_calls")
    if isinstance(tool_calls, list):
        parts.extend(f"tool_call {_call_name(call)}" for call in tool_calls)
    if message.get("tool_call_id") is not None:
        parts.append(f"result for {message['tool_call_id']}")
    role = message.get("role", "?")
    return f"{role} → {', '.join(parts)}" if parts else str(role)


def _block(block: Any) -> str:
    if not isinstance(block, Mapping):
        return "?"
    kind = str(block.get("type", "?"))
    if kind == "text":
        return f"text {_quote(str(block.get('text', '')))}"
    if kind == "tool_use":
        return f"tool_use {block.get('name')}"
    if kind == "tool_result":
        error = " (error)" if block.get("is_error") else ""
        return f"tool_result for {block.get('tool_use_id')}{error}"
    return kind


def _tool_name(tool: Any) -> str:
    if not isinstance(tool, Mapping):
        return "?"
    function = tool.get("function")
    if isinstance(function, Mapping):
        return str(function.get("name"))
    return str(tool.get("name", tool.get("type", "?")))


def _call_name(call: Any) -> str:
    function = call.get("function") if isinstance(call, Mapping) else None
    return str(function.get("name")) if isinstance(function, Mapping) else "?"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TEXT_LIMIT else text[: _TEXT_LIMIT - 1] + "…"


def _quote(text: str) -> str:
    return json.dumps(_short(text), ensure_ascii=False)


def _not_json(text: str | None) -> str:
    if text is None:
        return "no body"
    return f"{len(text.encode('utf-8'))} bytes, not JSON"
