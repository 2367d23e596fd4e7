"""ordering.block_order: text and tool calls keep their order inside a turn.

What a dialect can express decides what must survive. anthropic-messages
keeps any order of content blocks; an openai-chat message (and deepseek-chat,
qwen-xml) holds its text in ``content`` and its calls after it, so text after
a call, or between two calls, can only move before them (docs/conventions.md,
"Several text blocks in openai-chat"). The expected order of the output is
the source's order projected onto what the target can express; a round trip
projects through the dialect it went via.

Thinking is left out: in every dialect its only legal place is first (an
anthropic payload that moves it is ``reasoning.position``; the openai family
writes it in a field before the content), so its order has nothing left to
say here. Whitespace-only text carries nothing and is ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.semantic import SemCall, SemMessage, SemText
from toolwire.conformance.readings.views import (
    is_openai_family,
    message_path,
    pair_up,
    semantic_messages,
)
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import QWEN_XML

BLOCK_ORDER = rule(
    "ordering.block_order",
    "SHOULD",
    "conversion roundtrip",
    "The order of text, thinking and tool calls inside a turn survives conversion "
    "wherever the target dialect can express it.",
    ANTHROPIC_DOCS,
    OPENAI_DOCS,
    fix=(
        "Keep the order of text, thinking and tool calls inside a turn wherever the target "
        "has a list of blocks; only the order openai-chat cannot express (text after a call) "
        "may change."
    ),
    convention=(
        "Several text blocks in openai-chat",
        "openai-chat has one content and then its tool_calls: text after a call cannot keep "
        "its place there, and joined text blocks are accepted.",
    ),
)


Layout = tuple[str, ...]  # "text" or "call:<n>" (n = the call's number in the source message)


def _layout(message: SemMessage, call_numbers: Sequence[int | None]) -> Layout:
    out: list[str] = []
    calls = iter(call_numbers)
    for item in message.items:
        if isinstance(item, SemText) and item.text.strip():
            entry = "text"
        elif isinstance(item, SemCall):
            number = next(calls)
            entry = f"call:{number}" if number is not None else "call:?"
        else:
            continue
        if not (entry == "text" and out and out[-1] == "text"):
            out.append(entry)
    return tuple(out)


def project(layout: Layout, dialect: str) -> Layout:
    """The layout as ``dialect`` can carry it: the openai family puts all text
    first, then the calls in order."""
    if not is_openai_family(dialect):
        return layout
    texts: Layout = ("text",) if "text" in layout else ()
    return texts + tuple(entry for entry in layout if entry != "text")


def check_block_order(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    through: Sequence[str],
    id_mapping: Mapping[str, str] | None = None,
) -> list[Finding] | None:
    """Compare the assistant messages of ``source`` and ``output``; ``through``
    lists the dialects the content passed through (the output's last)."""
    source_messages = _assistant(semantic_messages(source))
    output_messages = _assistant(semantic_messages(output))
    calls_per_message = [m.of_type(SemCall) for m in source_messages]
    if not any(calls_per_message):
        return None  # no calls: nothing whose order against text could change
    if len(source_messages) != len(output_messages):
        return None  # messages lost or added: fidelity.text and fidelity.roundtrip say so
    judged = False
    found = []
    for source_message, output_message, source_calls in zip(
        source_messages, output_messages, calls_per_message, strict=True
    ):
        output_calls = output_message.of_type(SemCall)
        if len(source_calls) != len(output_calls):
            continue  # a lost call is not an order problem
        if not source_calls:
            continue  # text alone on both sides: its one place is always right
        numbers: list[int | None] = [None] * len(output_calls)
        pairs = pair_up([c.id for c in source_calls], [c.id for c in output_calls], id_mapping)
        for source_index, output_index in pairs:
            numbers[output_index] = source_index + 1
        expected = _layout(source_message, range(1, len(source_calls) + 1))
        for dialect in through:
            expected = project(expected, dialect)
        actual = _layout(output_message, numbers)
        if ("text" in expected) != ("text" in actual):
            # Text lost or invented is fidelity.text's; judge the calls' order alone.
            expected, actual = _calls_only(expected), _calls_only(actual)
        if len(expected) < 2:
            continue  # one call, or one call and nothing else: no order to keep
        judged = True
        if actual != expected:
            path = message_path(output, output_message)
            found.append(
                finding(
                    "ordering.block_order",
                    f"the assistant message at {path} has its content in the order "
                    f"{_describe(actual)}; the source's order, as the target can carry it, "
                    f"is {_describe(expected)}",
                    path,
                    expected=list(expected),
                    actual=list(actual),
                )
            )
    return found if judged else None


def _calls_only(layout: Layout) -> Layout:
    return tuple(entry for entry in layout if entry != "text")


def _assistant(messages: Sequence[SemMessage] | None) -> list[SemMessage]:
    return [m for m in messages or () if m.role == "assistant"]


def _describe(layout: Layout) -> str:
    return " -> ".join(entry.replace("call:", "call #") for entry in layout) or "(empty)"


def check_block_order_conversion(conversion: ConversionUnderTest) -> list[Finding] | None:
    if QWEN_XML in (conversion.source.dialect, conversion.output.dialect):
        return None  # the order of Qwen XML text and calls is the xml.* rules' to judge
    return check_block_order(
        conversion.source,
        conversion.output,
        (conversion.output.dialect,),
        conversion.id_mapping,
    )


def check_block_order_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    return check_block_order(
        roundtrip.original, roundtrip.returned, (roundtrip.via, roundtrip.returned.dialect)
    )


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "ordering.block_order": check_block_order_conversion
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"ordering.block_order": check_block_order_roundtrip}
