"""pairing.orphan_result: every tool result answers a call of the assistant
turn before it (gemini: by id where the response has one, else by name and order).

An openai-responses request that continues server-side state
(``previous_response_id``, ``conversation``: ``readings/server_state.py``)
answers calls the server holds: a result whose id no call of the request
carries is not judged there. A result whose call the request does carry is
still judged, and so is a request that holds nothing else to judge (no
verdict).
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import conversation_only, place
from toolwire.conformance.readings.gemini_pairs import unmatched_results
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.server_state import server_state
from toolwire.conformance.readings.timeline import CallSite, timeline_of
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    OPENAI_TOOLS,
    ORPHAN_ANTHROPIC,
    ORPHAN_OPENAI,
    RESPONSES_DOCS,
)
from toolwire.harness.model import GEMINI, Conversation

ORPHAN_RESULT = rule(
    "pairing.orphan_result",
    "MUST",
    "payload",
    "Every tool result answers a call made in the assistant turn before it "
    "(gemini: by id where the response has one, else by name and order).",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    RESPONSES_DOCS,
    evidence=(
        rejected(
            ORPHAN_OPENAI,
            "OpenAI 400 \"Messages with role 'tool' must be a response to a preceding "
            "message with 'tool_calls'\"",
        ),
        rejected(
            ORPHAN_ANTHROPIC,
            'Anthropic 400 "unexpected `tool_use_id` found in `tool_result` blocks"',
        ),
        rejected(
            GEMINI_RESPONSE_COUNT_400,
            'Gemini 400 "Please ensure that the number of function response parts is equal '
            'to the number of function call parts of the function call turn"',
        ),
        rejected(
            "https://github.com/continuedev/continue/issues/10092",
            'OpenAI Responses 400 "No tool call found for function call output with call_id '
            'call_..."',
        ),
    ),
    fix=(
        "When history is trimmed or calls are filtered, drop a call's result together with "
        "the call, and keep every result's tool_call_id / tool_use_id equal to an id of the "
        "assistant turn right before it."
    ),
)


def _gemini_orphans(conversation: Conversation) -> list[Finding]:
    found = []
    for site in unmatched_results(conversation):
        result = site.result
        path = block_path(conversation, site.turn_index, site.block_index)
        owner = timeline_of(conversation).owners.get(site.turn_index)
        offered = [(s.call.id, s.call.name) for s in owner.calls] if owner else []
        what = f"id {result.call_id!r}" if result.call_id else f"name {result.name!r}"
        where = (
            f"no call of the model turn before it is left to answer by that {what.split()[0]} "
            f"(its calls: {', '.join(f'{n}' + (f' [{i}]' if i else '') for i, n in offered)})"
            if offered
            else "no model turn with function calls comes right before it"
        )
        found.append(
            finding(
                "pairing.orphan_result",
                f"the functionResponse at {path} answers by {what}, but {where}",
                path,
                expected=[name for _, name in offered],
                actual=result.call_id or result.name,
            )
        )
    return found


def check_orphan_result(conversation: Conversation) -> list[Finding]:
    if conversation.dialect == GEMINI:
        return _gemini_orphans(conversation)  # by id, else by name and order
    timeline = timeline_of(conversation)
    first_site_by_id: dict[str, CallSite] = {}
    for call_site in timeline.calls:
        if call_site.call.id:
            first_site_by_id.setdefault(call_site.call.id, call_site)
    held_by_server = server_state(conversation) is not None
    # Per call turn: its call ids in order, as a set, and whether every call has one.
    offers: dict[int, tuple[list[str | None], set[str | None], bool]] = {}
    found = []
    for site in timeline.results:
        call_id = site.result.call_id
        owner = timeline.owners.get(site.turn_index)
        offered: list[str | None] = []
        offered_ids: set[str | None] = set()
        every_call_has_id = True
        if owner is not None:
            if owner.turn_index not in offers:
                ids = [s.call.id for s in owner.calls]
                offers[owner.turn_index] = (ids, set(ids), all(ids))
            offered, offered_ids, every_call_has_id = offers[owner.turn_index]
        if call_id and call_id in offered_ids:
            continue
        if not call_id and owner and not every_call_has_id:
            continue  # a call without an id: pairing.call_id_missing says so, once
        if held_by_server and (call_id or "") not in first_site_by_id:
            continue  # its call lives in the state the server prepends
        path = block_path(conversation, site.turn_index, site.block_index)
        where = (
            f"the calls before it are {', '.join(map(repr, offered))}"
            if offered
            else "no assistant turn with calls comes right before it"
        )
        first = first_site_by_id.get(call_id or "")
        hint = ""
        if first is not None:
            hint = f"; {call_id!r} exists at {block_path(conversation, *place(first))}"
        found.append(
            finding(
                "pairing.orphan_result",
                f"the result at {path} references {call_id!r}, but {where}{hint}",
                path,
                expected=list(offered),
                actual=call_id,
            )
        )
    return found


def _has_results(conversation: Conversation) -> bool:
    """Results to judge: every result, or, where the server holds earlier state,
    those whose call the request itself carries."""
    timeline = timeline_of(conversation)
    if server_state(conversation) is None:
        return bool(timeline.results)
    ids = {site.call.id for site in timeline.calls if site.call.id}
    return any(site.result.call_id in ids for site in timeline.results)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.orphan_result": conversation_only(check_orphan_result, _has_results),
}
