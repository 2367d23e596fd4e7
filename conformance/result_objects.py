"""Tool results that travel as JSON objects (gemini): what text they stand for.

Gemini carries a result as a ``functionResponse.response`` object, which the
codec reads as one text (harness/dialects/gemini/results.py: ``output`` and
``error`` unwrapped, any other object as its compact JSON). Converters put
text into that object in other documented ways, and toolwire judges meaning,
not form:

* a result whose text is a JSON object is sent as that object
  (LiteLLM, the reference): its compact JSON differs from the source text
  only by whitespace and key spelling of the same JSON value;
* text that is not JSON is wrapped under one key: ``output`` (the
  FunctionResponse reference), ``result`` (Google's function-calling guide,
  ``response={"result": result}``), ``content`` (LiteLLM), ``return_value``;
  "if 'output' and 'error' keys are not specified, then whole 'response' is
  treated as function output" (https://ai.google.dev/api/caching#FunctionResponse),
  so the model reads the text under its key.

``readings`` gives the texts one result may stand for; ``same_json`` says
whether two texts are the same JSON value.
"""

from __future__ import annotations

import json
from typing import Any

from toolwire.conformance.conventions import strip_error_mark


def _json(text: str) -> tuple[bool, Any]:
    if text.lstrip()[:1] not in ("{", "["):
        return False, None
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def readings(text: str) -> tuple[str, ...]:
    """``text``, and the string inside it when it is a one-key JSON object
    whose value is a string (its error marker stripped, as result texts are)."""
    parsed, value = _json(text)
    if parsed and isinstance(value, dict) and len(value) == 1:
        (inner,) = value.values()
        if isinstance(inner, str):
            return (text, strip_error_mark(inner))
    return (text,)


def said_inside(text: str) -> str | None:
    """The string a one-key JSON object wraps, else None."""
    found = readings(text)
    if len(found) < 2:
        return None
    parsed, value = _json(text)
    return next(iter(value.values())) if parsed else None


def same_json(left: str, right: str) -> bool:
    """Whether both texts are JSON objects or arrays holding the same value
    (numbers compared as JSON writes them: 1 and 1.0 differ)."""
    left_ok, left_value = _json(left)
    right_ok, right_value = _json(right)
    if not (left_ok and right_ok):
        return False
    return _canonical(left_value) == _canonical(right_value)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
