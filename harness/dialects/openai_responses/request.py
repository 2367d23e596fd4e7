"""Responses request body (``POST /v1/responses``) <-> ``Conversation``.

Named top-level fields: ``model``, ``input`` (the items, ``items.py``; a
plain string is one user turn), ``instructions`` (a string: the
``Conversation.system`` prompt), ``tools``, ``tool_choice``,
``parallel_tool_calls``, ``stream``. Every other field (``store``,
``previous_response_id``, ``include``, ``reasoning``, ``max_output_tokens``,
``text``...) goes to ``Conversation.extra`` unchanged, and so does a named
field whose value has another type than the model's.

Reference: https://platform.openai.com/docs/api-reference/responses/create
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    merge_missing,
    require_object,
    take_bool,
    take_str,
    type_name,
    unnamed,
)
from toolwire.harness.dialects.openai_responses.items import parse_items, public
from toolwire.harness.dialects.openai_responses.render_items import render_turns
from toolwire.harness.dialects.openai_responses.tools import (
    parse_tool,
    parse_tool_choice,
    render_tool,
    render_tool_choice,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import OPENAI_RESPONSES, Conversation, TextBlock, ToolDef, Turn

_NAMED = frozenset(
    ("model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "stream")
)
# Marks the user turn that was a bare ``input`` string (never written to the wire).
BARE_INPUT = "_bare_input"


def parse_request(payload: Any) -> Conversation:
    payload = require_object(payload, "", "a request body", "pass the decoded JSON body")
    extra = unnamed(payload, _NAMED)
    turns: tuple[Turn, ...] = ()
    if isinstance(payload.get("input"), str):
        turns = (Turn("user", (TextBlock(payload["input"]),), "string", {BARE_INPUT: True}),)
    elif payload.get("input") == []:
        extra["input"] = []  # no turns; kept so that it renders back
    elif "input" in payload:
        turns = parse_items(payload["input"], "input")
    system: tuple[TextBlock, ...] = ()
    instructions = take_str(payload, "instructions", extra)
    if instructions:
        system = (TextBlock(instructions),)
    elif instructions == "":
        extra["instructions"] = ""  # says nothing (pydantic-ai sends it); kept as written
    tool_choice = None
    if "tool_choice" in payload:
        tool_choice = parse_tool_choice(payload["tool_choice"])
        if tool_choice is None:
            extra["tool_choice"] = payload["tool_choice"]
    return Conversation(
        dialect=OPENAI_RESPONSES,
        turns=turns,
        model=take_str(payload, "model", extra),
        system=system,
        system_form="string" if system else "absent",
        tools=_parse_tools(payload, extra),
        tool_choice=tool_choice,
        parallel_tool_calls=take_bool(payload, "parallel_tool_calls", extra),
        stream=take_bool(payload, "stream", extra),
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
    if conversation.system:
        # ``instructions`` is one string: several system blocks are joined
        # with a blank line (only code-built conversations have several).
        texts = [b.text for b in conversation.system if isinstance(b, TextBlock)]
        body["instructions"] = "\n\n".join(texts)
    turns = conversation.turns
    bare = len(turns) == 1 and turns[0].extra.get(BARE_INPUT) is True
    if bare and turns[0].role == "user" and public(turns[0].extra) == {}:
        body["input"] = turns[0].text
    elif turns:
        body["input"] = render_turns(turns, "input")
    if conversation.tools is not None:
        body["tools"] = [render_tool(tool) for tool in conversation.tools]
    if conversation.tool_choice is not None:
        body["tool_choice"] = render_tool_choice(conversation.tool_choice)
    if conversation.parallel_tool_calls is not None:
        body["parallel_tool_calls"] = conversation.parallel_tool_calls
    if conversation.stream is not None:
        body["stream"] = conversation.stream
    return merge_missing(body, conversation.extra)
