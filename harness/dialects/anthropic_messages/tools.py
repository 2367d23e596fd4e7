"""Tool definitions and ``tool_choice`` of anthropic-messages.

Custom tools are ``{name, description?, input_schema, type?: "custom", ...}``;
server tools carry their own versioned ``type`` (``web_search_20250305``,
``code_execution_20250825``, ``bash_20250124``, ...). ``tool_choice`` is
``{type: auto|any|tool|none, name?, disable_parallel_tool_use?}``.
See https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use
and https://platform.claude.com/docs/en/api/messages (``tools``, ``tool_choice``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from toolwire.harness.dialects.anthropic_messages._shape import (
    describe,
    expect_list,
    expect_object,
    join,
    optional_bool,
    optional_str,
    put,
    split_extra,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import ToolChoice, ToolDef

ChoiceMode = Literal["auto", "none", "required", "tool"]

_MODE_OF_TYPE: dict[str, ChoiceMode] = {
    "auto": "auto",
    "any": "required",
    "tool": "tool",
    "none": "none",
}
_TYPE_OF_MODE: dict[ChoiceMode, str] = {mode: wire for wire, mode in _MODE_OF_TYPE.items()}

_CUSTOM_TOOL_KEYS = frozenset(("name", "description", "input_schema", "strict"))
_SERVER_TOOL_KEYS = frozenset(("type", "name"))


def parse_tools(value: Any, path: str) -> tuple[ToolDef, ...]:
    items = expect_list(value, path, "`tools`")
    return tuple(_parse_tool(item, join(path, i)) for i, item in enumerate(items))


def _parse_tool(raw: Any, path: str) -> ToolDef:
    tool = expect_object(raw, path, "a tool definition")
    tool_type = optional_str(tool, "type", path)
    name = optional_str(tool, "name", path)
    if tool_type not in (None, "custom"):
        # A server tool: everything but its type and name is its configuration.
        return ToolDef(name=name, kind=tool_type, extra=split_extra(tool, _SERVER_TOOL_KEYS))
    schema = tool.get("input_schema")
    if schema is not None and not isinstance(schema, dict):
        raise WireFormatError(
            join(path, "input_schema"),
            f"`input_schema` must be a JSON Schema object, got {describe(schema)}",
            hint='use "input_schema": {"type": "object", "properties": {...}}',
        )
    # `type: "custom"` is optional on the wire; when written it stays in extra.
    return ToolDef(
        name=name,
        description=optional_str(tool, "description", path),
        parameters=schema,
        strict=optional_bool(tool, "strict", path),
        kind="function",
        extra=split_extra(tool, _CUSTOM_TOOL_KEYS),
    )


def render_tools(tools: Sequence[ToolDef]) -> list[dict[str, Any]]:
    return [_render_tool(tool) for tool in tools]


def _render_tool(tool: ToolDef) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if tool.kind != "function":
        out["type"] = tool.kind
        put(out, "name", tool.name)
    else:
        put(out, "name", tool.name)
        put(out, "description", tool.description)
        put(out, "input_schema", tool.parameters)
        put(out, "strict", tool.strict)
    for key, value in tool.extra.items():
        if key not in out:
            out[key] = value
    return out


def parse_tool_choice(value: Any, path: str) -> ToolChoice:
    choice = expect_object(value, path, "`tool_choice`")
    choice_type = optional_str(choice, "type", path)
    mode = _MODE_OF_TYPE.get(choice_type or "")
    if mode is None:
        raise WireFormatError(
            join(path, "type"),
            f"tool_choice type must be one of auto, any, tool, none; got {choice_type!r}",
            hint='e.g. {"type": "auto"} or {"type": "tool", "name": "get_weather"}',
        )
    return ToolChoice(
        mode=mode,
        name=optional_str(choice, "name", path),
        disable_parallel=optional_bool(choice, "disable_parallel_tool_use", path),
        raw=value,
    )


def render_tool_choice(choice: ToolChoice, parallel_tool_calls: bool | None) -> dict[str, Any]:
    """``tool_choice`` from its neutral fields; keys of ``raw`` the model does
    not name are kept when ``raw`` is this dialect's form of the same mode."""
    wire_type = _TYPE_OF_MODE[choice.mode]
    out: dict[str, Any] = {"type": wire_type}
    put(out, "name", choice.name)
    disable = choice.disable_parallel
    if disable is None and parallel_tool_calls is False:
        disable = True
    put(out, "disable_parallel_tool_use", disable)
    raw = choice.raw
    if isinstance(raw, dict) and raw.get("type") == wire_type:
        for key, value in raw.items():
            if key not in out:
                out[key] = value
    return out


def parallel_from_choice(choice: ToolChoice | None) -> bool | None:
    """``Conversation.parallel_tool_calls``: known only when the payload said."""
    if choice is None or choice.disable_parallel is None:
        return None
    return not choice.disable_parallel
