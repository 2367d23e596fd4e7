"""reasoning.*: model reasoning goes back to the provider the way it demands.

* DeepSeek thinking mode: every assistant message of a stretch with tool
  calls carries ``reasoning_content`` in later requests, ``""`` included
  (https://api-docs.deepseek.com/guides/thinking_mode; pydantic-ai's real
  DeepSeek recording sends ``reasoning_content: ""`` and is accepted).
* The legacy ``deepseek-reasoner`` answered 400 to any ``reasoning_content``
  in the input (https://api-docs.deepseek.com/guides/reasoning_model).
* Replayed reasoning is the text returned, and Anthropic thinking keeps its
  signature and redacted data
  (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
  A deepseek-chat target cannot carry signatures (docs/conventions.md).
* Anthropic thinking blocks open the assistant content; interleaved thinking
  may also follow a server tool's result inside the same message.

Each ``check_<property>`` is pure; the wiring dicts at the end say what the
engine calls for each scope.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance import reasoning_carried as carried
from toolwire.conformance import reasoning_gemini, reasoning_items
from toolwire.conformance import reasoning_signatures as signatures
from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadCheck,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.paths import block_path, response_block_path, turn_path
from toolwire.conformance.reasoning_carried import carries_reasoning, extra_reasoning
from toolwire.conformance.reasoning_views import AssistantView, assistant_views, thinking_pairs
from toolwire.conformance.text import same_text
from toolwire.conformance.timeline import ASSISTANT_ROLES, timeline_of
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    Conversation,
    OpaqueBlock,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
)

REPLAY_FIELD = "reasoning_content"


def _has_replay_field(turn: Turn) -> bool:
    return any(
        isinstance(block, ThinkingBlock) and block.origin == REPLAY_FIELD and block.text is not None
        for block in turn.blocks
    )


def check_replay_missing(conversation: Conversation) -> list[Finding]:
    """Every assistant message of a stretch with tool calls carries reasoning_content."""
    found = []
    for view in assistant_views(conversation):
        if not view.tool_stretch:
            continue
        for index, turn in zip(view.indices, view.turns, strict=True):
            if _has_replay_field(turn):
                continue
            state = "is null" if turn.extra.get(REPLAY_FIELD, 0) is None else "is missing"
            found.append(
                finding(
                    "reasoning.replay_missing",
                    f"{turn_path(index)} is an assistant message of a stretch with tool calls, "
                    f"but its reasoning_content {state} (send back the text the model returned, "
                    '"" when it was empty)',
                    turn_path(index),
                    expected="reasoning_content",
                    actual=None,
                )
            )
    return found


def check_replay_forbidden(conversation: Conversation) -> list[Finding]:
    """No assistant message of the input carries reasoning_content (legacy reasoner)."""
    found = []
    for index, turn in enumerate(conversation.turns):
        if turn.role not in ASSISTANT_ROLES:
            continue
        for b, block in enumerate(turn.blocks):
            if not (isinstance(block, ThinkingBlock) and block.origin == REPLAY_FIELD):
                continue
            path = block_path(conversation, index, b)
            found.append(
                finding(
                    "reasoning.replay_forbidden",
                    f"{path} sends reasoning_content back; the legacy deepseek-reasoner rejects "
                    "reasoning_content in the input (drop it from earlier assistant messages)",
                    path,
                    expected=None,
                    actual=block.text,
                )
            )
    return found


def _is_server_tool_result(block: object) -> bool:
    return isinstance(block, OpaqueBlock) and block.type.endswith("tool_result")


def _misplaced_thinking(turn: Turn) -> list[tuple[int, str]]:
    """Thinking blocks after other content, with what comes before them.

    Interleaved thinking may follow a server tool's result inside the same
    message (a client tool_use is answered in the next message, so thinking
    after it in one message is never interleaving): that is accepted.
    """
    misplaced = []
    first_other: str | None = None
    after_result = False
    for index, block in enumerate(turn.blocks):
        if isinstance(block, ThinkingBlock):
            if first_other is not None and not after_result:
                misplaced.append((index, first_other))
            continue
        if first_other is None:
            first_other = _block_kind(block)
        if _is_server_tool_result(block):
            after_result = True
    return misplaced


def _block_kind(block: object) -> str:
    if isinstance(block, TextBlock):
        return "text"
    if isinstance(block, ToolCall):
        return "tool_use"
    if isinstance(block, OpaqueBlock):
        return block.type
    return type(block).__name__


def check_position(payload: Conversation | Response) -> list[Finding]:
    """Thinking blocks open the assistant content (anthropic-messages)."""
    placed: list[tuple[Turn, int, str, str]] = []
    if isinstance(payload, Response):
        message = payload.message
        for index, before in _misplaced_thinking(message):
            path = response_block_path(payload.dialect, message, index)
            placed.append((message, index, before, path))
    else:
        for t, turn in enumerate(payload.turns):
            if turn.role not in ASSISTANT_ROLES:
                continue
            for index, before in _misplaced_thinking(turn):
                placed.append((turn, index, before, block_path(payload, t, index)))
    return [
        finding(
            "reasoning.position",
            f"the thinking block at {path} comes after a {before} block; thinking blocks "
            "must open the assistant content",
            path,
            expected="thinking first",
            actual=[_block_kind(b) for b in turn.blocks],
        )
        for turn, _, before, path in placed
    ]


def _thinking_pieces(view: AssistantView) -> list[str]:
    """The view's reasoning texts, a Responses reasoning item's summary parts
    each a piece of its own (the codec joins them with no separator)."""
    pieces: list[str] = []
    for thinking in view.thinking:
        block = thinking.block
        parts = block.extra.get("summary") if block.origin == "reasoning_item" else None
        texts = (
            [
                p["text"]
                for p in parts or ()
                if isinstance(p, dict) and isinstance(p.get("text"), str)
            ]
            if isinstance(parts, list)
            else []
        )
        if texts:
            pieces.extend(texts)
        elif block.text is not None:
            pieces.append(block.text)
    return pieces


def _whitespace_only(a: str, b: str) -> bool:
    return a.strip() == b.strip()


def _emptied(output: Conversation | Response, view: AssistantView) -> bool:
    """A response that lost all its reasoning (reasoning_carried judges it)."""
    return isinstance(output, Response) and not carries_reasoning(view)


def _returned(view: AssistantView) -> bool:
    """The source view carries reasoning (reasoning_carried's reading)."""
    return carries_reasoning(view) or bool(extra_reasoning(view))


def check_altered(
    source: Conversation | Response,
    output: Conversation | Response,
    emptied_elsewhere: bool = False,
) -> list[Finding] | None:
    """Reasoning that reaches the output is the source's text, unchanged.

    Reasoning the output leaves out is judged by replay_missing and
    signature_lost (where the target requires it), not here; with
    ``emptied_elsewhere`` (a conversion), a response whose reasoning is gone
    or blank is left to reasoning.dropped / not_carried, and text where the
    source returned none (``reasoning_content: ""``) to reasoning.invented.
    """
    pairs = thinking_pairs(source, output, lambda s: s.thinking_text() is not None)
    if not pairs:
        return None
    found = []
    judged = False  # reasoning the output left out is not compared here
    for source_view, output_view in pairs:
        expected, actual = source_view.thinking_text(), output_view.thinking_text()
        if actual is None or expected is None:
            continue
        if emptied_elsewhere and _emptied(output, output_view):
            continue  # the whole reasoning is gone: reasoning.dropped or not_carried
        if emptied_elsewhere and not _returned(source_view):
            continue  # the model returned none: what the output carries is invented
        judged = True
        if actual == expected:
            continue
        signed = any(t.block.signature for t in output_view.thinking)
        if not signed and (
            _whitespace_only(expected, actual)
            or same_text(_thinking_pieces(source_view), _thinking_pieces(output_view))
        ):
            # Unsigned reasoning: surrounding whitespace, or the separators
            # fidelity.text accepts where pieces (summary parts) were joined,
            # are no alteration.
            continue
        path = output_view.thinking[0].path
        found.append(
            finding(
                "reasoning.altered",
                f"the reasoning of {source_view.path} arrives at {path} as different text "
                f"({len(expected)} characters returned, {len(actual)} sent)",
                path,
                expected=expected,
                actual=actual,
            )
        )
    return found if judged else None


def _signed_items(view: AssistantView) -> list[tuple[str, str, str]]:
    """(kind, value, path) of the signature or redacted data of each thinking block."""
    items = []
    for placed in view.thinking:
        if placed.block.redacted_data is not None:
            items.append(("redacted_thinking data", placed.block.redacted_data, placed.path))
        elif placed.block.signature is not None:
            items.append(("thinking signature", placed.block.signature, placed.path))
    return items


def check_signature_lost(
    source: Conversation | Response,
    output: Conversation | Response,
    emptied_elsewhere: bool = False,
) -> list[Finding] | None:
    """Signatures and redacted data survive into an anthropic-messages output.

    Required on the assistant turn in progress (after the last genuine user
    message) and in a response; on earlier turns a client may omit thinking,
    but thinking it keeps must keep its signature.
    """
    pairs = thinking_pairs(source, output, lambda s: bool(_signed_items(s)))
    if not pairs:
        return None
    found = []
    judged = False
    for source_view, output_view in pairs:
        kept = {value for _, value, _ in _signed_items(output_view)}
        if not source_view.open_loop and not output_view.thinking:
            continue  # thinking of an earlier turn may be omitted whole
        if emptied_elsewhere and _emptied(output, output_view):
            continue  # a response that lost all its reasoning: reasoning.dropped or not_carried
        judged = True
        for kind, value, path in _signed_items(source_view):
            if value in kept:
                continue
            where = output_view.thinking[0].path if output_view.thinking else output_view.path
            found.append(
                finding(
                    "reasoning.signature_lost",
                    f"the {kind} of {path} ({_short(value)}) is not in the output at {where}",
                    where,
                    expected=value,
                    actual=sorted(kept) or None,
                )
            )
    return found if judged else None


def _short(value: str) -> str:
    return repr(value) if len(value) <= 16 else repr(value[:12] + "…")


def check_replay_kept(
    source: Conversation | Response, output: Conversation | Response
) -> list[Finding] | None:
    """Reasoning of a tool-call stretch in the source reaches the deepseek-chat output
    request. A response that loses it is reasoning.dropped's (one defect, one code)."""
    if isinstance(output, Response):
        return None
    if thinking_disabled(output):
        return None  # not thinking mode: nothing has to come back
    pairs = thinking_pairs(
        source, output, lambda s: s.tool_stretch and s.thinking_text() is not None
    )
    if not pairs:
        return None
    found = []
    for source_view, output_view in pairs:
        if all(_has_replay_field(turn) for turn in output_view.turns):
            continue
        found.append(
            finding(
                "reasoning.replay_missing",
                f"{source_view.describe()} had reasoning on a tool-call stretch, but the output "
                f"at {output_view.path} carries no reasoning_content",
                output_view.path,
                expected=source_view.thinking_text(),
                actual=None,
            )
        )
    return found


# --- wiring: what the engine calls -------------------------------------------


def _request_check(check: Callable[[Conversation], list[Finding]]) -> PayloadCheck:
    def run(payload: PayloadUnderTest) -> list[Finding] | None:
        conversation = payload.conversation
        if conversation is None or not any(
            turn.role in ASSISTANT_ROLES for turn in conversation.turns
        ):
            return None
        return check(conversation)

    return run


def thinking_disabled(conversation: Conversation | None) -> bool:
    """The request turns DeepSeek's thinking mode off (``thinking: {type: disabled}``):
    the replay requirement is documented for thinking mode only
    (https://api-docs.deepseek.com/guides/thinking_mode)."""
    if conversation is None:
        return False
    toggle = conversation.extra.get("thinking")
    return isinstance(toggle, dict) and toggle.get("type") == "disabled"


def _replay_missing_payload(payload: PayloadUnderTest) -> list[Finding] | None:
    conversation = payload.conversation
    if conversation is None or thinking_disabled(conversation):
        return None
    # A tool stretch is one whose assistant turns make a call: with no call
    # turn (the timeline is shared with the pairing rules) there is none.
    if not timeline_of(conversation).call_turns:
        return None
    if not any(v.tool_stretch for v in assistant_views(conversation)):
        return None
    return check_replay_missing(conversation)


def _position_payload(payload: PayloadUnderTest) -> list[Finding] | None:
    target = payload.conversation or payload.response
    if target is None or payload.dialect != ANTHROPIC_MESSAGES or not _has_thinking(target):
        return None
    return check_position(target)


def _has_thinking(payload: Conversation | Response) -> bool:
    turns = payload.turns if isinstance(payload, Conversation) else (payload.message,)
    return any(isinstance(b, ThinkingBlock) for turn in turns for b in turn.blocks)


Compare = Callable[[Conversation | Response, Conversation | Response], "list[Finding] | None"]


def _conversion(check: Compare, target: str | None = None) -> ConversionCheck:
    def run(conversion: ConversionUnderTest) -> list[Finding] | None:
        source = conversion.source.conversation or conversion.source.response
        output = conversion.output.conversation or conversion.output.response
        if source is None or output is None:
            return None
        if target is not None and conversion.output.dialect != target:
            return None
        return check(source, output)

    return run


def _response_aware(check: Callable[..., list[Finding] | None]) -> Compare:
    """``check`` leaving a response whose reasoning is gone to reasoning.dropped
    and reasoning.not_carried (one defect, one code)."""
    return lambda source, output: check(source, output, emptied_elsewhere=True)


def _roundtrip(check: Compare, via: str | None = None) -> RoundTripCheck:
    def run(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
        original = roundtrip.original.conversation or roundtrip.original.response
        returned = roundtrip.returned.conversation or roundtrip.returned.response
        if original is None or returned is None:
            return None
        # A round trip through a dialect that cannot carry signatures loses
        # them by a named normalisation (docs/conventions.md), not a failure.
        if via is not None and roundtrip.via != via:
            return None
        return check(original, returned)

    return run


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {
    **reasoning_items.PAYLOAD_CHECKS,
    "reasoning.replay_missing": _replay_missing_payload,
    "reasoning.replay_forbidden": _request_check(check_replay_forbidden),
    "reasoning.position": _position_payload,
}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.replay_missing": _conversion(check_replay_kept, DEEPSEEK_CHAT),
    "reasoning.altered": _conversion(_response_aware(check_altered)),
    "reasoning.signature_lost": _conversion(
        _response_aware(check_signature_lost), ANTHROPIC_MESSAGES
    ),
    **carried.CONVERSION_CHECKS,
    **signatures.CONVERSION_CHECKS,
    **reasoning_gemini.CONVERSION_CHECKS,
    **reasoning_items.CONVERSION_CHECKS,
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "reasoning.altered": _roundtrip(check_altered),
    "reasoning.signature_lost": _roundtrip(check_signature_lost, ANTHROPIC_MESSAGES),
    **signatures.ROUNDTRIP_CHECKS,
    **reasoning_gemini.ROUNDTRIP_CHECKS,
    **reasoning_items.ROUNDTRIP_CHECKS,
}
