"""Responses tool definitions (``tools[]``) and ``tool_choice``.

Function tools are *flat*: ``{type: "function", name, description?,
parameters, strict}`` (not Chat Completions' ``{type, function: {...}}``).
Such a tool is a ``ToolDef(kind="function")`` whose other fields stay in
``extra``; a hosted tool (``web_search``, ``file_search``, ``mcp``,
``custom``...) is ``ToolDef(kind=type)`` with every field but ``type`` in
``extra``.

``tool_choice``: ``"none" | "auto" | "required"`` or the flat
``{type: "function", name}``. Any other value (``allowed_tools``, a hosted
tool type, ``mcp``, ``custom``) stays in ``Conversation.extra``.

Reference: https://platform.openai.com/docs/api-reference/responses/create
(``tools``, ``tool_choice``) and
https://platform.openai.com/docs/guides/function-calling.
"""

from __future__ import annotations

from typing import Any, Literal

from toolwire.harness.dialects.openai_chat.common import (
    at,
    merge_missing,
    require_object,
    take_bool,
    take_str,
    type_name,
    unnamed,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import ToolChoice, ToolDef

_TOOL_HINT = 'a tool looks like {"type": "function", "name": "...", "parameters": {...}}'
_TYPE_NAMED = frozenset(("type",))
_FUNCTION_NAMED = frozenset(("type", "name", "description", "parameters", "strict"))
_MODES: dict[str, Literal["auto", "none", "required"]] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
}


def parse_tool(tool: Any, path: str) -> ToolDef:
    tool = require_object(tool, path, "a tool", _TOOL_HINT)
    kind = tool.get("type")
    if not isinstance(kind, str):
        raise WireFormatError(
            at(path, "type"), f"a tool needs a string type, got {type_name(kind)}", _TOOL_HINT
        )
    if kind != "function":
        name = tool.get("name")
        return ToolDef(
            name=name if isinstance(name, str) else None,
            kind=kind,
            extra=unnamed(tool, _TYPE_NAMED),
        )
    extra = unnamed(tool, _FUNCTION_NAMED)
    parameters = tool.get("parameters")
    if "parameters" in tool and not isinstance(parameters, dict):
        extra["parameters"] = parameters  # null or another type: kept as written
        parameters = None
    return ToolDef(
        name=take_str(tool, "name", extra),
        description=take_str(tool, "description", extra),
        parameters=parameters,
        strict=take_bool(tool, "strict", extra),
        kind="function",
        extra=extra,
    )


def render_tool(tool: ToolDef) -> dict[str, Any]:
    if tool.kind != "function":
        return merge_missing({"type": tool.kind}, tool.extra)
    rendered: dict[str, Any] = {"type": "function"}
    if tool.name is not None:
        rendered["name"] = tool.name
    if tool.description is not None:
        rendered["description"] = tool.description
    if tool.parameters is not None:
        rendered["parameters"] = dict(tool.parameters)
    if tool.strict is not None:
        rendered["strict"] = tool.strict
    return merge_missing(rendered, tool.extra)


def parse_tool_choice(value: Any) -> ToolChoice | None:
    """The neutral choice, or ``None`` for a value outside the function forms."""
    if isinstance(value, str) and value in _MODES:
        return ToolChoice(mode=_MODES[value], raw=value)
    if isinstance(value, dict) and value.get("type") == "function":
        name = value.get("name")
        if isinstance(name, str):
            return ToolChoice(mode="tool", name=name, raw=value)
    return None


def render_tool_choice(choice: ToolChoice) -> Any:
    """``raw`` when it is a Responses value saying the same; otherwise the natural one."""
    parsed = parse_tool_choice(choice.raw)
    if parsed is not None and (parsed.mode, parsed.name) == (choice.mode, choice.name):
        return choice.raw
    if choice.mode == "tool":
        return {"type": "function", "name": choice.name}
    return choice.mode
