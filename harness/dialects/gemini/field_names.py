"""Proto field names in snake_case, read as the lowerCamelCase the codec names.

Requests only: Gemini answers in lowerCamelCase. The Gemini REST API is a
protobuf API: its JSON parser accepts both the
lowerCamelCase name of a field and its original proto name
(https://protobuf.dev/programming-guides/json/, "JSON options": parsers
accept both), so ``system_instruction``, ``function_declarations``,
``function_call`` and ``thought_signature`` mean what ``systemInstruction``,
``functionDeclarations``, ``functionCall`` and ``thoughtSignature`` mean.
Google's own examples and clients send either (LiteLLM sends
``system_instruction``, ``function_declarations``, ``function_call`` and
``function_response`` beside ``toolConfig``).

``camel_case_fields`` renames the field names of what the codec reads
(``named_fields``: only the fields it names, so the rest of a body, kept in
``extra``, round-trips as it came). Values that are data, not messages, keep their keys: a call's
``args``, a result's ``response``, a JSON Schema given as a value
(``parametersJsonSchema``, ``responseJsonSchema``), a schema's ``default``
and ``example``, ``labels``; and a schema's ``properties`` keep their
property names (their schemas are renamed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
# Fields whose value is data (google.protobuf.Struct / Value or a string map).
_OPAQUE = frozenset(
    (
        "args",
        "parameters_json_schema",  # tools.py reads and writes back either spelling
        "response",
        "parametersJsonSchema",
        "responseJsonSchema",
        "default",
        "example",
        "labels",
    )
)
# Maps whose keys are names chosen by the user, and whose values are schemas.
# (JSON Schema's name maps too: a converter may put a JSON Schema under
# `parameters`, and renaming a `$defs` entry would break the `$ref` naming it.)
_NAMED_SCHEMAS = frozenset(
    ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
)


def camel_case(name: str) -> str:
    """``function_call`` -> ``functionCall``; other names unchanged."""
    if name in _OPAQUE or not _SNAKE.match(name):
        return name
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def camel_case_fields(value: Any) -> Any:
    """``value`` with every proto field name in lowerCamelCase (see the module doc).

    A name given both ways in one object keeps its lowerCamelCase value; the
    snake_case one is left as it was, so a checker still sees it."""
    if isinstance(value, list):
        return [camel_case_fields(item) for item in value]
    if not isinstance(value, Mapping):
        return value
    result: dict[str, Any] = {}
    for key, item in value.items():
        name = camel_case(key) if isinstance(key, str) else key
        if name != key and name in value:
            name = key  # both spellings present: keep the snake_case one apart
        if name in _OPAQUE:
            result[name] = item
        elif name in _NAMED_SCHEMAS and isinstance(item, Mapping):
            result[name] = {prop: camel_case_fields(schema) for prop, schema in item.items()}
        else:
            result[name] = camel_case_fields(item)
    return result


def nulls_dropped(value: Any) -> Any:
    """``value`` without the fields whose value is null: proto3 JSON reads a
    null field as absent ("null is an accepted value for all field types and
    treated as the default value", https://protobuf.dev/programming-guides/json/).
    Inside data (``args``, ``response``, a JSON Schema value) null is a value
    and stays."""
    if isinstance(value, list):
        return [nulls_dropped(item) for item in value]
    if not isinstance(value, Mapping):
        return value
    result: dict[str, Any] = {}
    for key, item in value.items():
        if item is None:
            continue
        if key in _OPAQUE:
            result[key] = item
        elif key in _NAMED_SCHEMAS and isinstance(item, Mapping):
            result[key] = {prop: nulls_dropped(schema) for prop, schema in item.items()}
        else:
            result[key] = nulls_dropped(item)
    return result


def named_fields(body: Mapping[str, Any], named: frozenset[str]) -> dict[str, Any]:
    """``body`` with the fields in ``named`` (lowerCamelCase names) found under
    either spelling and renamed throughout; other fields exactly as they came."""
    result: dict[str, Any] = {}
    for key, item in body.items():
        name = camel_case(key)
        if name in named and (name == key or name not in body):
            result[name] = camel_case_fields(item)
        else:
            result[key] = item
    return result
