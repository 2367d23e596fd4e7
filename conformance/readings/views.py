"""Shared helpers of the fidelity and ordering rules that compare two payloads.

A conversion or round trip is judged on the semantic view
(``toolwire.conformance.readings.semantic``) where it says enough, and on the canonical model
where a rule needs the raw blocks (result pieces, call paths). Everything
here is pure: it reads ``PayloadUnderTest`` objects and returns plain values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.presets import OPENAI_FAMILY
from toolwire.conformance.readings.conventions import (
    error_envelope,
    output_envelope,
    read_result,
    strip_error_mark,
)
from toolwire.conformance.readings.gemini_pairs import answered_calls
from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.paths import (
    call_paths,
    response_block_path,
    response_message_path,
    result_paths,
    system_path,
    turn_path,
)
from toolwire.conformance.readings.semantic import (
    SemMessage,
    semantic_conversation,
    semantic_message,
)
from toolwire.conformance.readings.timeline import timeline_of
from toolwire.harness.model import (
    GEMINI,
    QWEN_XML,
    Conversation,
    TextBlock,
    ToolCall,
    ToolResult,
)
from toolwire.harness.redaction import redact

_SHORT = 60


@dataclass(frozen=True)
class CallRef:
    call: ToolCall
    path: str


@dataclass(frozen=True)
class ResultRef:
    result: ToolResult
    path: str
    is_error: bool
    # The result's text blocks, the error convention's marker stripped.
    pieces: tuple[str, ...]


def is_openai_family(dialect: str) -> bool:
    return dialect in OPENAI_FAMILY


@by_identity
def semantic_messages(payload: PayloadUnderTest) -> tuple[SemMessage, ...] | None:
    if payload.conversation is not None:
        return semantic_conversation(payload.conversation)
    response = payload.response
    if response is None or not response.choices:
        return None
    return (semantic_message(response),)


def message_path(payload: PayloadUnderTest, message: SemMessage) -> str:
    """Where ``message`` starts in ``payload`` (a response is its one message)."""
    if payload.conversation is None:
        return response_message_path(payload.dialect)
    if message.source_turns:
        return turn_path(message.source_turns[0], payload.conversation)
    return system_path(payload.dialect)


def text_path(payload: PayloadUnderTest, message: SemMessage) -> str:
    """Where ``message``'s text lives in ``payload``."""
    path = message_path(payload, message)
    if payload.dialect == GEMINI:
        return f"{path}.parts"  # a turn, a response's content or systemInstruction
    if path in ("content", "output", system_path(payload.dialect)):
        return path
    return f"{path}.content"


def call_refs(payload: PayloadUnderTest) -> list[CallRef]:
    return list(_call_refs(payload))


def result_refs(payload: PayloadUnderTest) -> list[ResultRef]:
    return list(_result_refs(payload))


# Several checks per payload read these: built once (toolwire.conformance.readings.memo).
@by_identity
def _call_refs(payload: PayloadUnderTest) -> tuple[CallRef, ...]:
    conversation = payload.conversation
    if conversation is not None:
        return tuple(
            CallRef(site.call, path)
            for site, path in zip(
                timeline_of(conversation).calls, call_paths(conversation), strict=True
            )
        )
    response = payload.response
    if response is None or not response.choices:
        return ()
    turn = response.choices[0].message
    return tuple(
        CallRef(block, response_block_path(payload.dialect, turn, index))
        for index, block in enumerate(turn.blocks)
        if isinstance(block, ToolCall)
    )


@by_identity
def _result_refs(payload: PayloadUnderTest) -> tuple[ResultRef, ...]:
    conversation = payload.conversation
    if conversation is None:
        return ()
    refs = []
    sites = timeline_of(conversation).results
    for site, path in zip(sites, result_paths(conversation), strict=True):
        result = site.result
        pieces = [block.text for block in result.content if isinstance(block, TextBlock)]
        # openai-chat has no flag: docs/conventions.md reads an "Error:" prefix.
        is_error, text = read_result("".join(pieces), result.is_error, payload.dialect)
        joined = "".join(pieces)
        if pieces and (error_envelope(joined) is not None or output_envelope(joined) is not None):
            # {"error": "<text>"} says <text>, failed; {"result": "<text>"} says <text>
            pieces = [text]
        elif pieces:
            pieces[0] = strip_error_mark(pieces[0])
        refs.append(ResultRef(result, path, is_error, tuple(pieces)))
    return tuple(refs)


def pair_up(
    source_keys: Sequence[str | None],
    output_keys: Sequence[str | None],
    mapping: Mapping[str, str] | None = None,
) -> list[tuple[int, int]]:
    """Pairs (source index, output index): by key where a key is unique on both
    sides (through ``mapping``), the rest by position among the unmatched."""
    mapped = [mapping.get(k, k) if (mapping and k) else k for k in source_keys]
    if mapped == list(output_keys) and _plain_keys(mapped):
        # The same keys in the same order (the usual faithful output): the
        # rules below pair every index with itself, so skip the counting.
        return [(i, i) for i in range(len(mapped))]
    # Counted once: list.count per key made long conversations quadratic.
    output_counts = Counter(output_keys)
    mapped_counts = Counter(mapped)
    unique_out = {k: j for j, k in enumerate(output_keys) if k and output_counts[k] == 1}
    pairs: dict[int, int] = {}
    for i, key in enumerate(mapped):
        if key and mapped_counts[key] == 1 and key in unique_out:
            pairs[i] = unique_out[key]
    used = set(pairs.values())
    rest_source = [i for i in range(len(mapped)) if i not in pairs]
    rest_output = [j for j in range(len(output_keys)) if j not in used]
    pairs.update(zip(rest_source, rest_output, strict=False))
    return sorted(pairs.items())


def result_keys(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    mapping: Mapping[str, str] | None = None,
) -> tuple[list[str | None], list[str | None], Mapping[str, str] | None]:
    """Keys that pair the results of two conversations (for ``pair_up``), and
    the id mapping to pair them through: their call ids. But where a gemini
    side has a result without an id, that result answers the first open call
    of its name (by name and order, docs/conventions.md): results out of call
    order then answer other calls than their ids said, and position would pair
    each with the wrong one. There every result is keyed by the source call it
    answers (an output call pairs with a source call by id, else by position).
    So it is where the ids do not pair the results on their own (``_ids_pair``):
    a converter that regroups the turns (each parallel call with its result)
    and renames the ids keeps each text with its call, which position would
    not see."""
    source_talk, output_talk = source.conversation, output.conversation
    by_id = (
        [r.result.call_id for r in result_refs(source)],
        [r.result.call_id for r in result_refs(output)],
        mapping,
    )
    if source_talk is None or output_talk is None:
        return by_id
    if not any(_id_less_gemini_result(side) for side in (source_talk, output_talk)) and (
        _ids_pair(*by_id)
    ):
        return by_id
    source_calls = timeline_of(source_talk).calls
    output_calls = timeline_of(output_talk).calls
    pairs = pair_up([s.call.id for s in source_calls], [s.call.id for s in output_calls], mapping)
    onto_source = {j: i for i, j in pairs}
    return (
        _answered_keys(source_talk, {i: i for i in range(len(source_calls))}),
        _answered_keys(output_talk, onto_source),
        None,
    )


def _ids_pair(
    source_keys: Sequence[str | None],
    output_keys: Sequence[str | None],
    mapping: Mapping[str, str] | None,
) -> bool:
    """Whether the results' ids alone pair them: each source id (through
    ``mapping``) is unique and names exactly one output result. Where they do
    not (ids rewritten on a round trip through a dialect that drops them,
    turns regrouped as well), position would pair a result with another
    call's: results are keyed by the call they answer instead."""
    mapped = [mapping.get(k, k) if (mapping and k) else k for k in source_keys]
    if mapped == list(output_keys) and _plain_keys(mapped):
        return len(set(mapped)) == len(mapped) and None not in mapped
    if not _plain_keys(mapped) or not _plain_keys(output_keys):
        return True  # a hostile mapping: leave it to pair_up's general path
    counts = Counter(output_keys)
    return (
        None not in mapped
        and len(set(mapped)) == len(mapped)
        and all(counts[key] == 1 for key in mapped)
    )


def _id_less_gemini_result(conversation: Conversation) -> bool:
    return conversation.dialect == GEMINI and any(
        not site.result.call_id for site in timeline_of(conversation).results
    )


def _answered_keys(conversation: Conversation, onto: Mapping[int, int]) -> list[str | None]:
    """Per result, "call #n": the source call (``onto`` maps this side's call
    index to the source's) it answers; None for a result that answers none."""
    timeline = timeline_of(conversation)
    index = {(s.turn_index, s.block_index): n for n, s in enumerate(timeline.calls)}
    answered = answered_calls(conversation)
    keys: list[str | None] = []
    for site in timeline.results:
        call = answered.get((site.turn_index, site.block_index))
        number = None if call is None else onto.get(index[(call.turn_index, call.block_index)])
        keys.append(None if number is None else f"call #{number + 1}")
    return keys


def _plain_keys(keys: Sequence[object]) -> bool:
    # Only strings and None compare and hash plainly: any other key (from a
    # hostile id mapping) takes the general path, exceptions included.
    return all(key is None or type(key) is str for key in keys)


def visible_pieces(pieces: Sequence[str]) -> list[str]:
    """Text pieces a reader sees: whitespace-only pieces carry nothing."""
    return [piece for piece in pieces if piece.strip()]


def short(text: str) -> str:
    """A string for a one-line message: quoted, long ones cut in the middle
    (redacted first: a cut key no longer looks like one)."""
    text = redact(text)
    if len(text) > _SHORT:
        text = text[: _SHORT // 2 - 1] + "…" + text[-(_SHORT // 2 - 1) :]
    return repr(text)


def first_difference(expected: str, actual: str) -> str:
    """Where two strings first differ, for the nearest explanation."""
    index = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    if index == len(actual):
        return f"{short(expected[index:])} is missing from character {index} on"
    if index == len(expected):
        return f"{short(actual[index:])} was added at character {index}"
    return (
        f"first difference at character {index}: "
        f"{short(expected[index : index + 20])} became {short(actual[index : index + 20])}"
    )


def from_qwen_markup(payload: PayloadUnderTest) -> bool:
    """Qwen XML calls and their text are the xml.* rules' to judge."""
    return payload.dialect == QWEN_XML
