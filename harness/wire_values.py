"""Adapter payloads checked as plain JSON and copied: one serialisation, faster than deepcopy.

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
from collections.abc import Callable
from dataclasses import dataclass
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
    """Private copies of the payloads given to an adapter.

    A source payload is given to the adapter once per direction (and to
    ``id_mapping``), an output again on the way back: every call gets a fresh
    copy, made by ``marshal.loads`` from the value's ``marshal`` form, taken
    once: plain dicts, lists, strings and numbers, as parsing its JSON text
    would give, in less than half the time. The payloads given in are already
    plain JSON values (a case's, parsed from its cassette, or an output that
    ``copy_output`` checked), so they need no serialising; their size as JSON
    text, which only an output over ``MAX_OUTPUT_CHARS`` asks for, is measured
    when asked. Entries hold their value, so an id() cannot be reused while it
    is remembered; the values are the engine's own, which nothing changes.
    """

    def __init__(self) -> None:
        self._copies: dict[int, _Copied] = {}

    def copy(self, value: Any) -> Any:
        """A fresh private copy of ``value`` (already JSON)."""
        entry = self._entry(value)
        if entry.marshalled is None:
            entry.marshalled = _marshalled(value)
        return marshal.loads(entry.marshalled)

    def chars(self, value: Any) -> int:
        """The size of ``value`` (already JSON) in characters of compact JSON."""
        entry = self._entry(value)
        if entry.chars is None:
            entry.chars = len(wire_text(value))
        return entry.chars

    def copy_output(self, value: Any, input_chars: Callable[[], int] = lambda: 0) -> Any:
        """A checked, private copy of what an adapter returned (NotWireValue
        when it is not JSON), remembered for when it is given back as an input."""
        text = checked_output_text(value, input_chars)
        copied = json.loads(text)
        self._copies[id(copied)] = _Copied(copied, chars=len(text))
        return copied

    def _entry(self, value: Any) -> _Copied:
        entry = self._copies.get(id(value))
        if entry is None or entry.value is not value:
            entry = self._copies[id(value)] = _Copied(value)
        return entry


@dataclass
class _Copied:
    value: Any
    # Each made when first asked for: an output never given back needs neither.
    marshalled: bytes | None = None
    chars: int | None = None


def _marshalled(value: Any) -> bytes:
    try:
        return marshal.dumps(value)
    except ValueError:  # not plain data after all: copy it the way JSON would
        return marshal.dumps(json.loads(wire_text(value)))


def checked_output_text(value: Any, input_chars: Callable[[], int] = lambda: 0) -> str:
    """What an adapter returned as compact JSON text, or NotWireValue saying why
    not. ``input_chars`` (the input's size) is asked only of a very large output."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as error:
        # Serialising is the fast check; only a failure pays for finding the path.
        raise NotWireValue(_first_offence(value) or f"it is not JSON: {error}") from None
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    limit = max(MAX_OUTPUT_CHARS, INPUT_FACTOR * input_chars())
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
        # 14,000 bits is about 4,200 digits: only then can Python refuse to write it.
        if type(item) is int and item.bit_length() > 14_000 and not _writable(item):
            return path, "is an integer of more than 4,300 digits, more than any API takes"
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


def _writable(number: int) -> bool:
    """Whether Python writes ``number`` out (its int/str digit limit)."""
    try:
        str(number)
    except ValueError:
        return False
    return True
