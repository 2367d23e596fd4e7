"""What "a case exercises a rule" means, written independently of the checks.

For every rule of the catalogue, a predicate over the case's own payloads
(every request, response and stream of every interaction, as the codecs read
them) that is true when the case holds what the rule's statement speaks of:
a result to keep in order needs two results of one turn, an error flag needs
a failed result, a thinking signature needs a signed thinking block. It is a
necessary condition: a pass verdict on a case where it is false was given
without anything to judge (a vacuous pass).

Deliberately plain code over the neutral model: no conformance helper, so
that a check and its predicate cannot share a mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from toolwire.harness.corpus.case import Case
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    QWEN_XML,
    Conversation,
    OpaqueBlock,
    Response,
    StreamTranscript,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
    Turn,
)
from toolwire.harness.payloads import case_payloads

ASSISTANT = frozenset({"assistant", "model"})
ROUNDTRIP_PARAMETERS = frozenset(
    {"temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "stop_sequences"}
)


@dataclass(frozen=True)
class CaseView:
    """A case's payloads, parsed once."""

    case: Case
    requests: tuple[Conversation, ...]
    responses: tuple[Response, ...]  # streams' reassembled responses included
    streams: tuple[StreamTranscript, ...]

    @property
    def messages(self) -> Iterator[Turn]:
        for conversation in self.requests:
            yield from conversation.turns
        for response in self.responses:
            for choice in response.choices:
                yield choice.message


def view(case: Case) -> CaseView:
    requests, responses, streams = [], [], []
    for kind in ("request", "response", "stream"):
        for source in case_payloads(case, kind):  # type: ignore[arg-type]
            parsed = source.under_test.parsed
            if isinstance(parsed, Conversation):
                requests.append(_one_turn_per_model_run(parsed))
            elif isinstance(parsed, StreamTranscript):
                streams.append(parsed)
                responses.append(parsed.response)
            else:
                responses.append(parsed)
    return CaseView(case, tuple(requests), tuple(responses), tuple(streams))


def _one_turn_per_model_run(conversation: Conversation) -> Conversation:
    """Gemini reads consecutive model contents as one model turn (the API
    accepts a turn's calls spread over them: docs/conventions.md, "Gemini")."""
    if conversation.dialect != GEMINI:
        return conversation
    turns: list[Turn] = []
    for turn in conversation.turns:
        if turns and turn.role in ASSISTANT and turns[-1].role in ASSISTANT:
            turns[-1] = replace(turns[-1], blocks=turns[-1].blocks + turn.blocks)
        else:
            turns.append(turn)
    return replace(conversation, turns=tuple(turns))


# --- small facts --------------------------------------------------------------


def _blocks(turn: Turn, kind: type) -> list[object]:
    return [block for block in turn.blocks if isinstance(block, kind)]


def _calls(case: CaseView) -> Iterator[ToolCall]:
    for turn in case.messages:
        yield from (b for b in turn.blocks if isinstance(b, ToolCall))


def _has_calls(case: CaseView) -> bool:
    """A structured call, or Qwen XML markup a converter turns into one (a block
    missing only its opener may be recovered: docs/corpus-format.md)."""
    text = _xml_text(case) if _qwen(case) else ""
    return any(True for _ in _calls(case)) or "<function=" in text or "</function>" in text


def _results(case: CaseView) -> Iterator[ToolResult]:
    for conversation in case.requests:
        for turn in conversation.turns:
            yield from (b for b in turn.blocks if isinstance(b, ToolResult))


def _thinking(case: CaseView) -> Iterator[ThinkingBlock]:
    for turn in case.messages:
        yield from (b for b in turn.blocks if isinstance(b, ThinkingBlock))


def _carries_reasoning(block: ThinkingBlock) -> bool:
    return bool(block.text or block.signature or block.redacted_data)


def _response_reasoning(case: CaseView) -> bool:
    """A response (or reassembled stream) whose message holds reasoning."""
    return any(
        isinstance(block, ThinkingBlock) and _carries_reasoning(block)
        for response in case.responses
        for choice in response.choices
        for block in choice.message.blocks
    )


def _data_chunks(stream: StreamTranscript) -> int:
    return sum(1 for event in stream.events if event.data.lstrip().startswith("{"))


def _streamed_calls(stream: StreamTranscript) -> bool:
    return any(
        isinstance(block, ToolCall)
        for choice in stream.response.choices
        for block in choice.message.blocks
    )


def _answers_per_call_turn(conversation: Conversation) -> Iterator[int]:
    """For each assistant turn with calls: how many of its calls are answered
    before the next assistant turn."""
    turns = conversation.turns
    for index, turn in enumerate(turns):
        calls = [b for b in turn.blocks if isinstance(b, ToolCall)]
        ids = {b.id for b in calls if b.id}
        if turn.role not in ASSISTANT or not calls:
            continue
        # gemini calls without ids are answered by name, one response each.
        open_names = [b.name for b in calls if not b.id]
        answered: set[str] = set()
        by_name = 0
        for later in turns[index + 1 :]:
            if later.role in ASSISTANT:
                break
            for result in (b for b in later.blocks if isinstance(b, ToolResult)):
                if result.call_id in ids:
                    answered.add(result.call_id)
                elif result.call_id is None and result.name in open_names:
                    open_names.remove(result.name)
                    by_name += 1
        yield len(answered) + by_name


def _failed(result: ToolResult) -> bool:
    if result.is_error:
        return True
    text = "".join(b.text for b in result.content if isinstance(b, TextBlock))
    return text.lstrip().lower().startswith("error")  # docs/conventions.md, any case


def _call_not_last(conversation: Conversation) -> bool:
    return any(_blocks(turn, ToolCall) for turn in conversation.turns[:-1])


def _ordered_items(turn: Turn) -> int:
    """Text and calls in one message: the things whose order can change."""
    calls = len(_blocks(turn, ToolCall))
    text = any(isinstance(b, TextBlock) and b.text.strip() for b in turn.blocks)
    return calls + (1 if text and calls else 0)


def _system_prompt(conversation: Conversation) -> bool:
    return bool(conversation.system) or any(
        t.role in ("system", "developer") for t in conversation.turns
    )


def _visible_text(case: CaseView) -> bool:
    texts = [b.text for turn in case.messages for b in turn.blocks if isinstance(b, TextBlock)]
    texts += [b.text for c in case.requests for b in c.system if isinstance(b, TextBlock)]
    texts += [b.text for r in _results(case) for b in r.content if isinstance(b, TextBlock)]
    return any(text.strip() for text in texts)


def _qwen(case: CaseView) -> bool:
    return case.case.dialect == QWEN_XML or "qwen-xml" in case.case.features


def _xml_text(case: CaseView) -> str:
    """The text of the case's responses: raw bodies (markup included) and
    streams' reassembled text (where a tag may be split over chunks)."""
    raw = "".join(i.response_body_text for i in case.case.interactions).replace('\\"', '"')
    return raw + "".join(
        b.text
        for r in case.responses
        for c in r.choices
        for b in c.message.blocks
        if isinstance(b, TextBlock)
    )


def _response_calls(case: CaseView) -> int:
    """The most structured calls one response message holds."""
    return max(
        (len(_blocks(c.message, ToolCall)) for r in case.responses for c in r.choices), default=0
    )


def _indexed_items(stream: StreamTranscript) -> int:
    """Items streamed by index in one dialect or another: every block (reasoning,
    text and calls are each an anthropic content block)."""
    if not stream.response.choices:
        return 0
    return len(stream.response.choices[0].message.blocks)


def _roundtrip_subject(case: CaseView) -> bool:
    opaque = any(isinstance(b, OpaqueBlock) for turn in case.messages for b in turn.blocks)
    parameters = any(
        set(c.extra) & ROUNDTRIP_PARAMETERS or c.stream or c.dialect == ANTHROPIC_MESSAGES
        for c in case.requests
    )
    return opaque or parameters


# Top-level request keys and Gemini generationConfig keys that hold a
# generation setting (stop sequences, a token limit, sampling, structured output).
_SETTING_KEYS = frozenset(
    {
        "stop",
        "stop_sequences",
        "max_tokens",
        "max_completion_tokens",
        "max_output_tokens",
        "temperature",
        "top_p",
        "top_k",
        "seed",
        "response_format",
        "reasoning_effort",
        "text",
        "reasoning",
    }
)
_GEMINI_SETTING_KEYS = frozenset(
    ["stopSequences", "maxOutputTokens", "temperature", "topP", "topK", "seed", "responseMimeType"]
)


def _sets_generation(conversation: Conversation) -> bool:
    extra = conversation.extra
    config = extra.get("generationConfig") or extra.get("generation_config") or {}
    return any(extra.get(key) not in (None, []) for key in _SETTING_KEYS) or any(
        config.get(key) not in (None, []) for key in _GEMINI_SETTING_KEYS
    )


Predicate = Callable[[CaseView], bool]

EXERCISES: dict[str, Predicate] = {
    # pairing
    "pairing.call_id_missing": _has_calls,
    "pairing.call_id_duplicate": lambda c: (
        any(len(_blocks(t, ToolCall)) >= 2 for t in c.messages)
        or any(sum(len(_blocks(t, ToolCall)) for t in r.turns) >= 2 for r in c.requests)
    ),
    "pairing.orphan_result": lambda c: any(True for _ in _results(c)),
    "pairing.duplicate_result": lambda c: any(True for _ in _results(c)),
    "pairing.unanswered_call": lambda c: any(_call_not_last(r) for r in c.requests),
    "pairing.id_changed": lambda c: any(call.id for call in _calls(c)),
    "pairing.id_pattern": _has_calls,
    # ordering
    "ordering.result_not_adjacent": lambda c: any(
        n >= 1 for r in c.requests for n in _answers_per_call_turn(r)
    ),
    "ordering.result_after_text": lambda c: any(True for _ in _results(c)),
    "ordering.parallel_results_split": lambda c: any(
        n >= 2 for r in c.requests for n in _answers_per_call_turn(r)
    ),
    "ordering.role_alternation": lambda c: bool(c.requests),
    "ordering.system_placement": lambda c: any(_system_prompt(r) for r in c.requests),
    "ordering.block_order": lambda c: any(
        _ordered_items(t) >= 2 for t in c.messages if t.role in ASSISTANT
    ),
    "ordering.parallel_calls_split": lambda c: any(
        len(_blocks(turn, ToolCall)) >= 2
        for conversation in c.requests
        for turn in conversation.turns
        if turn.role in ASSISTANT
    ),
    "ordering.result_order": lambda c: any(
        n >= 2 for r in c.requests for n in _answers_per_call_turn(r)
    ),
    # fidelity
    "fidelity.arguments": _has_calls,
    "fidelity.text": _visible_text,
    "fidelity.error_flag": lambda c: any(_failed(r) for r in _results(c)),
    "fidelity.tool_definitions": lambda c: (
        any(r.tools for r in c.requests) or any(True for _ in _calls(c))
    ),
    "fidelity.tool_choice": lambda c: any(
        r.tools or r.tool_choice or r.parallel_tool_calls is not None for r in c.requests
    ),
    "fidelity.stop_reason": lambda c: bool(c.responses),
    "fidelity.usage": lambda c: any(r.usage is not None for r in c.responses),
    "fidelity.parameters": lambda c: any(_sets_generation(r) for r in c.requests),
    "fidelity.empty_content": lambda c: bool(c.requests),
    "fidelity.roundtrip": _roundtrip_subject,
    "fidelity.stop_reason_content": lambda c: bool(c.responses),
    "fidelity.empty_text_added": lambda c: any(True for _ in c.messages),
    # reasoning
    "reasoning.replay_missing": lambda c: any(
        t.role in ASSISTANT and _blocks(t, ToolCall) for t in c.messages
    ),
    "reasoning.replay_forbidden": lambda c: any(
        t.role in ASSISTANT for r in c.requests for t in r.turns
    ),
    "reasoning.altered": lambda c: any(b.text is not None for b in _thinking(c)),
    "reasoning.signature_lost": lambda c: any(b.signature or b.redacted_data for b in _thinking(c)),
    "reasoning.position": lambda c: any(True for _ in _thinking(c)),
    "reasoning.dropped": _response_reasoning,
    "reasoning.not_carried": _response_reasoning,
    "reasoning.invented": lambda c: any(_carries_reasoning(b) for b in _thinking(c)),
    "reasoning.signature_invented": lambda c: any(True for _ in _thinking(c)),
    "reasoning.call_signature_lost": lambda c: any(call.signature for call in _calls(c)),
    "schema.gemini_parameters": lambda c: any(
        "parameters" in tool.extra for r in c.requests for tool in r.tools or ()
    ),
    # openai-responses reasoning items (a Responses output can only hold them
    # when the case has reasoning; the conversion rule needs calls after it).
    "reasoning.item_unfollowed": lambda c: any(True for _ in _thinking(c)),
    "reasoning.item_separated": lambda c: any(True for _ in _thinking(c)) and _has_calls(c),
    # xml
    "xml.call_not_parsed": lambda c: _qwen(c) and _response_calls(c) >= 1,
    "xml.parameter_type": lambda c: _qwen(c) and "<parameter=" in _xml_text(c),
    "xml.text_preserved": _qwen,
    "xml.call_order": lambda c: _qwen(c) and _response_calls(c) >= 2,
    "xml.malformed_executed": lambda c: _qwen(c) and bool(c.case.expect.xml_issues),
    "xml.stream_equivalence": lambda c: _qwen(c) and bool(c.streams),
    # stream
    "stream.reassembly": lambda c: bool(c.streams),
    "stream.index_collision": lambda c: any(_indexed_items(s) >= 2 for s in c.streams),
    "stream.event_order": lambda c: bool(c.streams),
    "stream.partial_json": lambda c: bool(c.streams) and _has_calls(c),
    # A one-chunk Gemini stream becomes several openai-family chunks.
    "stream.chunk_id": lambda c: any(
        _data_chunks(s) >= 2 or s.dialect == GEMINI for s in c.streams
    ),
    # Judged on every openai-responses stream (a converter's or the case's own).
    "stream.item_reference": lambda c: bool(c.streams),
    "stream.done_consistent": lambda c: bool(c.streams),
    # A Qwen stream's calls are markup until a parser makes them structured.
    "stream.call_index": lambda c: (
        any(_streamed_calls(s) for s in c.streams) or (bool(c.streams) and _has_calls(c))
    ),
    # replay
    "replay.assistant_altered": lambda c: len(c.case.interactions) >= 2,
    # schema
    "schema.request": lambda c: bool(c.requests),
    "schema.response": lambda c: bool(c.responses),
}
