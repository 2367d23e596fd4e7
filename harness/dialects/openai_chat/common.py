"""Shared helpers of the openai-chat codec: JSON paths, shape checks, field
splitting, stop reasons, usage and tool-call arguments.

Reference: https://platform.openai.com/docs/api-reference/chat/object
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import CanonicalStop, StopReason, Usage

# finish_reason values documented by OpenAI, mapped to the neutral stop reason.
# ``function_call`` is the deprecated predecessor of ``tool_calls``.
_CANONICAL_STOP: dict[str, CanonicalStop] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "content_filter",
}

# The finish_reason to write for a stop reason built by code. ``refusal``,
# ``pause_turn`` and ``unknown`` have no OpenAI equivalent: their raw value is kept.
_NATURAL_FINISH: dict[str, str] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "content_filter": "content_filter",
}


def at(path: str, key: str | int) -> str:
    """Extend a JSON path: ``at("messages", 3)`` -> ``messages[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def type_name(value: Any) -> str:
    """The JSON name of a Python value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def require_object(value: Any, path: str, what: str, hint: str | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise WireFormatError(path, f"{what} must be a JSON object, got {type_name(value)}", hint)
    return value


def require_list(value: Any, path: str, what: str, hint: str | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise WireFormatError(path, f"{what} must be a JSON array, got {type_name(value)}", hint)
    return value


def unnamed(obj: Mapping[str, Any], named: Iterable[str]) -> dict[str, Any]:
    """The fields of ``obj`` that the model does not name (they go to ``extra``)."""
    # The parsers pass constant frozensets: no set to build per object.
    skip = named if isinstance(named, frozenset) else frozenset(named)
    return {key: value for key, value in obj.items() if key not in skip}


def take_str(obj: Mapping[str, Any], key: str, extra: dict[str, Any]) -> str | None:
    """A string field for the model. Any other present value (null, a number)
    is kept verbatim in ``extra`` so that rendering returns it unchanged."""
    if key not in obj:
        return None
    value = obj[key]
    if isinstance(value, str):
        return value
    extra[key] = value
    return None


def take_bool(obj: Mapping[str, Any], key: str, extra: dict[str, Any]) -> bool | None:
    """Like ``take_str`` for a boolean field."""
    if key not in obj:
        return None
    value = obj[key]
    if isinstance(value, bool):
        return value
    extra[key] = value
    return None


def merge_missing(target: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """Add ``extra`` fields to ``target`` without overriding named fields."""
    for key, value in extra.items():
        target.setdefault(key, value)
    return target


def int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- stop reasons -----------------------------------------------------------


def canonical_stop(raw: str | None) -> CanonicalStop:
    if raw is None:
        return "unknown"
    return _CANONICAL_STOP.get(raw, "unknown")


def parse_finish_reason(raw: str | None) -> StopReason:
    return StopReason(raw=raw, canonical=canonical_stop(raw))


def render_finish_reason(stop: StopReason) -> str | None:
    """``raw`` when it is an OpenAI value that still means ``canonical``
    (always true for a parsed stop reason); otherwise the natural value."""
    if canonical_stop(stop.raw) == stop.canonical:
        return stop.raw
    return _NATURAL_FINISH.get(stop.canonical, stop.raw)


# --- usage ------------------------------------------------------------------


def parse_usage(usage: Mapping[str, Any]) -> Usage:
    return Usage(
        input_tokens=int_or_none(usage.get("prompt_tokens")),
        output_tokens=int_or_none(usage.get("completion_tokens")),
        raw=dict(usage),
    )


def render_usage(usage: Usage) -> dict[str, Any]:
    """``raw`` when it is an OpenAI usage object that agrees with the counts
    (always true for a parsed one); otherwise the natural three counters.
    The check keeps another dialect's raw usage out of an OpenAI payload."""
    raw = usage.raw
    if (
        raw
        and int_or_none(raw.get("prompt_tokens")) == usage.input_tokens
        and int_or_none(raw.get("completion_tokens")) == usage.output_tokens
    ):
        return dict(raw)
    natural: dict[str, Any] = {}
    if usage.input_tokens is not None:
        natural["prompt_tokens"] = usage.input_tokens
    if usage.output_tokens is not None:
        natural["completion_tokens"] = usage.output_tokens
    if usage.input_tokens is not None and usage.output_tokens is not None:
        natural["total_tokens"] = usage.input_tokens + usage.output_tokens
    return natural


# --- tool-call arguments ----------------------------------------------------


def _reject_constant(name: str) -> Any:
    # Python's json accepts NaN and Infinity; JSON does not.
    raise ValueError(f"{name} is not a JSON value")


# What json.loads(text, parse_constant=...) builds on every call, built once.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def decode_arguments(text: str) -> tuple[Any, str | None]:
    """``function.arguments`` text -> (value, error). A value that decodes to
    a string (double encoding) is returned as that string: rules judge it."""
    if text.strip() == "":
        return None, "arguments are an empty string, not JSON"
    try:
        if type(text) is not str or text.startswith("\ufeff"):  # json.loads's own checks
            return json.loads(text, parse_constant=_reject_constant), None
        return _DECODER.decode(text), None
    except json.JSONDecodeError as exc:
        return None, f"arguments are not valid JSON: {exc.msg} at char {exc.pos}"
    except ValueError as exc:
        return None, f"arguments are not valid JSON: {exc}"


def encode_arguments(arguments: Any) -> str:
    """The natural ``function.arguments`` text for a parsed value."""
    return json.dumps(arguments, ensure_ascii=False)
