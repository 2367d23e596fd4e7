"""Shape checks shared by the anthropic-messages parsers.

Each helper either returns the value with its Python type narrowed or raises
``WireFormatError`` naming the JSON path, so that every parser reports *where*
a payload stopped being representable.

Convention for optional named fields: a key that is absent parses to ``None``;
a key that is present with JSON ``null`` also parses to ``None`` but is kept in
the object's ``extra`` (see ``split_extra``), so that rendering, which writes a
named field only when it is not ``None``, reproduces the ``null``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolwire.harness.errors import WireFormatError

# The Messages API reference, cited in hints so a user can check the shape.
MESSAGES_API_URL = "https://platform.claude.com/docs/en/api/messages"


def join(path: str, key: str | int) -> str:
    """Extend a JSON path: ``join("messages", 2)`` -> ``messages[2]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def describe(value: Any) -> str:
    """The JSON type name of ``value``, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def expect_object(value: Any, path: str, what: str = "value") -> Mapping[str, Any]:
    if type(value) is dict:  # the usual case, without the Mapping ABC check
        return value
    if not isinstance(value, Mapping):
        raise WireFormatError(
            path,
            f"{what} must be a JSON object, got {describe(value)}",
            hint=f"see {MESSAGES_API_URL}",
        )
    return value


def expect_list(value: Any, path: str, what: str = "value") -> list[Any]:
    if not isinstance(value, list):
        raise WireFormatError(
            path,
            f"{what} must be a JSON array, got {describe(value)}",
            hint=f"see {MESSAGES_API_URL}",
        )
    return value


def optional_str(obj: Mapping[str, Any], key: str, path: str) -> str | None:
    """``obj[key]`` as a string, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise WireFormatError(
        join(path, key),
        f"`{key}` must be a string, got {describe(value)}",
        hint=f"see {MESSAGES_API_URL}",
    )


def required_str(obj: Mapping[str, Any], key: str, path: str, what: str) -> str:
    """``obj[key]`` as a string; absent, null or another type is a shape error."""
    value = obj.get(key)
    if isinstance(value, str):
        return value
    found = "missing" if key not in obj else f"{describe(value)}"
    raise WireFormatError(
        join(path, key),
        f"{what} needs a string `{key}`, found {found}",
        hint=f"see {MESSAGES_API_URL}",
    )


def optional_bool(obj: Mapping[str, Any], key: str, path: str) -> bool | None:
    value = obj.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise WireFormatError(
        join(path, key),
        f"`{key}` must be true or false, got {describe(value)}",
        hint=f"see {MESSAGES_API_URL}",
    )


def split_extra(obj: Mapping[str, Any], named: Iterable[str]) -> dict[str, Any]:
    """The keys of ``obj`` that the model does not name, plus named keys whose
    value is ``null`` (so that rendering can reproduce the explicit null)."""
    # The parsers pass constant frozensets: no set to build per object.
    named_set = named if isinstance(named, frozenset) else frozenset(named)
    return {k: v for k, v in obj.items() if k not in named_set or v is None}


def put(out: dict[str, Any], key: str, value: Any) -> None:
    """Write a named field when it carries a value (``None`` means "not set")."""
    if value is not None:
        out[key] = value
