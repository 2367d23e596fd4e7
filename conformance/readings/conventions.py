"""Documented conventions for what a target dialect cannot express.

openai-chat has no error flag on tool results. toolwire accepts one
convention, documented in docs/conventions.md: a failed result's content
starts with ``Error`` followed by ``:`` (for example ``Error: file not
found``). A converter from anthropic-messages writes ``is_error: true``
results that way (keeping the original text after the prefix, or as it is
when it already starts so); a converter to anthropic-messages may read such
a result back as ``is_error: true`` (its text kept as it is). The convention
is accepted, not required: a converter that does not adopt it is never
failed for that at MUST (docs/levels.md).

Comparisons of result *text* ignore the marker on both sides, flagged or
not: ``Error: x`` and ``x`` say the same thing, and a lost flag is
``fidelity.error_flag``'s to report, not a change of text as well.

A second marking is read the same way in a dialect without a flag: the whole
content a JSON object ``{"error": "<text>"}`` (pydantic-ai writes failed
results so), a failed result whose text is ``<text>``; and, like the marker,
the envelope is ignored when result texts are compared, flagged or not.
So is an output envelope, ``{"output"|"result"|"content"|"return_value":
"<text>"}``: the forms clients wrap a Gemini function's output in, which
reach the other dialects as that JSON text (docs/conventions.md, "Gemini").
openai-responses ``function_call_output`` has no flag either: the same marker
applies to it.

Converters also write their own failure markers around a failed result's
text (docs/conventions.md, "Failure markers around the text"): a prefix
line in brackets (``[is_error=true] <text>``, ``[tool_result
is_error=true]\n<text>``, ``[proxy:error]\n<text>``) or the text inside
``<error>...</error>``. ``failure_marker`` finds one. Unlike ``Error:``,
these are never read as a failure on their own: tools return
``<error>...</error>`` as their ordinary output, so a source's text that
carries one is text. They are accepted only as the marking of a result the
source itself failed (fidelity.text, fidelity.error_flag).

Reasoning that only its provider can read (an openai-responses reasoning
item's ``encrypted_content`` or ``rs_`` id, an Anthropic signature) cannot be
carried into another provider's request (docs/conventions.md, "The Responses
API"): ``provider_bound`` tells such reasoning apart from plain text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolwire.harness.model import ThinkingBlock

ERROR_PREFIX = "Error: "
_ERROR_MARK = re.compile(r"^\s*error\s*:", re.IGNORECASE)


def result_is_error_by_convention(text: str) -> bool:
    return bool(_ERROR_MARK.match(text))


def mark_error(text: str) -> str:
    """The openai-chat content for a failed result whose text is ``text``."""
    return text if result_is_error_by_convention(text) else ERROR_PREFIX + text


def strip_error_mark(text: str) -> str:
    """A failed result's text without the convention's leading marker(s): a
    converter that writes "Error: " before a text already starting "ERROR:"
    says the same thing, so every leading marker is removed."""
    match = _ERROR_MARK.match(text)
    while match:
        text = text[match.end() :].lstrip()
        match = _ERROR_MARK.match(text)
    return text


# A bracketed prefix that says the result failed, alone on its line or
# before the text: an optional label ("proxy:", "tool_result "), then
# "is_error=true" (or ": true") or "error" / "tool error" / "tool_error".
_PREFIX_MARK = re.compile(
    r"\A\s*(\[(?:[\w.-]+[: ])?(?:is_error\s*[=:]\s*true|(?:tool[ _-]?)?error)\])"
    r"(?:[ \t]*\r?\n|[ \t]+|\Z)",
    re.IGNORECASE,
)
# The whole text inside <error>...</error> (or <tool_error>), attributes allowed.
_WRAP_MARK = re.compile(
    r"\A\s*<(error|tool_error)(?:\s[^<>]*)?>(.*)</\1>\s*\Z", re.IGNORECASE | re.DOTALL
)


def failure_marker(text: str) -> tuple[str, str] | None:
    """``(the marker as a verdict names it, the text it marks)`` when
    ``text`` is a prefix line or an ``<error>`` element around a text, else
    None. Whitespace between the marker and the text is the marker's."""
    prefix = _PREFIX_MARK.match(text)
    if prefix:
        return f"the prefix {prefix.group(1)!r}", text[prefix.end() :]
    wrap = _WRAP_MARK.match(text)
    if wrap:
        tag = wrap.group(1)
        return f"the <{tag}>…</{tag}> element around the text", wrap.group(2).strip()
    return None


def json_value(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is the JSON text of an object or an
    array, else ``(False, None)``: how a result's text is read as JSON
    everywhere (the envelopes below, conformance/readings/result_objects.py, the replay
    upstream's matcher). A bare number or word is a result's text, not a JSON
    value; a JSON text nested too deep to read is no JSON value either."""
    if text.lstrip()[:1] not in ("{", "["):
        return False, None
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def one_key_string(text: str) -> tuple[str, str] | None:
    """``(key, string)`` when ``text`` is the JSON of an object with one key
    whose value is a string, else None: the shape of every envelope below."""
    found, value = json_value(text)
    if found and isinstance(value, dict) and len(value) == 1:
        ((key, inner),) = value.items()
        if isinstance(inner, str):
            return str(key), inner
    return None


def error_envelope(text: str) -> str | None:
    """The text inside a ``{"error": "<text>"}`` content, else None."""
    found = one_key_string(text)
    return found[1] if found is not None and found[0] == "error" else None


# The keys clients wrap a function's output in, as a Gemini
# ``functionResponse.response`` or as that object's JSON text elsewhere: the
# FunctionResponse reference's ``output``
# (https://ai.google.dev/api/caching#FunctionResponse), ``result`` (which many
# clients write), ``content`` (LiteLLM) and ``return_value`` (pydantic-ai).
OUTPUT_ENVELOPE_KEYS = frozenset({"output", "result", "content", "return_value"})


def output_envelope(text: str) -> str | None:
    """The text inside a ``{"<key>": "<text>"}`` content whose one key is an
    output envelope's, else None."""
    found = one_key_string(text)
    return found[1] if found is not None and found[0] in OUTPUT_ENVELOPE_KEYS else None


def read_result(text: str, flag: bool | None, dialect: str) -> tuple[bool, str]:
    """Whether a result failed, and its text for comparison (marker removed).

    ``flag`` is the dialect's own error flag (anthropic ``is_error``), None
    when the payload said nothing; dialects without a flag use the marker.
    """
    inner = error_envelope(text)
    if inner is None:
        # An output envelope says its text: {"result": "x"} and "x" say the
        # same, and an Error: marker inside it is the marker.
        text = unwrapped(text)
    if flag is not None:
        failed = flag
    else:
        failed = dialect != "anthropic-messages" and (
            inner is not None or result_is_error_by_convention(text)
        )
    # Like the Error: marker, the envelope is ignored when texts are compared,
    # flagged or not (a converter that reads it back may keep its text as is).
    return failed, strip_error_mark(inner if inner is not None else text)


def unwrapped(text: str) -> str:
    """``text`` without an output envelope (``output_envelope``)."""
    inner = output_envelope(text)
    return text if inner is None else inner


# Gemini (docs/conventions.md, "Gemini ids and thought signatures"): a call
# Gemini sent without an id gets a generated ``gm_`` id in the other
# dialects, and a call's thoughtSignature rides in its id after
# ``__thought__`` (the form LiteLLM uses), so that a client that sends the id
# back sends the signature back. Accepted, never required.
GEMINI_GENERATED_ID_PREFIX = "gm_"
GEMINI_SIGNATURE_SEPARATOR = "__thought__"


def split_gemini_id(value: str | None) -> tuple[str | None, str | None]:
    """``(Gemini call id or None, thoughtSignature or None)`` of an id written
    by the convention: a generated ``gm_`` id is no Gemini id."""
    if value is None:
        return None, None
    base, separator, signature = value.partition(GEMINI_SIGNATURE_SEPARATOR)
    call_id = None if base.startswith(GEMINI_GENERATED_ID_PREFIX) else base
    return call_id, (signature if separator and signature else None)


def provider_bound(block: ThinkingBlock) -> bool:
    """Reasoning whose replay only its own provider can check: a Responses
    reasoning item with ``encrypted_content`` or an id, or a signed or
    redacted Anthropic thinking block. Converters drop it toward another
    provider's request instead of inventing a form for it."""
    if block.origin == "reasoning_item":
        return block.encrypted_content is not None or block.item_id is not None
    return bool(block.signature) or block.redacted_data is not None
