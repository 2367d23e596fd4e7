"""openai-chat -> openai-responses, on canonical objects.

The Anthropic -> Responses direction goes through ``to_openai`` (Anthropic ->
Chat Completions) and then this step, so the choices below hold for both.

Requests (docs/conventions.md):

* system and developer messages stay input messages in their role (the
  Responses API accepts both roles in ``input``; ``instructions`` would not
  survive ``previous_response_id`` chains, so the reference does not move
  them there); user text is the message's string ``content``, images become
  ``input_image`` parts;
* an assistant message becomes its items in wire order: a ``message`` item
  with the text (when there is text), then one ``function_call`` item per
  call with ``call_id`` = the Chat call id and the same ``arguments`` text.
  No item ids are invented: a ``function_call`` sent with an ``fc_...`` id
  that OpenAI did not issue is rejected, and one sent with an id OpenAI
  issued needs its reasoning item next to it;
* reasoning text (``reasoning_content``, or Anthropic thinking reaching here
  through Chat) is not carried into requests: a Responses ``reasoning`` item
  replays OpenAI's own ``encrypted_content`` or server-side ``rs_`` id, and
  an Anthropic signature is not one (docs/conventions.md);
* each ``tool`` message becomes a ``function_call_output`` with its text as
  ``output``;
* tools become flat function tools, each with an explicit ``strict``: a
  tool that was not strict gets ``strict: false``, since a Responses tool
  without ``strict`` is strict (its optional parameters made required);
  ``tool_choice`` and ``parallel_tool_calls`` keep their meaning;
* parameters: ``max_completion_tokens`` (or ``max_tokens``) ->
  ``max_output_tokens``, ``temperature``, ``top_p``, ``user``, ``metadata``,
  ``reasoning_effort`` -> ``reasoning.effort``, ``response_format`` ->
  ``text.format``; ``stop`` has no Responses equivalent and is refused
  (``UnsupportedConversion``), ``n`` above 1 too; ``stream_options``,
  ``seed``, penalties and the like are dropped.

Responses: the message becomes the output items (reasoning text as a
``reasoning`` item with a summary, then the text message, then the calls);
``finish_reason`` -> ``status`` (``length`` -> ``incomplete`` with
``max_output_tokens``, ``content_filter`` -> ``incomplete`` with
``content_filter``, the rest ``completed``); usage counts carried; item ids
are the codec's positional ones (``msg_0``, ``fc_1``...).

References: https://platform.openai.com/docs/api-reference/responses/create,
https://platform.openai.com/docs/guides/migrate-to-responses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.from_responses import rebuilt_call
from toolwire.harness.adapters.reference.truncated import is_cut_off
from toolwire.harness.adapters.reference.usage import usage_chat_to_responses
from toolwire.harness.model import (
    OPENAI_RESPONSES,
    Block,
    Choice,
    Conversation,
    OpaqueBlock,
    Response,
    StopReason,
    TextBlock,
    ThinkingBlock,
    ToolChoice,
    ToolDef,
    ToolResult,
    Turn,
)


def _input_content(blocks: Sequence[Block], where: str) -> list[Block]:
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            out.append(TextBlock(block.text))
        elif isinstance(block, OpaqueBlock) and block.type == "image_url":
            image = block.raw.get("image_url")
            url = image.get("url") if isinstance(image, Mapping) else image
            if not isinstance(url, str):
                raise ConversionError(f"{where}: an image_url part without a url")
            part: dict[str, Any] = {"type": "input_image", "image_url": url}
            detail = image.get("detail") if isinstance(image, Mapping) else None
            part["detail"] = detail if isinstance(detail, str) else "auto"
            out.append(OpaqueBlock("input_image", part))
        else:
            kind = block.type if isinstance(block, OpaqueBlock) else type(block).__name__
            raise ConversionError(f"{where}: a {kind!r} part has no Responses equivalent here")
    return out


def _message(turn: Turn, where: str) -> Turn:
    blocks = _input_content(turn.blocks, where)
    if all(isinstance(b, TextBlock) for b in blocks):
        text = "".join(b.text for b in blocks if isinstance(b, TextBlock))
        return Turn(turn.role, (TextBlock(text),), "string")
    return Turn(turn.role, tuple(blocks), "blocks")


def _assistant(turn: Turn, where: str, with_reasoning: bool, cut_off: bool = False) -> Turn:
    blocks: list[Block] = []
    if with_reasoning:
        reasoning = [b.text for b in turn.blocks if isinstance(b, ThinkingBlock) and b.text]
        if reasoning:
            blocks.append(ThinkingBlock(origin="reasoning_item", text="\n\n".join(reasoning)))
    text = turn.text
    refusal = turn.extra.get("refusal")
    if text or not turn.tool_calls:
        blocks.append(TextBlock(text))
    if isinstance(refusal, str) and refusal:
        blocks.append(OpaqueBlock("refusal", {"type": "refusal", "refusal": refusal}))
    blocks.extend(rebuilt_call(call, where, cut_off) for call in turn.tool_calls)
    return Turn("assistant", tuple(blocks), "blocks")


def _output(result: ToolResult, where: str) -> Turn:
    if any(not isinstance(b, TextBlock) for b in result.content):
        raise ConversionError(f"{where}: a tool message may only hold text")
    text = "".join(b.text for b in result.content if isinstance(b, TextBlock))
    return Turn("tool", (ToolResult(result.call_id, (TextBlock(text),), "string"),), "string")


def _tools(tools: Sequence[ToolDef] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    for position, tool in enumerate(tools):
        if tool.kind != "function":
            raise UnsupportedConversion(
                f"tools[{position}] is a {tool.kind!r} tool, which has no Responses function "
                "tool equivalent"
            )
    # A Responses function tool without strict is strict ("Responses requests will
    # normalize your schema into strict mode ... explicitly set `strict: false`",
    # https://platform.openai.com/docs/guides/function-calling; openai-python
    # FunctionToolParam.strict: "Default `true`"), so a tool that was not strict
    # says strict: false.
    return tuple(ToolDef(t.name, t.description, t.parameters, t.strict is True) for t in tools)


def _params(extra: Mapping[str, Any]) -> dict[str, Any]:
    if extra.get("stop"):
        raise UnsupportedConversion(
            "stop sequences have no Responses API equivalent; dropping them would let the "
            "model write past them"
        )
    n = extra.get("n")
    if isinstance(n, int) and n > 1:
        raise UnsupportedConversion("the Responses API returns one output, not n choices")
    out: dict[str, Any] = {}
    limit = extra.get("max_completion_tokens", extra.get("max_tokens"))
    if isinstance(limit, int) and not isinstance(limit, bool):
        out["max_output_tokens"] = limit
    for key in ("temperature", "top_p", "user", "metadata"):
        if extra.get(key) is not None:
            out[key] = extra[key]
    if isinstance(extra.get("reasoning_effort"), str):
        out["reasoning"] = {"effort": extra["reasoning_effort"]}
    fmt = extra.get("response_format")
    if isinstance(fmt, Mapping) and fmt.get("type") == "json_schema":
        schema = fmt.get("json_schema")
        if isinstance(schema, Mapping):
            out["text"] = {"format": {"type": "json_schema", **schema}}
    elif isinstance(fmt, Mapping) and fmt.get("type") == "json_object":
        out["text"] = {"format": {"type": "json_object"}}
    return out


def conversation_to_responses(conversation: Conversation) -> Conversation:
    turns: list[Turn] = []
    if conversation.system:
        text = "".join(b.text for b in conversation.system if isinstance(b, TextBlock))
        turns.append(Turn("system", (TextBlock(text),), "string"))
    for index, turn in enumerate(conversation.turns):
        where = f"messages[{index}]"
        if turn.role == "assistant":
            turns.append(_assistant(turn, where, with_reasoning=False))
        elif turn.role == "tool":
            turns.extend(_output(result, where) for result in turn.tool_results)
        elif turn.role in ("system", "developer", "user"):
            turns.append(_message(turn, where))
        else:
            raise ConversionError(f"{where}: role {turn.role!r} has no Responses equivalent")
    choice = conversation.tool_choice
    return Conversation(
        dialect=OPENAI_RESPONSES,
        turns=tuple(turns),
        model=conversation.model,
        tools=_tools(conversation.tools),
        tool_choice=None if choice is None else ToolChoice(choice.mode, choice.name),
        parallel_tool_calls=conversation.parallel_tool_calls,
        stream=conversation.stream,
        extra=_params(conversation.extra),
    )


def response_to_responses(response: Response) -> Response:
    if len(response.choices) != 1:
        raise ConversionError(
            f"the response has {len(response.choices)} choices; a Response object carries one",
            hint="convert a response with exactly one choice (n=1)",
        )
    choice = response.choices[0]
    stop = choice.stop_reason
    message = _assistant(choice.message, "choices[0].message", True, is_cut_off(stop))
    if stop.canonical == "end_turn" and message.tool_calls:
        stop = StopReason(stop.raw, "tool_use")
    usage = response.usage
    created = response.extra.get("created")
    return Response(
        dialect=OPENAI_RESPONSES,
        choices=(Choice(0, message, stop),),
        id=response.id,
        model=response.model,
        usage=usage_chat_to_responses(usage),
        extra={
            "object": "response",
            "created_at": created if isinstance(created, int) else 0,
        },
    )
