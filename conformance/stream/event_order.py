"""stream.*: a streamed response follows its dialect's grammar and carries
the message it claims to.

The codecs' stream reassemblers note what they see as ``StreamIssue`` s with
stable codes; these checks sort those codes into rules:

* ``stream.index_collision``: two tool calls at one openai-chat ``index``
  (a second id or name arrives there), a second ``content_block_start`` for
  one anthropic-messages index, or argument text that is two JSON values
  run together (fragments of two calls merged);
* ``stream.event_order``: events out of the grammar
  (https://platform.openai.com/docs/api-reference/chat-streaming,
  https://docs.anthropic.com/en/docs/build-with-claude/streaming);
* ``stream.partial_json``: a call's argument fragments do not join to JSON
  (an empty anthropic concatenation means ``{}``, and is not reported; a
  prefix cut off where the stream stopped at ``max_tokens`` / ``length`` is
  kept as the SDKs keep it, see ``toolwire.harness.dialects.partial_json``);
* ``stream.chunk_id``: an openai-chat chunk whose ``id`` differs from the
  stream's ("Each chunk has the same ID", OpenAI's chunk object reference;
  the Go SDK's accumulator refuses such a chunk, streamaccumulator.go). An
  empty id says nothing (Azure's content-filter chunk sends one first);
* ``stream.call_index``: an openai-chat call that starts at an index other
  than the next free one (the first call at 0, then 1, ...): openai-python's
  stream helper subscripts its list of calls with the index
  (src/openai/lib/streaming/chat/_completions.py) and fails on a gap, the
  Go SDK's accumulator leaves an empty call in the gap (streamaccumulator.go,
  BerriAI/litellm#32759); an
  Anthropic block index leaking into ``tool_calls[].index`` is the usual
  cause (router-for-me/CLIProxyAPI#5229, NVIDIA-NeMo/Switchyard#712).

Not violations: the real-server quirks of WIRE.md 1.1 (repeated ``id:""``
on fragments, a trailing empty-arguments fragment), what the official SDKs
accept (chunks without a ``finish_reason`` key before the last, as xAI and
DashScope send them; Azure's first chunk with empty ``choices``, an empty id
and ``prompt_filter_results``; an anthropic stream stopped by ``max_tokens``
whose last block never got its ``content_block_stop``, as in
anthropic-sdk-python's incomplete_partial_json_response fixture), an
anthropic ``ping``, event or delta types added after the docs were written
(Anthropic asks clients to ignore unknown events), and an ``error`` event
ending a stream early (both dialects document it), which also excuses the
end-of-stream events that then never come. Shape problems of one event
(``invalid_chunk``, ``invalid_event``, ``arguments_not_string``) belong to
``schema.response``.

One problem repeated through a stream (the same issue code on many events)
is one finding that says how many times and where it first and last showed.

Siblings: ``reassembly.py`` (the conversion rule stream.reassembly),
``readings/stream_calls.py`` (the streamed calls and the event that started each),
``responses_events.py`` (the Responses API stream's rules).
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import (
    PayloadCheck,
    PayloadUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.stream_calls import call_path, calls_of, merged
from toolwire.conformance.readings.stream_issues import issue_findings as _issue_findings
from toolwire.conformance.readings.xml_values import preview
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_STREAM,
    OPENAI_CHUNK,
    OPENAI_GO_ACCUMULATOR,
    OPENAI_PYTHON_RESPONSES_STREAM,
    OPENAI_PYTHON_STREAM_HELPER,
    OPENAI_STREAM,
    RESPONSES_STREAM,
)
from toolwire.harness import json_text
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    StreamIssue,
    StreamTranscript,
)

INDEX_COLLISION = rule(
    "stream.index_collision",
    "MUST",
    "payload",
    "Parallel streamed calls keep distinct indices; arguments never merge across calls.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    evidence=(
        documented(OPENAI_STREAM, "tool_calls[].index identifies which call a delta belongs to"),
        documented(ANTHROPIC_STREAM, "each content block has its own index in the events"),
    ),
    fix=(
        "Give each streamed tool call its own index (openai-chat `tool_calls[].index`, "
        "anthropic content block index) and send each call's fragments under it."
    ),
)


EVENT_ORDER = rule(
    "stream.event_order",
    "MUST",
    "payload",
    "Stream events follow the dialect's grammar.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    RESPONSES_STREAM,
    OPENAI_PYTHON_RESPONSES_STREAM,
    evidence=(
        documented(
            ANTHROPIC_STREAM,
            "message_start, then per block start/delta/stop, then message_delta, message_stop",
        ),
        documented(OPENAI_STREAM, "chat.completion.chunk objects, ended by data: [DONE]"),
    ),
    fix=(
        "Follow the dialect's grammar: anthropic message_start, then for each block "
        "content_block_start / _delta / _stop, then message_delta and message_stop; openai "
        "chunks ended by `data: [DONE]`."
    ),
)


PARTIAL_JSON = rule(
    "stream.partial_json",
    "MUST",
    "payload",
    "The argument fragments of each streamed call join to valid JSON.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    evidence=(
        documented(
            ANTHROPIC_STREAM,
            "input_json_delta partial_json strings join to the tool_use input JSON",
        ),
        documented(OPENAI_STREAM, "function.arguments fragments join to the arguments JSON"),
    ),
    fix=(
        "Forward every argument fragment whole and in order, so that each call's fragments "
        "join to valid JSON."
    ),
)


CHUNK_ID = rule(
    "stream.chunk_id",
    "MUST",
    "payload",
    "Every chunk of one openai-chat stream carries the same id.",
    # The chunk object reference: "Each chunk has the same ID."
    OPENAI_CHUNK,
    OPENAI_GO_ACCUMULATOR,
    dialects=frozenset({"openai-chat", "deepseek-chat"}),
    evidence=(documented(OPENAI_CHUNK, "chunk id: each chunk has the same ID"),),
    fix=("Give every chunk of one openai-chat stream the id of its first chunk."),
)


CALL_INDEX = rule(
    "stream.call_index",
    "MUST",
    "payload",
    "The streamed tool calls of an openai-chat choice take indices 0, 1, 2, ... in the "
    "order they start.",
    OPENAI_CHUNK,
    # The official SDK places each fragment with tool_calls[index] and fails on a gap.
    OPENAI_PYTHON_STREAM_HELPER,
    OPENAI_GO_ACCUMULATOR,
    dialects=frozenset({"openai-chat", "deepseek-chat"}),
    evidence=(
        rejected(
            "https://github.com/marimo-team/marimo/pull/7356",
            "IndexError on an out-of-bounds streamed tool call index (OpenAI-compatible)",
        ),
    ),
    fix=(
        "Number the streamed tool calls of a choice 0, 1, 2, ... in the order they start, "
        "not by the source's content block index."
    ),
)


COLLISION_CODES = {
    "openai": frozenset({"index_collision", "name_conflict"}),
    "anthropic": frozenset({"duplicate_block_start"}),
    # Gemini sends each functionCall whole in one part: no index to collide.
    "gemini": frozenset(),
    # Two items at one output_index are stream.item_reference's (SHOULD).
    "responses": frozenset(),
}
EVENT_ORDER_CODES = {
    "openai": frozenset(
        {
            "invalid_json",
            "fragment_without_start",
            "fragment_without_index",
            "missing_done",
            "after_done",
            "empty_stream",
        }
    ),
    "anthropic": frozenset(
        {
            "invalid_json",
            "event_type_mismatch",
            "missing_message_start",
            "duplicate_message_start",
            "message_start_content",
            "index_out_of_order",
            "delta_without_start",
            "delta_type_mismatch",
            "stop_without_start",
            "block_not_stopped",
            "missing_message_delta",
            "missing_message_stop",
            "after_message_stop",
        }
    ),
    # Gemini (harness/dialects/gemini/stream.py): a chunk that is not JSON or
    # not a GenerateContentResponse breaks every client. A missing
    # finishReason is not judged: real Gemini streams end without one
    # (pydantic-ai's test_google_no_finish_reason recording) and clients cope.
    "gemini": frozenset({"invalid_json", "invalid_chunk", "empty_stream"}),
    # What openai-python's ResponseStreamState refuses (RuntimeError or
    # IndexError) or cannot finish without: conformance/stream/responses_events.py.
    "responses": frozenset(
        {
            "invalid_json",
            "missing_created",
            "unknown_output_index",
            "delta_without_part",
            "missing_terminal",
            "empty_stream",
        }
    ),
}
# An error event may end a stream: what would have followed is then missing.
EXCUSED_BY_ERROR = {
    "openai": frozenset({"missing_done", "empty_stream"}),
    "anthropic": frozenset({"block_not_stopped", "missing_message_delta", "missing_message_stop"}),
    "gemini": frozenset({"empty_stream"}),
    "responses": frozenset({"missing_terminal", "empty_stream"}),
}
ERROR_CODES = frozenset({"stream_error", "error_event", "error_chunk"})


def _family(stream: StreamTranscript) -> str:
    if stream.dialect == GEMINI:
        return "gemini"
    if stream.dialect == OPENAI_RESPONSES:
        return "responses"
    return "anthropic" if stream.dialect == ANTHROPIC_MESSAGES else "openai"


def check_index_collision(stream: StreamTranscript) -> list[Finding]:
    codes = COLLISION_CODES[_family(stream)]
    found = _issue_findings("stream.index_collision", [i for i in stream.issues if i.code in codes])
    for position, call in calls_of(stream):
        if merged(call):
            path = call_path(stream, position, call)
            found.append(
                finding(
                    "stream.index_collision",
                    f"the argument fragments of call #{position + 1} ({call.name}) join to "
                    f"several JSON values run together ({preview(call.raw_arguments)}): the "
                    "fragments of two calls were sent under one index",
                    path,
                    actual=call.raw_arguments,
                )
            )
    return found


def _block_index(stream: StreamTranscript, issue: StreamIssue) -> int | None:
    if issue.event_index is None or issue.event_index >= len(stream.events):
        return None
    try:
        data = json_text.loads(stream.events[issue.event_index].data)
    except ValueError:
        return None
    index = data.get("index") if isinstance(data, dict) else None
    return index if isinstance(index, int) else None


def _collision_echoes(stream: StreamTranscript) -> set[int]:
    """Issues that only follow from an anthropic index collision: once a
    second block started at a used index, its deltas and stop arrive for a
    block already stopped. They are the collision, not a second fault."""
    collided: dict[int, int] = {}
    echoes: set[int] = set()
    for position, issue in enumerate(stream.issues):
        index = _block_index(stream, issue)
        if index is None or issue.event_index is None:
            continue
        if issue.code == "duplicate_block_start":
            collided.setdefault(index, issue.event_index)
        elif (
            issue.code in ("delta_without_start", "stop_without_start")
            and index in collided
            and issue.event_index > collided[index]
        ):
            echoes.add(position)
    return echoes


def check_event_order(stream: StreamTranscript) -> list[Finding]:
    family = _family(stream)
    codes = EVENT_ORDER_CODES[family]
    if any(issue.code in ERROR_CODES for issue in stream.issues):
        codes = codes - EXCUSED_BY_ERROR[family]
    if family == "anthropic" and _stop_reason(stream) == "max_tokens":
        # Both Anthropic SDKs accept a block cut by max_tokens without its
        # content_block_stop (their incomplete_partial_json_response fixture).
        codes = codes - {"block_not_stopped"}
    echoes = _collision_echoes(stream) if family == "anthropic" else set()
    issues = [i for n, i in enumerate(stream.issues) if i.code in codes and n not in echoes]
    return _issue_findings("stream.event_order", issues)


def _stop_reason(stream: StreamTranscript) -> str | None:
    choices = stream.response.choices
    return choices[0].stop_reason.canonical if choices else None


def check_chunk_id(stream: StreamTranscript) -> list[Finding] | None:
    if stream.dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES) or not stream.response.id:
        return None  # no chunk id to compare
    issues = [issue for issue in stream.issues if issue.code == "id_changed"]
    return _issue_findings("stream.chunk_id", issues)


def check_call_index(stream: StreamTranscript) -> list[Finding]:
    if stream.dialect == ANTHROPIC_MESSAGES:
        return []
    issues = [issue for issue in stream.issues if issue.code == "index_not_dense"]
    return _issue_findings("stream.call_index", issues)


def check_partial_json(stream: StreamTranscript) -> list[Finding]:
    found = []
    for position, call in calls_of(stream):
        # A last call cut off by the token limit arrives as the codecs keep it
        # (harness/dialects/partial_json.py): only text that is no JSON prefix
        # stays an error here.
        if call.arguments_error is None or merged(call):
            continue  # merged calls are an index collision, reported there
        path = call_path(stream, position, call)
        found.append(
            finding(
                "stream.partial_json",
                f"the argument fragments of call #{position + 1} ({call.name}) do not join to "
                f"JSON: {call.arguments_error} (joined text {preview(call.raw_arguments)})",
                path,
                actual=call.raw_arguments,
            )
        )
    return found


# --- wiring: what the engine calls -------------------------------------------


def _stream_only(check: Callable[[StreamTranscript], list[Finding]]) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        stream = payload.stream
        return None if stream is None else check(stream)

    return run


def _stream_with_calls(
    check: Callable[[StreamTranscript], list[Finding]],
    exercised: Callable[[StreamTranscript], bool] | None = None,
) -> PayloadCheck:
    """Run ``check`` on a stream; no verdict when it streamed nothing the rule
    judges (by default: no tool call), unless the check finds something anyway."""

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        stream = payload.stream
        if stream is None:
            return None
        found = check(stream)
        if found or (exercised or _has_calls)(stream):
            return found
        return None  # nothing to judge

    return run


def _has_calls(stream: StreamTranscript) -> bool:
    return bool(calls_of(stream))


def _shares_indices(stream: StreamTranscript) -> bool:
    """Two items streamed by index, which could collide: two tool calls in
    openai-chat, two content blocks in anthropic-messages."""
    if not stream.response.choices:
        return False
    if stream.dialect == ANTHROPIC_MESSAGES:
        return len(stream.response.message.blocks) >= 2
    return len(calls_of(stream)) >= 2


def _openai_stream_with_calls(
    check: Callable[[StreamTranscript], list[Finding]],
) -> PayloadCheck:
    inner = _stream_with_calls(check)

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        if payload.dialect in (ANTHROPIC_MESSAGES, GEMINI):
            # anthropic block indices are stream.event_order's; Gemini calls
            # come whole, with no index.
            return None
        if payload.dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES):
            return None  # block indices and output indices are stream.event_order's
        return inner(payload)

    return run


def _chunk_id(payload: PayloadUnderTest) -> list[Finding] | None:
    stream = payload.stream
    if stream is None or _data_chunks(stream) < 2:
        return None  # one chunk has no other id to differ from
    return check_chunk_id(stream)


def _data_chunks(stream: StreamTranscript) -> int:
    return sum(1 for event in stream.events if event.data.lstrip().startswith("{"))


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.chunk_id": _chunk_id,
    "stream.call_index": _openai_stream_with_calls(check_call_index),
    "stream.index_collision": _stream_with_calls(check_index_collision, _shares_indices),
    "stream.event_order": _stream_only(check_event_order),
    "stream.partial_json": _stream_with_calls(check_partial_json),
}
