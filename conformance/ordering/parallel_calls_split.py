"""ordering.parallel_calls_split: the calls of one assistant turn stay together.

An assistant turn that makes several calls at once holds them all in one
message, its results following together: Anthropic puts every ``tool_use``
block of the turn in one assistant message and every result in the next user
message, and reads calls in separate turns as dependent ("Claude issues
dependent calls across separate turns",
https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use);
OpenAI answers one assistant message's ``tool_calls`` with the tool messages
after it (https://platform.openai.com/docs/guides/function-calling). A
converter that gives each call its own assistant turn, its result after it,
builds a valid payload that tells the model a different story, so the rule is
a SHOULD: no API is documented to refuse it.

Turns are compared on the semantic view (``toolwire.conformance.readings.semantic``), where
consecutive assistant messages are one turn, as the APIs read them. Calls are
paired by id (through the adapter's declared mapping), by position only
where both sides hold the same number of calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.semantic import SemCall, SemMessage
from toolwire.conformance.readings.views import message_path, pair_up, semantic_messages
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_PARALLEL, OPENAI_TOOLS

PARALLEL_CALLS_SPLIT = rule(
    "ordering.parallel_calls_split",
    "SHOULD",
    "conversion roundtrip",
    "The tool calls of one assistant turn stay in one assistant turn: calls spread "
    "over several turns read as dependent calls made one after another.",
    ANTHROPIC_PARALLEL,
    OPENAI_TOOLS,
    fix=(
        "Keep all calls of one assistant turn in one assistant message (one `tool_calls` "
        "list, or several tool_use blocks of one message), and their results after it."
    ),
)


def _calls(messages: tuple[SemMessage, ...]) -> list[tuple[int, SemCall]]:
    """(message index, call) of every call, in conversation order."""
    return [
        (index, call)
        for index, message in enumerate(messages)
        if message.role == "assistant"
        for call in message.of_type(SemCall)
    ]


def check_parallel_calls_split(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
) -> list[Finding] | None:
    if source.conversation is None or output.conversation is None:
        return None  # a response is one message: its calls cannot be split
    source_messages, output_messages = semantic_messages(source), semantic_messages(output)
    if source_messages is None or output_messages is None:
        return None
    source_calls, output_calls = _calls(source_messages), _calls(output_messages)
    pairs = pair_up([c.id for _, c in source_calls], [c.id for _, c in output_calls], id_mapping)
    if len(source_calls) != len(output_calls):
        # Calls lost or added (other rules' findings): trust only pairs by id.
        pairs = [
            (i, j) for i, j in pairs if _same_id(source_calls[i][1], output_calls[j][1], id_mapping)
        ]
    landed: dict[int, dict[int, None]] = {}  # source message -> output messages, in order
    for i, j in pairs:
        landed.setdefault(source_calls[i][0], {})[output_calls[j][0]] = None
    per_turn = Counter(index for index, _ in source_calls)
    judged = {index: turns for index, turns in landed.items() if per_turn[index] > 1}
    if not judged:
        return None  # no turn with several calls reached the output: nothing to judge
    found = []
    for index, turns in judged.items():
        if len(turns) == 1:
            continue
        where = [message_path(output, output_messages[t]) for t in turns]
        found.append(
            finding(
                "ordering.parallel_calls_split",
                f"the {per_turn[index]} calls that {message_path(source, source_messages[index])} "
                f"makes in one assistant turn arrive spread over {len(turns)} assistant turns "
                f"({', '.join(where)}): the model reads them as dependent calls made one after "
                "another; keep them in one assistant message with their results after it",
                where[1],
                expected=where[0],
                actual=where,
            )
        )
    return found


def _same_id(source: SemCall, output: SemCall, mapping: Mapping[str, str] | None) -> bool:
    if not source.id:
        return False
    expected = mapping.get(source.id, source.id) if mapping else source.id
    return expected == output.id


def _conversion(conversion: ConversionUnderTest) -> list[Finding] | None:
    return check_parallel_calls_split(conversion.source, conversion.output, conversion.id_mapping)


def _roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    return check_parallel_calls_split(roundtrip.original, roundtrip.returned)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"ordering.parallel_calls_split": _conversion}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"ordering.parallel_calls_split": _roundtrip}
