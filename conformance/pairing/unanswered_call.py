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
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.id_changed import (
    calls_with_paths,
    check_id_changed,
    check_id_changed_roundtrip,
)
from toolwire.conformance.presets import ID_DIALECTS
from toolwire.conformance.readings.gemini_pairs import unanswered_calls, unmatched_results
from toolwire.conformance.readings.paths import block_path
from toolwire.conformance.readings.timeline import CallSite, call_turns, timeline_of
from toolwire.conformance.readings.views import pair_up
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_DOCS,
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    OPENAI_DOCS,
    OPENAI_TOOLS,
    ORPHAN_ANTHROPIC,
    ORPHAN_OPENAI,
    RESPONSES_DOCS,
    UNANSWERED_ANTHROPIC,
    UNANSWERED_OPENAI,
)
from toolwire.harness.model import (
    GEMINI,
    OPENAI_RESPONSES,
    Conversation,
    Response,
    ToolResult,
)

CALL_ID_MISSING = rule(
    "pairing.call_id_missing",
    "MUST",
    "payload",
    "Every tool call carries a non-empty id.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    # function_call.call_id and function_call_output.call_id are required.
    RESPONSES_DOCS,
    dialects=ID_DIALECTS,
    evidence=(
        documented(OPENAI_DOCS, "tool_calls[].id is a required string of an assistant message"),
        documented(ANTHROPIC_DOCS, "tool_use.id and tool_result.tool_use_id are required"),
        documented(
            "https://platform.openai.com/docs/api-reference/responses/create",
            "function_call.call_id and function_call_output.call_id are required strings",
        ),
    ),
    fix=(
        "Copy the source's call id into the target's id field (`tool_calls[].id`, "
        "`tool_use.id`). Where the source has no id (Qwen XML calls), mint one that is "
        "unique in the conversation, and give the matching result the same id."
    ),
)


CALL_ID_DUPLICATE = rule(
    "pairing.call_id_duplicate",
    "MUST",
    "payload",
    "No two tool calls in a conversation share an id.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    dialects=ID_DIALECTS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/21317",
            'Anthropic 400 "messages.1.content.1: `tool_use` ids must be unique"',
        ),
    ),
    fix=(
        "Keep each call's own id. When ids are minted (Qwen XML, servers that number calls "
        "per response), number them across the whole conversation, not per response."
    ),
)


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


DUPLICATE_RESULT = rule(
    "pairing.duplicate_result",
    "MUST",
    "payload",
    "No tool call is answered more than once.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/14110",
            'Anthropic 400 "each tool_use must have a single result. Found multiple '
            '`tool_result` blocks"',
        ),
    ),
    fix=(
        "Write each result once: do not append a result that is already in the target "
        "message, and do not merge two conversions of the same history."
    ),
)


UNANSWERED_CALL = rule(
    "pairing.unanswered_call",
    "MUST",
    "payload conversion",
    "Every tool call is answered before the next assistant turn; "
    "only the last turn of a conversation may leave calls open, "
    "and a call the source answered stays answered, on the last turn too.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    GEMINI_RESPONSE_COUNT_400,
    RESPONSES_DOCS,
    evidence=(
        rejected(
            GEMINI_RESPONSE_COUNT_400,
            'Gemini 400 "Please ensure that the number of function response parts is equal '
            'to the number of function call parts of the function call turn"',
        ),
        rejected(
            UNANSWERED_ANTHROPIC,
            'Anthropic 400 "`tool_use` ids were found without `tool_result` blocks '
            'immediately after"',
        ),
        rejected(
            UNANSWERED_OPENAI,
            "OpenAI 400 \"An assistant message with 'tool_calls' must be followed by tool "
            "messages responding to each 'tool_call_id'\"",
        ),
        rejected(
            "https://github.com/openai/codex/issues/620",
            'OpenAI Responses 400 "No tool output found for function call call_..."',
        ),
    ),
    fix=(
        "Convert every result of the source: tool messages (openai-chat) become tool_result "
        "blocks of the next user message (anthropic-messages) and back. Never turn a result "
        "into plain text, and never drop the results of the last turn."
    ),
)


ID_PATTERN = rule(
    "pairing.id_pattern",
    "MUST",
    "payload",
    "Tool call ids and tool names in the output are legal for the target dialect.",
    ANTHROPIC_DOCS,
    OPENAI_DOCS,
    evidence=(
        documented(
            "https://ai.google.dev/api/caching#FunctionDeclaration",
            "Gemini function names: a-z, A-Z, 0-9, underscores, colons, dots and dashes, "
            "64 at most",
        ),
        documented(
            ANTHROPIC_DOCS, "tool names match ^[a-zA-Z0-9_-]{1,64}$ (64 characters at most)"
        ),
        documented(
            OPENAI_DOCS, "function names: a-z, A-Z, 0-9, underscores and dashes, 64 at most"
        ),
        rejected(
            "https://github.com/anomalyco/opencode/issues/1279",
            "Anthropic 400 \"tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'\"",
        ),
    ),
    fix=(
        "Rewrite ids and tool names the target refuses: anthropic-messages accepts "
        "`^[a-zA-Z0-9_-]+$` for ids and at most 64 such characters for names. Replace the "
        "other characters consistently on the call and its result, and declare the mapping."
    ),
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
