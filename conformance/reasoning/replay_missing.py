"""reasoning.replay_missing: DeepSeek's ``reasoning_content`` sent back under thinking mode.

* DeepSeek thinking mode: every assistant message of a stretch with tool
  calls carries ``reasoning_content`` in later requests, ``""`` included
  (https://api-docs.deepseek.com/guides/thinking_mode; pydantic-ai's real
  DeepSeek recording sends ``reasoning_content: ""`` and is accepted).

MUST under ``deepseek-thinking``: a request that shows thinking mode
(``thinking: {"type": "enabled"}``, or a model DeepSeek documents as thinking
by default; ``conformance/profiles.py``). A request that does not show it is
judged under ``deepseek``, at SHOULD: the finding says what thinking mode
would do with it, and its fix does not press ``""`` on a history with no
reasoning, a value reports disagree on (docs/conventions.md).

Judged on a request on its own, and on a conversion whose output is a
deepseek-chat request (the source's reasoning of a tool-call stretch reaches
it). Apart from altered.py because it reads one provider's replay field, not
the reasoning text or signatures every dialect carries.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.profiles import UNSHOWN_THINKING_PROFILE
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.reasoning_views import assistant_views, thinking_pairs
from toolwire.conformance.readings.timeline import timeline_of
from toolwire.conformance.reasoning import pairwise
from toolwire.conformance.rule import documented, rejected, rule
from toolwire.conformance.sources import DEEPSEEK_THINKING
from toolwire.harness.model import DEEPSEEK_CHAT, Conversation, Response, ThinkingBlock, Turn

REPLAY_MISSING = rule(
    "reasoning.replay_missing",
    "MUST",
    "payload conversion",
    "Under DeepSeek thinking mode, every assistant message of a stretch with tool calls "
    "is sent back with its reasoning_content in later requests.",
    DEEPSEEK_THINKING,
    dialects=frozenset({"deepseek-chat"}),
    profile_levels={
        "deepseek-thinking": "MUST",
        "deepseek": "SHOULD",
        "deepseek-reasoner-legacy": None,
        "openai": None,
    },
    evidence=(
        documented(
            DEEPSEEK_THINKING,
            "in thinking mode with tool calls, reasoning_content is passed back in later requests",
        ),
        rejected(
            "https://github.com/anomalyco/opencode/issues/25356",
            'DeepSeek 400 "The reasoning_content in the thinking mode must be passed back to '
            'the API"',
        ),
    ),
    fix=(
        "Toward DeepSeek in thinking mode, send `reasoning_content` back on every assistant "
        "message of a stretch with tool calls: the thinking text of the source. Where the "
        'source had none, `""` is what accepted requests carry, though reports on DeepSeek '
        "V4 disagree about it (docs/conventions.md). A request that does not run thinking "
        "mode needs none of this."
    ),
)


REPLAY_FIELD = "reasoning_content"


def _has_replay_field(turn: Turn) -> bool:
    return any(
        isinstance(block, ThinkingBlock) and block.origin == REPLAY_FIELD and block.text is not None
        for block in turn.blocks
    )


def _not_shown(conversation: Conversation) -> str:
    """Why the request is not read as thinking mode, for a SHOULD message."""
    toggle = conversation.extra.get("thinking")
    model = f"model {conversation.model!r}" if conversation.model else "no model"
    setting = "thinking disabled" if toggle is not None else "no thinking setting"
    return f"{setting}, {model} not documented as thinking by default"


def check_replay_missing(conversation: Conversation, shown: bool = True) -> list[Finding]:
    """Every assistant message of a stretch with tool calls carries reasoning_content.
    ``shown``: the request runs thinking mode; otherwise the finding says what
    thinking mode would do."""
    found = []
    for view in assistant_views(conversation):
        if not view.tool_stretch:
            continue
        for index, turn in zip(view.indices, view.turns, strict=True):
            if _has_replay_field(turn):
                continue
            state = "is null" if turn.extra.get(REPLAY_FIELD, 0) is None else "is missing"
            message = (
                f"{turn_path(index)} is an assistant message of a stretch with tool calls, "
                f"but its reasoning_content {state} (send back the text the model returned, "
                '"" when it was empty)'
            )
            if not shown:
                message = (
                    f"{turn_path(index)} is an assistant message of a stretch with tool calls "
                    f"and its reasoning_content {state}: this request does not show DeepSeek's "
                    f"thinking mode ({_not_shown(conversation)}), but under thinking mode the "
                    "API answers 400 to such a history"
                )
            found.append(
                finding(
                    "reasoning.replay_missing",
                    message,
                    turn_path(index),
                    expected="reasoning_content",
                    actual=None,
                )
            )
    return found


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
    return check_replay_missing(conversation, payload.profile != UNSHOWN_THINKING_PROFILE)


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"reasoning.replay_missing": _replay_missing_payload}
CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.replay_missing": pairwise.conversion(check_replay_kept, DEEPSEEK_CHAT),
}
