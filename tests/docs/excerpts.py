"""Short excerpts of wire payloads for the rule pages: the part a rule speaks of.

A failing example points at a finding's JSON path; ``around`` shows the
message, choice, tool or events holding it. A passing example has no path:
``subject`` finds, by the rule's subject (a call and its results, the tools,
the reasoning...), the first part of a payload that holds it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

MAX_STRING = 90
MAX_LINES = 28
MAX_EVENTS = 4

Found = tuple[str, Any] | None


MAX_EVENT_CHARS = 200


def render(value: Any) -> str:
    """Indented JSON, long strings shortened, at most MAX_LINES lines; stream
    events one a line, as the event stream carries them."""
    if _is_events(value):
        return "\n".join(_event_line(event) for event in value)
    lines = json.dumps(_shorten(value), indent=2, ensure_ascii=False).splitlines()
    if len(lines) > MAX_LINES:
        lines = [*lines[: MAX_LINES - 1], f"  … ({len(lines) - MAX_LINES + 1} more lines)"]
    return "\n".join(lines)


def _is_events(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, dict) and set(item) == {"event", "data"} for item in value)
    )


# Chunk fields no rule of the pages' examples speaks of: left out of excerpts.
_QUIET = frozenset({"object", "created", "model", "system_fingerprint", "service_tier"})


def _event_line(event: dict[str, Any]) -> str:
    data = event["data"]
    if isinstance(data, dict):
        data = {key: value for key, value in data.items() if key not in _QUIET}
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    if len(text) > MAX_EVENT_CHARS:
        text = f"{text[: MAX_EVENT_CHARS - 1]}…"
    return (f"event: {event['event']}\n" if event["event"] else "") + f"data: {text}"


def _shorten(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_STRING:
        return f"{value[: MAX_STRING - 25]}…{value[-20:]}"
    if isinstance(value, dict):
        return {key: _shorten(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shorten(item) for item in value]
    return value


_STEP = re.compile(r"\.?([A-Za-z_$][\w$]*)|\[(\d+)\]")


def steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def around(payload: Any, path: str) -> Found:
    """The message, choice, tool or events holding ``path`` (a finding's path)."""
    parts = steps(path)
    if isinstance(payload, list):  # a stream: the event and the one before it
        if parts[:1] == ["events"] and len(parts) > 1 and isinstance(parts[1], int):
            end = min(parts[1], len(payload) - 1)
            start = max(0, end - 1)
            return f"events[{start}..{end}]", payload[start : end + 1]
        return _stream_head(payload)
    if not isinstance(payload, dict):
        return None
    if len(parts) >= 2 and parts[0] in ("messages", "choices", "tools", "content"):
        container = payload.get(str(parts[0]))
        index = parts[1]
        if isinstance(container, list) and isinstance(index, int) and index < len(container):
            return f"{parts[0]}[{index}]", container[index]
    if parts and isinstance(parts[0], str) and parts[0] in payload:
        return parts[0], {parts[0]: payload[parts[0]]}
    return "$", head(payload)


def head(payload: Any) -> Any:
    """The top level of a payload, nested values elided (what a schema rule reads)."""
    if not isinstance(payload, dict):
        return payload
    return {key: _elide(value) for key, value in payload.items()}


def _elide(value: Any) -> Any:
    if isinstance(value, dict) and value:
        return "{…}"
    if isinstance(value, list) and value:
        return "[…]"
    return value


# --- subjects -----------------------------------------------------------------


def _messages(payload: Any) -> list[Any]:
    found = payload.get("messages") if isinstance(payload, dict) else None
    return found if isinstance(found, list) else []


def _blocks(message: Any) -> list[Any]:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _has_call(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    content = message.get("content")
    return (
        bool(message.get("tool_calls"))
        or any(b.get("type") == "tool_use" for b in _blocks(message))
        or (isinstance(content, str) and "<tool_call>" in content)
    )


def _has_result(message: Any) -> bool:
    return isinstance(message, dict) and (
        message.get("role") == "tool"
        or any(b.get("type") == "tool_result" for b in _blocks(message))
    )


def _response_message(payload: Any) -> Found:
    """The answer of a response: choices[0] (openai family) or the message itself."""
    if not isinstance(payload, dict):
        return None
    choices = payload.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        return "choices[0]", choices[0]
    if isinstance(payload.get("content"), list):
        keep = ("role", "content", "stop_reason")
        return "$", {key: payload[key] for key in keep if key in payload}
    return None


def _answer_with(payload: Any, test: Callable[[Any], bool]) -> Found:
    found = _response_message(payload)
    if found is None:
        return None
    message = found[1].get("message", found[1])
    return found if test(message) else None


def _call(payload: Any) -> Found:
    for index, message in enumerate(_messages(payload)):
        if _has_call(message):
            return f"messages[{index}]", message
    return _answer_with(payload, _has_call)


def _exchange(payload: Any) -> Found:
    """An assistant turn with calls and the messages holding its results."""
    messages = _messages(payload)
    for index, message in enumerate(messages):
        if not _has_call(message):
            continue
        end = index + 1
        while end < len(messages) and _has_result(messages[end]):
            end += 1
        if end > index + 1:
            return f"messages[{index}..{end - 1}]", messages[index:end]
    return None


def _error(payload: Any) -> Found:
    for index, message in enumerate(_messages(payload)):
        if message.get("role") == "tool" and str(message.get("content", "")).lower().startswith(
            "error"
        ):
            return f"messages[{index}]", message
        if any(b.get("type") == "tool_result" and b.get("is_error") for b in _blocks(message)):
            return f"messages[{index}]", message
    return None


def _assistant(payload: Any) -> Found:
    """The last assistant message of a request: the turn sent back."""
    messages = _messages(payload)
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], dict) and messages[index].get("role") == "assistant":
            return f"messages[{index}]", messages[index]
    return None


def _tools(payload: Any) -> Found:
    tools = payload.get("tools") if isinstance(payload, dict) else None
    return ("tools[0]", tools[0]) if isinstance(tools, list) and tools else None


def _tool_choice(payload: Any) -> Found:
    if not isinstance(payload, dict) or "tool_choice" not in payload:
        return None
    keys = ("tool_choice", "parallel_tool_calls")
    return "tool_choice", {key: payload[key] for key in keys if key in payload}


def _text(payload: Any) -> Found:
    for index, message in enumerate(_messages(payload)):
        if message.get("role") == "assistant" and (
            (isinstance(message.get("content"), str) and message["content"])
            or any(b.get("type") == "text" for b in _blocks(message))
        ):
            return f"messages[{index}]", message
    return _answer_with(payload, lambda m: bool(m.get("content")))


def _reasoning_in(message: Any) -> bool:
    return isinstance(message, dict) and (
        "reasoning_content" in message
        or any(b.get("type") in ("thinking", "redacted_thinking") for b in _blocks(message))
    )


def _reasoning(payload: Any) -> Found:
    for index, message in enumerate(_messages(payload)):
        if _reasoning_in(message):
            return f"messages[{index}]", message
    return _answer_with(payload, _reasoning_in)


def _stop(payload: Any) -> Found:
    return _response_message(payload)


def _usage(payload: Any) -> Found:
    usage = payload.get("usage") if isinstance(payload, dict) else None
    return ("usage", usage) if usage else None


def _system(payload: Any) -> Found:
    if not isinstance(payload, dict):
        return None
    if "system" in payload:
        return "system", {"system": payload["system"]}
    for index, message in enumerate(_messages(payload)):
        if message.get("role") in ("system", "developer"):
            return f"messages[{index}]", message
    return None


def _roles(payload: Any) -> Found:
    roles = [m.get("role") for m in _messages(payload) if isinstance(m, dict)]
    return ("messages[*].role", roles) if roles else None


def _parameters(payload: Any) -> Found:
    if not isinstance(payload, dict) or "messages" not in payload:
        return None
    found = {key: value for key, value in payload.items() if key not in ("messages", "tools")}
    return ("$ without messages and tools", found) if found else None


def _stream_head(payload: Any) -> Found:
    if not isinstance(payload, list) or not payload:
        return None
    end = min(len(payload), MAX_EVENTS)
    return f"events[0..{end - 1}]", payload[:end]


_CALL_PARTS = ('"tool_calls"', '"tool_use"', '"input_json_delta"')


def _stream_calls(payload: Any) -> Found:
    """The events that carry tool call parts (the first MAX_EVENTS + 1 of them)."""
    if not isinstance(payload, list):
        return None
    picked = [
        index
        for index, event in enumerate(payload)
        if isinstance(event, dict)
        and any(part in json.dumps(event.get("data"), ensure_ascii=False) for part in _CALL_PARTS)
    ][: MAX_EVENTS + 1]
    if not picked:
        return None
    events = [payload[index] for index in picked]
    return "events[" + ", ".join(str(index) for index in picked) + "]", events


def _whole(payload: Any) -> Found:
    return ("$", head(payload)) if isinstance(payload, dict) else None


SUBJECTS: dict[str, Callable[[Any], Found]] = {
    "call": _call,
    "exchange": _exchange,
    "error": _error,
    "tools": _tools,
    "assistant": _assistant,
    "tool_choice": _tool_choice,
    "text": _text,
    "reasoning": _reasoning,
    "stop": _stop,
    "usage": _usage,
    "system": _system,
    "roles": _roles,
    "parameters": _parameters,
    "stream": _stream_head,
    "stream_calls": _stream_calls,
    "whole": _whole,
}


def subject_of(code: str) -> str:
    """The subject a passing example of ``code`` shows."""
    family = code.split(".", 1)[0]
    special = {
        "pairing.call_id_missing": "call",
        "pairing.call_id_duplicate": "call",
        "pairing.id_pattern": "call",
        "ordering.role_alternation": "roles",
        "ordering.system_placement": "system",
        "ordering.block_order": "call",
        "fidelity.arguments": "call",
        "fidelity.text": "text",
        "fidelity.error_flag": "error",
        "fidelity.tool_definitions": "tools",
        "fidelity.tool_choice": "tool_choice",
        "fidelity.stop_reason": "stop",
        "fidelity.stop_reason_content": "stop",
        "fidelity.empty_text_added": "stop",
        "fidelity.usage": "usage",
        "fidelity.empty_content": "call",
        "fidelity.roundtrip": "parameters",
        "replay.assistant_altered": "assistant",
        "reasoning.replay_forbidden": "assistant",
        "xml.stream_equivalence": "stream",
        "stream.index_collision": "stream_calls",
        "stream.call_index": "stream_calls",
        "stream.partial_json": "stream_calls",
        "schema.request": "whole",
        "schema.response": "whole",
    }
    if code in special:
        return special[code]
    return {"pairing": "exchange", "ordering": "exchange", "reasoning": "reasoning"}.get(
        family, "stream" if family == "stream" else "call"
    )


def find_subject(code: str, payload: Any) -> Found:
    if not subject_of(code).startswith("stream") and isinstance(payload, list):
        return None  # a stream holds no message: only stream rules excerpt events
    return SUBJECTS[subject_of(code)](payload)
