"""pairing.*: tool calls and their results find each other by id.

Each ``check_<property>`` is pure: it takes the canonical conversation (or
response) and returns findings; an empty list means the rule holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadCheck,
    PayloadUnderTest,
    RoundTripCheck,
)
from toolwire.conformance.fidelity_view import pair_up
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing_gemini import unanswered_calls, unmatched_results
from toolwire.conformance.pairing_ids import (
    calls_with_paths,
    check_id_changed,
    check_id_changed_roundtrip,
)
from toolwire.conformance.paths import block_path
from toolwire.conformance.timeline import CallSite, call_turns, timeline_of
from toolwire.harness.model import (
    GEMINI,
    OPENAI_RESPONSES,
    Conversation,
    Response,
    ToolResult,
)

# Documented patterns. Anthropic: tool_use ids ^[a-zA-Z0-9_-]+$, tool names
# ^[a-zA-Z0-9_-]{1,128}$ (older pages said 64); OpenAI function names
# ^[a-zA-Z0-9_-]{1,64}$. OpenAI does not document an id pattern.
ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# Gemini function names: a-z, A-Z, 0-9, underscores, colons, dots and dashes,
# 64 at most (https://ai.google.dev/api/caching#FunctionDeclaration).
GEMINI_NAME = re.compile(r"^[a-zA-Z0-9_:.-]{1,64}$")
# Responses function names: the API reference states no pattern; OpenAI's own
# client holds them to ^[a-zA-Z0-9_-]+$, 128 at most, "the Responses
# function-tool identifier contract" (openai/codex#20724). The Chat limit of
# 64 would fail names the Responses API accepts.
RESPONSES_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
_NAME_PATTERNS = {
    "anthropic-messages": ANTHROPIC_NAME,
    GEMINI: GEMINI_NAME,
    OPENAI_RESPONSES: RESPONSES_NAME,
}


def check_call_id_missing(payload: Conversation | Response) -> list[Finding]:
    return [
        finding(
            "pairing.call_id_missing",
            f"the call to {call.name!r} at {path} has no id",
            path,
            actual=call.id,
        )
        for call, path in calls_with_paths(payload)
        if not call.id
    ]


def check_call_id_duplicate(payload: Conversation | Response) -> list[Finding]:
    calls = calls_with_paths(payload)
    paths_by_id: dict[str, list[str]] = {}
    for call, path in calls:
        if call.id:
            paths_by_id.setdefault(call.id, []).append(path)
    found = []
    reported: set[str] = set()
    for call, path in calls:
        if call.id and len(paths_by_id[call.id]) > 1 and call.id not in reported:
            reported.add(call.id)
            paths = paths_by_id[call.id]
            found.append(
                finding(
                    "pairing.call_id_duplicate",
                    f"id {call.id!r} is used by {len(paths)} calls: {', '.join(paths)}",
                    path,
                )
            )
    return found


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
        path = block_path(conversation, site.turn_index, site.block_index)
        where = (
            f"the calls before it are {', '.join(map(repr, offered))}"
            if offered
            else "no assistant turn with calls comes right before it"
        )
        first = first_site_by_id.get(call_id or "")
        hint = ""
        if first is not None:
            hint = f"; {call_id!r} exists at {block_path(conversation, *_place(first))}"
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


def _place(site: CallSite) -> tuple[int, int]:
    return site.turn_index, site.block_index


def check_duplicate_result(conversation: Conversation) -> list[Finding]:
    """A call answered twice in the turns where its results belong. An id reused
    by calls of different turns is pairing.call_id_duplicate, not this."""
    found = []
    for call_turn in call_turns(conversation):
        offered = {site.call.id for site in call_turn.calls if site.call.id}
        seen: dict[str, str] = {}
        for index in call_turn.window:
            for block_index, block in enumerate(conversation.turns[index].blocks):
                if not isinstance(block, ToolResult) or block.call_id not in offered:
                    continue
                path = block_path(conversation, index, block_index)
                call_id = block.call_id
                if call_id in seen:
                    found.append(
                        finding(
                            "pairing.duplicate_result",
                            f"{call_id!r} is answered at {seen[call_id]} and again at {path}",
                            path,
                        )
                    )
                else:
                    seen[call_id] = path
    return found


def check_unanswered_call(conversation: Conversation) -> list[Finding]:
    if conversation.dialect == GEMINI:
        return [
            finding(
                "pairing.unanswered_call",
                f"the call to {site.call.name!r} at {path} has no functionResponse (by id, "
                "else by name and order) before the next model turn",
                path,
            )
            for site in unanswered_calls(conversation)
            for path in [block_path(conversation, site.turn_index, site.block_index)]
        ]
    found = []
    for call_turn in call_turns(conversation):
        if call_turn.is_last_turn:
            continue  # the conversation ends on the calls: the client has yet to run them
        answered = {
            block.call_id
            for index in call_turn.window
            for block in conversation.turns[index].tool_results
        }
        for site in call_turn.calls:
            if site.call.id and site.call.id not in answered:
                path = block_path(conversation, site.turn_index, site.block_index)
                found.append(
                    finding(
                        "pairing.unanswered_call",
                        f"the call {site.call.id!r} ({site.call.name}) at {path} has no result "
                        "before the next assistant turn",
                        path,
                    )
                )
    return found


def _answered_sites(conversation: Conversation) -> tuple[list[CallSite], set[tuple[int, int]]]:
    """Every call site of ``conversation``, and those its answer window answers."""
    timeline = timeline_of(conversation)
    answered: set[tuple[int, int]] = set()
    for call_turn in timeline.call_turns:
        ids = {site.result.call_id for site in timeline.answers(call_turn)}
        answered.update(_place(site) for site in call_turn.calls if site.call.id in ids)
    return list(timeline.calls), answered


def check_answers_kept(conversion: ConversionUnderTest) -> list[Finding] | None:
    """A call the source answered stays answered in the output, on the last turn too.

    The payload check cannot tell a call the client has yet to run (a request
    that ends on the calls) from one whose results a converter dropped from
    the end of the conversation: only the source can. A call answered in the
    output, or left open before the output's last turn (the payload check
    reports that one), or lost with its turn (fidelity.arguments), is not
    reported here; with no answered call of the source found in the output
    there is nothing to judge. Evidence for MUST: OpenAI answers 400 "An
    assistant message with 'tool_calls' must be followed by tool messages
    responding to each 'tool_call_id'" (no exception for the last message),
    Anthropic "Each `tool_use` block must have a corresponding `tool_result`
    block in the next message"; a plugin that removed tool messages got that
    400 (https://github.com/langgenius/dify-official-plugins/issues/2352).
    """
    source, output = conversion.source.conversation, conversion.output.conversation
    if source is None or output is None:
        return None
    source_sites, source_answered = _answered_sites(source)
    if not source_answered:
        return None
    output_sites, output_answered = _answered_sites(output)
    pairs = pair_up(
        [site.call.id for site in source_sites],
        [site.call.id for site in output_sites],
        conversion.id_mapping,
    )
    last = len(output.turns) - 1
    judged = False
    found = []
    for i, j in pairs:
        if _place(source_sites[i]) not in source_answered:
            continue
        judged = True
        site = output_sites[j]
        if _place(site) in output_answered or site.turn_index != last:
            continue
        path = block_path(output, site.turn_index, site.block_index)
        found.append(
            finding(
                "pairing.unanswered_call",
                f"the call {site.call.id!r} ({site.call.name}) at {path} was answered in the "
                f"source ({block_path(source, *_place(source_sites[i]))}), but the output ends "
                "on it with no result: its result was dropped",
                path,
                expected="a tool result",
                actual=None,
            )
        )
    return found if judged else None


def check_id_pattern(payload: Conversation | Response) -> list[Finding]:
    found = []
    dialect = payload.dialect
    name_pattern = _NAME_PATTERNS.get(dialect, OPENAI_NAME)
    for call, path in calls_with_paths(payload):
        if dialect == "anthropic-messages" and call.id and not ANTHROPIC_ID.match(call.id):
            found.append(
                finding(
                    "pairing.id_pattern",
                    f"id {call.id!r} at {path} is not legal in {dialect} "
                    f"(must match {ANTHROPIC_ID.pattern})",
                    path,
                    actual=call.id,
                )
            )
        if call.name is not None and not name_pattern.match(call.name):
            found.append(
                finding(
                    "pairing.id_pattern",
                    f"tool name {call.name!r} at {path} is not legal in {dialect} "
                    f"(must match {name_pattern.pattern})",
                    path,
                    actual=call.name,
                )
            )
    return found


# --- wiring: what the engine calls -------------------------------------------


def _conversation_only(
    check: Callable[[Conversation], list[Finding]],
    exercised: Callable[[Conversation], bool],
) -> PayloadCheck:
    """Run ``check`` on a request; no verdict when it holds none of what the
    rule judges (``exercised``), unless the check finds something anyway."""

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        conversation = payload.conversation
        if conversation is None:
            return None
        found = check(conversation)
        return found if found or exercised(conversation) else None

    return run


def _any_payload(
    check: Callable[[Conversation | Response], list[Finding]], at_least: int = 1
) -> PayloadCheck:
    """Run ``check`` on a payload with ``at_least`` calls: two calls at least
    before an id can be shared."""

    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        target = payload.conversation or payload.response
        if target is None or len(calls_with_paths(target)) < at_least:
            return None
        return check(target)

    return run


def _has_results(conversation: Conversation) -> bool:
    return bool(timeline_of(conversation).results)


def _has_answers(conversation: Conversation) -> bool:
    """A call answered in its window: the thing that could be answered twice."""
    timeline = timeline_of(conversation)
    return any(timeline.answers(turn) for turn in timeline.call_turns)


def _has_closed_call(conversation: Conversation) -> bool:
    """A call with an id that must be answered: one made before the conversation's
    last turn (calls on the last turn may still be open; the conversion check
    judges those when the source answered them). Calls without an id (Qwen XML)
    pair by order, which this rule does not judge."""
    return any(
        not turn.is_last_turn and any(site.call.id for site in turn.calls)
        for turn in call_turns(conversation)
    )


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    "pairing.call_id_missing": _any_payload(check_call_id_missing),
    "pairing.call_id_duplicate": _any_payload(check_call_id_duplicate, at_least=2),
    "pairing.orphan_result": _conversation_only(check_orphan_result, _has_results),
    "pairing.duplicate_result": _conversation_only(check_duplicate_result, _has_answers),
    "pairing.unanswered_call": _conversation_only(check_unanswered_call, _has_closed_call),
    "pairing.id_pattern": _any_payload(check_id_pattern),
}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "pairing.id_changed": check_id_changed,
    "pairing.unanswered_call": check_answers_kept,
}


ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"pairing.id_changed": check_id_changed_roundtrip}
