"""Tool definitions and tool choice between anthropic-messages and Chat Completions.

Definitions: openai ``{type: "function", function: {name, description,
parameters, strict}}`` <-> anthropic ``{name, description, input_schema,
strict}``. Anthropic requires ``input_schema``; a function without
``parameters`` (OpenAI's "no arguments") gets ``{"type": "object",
"properties": {}}``. Tools of another kind (OpenAI ``custom`` tools,
Anthropic server tools such as ``web_search_20250305``) have no equivalent:
the adapter declines them with ``UnsupportedConversion`` (verdict
``unsupported``), since the target cannot express the payload at all.

Tool choice (https://platform.openai.com/docs/api-reference/chat/create,
https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use):

| openai | anthropic |
|---|---|
| ``"auto"`` | ``{"type": "auto"}`` |
| ``"none"`` | ``{"type": "none"}`` |
| ``"required"`` | ``{"type": "any"}`` |
| ``{"type": "function", "function": {"name": N}}`` | ``{"type": "tool", "name": N}`` |
| ``parallel_tool_calls: false`` / ``true`` | ``disable_parallel_tool_use: true`` / ``false`` |

Anthropic has no top-level parallel switch: with no ``tool_choice`` it is
written on ``{"type": "auto"}`` (the default mode).
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.model import ToolChoice, ToolDef

EMPTY_INPUT_SCHEMA = {"type": "object", "properties": {}}


def _plain(tool: ToolDef, position: int, source: str) -> ToolDef:
    if tool.kind != "function":
        raise UnsupportedConversion(
            f"tools[{position}] is a {tool.kind!r} tool, which has no equivalent outside {source} "
            "(offer it as a function tool with a JSON Schema, or drop it before converting)"
        )
    return ToolDef(
        name=tool.name,
        description=tool.description,
        parameters=tool.parameters,
        strict=tool.strict,
    )


def tools_to_anthropic(tools: Sequence[ToolDef] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    converted = []
    for position, tool in enumerate(tools):
        plain = _plain(tool, position, "openai-chat")
        if plain.parameters is None:
            plain = ToolDef(plain.name, plain.description, EMPTY_INPUT_SCHEMA, plain.strict)
        converted.append(plain)
    return tuple(converted)


def tools_to_openai(tools: Sequence[ToolDef] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    return tuple(_plain(tool, i, "anthropic-messages") for i, tool in enumerate(tools))


def choice_to_anthropic(choice: ToolChoice | None, parallel: bool | None) -> ToolChoice | None:
    """The anthropic tool choice; ``parallel`` is openai's ``parallel_tool_calls``."""
    disable = None if parallel is None else not parallel
    if choice is not None and choice.mode == "none":
        disable = None  # documented only for auto, any and tool: nothing runs anyway
    if choice is None:
        return None if disable is None else ToolChoice(mode="auto", disable_parallel=disable)
    return ToolChoice(mode=choice.mode, name=choice.name, disable_parallel=disable)


def choice_to_openai(choice: ToolChoice | None) -> tuple[ToolChoice | None, bool | None]:
    """(openai tool choice, ``parallel_tool_calls``) for an anthropic tool choice."""
    if choice is None:
        return None, None
    parallel = None if choice.disable_parallel is None else not choice.disable_parallel
    return ToolChoice(mode=choice.mode, name=choice.name), parallel
