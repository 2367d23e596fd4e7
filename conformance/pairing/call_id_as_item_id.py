"""pairing.call_id_as_item_id: a function_call of an openai-responses request
does not carry a call id (or nothing) where its item id belongs.

A Responses ``function_call`` item has two ids: ``call_id`` (``call_...``),
which its ``function_call_output`` answers, and its own item ``id``
(``fc_...`` from OpenAI), optional on input. A converter that tracks only the
call id and writes it into ``id`` too is refused by OpenAI with HTTP 400
"Invalid 'input[N].id': 'call_...'. Expected an ID that begins with 'fc'."
(nodetool-ai/nodetool#4252); an empty ``id`` with "Expected an ID that
contains letters, numbers, underscores, or dashes"
(langchain-ai/langchainjs#11044).

Judged: an ``id`` that is empty, equals the item's own ``call_id``, or has the
``call_`` form of a call id. Not judged: other ids that do not begin with
``fc``. OpenAI refuses them as well, but other servers of the dialect mint
their own item ids and accept them back (DeepSeek's Responses endpoint
gives its items UUIDs; the shared real transcripts replay a reasoning item
with one and DeepSeek answered 200), so a MUST on them would fail correct
traffic toward those servers. Only requests are judged, as they are what the
server reads.
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import calls_with_paths
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import RESPONSES_DOCS
from toolwire.harness.model import OPENAI_RESPONSES, Conversation, ToolCall

CALL_ID_AS_ITEM_ID = rule(
    "pairing.call_id_as_item_id",
    "MUST",
    "payload",
    "In an openai-responses request, a function_call item's id, where it has one, is an "
    "item id: not empty, not its call_id, not a call_ id.",
    RESPONSES_DOCS,
    dialects=frozenset({OPENAI_RESPONSES}),
    evidence=(
        rejected(
            "https://github.com/nodetool-ai/nodetool/pull/4252",
            "api.openai.com 400 \"Invalid 'input[N].id': 'call_...'. Expected an ID that "
            "begins with 'fc'.\" (the call_id sent as the function_call's item id)",
        ),
        rejected(
            "https://github.com/langchain-ai/langchainjs/issues/11044",
            "400 \"Invalid 'input[2].id': ''. Expected an ID that contains letters, numbers, "
            'underscores, or dashes"',
        ),
    ),
    fix=(
        "Send a function_call with the item id the server gave it (fc_... from OpenAI), or "
        "with no id at all: its call_id alone pairs it with its function_call_output. Never "
        "copy the call_id into `id`."
    ),
)


def _confused(call: ToolCall) -> str | None:
    """Why the call's item id is not an item id, or None."""
    item_id = call.item_id
    if item_id is None or item_id.startswith("fc"):
        return None
    if item_id == "":
        return "is empty"
    if item_id == call.id:
        return "is its call_id"
    if item_id.startswith("call_"):
        return "is a call id"
    return None


def check_call_id_as_item_id(conversation: Conversation) -> list[Finding] | None:
    found: list[Finding] = []
    judged = False
    for call, path in calls_with_paths(conversation):
        if call.item_id is None:
            continue
        judged = True
        why = _confused(call)
        if why is not None:
            message = (
                f"the function_call at {path} (call {call.id!r}) has the item id "
                f"{call.item_id!r}, which {why}; OpenAI rejects it (HTTP 400: Expected an ID "
                "that begins with 'fc')"
            )
            found.append(
                finding(
                    "pairing.call_id_as_item_id",
                    message,
                    path,
                    expected="an fc_ item id, or no id",
                    actual=call.item_id,
                )
            )
    return found if judged else None


def _check(payload: PayloadUnderTest) -> list[Finding] | None:
    conversation = payload.conversation
    if conversation is None or payload.dialect != OPENAI_RESPONSES:
        return None
    return check_call_id_as_item_id(conversation)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"pairing.call_id_as_item_id": _check}
