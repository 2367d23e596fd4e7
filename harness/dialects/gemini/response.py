"""``GenerateContentResponse`` <-> ``Response``.

``{candidates: [{content: {role, parts}, finishReason, index, safetyRatings,
...}], usageMetadata, modelVersion, responseId, promptFeedback}``: each
candidate is a ``Choice`` (its keys other than ``content`` and
``finishReason`` in ``Choice.extra``, ``index`` included since proto3 JSON
leaves out a zero index); ``responseId`` is ``Response.id``,
``modelVersion`` ``Response.model``; the rest is ``Response.extra``.
A candidate without ``content`` (a blocked or empty answer) is a turn with
``content_form="absent"``; a ``content`` without ``parts`` is ``"null"``.
See https://ai.google.dev/api/generate-content#generatecontentresponse.

Finish reasons (https://ai.google.dev/api/generate-content#FinishReason):
Gemini ends a turn that calls functions with ``STOP`` too, so ``STOP`` on a
candidate holding ``functionCall`` parts reads as ``tool_use``; stop
sequences also end with ``STOP``. Usage: ``promptTokenCount`` is
``input_tokens``; ``output_tokens`` is ``candidatesTokenCount`` plus
``thoughtsTokenCount`` (both billed as output, as OpenAI's
``completion_tokens`` counts reasoning tokens).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.dialects.gemini._shape import describe, expect_list, expect_object, join, put
from toolwire.harness.dialects.gemini.field_names import camel_case_fields
from toolwire.harness.dialects.gemini.parts import ROLE_TO_WIRE, parse_content, render_content
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    GEMINI,
    CanonicalStop,
    Choice,
    Response,
    StopReason,
    Turn,
    Usage,
)

FINISH_REASONS: dict[str, CanonicalStop] = {
    "STOP": "end_turn",
    "MAX_TOKENS": "max_tokens",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "IMAGE_RECITATION": "content_filter",
    "LANGUAGE": "unknown",
    "OTHER": "unknown",
    "MALFORMED_FUNCTION_CALL": "unknown",
    "UNEXPECTED_TOOL_CALL": "unknown",
    "TOO_MANY_TOOL_CALLS": "unknown",
    "MISSING_THOUGHT_SIGNATURE": "unknown",
    "FINISH_REASON_UNSPECIFIED": "unknown",
}
# The wire value for a canonical reason from another dialect. Gemini has no
# "tool use" or "stop sequence" reason: both end with STOP.
_WIRE_FINISH: dict[CanonicalStop, str] = {
    "end_turn": "STOP",
    "tool_use": "STOP",
    "stop_sequence": "STOP",
    "max_tokens": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "SAFETY",
    "pause_turn": "OTHER",
}
_CANDIDATE_NAMED = frozenset(("content", "finishReason"))
_NAMED = frozenset(("candidates", "usageMetadata", "modelVersion", "responseId"))


def finish_reason_of(raw: str | None, has_calls: bool) -> StopReason:
    canonical = FINISH_REASONS.get(raw or "", "unknown")
    if raw == "STOP" and has_calls:
        canonical = "tool_use"
    return StopReason(raw=raw, canonical=canonical)


def parse_response(payload: Any) -> Response:
    # Proto field names in snake_case (finish_reason, usage_metadata,
    # function_call) mean their lowerCamelCase twins, as in requests.
    body = camel_case_fields(expect_object(payload, "", "a response body"))
    if "error" in body and "candidates" not in body:
        error = body["error"]
        detail = error.get("message", "") if isinstance(error, Mapping) else ""
        raise WireFormatError(
            "",
            f"the payload is a Gemini error response ({detail})".replace(" ()", ""),
            hint="only a successful GenerateContentResponse parses",
        )
    if not body.get("candidates"):
        feedback = body.get("promptFeedback")
        reason = feedback.get("blockReason") if isinstance(feedback, Mapping) else None
        raise WireFormatError(
            "candidates",
            "the response has no candidates"
            + (f" (the prompt was blocked: {reason})" if reason else ""),
            hint="a GenerateContentResponse that answers carries at least one candidate",
        )
    candidates = expect_list(body.get("candidates", []), "candidates", "`candidates`")
    usage = body.get("usageMetadata")
    extra = {k: v for k, v in body.items() if k not in _NAMED}
    if "candidates" not in body:
        extra["candidates"] = None  # remembered as absent: a blocked prompt has none
    model, response_id = body.get("modelVersion"), body.get("responseId")
    for key, value in (("modelVersion", model), ("responseId", response_id)):
        if value is not None and not isinstance(value, str):
            raise WireFormatError(key, f"`{key}` must be a string, got {describe(value)}")
    return Response(
        dialect=GEMINI,
        choices=tuple(
            _parse_candidate(c, position, join("candidates", position))
            for position, c in enumerate(candidates)
        ),
        id=response_id,
        model=model,
        usage=None if usage is None else parse_usage(usage, "usageMetadata"),
        extra=extra,
    )


def _parse_candidate(raw: Any, position: int, path: str) -> Choice:
    candidate = expect_object(raw, path, "a candidate")
    index = candidate.get("index", position)
    if not isinstance(index, int) or isinstance(index, bool):
        raise WireFormatError(join(path, "index"), "`index` must be an integer")
    if "content" in candidate:
        message = parse_content(candidate["content"], join(path, "content"))
        if message.content_form == "absent":
            message = Turn(role=message.role, blocks=(), content_form="null", extra=message.extra)
    else:
        message = Turn(role="assistant", blocks=(), content_form="absent")
    finish = candidate.get("finishReason")
    if finish is not None and not isinstance(finish, str):
        raise WireFormatError(join(path, "finishReason"), "`finishReason` must be a string")
    return Choice(
        index=index,
        message=message,
        stop_reason=finish_reason_of(finish, bool(message.tool_calls)),
        extra={k: v for k, v in candidate.items() if k not in _CANDIDATE_NAMED},
    )


def _count(usage: Mapping[str, Any], key: str) -> int | None:
    value = usage.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise WireFormatError(f"usageMetadata.{key}", f"`{key}` must be an integer")


def parse_usage(value: Any, path: str) -> Usage:
    usage = expect_object(value, path, "`usageMetadata`")
    candidates, thoughts = (
        _count(usage, "candidatesTokenCount"),
        _count(usage, "thoughtsTokenCount"),
    )
    output = (
        None if candidates is None and thoughts is None else (candidates or 0) + (thoughts or 0)
    )
    return Usage(
        input_tokens=_count(usage, "promptTokenCount"), output_tokens=output, raw=dict(usage)
    )


def render_usage(usage: Usage) -> dict[str, Any]:
    if usage.raw and parse_usage(usage.raw, "usageMetadata") == Usage(
        usage.input_tokens, usage.output_tokens, usage.raw
    ):
        return dict(usage.raw)
    out: dict[str, Any] = {}
    put(out, "promptTokenCount", usage.input_tokens)
    put(out, "candidatesTokenCount", usage.output_tokens)
    if usage.input_tokens is not None or usage.output_tokens is not None:
        out["totalTokenCount"] = (usage.input_tokens or 0) + (usage.output_tokens or 0)
    return out


def render_finish_reason(stop: StopReason) -> str | None:
    if stop.raw is not None and (stop.raw in FINISH_REASONS or stop.canonical == "unknown"):
        return stop.raw
    return _WIRE_FINISH.get(stop.canonical)


def render_candidate(choice: Choice) -> dict[str, Any]:
    out: dict[str, Any] = {}
    message = choice.message
    if message.content_form != "absent" or message.blocks:
        content = render_content(message)
        if message.content_form == "null" and not message.blocks:
            content.pop("parts", None)
        out["content"] = content
    put(out, "finishReason", render_finish_reason(choice.stop_reason))
    if choice.extra:
        for key, value in choice.extra.items():
            out.setdefault(key, value)
    elif choice.index:
        out["index"] = choice.index
    return out


def render_response(response: Response) -> dict[str, Any]:
    extra = dict(response.extra)
    out: dict[str, Any] = {}
    if not (extra.get("candidates", ...) is None and not response.choices):
        out["candidates"] = [render_candidate(c) for c in response.choices]
    extra.pop("candidates", None)
    if response.usage is not None:
        out["usageMetadata"] = render_usage(response.usage)
    put(out, "modelVersion", response.model)
    put(out, "responseId", response.id)
    for key, value in extra.items():
        out.setdefault(key, value)
    return out


__all__ = ["ROLE_TO_WIRE", "finish_reason_of", "parse_response", "render_response"]
