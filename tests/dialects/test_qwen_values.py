"""Qwen XML parameter values: raw text -> JSON value by the property's JSON Schema."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.harness.dialects.qwen_xml.values import convert_value


def ok(raw: str, schema: Any, root: Any = None) -> Any:
    converted = convert_value(raw, schema, root)
    assert converted.error is None, converted.error
    return converted.value


def refused(raw: str, schema: Any) -> str:
    converted = convert_value(raw, schema)
    assert converted.error is not None, f"{raw!r} was accepted as {converted.value!r}"
    assert converted.value == raw  # the text is kept for the report
    return converted.error


# -- string -------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    ["Beijing", "", "  padded  ", '"quoted"', "3", "true", "null", '{"a": 1}', "a\nb\n\nc"],
)
def test_string_stays_exactly_as_written(raw: str) -> None:
    value = ok(raw, {"type": "string"})
    assert value == raw
    assert isinstance(value, str)


# -- integer ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("3", 3),
        ("-17", -17),
        ("0", 0),
        (" 42 ", 42),
        ("140.0", 140),  # zero fraction is an integer (json-schema.org numeric reference)
        ("-3.00", -3),
        ("1e3", 1000),
        ("2.5E1", 25),
        ("123456789012345678901234567890", 123456789012345678901234567890),
    ],
)
def test_integer_accepts_json_integers(raw: str, expected: int) -> None:
    value = ok(raw, {"type": "integer"})
    assert value == expected
    assert type(value) is int


@pytest.mark.parametrize(
    "raw",
    # "2026-01-15" for an integer field: ml-explore/mlx-lm#1330.
    [
        "3.5",
        "abc",
        "",
        "03106",
        "+3",
        "1_000",
        "0x10",
        "NaN",
        "Infinity",
        "True",
        "2026-01-15",
        "٣",
    ],
)
def test_integer_refuses_anything_else(raw: str) -> None:
    assert "expected integer" in refused(raw, {"type": "integer"})


def test_integer_with_absurd_exponent_is_refused_without_hanging() -> None:
    refused("1e999999999", {"type": "integer"})


# -- number -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected", "kind"),
    [("3", 3, int), ("3.25", 3.25, float), ("-0.5", -0.5, float), ("1e-3", 0.001, float)],
)
def test_number_keeps_the_written_kind(raw: str, expected: float, kind: type) -> None:
    value = ok(raw, {"type": "number"})
    assert value == expected
    assert type(value) is kind


@pytest.mark.parametrize("raw", ["1e400", "NaN", "-Infinity", "3,5", ".5", "5.", "three"])
def test_number_refuses_non_json_numbers(raw: str) -> None:
    refused(raw, {"type": "number"})


# -- boolean and null ---------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    # Python spellings come from chat templates' `| string` filter.
    [("true", True), ("false", False), ("True", True), ("False", False), (" true\n", True)],
)
def test_boolean(raw: str, expected: bool) -> None:
    assert ok(raw, {"type": "boolean"}) is expected


@pytest.mark.parametrize("raw", ["TRUE", "yes", "1", "0", "", "tru"])
def test_boolean_refuses_other_spellings(raw: str) -> None:
    refused(raw, {"type": "boolean"})


@pytest.mark.parametrize("raw", ["null", "None", " null "])
def test_null(raw: str) -> None:
    # "None": Qwen3.5's template renders Python None that way (vllm-project/vllm#38885).
    assert convert_value(raw, {"type": "null"}).ok
    assert ok(raw, {"type": "null"}) is None


@pytest.mark.parametrize("raw", ["", "nil", "NULL", "0"])
def test_null_refuses_other_text(raw: str) -> None:
    refused(raw, {"type": "null"})


# -- object and array ---------------------------------------------------------


def test_object_from_json() -> None:
    raw = '{"path": "a.txt", "lines": [1, 2], "deep": {"x": null, "ok": true}}'
    assert ok(raw, {"type": "object"}) == {
        "path": "a.txt",
        "lines": [1, 2],
        "deep": {"x": None, "ok": True},
    }


def test_object_from_python_literal() -> None:
    raw = "{'path': 'a.txt', 'ok': True, 'none': None, 'n': 1.5}"
    assert ok(raw, {"type": "object"}) == {"path": "a.txt", "ok": True, "none": None, "n": 1.5}


def test_array_from_json_and_python_literal() -> None:
    assert ok('[1, "two", [3]]', {"type": "array"}) == [1, "two", [3]]
    assert ok("['a', 'b', False]", {"type": "array"}) == ["a", "b", False]
    assert ok("\n[]\n", {"type": "array"}) == []


@pytest.mark.parametrize(
    "raw",
    [
        "[1, 2]",  # an array is not an object
        "{'a': {1, 2}}",  # a set is not JSON
        "{1: 'a'}",  # keys must be strings
        "{'a': (1, 2)}",  # tuples are not JSON
        "{'a': __import__('os')}",  # never evaluated: literal_eval refuses calls
        "{broken",
        '{"a": NaN}',
        "path=a.txt",
    ],
)
def test_object_refusals(raw: str) -> None:
    refused(raw, {"type": "object"})


@pytest.mark.parametrize("raw", ['{"a": 1}', "(1, 2)", "[1, 2", "1, 2"])
def test_array_refusals(raw: str) -> None:
    refused(raw, {"type": "array"})


def test_properties_without_type_mean_object_and_items_mean_array() -> None:
    assert ok('{"a": 1}', {"properties": {"a": {}}}) == {"a": 1}
    assert ok("[1]", {"items": {"type": "integer"}}) == [1]
    refused("x", {"items": {"type": "integer"}})


# -- type lists, nullable, anyOf / oneOf / allOf ------------------------------


def test_type_list_tries_non_string_types_first_and_string_last() -> None:
    nullable_string = {"type": ["string", "null"]}
    assert ok("null", nullable_string) is None
    assert ok("Beijing", nullable_string) == "Beijing"
    assert ok("7", {"type": ["string", "integer"]}) == 7
    assert ok("seven", {"type": ["string", "integer"]}) == "seven"


def test_type_list_in_declared_order_for_non_strings() -> None:
    assert ok("null", {"type": ["boolean", "null"]}) is None  # sgl-project/sglang#27640
    assert ok("false", {"type": ["boolean", "null"]}) is False
    value = ok("3", {"type": ["number", "integer"]})
    assert value == 3
    assert "expected boolean or null" in refused("maybe", {"type": ["boolean", "null"]})


def test_openapi_nullable() -> None:
    assert ok("null", {"type": "integer", "nullable": True}) is None
    assert ok("5", {"type": "integer", "nullable": True}) == 5


def test_any_of_prefers_a_typed_match_over_the_string_branch() -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert ok("12", schema) == 12
    assert ok("twelve", schema) == "twelve"


def test_one_of_and_any_of_refuse_when_no_branch_fits() -> None:
    error = refused("x", {"oneOf": [{"type": "integer"}, {"type": "boolean"}]})
    assert "matches no alternative" in error


def test_any_of_with_null_branch() -> None:
    schema = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
    assert ok('["a"]', schema) == ["a"]
    assert ok("None", schema) is None


def test_all_of() -> None:
    schema = {"allOf": [{"type": "integer"}, {"description": "count"}]}
    assert ok("4", schema) == 4
    refused("four", schema)


# -- enum and const -----------------------------------------------------------


def test_string_enum_needs_exact_text() -> None:
    schema = {"type": "string", "enum": ["celsius", "fahrenheit"]}
    assert ok("celsius", schema) == "celsius"
    assert "is not one of" in refused("Celsius", schema)
    refused(" celsius", schema)


def test_enum_without_type_matches_by_spelling() -> None:
    schema = {"enum": ["auto", 1, 2.5, True, None]}
    assert ok("auto", schema) == "auto"
    assert ok("1", schema) == 1
    assert ok("1.0", schema) == 1  # JSON equality: 1.0 == 1
    assert ok("True", schema) is True
    assert ok("null", schema) is None
    refused("3", schema)


def test_enum_does_not_confuse_booleans_and_integers() -> None:
    refused("true", {"enum": [1, 0]})
    refused("1", {"enum": [True, False]})


def test_const() -> None:
    assert ok("5", {"const": 5}) == 5
    refused("6", {"const": 5})


# -- $ref and missing schemas -------------------------------------------------


def test_local_ref_resolves_against_the_root() -> None:
    root = {
        "type": "object",
        "$defs": {"Point": {"type": "object"}, "Count": {"type": "integer"}},
        "definitions": {"Flag": {"type": "boolean"}},
        "properties": {},
    }
    assert ok('{"x": 1}', {"$ref": "#/$defs/Point"}, root) == {"x": 1}
    assert ok("9", {"$ref": "#/$defs/Count"}, root) == 9
    assert ok("False", {"$ref": "#/definitions/Flag"}, root) is False


def test_unresolvable_or_remote_ref_keeps_the_string() -> None:
    assert ok("9", {"$ref": "#/$defs/Nope"}, {}) == "9"
    assert ok("9", {"$ref": "https://example.com/schema.json"}, {}) == "9"


def test_self_referencing_ref_terminates() -> None:
    root = {"$defs": {"Loop": {"$ref": "#/$defs/Loop"}}}
    assert ok("1", {"$ref": "#/$defs/Loop"}, root) == "1"


@pytest.mark.parametrize("schema", [None, {}, True, {"description": "no type"}, {"type": "file"}])
def test_no_usable_schema_never_guesses(schema: Any) -> None:
    for raw in ("3", "true", "null", '{"a": 1}', "[1]"):
        assert ok(raw, schema) == raw
