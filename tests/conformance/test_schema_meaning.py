"""toolwire.conformance.readings.schema_meaning: spellings that mean the same compare
equal, edits that change what a validator accepts or what the model is told do not."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from toolwire.conformance.readings.schema_meaning import (
    first_meaning_difference,
    meaning,
    parameters_meaning,
    same_meaning,
)

CITY: dict[str, Any] = {
    "type": "object",
    "description": "Where to look.",
    "properties": {
        "city": {"type": "string", "description": "City name.", "minLength": 1},
        "unit": {"type": "string", "enum": ["c", "f"]},
        "when": {"type": "string", "format": "date"},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
    },
    "required": ["city", "unit"],
    "additionalProperties": False,
}

TREE: dict[str, Any] = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
        }
    },
}

LINKED: dict[str, Any] = {
    "type": "object",
    "properties": {"to": {"$ref": "#/$defs/point"}, "via": {"$ref": "#/definitions/point"}},
    "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}},
    "definitions": {"point": {"type": "object", "properties": {"x": {"type": "number"}}}},
}


def _edit(schema: dict[str, Any], change: Any) -> dict[str, Any]:
    edited = copy.deepcopy(schema)
    change(edited)
    return edited


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def _inline_point(schema: dict[str, Any]) -> None:
    point = schema["$defs"]["point"]
    schema["properties"] = {"to": copy.deepcopy(point), "via": copy.deepcopy(point)}
    del schema["$defs"], schema["definitions"]


SAME: list[tuple[str, dict[str, Any], Any]] = [
    ("key order", CITY, _reversed_keys),
    ("an empty $defs added", CITY, lambda s: s.update({"$defs": {}})),
    ("an empty definitions added", CITY, lambda s: s.update({"definitions": {}})),
    (
        "an empty $defs added inside a property",
        CITY,
        lambda s: s["properties"]["city"].update({"$defs": {}}),
    ),
    ("required: [] added beside none", TREE, lambda s: s.update({"required": []})),
    ("required in another order", CITY, lambda s: s.update({"required": ["unit", "city"]})),
    ("an empty description added", TREE, lambda s: s.update({"description": ""})),
    ("local $refs written in place", LINKED, _inline_point),
    (
        "a bound written 7.0 instead of 7",
        CITY,
        lambda s: s["properties"]["days"].update({"maximum": 7.0}),
    ),
    ("an empty $defs added to a recursive schema", TREE, lambda s: s.update({"definitions": {}})),
]


@pytest.mark.parametrize(("what", "schema", "change"), SAME, ids=[s[0] for s in SAME])
def test_meaning_preserving_edits_compare_equal(what: str, schema: Any, change: Any) -> None:
    edited = _edit(schema, change)
    assert same_meaning(schema, edited), first_meaning_difference(schema, edited)
    assert same_meaning(edited, schema)


def test_properties_empty_and_absent_on_a_nested_object_are_one() -> None:
    left = {"type": "object", "properties": {"meta": {"type": "object"}}}
    right = {"type": "object", "properties": {"meta": {"type": "object", "properties": {}}}}
    assert same_meaning(left, right)


def test_a_type_list_in_another_order_is_the_same_type() -> None:
    left = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}
    right = {"type": "object", "properties": {"x": {"type": ["null", "string"]}}}
    assert same_meaning(left, right)


@pytest.mark.parametrize(
    "parameters", [None, {}, {"type": "object"}, {"type": "object", "required": []}]
)
def test_the_spellings_of_no_parameters_are_one(parameters: Any) -> None:
    assert parameters_meaning(parameters) == {"type": "object", "properties": {}}


def _drop(path: tuple[str, ...], key: str) -> Any:
    def change(schema: dict[str, Any]) -> None:
        node = schema
        for step in path:
            node = node[step]
        del node[key]

    return change


ONE_OF = {
    "type": "object",
    "properties": {
        "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "either": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]},
    },
}

DIFFERENT: list[tuple[str, dict[str, Any], Any]] = [
    ("additionalProperties dropped", CITY, _drop((), "additionalProperties")),
    ("additionalProperties made true", CITY, lambda s: s.update({"additionalProperties": True})),
    (
        "additionalProperties: false added",
        TREE,
        lambda s: s.update({"additionalProperties": False}),
    ),
    ("an enum dropped", CITY, _drop(("properties", "unit"), "enum")),
    ("an enum value dropped", CITY, lambda s: s["properties"]["unit"].update({"enum": ["c"]})),
    ("a format dropped", CITY, _drop(("properties", "when"), "format")),
    ("a minimum dropped", CITY, _drop(("properties", "days"), "minimum")),
    ("a maximum changed", CITY, lambda s: s["properties"]["days"].update({"maximum": 8})),
    ("a minLength dropped", CITY, _drop(("properties", "city"), "minLength")),
    ("a property description dropped", CITY, _drop(("properties", "city"), "description")),
    ("the schema description dropped", CITY, _drop((), "description")),
    ("a required name dropped", CITY, lambda s: s.update({"required": ["city"]})),
    ("oneOf dropped", ONE_OF, lambda s: s["properties"].update({"target": {}})),
    (
        "anyOf flattened to its first branch",
        ONE_OF,
        lambda s: s["properties"].update({"either": {"type": "string", "format": "email"}}),
    ),
    ("a $defs with content dropped (the $ref dangles)", TREE, _drop((), "$defs")),
    ("a $ref replaced by an empty schema", TREE, lambda s: s["properties"].update({"root": {}})),
    ("a $defs never referenced dropped", CITY, None),
    (
        "a recursive $ref inlined one level and cut",
        TREE,
        lambda s: s["properties"].update(
            {"root": {"type": "object", "properties": {"name": {"type": "string"}}}}
        ),
    ),
    ("a property dropped", CITY, _drop(("properties",), "when")),
    ("a type changed", CITY, lambda s: s["properties"]["days"].update({"type": "number"})),
]


@pytest.mark.parametrize(("what", "schema", "change"), DIFFERENT, ids=[d[0] for d in DIFFERENT])
def test_meaning_changing_edits_differ(what: str, schema: Any, change: Any) -> None:
    if change is None:  # the source carries an unused definition; the output drops it
        source = {**copy.deepcopy(schema), "$defs": {"spare": {"type": "string"}}}
        edited = copy.deepcopy(schema)
    else:
        source, edited = schema, _edit(schema, change)
    assert not same_meaning(source, edited)
    assert not same_meaning(edited, source)
    assert first_meaning_difference(source, edited).startswith("$")


def test_a_recursive_schema_equals_itself_and_keeps_its_definition() -> None:
    normal = meaning(TREE)
    assert same_meaning(TREE, copy.deepcopy(TREE))
    assert "node" in normal["$defs"]


def test_meaning_leaves_its_input_alone() -> None:
    before = copy.deepcopy(LINKED)
    meaning(LINKED)
    assert before == LINKED


def test_a_ref_beside_conflicting_keywords_is_left_as_written() -> None:
    schema = {
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/s", "type": "integer"}},
        "$defs": {"s": {"type": "string"}},
    }
    assert meaning(schema)["properties"]["p"] == {"$ref": "#/$defs/s", "type": "integer"}


@pytest.mark.parametrize("value", [True, False, "not a schema", None, [1, 2]])
def test_non_object_schemas_are_returned_as_they_are(value: Any) -> None:
    assert meaning(value) == value


def test_an_any_of_of_bare_types_is_the_type_list() -> None:
    nullable = {"type": ["string", "null"], "description": "Who."}
    litellm = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Who."}
    assert same_meaning(nullable, litellm)
    # A branch with more than a type, or a oneOf, is not a type list.
    bounded = {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]}
    assert not same_meaning(nullable, bounded)
    assert not same_meaning(
        {"type": ["integer", "number"]}, {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    )
    assert not same_meaning({"type": ["string", "null"]}, {"anyOf": [{"type": "string"}]})
