"""Tool calls that the output limit cut off in the middle of their arguments.

A response that stops because it reached ``max_tokens`` (openai-chat
``length``) while the model was writing a call ends with arguments that are
not JSON. Anthropic documents this case ("Handling stop reasons": a
``max_tokens`` stop with an incomplete ``tool_use`` block; the client retries
with a higher limit). A converter cannot complete such arguments without
guessing and must not drop the call: it passes the text on as it came, beside
the same stop reason, so the client sees the same cut-off call. Broken
arguments anywhere else (a request, a response that ended normally) are still
refused.
"""

from __future__ import annotations

from toolwire.harness.model import StopReason, ToolCall


def is_cut_off(stop_reason: StopReason | None) -> bool:
    """The codecs read every "output limit reached" reason (anthropic
    ``max_tokens``, openai ``length``, DeepSeek ``insufficient_system_resource``)
    as the canonical ``max_tokens``."""
    return stop_reason is not None and stop_reason.canonical == "max_tokens"


def cut_off_call(call: ToolCall, call_id: str | None) -> ToolCall | None:
    """The call with its unfinished arguments text kept, or ``None`` when its
    arguments parsed (nothing was cut off)."""
    if call.arguments_error is None:
        return None
    return ToolCall(
        id=call_id,
        name=call.name,
        arguments=None,
        raw_arguments=call.raw_arguments or "",
        arguments_error=call.arguments_error,
    )
