"""JSON value equality as the rules judge it (RFC 8259: numbers by value,
``1`` equals ``1.0``, ``true`` is never ``1``), and the path of the first
difference, for messages."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolwire.harness.redaction import redact


def json_equal(left: Any, right: Any) -> bool:
    """JSON value equality: booleans are not numbers, numbers compare by value."""
    kind = type(left)
    if kind is type(right):
        # Both of one exact JSON type (what parsing yields): the rules below
        # reduce to these, without their chain of isinstance tests. The
        # container rules are repeated rather than shared through a helper: a
        # frame more per level would lower the nesting it can compare.
        if kind is str or kind is int or kind is float or kind is bool:
            equal: bool = left == right
            return equal
        if kind is dict:
            return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
        if kind is list:
            return len(left) == len(right) and all(
                json_equal(a, b) for a, b in zip(left, right, strict=True)
            )
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if isinstance(left, int | float) and isinstance(right, int | float):
        return left == right  # Python compares int and float exactly
    if isinstance(left, str) and isinstance(right, str):
        return left == right
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(
            json_equal(a, b) for a, b in zip(left, right, strict=True)
        )
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(json_equal(left[k], right[k]) for k in left)
    return False


def first_json_difference(left: Any, right: Any, where: str = "$") -> str:
    """The JSON path (inside the arguments) of the first difference."""
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        for key in left:
            if key not in right:
                return f"{where}: key {key!r} is missing"
            if not json_equal(left[key], right[key]):
                return first_json_difference(left[key], right[key], f"{where}.{key}")
        extra = next(iter(k for k in right if k not in left), None)
        return f"{where}: unexpected key {extra!r}"
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            if not json_equal(a, b):
                return first_json_difference(a, b, f"{where}[{index}]")
    return f"{where}: {_json(left)} became {_json(right)}"


def _json(value: Any) -> str:
    text = redact(json.dumps(value, ensure_ascii=False))  # before the cut: see readings.views.short
    return text if len(text) <= 60 else text[:59] + "…"
