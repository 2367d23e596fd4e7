"""Response bodies (a ``message`` object) <-> ``Response``.

``{id, type: "message", role, content[], model, stop_reason, stop_sequence,
usage, ...}`` becomes one ``Choice`` (index 0). Named: ``id``, ``model``,
``role``, ``content``, ``stop_reason``, ``usage``; every other key
(``type``, ``stop_sequence``, ``stop_details``, ``container``, ...) goes to
``Response.extra``. See https://platform.claude.com/docs/en/api/messages and
https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.dialects.anthropic_messages._shape import (
    describe,
    expect_object,
    optional_str,
    put,
    required_str,
    split_extra,
)
from toolwire.harness.dialects.anthropic_messages.blocks import content_of, render_content
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    CanonicalStop,
    Choice,
    Response,
    StopReason,
    Turn,
    Usage,
)

# Documented stop reasons. `model_context_window_exceeded` means the output
# was truncated by the context window, the same outcome as `max_tokens` for a
# converter (openai-chat `length`), so it maps there.
STOP_REASONS: dict[str, CanonicalStop] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "pause_turn": "pause_turn",
    "refusal": "refusal",
    "model_context_window_exceeded": "max_tokens",
}

# The wire value written for a canonical stop reason that came from another
# dialect. content_filter has no Anthropic twin; refusal is the closest.
_WIRE_STOP: dict[CanonicalStop, str] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "pause_turn": "pause_turn",
    "refusal": "refusal",
    "content_filter": "refusal",
}

_NAMED = frozenset(("id", "model", "role", "content", "stop_reason", "usage"))


def stop_reason_of(raw: str | None) -> StopReason:
    return StopReason(raw=raw, canonical=STOP_REASONS.get(raw or "", "unknown"))


def parse_response(payload: Any) -> Response:
    body = expect_object(payload, "", "a response body")
    if body.get("type") == "error":
        raise WireFormatError("", _error_summary(body), hint="only a successful message parses")
    role = required_str(body, "role", "", "a response message")
    blocks, form = content_of(body, "content", "")
    usage_value = body.get("usage")
    extra = split_extra(body, _NAMED)
    extra.pop("content", None)
    return Response(
        dialect=ANTHROPIC_MESSAGES,
        choices=(
            Choice(
                index=0,
                message=Turn(role=role, blocks=blocks, content_form=form),
                stop_reason=stop_reason_of(optional_str(body, "stop_reason", "")),
            ),
        ),
        id=optional_str(body, "id", ""),
        model=optional_str(body, "model", ""),
        usage=None if usage_value is None else parse_usage(usage_value, "usage"),
        extra=extra,
    )


def _error_summary(body: Mapping[str, Any]) -> str:
    error = body.get("error")
    if isinstance(error, Mapping):
        kind = error.get("type", "unknown_error")
        message = error.get("message", "")
        return f"the payload is an Anthropic error response ({kind}: {message})"
    return "the payload is an Anthropic error response"


def parse_usage(value: Any, path: str) -> Usage:
    usage = expect_object(value, path, "`usage`")
    return Usage(
        input_tokens=_token_count(usage, "input_tokens", path),
        output_tokens=_token_count(usage, "output_tokens", path),
        raw=dict(usage),
    )


def _token_count(usage: Mapping[str, Any], key: str, path: str) -> int | None:
    value = usage.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise WireFormatError(
        f"{path}.{key}", f"`{key}` must be an integer, got {describe(value)}", hint=None
    )


def render_usage(usage: Usage) -> dict[str, Any]:
    out = dict(usage.raw)
    put(out, "input_tokens", usage.input_tokens)
    put(out, "output_tokens", usage.output_tokens)
    return out


def render_stop_reason(stop: StopReason) -> str | None:
    """The raw value when it is this dialect's (or unknown to the model);
    otherwise the Anthropic name of the canonical reason."""
    if stop.raw is not None and (stop.raw in STOP_REASONS or stop.canonical == "unknown"):
        return stop.raw
    return _WIRE_STOP.get(stop.canonical)


def render_response(response: Response) -> dict[str, Any]:
    choice = response.choices[0]
    out: dict[str, Any] = {}
    put(out, "id", response.id)
    if not response.extra:
        # Built by code: write the envelope a real message always carries.
        out["type"] = "message"
    out["role"] = choice.message.role
    put(out, "model", response.model)
    present, content = render_content(choice.message.blocks, choice.message.content_form)
    if present:
        out["content"] = content
    put(out, "stop_reason", render_stop_reason(choice.stop_reason))
    if not response.extra:
        out["stop_sequence"] = None
    if response.usage is not None:
        out["usage"] = render_usage(response.usage)
    for key, value in response.extra.items():
        if key not in out:
            out[key] = value
    return out
