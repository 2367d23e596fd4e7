"""stream.partial_json: a call's argument fragments do not join to JSON (an
empty anthropic concatenation means ``{}``, and is not reported; a prefix cut
off where the stream stopped at ``max_tokens`` / ``length`` is kept as the
SDKs keep it, see ``toolwire.harness.dialects.partial_json``).
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.stream_calls import call_path, calls_of, merged
from toolwire.conformance.readings.xml_values import preview
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import ANTHROPIC_STREAM, OPENAI_STREAM
from toolwire.conformance.stream.applies import stream_with_calls
from toolwire.harness.model import StreamTranscript

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


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "stream.partial_json": stream_with_calls(check_partial_json),
}
