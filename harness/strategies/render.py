"""Writing an ``ExchangePlan`` in a dialect: the request, the response, the stream.

The plan becomes canonical model objects in the dialect's own structure
(openai-chat ``tool`` messages, anthropic-messages ``tool_result`` blocks,
DeepSeek ``reasoning_content``, Qwen XML calls in the text), which the
dialect's codec renders in its natural form. Streams are the codec's event
sequence with each text, reasoning and arguments field cut into pieces
(``fragments``), the way real servers send them.

Pure functions, no Hypothesis: ``toolwire.harness.strategies`` draws plans, this
module only writes them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from toolwire.harness.adapters.reference.to_gemini import conversation_to_gemini, response_to_gemini
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml.turns import unparse_turn
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    OPENAI_RESPONSES,
    QWEN_XML,
    Block,
    CanonicalStop,
    Choice,
    ContentForm,
    Conversation,
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
from toolwire.harness.payloads import events_to_wire
from toolwire.harness.strategies.plan import (
    AssistantPlan,
    CallPlan,
    ExchangePlan,
    ToolChoicePlan,
    UserPlan,
)

# The marker docs/conventions.md gives a failed result in openai-chat.
ERROR_MARKER = "Error: "
# Anthropic's smallest thinking budget (extended-thinking docs: at least 1024).
THINKING_BUDGET = 1024

_OPENAI_STOPS: dict[str, str] = {
    "end_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
}
_RESPONSE_ID_PREFIX: dict[str, str] = {
    ANTHROPIC_MESSAGES: "msg_",
    DEEPSEEK_CHAT: "",
    OPENAI_RESPONSES: "resp_",
}
_CREATED = 1_750_000_000  # a fixed timestamp: generated payloads are reproducible


def _gemini(plan: ExchangePlan) -> bool:
    return plan.dialect == GEMINI


def _as_anthropic(plan: ExchangePlan) -> ExchangePlan:
    # A gemini plan is written as its anthropic-messages twin (the same turn
    # structure: results in user turns, a top-level system prompt), then
    # converted by the reference adapter's documented steps.
    return replace(plan, dialect=ANTHROPIC_MESSAGES)


def render_request(plan: ExchangePlan) -> dict[str, Any]:
    """The request body of ``plan`` in its dialect."""
    return get_codec(plan.dialect).render_request(request_conversation(plan))


def render_response(plan: ExchangePlan) -> dict[str, Any]:
    """The (non-streamed) response body of ``plan`` in its dialect."""
    return get_codec(plan.dialect).render_response(response_of(plan))


def render_stream(plan: ExchangePlan) -> list[dict[str, Any]]:
    """The streamed response in the adapter protocol's list form
    (``{"event", "data"}``), fields cut into ``plan.fragments`` pieces."""
    events = events_to_wire(get_codec(plan.dialect).render_stream(response_of(plan)))
    return fragment_stream(events, plan.fragments)


# --- requests -------------------------------------------------------------------


def request_conversation(plan: ExchangePlan) -> Conversation:
    if _gemini(plan):
        return conversation_to_gemini(request_conversation(_as_anthropic(plan)))
    anthropic = plan.dialect == ANTHROPIC_MESSAGES
    turns: list[Turn] = []
    if plan.system is not None and not anthropic:
        turns.append(Turn("system", (TextBlock(plan.system),), content_form="string"))
    for turn in plan.turns:
        if isinstance(turn, UserPlan):
            turns.extend(_user_turns(plan.dialect, turn, plan.content_parts))
        else:
            turns.append(_assistant_turn(plan.dialect, turn))
    return Conversation(
        dialect=plan.dialect,
        turns=tuple(turns),
        model=plan.model,
        system=(TextBlock(plan.system),) if anthropic and plan.system is not None else (),
        system_form="string" if anthropic and plan.system is not None else "absent",
        tools=tuple(ToolDef(t.name, t.description, dict(t.parameters)) for t in plan.tools),
        tool_choice=_tool_choice(plan.tool_choice),
        parallel_tool_calls=_parallel_field(plan),
        stream=True if plan.stream else None,
        extra=_request_extra(plan),
    )


def _user_turns(dialect: str, turn: UserPlan, parts: bool) -> list[Turn]:
    if dialect == ANTHROPIC_MESSAGES:
        blocks: list[Block] = [
            ToolResult(
                r.call_id,
                (TextBlock(r.text),),
                _form(parts and bool(r.text)),  # never an empty text block
                True if r.is_error else None,
            )
            for r in turn.results
        ]
        if turn.text is not None:
            blocks.append(TextBlock(turn.text))
        only_text = not turn.results and not parts
        return [Turn("user", tuple(blocks), content_form="string" if only_text else "blocks")]
    turns = []
    for result in turn.results:
        text = _marked(result.text, result.is_error)
        form = _form(parts and bool(text))
        turns.append(Turn("tool", (ToolResult(result.call_id, (TextBlock(text),), form),), form))
    if turn.text is not None:
        turns.append(Turn("user", (TextBlock(turn.text),), content_form=_form(parts)))
    return turns


def _form(parts: bool) -> ContentForm:
    return "blocks" if parts else "string"


def _marked(text: str, is_error: bool) -> str:
    return ERROR_MARKER + text if is_error else text


def _assistant_turn(dialect: str, turn: AssistantPlan, in_answer: bool = False) -> Turn:
    blocks: list[Block] = []
    if dialect == ANTHROPIC_MESSAGES:
        for reasoning in turn.reasoning:
            if reasoning.kind == "redacted":
                blocks.append(ThinkingBlock("redacted_thinking", redacted_data=reasoning.text))
            else:
                blocks.append(ThinkingBlock("thinking", reasoning.text, reasoning.signature))
        if turn.text_before is not None:
            blocks.append(TextBlock(turn.text_before))
        blocks.extend(ToolCall(c.id, c.name, dict(c.arguments)) for c in turn.calls)
        if turn.text_after is not None:
            blocks.append(TextBlock(turn.text_after))
        return Turn("assistant", tuple(blocks), content_form="blocks")
    if dialect == DEEPSEEK_CHAT and turn.reasoning:
        text = "".join(r.text for r in turn.reasoning)
        blocks.append(ThinkingBlock("reasoning_content", text=text))
    text_parts = [t for t in (turn.text_before, turn.text_after) if t is not None]
    form: ContentForm = "string"
    if text_parts:
        blocks.append(TextBlock("".join(text_parts)))
    elif dialect == DEEPSEEK_CHAT:
        blocks.append(TextBlock(""))  # DeepSeek's own form for a turn of calls only
    elif not (in_answer and turn.calls and dialect == QWEN_XML):
        form = "null"
    blocks.extend(_openai_call(dialect, call, in_answer) for call in turn.calls)
    return Turn("assistant", tuple(blocks), content_form=form)


def _openai_call(dialect: str, call: CallPlan, in_answer: bool) -> ToolCall:
    if dialect != QWEN_XML:
        return ToolCall(call.id, call.name, dict(call.arguments))
    if in_answer:
        # The model's answer: markup in the text, which carries no id.
        return ToolCall(None, call.name, dict(call.arguments))
    # History: a client sends the calls it parsed back as native tool_calls
    # (the chat template writes them as markup), so tool messages can answer
    # them by id. Answering XML calls in the text by id is refused as
    # pairing.orphan_result, without an id as schema.request.
    raw = json.dumps(dict(call.arguments), ensure_ascii=False)
    return ToolCall(
        call.id, call.name, dict(call.arguments), raw_arguments=raw, extra={"type": "function"}
    )


def _tool_choice(plan: ToolChoicePlan | None) -> ToolChoice | None:
    if plan is None:
        return None
    disable = None if plan.parallel else True
    return ToolChoice(mode=plan.kind, name=plan.name, disable_parallel=disable)


def _parallel_field(plan: ExchangePlan) -> bool | None:
    if plan.dialect == ANTHROPIC_MESSAGES or plan.tool_choice is None:
        return None
    return False if not plan.tool_choice.parallel else None


def _request_extra(plan: ExchangePlan) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if plan.max_tokens is not None:
        extra[plan.limit_field] = plan.max_tokens
    if plan.dialect == ANTHROPIC_MESSAGES and plan.reasoning:
        extra["thinking"] = {"type": "enabled", "budget_tokens": THINKING_BUDGET}
    if plan.dialect == DEEPSEEK_CHAT:
        extra["thinking"] = {"type": "enabled" if plan.reasoning else "disabled"}
    if plan.stream and plan.dialect not in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES):
        extra["stream_options"] = {"include_usage": True}
    extra.update(plan.extra)
    return extra


# --- responses ------------------------------------------------------------------


def response_of(plan: ExchangePlan) -> Response:
    if _gemini(plan):
        return response_to_gemini(response_of(_as_anthropic(plan)))
    message = _assistant_turn(plan.dialect, plan.answer, in_answer=True)
    if plan.dialect == QWEN_XML and plan.cut is not None:
        message = _cut_last_call(message, plan.cut)
    canonical: CanonicalStop = plan.stop
    raw: str = plan.stop
    extra: dict[str, Any] = {}
    if plan.dialect == OPENAI_RESPONSES:
        # No finish reason: the codec writes status from the canonical stop.
        extra = {"object": "response", "created_at": _CREATED}
    elif plan.dialect != ANTHROPIC_MESSAGES:
        # A server without a Qwen tool parser sees text: it stops with "stop".
        text_calls = plan.dialect == QWEN_XML and plan.stop == "tool_use"
        raw = "stop" if text_calls else _OPENAI_STOPS[plan.stop]
        canonical = "end_turn" if text_calls else canonical
        extra = {"object": "chat.completion", "created": _CREATED}
    return Response(
        dialect=plan.dialect,
        choices=(Choice(0, message, StopReason(raw, canonical)),),
        id=_RESPONSE_ID_PREFIX.get(plan.dialect, "chatcmpl-") + plan.response_id,
        model=plan.model,
        usage=Usage(input_tokens=plan.usage[0], output_tokens=plan.usage[1]),
        extra=extra,
    )


def _cut_last_call(message: Turn, keep: int) -> Turn:
    """The answer's text as written, cut ``keep`` characters into its last call
    (always before the call's end, so the call is left unfinished)."""
    text = unparse_turn(message, "answer").text
    start = text.rfind("<tool_call>")
    cut = start + min(keep, len(text) - start - 1)
    return Turn("assistant", (TextBlock(text[:cut]),), content_form="string")


# --- stream fragments ------------------------------------------------------------

# Per dialect family: the delta fields that carry text a server streams in pieces.
_ANTHROPIC_DELTA_FIELDS = {"text_delta": "text", "thinking_delta": "thinking"}
_ANTHROPIC_JSON_DELTA = ("input_json_delta", "partial_json")


def fragment_stream(events: list[dict[str, Any]], sizes: Sequence[int]) -> list[dict[str, Any]]:
    """Each streamed text, reasoning or arguments field cut into pieces whose
    lengths cycle through ``sizes`` (no sizes: the events unchanged)."""
    if not sizes or any(size < 1 for size in sizes):
        return events
    out: list[dict[str, Any]] = []
    for event in events:
        out.extend(_split_event(event, sizes))
    return out


def _pieces(text: str, sizes: Sequence[int]) -> list[str]:
    pieces, start = [], 0
    for size in itertools.cycle(sizes):
        if start >= len(text):
            break
        pieces.append(text[start : start + size])
        start += size
    return pieces or [text]


def _split_event(event: dict[str, Any], sizes: Sequence[int]) -> Iterator[dict[str, Any]]:
    data = event.get("data")
    if not isinstance(data, dict):
        yield event
        return
    target = _split_target(data)
    if target is None:
        yield event
        return
    holder, key = target
    text = holder[key]
    for piece in _pieces(text, sizes):
        holder[key] = piece
        yield {"event": event.get("event"), "data": json.loads(json.dumps(data))}
    holder[key] = text


def _split_target(data: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """The (object, key) of the one text field an event streams, if any."""
    if data.get("type") == "content_block_delta":
        delta = data.get("delta")
        if not isinstance(delta, dict):
            return None
        kind = delta.get("type")
        if kind == _ANTHROPIC_JSON_DELTA[0]:
            return _text_field(delta, _ANTHROPIC_JSON_DELTA[1])
        field = _ANTHROPIC_DELTA_FIELDS.get(str(kind))
        return _text_field(delta, field) if field else None
    choices = data.get("choices")
    if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
        return None
    delta = choices[0].get("delta")
    if not isinstance(delta, dict) or choices[0].get("finish_reason") is not None:
        return None
    if "role" in delta:
        return None  # the opening chunk keeps its shape
    calls = delta.get("tool_calls")
    if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):
        function = calls[0].get("function")
        if "id" not in calls[0] and isinstance(function, dict):
            return _text_field(function, "arguments")
        return None
    for key in ("content", "reasoning_content"):
        if key in delta and len(delta) == 1:
            return _text_field(delta, key)
    return None


def _text_field(holder: dict[str, Any], key: str) -> tuple[dict[str, Any], str] | None:
    value = holder.get(key)
    return (holder, key) if isinstance(value, str) and len(value) > 1 else None
