"""Gemini ``Part`` objects <-> canonical blocks, ``Content`` <-> ``Turn``.

Part shapes follow https://ai.google.dev/api/caching#Part: exactly one data
field (``text``, ``functionCall``, ``functionResponse``, ``inlineData``,
``fileData``, ``executableCode``, ``codeExecutionResult``...) plus the
metadata ``thought`` (the text is a thought summary) and ``thoughtSignature``
(https://ai.google.dev/gemini-api/docs/thought-signatures).

* ``{text}`` -> ``TextBlock`` (a ``thoughtSignature`` stays in ``extra``);
* ``{text, thought: true}`` -> ``ThinkingBlock(origin="thought")`` whose
  ``signature`` is the part's ``thoughtSignature``;
* ``{functionCall: {name, args, id?}}`` -> ``ToolCall`` (``arguments`` is the
  ``args`` object, ``signature`` the part's ``thoughtSignature``);
* ``{functionResponse: {name, response, id?}}`` -> ``ToolResult`` (``name``;
  the response object read as text by ``results.py``);
* anything else -> ``OpaqueBlock`` named after its data field.

Roles: Gemini has ``user`` and ``model``; ``model`` is the canonical
``assistant`` (so every rule reads Gemini turns as it reads the others), and
rendering writes it back. A Content without ``role`` (allowed for a single
turn) keeps ``{"role": None}`` in ``Turn.extra``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.dialects.gemini._shape import (
    describe,
    expect_list,
    expect_object,
    join,
    optional_bool,
    optional_str,
    put,
    split_extra,
)
from toolwire.harness.dialects.gemini.results import is_error_object, response_object, result_text
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    Block,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

SIGNATURE = "thoughtSignature"
# Gemini parses requests as proto3 JSON, which reads a field's snake_case name
# too; Google's own REST notebook sets `thought_signature`
# (GoogleCloudPlatform/generative-ai#2470). Read either, write camelCase.
SIGNATURE_SNAKE = "thought_signature"
_CALL_NAMED = frozenset(("id", "name", "args"))
_RESPONSE_NAMED = frozenset(("id", "name"))
_TEXT_NAMED = frozenset(("text",))
_THOUGHT_NAMED = frozenset(("text", "thought", SIGNATURE, SIGNATURE_SNAKE))
_CALL_PART_NAMED = frozenset(("functionCall", SIGNATURE, SIGNATURE_SNAKE))
_RESPONSE_PART_NAMED = frozenset(("functionResponse",))
_DATA_FIELDS = ("inlineData", "fileData", "executableCode", "codeExecutionResult")

ROLE_TO_CANONICAL = {"model": "assistant", "user": "user"}
ROLE_TO_WIRE = {"assistant": "model", "user": "user"}


def parse_part(raw: Any, path: str) -> Block:
    part = expect_object(raw, path, "a part")
    if "functionCall" in part:
        return _parse_call(part, path)
    if "functionResponse" in part:
        return _parse_response(part, path)
    if "text" in part:
        text = optional_str(part, "text", path)
        if text is None:
            raise WireFormatError(join(path, "text"), "`text` must be a string, got null")
        if optional_bool(part, "thought", path):
            return ThinkingBlock(
                origin="thought",
                text=text,
                signature=part_signature(part, path),
                extra=split_extra(part, _THOUGHT_NAMED),
            )
        part_signature(part, path)
        return TextBlock(text=text, extra=split_extra(part, _TEXT_NAMED))
    kind = next((key for key in _DATA_FIELDS if key in part), None)
    if kind is None:
        kind = next(
            (key for key in part if key not in ("thought", SIGNATURE, SIGNATURE_SNAKE)), "part"
        )
    return OpaqueBlock(type=kind, raw=dict(part))


def part_signature(part: Mapping[str, Any], path: str) -> str | None:
    """The part's thought signature, under its camelCase or snake_case name."""
    camel = optional_str(part, SIGNATURE, path)
    return camel if camel is not None else optional_str(part, SIGNATURE_SNAKE, path)


def _parse_call(part: Mapping[str, Any], path: str) -> ToolCall:
    call_path = join(path, "functionCall")
    call = expect_object(part["functionCall"], call_path, "`functionCall`")
    extra = split_extra(part, _CALL_PART_NAMED)
    call_extra = split_extra(call, _CALL_NAMED)
    if call_extra:
        extra["functionCall"] = call_extra
    # `args` is kept whatever its JSON type: a string there is a converter bug
    # (JSON text where Gemini carries an object) that the rules must see.
    return ToolCall(
        id=optional_str(call, "id", call_path),
        name=optional_str(call, "name", call_path),
        arguments=call.get("args"),
        extra=extra,
        signature=part_signature(part, path),
    )


def _parse_response(part: Mapping[str, Any], path: str) -> ToolResult:
    response_path = join(path, "functionResponse")
    response = expect_object(part["functionResponse"], response_path, "`functionResponse`")
    extra = split_extra(part, _RESPONSE_PART_NAMED)
    # The raw response object stays in extra["functionResponse"], so rendering
    # writes it back unchanged; content is its reading as text.
    extra["functionResponse"] = split_extra(response, _RESPONSE_NAMED)
    value = response.get("response")
    return ToolResult(
        call_id=optional_str(response, "id", response_path),
        content=(TextBlock(result_text(value)),) if "response" in response else (),
        content_form="string" if "response" in response else "absent",
        is_error=is_error_object(value),
        extra=extra,
        name=optional_str(response, "name", response_path),
    )


def parse_parts(value: Any, path: str) -> tuple[Block, ...]:
    items = expect_list(value, path, "`parts`")
    return tuple(parse_part(item, join(path, i)) for i, item in enumerate(items))


def render_part(block: Block) -> dict[str, Any]:
    if isinstance(block, OpaqueBlock):
        return dict(block.raw)
    if isinstance(block, TextBlock):
        return _with_extra({"text": block.text}, block.extra)
    if isinstance(block, ThinkingBlock):
        if block.origin != "thought":
            # Reasoning from another dialect: a thought part with its text.
            out: dict[str, Any] = {"text": block.text or "", "thought": True}
            put(out, SIGNATURE, block.signature)
            return out
        out = {"text": block.text or "", "thought": True}
        put(out, SIGNATURE, block.signature)
        return _with_extra(out, block.extra)
    if isinstance(block, ToolCall):
        return _render_call(block)
    return _render_result(block)


def _render_call(call: ToolCall) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    put(inner, "id", call.id)
    put(inner, "name", call.name)
    put(inner, "args", call.arguments)
    extra = dict(call.extra)
    inner_extra = extra.pop("functionCall", None)
    if isinstance(inner_extra, Mapping):
        inner = _with_extra(inner, inner_extra)
    out: dict[str, Any] = {"functionCall": inner}
    put(out, SIGNATURE, call.signature)
    return _with_extra(out, extra)


def _render_result(result: ToolResult) -> dict[str, Any]:
    extra = dict(result.extra)
    raw = extra.pop("functionResponse", None)
    raw_inner: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    text = "".join(b.text for b in result.content if isinstance(b, TextBlock))
    inner: dict[str, Any] = {}
    put(inner, "id", result.call_id)
    put(inner, "name", result.name)
    raw_value = raw_inner.get("response")
    if "response" in raw_inner and (
        result.content_form != "absent"
        and result_text(raw_value) == text
        and is_error_object(raw_value) == (result.is_error or None)
    ):
        inner["response"] = raw_value  # parsed and unchanged: exactly as carried
    elif result.content_form != "absent" or result.content:
        inner["response"] = response_object(text, result.is_error)
    inner = _with_extra(inner, {k: v for k, v in raw_inner.items() if k != "response"})
    return _with_extra({"functionResponse": inner}, extra)


def _with_extra(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if key not in out:
            out[key] = value
    return out


def parse_content(raw: Any, path: str) -> Turn:
    """A ``Content`` object (``{role?, parts}``) as a turn."""
    content = expect_object(raw, path, "a Content object")
    if "role" in content and not isinstance(content["role"], str):
        raise WireFormatError(
            join(path, "role"),
            f"`role` must be a string, got {describe(content['role'])}",
            hint='use "user" or "model"',
        )
    wire_role = content.get("role")
    extra = {k: v for k, v in content.items() if k not in ("role", "parts")}
    if wire_role is None:
        role = "user"
        extra["role"] = None
    elif wire_role in ROLE_TO_CANONICAL:
        role = ROLE_TO_CANONICAL[wire_role]
    else:
        # Not a Gemini role (e.g. "assistant"): kept as written for the rules.
        role = wire_role
        extra["role"] = wire_role
    if "parts" not in content:
        return Turn(role=role, blocks=(), content_form="absent", extra=extra)
    return Turn(role=role, blocks=parse_parts(content["parts"], join(path, "parts")), extra=extra)


def render_content(turn: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "role" in turn.extra:
        put(out, "role", turn.extra["role"])
    else:
        out["role"] = ROLE_TO_WIRE.get(turn.role, turn.role)
    if turn.content_form != "absent" or turn.blocks:
        out["parts"] = [render_part(b) for b in turn.blocks]
    return _with_extra(out, {k: v for k, v in turn.extra.items() if k != "role"})
