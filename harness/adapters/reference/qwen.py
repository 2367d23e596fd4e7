"""qwen-xml -> openai-chat: XML tool calls in text become structured calls.

A Qwen3-Coder model behind a server without a tool parser writes its calls
as XML in ``content`` (WIRE.md 1.4). The qwen-xml codec parses that text
(``toolwire.harness.dialects.qwen_xml``); this module writes what a tool-parsing
server would have sent:

* each valid call becomes a ``tool_calls`` entry (arguments typed by the
  tool's JSON Schema, written as JSON text), in the order written;
* text before the calls stays as ``content``; the newlines that separate it
  from the markup belong to the markup and are removed (``null`` when no text
  is left);
* a rejected call is never executed: its exact text stays in ``content``.
  The one exception is a call whose only fault is a missing ``<tool_call>``
  opener (Qwen3-Coder drops it after a sentence, ollama/ollama#18530): its
  body is complete, so it is recovered when re-reading it with the opener
  gives one call with no issue at all;
* ``finish_reason`` becomes ``tool_calls`` when there are calls, except
  ``length`` (a cut-off output), which is kept;
* the markup carries no ids and Chat Completions needs them: a call gets
  ``call_`` + 24 hex digits of a SHA-256 over the response id, the choice,
  its position and its markup (stable, so a streamed and a whole response
  get the same ids); in a request, the ``tool_call_id`` s of the tool
  messages that answer the turn are used, in order, when present.

Typing needs the request's tools: see ``ReferenceAdapter.with_tools``.
Without them a value stays the string written, as the codec does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

from toolwire.harness.dialects.qwen_xml import REJECTED_CALL, parse_qwen_xml
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
    ToolCall,
    ToolDef,
    ToolResult,
    Turn,
)

_MARKUP_STARTS = ("<tool_call>", "<function=")


def generated_id(seed: str, position: int, markup: str) -> str:
    digest = hashlib.sha256(f"{seed}\x00{position}\x00{markup}".encode()).hexdigest()
    return f"call_{digest[:24]}"


def _is_xml_call(call: ToolCall) -> bool:
    # The codec's calls from markup: no id, the markup as raw arguments.
    return call.id is None and (call.raw_arguments or "").startswith(_MARKUP_STARTS)


def recover_missing_opener(block: OpaqueBlock, tools: Sequence[ToolDef] | None) -> ToolCall | None:
    """The call of a rejected block whose only issue is ``missing_opener``,
    when it reads cleanly with the opener put back; otherwise ``None``."""
    issues = block.raw.get("issues")
    text = block.raw.get("text")
    if not isinstance(issues, list) or not isinstance(text, str):
        return None
    if {issue.get("code") for issue in issues if isinstance(issue, dict)} != {"missing_opener"}:
        return None
    parse = parse_qwen_xml("<tool_call>\n" + text, tools)
    if parse.issues or parse.rejected or len(parse.calls) != 1 or parse.text.strip():
        return None
    return parse.calls[0]


def _structure(
    turn: Turn, seed: str, tools: Sequence[ToolDef] | None, ids: Sequence[str | None] = ()
) -> Turn:
    """The turn with its XML calls as structured calls and the rest as text."""
    pieces: list[str] = []
    rejected_pieces: set[int] = set()  # indices of pieces that are rejected markup
    others: list[Block] = []
    calls: list[ToolCall] = []
    kept_rejected = False
    for block in turn.blocks:
        call: ToolCall | None = None
        if isinstance(block, ToolCall) and _is_xml_call(block):
            call = block
        elif isinstance(block, OpaqueBlock) and block.type == REJECTED_CALL:
            call = recover_missing_opener(block, tools)
            if call is None:
                rejected_pieces.add(len(pieces))
                pieces.append(str(block.raw.get("text", "")))
                kept_rejected = True
                continue
        elif isinstance(block, TextBlock) and not block.extra:
            pieces.append(block.text)
            continue
        else:
            others.append(block)  # reasoning, native calls: kept as they are
            continue
        position = len(calls)
        given = ids[position] if position < len(ids) else None
        call_id = given or generated_id(seed, position, call.raw_arguments or "")
        calls.append(ToolCall(id=call_id, name=call.name, arguments=call.arguments))
    if not calls:
        if not kept_rejected:
            return turn
        # Only rejected calls: the content is the text exactly as written.
        return replace(turn, blocks=(*others, TextBlock("".join(pieces))), content_form="string")
    text = _join_text(pieces, rejected_pieces)
    blocks: list[Block] = [b for b in others if not isinstance(b, ToolCall)]
    form: ContentForm = "blocks"
    if text.strip():
        blocks.append(TextBlock(text))
        form = "string"
    blocks.extend(b for b in others if isinstance(b, ToolCall))
    blocks.extend(calls)
    return replace(turn, blocks=tuple(blocks), content_form=form)


def _join_text(pieces: list[str], rejected_pieces: set[int]) -> str:
    """The text around the calls, without the newlines that separated it from
    the markup; a rejected call's markup stays exactly as written, its own
    newlines included (xml.text_preserved)."""
    text = "".join(pieces)
    if pieces and 0 not in rejected_pieces:
        text = text.lstrip("\n")
    if pieces and len(pieces) - 1 not in rejected_pieces:
        text = text.rstrip("\n")
    return text


def _choice(choice: Choice, seed: str, tools: Sequence[ToolDef] | None) -> Choice:
    message = _structure(choice.message, f"{seed}:{choice.index}", tools)
    stop = choice.stop_reason
    if message.tool_calls and stop.raw != "length":
        stop = StopReason(raw="tool_calls", canonical="tool_use")
    return replace(choice, message=message, stop_reason=stop)


def response_to_openai(response: Response, tools: Sequence[ToolDef] | None) -> Response:
    """``response`` as parsed by the qwen-xml codec (with ``tools``)."""
    seed = response.id or ""
    choices = tuple(_choice(choice, seed, tools) for choice in response.choices)
    return replace(response, dialect=OPENAI_CHAT, choices=choices)


def _answer_ids(turns: Sequence[Turn], start: int) -> list[str | None]:
    ids: list[str | None] = []
    for turn in turns[start:]:
        if turn.role != "tool":
            break
        ids.extend(result.call_id for result in turn.tool_results)
    return ids


def conversation_to_openai(conversation: Conversation) -> Conversation:
    """A request parsed by the qwen-xml codec: assistant XML becomes tool_calls,
    and tool messages without a ``tool_call_id`` get the id of the call they answer."""
    turns = list(conversation.turns)
    for index, turn in enumerate(turns):
        if turn.role != "assistant":
            continue
        structured = _structure(
            turn, f"messages[{index}]", conversation.tools, _answer_ids(turns, index + 1)
        )
        turns[index] = structured
        calls = [call for call in structured.tool_calls if call.id is not None]
        position = index + 1
        for call in calls:
            if position >= len(turns) or turns[position].role != "tool":
                break
            turns[position] = _with_call_id(turns[position], call.id)
            position += 1
    return replace(conversation, dialect=OPENAI_CHAT, turns=tuple(turns))


def _with_call_id(turn: Turn, call_id: str | None) -> Turn:
    blocks = tuple(
        replace(b, call_id=call_id) if isinstance(b, ToolResult) and b.call_id is None else b
        for b in turn.blocks
    )
    return replace(turn, blocks=blocks)
