"""stream.* for openai-responses: the typed event stream's own grammar.

The grammar problems openai-python's ``ResponseStreamState`` cannot get past
(a stream not opened by ``response.created``, a content event for an output
index no ``response.output_item.added`` opened, a text delta for a content
part never added, no ``response.completed`` / ``incomplete`` / ``failed``)
are ``stream.event_order``'s, a MUST (conformance/stream/event_order.py). Two SHOULD rules
judge what the SDK tolerates but a consumer reading the stream another way
gets wrong:

* ``stream.item_reference``: ``sequence_number`` increases event by event
  (openai-python resumes a stream ``starting_after`` a sequence number),
  each event's ``item_id`` is the id of the item at its ``output_index``
  (clients such as the Vercel AI SDK find items by id), each output index is
  opened once, and nothing follows the terminal event;
* ``stream.done_consistent``: the ``.done`` events, ``output_item.done`` and
  the terminal Response state the text and arguments the deltas built
  (openai-python shows deltas while streaming and returns the terminal
  Response as the final one: a mismatch is two different answers).

References: https://platform.openai.com/docs/api-reference/responses-streaming,
https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/responses/_responses.py
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_issues import issue_findings
from toolwire.conformance.readings.views import short
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import OPENAI_PYTHON_RESPONSES_STREAM, RESPONSES_STREAM
from toolwire.harness.model import OPENAI_RESPONSES, StreamIssue, StreamTranscript

ITEM_REFERENCE = rule(
    "stream.item_reference",
    # SHOULD: openai-python tolerates these; resuming by sequence_number
    # and clients that find items by id do not.
    "SHOULD",
    "payload",
    "An openai-responses stream numbers its events with increasing sequence_number "
    "values, names each item by the item_id of its output_index, opens each output_index "
    "once and sends nothing after its terminal event.",
    RESPONSES_STREAM,
    OPENAI_PYTHON_RESPONSES_STREAM,
    dialects=frozenset({"openai-responses"}),
    fix=(
        "Number the events of one openai-responses stream with increasing sequence_number "
        "values, give every event of an item that item's item_id and output_index, open each "
        "output_index once, and stop after response.completed, response.incomplete or "
        "response.failed."
    ),
)


DONE_CONSISTENT = rule(
    "stream.done_consistent",
    # SHOULD: no client rejects it, but deltas and the final Response then
    # say two different things.
    "SHOULD",
    "payload",
    "The .done events, output_item.done and the final Response of an openai-responses "
    "stream state the text and arguments their deltas built.",
    RESPONSES_STREAM,
    OPENAI_PYTHON_RESPONSES_STREAM,
    dialects=frozenset({"openai-responses"}),
    fix=(
        "Write the .done events, response.output_item.done and the final Response from the "
        "deltas you sent: the same text and the same arguments, character for character."
    ),
)


REFERENCE_CODES = frozenset(
    {"sequence_not_increasing", "item_id_mismatch", "duplicate_output_index", "after_terminal"}
)
DONE_CODES = frozenset(
    {"text_done_mismatch", "arguments_done_mismatch", "item_done_mismatch", "output_mismatch"}
)


def check_item_reference(stream: StreamTranscript) -> list[Finding]:
    issues = [issue for issue in stream.issues if issue.code in REFERENCE_CODES]
    return issue_findings("stream.item_reference", issues)


# Who says what in each mismatch: the later statement, then the earlier ones.
_SAID_BUILT = {
    "text_done_mismatch": ("the .done event says", "the deltas joined to"),
    "arguments_done_mismatch": ("the .done event says", "the deltas joined to"),
    "item_done_mismatch": ("output_item.done says", "the deltas built"),
    "output_mismatch": ("the final Response says", "the stream's events built"),
}


def _quoted(value: str | None) -> str:
    return "nothing" if value is None else short(value)


def _with_values(issue: StreamIssue) -> StreamIssue:
    """The issue's message with both values it compares, shortened and redacted."""
    said, built = _SAID_BUILT[issue.code]
    message = f"{issue.message}: {said} {_quoted(issue.said)}, {built} {_quoted(issue.built)}"
    return StreamIssue(issue.code, message, issue.event_index, issue.said, issue.built)


def check_done_consistent(stream: StreamTranscript) -> list[Finding]:
    issues = [_with_values(issue) for issue in stream.issues if issue.code in DONE_CODES]
    return issue_findings("stream.done_consistent", issues)


def _responses_stream(check: Callable[[StreamTranscript], list[Finding]]) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        stream = payload.stream
        if stream is None or stream.dialect != OPENAI_RESPONSES:
            return None
        return check(stream)

    return run


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.item_reference": _responses_stream(check_item_reference),
    "stream.done_consistent": _responses_stream(check_done_consistent),
}
