"""Shape checks shared by the gemini parsers.

Each helper returns the value with its type narrowed or raises
``WireFormatError`` naming the JSON path and the API reference page.
``join``, ``describe``, ``split_extra`` and ``put`` are the anthropic-messages
helpers: the conventions (absent -> ``None``, explicit null kept in ``extra``)
are the same in every codec.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.dialects.anthropic_messages._shape import describe, join, put, split_extra
from toolwire.harness.errors import WireFormatError

# The generateContent reference (request body, Content, Part, Tool, ToolConfig,
# GenerateContentResponse, Candidate, FinishReason, UsageMetadata).
GEMINI_API_URL = "https://ai.google.dev/api/generate-content"
GEMINI_CACHING_URL = "https://ai.google.dev/api/caching"  # Content, Part, Tool, FunctionCall...
GEMINI_FUNCTION_CALLING_URL = "https://ai.google.dev/gemini-api/docs/function-calling"
GEMINI_THOUGHT_SIGNATURES_URL = "https://ai.google.dev/gemini-api/docs/thought-signatures"

__all__ = [
    "GEMINI_API_URL",
    "describe",
    "expect_list",
    "expect_object",
    "join",
    "optional_bool",
    "optional_str",
    "put",
    "split_extra",
]


def expect_object(value: Any, path: str, what: str = "value") -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    raise WireFormatError(
        path, f"{what} must be a JSON object, got {describe(value)}", hint=f"see {GEMINI_API_URL}"
    )


def expect_list(value: Any, path: str, what: str = "value") -> list[Any]:
    if isinstance(value, list):
        return value
    raise WireFormatError(
        path, f"{what} must be a JSON array, got {describe(value)}", hint=f"see {GEMINI_API_URL}"
    )


def optional_str(obj: Mapping[str, Any], key: str, path: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise WireFormatError(
        join(path, key),
        f"`{key}` must be a string, got {describe(value)}",
        hint=f"see {GEMINI_API_URL}",
    )


def optional_bool(obj: Mapping[str, Any], key: str, path: str) -> bool | None:
    value = obj.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise WireFormatError(
        join(path, key),
        f"`{key}` must be true or false, got {describe(value)}",
        hint=f"see {GEMINI_API_URL}",
    )
