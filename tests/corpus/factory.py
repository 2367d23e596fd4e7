"""Small case files for tests: a valid case as a dict, then mutate and write.

Cases are written with plain ``yaml.safe_dump`` (not toolwire's writer), so
loader tests do not depend on the writer.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

OPENAI_URI = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_URI = "https://api.anthropic.com/v1/messages"

OPENAI_REQUEST: dict[str, Any] = {
    "model": "gpt-4o-mini",
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ],
}
OPENAI_RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-abc123",
    "object": "chat.completion",
    "created": 1767225600,
    "model": "gpt-4o-mini",
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_abc123",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
        }
    ],
}
ANTHROPIC_REQUEST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
}
ANTHROPIC_RESPONSE: dict[str, Any] = {
    "id": "msg_01abc",
    "type": "message",
    "role": "assistant",
    "content": [
        {"type": "tool_use", "id": "toolu_01abc", "name": "get_weather", "input": {"city": "Paris"}}
    ],
    "stop_reason": "tool_use",
    "model": "claude-sonnet-4-5",
    "stop_sequence": None,
    "usage": {"input_tokens": 380, "output_tokens": 52},
}
_CHUNK = '"id": "chatcmpl-s1", "object": "chat.completion.chunk", "created": 1767225600, '
_CHUNK += '"model": "gpt-4o-mini"'
OPENAI_STREAM = (
    f'data: {{{_CHUNK}, "choices": [{{"index": 0, "delta": '
    '{"role": "assistant", "content": "Hi"}, "finish_reason": null}]}\n\n'
    f'data: {{{_CHUNK}, "choices": [{{"index": 0, "delta": {{}}, '
    '"finish_reason": "stop"}]}\n\n'
    "data: [DONE]\n\n"
)


def interaction(
    request: Any,
    response: Any,
    *,
    uri: str = OPENAI_URI,
    status: int = 200,
    stream: bool = False,
) -> dict[str, Any]:
    body = response if isinstance(response, str) else json.dumps(response)
    content_type = "text/event-stream" if stream else "application/json"
    return {
        "request": {
            "method": "POST",
            "uri": uri,
            "headers": {"Content-Type": ["application/json"]},
            "body": request if isinstance(request, str) else json.dumps(request),
        },
        "response": {
            "status": {"code": status, "message": "OK" if status == 200 else "Bad Request"},
            "headers": {"Content-Type": [content_type]},
            "body": {"string": body},
        },
    }


def make_case(case_id: str, dialect: str = "openai-chat", **toolwire: Any) -> dict[str, Any]:
    """A valid case document; ``toolwire`` keys override the metadata."""
    anthropic = dialect == "anthropic-messages"
    block: dict[str, Any] = {
        "format": 1,
        "id": case_id,
        "description": "One get_weather call.",
        "features": ["single-tool"],
        "dialect": dialect,
        "profile": "anthropic" if anthropic else "openai",
        "provenance": {
            "kind": "documented",
            "url": "https://platform.openai.com/docs/guides/function-calling",
        },
        "expect": {},
    }
    block.update(toolwire)
    exchange = (
        interaction(ANTHROPIC_REQUEST, ANTHROPIC_RESPONSE, uri=ANTHROPIC_URI)
        if anthropic
        else interaction(OPENAI_REQUEST, OPENAI_RESPONSE)
    )
    return {"version": 1, "toolwire": block, "interactions": [exchange]}


def write_case_file(root: Path, case_id: str, data: Any, suffix: str = ".yaml") -> Path:
    """Write ``data`` (a document or raw text) as the case file for ``case_id``."""
    path = root / f"{case_id}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path


def twin_pair(root: Path) -> tuple[Path, Path]:
    """Two valid cases, twins of each other in openai-chat and anthropic-messages."""
    openai = make_case(
        "single-tool/weather-openai", twins={"anthropic-messages": "single-tool/weather-anthropic"}
    )
    anthropic = make_case(
        "single-tool/weather-anthropic",
        "anthropic-messages",
        twins={"openai-chat": "single-tool/weather-openai"},
    )
    return (
        write_case_file(root, "single-tool/weather-openai", openai),
        write_case_file(root, "single-tool/weather-anthropic", anthropic),
    )


def mutated(document: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(document)
