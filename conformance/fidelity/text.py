"""fidelity.text: every piece of visible text survives conversion unchanged.

Text is compared on the semantic view, where consecutive messages of one role
are merged (Anthropic's API merges them too), message by message: the system
prompt (a top-level field or system/developer messages), then the user and
assistant messages in order, then each tool result's text. Two texts are the
same when they differ only by the separators docs/conventions.md accepts
where blocks were joined or split ("", "\\n", "\\n\\n"); whitespace-only
pieces carry nothing. Other whitespace is text (indentation, line breaks in
code), except where the target documents otherwise: anthropic-messages
rejects a request whose final assistant message ends in whitespace, so that
trailing whitespace is not compared when the text went there. Thinking is
not visible text: the reasoning.* rules judge it. Text written as Qwen XML
is the xml.text_preserved rule's, so an assistant message read from qwen-xml
is left out.

A tool result whose text is a JSON object or array and that went to or came
from gemini is compared as a JSON value: Gemini carries a result as a JSON object
(``functionResponse.response``), so a converter that parses the text into the
object keeps what it says, and only its whitespace cannot survive.

A failed result's ``Error:`` marker (the convention fidelity.error_flag reads)
is not part of its text. Nor is a converter's own marker around a result the
source failed (a prefix line such as ``[is_error=true]``, or
``<error>...</error>`` around the text: conventions.failure_marker); the same
marker on a result that did not fail is text the model reads as a failure
the tool never reported, and is named in the finding.

Gemini results are JSON objects: a result is the same when it is the same
JSON value, the same text under a one-key wrapper (``result``,
``content``...), or the value the text spells under such a wrapper
(``{"output": [1, 2]}`` for ``[1, 2]``), as
conformance/readings/result_objects.py explains.

Each source result is compared with the output's result for the same call:
paired by id, or, where a gemini side holds results without ids, by the call
each answers (Gemini pairs those by name and order:
readings.views.result_keys), so results left out of call order once their ids
are gone are each compared with the result their call now gets. So are the
results of turns regrouped (each parallel call in a turn of its own, its
result after it) when the ids did not pair them, as on a round trip through
Gemini: the grouping is ordering.parallel_calls_split's to judge, and a text
that changed there is named with the regrouping ("the user messages
(regrouped: 2 in the source, 3 here), taken together").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toolwire.conformance.context import (
    ConversionCheck,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.fidelity.result_names import result_label
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.conventions import failure_marker, strip_error_mark
from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.result_objects import (
    readings,
    same_enveloped_value,
    same_json,
)
from toolwire.conformance.readings.semantic import SemMessage, SemText, result_text
from toolwire.conformance.readings.text import same_text
from toolwire.conformance.readings.views import (
    ResultRef,
    first_difference,
    from_qwen_markup,
    pair_up,
    result_keys,
    result_refs,
    semantic_messages,
    short,
    text_path,
    visible_pieces,
)
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI

TEXT = rule(
    "fidelity.text",
    "MUST",
    "conversion roundtrip",
    "Every piece of visible text survives conversion unchanged.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    evidence=(
        means(OPENAI_DOCS, "message content is the text of the message"),
        means(ANTHROPIC_DOCS, "text blocks are the text of the message"),
    ),
    fix=(
        "Carry every text block and text content to the target unchanged: no trimming, "
        "no dropped block beside a tool call, no text added."
    ),
    convention=(
        "Several text blocks in openai-chat",
        'joining several text blocks with "", "\\n" or "\\n\\n" is accepted as the same text.',
    ),
)


@dataclass(frozen=True, eq=False)
class _Said:
    role: str
    pieces: tuple[str, ...]
    # Where the text starts. Its path is built only when a finding needs it:
    # building one per message was a third of the cost of reading the text.
    payload: PayloadUnderTest
    first: SemMessage

    @property
    def path(self) -> str:
        return text_path(self.payload, self.first)


def _conversation_text(payload: PayloadUnderTest, skip_assistant: bool) -> list[_Said]:
    """The non-system messages' visible text, same roles merged again once
    system messages are set aside."""
    said: list[_Said] = []
    for message in semantic_messages(payload) or ():
        if message.role == "system":
            continue
        pieces = _pieces(message)
        if skip_assistant and message.role == "assistant":
            pieces = ()
        if said and said[-1].role == message.role:
            last = said[-1]
            said[-1] = _Said(message.role, last.pieces + pieces, payload, last.first)
        else:
            said.append(_Said(message.role, pieces, payload, message))
    return said


def _text_of(
    payload: PayloadUnderTest, skip_assistant: bool
) -> tuple[Sequence[_Said], tuple[str, ...], str]:
    """What ``payload`` says: its messages' text, its system text and that text's path."""
    if skip_assistant:  # Qwen XML on one side: rare, not remembered
        return (_conversation_text(payload, True), *_system_text(payload))
    return _all_text_of(payload)


# A source is compared with each of its outputs and round trips: read once
# (toolwire.conformance.readings.memo).
@by_identity
def _all_text_of(payload: PayloadUnderTest) -> tuple[tuple[_Said, ...], tuple[str, ...], str]:
    return (tuple(_conversation_text(payload, False)), *_system_text(payload))


def _system_text(payload: PayloadUnderTest) -> tuple[tuple[str, ...], str]:
    messages = [m for m in semantic_messages(payload) or () if m.role == "system"]
    pieces = tuple(piece for m in messages for piece in _pieces(m))
    return pieces, text_path(payload, messages[0]) if messages else "system"


def _pieces(message: SemMessage) -> tuple[str, ...]:
    return tuple(visible_pieces([item.text for item in message.of_type(SemText)]))


def check_text(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
    through: tuple[str, ...] | None = None,
) -> list[Finding] | None:
    """``through``: the dialects the text went through (default: the output's)."""
    skip_assistant = from_qwen_markup(source) or from_qwen_markup(output)
    source_said, source_system, _ = _text_of(source, skip_assistant)
    output_said, output_system, system_path = _text_of(output, skip_assistant)
    if _final_assistant_trimmed(output, through):
        source_said, output_said = _rstrip_final(source_said), _rstrip_final(output_said)
    source_results, output_results = result_refs(source), result_refs(output)
    if not (
        source_system
        or output_system
        or any(s.pieces for s in (*source_said, *output_said))
        or any(r.pieces for r in (*source_results, *output_results))
    ):
        return None  # no visible text on either side
    found = []
    if not same_text(source_system, output_system):
        found.append(_text_finding("the system prompt", system_path, source_system, output_system))
    found.extend(_compare_messages(source_said, output_said))
    # Through gemini a result travels as an object: JSON-equal texts are the same.
    objects = GEMINI in (source.dialect, output.dialect, *(through or ()))
    keys = result_keys(source, output, id_mapping)
    found.extend(_compare_results(source_results, output_results, keys, objects))
    return found


def _final_assistant_trimmed(output: PayloadUnderTest, through: tuple[str, ...] | None) -> bool:
    """Whether the text went to anthropic-messages as a request ending on an
    assistant message: the API answers 400 "final assistant content cannot end
    with trailing whitespace" (e.g. tailcallhq/forgecode#1872), so a converter
    must drop that whitespace, and doing so changes nothing a reader sees."""
    conversation = output.conversation
    if conversation is None or not conversation.turns:
        return False
    if ANTHROPIC_MESSAGES not in (through or (output.dialect,)):
        return False
    return conversation.turns[-1].role == "assistant"


def _rstrip_final(said: Sequence[_Said]) -> Sequence[_Said]:
    """``said`` with trailing whitespace removed from a final assistant message."""
    if not said or said[-1].role != "assistant" or not said[-1].pieces:
        return said
    last = said[-1]
    pieces = (*last.pieces[:-1], last.pieces[-1].rstrip())
    return (*said[:-1], _Said(last.role, pieces, last.payload, last.first))


def _compare_messages(source: Sequence[_Said], output: Sequence[_Said]) -> list[Finding]:
    if [s.role for s in source] == [s.role for s in output]:
        return [
            _text_finding(f"the {o.role} message", o.path, s.pieces, o.pieces)
            for s, o in zip(source, output, strict=True)
            if not same_text(s.pieces, o.pieces)
        ]
    # Messages were added or lost: compare what each role said over the whole
    # conversation, so that text that survived is not reported.
    found = []
    for role in ("user", "assistant"):
        expected = tuple(p for s in source if s.role == role for p in s.pieces)
        actual = tuple(p for s in output if s.role == role for p in s.pieces)
        if not same_text(expected, actual):
            path = next((s.path for s in output if s.role == role), "messages")
            counts = (
                sum(1 for s in source if s.role == role),
                sum(1 for s in output if s.role == role),
            )
            what = f"the {role} messages (regrouped: {counts[0]} in the source, {counts[1]} here)"
            found.append(_text_finding(f"{what}, taken together,", path, expected, actual))
    return found


def _compare_results(
    source: Sequence[ResultRef],
    output: Sequence[ResultRef],
    keys: tuple[Sequence[str | None], Sequence[str | None], Mapping[str, str] | None],
    objects: bool = False,
) -> list[Finding]:
    """Each source result against the output's result for the same call
    (``keys``: readings.views.result_keys). ``objects``: a side is gemini,
    whose results are JSON objects (conformance/readings/result_objects.py)."""
    source_keys, output_keys, mapping = keys
    pairs = pair_up(source_keys, output_keys, mapping)
    found = []
    for i, j in pairs:
        expected, actual = visible_pieces(source[i].pieces), visible_pieces(output[j].pieces)
        if source[i].is_error or output[j].is_error:
            # The convention joins marker and text with a space ("Error: x"), so
            # whitespace at the start of a failed result's text cannot be told
            # from the marker's own: " x" flagged and "Error:  x" say the same.
            expected, actual = _lstrip_first(expected), _lstrip_first(actual)
        if same_text(expected, actual) or (
            objects and _same_as_objects(source[i], output[j], expected, actual)
        ):
            continue
        what = _result_named(output[j], output_keys[j])
        marked = failure_marker("".join(actual))
        if marked is None or failure_marker("".join(expected)) is not None:
            found.append(_text_finding(what, output[j].path, tuple(expected), tuple(actual)))
            continue
        marker, inner = marked
        unmarked = _lstrip_first([strip_error_mark(inner)])
        if source[i].is_error and same_text(_lstrip_first(expected), unmarked):
            continue  # a failed result, marked by the converter's own marker
        found.append(
            _marker_finding(what, output[j].path, (expected, actual), unmarked, marker, source[i])
        )
    return found


def _marker_finding(
    what: str,
    path: str,
    texts: tuple[Sequence[str], Sequence[str]],
    unmarked: Sequence[str],
    marker: str,
    source: ResultRef,
) -> Finding:
    """A result whose output text carries a failure marker (conventions.failure_marker)
    and still differs: the marker added to a result that did not fail, or other
    text changed beside it. ``texts``: the source's and the output's pieces."""
    expected, actual = texts
    left, right = "".join(expected), "".join(unmarked)
    if not source.is_error:
        added = f"{marker} was added, but the result did not fail in the source ({source.path})"
        detail = added if same_text(expected, unmarked) else f"{added}, and {_detail(left, right)}"
    else:
        detail = f"besides {marker}, which marks the failure, {_detail(left, right)}"
    return finding(
        "fidelity.text",
        f"{what} at {path} changed: {detail}",
        path,
        expected=left,
        actual="".join(actual),
    )


def _result_named(result: ResultRef, key: str | None) -> str:
    if result.result.call_id or key is None:
        return result_label(result)
    # keyed by the call it answers (readings.views.result_keys): say how it answers it
    return (
        f"the result answering the source's {key} ({result.result.name}: without an id, "
        "a Gemini result answers by name and order)"
    )


def _same_as_objects(
    source: ResultRef, output: ResultRef, expected: Sequence[str], actual: Sequence[str]
) -> bool:
    """Whether two results say the same once read as gemini result objects:
    the same JSON value, the same text with a one-key wrapper around it, or
    the source's JSON value under such a wrapper (``{"output": [1, 2]}``)."""
    left, right = result_text(source.result), result_text(output.result)
    if same_json(left, right) or same_enveloped_value(left, right):
        return True
    return any(
        same_text([left], [right])
        for left in readings("".join(expected))
        for right in readings("".join(actual))
    )


def _lstrip_first(pieces: Sequence[str]) -> list[str]:
    return [pieces[0].lstrip(), *pieces[1:]] if pieces else []


def _text_finding(what: str, path: str, expected: Sequence[str], actual: Sequence[str]) -> Finding:
    left, right = "".join(expected), "".join(actual)
    return finding(
        "fidelity.text",
        f"{what} at {path} changed: {_detail(left, right)}",
        path,
        expected=left,
        actual=right,
    )


def _detail(left: str, right: str) -> str:
    if not right and left:
        return f"the text {short(left)} is lost"
    if not left:
        return f"text {short(right)} appears that the source did not have"
    return first_difference(left, right)


def _text_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through anthropic-messages a final assistant message loses its trailing
    # whitespace, as that API requires (_final_assistant_trimmed).
    return check_text(roundtrip.original, roundtrip.returned, None, (roundtrip.via,))


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.text": pairwise.not_for_streams(pairwise.conversion_with_ids(check_text)),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "fidelity.text": pairwise.roundtrip_not_for_streams(_text_roundtrip),
}
