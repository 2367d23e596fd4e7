"""``tool_calls[]`` entries: ``{id, type:"function", function:{name, arguments}}``.

``function.arguments`` is a JSON *string* on the wire. Parsing keeps that text
in ``raw_arguments`` and its decoded value in ``arguments``. Fields the model
does not name stay in ``ToolCall.extra`` (the entry's own fields, ``type``
included, at the top; the ``function`` object's under ``extra["function"]``),
so a parsed call renders back exactly.

Reference: https://platform.openai.com/docs/api-reference/chat/object
(choices[].message.tool_calls).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    decode_arguments,
    encode_arguments,
    merge_missing,
    require_object,
    take_str,
    type_name,
    unnamed,
)
from toolwire.harness.model import ToolCall

_CALL_HINT = 'a tool call looks like {"id": "...", "type": "function", "function": {...}}'
_FUNCTION_HINT = 'function looks like {"name": "...", "arguments": "<JSON text>"}'
_CALL_NAMED = frozenset(("id", "function"))
# (the function.arguments text to write, whether it is the wire form)
WireArguments = tuple[str | None, bool]
_FUNCTION_NAMED = frozenset(("name", "arguments"))


def parse_tool_call(entry: Any, path: str) -> ToolCall:
    function = entry.get("function") if isinstance(entry, dict) else None
    if not isinstance(function, dict):  # the path is only built for the error
        entry = require_object(entry, path, "a tool call", _CALL_HINT)
        function = require_object(
            entry.get("function"), at(path, "function"), "a tool call's function", _FUNCTION_HINT
        )
    extra = unnamed(entry, _CALL_NAMED)
    function_extra = unnamed(function, _FUNCTION_NAMED)
    call_id = take_str(entry, "id", extra)
    name = take_str(function, "name", function_extra)
    raw: str | None = None
    error: str | None = None
    if "arguments" not in function:
        arguments, error = None, "function.arguments is missing"
    elif isinstance(function["arguments"], str):
        raw = function["arguments"]
        arguments, error = decode_arguments(raw)
    else:
        # A converter bug: arguments sent as an object instead of JSON text.
        # Keep the value for the rules and the wire value for rendering.
        arguments = function["arguments"]
        error = f"function.arguments is {type_name(arguments)}, not a JSON string"
        function_extra["arguments"] = arguments
    if function_extra:
        extra["function"] = function_extra
    return ToolCall(
        id=call_id,
        name=name,
        arguments=arguments,
        raw_arguments=raw,
        arguments_error=error,
        extra=extra,
    )


def _same_json(left: Any, right: Any) -> bool:
    # Compare as JSON text: in Python True == 1 and 1 == 1.0, in JSON they differ.
    try:
        return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)
    except (TypeError, ValueError):
        return False


def wire_arguments(call: ToolCall) -> WireArguments:
    """(the ``function.arguments`` text to write, whether it is the wire form).

    The raw text is written when the call was read from this dialect: it is
    broken JSON (``arguments_error``), or it still decodes to ``arguments``.
    Otherwise (a call built by code, or raw text from another dialect such as
    Qwen XML markup) the natural JSON encoding of ``arguments`` is written.
    ``None`` means no text: the wire value was missing or not a string, and
    ``extra["function"]`` carries it.
    """
    raw = call.raw_arguments
    if raw is not None:
        if call.arguments_error is not None:
            return raw, True
        value, error = decode_arguments(raw)
        if error is None and _same_json(value, call.arguments):
            return raw, True
        return encode_arguments(call.arguments), False
    if call.arguments_error is not None:
        return None, True
    return encode_arguments(call.arguments), False


def render_tool_call(call: ToolCall, wire: WireArguments | None = None) -> dict[str, Any]:
    """``wire``: ``wire_arguments(call)`` when the caller has it already."""
    arguments, from_wire = wire_arguments(call) if wire is None else wire
    function: dict[str, Any] = {}
    if call.name is not None:
        function["name"] = call.name
    if arguments is not None:
        function["arguments"] = arguments
    function_extra = call.extra.get("function")
    if isinstance(function_extra, Mapping):
        merge_missing(function, function_extra)
    entry: dict[str, Any] = {}
    if call.id is not None:
        entry["id"] = call.id
    if not from_wire and "type" not in call.extra:
        entry["type"] = "function"
    merge_missing(entry, {k: v for k, v in call.extra.items() if k != "function"})
    entry["function"] = function
    return entry
