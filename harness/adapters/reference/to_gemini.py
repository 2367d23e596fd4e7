"""anthropic-messages -> gemini, on canonical objects (and, through
``to_anthropic``, openai-chat -> gemini). docs/conventions.md, "Gemini".

Requests:

* the top-level ``system`` becomes ``systemInstruction`` (its text parts);
* assistant turns become ``model`` turns: text parts, then a
  ``functionCall`` part per ``tool_use`` (``args`` is the ``input`` object);
  ids written by the Gemini conventions are read back (``gemini_ids.py``):
  a generated ``gm_`` id becomes no id, a carried signature returns as the
  part's ``thoughtSignature``; other ids are kept (Gemini's ``id`` field);
  thinking blocks are not sent (Gemini cannot check another provider's
  reasoning, and its own thoughts need not be sent back);
* ``tool_result`` blocks become ``functionResponse`` parts named after the
  call they answer, with ``{"output": text}`` (``{"error": text}`` when
  ``is_error``; text that is a JSON object is sent as that object);
* images and PDFs given as base64 become ``inlineData``;
* tools become one Tool object of ``functionDeclarations`` whose schema is
  written under ``parametersJsonSchema`` (JSON Schema as given); server tools
  are declined;
* strict tools (all of them, tool choice auto) -> mode VALIDATED, which
  constrains calls to their schemas; strict tools mixed with others, or with
  a forced call, are declined; tool names outside Gemini's
  ``^[a-zA-Z0-9_:.-]{1,64}$`` are declined;
* tool choice: auto -> AUTO, any -> ANY, tool -> ANY with
  ``allowedFunctionNames: [name]``, none -> NONE (an openai-chat or
  openai-responses ``allowed_tools`` required choice -> ANY with its names,
  an auto one over strict tools -> VALIDATED with its names, over other
  tools declined: ``allowed_tools.py``); parallel calls disabled
  (``parallel_tool_calls: false``, ``disable_parallel_tool_use``) have no
  Gemini switch: such a request is declined (``UnsupportedConversion``);
* ``max_tokens`` -> ``generationConfig.maxOutputTokens``, ``stop_sequences``
  -> ``stopSequences``, ``temperature``, ``top_p`` -> ``topP``, ``top_k`` ->
  ``topK``; ``thinking`` enabled -> ``thinkingConfig.thinkingBudget``.

Responses: the message becomes ``candidates[0]`` (thinking as thought parts,
without signatures: Anthropic's are not Gemini's); stop reasons:
end_turn/tool_use/stop_sequence -> STOP, max_tokens -> MAX_TOKENS, refusal ->
SAFETY; usage ``input_tokens`` -> ``promptTokenCount``, ``output_tokens`` ->
``candidatesTokenCount``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.gemini_ids import split_id
from toolwire.harness.adapters.reference.ids import from_anthropic_id
from toolwire.harness.model import (
    GEMINI,
    Block,
    Choice,
    Conversation,
    OpaqueBlock,
    Response,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolChoice,
    ToolDef,
    ToolResult,
    Turn,
    Usage,
)


def _call(call: ToolCall, names: dict[str | None, str | None]) -> ToolCall:
    call_id, signature = split_id(from_anthropic_id(call.id))
    names[call.id] = call.name
    return ToolCall(id=call_id, name=call.name, arguments=call.arguments, signature=signature)


def _result(result: ToolResult, names: dict[str | None, str | None], where: str) -> ToolResult:
    if any(not isinstance(b, TextBlock) for b in result.content):
        raise UnsupportedConversion(
            f"{where}: a tool_result holding images or documents has no functionResponse form"
        )
    call_id, _ = split_id(from_anthropic_id(result.call_id))
    text = "".join(b.text for b in result.content if isinstance(b, TextBlock))
    return ToolResult(
        call_id=call_id,
        content=(TextBlock(text),),
        is_error=True if result.is_error else None,
        name=names.get(result.call_id),
    )


def _media(block: OpaqueBlock, where: str) -> Block:
    source = block.raw.get("source")
    base64_source = isinstance(source, Mapping) and source.get("type") == "base64"
    if block.type in ("image", "document") and isinstance(source, Mapping) and base64_source:
        data = {"mimeType": source.get("media_type"), "data": source.get("data")}
        return OpaqueBlock(type="inlineData", raw={"inlineData": data})
    raise UnsupportedConversion(f"{where}: a {block.type!r} block has no equivalent in gemini")


def _turn(turn: Turn, names: dict[str | None, str | None], where: str) -> Turn | None:
    blocks: list[Block] = []
    for block in turn.blocks:
        if isinstance(block, ThinkingBlock):
            continue
        if isinstance(block, TextBlock):
            if block.text:
                blocks.append(TextBlock(block.text))
        elif isinstance(block, ToolCall):
            blocks.append(_call(block, names))
        elif isinstance(block, ToolResult):
            blocks.append(_result(block, names, where))
        else:
            blocks.append(_media(block, where))
    if not blocks:
        return None
    return Turn(role=turn.role, blocks=tuple(blocks))


def _tools(tools: tuple[ToolDef, ...] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    out = []
    for position, tool in enumerate(tools):
        if tool.kind != "function":
            raise UnsupportedConversion(
                f"tools[{position}] is a {tool.kind!r} server tool, "
                "which has no equivalent in gemini"
            )
        out.append(
            ToolDef(name=tool.name, description=tool.description, parameters=tool.parameters)
        )
    return tuple(out)


def _choice(choice: ToolChoice | None, tools: tuple[ToolDef, ...] | None) -> ToolChoice | None:
    strict = [tool.strict is True for tool in tools or ()]
    if any(strict):
        if not all(strict) or (choice is not None and choice.mode != "auto"):
            raise UnsupportedConversion(
                "strict tools: Gemini constrains calls to their schemas only with "
                "functionCallingConfig mode VALIDATED, which applies to every function and "
                "lets the model answer in text too; this request mixes strict and other tools "
                "or forces a call"
            )
        return ToolChoice(mode="auto", raw={"mode": "VALIDATED"})
    if choice is None:
        return None
    return ToolChoice(mode=choice.mode, name=choice.name if choice.mode == "tool" else None)


# Gemini function names (https://ai.google.dev/api/caching#FunctionDeclaration).
_GEMINI_NAME = re.compile(r"^[a-zA-Z0-9_:.-]{1,64}$")


def _check_names(names: list[str | None]) -> None:
    for name in names:
        if name is not None and not _GEMINI_NAME.match(name):
            raise UnsupportedConversion(
                f"tool name {name[:40]!r}{'...' if len(name) > 40 else ''} ({len(name)} "
                "characters) cannot be expressed in gemini, whose function names match "
                "^[a-zA-Z0-9_:.-]{1,64}$; renaming it would change the tool"
            )


def _params(extra: Mapping[str, Any]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    pairs = (
        ("max_tokens", "maxOutputTokens"),
        ("stop_sequences", "stopSequences"),
        ("temperature", "temperature"),
        ("top_p", "topP"),
        ("top_k", "topK"),
    )
    for source, target in pairs:
        value = extra.get(source)
        if value is not None and not (isinstance(value, list) and not value):
            config[target] = value
    thinking = extra.get("thinking")
    if isinstance(thinking, Mapping) and thinking.get("type") == "enabled":
        budget = thinking.get("budget_tokens")
        if isinstance(budget, int):
            config["thinkingConfig"] = {"thinkingBudget": budget}
    return {"generationConfig": config} if config else {}


def _check_parallel(conversation: Conversation) -> None:
    choice = conversation.tool_choice
    disabled = conversation.parallel_tool_calls is False or (
        choice is not None and choice.disable_parallel is True and choice.mode != "none"
    )
    if disabled and conversation.tools:
        raise UnsupportedConversion(
            "parallel tool calls are disabled in the source; Gemini has no switch for that "
            "(functionCallingConfig only chooses the mode), so the model could call in parallel"
        )


def conversation_to_gemini(conversation: Conversation) -> Conversation:
    if any(not isinstance(b, TextBlock) for b in conversation.system):
        raise ConversionError("system: only text blocks can become a systemInstruction")
    _check_parallel(conversation)
    _check_names(
        [tool.name for tool in conversation.tools or ()]
        + [call.name for turn in conversation.turns for call in turn.tool_calls]
    )
    names: dict[str | None, str | None] = {}
    turns = []
    for index, turn in enumerate(conversation.turns):
        if turn.role not in ("user", "assistant"):
            raise ConversionError(f"messages[{index}]: role {turn.role!r} has no gemini form")
        converted = _turn(turn, names, f"messages[{index}]")
        if converted is not None:
            turns.append(converted)
    system = tuple(TextBlock(b.text) for b in conversation.system if isinstance(b, TextBlock))
    return Conversation(
        dialect=GEMINI,
        turns=tuple(turns),
        system=tuple(b for b in system if b.text),
        system_form="blocks" if any(b.text for b in system) else "absent",
        tools=_tools(conversation.tools),
        tool_choice=_choice(conversation.tool_choice, conversation.tools),
        extra=_params(conversation.extra),
    )


_FINISH = {
    "end_turn": "STOP",
    "tool_use": "STOP",
    "stop_sequence": "STOP",
    "pause_turn": "STOP",
    "max_tokens": "MAX_TOKENS",
    "refusal": "SAFETY",
    "content_filter": "SAFETY",
}


def response_to_gemini(response: Response) -> Response:
    choice = response.choices[0]
    _check_names([call.name for call in choice.message.tool_calls])
    blocks: list[Block] = []
    names: dict[str | None, str | None] = {}
    for block in choice.message.blocks:
        if isinstance(block, ThinkingBlock):
            if block.text:
                blocks.append(ThinkingBlock(origin="thought", text=block.text))
        elif isinstance(block, TextBlock):
            if block.text:
                blocks.append(TextBlock(block.text))
        elif isinstance(block, ToolCall):
            blocks.append(_call(block, names))
        else:
            kind = block.type if isinstance(block, OpaqueBlock) else "tool_result"
            raise UnsupportedConversion(f"content: a {kind!r} block has no equivalent in gemini")
    finish = _FINISH.get(choice.stop_reason.canonical)
    if finish is None:
        raise UnsupportedConversion(
            f"stop reason {choice.stop_reason.raw!r} has no gemini finishReason"
        )
    has_calls = any(isinstance(b, ToolCall) for b in blocks)
    usage = response.usage
    return Response(
        dialect=GEMINI,
        choices=(
            Choice(
                index=0,
                message=Turn(role="assistant", blocks=tuple(blocks)),
                stop_reason=StopReason(
                    raw=finish,
                    canonical="tool_use"
                    if has_calls and finish == "STOP"
                    else choice.stop_reason.canonical,
                ),
            ),
        ),
        id=response.id,
        model=response.model,
        usage=None if usage is None else Usage(usage.input_tokens, usage.output_tokens),
    )
