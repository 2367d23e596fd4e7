"""Tool results that travel as JSON objects (gemini): what text they stand for.

Gemini carries a result as a ``functionResponse.response`` object, which the
codec reads as one text (harness/dialects/gemini/results.py: ``output`` and
``error`` unwrapped, any other object as its compact JSON). Converters put
text into that object in other documented ways, and toolwire judges meaning,
not form:

* a result whose text is a JSON object is sent as that object
  (LiteLLM, the reference): its compact JSON differs from the source text
  only by whitespace and key spelling of the same JSON value;
* text that is not JSON is wrapped under one of the output envelope's keys
  (``conventions.OUTPUT_ENVELOPE_KEYS``: ``output`` of the FunctionResponse
  reference, ``result``, ``content`` as LiteLLM writes, ``return_value``); a
  key of the tool's own (``{"city": "Oslo"}``) is no wrapper;
* text that *is* JSON (an array, a number, an object) is parsed and wrapped
  under one of those keys as the value it spells: ``{"output": [1, 2]}``
  for the text ``[1, 2]``, ``{"result": 42}`` for ``42``. The reference lets
  callers "use any keys of their choice" for the function's output
  (FunctionResponse.response, https://ai.google.dev/api/caching#FunctionResponse),
  so the model is given the same value. Read back, the whole object may
  arrive as its JSON text, or the value alone: the same value either way.
  ``error`` counts as an envelope key here too (the reference's key for a
  failure's details): a failure's JSON details wrapped under it are the same
  details, and whether the result is marked failed is fidelity.error_flag's.

``readings`` gives the texts one result may stand for; ``same_json`` says
whether two texts are the same JSON value; ``same_enveloped_value`` whether
one text is the other's JSON value under an envelope.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.conformance.readings.conventions import (
    OUTPUT_ENVELOPE_KEYS,
    json_value,
    output_envelope,
    strip_error_mark,
)
from toolwire.conformance.readings.json_values import json_equal

# Keys whose one non-string value is the result (module docstring).
_VALUE_ENVELOPE_KEYS = OUTPUT_ENVELOPE_KEYS | {"error"}


def readings(text: str) -> tuple[str, ...]:
    """``text``, and the string inside it when it is an output envelope
    (its error marker stripped, as result texts are)."""
    inner = output_envelope(text)
    return (text,) if inner is None else (text, strip_error_mark(inner))


def same_json(left: str, right: str) -> bool:
    """Whether both texts are JSON objects or arrays holding the same value
    (``json_equal``: booleans are not numbers, numbers compare by value)."""
    left_ok, left_value = json_value(left)
    right_ok, right_value = json_value(right)
    if not (left_ok and right_ok):
        return False
    return json_equal(left_value, right_value)


def enveloped_value(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is the JSON of an object with one
    envelope key whose value is not a string (``{"output": [1, 2]}``,
    ``{"result": 42}``), else ``(False, None)``. A string value is the text
    it holds, as ``readings`` reads it."""
    found, value = json_value(text)
    if found and isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in _VALUE_ENVELOPE_KEYS and not isinstance(inner, str):
            return True, inner
    return False, None


def any_json(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when the whole ``text`` is one JSON value of any
    type (``42``, ``true``, ``[1]``), else ``(False, None)``. ``NaN`` and
    ``Infinity`` are no JSON (RFC 8259)."""
    try:
        return True, json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return False, None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def same_enveloped_value(left: str, right: str) -> bool:
    """Whether one text is the other's JSON value under an envelope, or both
    envelopes hold the same value: ``[1, 2]`` and ``{"output":[1,2]}``,
    ``42`` and ``{"output":42}``, ``{"output":[1]}`` and ``{"result":[1]}``.
    Bare texts are not compared as values here: ``42`` and ``42.0`` are
    different texts wherever no envelope was written."""
    left_wrapped, left_inner = enveloped_value(left)
    right_wrapped, right_inner = enveloped_value(right)
    if not (left_wrapped or right_wrapped):
        return False
    if left_wrapped and right_wrapped:
        return json_equal(left_inner, right_inner)
    bare, inner = (right, left_inner) if left_wrapped else (left, right_inner)
    parsed, value = any_json(bare)
    return parsed and json_equal(value, inner)
