"""Request bodies (``POST /v1beta/models/{model}:generateContent`` and
``:streamGenerateContent``) <-> ``Conversation``.

Named: ``contents`` (turns), ``systemInstruction`` (its parts are
``Conversation.system``; the rest of the object, such as a ``role``, stays in
``extra["systemInstruction"]``), ``tools`` and ``toolConfig`` (``tools.py``).
``functionCallingConfig.mode: VALIDATED`` constrains every call to its
schema: the function tools read as ``strict``. Everything else
(``generationConfig`` with ``stopSequences``, ``maxOutputTokens``,
``thinkingConfig``; ``safetySettings``, ``cachedContent``...) goes to
``Conversation.extra`` unchanged.

The model is in the URL path, not the body: ``Conversation.model`` is
``None`` unless the body has a ``model`` key (toolwire's engine adds the
URL's model there for converters; it stays in ``extra`` too, so the body
round-trips, and a request built by code never writes it). Whether the call
streams is in the URL too (``stream`` is ``None``). Proto field names in
snake_case (``system_instruction``, ``function_call``) are read as their
lowerCamelCase twins (``field_names.py``).
See https://ai.google.dev/api/generate-content#request-body.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolwire.harness.dialects.gemini._shape import expect_list, expect_object, join
from toolwire.harness.dialects.gemini.field_names import named_fields
from toolwire.harness.dialects.gemini.parts import (
    parse_content,
    parse_parts,
    render_content,
    render_part,
)
from toolwire.harness.dialects.gemini.tools import (
    parse_tool_config,
    parse_tools,
    render_tool_choice,
    render_tools,
)
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import GEMINI, Conversation, ToolChoice

_NAMED = frozenset(("contents", "systemInstruction", "tools", "toolConfig"))
# Read under either spelling and kept in ``extra`` in lowerCamelCase, so that a
# reader of ``generationConfig.maxOutputTokens`` finds ``generation_config.max_output_tokens``.
_RENAMED = frozenset(("generationConfig", "safetySettings", "cachedContent"))
SYSTEM = "systemInstruction"


def parse_request(payload: Any) -> Conversation:
    body = named_fields(expect_object(payload, "", "a request body"), _NAMED | _RENAMED)
    if "contents" not in body:
        raise WireFormatError(
            "contents",
            "request has no `contents`",
            hint="a Gemini generateContent body needs a `contents` array of Content objects",
        )
    contents = expect_list(body["contents"], "contents", "`contents`")
    extra = {k: v for k, v in body.items() if k not in _NAMED}
    system: tuple[Any, ...] = ()
    system_form = "absent"
    if SYSTEM in body:
        instruction = expect_object(body[SYSTEM], SYSTEM, "`systemInstruction`")
        rest = {k: v for k, v in instruction.items() if k != "parts"}
        if rest or "parts" not in instruction:
            extra[SYSTEM] = rest
        if "parts" in instruction:
            system = parse_parts(instruction["parts"], join(SYSTEM, "parts"))
            system_form = "blocks"
    tool_choice = None
    if "toolConfig" in body:
        tool_choice, rest_config = parse_tool_config(body["toolConfig"], "toolConfig")
        if rest_config or tool_choice is None:
            extra["toolConfig"] = rest_config
    tools_value = body.get("tools")
    tools = None if tools_value is None else parse_tools(tools_value, "tools")
    if tools is not None and _validated(tool_choice):
        # VALIDATED constrains every function call to its schema: strict tools.
        tools = tuple(replace(t, strict=True) if t.kind == "function" else t for t in tools)
    model = body.get("model")
    return Conversation(
        dialect=GEMINI,
        model=model.removeprefix("models/") if isinstance(model, str) else None,
        turns=tuple(parse_content(c, join("contents", i)) for i, c in enumerate(contents)),
        system=system,
        system_form="blocks" if system_form == "blocks" else "absent",
        tools=tools,
        tool_choice=tool_choice,
        extra=extra,
    )


def _validated(choice: ToolChoice | None) -> bool:
    raw = choice.raw if choice is not None else None
    return isinstance(raw, dict) and raw.get("mode") == "VALIDATED"


def render_request(conversation: Conversation) -> dict[str, Any]:
    out: dict[str, Any] = {"contents": [render_content(t) for t in conversation.turns]}
    extra = dict(conversation.extra)
    instruction = extra.pop(SYSTEM, None)
    if conversation.system or conversation.system_form != "absent" or instruction is not None:
        system: dict[str, Any] = dict(instruction) if isinstance(instruction, dict) else {}
        if conversation.system or conversation.system_form != "absent":
            system["parts"] = [render_part(b) for b in conversation.system]
        out[SYSTEM] = system
    if conversation.tools is not None:
        out["tools"] = render_tools(conversation.tools)
    config = extra.pop("toolConfig", None)
    if conversation.tool_choice is not None or config is not None:
        tool_config: dict[str, Any] = dict(config) if isinstance(config, dict) else {}
        if conversation.tool_choice is not None:
            tool_config["functionCallingConfig"] = render_tool_choice(conversation.tool_choice)
        out["toolConfig"] = tool_config
    for key, value in extra.items():
        if key not in out:
            out[key] = value
    return out
