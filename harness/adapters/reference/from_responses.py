"""openai-responses -> openai-chat, on canonical objects.

The Responses -> Anthropic direction goes through this step and then
``to_anthropic`` (the Chat Completions form is the hub both share), so the
choices below hold for both targets.

Requests (docs/conventions.md):

* ``instructions`` becomes a leading ``system`` message; system, developer
  and user messages keep their role; ``input_text`` parts become text,
  ``input_image`` an ``image_url`` part; other parts (files, audio) are
  refused with a ``ConversionError``;
* an assistant turn (the consecutive model items) becomes one assistant
  message: its text joined into ``content`` (``null`` when it only calls
  tools), each ``function_call`` a ``tool_calls`` entry whose ``id`` is the
  ``call_id`` (the item's ``fc_...`` id has no Chat equivalent) and whose
  ``arguments`` is the same JSON text;
* ``reasoning`` items are not carried: their ``encrypted_content`` is
  OpenAI's state, which no other API can read, and Chat Completions has no
  reasoning input (docs/conventions.md, "Encrypted reasoning");
* each ``function_call_output`` becomes a ``tool`` message (text outputs
  only: Chat tool messages carry text);
* hosted-tool items (``web_search_call``...), ``item_reference`` and a
  ``previous_response_id`` (the conversation lives on OpenAI's server) have
  no Chat equivalent: ``UnsupportedConversion``;
* parameters: ``max_output_tokens`` -> ``max_completion_tokens``,
  ``temperature``, ``top_p``, ``user``, ``reasoning.effort`` ->
  ``reasoning_effort``, ``text.format`` (json_schema) -> ``response_format``;
  ``store``, ``include``, ``truncation`` and other Responses-only fields are
  dropped.

Responses: the output becomes ``choices[0].message`` (reasoning summaries as
``reasoning_content``, as the reference writes reasoning for Chat clients);
status -> ``finish_reason`` (``completed`` -> ``stop`` / ``tool_calls``,
``incomplete`` max_output_tokens -> ``length``, content_filter ->
``content_filter``; any other status is refused); usage counts carried.

References: https://platform.openai.com/docs/api-reference/responses/create,
https://platform.openai.com/docs/guides/migrate-to-responses,
https://platform.openai.com/docs/api-reference/chat/create.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.to_anthropic import arguments_object
from toolwire.harness.adapters.reference.tools import EMPTY_INPUT_SCHEMA
from toolwire.harness.adapters.reference.truncated import cut_off_call, is_cut_off
from toolwire.harness.adapters.reference.usage import usage_responses_to_chat
from toolwire.harness.dialects.openai_chat.common import canonical_stop
from toolwire.harness.model import (
    OPENAI_CHAT,
    Block,
    Choice,
    ContentForm,
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
)

_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length"}
_FINISH["content_filter"] = "content_filter"
_INPUT_ROLES = ("system", "developer", "user")


def _user_content(blocks: Sequence[Block], where: str) -> list[Block]:
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            out.append(TextBlock(block.text))
        elif isinstance(block, OpaqueBlock) and block.type == "input_image":
            url = block.raw.get("image_url")
            if not isinstance(url, str):
                raise ConversionError(f"{where}: an input_image without image_url (file_id?)")
            image: dict[str, Any] = {"url": url}
            if isinstance(block.raw.get("detail"), str):
                image["detail"] = block.raw["detail"]
            out.append(OpaqueBlock("image_url", {"type": "image_url", "image_url": image}))
        else:
            kind = block.type if isinstance(block, OpaqueBlock) else type(block).__name__
            raise ConversionError(f"{where}: a {kind!r} part has no Chat Completions equivalent")
    return out


def _message_turn(turn: Turn, where: str) -> Turn:
    blocks = _user_content(turn.blocks, where)
    if len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        return Turn(turn.role, tuple(blocks), "string")
    if not blocks:
        return Turn(turn.role, (TextBlock(""),), "string")
    return Turn(turn.role, tuple(blocks), "blocks")


def rebuilt_call(call: ToolCall, where: str, cut_off: bool = False) -> ToolCall:
    # A new call: the target codec writes the natural JSON text of the
    # decoded object (arguments that are no JSON object are refused, except
    # a call the output limit cut off, passed on as it came: truncated.py).
    kept = cut_off_call(call, call.id) if cut_off else None
    if kept is not None:
        return kept
    return ToolCall(call.id, call.name, dict(arguments_object(call, where)))


def assistant_turn(turn: Turn, where: str, with_reasoning: bool, cut_off: bool = False) -> Turn:
    blocks: list[Block] = []
    reasoning = [b.text for b in turn.blocks if isinstance(b, ThinkingBlock) and b.text]
    if with_reasoning and reasoning:
        blocks.append(ThinkingBlock(origin="reasoning_content", text="\n\n".join(reasoning)))
    texts: list[str] = []
    refusals: list[str] = []
    for block in turn.blocks:
        if isinstance(block, TextBlock):
            texts.append(block.text)
        elif isinstance(block, OpaqueBlock) and block.type == "refusal":
            refusals.append(str(block.raw.get("refusal", "")))
        elif isinstance(block, OpaqueBlock):
            raise UnsupportedConversion(
                f"{where}: a {block.type!r} item is a tool OpenAI ran on its side; Chat "
                "Completions has no equivalent for hosted-tool items"
            )
    calls = [rebuilt_call(c, where, cut_off) for c in turn.tool_calls]
    text = "".join(texts)
    form: ContentForm = "string"
    if text or not calls:
        blocks.append(TextBlock(text))
    else:
        form = "blocks"  # calls only: content null, OpenAI's form
    blocks.extend(calls)
    extra = {"refusal": "".join(refusals)} if refusals else {}
    return Turn("assistant", tuple(blocks), form, extra)


def _tool_turn(result: ToolResult, where: str) -> Turn:
    if any(not isinstance(b, TextBlock) for b in result.content):
        raise ConversionError(
            f"{where}: a function_call_output holding images or files has no Chat Completions "
            "equivalent (tool messages carry text only)"
        )
    text = "".join(b.text for b in result.content if isinstance(b, TextBlock))
    converted = ToolResult(call_id=result.call_id, content=(TextBlock(text),))
    return Turn("tool", (converted,), "string")


def _tools(tools: Sequence[ToolDef] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    converted = []
    for position, tool in enumerate(tools):
        if tool.kind != "function":
            raise UnsupportedConversion(
                f"tools[{position}] is a {tool.kind!r} tool, which OpenAI hosts for the "
                "Responses API only (offer it as a function tool, or drop it before converting)"
            )
        parameters = tool.parameters if tool.parameters is not None else EMPTY_INPUT_SCHEMA
        converted.append(ToolDef(tool.name, tool.description, parameters, tool.strict))
    return tuple(converted)


def _params(extra: Mapping[str, Any]) -> dict[str, Any]:
    for key in ("previous_response_id", "conversation", "prompt"):
        if extra.get(key):
            raise UnsupportedConversion(
                f"{key} refers to state kept on OpenAI's server; Chat Completions needs the "
                "whole conversation in the request"
            )
    out: dict[str, Any] = {}
    if isinstance(extra.get("max_output_tokens"), int):
        out["max_completion_tokens"] = extra["max_output_tokens"]
    for key in ("temperature", "top_p", "user", "metadata"):
        if extra.get(key) is not None:
            out[key] = extra[key]
    reasoning = extra.get("reasoning")
    if isinstance(reasoning, Mapping) and isinstance(reasoning.get("effort"), str):
        out["reasoning_effort"] = reasoning["effort"]
    text = extra.get("text")
    fmt = text.get("format") if isinstance(text, Mapping) else None
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema":
        schema = {k: v for k, v in fmt.items() if k != "type"}
        out["response_format"] = {"type": "json_schema", "json_schema": schema}
    elif isinstance(fmt, Mapping) and fmt.get("type") == "json_object":
        out["response_format"] = {"type": "json_object"}
    return out


def _choice(choice: ToolChoice | None) -> ToolChoice | None:
    return None if choice is None else ToolChoice(choice.mode, choice.name)


def conversation_to_chat(conversation: Conversation) -> Conversation:
    turns: list[Turn] = []
    if conversation.system:
        text = "".join(b.text for b in conversation.system if isinstance(b, TextBlock))
        turns.append(Turn("system", (TextBlock(text),), "string"))
    for index, turn in enumerate(conversation.turns):
        where = f"input[{index}]"
        if turn.role == "assistant":
            turns.append(assistant_turn(turn, where, with_reasoning=False))
        elif turn.role == "tool":
            turns.extend(_tool_turn(result, where) for result in turn.tool_results)
        elif turn.role in _INPUT_ROLES:
            turns.append(_message_turn(turn, where))
        else:
            first = turn.blocks[0] if turn.blocks else None
            kind = first.type if isinstance(first, OpaqueBlock) else turn.role
            raise UnsupportedConversion(
                f"{where}: a {kind!r} item has no Chat Completions equivalent"
            )
    stream = conversation.stream
    extra = _params(conversation.extra)
    if stream:
        extra["stream_options"] = {"include_usage": True}
    return Conversation(
        dialect=OPENAI_CHAT,
        turns=tuple(turns),
        model=conversation.model,
        tools=_tools(conversation.tools),
        tool_choice=_choice(conversation.tool_choice),
        parallel_tool_calls=conversation.parallel_tool_calls,
        stream=stream,
        extra=extra,
    )


def response_to_chat(response: Response) -> Response:
    choice = response.choices[0]
    stop = choice.stop_reason
    finish = _FINISH.get(stop.canonical)
    if finish is None:
        raise ConversionError(
            f"the Response has status {stop.raw!r}; only a completed or incomplete response "
            "can become a chat completion",
        )
    message = assistant_turn(choice.message, "output", True, is_cut_off(stop))
    if message.tool_calls and finish == "stop":
        finish = "tool_calls"
    if not message.tool_calls and not message.text:
        blocks = tuple(b for b in message.blocks if not isinstance(b, TextBlock))
        message = Turn("assistant", blocks, "null", message.extra)
    usage = response.usage
    created = response.extra.get("created_at")
    return Response(
        dialect=OPENAI_CHAT,
        choices=(Choice(0, message, StopReason(finish, canonical_stop(finish))),),
        id=response.id,
        model=response.model,
        usage=usage_responses_to_chat(usage),
        extra={"object": "chat.completion", "created": created if isinstance(created, int) else 0},
    )
