"""Chat Completions response body (``chat.completion``) <-> ``Response``.

``choices[]`` become ``Choice`` s (``finish_reason`` -> ``StopReason``, other
fields such as ``logprobs`` -> ``Choice.extra``); ``usage`` becomes ``Usage``
with the whole object kept as ``raw``; other top-level fields
(``object``, ``created``, ``system_fingerprint``, ``service_tier``...) go to
``Response.extra``. An error body (``{"error": {...}}``) is not a response.

Reference: https://platform.openai.com/docs/api-reference/chat/object
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.openai_chat.common import (
    at,
    int_or_none,
    merge_missing,
    parse_finish_reason,
    parse_usage,
    render_finish_reason,
    render_usage,
    require_list,
    require_object,
    take_str,
    type_name,
    unnamed,
)
from toolwire.harness.dialects.openai_chat.messages import parse_message, render_message
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import Choice, Response, Usage

_NAMED = frozenset(("id", "model", "choices", "usage"))
_CHOICE_NAMED = frozenset(("index", "message", "finish_reason"))


def parse_response(payload: Any, dialect: str) -> Response:
    payload = require_object(payload, "", "a response body", "pass the decoded JSON body")
    if "choices" not in payload:
        raise _missing_choices(payload)
    choices = require_list(payload["choices"], "choices", "choices")
    extra = unnamed(payload, _NAMED)
    response_id = take_str(payload, "id", extra)
    model = take_str(payload, "model", extra)
    usage: Usage | None = None
    if isinstance(payload.get("usage"), dict):
        usage = parse_usage(payload["usage"])
    elif "usage" in payload:
        extra["usage"] = payload["usage"]
    return Response(
        dialect=dialect,
        choices=tuple(_parse_choice(c, at("choices", i)) for i, c in enumerate(choices)),
        id=response_id,
        model=model,
        usage=usage,
        extra=extra,
    )


def _missing_choices(payload: dict[str, Any]) -> WireFormatError:
    error = payload.get("error")
    if isinstance(error, dict):
        message = error.get("message")
        detail = f": {message}" if isinstance(message, str) else ""
        return WireFormatError(
            "error",
            f"this is an API error body, not a chat completion{detail}",
            "only successful (HTTP 200) responses can be parsed",
        )
    return WireFormatError("choices", "a chat completion needs a choices array")


def _parse_choice(choice: Any, path: str) -> Choice:
    choice = require_object(choice, path, "a choice")
    index = int_or_none(choice.get("index"))
    if index is None:
        raise WireFormatError(
            at(path, "index"),
            f"a choice needs an integer index, got {type_name(choice.get('index'))}",
        )
    if "finish_reason" not in choice:
        raise WireFormatError(
            at(path, "finish_reason"),
            "a choice needs a finish_reason (a string or null)",
        )
    finish = choice["finish_reason"]
    if finish is not None and not isinstance(finish, str):
        raise WireFormatError(
            at(path, "finish_reason"),
            f"finish_reason must be a string or null, got {type_name(finish)}",
        )
    return Choice(
        index=index,
        message=parse_message(choice.get("message"), at(path, "message")),
        stop_reason=parse_finish_reason(finish),
        extra=unnamed(choice, _CHOICE_NAMED),
    )


def render_response(response: Response) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if response.id is not None:
        body["id"] = response.id
    body["choices"] = [_render_choice(c, at("choices", i)) for i, c in enumerate(response.choices)]
    if response.model is not None:
        body["model"] = response.model
    if response.usage is not None:
        body["usage"] = render_usage(response.usage)
    return merge_missing(body, response.extra)


def _render_choice(choice: Choice, path: str) -> dict[str, Any]:
    rendered = {
        "index": choice.index,
        "message": render_message(choice.message, at(path, "message")),
        "finish_reason": render_finish_reason(choice.stop_reason),
    }
    return merge_missing(rendered, choice.extra)
