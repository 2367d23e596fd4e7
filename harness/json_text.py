"""Parsing JSON that came from outside (a case file, a cassette, a payload,
an answer): every way it can be refused is a ``json.JSONDecodeError``.

``json.loads`` refuses text in three ways, and callers catch only the first:
``JSONDecodeError`` for bad syntax, ``RecursionError`` for nesting past the
interpreter's stack, and a bare ``ValueError`` for an integer of more than
``sys.get_int_max_str_digits()`` digits (4,300 by default: Python's guard
against the quadratic cost of converting it). Here the last two become a
``JSONDecodeError`` too, with a message that says what was wrong, so every
``except json.JSONDecodeError`` in toolwire reports them as one line.

No JSON value toolwire judges is legitimately an integer that long (no API
takes one), so refusing it is the right reading, not a limit to work around.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

_LONG_DIGITS = re.compile(r"-?\d+")


def loads(text: str | bytes | bytearray, **options: Any) -> Any:
    """``json.loads``, refusing deep nesting and huge integers as JSONDecodeError."""
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(
            "nested deeper than toolwire can read", _as_text(text), 0
        ) from None
    except ValueError as error:
        if not is_digit_limit_error(error):
            raise
        document = _as_text(text)
        raise json.JSONDecodeError(
            f"an integer has more than {digit_limit():,} digits, more than any API takes",
            document,
            _long_integer_at(document),
        ) from None


def is_digit_limit_error(error: BaseException) -> bool:
    """Whether ``error`` is Python's refusal to convert a very long integer."""
    return isinstance(error, ValueError) and "integer string conversion" in str(error)


def digit_limit() -> int:
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    return limit or 4300


def _as_text(text: str | bytes | bytearray) -> str:
    return text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")


def _long_integer_at(document: str) -> int:
    """Where the first over-long run of digits starts (for the error's line and column)."""
    limit = digit_limit()
    for match in _LONG_DIGITS.finditer(document):
        if len(match.group()) > limit:
            return match.start()
    return 0
