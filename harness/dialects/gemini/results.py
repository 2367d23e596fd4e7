"""How a Gemini ``functionResponse.response`` object reads as a tool result.

Gemini carries a function's result as a JSON object, where the other dialects
carry text. The FunctionResponse reference says: use the ``output`` key for
the function's output and ``error`` for error details; when neither is
given, the whole ``response`` is the output
(https://ai.google.dev/api/caching#FunctionResponse). The codec reads the
object into one ``TextBlock`` with these functions, so every rule compares
the same text whatever the dialect:

* ``{"output": "<text>"}`` reads as ``<text>``; ``{"error": "<text>"}`` as
  ``<text>`` with ``is_error`` true (``error`` without ``output``);
* ``{"result": value}`` reads as the value (``<text>``, or the compact JSON
  of any other value): the v1beta reference names "output", "result", etc.
  as the keys a caller may return the output under, and it is how
  google-genai's own automatic function calling (``_extra_utils``) and
  libraries on it (any-llm) wrap a function's return value;
* any other object (or a non-string ``output``/``error``) reads as its
  compact JSON text.

``response_object`` is the inverse used when a result is built from text:
text that is a JSON object is that object, anything else is wrapped in
``output`` (or ``error`` for a failed result).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

OUTPUT_KEY = "output"
ERROR_KEY = "error"
RESULT_KEY = "result"  # google-genai's wrapper of a return value


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def is_error_object(response: Any) -> bool | None:
    """``True`` when the object reports an error (``error`` and no ``output``);
    ``None`` when it says nothing about errors."""
    if isinstance(response, Mapping) and ERROR_KEY in response and OUTPUT_KEY not in response:
        return True
    return None


def result_text(response: Any) -> str:
    """The text a ``functionResponse.response`` value carries."""
    if isinstance(response, Mapping) and len(response) == 1:
        ((key, value),) = response.items()
        if key in (OUTPUT_KEY, ERROR_KEY, RESULT_KEY) and isinstance(value, str):
            return value
        if key == RESULT_KEY:
            return _compact(value)
    return _compact(response)


def response_object(text: str, is_error: bool | None) -> dict[str, Any]:
    """The ``response`` object for a result given as text."""
    if is_error:
        return {ERROR_KEY: text}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and result_text(value) == text:
        return value
    return {OUTPUT_KEY: text}
