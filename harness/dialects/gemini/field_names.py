"""Gemini's field names in either spelling: ``function_call`` is ``functionCall``.

The Gemini REST API reads JSON by the proto3 JSON mapping, whose parsers
"accept both the lowerCamelCase name (or the one specified by the json_name
option) and the original proto field name"
(https://protobuf.dev/programming-guides/json/). Clients send both: LiteLLM
writes ``function_declarations``, ``function_call``, ``function_response``,
``generation_config``; Google's own documentation writes lowerCamelCase
(https://ai.google.dev/api/generate-content#request-body). The codec reads
lowerCamelCase, so a body is read through ``camel_case_fields`` first.

Only the names the codec reads change (``_READ``): the structure of turns,
parts, calls, results and tools. Every other field keeps its spelling, so
what the codec keeps as it is (``generationConfig`` with ``include_thoughts``,
``parameters_json_schema``, which tools.py reads in both spellings) renders
back exactly. Values that are free JSON keep their keys: a call's ``args``,
a result's ``response`` (``Struct``), JSON Schemas, and the property names of
a schema's ``properties`` map.
"""

from __future__ import annotations

import re
from typing import Any

# Fields whose value is free JSON: nothing inside is a field name.
_FREE = frozenset(
    (
        "args",
        "response",
        "parametersJsonSchema",
        "responseJsonSchema",
        "example",
        "default",
        "labels",
    )
)
# The snake_case spellings of the fields the codec reads by name.
_READ = frozenset(
    (
        "system_instruction",
        "tool_config",
        "function_calling_config",
        "allowed_function_names",
        "function_declarations",
        "function_call",
        "function_response",
        "thought_signature",
        "inline_data",
        "file_data",
        "mime_type",
        "file_uri",
        "executable_code",
        "code_execution_result",
        "google_search",
        "code_execution",
        "url_context",
    )
)
# Fields whose value maps names the user chose to schemas.
_NAME_MAPS = frozenset(("properties",))
_SNAKE = re.compile(r"_([a-z0-9])")


def camel(name: str) -> str:
    """``function_call`` -> ``functionCall``; other names unchanged."""
    if "_" not in name or name.startswith("_") or not name.islower():
        return name
    return _SNAKE.sub(lambda found: found.group(1).upper(), name)


def camel_case_fields(value: Any) -> Any:
    """``value`` (a Gemini body or part of one) with the fields the codec reads
    in lowerCamelCase; the same object when none was spelled in snake_case, so
    a body already in lowerCamelCase is read exactly as before."""
    changed = _camel(value)
    return value if changed is _SAME else changed


_SAME: Any = object()  # returned by _camel when nothing below changed


def _camel(value: Any) -> Any:
    if isinstance(value, list):
        items = [_camel(item) for item in value]
        if all(item is _SAME for item in items):
            return _SAME
        return [value[i] if item is _SAME else item for i, item in enumerate(items)]
    if not isinstance(value, dict):
        return _SAME
    out: dict[str, Any] = {}
    changed = False
    for key, inner in value.items():
        name = camel(key) if key in _READ else key
        if name != key and name in value:
            name = key  # both spellings present: keep each as it is
        if name in _FREE:
            new = _SAME
        elif name in _NAME_MAPS and isinstance(inner, dict):
            mapped = {k: _camel(v) for k, v in inner.items()}
            new = (
                _SAME
                if all(v is _SAME for v in mapped.values())
                else {k: inner[k] if v is _SAME else v for k, v in mapped.items()}
            )
        else:
            new = _camel(inner)
        changed = changed or name != key or new is not _SAME
        out[name] = inner if new is _SAME else new
    return out if changed else _SAME
