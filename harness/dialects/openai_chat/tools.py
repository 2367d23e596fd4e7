"""Tool definitions (``tools[]``) and ``tool_choice``.

``{type:"function", function:{name, description?, parameters?, strict?}}``
is a ``ToolDef(kind="function")``: the tool object's other fields stay at the
top of ``extra``, the function object's under ``extra["function"]``. Any other
tool type (``custom``, ...) is ``ToolDef(kind=type)`` with every field but
``type`` in ``extra``.

``tool_choice``: ``"none" | "auto" | "required"`` or
``{type:"function", function:{name}}``. A value outside that set (a newer
variant such as ``allowed_tools``, or null) stays in ``Conversation.extra``.

Reference: https://platform.openai.com/docs/api-reference/chat/create
(``tools``, ``tool_choice``, ``parallel_tool_calls``).
"""

from __future__ import annotations

from collections.abc import Mapping
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

_TOOL_HINT = 'a tool looks like {"type": "function", "function": {"name": "...", "parameters": {}}}'
_TYPE_NAMED = frozenset(("type",))
_TOOL_NAMED = frozenset(("type", "function"))
_FUNCTION_NAMED = frozenset(("name", "description", "parameters", "strict"))
_CHOICE_MODES: dict[str, Literal["auto", "none", "required"]] = {
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
        body = tool.get(kind)
        name = body.get("name") if isinstance(body, dict) else None
        return ToolDef(
            name=name if isinstance(name, str) else None,
            kind=kind,
            extra=unnamed(tool, _TYPE_NAMED),
        )
    function = require_object(
        tool.get("function"), at(path, "function"), "a function tool's function", _TOOL_HINT
    )
    extra = unnamed(tool, _TOOL_NAMED)
    function_extra = unnamed(function, _FUNCTION_NAMED)
    name = take_str(function, "name", function_extra)
    description = take_str(function, "description", function_extra)
    strict = take_bool(function, "strict", function_extra)
    parameters = function.get("parameters")
    if "parameters" in function and not isinstance(parameters, dict):
        function_extra["parameters"] = parameters
        parameters = None
    if function_extra:
        extra["function"] = function_extra
    return ToolDef(
        name=name,
        description=description,
        parameters=parameters,
        strict=strict,
        kind="function",
        extra=extra,
    )


def render_tool(tool: ToolDef) -> dict[str, Any]:
    if tool.kind != "function":
        return merge_missing({"type": tool.kind}, tool.extra)
    function: dict[str, Any] = {}
    if tool.name is not None:
        function["name"] = tool.name
    if tool.description is not None:
        function["description"] = tool.description
    if tool.parameters is not None:
        function["parameters"] = dict(tool.parameters)
    if tool.strict is not None:
        function["strict"] = tool.strict
    function_extra = tool.extra.get("function")
    if isinstance(function_extra, Mapping):
        merge_missing(function, function_extra)
    rendered: dict[str, Any] = {"type": "function", "function": function}
    return merge_missing(rendered, {k: v for k, v in tool.extra.items() if k != "function"})


def parse_tool_choice(value: Any) -> ToolChoice | None:
    """The neutral tool choice, or ``None`` when ``value`` is outside the
    documented set (the caller keeps it in ``extra``)."""
    if isinstance(value, str) and value in _CHOICE_MODES:
        return ToolChoice(mode=_CHOICE_MODES[value], raw=value)
    if isinstance(value, dict) and value.get("type") == "function":
        function = value.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        if isinstance(name, str):
            return ToolChoice(mode="tool", name=name, raw=value)
    return None


def render_tool_choice(choice: ToolChoice) -> Any:
    """``raw`` when it is an OpenAI value that still says the same (always true
    for a parsed choice); otherwise the natural OpenAI value. The check keeps
    another dialect's raw tool choice out of an OpenAI payload."""
    parsed = parse_tool_choice(choice.raw)
    if parsed is not None and (parsed.mode, parsed.name) == (choice.mode, choice.name):
        return choice.raw
    if choice.mode == "tool":
        return {"type": "function", "function": {"name": choice.name}}
    return choice.mode
