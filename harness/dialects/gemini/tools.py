"""Gemini ``tools`` and ``toolConfig`` <-> ``ToolDef`` / ``ToolChoice``.

``tools`` is a list of Tool objects; each holds ``functionDeclarations``
(``{name, description?, parameters? | parametersJsonSchema?, response?...}``)
or one built-in tool (``googleSearch``, ``codeExecution``, ``urlContext``...).
``parameters`` is Gemini's OpenAPI 3.0 Schema subset; ``parametersJsonSchema``
(mutually exclusive with it) takes JSON Schema. ``ToolDef.parameters`` holds
the JSON Schema meaning (``schema.py`` reads an OpenAPI one); the key and
value as carried stay in ``ToolDef.extra``, so rendering writes them back. A
declaration built by code is written under ``parametersJsonSchema``, which
takes a JSON Schema as other dialects carry it.
See https://ai.google.dev/api/caching#Tool and
https://ai.google.dev/gemini-api/docs/function-calling.

``toolConfig.functionCallingConfig``: ``mode`` AUTO -> auto, ANY -> required
(``tool`` with its name when ``allowedFunctionNames`` names exactly one),
NONE -> none, VALIDATED -> auto (calls constrained to the schemas; the raw
value keeps it). ``ToolChoice.raw`` is the functionCallingConfig as carried.
``allowedFunctionNames`` is valid with ANY or VALIDATED
(https://ai.google.dev/api/caching#FunctionCallingConfig); beside VALIDATED
even one name is a restriction of an ``auto`` choice (the model may still
answer in text), not a named tool: it stays in ``raw``
(``toolwire.conformance.readings.allowed_tools`` reads it), ``ToolChoice.name`` is
only the tool an ANY choice forces.

Limitation: declarations spread over several Tool objects are written back
as one Tool object per run of consecutive declarations (grouping is not a
field the model keeps).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from toolwire.harness.dialects.gemini._shape import (
    expect_list,
    expect_object,
    join,
    optional_str,
    put,
    split_extra,
)
from toolwire.harness.dialects.gemini.schema import openapi_to_json_schema
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import ToolChoice, ToolDef

SCHEMA_KEYS = ("parameters", "parametersJsonSchema", "parameters_json_schema")
DEFAULT_SCHEMA_KEY = "parametersJsonSchema"
_DECLARATION_NAMED = frozenset(("name", "description"))
_FUNCTION = "function"

ChoiceMode = Literal["auto", "none", "required", "tool"]
_MODES: dict[str, ChoiceMode] = {
    "AUTO": "auto",
    "ANY": "required",
    "NONE": "none",
    "VALIDATED": "auto",
    "MODE_UNSPECIFIED": "auto",
}


def parse_tools(value: Any, path: str) -> tuple[ToolDef, ...]:
    defs: list[ToolDef] = []
    for i, raw in enumerate(expect_list(value, path, "`tools`")):
        tool_path = join(path, i)
        tool = expect_object(raw, tool_path, "a Tool object")
        declarations = tool.get("functionDeclarations")
        others = {k: v for k, v in tool.items() if k != "functionDeclarations"}
        if declarations is not None:
            items = expect_list(declarations, join(tool_path, "functionDeclarations"))
            for j, item in enumerate(items):
                defs.append(_parse_declaration(item, join(tool_path, f"functionDeclarations[{j}]")))
        for key, config in others.items():
            # A built-in tool: its key is its kind, its value the configuration.
            defs.append(ToolDef(name=None, kind=key, extra={key: config}))
    return tuple(defs)


def _parse_declaration(raw: Any, path: str) -> ToolDef:
    declaration = expect_object(raw, path, "a function declaration")
    present = [key for key in SCHEMA_KEYS if declaration.get(key) is not None]
    schema = declaration[present[0]] if present else None
    if schema is not None and not isinstance(schema, Mapping):
        raise WireFormatError(
            join(path, present[0]),
            f"`{present[0]}` must be a schema object",
            hint='use {"type": "object", "properties": {...}}',
        )
    if present and present[0] == "parameters":
        schema = openapi_to_json_schema(schema)
    return ToolDef(
        name=optional_str(declaration, "name", path),
        description=optional_str(declaration, "description", path),
        parameters=schema,
        kind=_FUNCTION,
        extra=split_extra(declaration, _DECLARATION_NAMED),
    )


def render_tools(tools: Sequence[ToolDef]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for tool in tools:
        if tool.kind != _FUNCTION:
            out.append(dict(tool.extra) if tool.extra else {tool.kind: {}})
            continue
        declaration = _render_declaration(tool)
        if out and "functionDeclarations" in out[-1]:
            out[-1]["functionDeclarations"].append(declaration)
        else:
            out.append({"functionDeclarations": [declaration]})
    return out


def _render_declaration(tool: ToolDef) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "name", tool.name)
    put(out, "description", tool.description)
    kept = [key for key in SCHEMA_KEYS if key in tool.extra]
    same = [key for key in kept if _reading(key, tool.extra[key]) == tool.parameters]
    if tool.parameters is not None and not same:
        out[DEFAULT_SCHEMA_KEY] = tool.parameters
    for key, value in tool.extra.items():
        if key in kept and key not in same:
            continue  # a schema key whose value the converter replaced
        if key not in out:
            out[key] = value
    return out


def _reading(key: str, value: Any) -> Any:
    return openapi_to_json_schema(value) if key == "parameters" else value


def parse_tool_config(value: Any, path: str) -> tuple[ToolChoice | None, dict[str, Any]]:
    """``(tool_choice, the rest of toolConfig)``."""
    config = expect_object(value, path, "`toolConfig`")
    rest = {k: v for k, v in config.items() if k != "functionCallingConfig"}
    raw = config.get("functionCallingConfig")
    if raw is None:
        return None, rest
    calling = expect_object(raw, join(path, "functionCallingConfig"))
    mode_value = optional_str(calling, "mode", join(path, "functionCallingConfig"))
    mode = _MODES.get(mode_value or "MODE_UNSPECIFIED")
    if mode is None:
        raise WireFormatError(
            join(path, "functionCallingConfig.mode"),
            f"mode must be one of AUTO, ANY, NONE, VALIDATED; got {mode_value!r}",
            hint='e.g. {"functionCallingConfig": {"mode": "ANY"}}',
        )
    names = calling.get("allowedFunctionNames")
    name = None
    # ANY among one function forces it. VALIDATED among one stays auto (a
    # restriction, in ``raw``), so no name: it forces nothing.
    if mode == "required" and isinstance(names, list) and len(names) == 1:
        name = names[0] if isinstance(names[0], str) else None
        mode = "tool" if name is not None else mode
    return ToolChoice(mode=mode, name=name, raw=dict(calling)), rest


_WIRE_MODE = {"auto": "AUTO", "required": "ANY", "tool": "ANY", "none": "NONE"}


def render_tool_choice(choice: ToolChoice) -> dict[str, Any]:
    raw = choice.raw
    if isinstance(raw, Mapping):
        parsed, _ = parse_tool_config({"functionCallingConfig": raw}, "toolConfig")
        if parsed is not None and (parsed.mode, parsed.name) == (choice.mode, choice.name):
            return dict(raw)
    out: dict[str, Any] = {"mode": _WIRE_MODE[choice.mode]}
    if choice.mode == "tool" and choice.name is not None:
        out["allowedFunctionNames"] = [choice.name]
    return out
