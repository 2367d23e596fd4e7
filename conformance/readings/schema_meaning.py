"""Tool parameter schemas compared by what they mean, not how they are spelled.

A JSON Schema tells a validator what arguments are valid and tells the model
what to write. Two spellings mean the same when neither reader can tell
them apart; ``meaning`` rewrites a schema into one normal form so that such
spellings compare equal, and nothing else does.

Meaning-preserving (normalised away):

* key order (JSON objects are unordered; ``json_equal`` ignores it);
* an empty ``$defs`` or ``definitions`` (``{}``): no definitions at all;
* ``required: []`` and no ``required``; the order of ``required`` names
  (a set of names to a validator);
* ``properties: {}`` and no ``properties``; the spellings of "no
  parameters" (absent, ``{}``, ``{"type": "object"}``);
* an empty ``description`` and none (it tells the model nothing);
* the order of a ``type`` list (``["string", "null"]``);
* an ``anyOf`` whose branches each name one type and nothing else, beside
  no ``type``, and the ``type`` list of those types
  (``{"anyOf": [{"type": "string"}, {"type": "null"}]}`` is
  ``{"type": ["null", "string"]}``: LiteLLM writes nullable types so for
  Gemini);
* a local ``$ref`` (``#/$defs/name``, ``#/definitions/name``) and the
  definition it points to written in place, when the reference is not
  recursive: a validator reads both the same way. A definition used only
  through such references is then left out with them.

Meaning-changing (kept, so a difference shows): dropping or changing
``additionalProperties``, ``anyOf``/``oneOf``/``allOf``, a ``$ref`` that
points somewhere, a ``$defs`` entry with content, ``enum``/``const``,
``format``, bounds (``minimum``, ``maxLength``, ``minItems``...),
``pattern``, a non-empty ``description`` or ``title``, ``default``,
``items``, ``properties``. Unknown keywords are kept as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.conformance.readings.json_values import first_json_difference, json_equal

_DEFS_KEYS = ("$defs", "definitions")
_LOCAL_REF = {"#/$defs/": "$defs", "#/definitions/": "definitions"}
# Keywords whose value is a map of name -> subschema.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
# Keywords whose value is one subschema.
_SCHEMA_VALUES = (
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
# Keywords whose value is a list of subschemas.
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def meaning(schema: Any) -> Any:
    """``schema`` in the normal form described above (a new value; the input is
    not changed). A non-object schema (``true``, a malformed value) is returned
    as it is."""
    if not isinstance(schema, Mapping):
        return schema
    definitions = _definitions(schema)
    normal = _normalise(schema, definitions, ())
    if isinstance(normal, dict):
        _drop_inlined_definitions(normal, _refs_in(schema))
    return normal


def parameters_meaning(parameters: Mapping[str, Any] | None) -> Any:
    """A tool's parameter schema in normal form; the spellings of "no
    parameters" (absent, ``{}``) become the empty object schema."""
    if not parameters:
        return dict(_NO_PARAMETERS)
    return meaning(parameters)


def same_meaning(left: Any, right: Any) -> bool:
    return json_equal(meaning(left), meaning(right))


def first_meaning_difference(left: Any, right: Any) -> str:
    """Where two schemas first differ in meaning, for the nearest explanation."""
    return first_json_difference(meaning(left), meaning(right))


def _definitions(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The root's local definitions, by the ``$ref`` that names each."""
    found: dict[str, Any] = {}
    for prefix, key in _LOCAL_REF.items():
        table = schema.get(key)
        if isinstance(table, Mapping):
            for name, value in table.items():
                found[prefix + str(name)] = value
    return found


def _normalise(
    schema: Mapping[str, Any], definitions: Mapping[str, Any], expanding: tuple[str, ...]
) -> Any:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref in definitions and ref not in expanding:
        target = definitions[ref]
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        # Keywords beside a $ref apply too (2019-09 on): merged in where they do
        # not disagree with the definition; otherwise the form stays as written.
        if isinstance(target, Mapping) and all(
            k not in target or json_equal(target[k], v) for k, v in siblings.items()
        ):
            return _normalise({**target, **siblings}, definitions, (*expanding, ref))
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {
                name: _subschema(sub, definitions, expanding) for name, sub in value.items()
            }
        elif key in _SCHEMA_VALUES:
            out[key] = _subschema(value, definitions, expanding)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_subschema(sub, definitions, expanding) for sub in value]
        else:
            out[key] = value
    return _tidy(out)


def _subschema(value: Any, definitions: Mapping[str, Any], expanding: tuple[str, ...]) -> Any:
    return _normalise(value, definitions, expanding) if isinstance(value, Mapping) else value


def _tidy(schema: dict[str, Any]) -> dict[str, Any]:
    """The spellings of nothing removed from one (already normalised) level."""
    if schema.get("required") == []:
        del schema["required"]
    if schema.get("description") == "":
        del schema["description"]
    for key in _DEFS_KEYS:
        if schema.get(key) == {}:
            del schema[key]
    required = schema.get("required")
    if isinstance(required, list) and all(isinstance(name, str) for name in required):
        schema["required"] = sorted(set(required))
    branches = schema.get("anyOf")
    if "type" not in schema and isinstance(branches, list) and len(branches) > 1:
        types = [
            b.get("type") if isinstance(b, Mapping) and list(b) == ["type"] else None
            for b in branches
        ]
        if all(isinstance(kind, str) for kind in types):
            del schema["anyOf"]
            schema["type"] = types
    kinds = schema.get("type")
    if isinstance(kinds, list) and all(isinstance(kind, str) for kind in kinds):
        schema["type"] = sorted(set(kinds))
    if schema.get("type") == "object" and "properties" not in schema:
        schema["properties"] = {}
    return schema


def _drop_inlined_definitions(root: dict[str, Any], referenced: set[str]) -> None:
    """Leave out the root's definitions that were only used through references
    now written in place. A definition still referenced (a recursive one) stays,
    and so does one nothing referenced: it is content the schema carried."""
    tables = {key: root[key] for key in _DEFS_KEYS if isinstance(root.get(key), dict)}
    if not tables:
        return
    outside = {k: v for k, v in root.items() if k not in tables}
    live = _refs_in(outside)
    kept: dict[str, dict[str, Any]] = {key: {} for key in tables}
    changed = True
    while changed:  # a kept definition may reference another one
        changed = False
        for key, table in tables.items():
            prefix = "#/$defs/" if key == "$defs" else "#/definitions/"
            for name, sub in table.items():
                ref = prefix + name
                if name in kept[key] or (ref in referenced and ref not in live):
                    continue
                kept[key][name] = sub
                live |= _refs_in(sub)
                changed = True
    for key in tables:
        if kept[key]:
            root[key] = kept[key]
        else:
            del root[key]


def _refs_in(value: Any) -> set[str]:
    """Every ``$ref`` string inside ``value``."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            ref = item.get("$ref")
            if isinstance(ref, str):
                found.add(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
