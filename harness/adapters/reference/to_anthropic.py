"""openai-chat / deepseek-chat -> anthropic-messages, on canonical objects.

Requests (docs/conventions.md and WIRE.md 1.2):

* ``system`` and ``developer`` messages become the top-level ``system``
  (one text block per non-empty message, a plain string when there is one);
* the ``tool`` messages answering one assistant turn become ``tool_result``
  blocks placed **first** in **one** user message, followed by any user text
  that comes next (consecutive same-role messages are merged, which is what
  Anthropic's API does and what strict compatible servers require);
* a tool message whose content starts with ``Error:`` becomes
  ``is_error: true`` (its text kept as it is);
* assistant turns: reasoning (``reasoning_content``) first as unsigned
  ``thinking`` blocks, then text, then ``tool_use`` blocks whose ``input`` is
  the decoded ``arguments``. Arguments that are not a JSON object are refused
  with a ``ConversionError`` naming the call: the converter never guesses;
* empty text is dropped (Anthropic rejects empty text blocks); ids go
  through ``ids.to_anthropic_id`` (unchanged when already legal);
* tools, tool choice and parameters: ``tools.py`` and ``params.py``.

Responses: one choice becomes the message; content as above; stop reason by
``stop_reasons.py``; usage ``prompt_tokens`` -> ``input_tokens`` less the
cache reads, which go to ``cache_read_input_tokens``, ``completion_tokens``
-> ``output_tokens`` (0 when the source has no usage, because Anthropic's
message always carries it): ``usage.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from toolwire.conformance.readings.conventions import result_is_error_by_convention
from toolwire.harness.adapters.reference.content import texts, to_anthropic_content
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.ids import to_anthropic_id
from toolwire.harness.adapters.reference.params import params_to_anthropic
from toolwire.harness.adapters.reference.stop_reasons import to_anthropic_stop
from toolwire.harness.adapters.reference.thinking import anthropic_thinking_blocks
from toolwire.harness.adapters.reference.tools import choice_to_anthropic, tools_to_anthropic
from toolwire.harness.adapters.reference.truncated import cut_off_call, is_cut_off
from toolwire.harness.adapters.reference.usage import usage_to_anthropic
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    Block,
    Choice,
    ContentForm,
    Conversation,
    JsonObject,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)

_SYSTEM_ROLES = ("system", "developer")


def arguments_object(call: ToolCall, where: str) -> JsonObject:
    """The decoded arguments of a Chat Completions call, which must be a JSON object."""
    if call.arguments_error is not None:
        raise ConversionError(
            f"{where}: tool call {call.id!r} ({call.name}) has arguments that are not valid "
            f"JSON: {call.arguments_error}",
            hint="fix the arguments text; the converter does not guess what a broken call meant",
        )
    if not isinstance(call.arguments, dict):
        kind = type(call.arguments).__name__
        raise ConversionError(
            f"{where}: tool call {call.id!r} ({call.name}) has arguments that decode to a "
            f"{kind}, not a JSON object",
            hint="arguments must be the JSON text of an object (is it encoded twice?)",
        )
    return call.arguments


def call_to_anthropic(call: ToolCall, where: str, cut_off: bool = False) -> ToolCall:
    kept = cut_off_call(call, to_anthropic_id(call.id)) if cut_off else None
    if kept is not None:
        return kept
    return ToolCall(
        id=to_anthropic_id(call.id), name=call.name, arguments=arguments_object(call, where)
    )


def _assistant_blocks(turn: Turn, where: str, cut_off: bool = False) -> list[Block]:
    content = [b for b in turn.blocks if not isinstance(b, ThinkingBlock | ToolCall)]
    blocks: list[Block] = [*anthropic_thinking_blocks(turn.blocks)]
    blocks.extend(to_anthropic_content(content, where))
    refusal = turn.extra.get("refusal")
    if isinstance(refusal, str) and refusal:
        blocks.append(TextBlock(refusal))
    blocks.extend(call_to_anthropic(call, where, cut_off) for call in turn.tool_calls)
    return blocks


def _result_to_anthropic(result: ToolResult, where: str) -> ToolResult:
    others = [b for b in result.content if not isinstance(b, TextBlock)]
    if others:
        raise ConversionError(f"{where}: a tool message may only hold text")
    pieces = [text for text in texts(result.content) if text]
    content: tuple[Block, ...] = tuple(TextBlock(text) for text in pieces)
    form: ContentForm = "absent"
    if len(pieces) == 1 and result.content_form == "string":
        form = "string"
    elif pieces:
        form = "blocks"
    is_error = True if result_is_error_by_convention("".join(texts(result.content))) else None
    return ToolResult(
        call_id=to_anthropic_id(result.call_id),
        content=content,
        content_form=form,
        is_error=is_error,
    )


def _system_blocks(turns: Iterable[Turn]) -> tuple[tuple[Block, ...], ContentForm]:
    blocks: list[Block] = []
    forms: list[ContentForm] = []
    for turn in turns:
        others = [b for b in turn.blocks if not isinstance(b, TextBlock)]
        if others:
            raise ConversionError("a system message may only hold text for anthropic-messages")
        pieces = [TextBlock(text) for text in texts(turn.blocks) if text]
        blocks.extend(pieces)
        forms.extend(turn.content_form for _ in pieces)
    if not blocks:
        return (), "absent"
    return tuple(blocks), "string" if forms == ["string"] else "blocks"


def _merge(turns: Sequence[Turn]) -> tuple[Turn, ...]:
    """Merge consecutive same-role turns; results first in user turns,
    thinking first in assistant turns."""
    groups: list[tuple[str, list[Block]]] = []
    for turn in turns:
        if groups and groups[-1][0] == turn.role:
            groups[-1][1].extend(turn.blocks)
        else:
            groups.append((turn.role, list(turn.blocks)))
    merged = []
    for role, blocks in groups:
        first_kind = ToolResult if role == "user" else ThinkingBlock
        ordered: list[Block] = [b for b in blocks if isinstance(b, first_kind)]
        ordered += [b for b in blocks if not isinstance(b, first_kind)]
        merged.append(Turn(role=role, blocks=tuple(ordered), content_form=_form(role, ordered)))
    return tuple(merged)


def _form(role: str, blocks: Sequence[Block]) -> ContentForm:
    if role == "user" and len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        return "string"
    return "blocks"


def conversation_to_anthropic(conversation: Conversation) -> Conversation:
    system_turns = [t for t in conversation.turns if t.role in _SYSTEM_ROLES]
    system, system_form = _system_blocks(system_turns)
    turns: list[Turn] = []
    for index, turn in enumerate(conversation.turns):
        where = f"messages[{index}]"
        if turn.role in _SYSTEM_ROLES:
            continue
        if turn.role == "tool":
            blocks: list[Block] = [_result_to_anthropic(r, where) for r in turn.tool_results]
            role = "user"
        elif turn.role == "user":
            blocks, role = to_anthropic_content(turn.blocks, where), "user"
        elif turn.role == "assistant":
            blocks, role = _assistant_blocks(turn, where), "assistant"
        else:
            raise ConversionError(
                f"{where}: role {turn.role!r} has no anthropic-messages equivalent",
                hint="use system, developer, user, assistant or tool messages",
            )
        if blocks:
            turns.append(Turn(role=role, blocks=tuple(blocks)))
    return Conversation(
        dialect=ANTHROPIC_MESSAGES,
        turns=_merge(turns),
        model=conversation.model,
        system=system,
        system_form=system_form,
        tools=tools_to_anthropic(conversation.tools),
        tool_choice=choice_to_anthropic(conversation.tool_choice, conversation.parallel_tool_calls),
        stream=conversation.stream,
        extra=params_to_anthropic(conversation.extra),
    )


def response_to_anthropic(response: Response) -> Response:
    if len(response.choices) != 1:
        raise ConversionError(
            f"the response has {len(response.choices)} choices; anthropic-messages carries one",
            hint="convert a response with exactly one choice (n=1)",
        )
    choice = response.choices[0]
    blocks = _assistant_blocks(
        choice.message, "choices[0].message", cut_off=is_cut_off(choice.stop_reason)
    )
    has_calls = any(isinstance(b, ToolCall) for b in blocks)
    return Response(
        dialect=ANTHROPIC_MESSAGES,
        choices=(
            Choice(
                index=0,
                message=Turn(role="assistant", blocks=tuple(blocks)),
                stop_reason=to_anthropic_stop(choice.stop_reason, has_calls),
            ),
        ),
        id=response.id,
        model=response.model,
        usage=usage_to_anthropic(response.usage),
    )
