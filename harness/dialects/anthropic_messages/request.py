"""Request bodies (``POST /v1/messages``) <-> ``Conversation``.

Named top-level fields: ``model``, ``messages``, ``system``, ``tools``,
``tool_choice``, ``stream``. Every other field (``max_tokens``, ``thinking``,
``temperature``, ``metadata``, ``mcp_servers``, ...) goes to
``Conversation.extra`` unchanged. Roles are kept as written: a ``system`` role
inside ``messages`` is a converter bug the rules judge, not a parse error.
See https://platform.claude.com/docs/en/api/messages.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.anthropic_messages._shape import (
    expect_list,
    expect_object,
    optional_bool,
    optional_str,
    put,
    required_str,
    split_extra,
)
from toolwire.harness.dialects.anthropic_messages.blocks import content_of, render_content
from toolwire.harness.dialects.anthropic_messages.tools import (
    parallel_from_choice,
    parse_tool_choice,
    parse_tools,
    render_tool_choice,
    render_tools,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation, Turn

_NAMED = frozenset(("model", "messages", "system", "tools", "tool_choice", "stream"))
_TURN_NAMED = frozenset(("role", "content"))


def parse_request(payload: Any) -> Conversation:
    body = expect_object(payload, "", "a request body")
    if "messages" not in body:
        raise WireFormatError(
            "messages",
            "request has no `messages`",
            hint="an anthropic-messages request needs a `messages` array",
        )
    messages = expect_list(body["messages"], "messages", "`messages`")
    system, system_form = content_of(body, "system", "")
    tools_value = body.get("tools")
    choice_value = body.get("tool_choice")
    tool_choice = None if choice_value is None else parse_tool_choice(choice_value, "tool_choice")
    extra = split_extra(body, _NAMED)
    extra.pop("system", None)  # carried by system_form
    return Conversation(
        dialect=ANTHROPIC_MESSAGES,
        turns=tuple([parse_turn(m, f"messages[{i}]") for i, m in enumerate(messages)]),
        model=optional_str(body, "model", ""),
        system=system,
        system_form=system_form,
        tools=None if tools_value is None else parse_tools(tools_value, "tools"),
        tool_choice=tool_choice,
        parallel_tool_calls=parallel_from_choice(tool_choice),
        stream=optional_bool(body, "stream", ""),
        extra=extra,
    )


def parse_turn(raw: Any, path: str) -> Turn:
    message = expect_object(raw, path, "a message")
    role = required_str(message, "role", path, "a message")
    blocks, form = content_of(message, "content", path)
    # split_extra without its null rule: role is a string by now, and content
    # (even null) is carried by blocks and form.
    extra = {k: v for k, v in message.items() if k not in _TURN_NAMED}
    return Turn(role=role, blocks=blocks, content_form=form, extra=extra)


def render_turn(turn: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"role": turn.role}
    present, value = render_content(turn.blocks, turn.content_form)
    if present:
        out["content"] = value
    for key, item in turn.extra.items():
        if key not in out:
            out[key] = item
    return out


def render_request(conversation: Conversation) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "model", conversation.model)
    present, system = render_content(conversation.system, conversation.system_form)
    if present:
        out["system"] = system
    out["messages"] = [render_turn(t) for t in conversation.turns]
    if conversation.tools is not None:
        out["tools"] = render_tools(conversation.tools)
    choice = conversation.tool_choice
    if choice is not None:
        out["tool_choice"] = render_tool_choice(choice, conversation.parallel_tool_calls)
    elif conversation.parallel_tool_calls is False:
        # Anthropic has no top-level switch: disabling parallel calls is a
        # property of tool_choice, with "auto" as the default mode.
        out["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": True}
    put(out, "stream", conversation.stream)
    for key, value in conversation.extra.items():
        if key not in out:
            out[key] = value
    return out
