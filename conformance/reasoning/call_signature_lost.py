"""reasoning.call_signature_lost: a Gemini function call's ``thoughtSignature``
comes back, as the same bytes, on the same call.

Gemini 3 attaches a ``thoughtSignature`` to the first ``functionCall`` part of
each step (parallel calls: only the first call of the response has one) and
refuses with HTTP 400 a request whose current-turn calls lack the signatures
they were returned with; the signature must come back at the position it was
received (https://ai.google.dev/gemini-api/docs/thought-signatures). The
current turn starts at the last user content that is not only function
responses; a response's calls are the next request's current turn.

Judged on a Gemini -> X -> Gemini round trip and on a Gemini -> Gemini
conversion (a proxy): each signed call of the source, matched to the output
call with its id (else the one at its position), keeps a signature that
decodes to the same bytes (``readings/gemini_signatures.py``: base64 in either
alphabet). Calls before the current turn, text and thought parts are
advised back only and not judged here; neither are models known to be older
than Gemini 3 (``requires_signatures``), for which sending signatures back
is advised, not checked.
"""

from __future__ import annotations

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.gemini_signatures import requires_signatures, same_signature
from toolwire.conformance.readings.paths import block_path, response_block_path
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import GEMINI_THOUGHT_SIGNATURES
from toolwire.harness.model import GEMINI, Conversation, Response, TextBlock, ToolCall, ToolResult

CALL_SIGNATURE_LOST = rule(
    "reasoning.call_signature_lost",
    "MUST",
    "conversion roundtrip",
    "A Gemini function call's thoughtSignature comes back on the same call, as the same "
    "bytes, wherever Gemini 3 checks it (the current turn).",
    GEMINI_THOUGHT_SIGNATURES,
    dialects=frozenset({"gemini"}),
    evidence=(
        documented(
            GEMINI_THOUGHT_SIGNATURES,
            "Gemini 3: thought signatures must be passed back during function calling, at the "
            "position received; a missing signature on the current turn's first function call "
            "of a step gives a 400 error",
        ),
    ),
    fix=(
        "Keep the thoughtSignature of every Gemini functionCall part and send it back on the "
        "same call, as the same bytes (base64 and base64url spell the same bytes). When the "
        "turn passes through another dialect, carry it in a field that dialect returns, for "
        "example the call id (docs/conventions.md, Gemini)."
    ),
)


CODE = "reasoning.call_signature_lost"


def _current_turn_start(conversation: Conversation) -> int:
    """The index of the last user turn with content other than function responses."""
    for index in range(len(conversation.turns) - 1, -1, -1):
        turn = conversation.turns[index]
        if turn.role == "user" and any(not isinstance(b, ToolResult) for b in turn.blocks):
            return index
    return 0


def _calls(payload: Conversation | Response) -> list[tuple[ToolCall, str, bool]]:
    """(call, path, judged): judged calls are those of the current turn."""
    found = []
    if isinstance(payload, Response):
        for c, choice in enumerate(payload.choices):
            for b, block in enumerate(choice.message.blocks):
                if isinstance(block, ToolCall):
                    path = response_block_path(payload.dialect, choice.message, b, c)
                    found.append((block, path, True))
        return found
    start = _current_turn_start(payload)
    for t, turn in enumerate(payload.turns):
        for b, block in enumerate(turn.blocks):
            if isinstance(block, ToolCall):
                found.append((block, block_path(payload, t, b), t > start))
    return found


def _model(payload: Conversation | Response) -> str | None:
    return payload.model


def check_call_signature_lost(
    source: Conversation | Response, output: Conversation | Response
) -> list[Finding] | None:
    if not requires_signatures(_model(source)) and _model(source) is not None:
        return None  # an older model: signatures are advised back, not checked
    before, after = _calls(source), _calls(output)
    signed = [(i, c, judged) for i, (c, _, judged) in enumerate(before) if c.signature and judged]
    if not signed:
        return None
    by_id = {call.id: (call, path) for call, path, _ in after if call.id}
    found = []
    for position, call, _ in signed:
        match = by_id.get(call.id) if call.id else None
        if match is None and position < len(after):
            match = (after[position][0], after[position][1])
        if match is None:
            continue  # the call itself is gone: pairing and fidelity rules say so
        got, path = match
        if same_signature(call.signature, got.signature):
            continue
        state = "without its thoughtSignature" if not got.signature else "with another signature"
        found.append(
            finding(
                CODE,
                f"the call to {call.name!r} at {path} comes back {state}; Gemini 3 refuses a "
                "current-turn function call whose signature is missing or altered (HTTP 400)",
                path,
                expected=call.signature,
                actual=got.signature,
            )
        )
    return found


def _text_only(payload: Conversation | Response) -> bool:
    return isinstance(payload, Response) and all(
        isinstance(b, TextBlock) for c in payload.choices for b in c.message.blocks
    )


def _conversion(conversion: ConversionUnderTest) -> list[Finding] | None:
    if conversion.source.dialect != GEMINI or conversion.output.dialect != GEMINI:
        return None
    source = conversion.source.conversation or conversion.source.response
    output = conversion.output.conversation or conversion.output.response
    if source is None or output is None:
        return None
    return check_call_signature_lost(source, output)


def _roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    if roundtrip.original.dialect != GEMINI or roundtrip.returned.dialect != GEMINI:
        return None
    original = roundtrip.original.conversation or roundtrip.original.response
    returned = roundtrip.returned.conversation or roundtrip.returned.response
    if original is None or returned is None or _text_only(original):
        return None
    return check_call_signature_lost(original, returned)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {CODE: _conversion}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {CODE: _roundtrip}
