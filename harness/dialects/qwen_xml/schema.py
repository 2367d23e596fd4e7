"""What the tool definitions say about a Qwen XML call: known tools, their
parameters and which of them are required."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.harness.model import JsonObject, ToolDef


@dataclass(frozen=True)
class ParameterSchema:
    """How to read one parameter. ``known`` is false only when the tool's
    schema lists properties, this name is not among them and
    ``additionalProperties`` is ``false``: JSON Schema admits any other name
    (https://json-schema.org/understanding-json-schema/reference/object#additionalproperties),
    and the Qwen3-Coder parsers (Qwen's own, vLLM, sglang) keep it as a
    string. ``schema`` is ``None`` when nothing says what the value is, so it
    stays a string."""

    known: bool
    schema: Any


_UNCONSTRAINED = ParameterSchema(known=True, schema=None)


class ToolIndex:
    """Tool definitions by name. ``None`` tools means "not known": every
    call passes the name check and every value stays a string."""

    def __init__(self, tools: Sequence[ToolDef] | None) -> None:
        self.known = tools is not None
        self._by_name: dict[str, ToolDef] = {}
        for tool in tools or ():
            if tool.name is not None and tool.name not in self._by_name:
                self._by_name[tool.name] = tool

    def find(self, name: str) -> ToolDef | None:
        return self._by_name.get(name)

    def is_unknown(self, name: str) -> bool:
        """True when tools are known and none is called ``name``."""
        return self.known and name not in self._by_name


def parameters_root(tool: ToolDef | None) -> JsonObject | None:
    """The tool's parameters schema when it is an object schema."""
    if tool is None or not isinstance(tool.parameters, Mapping):
        return None
    return tool.parameters


def parameter_schema(tool: ToolDef | None, name: str) -> ParameterSchema:
    root = parameters_root(tool)
    if root is None:
        return _UNCONSTRAINED
    properties = root.get("properties")
    if not isinstance(properties, Mapping):
        # An object schema without properties constrains no names.
        return _UNCONSTRAINED
    if name in properties:
        return ParameterSchema(known=True, schema=properties[name])
    extra = root.get("additionalProperties")
    if isinstance(extra, Mapping):
        return ParameterSchema(known=True, schema=extra)
    if extra is False:
        return ParameterSchema(known=False, schema=None)
    return _UNCONSTRAINED


def required_parameters(tool: ToolDef | None) -> tuple[str, ...]:
    root = parameters_root(tool)
    if root is None:
        return ()
    required = root.get("required")
    if not isinstance(required, list):
        return ()
    return tuple(name for name in required if isinstance(name, str))
