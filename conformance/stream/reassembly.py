"""stream.reassembly: a converted stream reassembles to the message its source carried.

A conversion rule, unlike the payload rules (``event_order.py`` and its
siblings) that read one stream's grammar: it compares the text and tool calls
of the source's and the output's reassembled messages.

A source that stopped at the output limit (``max_tokens``, ``length``,
``MAX_TOKENS``, ``incomplete``) in the middle of its last call: a converter
may forward that cut call (compared like the others: what the SDKs keep of
it) or withhold it. Either keeps what the client can use, and whether the client
learns that the answer was cut is fidelity.stop_reason's to judge (one
defect, one verdict); the calls before it are compared as usual.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, ConversionUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.semantic import (
    SemCall,
    SemMessage,
    SemText,
    joined_text,
    semantic_message,
)
from toolwire.conformance.readings.text import same_text
from toolwire.conformance.readings.xml_values import preview, same_json
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_STREAM, OPENAI_STREAM
from toolwire.conformance.stream.applies import cut_last_call
from toolwire.harness.model import QWEN_XML

REASSEMBLY = rule(
    "stream.reassembly",
    "MUST",
    "conversion",
    "The reassembled streamed message equals the message the stream carries.",
    OPENAI_STREAM,
    ANTHROPIC_STREAM,
    evidence=(
        means(OPENAI_STREAM, "the chunks' deltas join to the message of the completion"),
        means(ANTHROPIC_STREAM, "the events' deltas build the message content"),
    ),
    fix=(
        "Emit deltas that join to the message the stream stands for: every text, reasoning "
        "and argument fragment once, in order."
    ),
)


def _call_view(call: SemCall) -> dict[str, object]:
    return {"name": call.name, "arguments": call.arguments}


def _same_call(a: SemCall, b: SemCall) -> bool:
    return a.name == b.name and same_json(a.arguments, b.arguments)


def _texts(message: SemMessage) -> list[str]:
    return [piece.text for piece in message.of_type(SemText)]


def _without_cut_call(
    want: list[SemCall], got: list[SemCall]
) -> tuple[list[SemCall], list[SemCall]] | None:
    """The calls to compare when the source's last call was cut and the output
    withheld it: the ones before it. None otherwise (a forwarded cut call is
    compared like the rest: what the SDKs keep of it must not change)."""
    before = want[:-1]
    if len(got) == len(before):
        return before, got
    return None


def check_reassembly(conversion: ConversionUnderTest) -> list[Finding] | None:
    """The output's reassembled message says what the source's says.

    Text and tool calls (names and arguments) are compared, and for stream
    conversions this rule alone judges them (fidelity.text, .arguments and
    .tool_definitions stand aside); ids, reasoning, stop reason and usage have
    their own rules (pairing.id_changed, reasoning.*, fidelity.*). Calls whose
    fragments do not join to JSON are stream.partial_json's. A qwen-xml source
    is judged by the xml rules.
    """
    source, output = conversion.source, conversion.output
    if source.stream is None and output.stream is None:
        return None
    if QWEN_XML in (source.dialect, output.dialect):
        return None
    source_response, output_response = source.response, output.response
    if source_response is None or output_response is None:
        return None
    if not source_response.choices or not output_response.choices:
        return None
    want, got = semantic_message(source_response), semantic_message(output_response)
    path = "events" if output.stream is not None else "response"
    found = []
    if not same_text(_texts(want), _texts(got)):
        found.append(
            finding(
                "stream.reassembly",
                f"the source stream reassembles to the text {preview(joined_text(want))}; "
                f"the output reassembles to {preview(joined_text(got))}",
                path,
                expected=joined_text(want),
                actual=joined_text(got),
            )
        )
    # Arguments whose fragments do not join to JSON are stream.partial_json's.
    want_calls = [c for c in want.of_type(SemCall) if c.arguments_error is None]
    got_calls = [c for c in got.of_type(SemCall) if c.arguments_error is None]
    if len(want_calls) != len(want.of_type(SemCall)) or len(got_calls) != len(got.of_type(SemCall)):
        return found
    kept_aside = False
    if want_calls and cut_last_call(source):
        kept = _without_cut_call(want_calls, got_calls)
        if kept is not None:
            want_calls, got_calls = kept
            kept_aside = True
    if len(want_calls) != len(got_calls) or not all(
        _same_call(a, b) for a, b in zip(want_calls, got_calls, strict=False)
    ):
        found.append(
            finding(
                "stream.reassembly",
                f"the source stream reassembles to {len(want_calls)} tool call(s); the output's "
                f"{len(got_calls)} differ in number, name or arguments"
                + (" (the call the output limit cut off aside)" if kept_aside else ""),
                path,
                expected=[_call_view(c) for c in want_calls],
                actual=[_call_view(c) for c in got_calls],
            )
        )
    return found


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"stream.reassembly": check_reassembly}
