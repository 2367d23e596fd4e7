"""Qwen3-Coder parameter values: raw text to a JSON value, by JSON Schema.

The model writes every parameter as raw text; the tool's JSON Schema says
what the text means (Qwen3-Coder chat template and reference parser,
https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct). Rules:

* ``string``: the text exactly as written (no JSON decoding, no trimming).
* ``integer`` / ``number``: JSON number syntax, surrounding whitespace
  ignored. A number with a zero fractional part (``140.0``, ``1e3``) *is* an
  integer in JSON Schema
  (https://json-schema.org/understanding-json-schema/reference/numeric) and
  converts to a Python ``int``; ``03106``, ``+3``, ``NaN`` are not numbers.
* ``boolean``: ``true`` / ``false``, and the Python spellings ``True`` /
  ``False``; ``null``: ``null`` and ``None``. Chat templates render scalar
  arguments with Jinja's ``| string`` filter, which writes Python reprs
  (vllm-project/vllm#38885).
* ``object`` / ``array``: JSON; failing that, a Python literal read with
  ``ast.literal_eval`` (never ``eval``) when it yields a dict / list of
  JSON-compatible values.
* A list of types, ``anyOf`` / ``oneOf``, ``nullable``: every non-string
  alternative in declared order, then ``string`` last (text always "is" a
  string, so trying it first would hide every other alternative).
* ``enum`` / ``const``: the member the text spells (a string member by exact
  text, other members by their JSON or Python spelling).
* No schema, an empty schema, an unknown type name or an unresolvable
  ``$ref``: the text stays a string. Nothing is guessed.

Only the type is judged (plus ``enum`` / ``const``); ranges, patterns and the
contents of objects are the tool's business.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from toolwire.harness.model import JsonObject, JsonValue

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_TRUE = ("true", "True")
_FALSE = ("false", "False")
_NULL = ("null", "None")
# Integers with more digits than this are refused: int() of a huge exponent
# would take unbounded memory.
_MAX_INTEGER_DIGITS = 4300
_MAX_REF_DEPTH = 32
_PREVIEW = 40


@dataclass(frozen=True)
class Converted:
    """A converted value, or ``error`` saying why the text does not fit."""

    value: JsonValue
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class _Invalid(Exception):
    """Internal: the text is not valid for one type."""


def convert_value(raw: str, schema: Any, root: JsonObject | None = None) -> Converted:
    """Convert a parameter's raw text by its property ``schema``.

    ``root`` is the tool's whole parameters schema, against which local
    ``$ref`` s (``#/$defs/...``) resolve.
    """
    return _convert(raw, schema, root if root is not None else {}, 0)


def preview(text: str) -> str:
    """A short, visible rendering of a value for messages."""
    shown = text if len(text) <= _PREVIEW else text[:_PREVIEW] + "..."
    return repr(shown)


def _convert(raw: str, schema: Any, root: JsonObject, depth: int) -> Converted:
    if not isinstance(schema, Mapping) or depth > _MAX_REF_DEPTH:
        return Converted(raw)
    if "$ref" in schema:
        target = _resolve_ref(schema["$ref"], root)
        if target is None:
            return Converted(raw)
        return _convert(raw, target, root, depth + 1)
    if "const" in schema:
        return _match_members(raw, [schema["const"]])
    if isinstance(schema.get("enum"), list):
        return _match_members(raw, schema["enum"])
    if "allOf" in schema and "type" not in schema:
        return _convert_all(raw, schema["allOf"], root, depth)
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema and "type" not in schema:
            return _convert_any(raw, schema[keyword], root, depth)
    types = _declared_types(schema)
    if not types:
        return Converted(raw)
    return _convert_types(raw, types)


def _declared_types(schema: Mapping[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        types = [declared]
    elif isinstance(declared, list):
        types = [t for t in declared if isinstance(t, str)]
    elif "properties" in schema:
        types = ["object"]
    elif "items" in schema:
        types = ["array"]
    else:
        types = []
    if schema.get("nullable") is True and "null" not in types:
        types.append("null")  # OpenAPI 3.0 style, common in tool schemas
    return types


def _convert_types(raw: str, types: Sequence[str]) -> Converted:
    known = [t for t in types if t in _CONVERTERS]
    if not known:
        return Converted(raw)  # only unknown type names: do not guess
    ordered = [t for t in known if t != "string"] + [t for t in known if t == "string"]
    for type_name in ordered:
        try:
            return Converted(_CONVERTERS[type_name](raw))
        except _Invalid:
            continue
    expected = " or ".join(ordered)
    return Converted(raw, f"expected {expected}, got {preview(raw)}")


def _convert_any(raw: str, branches: Any, root: JsonObject, depth: int) -> Converted:
    if not isinstance(branches, list) or not branches:
        return Converted(raw)
    results = [_convert(raw, branch, root, depth + 1) for branch in branches]
    good = [r for r in results if r.ok]
    if not good:
        errors = "; ".join(r.error or "" for r in results)
        return Converted(raw, f"matches no alternative ({errors})")
    # A branch that merely kept the text as a string comes last.
    for result in good:
        if not isinstance(result.value, str):
            return result
    return good[0]


def _convert_all(raw: str, branches: Any, root: JsonObject, depth: int) -> Converted:
    if not isinstance(branches, list) or not branches:
        return Converted(raw)
    results = [_convert(raw, branch, root, depth + 1) for branch in branches]
    for result in results:
        if not result.ok:
            return result
    typed = [r for r in results if not isinstance(r.value, str)]
    chosen = typed[0] if typed else results[0]
    if any(not _json_equal(r.value, chosen.value) for r in typed):
        return Converted(raw, f"allOf branches disagree on {preview(raw)}")
    return chosen


def _match_members(raw: str, members: Sequence[Any]) -> Converted:
    for member in members:
        if isinstance(member, str) and member == raw:
            return Converted(member)
    parsed = _literal(raw.strip())
    if parsed is not _NO_LITERAL:
        for member in members:
            if not isinstance(member, str) and _json_equal(parsed, member):
                return Converted(member)
    allowed = ", ".join(json.dumps(m, ensure_ascii=False) for m in members[:8])
    return Converted(raw, f"{preview(raw)} is not one of: {allowed}")


_NO_LITERAL = object()


def _literal(text: str) -> Any:
    """The JSON (or Python-literal) value ``text`` spells, if any."""
    for converter in (_to_null, _to_boolean, _to_number, _to_object, _to_array):
        try:
            return converter(text)
        except _Invalid:
            continue
    return _NO_LITERAL


def _to_string(raw: str) -> str:
    return raw


def _to_integer(raw: str) -> int:
    text = raw.strip()
    if not _NUMBER.fullmatch(text):
        raise _Invalid
    number = Decimal(text)
    if number != number.to_integral_value() or number.adjusted() > _MAX_INTEGER_DIGITS:
        raise _Invalid
    return int(number)


def _to_number(raw: str) -> int | float:
    text = raw.strip()
    if not _NUMBER.fullmatch(text):
        raise _Invalid
    value = json.loads(text)
    if isinstance(value, float) and not math.isfinite(value):
        raise _Invalid
    if not isinstance(value, int | float):
        raise _Invalid
    return value


def _to_boolean(raw: str) -> bool:
    text = raw.strip()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _Invalid


def _to_null(raw: str) -> None:
    if raw.strip() not in _NULL:
        raise _Invalid


def _to_object(raw: str) -> dict[str, Any]:
    value = _structured(raw, "{")
    if not isinstance(value, dict):
        raise _Invalid
    return value


def _to_array(raw: str) -> list[Any]:
    value = _structured(raw, "[")
    if not isinstance(value, list):
        raise _Invalid
    return value


def _reject_constant(name: str) -> Any:
    raise _Invalid  # NaN / Infinity are not JSON


def _structured(raw: str, opener: str) -> Any:
    text = raw.strip()
    if not text.startswith(opener):
        raise _Invalid
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        pass
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as error:
        raise _Invalid from error
    if not _json_compatible(value):
        raise _Invalid
    return value


def _json_compatible(value: Any) -> bool:
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json_compatible(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_compatible(v) for k, v in value.items())
    return False


def _json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``1 == 1.0`` but ``True != 1``."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(_json_equal, left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(_json_equal(left[k], right[k]) for k in left)
    return type(left) is type(right) and bool(left == right)


def _resolve_ref(ref: Any, root: JsonObject) -> Any:
    """A local JSON pointer (``#/$defs/Name``) into ``root``, or ``None``."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    node: Any = root
    for token in [t for t in ref[1:].split("/") if t]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


_CONVERTERS: dict[str, Callable[[str], Any]] = {
    "string": _to_string,
    "integer": _to_integer,
    "number": _to_number,
    "boolean": _to_boolean,
    "null": _to_null,
    "object": _to_object,
    "array": _to_array,
}
