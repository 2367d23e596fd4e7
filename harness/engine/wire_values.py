"""Payloads crossing the adapter boundary as plain JSON, checked and copied.

The adapter protocol speaks JSON (docs/adapters.md). What an adapter returns
is serialised once: that proves it is JSON (no sets, bytes, NaN, custom
objects, cycles), measures it against a size limit, and parsing the text back
gives the engine its own copy, faster than ``copy.deepcopy`` and immune to
objects that refuse to be copied. Anything else is ``NotWireValue``, whose
message names the first offending value by its JSON path.
"""

from __future__ import annotations

import json
import marshal
import math
from typing import Any

# Output larger than this (in characters of compact JSON) is refused, unless
# the input was large too: a pass-through of a 10 MB body is legitimate.
MAX_OUTPUT_CHARS = 32_000_000
INPUT_FACTOR = 4
# When serialising fails, nesting deeper than this is named as the reason
# (json.dumps gives up near Python's recursion limit).
MAX_DEPTH = 500

_SCALARS = (str, int, bool, type(None))


class NotWireValue(Exception):
    """A value that cannot cross the adapter boundary; the message says why."""


def wire_text(value: Any) -> str:
    """A payload (already JSON) as compact text: what its copies are made from."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class InputCopies:
    """Private copies of the payloads given to an adapter, each serialised once.

    A source payload is given to the adapter once per direction (and to
    ``id_mapping``), an output again on the way back: every call still gets a
    fresh copy. The value is turned into JSON text once (its size, and the
    proof it is JSON), and the copy that text parses to is kept in ``marshal``
    form: ``marshal.loads`` makes the next copies, equal to what parsing the
    text again would give (plain dicts, lists, strings and numbers), in less
    than half the time. Entries hold their value, so an id() cannot be reused
    while it is remembered; the values are the engine's own, which nothing
    changes.
    """

    def __init__(self) -> None:
        self._copies: dict[int, tuple[Any, bytes, int]] = {}

    def copy(self, value: Any) -> tuple[Any, int]:
        """A fresh private copy of ``value`` (already JSON) and its size in characters."""
        entry = self._copies.get(id(value))
        if entry is None or entry[0] is not value:
            text = wire_text(value)
            entry = self._remember(value, json.loads(text), len(text))
        return marshal.loads(entry[1]), entry[2]

    def copy_output(self, value: Any, input_chars: int = 0) -> Any:
        """A checked, private copy of what an adapter returned (NotWireValue
        when it is not JSON), remembered for when it is given back as an input."""
        text = checked_output_text(value, input_chars)
        copied = json.loads(text)
        self._remember(copied, copied, len(text))
        return copied

    def _remember(self, value: Any, parsed: Any, chars: int) -> tuple[Any, bytes, int]:
        entry = self._copies[id(value)] = (value, marshal.dumps(parsed), chars)
        return entry


def checked_output_text(value: Any, input_chars: int = 0) -> str:
    """What an adapter returned as compact JSON text, or NotWireValue saying why not."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as error:
        # Serialising is the fast check; only a failure pays for finding the path.
        raise NotWireValue(_first_offence(value) or f"it is not JSON: {error}") from None
    limit = max(MAX_OUTPUT_CHARS, INPUT_FACTOR * input_chars)
    if len(text) > limit:
        raise NotWireValue(
            f"it is {_megabytes(len(text))} of JSON, more than the {_megabytes(limit)} an "
            "output may take (is it repeating or padding its input?)"
        )
    return text


def _megabytes(chars: int) -> str:
    return f"{chars / 1_000_000:.1f} MB"


def _first_offence(value: Any) -> str | None:
    """Where ``value`` stops being JSON (its path shortened), or None."""
    found = _walk(value)
    if found is None:
        return None
    path, problem = found
    if len(path) > 80:
        path = f"{path[:40]}…{path[-30:]}"
    return f"{path} {problem}"


def _walk(value: Any) -> tuple[str, str] | None:
    """(path, problem) of the first value that is not JSON, walking without recursion."""
    stack: list[tuple[Any, str, int]] = [(value, "$", 0)]
    open_containers: set[int] = set()
    exits: list[tuple[int, int]] = []  # (stack height, container id) to close
    while stack:
        while exits and len(stack) <= exits[-1][0]:
            open_containers.discard(exits.pop()[1])
        item, path, depth = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return path, f"is {item!r}, which JSON cannot carry"
            continue
        if isinstance(item, _SCALARS):
            continue
        if not isinstance(item, dict | list | tuple):
            return path, f"is of type {_type_name(item)}, not a JSON value"
        if depth >= MAX_DEPTH:
            return path, f"is nested more than {MAX_DEPTH} levels deep"
        if id(item) in open_containers:
            return path, "refers back to a container it is inside (a cycle)"
        open_containers.add(id(item))
        exits.append((len(stack), id(item)))
        if isinstance(item, dict):
            for key in reversed(list(item)):
                if not isinstance(key, str | int | float | bool | type(None)):
                    return path, f"has a key of type {_type_name(key)}, not a string"
                stack.append((item[key], f"{path}.{key}", depth + 1))
        else:
            for index in range(len(item) - 1, -1, -1):
                stack.append((item[index], f"{path}[{index}]", depth + 1))
    return None


def _type_name(value: Any) -> str:
    kind = type(value)
    if kind.__module__ == "builtins":
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"
