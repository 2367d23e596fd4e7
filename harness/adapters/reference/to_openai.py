"""anthropic-messages -> openai-chat / deepseek-chat, on canonical objects.

Requests (docs/conventions.md and WIRE.md 1.1-1.3):

* the top-level ``system`` becomes a leading ``system`` message;
* a user message's ``tool_result`` blocks become one ``tool`` message each,
  in order, right after the assistant turn; the rest of that user message
  (text, images) follows as a user message;
* ``is_error: true`` results are written with the ``Error: `` prefix
  (``toolwire.conformance.readings.conventions.mark_error``): Chat Completions has no flag;
* assistant turns: text blocks joined with no separator into ``content``
  (one of the joins docs/conventions.md accepts; text after a call cannot
  keep its place), ``tool_use`` blocks as ``tool_calls`` whose ``arguments``
  is the JSON text of ``input``; a turn with calls only gets ``content: null``
  in openai-chat (OpenAI's form) and ``content: ""`` in deepseek-chat (the
  form of DeepSeek's thinking-mode examples, so a DeepSeek turn round-trips);
* thinking: deepseek-chat gets ``reasoning_content`` on every assistant turn
  that had thinking (``thinking.py``), and ``""`` on the other turns of a
  tool-call stretch; openai-chat requests carry no reasoning (OpenAI has no
  such input field and strict OpenAI-compatible servers reject
  ``reasoning_content`` with HTTP 400);
* ids go through ``ids.from_anthropic_id`` (unchanged unless they carry the
  reversible ``twid_`` mapping).

Responses: the message becomes ``choices[0]`` with ``reasoning_content``
(for both dialects: it is the field OpenAI-compatible servers use for
reasoning, and clients ignore fields they do not know), ``content`` and
``tool_calls``; ``finish_reason`` by ``stop_reasons.py``; usage
``input_tokens`` -> ``prompt_tokens``, ``output_tokens`` ->
``completion_tokens``; ``object: chat.completion`` and ``created: 0`` (an
Anthropic message carries no creation time).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from toolwire.conformance.readings.conventions import mark_error
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference.content import texts, to_openai_content
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.ids import from_anthropic_id
from toolwire.harness.adapters.reference.params import params_to_openai, thinking_disabled
from toolwire.harness.adapters.reference.stop_reasons import to_openai_finish
from toolwire.harness.adapters.reference.thinking import (
    fill_replay_reasoning,
    reasoning_content_block,
)
from toolwire.harness.adapters.reference.tools import choice_to_openai, tools_to_openai
from toolwire.harness.adapters.reference.truncated import cut_off_call, is_cut_off
from toolwire.harness.adapters.reference.usage import usage_to_chat
from toolwire.harness.model import (
    DEEPSEEK_CHAT,
    Block,
    Choice,
    ContentForm,
    Conversation,
    OpaqueBlock,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)


def is_server_tool_block(block: OpaqueBlock) -> bool:
    """``server_tool_use`` / ``mcp_tool_use`` and the results Anthropic's server
    tools return (``web_search_tool_result``, ``web_fetch_tool_result``,
    ``bash_code_execution_tool_result``...):
    https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool"""
    return block.type in _SERVER_CALLS or (
        block.type.endswith("_tool_result") and block.type != "tool_result"
    )


_SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})


def _call_to_openai(call: ToolCall, where: str, cut_off: bool = False) -> ToolCall:
    kept = cut_off_call(call, from_anthropic_id(call.id)) if cut_off else None
    if kept is not None:
        return kept
    if not isinstance(call.arguments, dict):
        kind = type(call.arguments).__name__
        raise ConversionError(
            f"{where}: tool_use {call.id!r} ({call.name}) has an input that is a {kind}, "
            "not a JSON object",
            hint="tool_use.input must be an object (is it encoded twice?)",
        )
    return ToolCall(id=from_anthropic_id(call.id), name=call.name, arguments=call.arguments)


def _text_turn(role: str, blocks: list[Block]) -> Turn:
    """A message whose content is text and images: a string when it is one text."""
    if len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        return Turn(role=role, blocks=(blocks[0],), content_form="string")
    if not blocks:
        return Turn(role=role, blocks=(TextBlock(""),), content_form="string")
    return Turn(role=role, blocks=tuple(blocks), content_form="blocks")


def _assistant_turn(
    turn: Turn, where: str, target: str, with_reasoning: bool, cut_off: bool = False
) -> Turn:
    blocks: list[Block] = []
    reasoning = reasoning_content_block(turn.blocks)
    if with_reasoning and reasoning is not None:
        blocks.append(reasoning)
    unsupported = [
        b for b in turn.blocks if not isinstance(b, TextBlock | ThinkingBlock | ToolCall)
    ]
    server = [b for b in unsupported if isinstance(b, OpaqueBlock) and is_server_tool_block(b)]
    if server:
        # The provider ran these tools itself; Chat Completions has no block for
        # them, and dropping them would hide from the model what it saw.
        raise UnsupportedConversion(
            f"{where}: an assistant {server[0].type!r} block is a tool that Anthropic ran on "
            "its side; Chat Completions has no equivalent for server-side tool blocks"
        )
    if unsupported:
        kind = unsupported[0].type if isinstance(unsupported[0], OpaqueBlock) else "tool_result"
        raise ConversionError(
            f"{where}: an assistant {kind!r} block has no Chat Completions equivalent",
            hint="server tool blocks and results cannot be replayed to another provider",
        )
    text = "".join(texts(turn.blocks))
    calls = [_call_to_openai(call, where, cut_off) for call in turn.tool_calls]
    # A turn with calls only: OpenAI writes content null, DeepSeek "".
    null_content = bool(calls) and not text and target != DEEPSEEK_CHAT
    form: ContentForm = "blocks" if null_content else "string"
    if form == "string":
        blocks.append(TextBlock(text))
    blocks.extend(calls)
    return Turn(role="assistant", blocks=tuple(blocks), content_form=form)


def _tool_turn(result: ToolResult, where: str) -> Turn:
    if any(not isinstance(b, TextBlock) for b in result.content):
        raise ConversionError(
            f"{where}: a tool_result holding images or documents has no Chat Completions "
            "equivalent (tool messages carry text only)",
        )
    pieces = texts(result.content) or [""]
    if result.is_error:
        pieces[0] = mark_error(pieces[0])
    form: ContentForm = "string" if len(pieces) == 1 else "blocks"
    content = tuple(TextBlock(piece) for piece in pieces)
    converted = ToolResult(
        call_id=from_anthropic_id(result.call_id), content=content, content_form=form
    )
    return Turn(role="tool", blocks=(converted,), content_form=form)


# OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$ (chat API reference). Anthropic
# allows 128 characters, so a longer name has no faithful openai-chat form.
_OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def _check_names(names: Iterable[str | None]) -> None:
    for name in names:
        if name is not None and not _OPENAI_NAME.match(name):
            raise UnsupportedConversion(
                f"tool name {name[:40]!r}{'...' if len(name) > 40 else ''} ({len(name)} "
                "characters) cannot be expressed in openai-chat, whose function names match "
                "^[a-zA-Z0-9_-]{1,64}$; renaming it would change the tool"
            )


def conversation_to_openai(conversation: Conversation, target: str) -> Conversation:
    _check_names(
        [tool.name for tool in conversation.tools or ()]
        + [call.name for turn in conversation.turns for call in turn.tool_calls]
    )
    turns: list[Turn] = []
    if conversation.system:
        if any(not isinstance(b, TextBlock) for b in conversation.system):
            raise ConversionError("system: only text blocks can become a system message")
        turns.append(_text_turn("system", list(conversation.system)))
    deepseek = target == DEEPSEEK_CHAT
    for index, turn in enumerate(conversation.turns):
        where = f"messages[{index}]"
        if turn.role == "assistant":
            turns.append(_assistant_turn(turn, where, target, with_reasoning=deepseek))
        elif turn.role == "user":
            results = turn.tool_results
            turns.extend(_tool_turn(result, where) for result in results)
            rest = [b for b in turn.blocks if not isinstance(b, ToolResult)]
            if rest or not results:
                turns.append(_text_turn("user", to_openai_content(rest, where, target)))
        else:
            raise ConversionError(
                f"{where}: role {turn.role!r} is not an anthropic-messages role",
                hint="anthropic-messages has user and assistant messages and a top-level system",
            )
    if deepseek and not thinking_disabled(conversation.extra):
        turns = list(fill_replay_reasoning(turns))
    tool_choice, parallel = choice_to_openai(conversation.tool_choice)
    return Conversation(
        dialect=target,
        turns=tuple(turns),
        model=conversation.model,
        tools=tools_to_openai(conversation.tools),
        tool_choice=tool_choice,
        parallel_tool_calls=parallel,
        stream=conversation.stream,
        extra=params_to_openai(conversation.extra, target, conversation.stream),
    )


def response_to_openai(response: Response, target: str) -> Response:
    choice = response.choices[0]
    _check_names([call.name for call in choice.message.tool_calls])
    message = _assistant_turn(
        choice.message,
        "content",
        target,
        with_reasoning=True,
        cut_off=is_cut_off(choice.stop_reason),
    )
    if not message.tool_calls and not message.text:
        # Nothing to say: content null, as OpenAI writes it.
        blocks = tuple(b for b in message.blocks if not isinstance(b, TextBlock))
        message = Turn(role="assistant", blocks=blocks, content_form="null")
    usage = response.usage
    return Response(
        dialect=target,
        choices=(
            Choice(index=0, message=message, stop_reason=to_openai_finish(choice.stop_reason)),
        ),
        id=response.id,
        model=response.model,
        usage=usage_to_chat(usage, target),
        extra={"object": "chat.completion", "created": 0},
    )
