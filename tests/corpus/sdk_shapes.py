"""Cross-check the openai-responses and gemini cases with the providers' own SDK
types (openai-python's pydantic models and TypedDicts, google-genai's models).

Verification only: neither SDK is a project dependency, so the tests that use
this module skip when they are not installed (pip install openai google-genai).
Each function returns the problems it found, one line each; [] means the
payload has the provider's shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

# Request keys of a Gemini generateContent body (ai.google.dev/api/generate-content).
GEMINI_REQUEST_KEYS = {
    "contents": "contents",
    "tools": "tools",
    "toolConfig": "tool_config",
    "systemInstruction": "system_instruction",
    "generationConfig": "generation_config",
    "safetySettings": "safety_settings",
    "cachedContent": "cached_content",
}


# Token accounting is not the corpus's concern, and newer SDKs require usage
# fields that older (real) recordings lack (usage.input_tokens_details.
# cache_write_tokens, usageMetadata.serviceTier): errors there are ignored.
IGNORED_ROOTS = ("usage", "usageMetadata", "usage_metadata")
# Real fields the SDK does not define: stream obfuscation padding, and
# response-level sampling echoes.
KNOWN_EXTRAS = frozenset({"obfuscation", "store", "frequency_penalty", "presence_penalty"})


def _errors(error: ValidationError, where: str) -> list[str]:
    found = [e for e in error.errors() if not set(e["loc"][:2]) & set(IGNORED_ROOTS)]
    return [f"{where}: {e['loc']}: {e['msg']}" for e in found[:5]]


def _without_nulls(value: Any) -> Any:
    """JSON null for an optional field: the API reads it as absent (a recorded
    request with a function_call `status: null` was answered 200), the SDK's
    TypedDicts do not accept None there."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _extras(value: Any, path: str) -> Iterator[str]:
    """Fields an extra='allow' model kept without knowing them: a typo or a
    field the SDK does not define."""
    if isinstance(value, BaseModel):
        for key in value.model_extra or {}:
            if key not in KNOWN_EXTRAS:
                yield f"{path}.{key}: not a field of {type(value).__name__}"
        for name in type(value).model_fields:
            yield from _extras(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _extras(item, f"{path}[{index}]")


def responses_request(body: dict[str, Any]) -> list[str]:
    from openai.types.responses import response_create_params as params

    known = set(params.ResponseCreateParamsBase.__annotations__) | {"stream"}
    problems = [f"request.{key}: not a Responses request field" for key in body if key not in known]
    kind = (
        params.ResponseCreateParamsStreaming
        if body.get("stream")
        else params.ResponseCreateParamsNonStreaming
    )
    try:
        _adapter(kind).validate_python(_without_nulls(body))
    except ValidationError as error:
        problems += _errors(error, "request")
    return problems


def responses_response(body: dict[str, Any]) -> list[str]:
    from openai.types.responses import Response

    try:
        model = Response.model_validate(body)
    except ValidationError as error:
        if problems := _errors(error, "response"):
            return problems
        return []  # only ignored (usage) errors
    return list(_extras(model, "response"))


@cache
def _adapter(shape: Any) -> TypeAdapter[Any]:
    return TypeAdapter(shape)


@cache
def _event_classes() -> dict[str, type[BaseModel]]:
    """Each stream event class of openai-python, by its `type` literal."""
    from typing import get_args

    from openai.types.responses import ResponseStreamEvent

    union = get_args(ResponseStreamEvent)[0]  # Annotated[Union[...], discriminator]
    classes: dict[str, type[BaseModel]] = {}
    for cls in get_args(union):
        for literal in get_args(cls.model_fields["type"].annotation):
            classes[literal] = cls
    return classes


def responses_event(event: dict[str, Any]) -> list[str]:
    kind = str(event.get("type"))
    cls = _event_classes().get(kind)
    if cls is None:
        return [f"event {kind}: not a Responses stream event type"]
    try:
        model = cls.model_validate(event)
    except ValidationError as error:
        return _errors(error, f"event {kind}")  # [] if only usage errors
    return list(_extras(model, f"event {kind}"))


def gemini_request(body: dict[str, Any]) -> list[str]:
    from google.genai import types

    shapes: dict[str, Any] = {
        "contents": list[types.Content],
        "tools": list[types.Tool],
        "toolConfig": types.ToolConfig,
        "systemInstruction": types.Content,
        "generationConfig": types.GenerationConfig,
        "safetySettings": list[types.SafetySetting],
        "cachedContent": str,
    }
    problems = []
    for key, value in body.items():
        shape = shapes.get(key) or shapes.get(_camel(key))
        if shape is None:
            problems.append(f"request.{key}: not a generateContent request field")
            continue
        try:  # from JSON text: bytes fields (thoughtSignature) are base64 there
            _adapter(shape).validate_json(json.dumps(value))
        except ValidationError as error:
            problems += _errors(error, f"request.{key}")
    return problems


def gemini_response(body: dict[str, Any]) -> list[str]:
    from google.genai import types

    try:
        types.GenerateContentResponse.model_validate_json(json.dumps(body))
    except ValidationError as error:
        return _errors(error, "response")  # [] if only usage errors
    return []


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)
