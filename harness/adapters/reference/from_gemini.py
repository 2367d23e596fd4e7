"""gemini -> anthropic-messages, on canonical objects (and, through
``to_openai``, gemini -> openai-chat). docs/conventions.md, "Gemini".

Requests:

* the model is the one the request's URL names (``Conversation.model``: the
  engine gives it as the body's ``model``);
* ``systemInstruction`` text parts become the top-level ``system``;
* ``model`` turns are assistant turns: text, then ``tool_use`` blocks whose
  ``input`` is the ``args`` object; thought parts are not sent (another
  provider cannot use Gemini's thoughts or signatures: Anthropic refuses
  thinking blocks it did not sign); empty text is dropped (a user turn of
  empty text alone is declined: Anthropic refuses empty content);
* ``functionResponse`` parts become ``tool_result`` blocks, first in their
  user turn; the text is the response object's reading (``output`` /
  ``error`` unwrapped, otherwise its JSON text) and ``error`` sets
  ``is_error``;
* ids: ``gemini_ids.py`` (generated for calls without one, results paired
  by id, else by name and order; the call's ``thoughtSignature`` rides in the
  id);
* ``inlineData`` images and PDFs become ``image`` / ``document`` blocks;
* tools: function declarations with their schema as JSON Schema (the
  codec reads ``parameters`` as JSON Schema); built-in tools (``googleSearch``...) are declined;
* ``functionCallingConfig``: AUTO -> auto, VALIDATED -> auto with every
  function ``strict`` (the codec reads it so), ANY -> any, ANY with one
  allowed name -> tool, NONE -> none. ``allowedFunctionNames`` restricting
  ANY to several names, or VALIDATED to some names (auto among them,
  https://ai.google.dev/api/caching#FunctionCallingConfig), has no
  Anthropic form and is declined; toward openai-chat and openai-responses
  it is ``allowed_tools`` with mode ``required`` / ``auto``
  (``allowed_tools.py`` resolves it before this step);
* ``generationConfig``: ``maxOutputTokens`` -> ``max_tokens`` (default 4096,
  Anthropic requires it), ``stopSequences``, ``temperature``, ``topP``,
  ``topK``; a positive ``thinkingBudget`` -> ``thinking`` (at least 1024,
  below ``max_tokens``).

Responses: the first candidate becomes the message (thought parts as
``thinking`` blocks with ``signature: ""``, as for DeepSeek reasoning);
``finishReason`` STOP -> ``end_turn`` (``tool_use`` when the message calls
functions), MAX_TOKENS -> ``max_tokens``, the safety family -> ``refusal``;
usage as read by the codec.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.adapters.reference.gemini_ids import generated_id, join_id
from toolwire.harness.adapters.reference.ids import to_anthropic_id
from toolwire.harness.adapters.reference.params import DEFAULT_MAX_TOKENS, MIN_THINKING_BUDGET
from toolwire.harness.adapters.reference.tools import EMPTY_INPUT_SCHEMA
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
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
    Usage,
)

_STOPS = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "content_filter": "refusal",
    "refusal": "refusal",
}


class _Ids:
    """Ids for calls and results, in conversation order."""

    def __init__(self, scope: str | None = None) -> None:
        self.scope = scope
        self.pending: list[tuple[str | None, str | None, str]] = []  # (gemini id, name, out id)

    def call(self, call: ToolCall, turn: int, number: int) -> str:
        base = call.id or generated_id(self.scope or str(turn), number)
        out = to_anthropic_id(join_id(base, call.signature)) or base
        self.pending.append((call.id, call.name, out))
        return out

    def result(self, result: ToolResult) -> str | None:
        matches = [p for p in self.pending if result.call_id is not None and p[0] == result.call_id]
        if not matches and result.call_id is None:
            matches = [p for p in self.pending if p[1] == result.name] or self.pending[:1]
        if not matches:
            return result.call_id  # an orphan: kept for the pairing rules to report
        self.pending.remove(matches[0])
        return matches[0][2]


def _arguments(call: ToolCall, where: str) -> dict[str, Any]:
    if not isinstance(call.arguments, dict):
        kind = type(call.arguments).__name__
        raise ConversionError(
            f"{where}: functionCall {call.name!r} has args that are a {kind}, not a JSON object",
            hint="functionCall.args must be an object (is it JSON text?)",
        )
    return call.arguments


def _media(block: OpaqueBlock, where: str) -> Block:
    data = block.raw.get("inlineData")
    if isinstance(data, Mapping):
        mime, payload = data.get("mimeType"), data.get("data")
        if isinstance(mime, str) and isinstance(payload, str):
            kind = "document" if mime == "application/pdf" else "image"
            if kind == "document" or mime.startswith("image/"):
                source = {"type": "base64", "media_type": mime, "data": payload}
                return OpaqueBlock(type=kind, raw={"type": kind, "source": source})
    raise UnsupportedConversion(
        f"{where}: a {block.type!r} part has no anthropic-messages equivalent "
        "(only inline images and PDFs convert)"
    )


def _user_blocks(turn: Turn, ids: _Ids, where: str) -> list[Block]:
    results: list[Block] = []
    rest: list[Block] = []
    for block in turn.blocks:
        if isinstance(block, ToolResult):
            text = "".join(b.text for b in block.content if isinstance(b, TextBlock))
            results.append(
                ToolResult(
                    call_id=ids.result(block),
                    content=(TextBlock(text),) if text else (),
                    content_form="string" if text else "absent",
                    is_error=True if block.is_error else None,
                )
            )
        elif isinstance(block, TextBlock):
            if block.text:
                rest.append(TextBlock(block.text))
        elif isinstance(block, OpaqueBlock):
            rest.append(_media(block, where))
        else:
            raise ConversionError(f"{where}: a user turn cannot hold a {type(block).__name__}")
    return results + rest


def _assistant_blocks(turn: Turn, ids: _Ids, index: int, where: str, thinking: bool) -> list[Block]:
    head: list[Block] = []
    blocks: list[Block] = []
    calls = 0
    for block in turn.blocks:
        if isinstance(block, ThinkingBlock):
            if thinking and block.text:
                head.append(ThinkingBlock(origin="thinking", text=block.text, signature=""))
        elif isinstance(block, TextBlock):
            if block.text:
                blocks.append(TextBlock(block.text))
        elif isinstance(block, ToolCall):
            call_id = ids.call(block, index, calls)
            calls += 1
            blocks.append(ToolCall(id=call_id, name=block.name, arguments=_arguments(block, where)))
        else:
            kind = block.type if isinstance(block, OpaqueBlock) else "functionResponse"
            raise UnsupportedConversion(
                f"{where}: a model {kind!r} part has no anthropic-messages equivalent"
            )
    return head + blocks


def _merge(turns: Sequence[Turn]) -> tuple[Turn, ...]:
    merged: list[Turn] = []
    for turn in turns:
        if merged and merged[-1].role == turn.role:
            blocks = [*merged[-1].blocks, *turn.blocks]
            first = ToolResult if turn.role == "user" else ThinkingBlock
            ordered: list[Block] = [b for b in blocks if isinstance(b, first)]
            ordered += [b for b in blocks if not isinstance(b, first)]
            merged[-1] = Turn(role=turn.role, blocks=tuple(ordered))
        else:
            merged.append(turn)
    return tuple(_string_form(t) for t in merged)


def _string_form(turn: Turn) -> Turn:
    if turn.role == "user" and len(turn.blocks) == 1 and isinstance(turn.blocks[0], TextBlock):
        return Turn(role="user", blocks=turn.blocks, content_form="string")
    return turn


def tools_from_gemini(tools: Sequence[ToolDef] | None) -> tuple[ToolDef, ...] | None:
    if tools is None:
        return None
    out = []
    for position, tool in enumerate(tools):
        if tool.kind != "function":
            raise UnsupportedConversion(
                f"tools[{position}] is Gemini's built-in {tool.kind!r} tool, which has no "
                "equivalent outside gemini"
            )
        out.append(
            ToolDef(
                name=tool.name,
                description=tool.description,
                parameters=tool.parameters or EMPTY_INPUT_SCHEMA,
                strict=tool.strict,
            )
        )
    return tuple(out)


def choice_from_gemini(choice: ToolChoice | None) -> ToolChoice | None:
    if choice is None:
        return None
    raw = choice.raw if isinstance(choice.raw, Mapping) else {}
    names = raw.get("allowedFunctionNames")
    # allowed_tools.resolve turns a restriction into a plain choice before this
    # step; one that reaches it has no anthropic-messages form.
    several = choice.mode == "required" and isinstance(names, list) and len(names) > 1
    if several or (raw.get("mode") == "VALIDATED" and isinstance(names, list) and names):
        raise UnsupportedConversion(
            f"functionCallingConfig {raw.get('mode')} with allowedFunctionNames restricts "
            "the calls to some tools; anthropic-messages has no such restriction"
        )
    return ToolChoice(mode=choice.mode, name=choice.name if choice.mode == "tool" else None)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def params_from_gemini(extra: Mapping[str, Any], require_max: bool = True) -> dict[str, Any]:
    """Anthropic parameters; ``require_max`` false leaves ``max_tokens`` out when
    the source set no limit (on the way to Chat Completions, where it is optional)."""
    config = extra.get("generationConfig")
    config = config if isinstance(config, Mapping) else {}
    out: dict[str, Any] = {}
    max_tokens = _int(config.get("maxOutputTokens"))
    out["max_tokens"] = DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens
    stop = config.get("stopSequences")
    if isinstance(stop, list) and stop:
        out["stop_sequences"] = [s for s in stop if isinstance(s, str)]
    for source, target in (("temperature", "temperature"), ("topP", "top_p"), ("topK", "top_k")):
        value = config.get(source)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[target] = min(value, 1) if target == "temperature" else value
    thinking = config.get("thinkingConfig")
    budget = _int(thinking.get("thinkingBudget")) if isinstance(thinking, Mapping) else None
    if budget is not None and budget > 0:
        budget = max(budget, MIN_THINKING_BUDGET)
        if budget < out["max_tokens"]:
            out["thinking"] = {"type": "enabled", "budget_tokens": budget}
    if max_tokens is None and not require_max:
        del out["max_tokens"]
    return out


def conversation_from_gemini(conversation: Conversation, require_max: bool = True) -> Conversation:
    system = [b for b in conversation.system if not (isinstance(b, TextBlock) and not b.text)]
    if any(not isinstance(b, TextBlock) for b in system):
        raise ConversionError("systemInstruction: only text parts can become a system prompt")
    ids = _Ids()
    turns: list[Turn] = []
    for index, turn in enumerate(conversation.turns):
        where = f"contents[{index}]"
        if turn.role == "assistant":
            blocks = _assistant_blocks(turn, ids, index, where, thinking=False)
        elif turn.role == "user":
            blocks = _user_blocks(turn, ids, where)
            if turn.blocks and not blocks:
                # Anthropic refuses empty content; dropping the turn would
                # change the conversation (the model's turn would open it).
                raise UnsupportedConversion(
                    f"{where} is a user turn whose only text is empty, which "
                    "anthropic-messages refuses; dropping it would change the conversation"
                )
        else:
            raise ConversionError(f"{where}: role {turn.role!r} is not a Gemini role (user, model)")
        if blocks:
            turns.append(Turn(role=turn.role, blocks=tuple(blocks)))
    system_form: ContentForm = "absent"
    if system:
        system_form = "string" if len(system) == 1 else "blocks"
    return Conversation(
        dialect=ANTHROPIC_MESSAGES,
        turns=_merge(turns),
        model=conversation.model,
        system=tuple(TextBlock(b.text) for b in system if isinstance(b, TextBlock)),
        system_form=system_form,
        tools=tools_from_gemini(conversation.tools),
        tool_choice=choice_from_gemini(conversation.tool_choice),
        stream=conversation.stream,
        extra=params_from_gemini(conversation.extra, require_max),
    )


def _stop(stop: StopReason, has_calls: bool) -> StopReason:
    if has_calls and stop.canonical in ("end_turn", "tool_use"):
        return StopReason(raw="tool_use", canonical="tool_use")
    wire = _STOPS.get(stop.canonical)
    if wire is None:
        if stop.raw is None:
            return StopReason(raw="end_turn", canonical="end_turn")
        raise UnsupportedConversion(
            f"finishReason {stop.raw!r} has no anthropic-messages stop_reason"
        )
    return StopReason(raw=wire, canonical="tool_use" if wire == "tool_use" else stop.canonical)


def response_from_gemini(response: Response) -> Response:
    if len(response.choices) != 1:
        raise ConversionError(
            f"the response has {len(response.choices)} candidates; anthropic-messages carries one",
            hint="convert a response with exactly one candidate (candidateCount 1)",
        )
    choice = response.choices[0]
    ids = _Ids(scope=response.id or "response")
    blocks = _assistant_blocks(choice.message, ids, 0, "candidates[0]", thinking=True)
    has_calls = any(isinstance(b, ToolCall) for b in blocks)
    usage = response.usage or Usage()
    return Response(
        dialect=ANTHROPIC_MESSAGES,
        choices=(
            Choice(
                index=0,
                message=Turn(role="assistant", blocks=tuple(blocks)),
                stop_reason=_stop(choice.stop_reason, has_calls),
            ),
        ),
        id=response.id,
        model=response.model,
        usage=Usage(input_tokens=usage.input_tokens or 0, output_tokens=usage.output_tokens or 0),
    )
