"""stream.item_call_id: the function calls an openai-responses stream states
in ``response.output_item.added`` and ``response.output_item.done`` carry
their ``call_id``.

The stream's terminal Response is judged like any response
(``pairing.call_id_missing``); this rule judges the events before it, which a
client may read instead: a client that takes each call from
``output_item.done`` (the event the streaming reference emits "when an output
item is marked done", its ``item`` the whole function_call) answers the call
by that ``call_id``, and an empty one pairs with nothing; replayed, OpenAI
refuses it (HTTP 400 ``empty_string``: "Invalid 'input[4].call_id': empty
string. Expected a string with minimum length 1", BigPizzaV3/CodexPlusPlus#315).
Real streams (the shared recordings of api.openai.com and Azure) carry the
call_id in both events. The reassembler
notes the defect as ``call_id_missing`` (harness/dialects/openai_responses/stream.py).
"""

from __future__ import annotations

from dataclasses import replace

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.stream_issues import issue_findings
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import RESPONSES_DOCS, RESPONSES_STREAM
from toolwire.harness.model import OPENAI_RESPONSES

ITEM_CALL_ID = rule(
    "stream.item_call_id",
    "MUST",
    "payload",
    "Every function_call item an openai-responses stream states in "
    "response.output_item.added or response.output_item.done carries a non-empty call_id.",
    RESPONSES_STREAM,
    RESPONSES_DOCS,
    dialects=frozenset({OPENAI_RESPONSES}),
    evidence=(
        documented(
            RESPONSES_DOCS,
            "function_call.call_id and function_call_output.call_id are required strings",
        ),
        rejected(
            "https://github.com/BigPizzaV3/CodexPlusPlus/issues/315",
            'api.openai.com 400 invalid_request_error empty_string "Invalid '
            "'input[4].call_id': empty string. Expected a string with minimum length 1\" "
            "(the empty call_id replayed)",
        ),
    ),
    fix=(
        "Put the call's call_id on the function_call item of both response.output_item.added "
        "and response.output_item.done (the same value the final Response gives it); do not "
        "send an empty string while the id is still unknown."
    ),
)


def _check(payload: PayloadUnderTest) -> list[Finding] | None:
    stream = payload.stream
    if stream is None or stream.dialect != OPENAI_RESPONSES:
        return None
    issues = [issue for issue in stream.issues if issue.code == "call_id_missing"]
    if not issues and not stream.response.message.tool_calls:
        return None  # no function call to judge
    # The diff shows the call_id the event stated, against a non-empty one.
    return [
        replace(found, expected="a non-empty call_id", actual=issue.said)
        for found, issue in zip(issue_findings("stream.item_call_id", issues), issues, strict=False)
    ]


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"stream.item_call_id": _check}
