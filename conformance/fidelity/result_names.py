"""How a tool result is named in a finding, as fidelity.text and
fidelity.error_flag name it: by the call id it answers, or without an id
(Gemini, Qwen XML) by its tool's name.
"""

from __future__ import annotations

from toolwire.conformance.readings.views import ResultRef


def result_label(result: ResultRef) -> str:
    """A result named by the call id it answers; without an id (Gemini, Qwen
    XML) by its tool's name, never "the result for None"."""
    if result.result.call_id:
        return f"the result for {result.result.call_id!r}"
    if result.result.name:
        return f"the result of {result.result.name}"
    return "the result"
