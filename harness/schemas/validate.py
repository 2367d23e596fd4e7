"""Validate one payload against its dialect's schema and report every violation.

Violations are plain frozen dataclasses with a JSON path into the payload
(``messages[2].content[0].input``), a one-line message that never dumps the
whole offending value, and the keyword path inside the schema. A missing
required property is reported at the path where it should have been
(``messages[1].tool_call_id``), which is where a reader looks for it.
Gemini payloads are proto3 JSON, where a null field means an absent one: they
are validated without their null fields (``nulls_dropped``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from toolwire.harness.dialects.gemini.field_names import nulls_dropped
from toolwire.harness.model import GEMINI, PayloadKind
from toolwire.harness.schemas.loading import cached_schema, schema_file_name, schema_registry
from toolwire.harness.schemas.quick import quick_validity

# Long values (a whole tool result, a base64 image) must not flood a report.
MAX_MESSAGE_CHARS = 200
_MAX_VALUE_CHARS = 60
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_JSON_TYPE_NAMES: dict[type, str] = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


@dataclass(frozen=True)
class SchemaViolation:
    """One place where a payload breaks its dialect's schema.

    ``path`` is a JSON path into the payload (``$`` for the payload itself);
    ``schema_path`` is the keyword path from the root schema, through any
    ``$ref``, to the failing keyword (``#/properties/messages/items/...``).
    """

    path: str
    message: str
    schema_path: str


def validate_payload(dialect: str, kind: PayloadKind, payload: Any) -> list[SchemaViolation]:
    """Every violation of ``payload`` against ``dialect``'s ``kind`` schema, in path order.

    ``kind`` is ``request``, ``response`` or ``stream``; for ``stream`` the
    payload is the data object of one event (the ``[DONE]`` sentinel is not
    JSON and is not an event). An empty list means the payload is valid.
    """
    if dialect == GEMINI:
        payload = nulls_dropped(payload)
    quick = quick_validity(dialect, kind)
    if quick is not None:
        # Most payloads are valid: a fast yes skips jsonschema's explanations
        # (toolwire.harness.schemas.quick); anything else is explained by jsonschema.
        try:
            if quick(payload):
                return []
        except Exception:  # whatever it was, jsonschema meets it as before
            pass
    validator = _validator(dialect, kind)
    found: dict[tuple[str, str], tuple[tuple[tuple[int, int | str], ...], SchemaViolation]] = {}
    for error in validator.iter_errors(payload):
        parts = _instance_parts(error)
        violation = SchemaViolation(
            path=format_json_path(parts),
            message=_cap(_describe(error)),
            schema_path="#/" + "/".join(str(part) for part in error.absolute_schema_path),
        )
        key = (violation.path, violation.message)
        # The same fault can be reached through two subschemas (allOf of a
        # base and a dialect extension): report it once.
        if key not in found or violation.schema_path < found[key][1].schema_path:
            found[key] = (_sort_key(parts), violation)
    ordered = sorted(
        found.values(), key=lambda item: (item[0], item[1].schema_path, item[1].message)
    )
    return [violation for _, violation in ordered]


def format_json_path(parts: Iterable[str | int]) -> str:
    """``["messages", 2, "content"]`` -> ``messages[2].content``; the root is ``$``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part)}]"
    return text or "$"


@cache
def _validator(dialect: str, kind: PayloadKind) -> Any:
    schema = cached_schema(schema_file_name(dialect, kind))
    return Draft202012Validator(schema, registry=schema_registry())


def _instance_parts(error: ValidationError) -> list[str | int]:
    parts: list[str | int] = list(error.absolute_path)
    missing = _missing_property(error)
    if missing is not None:
        parts.append(missing)
    return parts


def _missing_property(error: ValidationError) -> str | None:
    if error.validator != "required" or not isinstance(error.instance, dict):
        return None
    # jsonschema yields one error per missing property, named first in its message.
    for name in error.validator_value:
        if name not in error.instance and error.message.startswith(repr(name)):
            return str(name)
    return None


def _sort_key(parts: Sequence[str | int]) -> tuple[tuple[int, int | str], ...]:
    # Indices sort numerically (messages[10] after messages[9]) and never
    # compare with keys.
    return tuple((0, part) if isinstance(part, int) else (1, part) for part in parts)


def _describe(error: ValidationError) -> str:
    keyword = error.validator
    expected = error.validator_value
    value = error.instance
    if keyword == "required":
        missing = _missing_property(error)
        return f"missing required property {missing!r}" if missing else error.message
    if keyword == "type":
        wanted = expected if isinstance(expected, str) else " or ".join(expected)
        return f"expected {wanted}, got {_json_type(value)}"
    if keyword == "enum":
        return f"{_short(value)} is not one of {_short(expected)}"
    if keyword == "const":
        return f"expected {_short(expected)}, got {_short(value)}"
    if keyword == "pattern":
        return f"{_short(value)} does not match {expected}"
    if keyword == "minLength":
        return f"string is shorter than {expected} character(s)"
    if keyword == "maxLength":
        return f"string is longer than {expected} characters (got {len(value)})"
    if keyword in ("minimum", "maximum"):
        bound = "below the minimum" if keyword == "minimum" else "above the maximum"
        return f"{_short(value)} is {bound} {expected}"
    if keyword == "minItems":
        return f"array has fewer than {expected} item(s)"
    if keyword in ("anyOf", "oneOf") and error.context:
        closest = best_match(error.context)
        return f"matches none of the allowed forms (closest: {_describe(closest)})"
    return str(error.message)


def _json_type(value: Any) -> str:
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 1] + "…"
    return text


def _cap(message: str) -> str:
    flat = " ".join(message.split())
    if len(flat) > MAX_MESSAGE_CHARS:
        flat = flat[: MAX_MESSAGE_CHARS - 1] + "…"
    return flat
