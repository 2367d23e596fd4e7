"""Comparing JSON values the way a tool receives them.

Python's ``==`` says ``True == 1`` and ``"3" != 3`` for the wrong reasons
when judging typed tool arguments: a boolean is never a number here, while
``3`` and ``3.0`` are the same JSON number. Used by the xml, stream and
replay rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.redaction import redact


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: booleans apart from numbers, 3 == 3.0, deep."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if _is_array(a) and _is_array(b):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b):
        return False
    return bool(a == b)


def _is_array(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for explanations."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if _is_array(value):
        return "array"
    return type(value).__name__


def preview(value: Any, limit: int = 40) -> str:
    text = redact(repr(value))  # before the cut: see readings.views.short
    return text if len(text) <= limit else text[: limit - 1] + "…"
