"""The Response object (``object: "response"``) <-> ``Response``.

``output`` (the items the model produced) becomes the one choice's assistant
turn (``items.py``). The Responses API has no finish reason: the stop reason
is read from ``status`` and ``incomplete_details.reason``:

* ``completed`` -> ``tool_use`` when the output holds a ``function_call``,
  else ``end_turn``;
* ``incomplete`` with reason ``max_output_tokens`` -> ``max_tokens`` (a
  call cut off there keeps what was streamed, as in openai-chat), with
  ``content_filter`` -> ``content_filter``;
* anything else (``failed``, ``in_progress``, ``cancelled``...) -> ``unknown``.

``StopReason.raw`` is the incomplete reason when there is one, else the
status. ``status`` and ``incomplete_details`` themselves stay in
``Response.extra`` with every other field (``object``, ``created_at``, the
echoed ``tools``, ``instructions``, ``reasoning``...). ``usage``
(``input_tokens``, ``output_tokens``, their details, ``total_tokens``) is kept
whole as ``Usage.raw``.

A response built by code gets the natural ``status`` for its stop reason,
``object: "response"``, and ids for its output items (``msg_<n>``,
``fc_<n>``, ``rs_<n>``, ``n`` its position) because the Response object's
items always carry one.

Reference: https://platform.openai.com/docs/api-reference/responses/object
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    int_or_none,
    merge_missing,
    require_object,
    take_str,
    unnamed,
)
from toolwire.harness.dialects.openai_responses.items import parse_items
from toolwire.harness.dialects.openai_responses.render_items import render_turns
from toolwire.harness.dialects.partial_json import cut_off_value
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    OPENAI_RESPONSES,
    CanonicalStop,
    Choice,
    Response,
    StopReason,
    ToolCall,
    Turn,
    Usage,
)

_NAMED = frozenset(("id", "model", "output", "usage"))


def stop_reason(payload: Mapping[str, Any], has_calls: bool) -> StopReason:
    status = payload.get("status")
    details = payload.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    canonical: CanonicalStop = "unknown"
    if status == "completed":
        canonical = "tool_use" if has_calls else "end_turn"
    elif status == "incomplete" and reason == "max_output_tokens":
        canonical = "max_tokens"
    elif status == "incomplete" and reason == "content_filter":
        canonical = "content_filter"
    raw = reason if status == "incomplete" and isinstance(reason, str) else status
    return StopReason(raw=raw if isinstance(raw, str) else None, canonical=canonical)


def natural_status(stop: StopReason) -> tuple[str, dict[str, str] | None]:
    """(``status``, ``incomplete_details``) for a canonical stop reason."""
    if stop.canonical == "max_tokens":
        return "incomplete", {"reason": "max_output_tokens"}
    if stop.canonical == "content_filter":
        return "incomplete", {"reason": "content_filter"}
    if stop.canonical == "unknown" and stop.raw in ("failed", "in_progress", "cancelled"):
        return stop.raw, None
    return "completed", None


def parse_usage(usage: Mapping[str, Any]) -> Usage:
    return Usage(
        input_tokens=int_or_none(usage.get("input_tokens")),
        output_tokens=int_or_none(usage.get("output_tokens")),
        raw=dict(usage),
    )


def render_usage(usage: Usage) -> dict[str, Any]:
    raw = usage.raw
    if (
        raw
        and int_or_none(raw.get("input_tokens")) == usage.input_tokens
        and int_or_none(raw.get("output_tokens")) == usage.output_tokens
        and "prompt_tokens" not in raw
    ):
        return dict(raw)
    natural: dict[str, Any] = {
        "input_tokens": usage.input_tokens or 0,
        "output_tokens": usage.output_tokens or 0,
    }
    natural["total_tokens"] = natural["input_tokens"] + natural["output_tokens"]
    return natural


def parse_response(payload: Any) -> Response:
    payload = require_object(payload, "", "a response body", "pass the decoded JSON body")
    if "output" not in payload:
        error = payload.get("error")
        if isinstance(error, dict) and "object" not in payload:
            message = error.get("message")
            detail = f": {message}" if isinstance(message, str) else ""
            raise WireFormatError(
                "error",
                f"this is an API error body, not a Response object{detail}",
                "only successful (HTTP 200) responses can be parsed",
            )
        raise WireFormatError("output", "a Response object needs an output array")
    extra = unnamed(payload, _NAMED)
    turns = parse_items(payload["output"], "output", output=True)
    message = turns[0] if turns else Turn("assistant", (), "blocks", {"_items": ()})
    usage: Usage | None = None
    if isinstance(payload.get("usage"), dict):
        usage = parse_usage(payload["usage"])
    elif "usage" in payload:
        extra["usage"] = payload["usage"]
    has_calls = any(isinstance(b, ToolCall) for b in message.blocks)
    stop = stop_reason(payload, has_calls)
    if stop.canonical == "max_tokens":
        message = replace(message, blocks=tuple(_kept_if_cut(b) for b in message.blocks))
    return Response(
        dialect=OPENAI_RESPONSES,
        choices=(Choice(index=0, message=message, stop_reason=stop),),
        id=take_str(payload, "id", extra),
        model=take_str(payload, "model", extra),
        usage=usage,
        extra=extra,
    )


def _kept_if_cut(block: Any) -> Any:
    """A call whose arguments the output limit cut off, read as the SDKs keep
    it (harness/dialects/partial_json.py), as openai-chat reads one beside
    ``length``."""
    if (
        not isinstance(block, ToolCall)
        or block.arguments_error is None
        or block.raw_arguments is None
    ):
        return block
    cut, value = cut_off_value(block.raw_arguments)
    return replace(block, arguments=value, arguments_error=None) if cut else block


def render_response(response: Response) -> dict[str, Any]:
    if len(response.choices) != 1:
        raise WireFormatError(
            "choices",
            f"a Response object carries one output, not {len(response.choices)} choices",
            "convert a response with exactly one choice",
        )
    choice = response.choices[0]
    body: dict[str, Any] = {}
    if response.id is not None:
        body["id"] = response.id
    if not response.extra:
        body["object"] = "response"
    has_calls = bool(choice.message.tool_calls)
    recorded = stop_reason(response.extra, has_calls)
    if recorded.canonical != choice.stop_reason.canonical or "status" not in response.extra:
        status, details = natural_status(choice.stop_reason)
        body["status"] = status
        body["incomplete_details"] = details
    if response.model is not None:
        body["model"] = response.model
    output = render_turns((choice.message,), "output", response=True)
    body["output"] = output
    if response.usage is not None:
        body["usage"] = render_usage(response.usage)
    return merge_missing(body, response.extra)
