"""schema.gemini_parameters: a Gemini ``parameters`` schema uses only the
fields of Gemini's Schema object.

``functionDeclarations[].parameters`` is Gemini's Schema object, a subset of
OpenAPI 3.0 (https://ai.google.dev/api/caching#Schema): ``type``, ``format``,
``title``, ``description``, ``nullable``, ``enum``, ``maxItems``,
``minItems``, ``properties``, ``required``, ``minProperties``,
``maxProperties``, ``minLength``, ``maxLength``, ``pattern``, ``example``,
``anyOf``, ``propertyOrdering``, ``default``, ``items``, ``minimum``,
``maximum`` (proto3 JSON also reads their snake_case names). The API parses
it as a proto message and refuses any other key with HTTP 400 "Invalid JSON
payload received. Unknown name ... Cannot find field" (``additionalProperties``:
https://github.com/BerriAI/litellm/issues/14330; ``const``:
https://github.com/zed-industries/zed/issues/44875; ``$schema``,
``propertyNames``: https://github.com/openswarm-ai/openswarm/issues/24), and a
``type`` given as a list with "Proto field is not repeating, cannot start
list" (https://github.com/zed-industries/zed/issues/53919). JSON Schema
belongs under ``parametersJsonSchema``, which takes it as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.harness.model import GEMINI

GEMINI_PARAMETERS = rule(
    "schema.gemini_parameters",
    "MUST",
    "payload",
    "A Gemini functionDeclarations[].parameters schema uses only the fields of Gemini's "
    "Schema object (JSON Schema goes under parametersJsonSchema).",
    "https://ai.google.dev/api/caching#Schema",
    "https://github.com/BerriAI/litellm/issues/14330",
    dialects=frozenset({"gemini"}),
    evidence=(
        documented(
            "https://ai.google.dev/api/caching#Schema",
            "parameters is a Schema object: type, format, description, nullable, enum, "
            "properties, required, items, anyOf, ... and no other field",
        ),
        rejected(
            "https://github.com/BerriAI/litellm/issues/14330",
            'Gemini 400 "Invalid JSON payload received. Unknown name "additionalProperties" '
            "at 'tools[0].function_declarations[0].parameters': Cannot find field\"",
        ),
    ),
    fix=(
        "Write functionDeclarations[].parameters with the fields of Gemini's Schema object "
        "only (type, format, description, nullable, enum, properties, required, items, ...), "
        "or send the JSON Schema unchanged under parametersJsonSchema; drop or rewrite "
        "keywords such as additionalProperties, $ref and $defs before sending them under "
        "parameters."
    ),
)


CODE = "schema.gemini_parameters"
_FIELDS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    }
)
_CAMEL = re.compile(r"_([a-z])")


def _allowed(key: str) -> bool:
    return key in _FIELDS or _CAMEL.sub(lambda m: m.group(1).upper(), key) in _FIELDS


def _problems(schema: Any, path: str) -> Iterator[tuple[str, str]]:
    if not isinstance(schema, Mapping):
        return
    for key, value in schema.items():
        where = f"{path}.{key}"
        if not _allowed(key):
            yield where, f"{key!r} is not a field of Gemini's Schema object"
        elif key in ("type",) and not isinstance(value, str):
            yield where, "`type` must be one type name (a list is refused)"
        elif key == "properties" and isinstance(value, Mapping):
            for name, item in value.items():
                yield from _problems(item, f"{where}.{name}")
        elif key == "items":
            yield from _problems(value, where)
        elif key in ("anyOf", "any_of") and isinstance(value, list):
            for index, item in enumerate(value):
                yield from _problems(item, f"{where}[{index}]")


def _declarations(raw: Any) -> Iterator[tuple[str, Any]]:
    tools = raw.get("tools") if isinstance(raw, Mapping) else None
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        declarations = tool.get("functionDeclarations") if isinstance(tool, Mapping) else None
        for j, declaration in enumerate(declarations if isinstance(declarations, list) else ()):
            if isinstance(declaration, Mapping) and "parameters" in declaration:
                path = f"tools[{i}].functionDeclarations[{j}].parameters"
                yield path, declaration["parameters"]


def check_gemini_parameters(payload: PayloadUnderTest) -> list[Finding] | None:
    if payload.dialect != GEMINI or payload.kind != "request":
        return None
    schemas = list(_declarations(payload.raw))
    if not schemas:
        return None  # no OpenAPI parameters schema to judge
    return [
        finding(CODE, f"{message} at {where}; Gemini refuses it with HTTP 400", where)
        for path, schema in schemas
        for where, message in _problems(schema, path)
    ]
