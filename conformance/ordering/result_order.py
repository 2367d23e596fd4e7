"""ordering.result_order: tool results follow the order of the calls they answer."""

from __future__ import annotations

from functools import partial

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import (
    answers,
    merge_blind,
    result_path,
    several_answers,
    with_results,
)
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import call_turns
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import Conversation

RESULT_ORDER = rule(
    "ordering.result_order",
    "SHOULD",
    "payload",
    "Tool results follow the order of the calls they answer.",
    ANTHROPIC_TOOLS,
    OPENAI_TOOLS,
    fix=(
        "Write the results in the order of the calls they answer (the order of `tool_calls` "
        "or of the tool_use blocks)."
    ),
)


def check_result_order(conversation: Conversation) -> list[Finding]:
    at = partial(turn_path, conversation=conversation)  # paths in its own field
    found = []
    for call_turn in call_turns(conversation):
        sites = answers(conversation, call_turn)
        got = [site.result.call_id for site in sites]
        # Call order, each id once (a repeated id is pairing.call_id_duplicate).
        expected = [i for i in dict.fromkeys(s.call.id for s in call_turn.calls) if i in got]
        if got == expected or len(got) != len(expected):
            continue
        wrong = next(i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
        path = result_path(conversation, sites[wrong])
        found.append(
            finding(
                "ordering.result_order",
                f"the result at {path} answers {got[wrong]!r}, but the calls of "
                f"{at(call_turn.turn_index)} come in the order "
                f"{', '.join(map(repr, expected))}",
                path,
                expected=expected,
                actual=got,
            )
        )
    return found


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "ordering.result_order": with_results(merge_blind(check_result_order), several_answers),
}
