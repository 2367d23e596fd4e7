"""Chat Completions request body <-> ``Conversation``.

Named top-level fields: ``model``, ``messages``, ``tools``, ``tool_choice``,
``parallel_tool_calls``, ``stream``. Every other field (``temperature``,
``stream_options``, DeepSeek's ``thinking``, ...) goes to
``Conversation.extra`` unchanged, and so does a named field whose value has
another type than the model's (``tools: null``, ``model: null``).

Reference: https://platform.openai.com/docs/api-reference/chat/create
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    merge_missing,
    require_list,
    require_object,
    take_bool,
    take_str,
    type_name,
    unnamed,
)
from toolwire.harness.dialects.openai_chat.content import render_content
from toolwire.harness.dialects.openai_chat.messages import parse_message, render_message
from toolwire.harness.dialects.openai_chat.tools import (
    parse_tool,
    parse_tool_choice,
    render_tool,
    render_tool_choice,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Conversation, ToolDef

_NAMED = frozenset(("model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream"))


def parse_request(payload: Any, dialect: str) -> Conversation:
    payload = require_object(payload, "", "a request body", "pass the decoded JSON body")
    if "messages" not in payload:
        raise WireFormatError(
            "messages", "a chat request needs a messages array", "add messages: [...]"
        )
    messages = require_list(payload["messages"], "messages", "messages")
    extra = unnamed(payload, _NAMED)
    model = take_str(payload, "model", extra)
    parallel = take_bool(payload, "parallel_tool_calls", extra)
    stream = take_bool(payload, "stream", extra)
    tool_choice = None
    if "tool_choice" in payload:
        tool_choice = parse_tool_choice(payload["tool_choice"])
        if tool_choice is None:
            extra["tool_choice"] = payload["tool_choice"]
    return Conversation(
        dialect=dialect,
        turns=tuple([parse_message(m, f"messages[{i}]") for i, m in enumerate(messages)]),
        model=model,
        tools=_parse_tools(payload, extra),
        tool_choice=tool_choice,
        parallel_tool_calls=parallel,
        stream=stream,
        extra=extra,
    )


def _parse_tools(payload: dict[str, Any], extra: dict[str, Any]) -> tuple[ToolDef, ...] | None:
    if "tools" not in payload:
        return None
    tools = payload["tools"]
    if tools is None:
        extra["tools"] = None
        return None
    if not isinstance(tools, list):
        raise WireFormatError(
            "tools", f"tools must be a JSON array or null, got {type_name(tools)}"
        )
    return tuple(parse_tool(tool, at("tools", i)) for i, tool in enumerate(tools))


def render_request(conversation: Conversation) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if conversation.model is not None:
        body["model"] = conversation.model
    messages = []
    if conversation.system:
        # A top-level system prompt (from anthropic-messages) is a leading
        # system message in this dialect.
        present, content = render_content(conversation.system, conversation.system_form)
        messages.append({"role": "system", "content": content if present else ""})
    offset = len(messages)
    for i, turn in enumerate(conversation.turns):
        messages.append(render_message(turn, at("messages", i + offset)))
    body["messages"] = messages
    if conversation.tools is not None:
        body["tools"] = [render_tool(tool) for tool in conversation.tools]
    if conversation.tool_choice is not None:
        body["tool_choice"] = render_tool_choice(conversation.tool_choice)
    if conversation.parallel_tool_calls is not None:
        body["parallel_tool_calls"] = conversation.parallel_tool_calls
    if conversation.stream is not None:
        body["stream"] = conversation.stream
    return merge_missing(body, conversation.extra)
