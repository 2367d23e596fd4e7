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
  key of the tool's own (``{"city": "Oslo"}``) is no wrapper.

``readings`` gives the texts one result may stand for; ``same_json`` says
whether two texts are the same JSON value.
"""

from __future__ import annotations

from toolwire.conformance.readings.conventions import json_value, output_envelope, strip_error_mark
from toolwire.conformance.readings.json_values import json_equal


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
