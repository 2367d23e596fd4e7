"""Stop reasons between anthropic-messages and the Chat Completions dialects.

| anthropic ``stop_reason`` | openai/deepseek ``finish_reason`` |
|---|---|
| ``end_turn``, ``stop_sequence`` | ``stop`` |
| ``tool_use`` | ``tool_calls`` |
| ``max_tokens``, ``model_context_window_exceeded`` | ``length`` |
| ``refusal`` | ``content_filter`` |
| ``pause_turn`` | ``stop`` (a server-tool turn that paused; Chat Completions has no pause) |

Back: ``stop`` -> ``end_turn`` (a stop sequence cannot be told from a natural
stop, and docs/conventions treats the pair as equivalent), ``tool_calls`` and
the deprecated ``function_call`` -> ``tool_use``, ``length`` -> ``max_tokens``,
``content_filter`` -> ``refusal``, DeepSeek's ``insufficient_system_resource``
(the output was cut off) -> ``max_tokens``. A ``stop`` whose message carries
tool calls (OpenAI answers a named ``tool_choice`` that way, as recorded in
https://github.com/vllm-project/vllm/pull/25054; servers without a tool
parser do it always) becomes ``tool_use``: an Anthropic client runs tools
only then.

References: https://platform.openai.com/docs/api-reference/chat/object,
https://docs.anthropic.com/en/api/handling-stop-reasons,
https://api-docs.deepseek.com/api/create-chat-completion.
"""

from __future__ import annotations

from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.dialects.anthropic_messages.response import STOP_REASONS
from toolwire.harness.dialects.openai_chat.common import canonical_stop
from toolwire.harness.model import StopReason

ANTHROPIC_TO_OPENAI: dict[str, str] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "content_filter",
    "pause_turn": "stop",
}

OPENAI_TO_ANTHROPIC: dict[str, str] = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
    "insufficient_system_resource": "max_tokens",
}


def _unknown(raw: str | None, source: str, known: dict[str, str]) -> ConversionError:
    if raw is None:
        return ConversionError(
            f"the {source} message has no stop reason (a stream that was cut off?)",
            hint="only a finished message can be converted",
        )
    return ConversionError(
        f"cannot map the {source} stop reason {raw!r}",
        hint=f"known values: {', '.join(known)}",
    )


def to_openai_finish(stop: StopReason) -> StopReason:
    """The finish_reason for an anthropic-messages stop reason."""
    finish = ANTHROPIC_TO_OPENAI.get(stop.raw or "")
    if finish is None:
        raise _unknown(stop.raw, "anthropic-messages", ANTHROPIC_TO_OPENAI)
    return StopReason(raw=finish, canonical=canonical_stop(finish))


def to_anthropic_stop(stop: StopReason, has_calls: bool) -> StopReason:
    """The stop_reason for a Chat Completions finish_reason."""
    reason = OPENAI_TO_ANTHROPIC.get(stop.raw or "")
    if reason is None:
        raise _unknown(stop.raw, "chat-completions", OPENAI_TO_ANTHROPIC)
    if reason == "end_turn" and has_calls:
        reason = "tool_use"
    return StopReason(raw=reason, canonical=STOP_REASONS[reason])
