"""Gemini's OpenAPI ``parameters`` schemas read as JSON Schema (what
``ToolDef.parameters`` holds for them, so that rules compare meanings).

``functionDeclarations[].parameters`` takes Gemini's Schema object, a subset
of OpenAPI 3.0 (https://ai.google.dev/api/caching#Schema): ``type`` is an
enum written in capitals (``OBJECT``, ``STRING``...; lower case is accepted
too), and ``nullable: true`` says null is allowed. As JSON Schema, for
Anthropic ``input_schema`` and OpenAI ``parameters``: types in lower case,
``nullable: true`` folded into ``type: [t, "null"]``; every other keyword
(``format``, ``enum``, ``required``, ``minItems``, ``anyOf``,
``propertyOrdering``...) kept as it is. ``parametersJsonSchema`` is JSON
Schema already.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_NESTED_MAPS = ("properties", "$defs", "definitions")
_NESTED_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def openapi_to_json_schema(schema: Any) -> Any:
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in _NESTED_MAPS and isinstance(value, Mapping):
            out[key] = {name: openapi_to_json_schema(item) for name, item in value.items()}
        elif key in _NESTED_LISTS and isinstance(value, list):
            out[key] = [openapi_to_json_schema(item) for item in value]
        elif key in ("items", "additionalProperties", "not"):
            out[key] = openapi_to_json_schema(value)
        elif key != "nullable":
            out[key] = value
    if schema.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif "type" not in out and "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        else:
            out["nullable"] = True  # no place to fold it: kept as written
    return out
