"""What the pairing checks share: the calls of a payload with their paths,
where a call site sits, and when a pairing check has something to judge.

Holds no rule: each rule is defined in ``conformance/pairing/<name>.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.readings.memo import by_identity
from toolwire.conformance.readings.paths import call_paths, response_block_path
from toolwire.conformance.readings.timeline import CallSite, timeline_of
from toolwire.harness.model import Conversation, Response, ToolCall


# Four checks per payload read the calls with their paths: built once (readings/memo.py).
@by_identity
def calls_with_paths(payload: Conversation | Response) -> tuple[tuple[ToolCall, str], ...]:
    if isinstance(payload, Response):
        return tuple(
            (block, response_block_path(payload.dialect, choice.message, b, c))
            for c, choice in enumerate(payload.choices)
            for b, block in enumerate(choice.message.blocks)
            if isinstance(block, ToolCall)
        )
    sites = timeline_of(payload).calls
    return tuple((site.call, path) for site, path in zip(sites, call_paths(payload), strict=True))


def place(site: CallSite) -> tuple[int, int]:
    return site.turn_index, site.block_index


def conversation_only(
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


def any_payload(
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
