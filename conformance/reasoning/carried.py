"""reasoning.dropped, reasoning.not_carried: a response's reasoning is not lost; and
the reading of carried reasoning the other reasoning rules share.

* A response (or the message a stream reassembles to) that carries reasoning
  hands it on. Where the client has to send it back, losing it breaks the
  loop, a MUST (``reasoning.dropped``): DeepSeek thinking mode requires the
  ``reasoning_content`` of tool-call turns in later requests
  (https://api-docs.deepseek.com/guides/thinking_mode), and Anthropic requires
  the thinking blocks of the turn with tool use back unmodified
  (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
  Elsewhere (a final answer, an openai-chat target, which documents no
  reasoning field: docs/conventions.md, "Reasoning in openai-chat") it is a
  SHOULD (``reasoning.not_carried``).

Both rules read one loss (``_lost_reasoning``): whether the client has to
send the reasoning back decides which of the two judges it. Shared with the
other reasoning rules: whether a view carries reasoning (``carries_reasoning``,
``extra_reasoning``, ``emptied``) and the assistant views of two payloads side
by side (``aligned_views``); reasoning.invented is invented.py.

Requests that lose reasoning are judged by ``reasoning.replay_missing`` and
``reasoning.signature_lost``; text that changes by ``reasoning.altered``.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolwire.conformance.context import ConversionCheck, ConversionUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.reasoning_views import AssistantView, assistant_views
from toolwire.conformance.rule import documented, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING, DEEPSEEK_THINKING
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, Conversation, Response

DROPPED = rule(
    "reasoning.dropped",
    "MUST",
    "conversion",
    "The reasoning of a response that makes tool calls reaches the converted response or "
    "stream, so that the client can send it back as DeepSeek thinking mode and Anthropic "
    "extended thinking require.",
    DEEPSEEK_THINKING,
    ANTHROPIC_THINKING,
    dialects=frozenset({ANTHROPIC, "deepseek-chat"}),
    profile_levels={"deepseek-reasoner-legacy": None},
    evidence=(
        documented(
            DEEPSEEK_THINKING, "reasoning_content of a tool-call turn is sent back, else 400"
        ),
        documented(
            ANTHROPIC_THINKING, "thinking blocks of a tool-use turn are passed back unmodified"
        ),
    ),
    fix=(
        "Carry the reasoning of a tool-call response into the converted response or stream "
        "(`reasoning_content` toward DeepSeek, thinking blocks toward anthropic-messages)."
    ),
    convention=(
        "Reasoning in openai-chat",
        "where the target requires the reasoning of a tool-call turn back, losing it breaks "
        "the next request.",
    ),
)


NOT_CARRIED = rule(
    "reasoning.not_carried",
    "SHOULD",
    "conversion",
    "Reasoning a response carries reaches the converted response or stream where nothing "
    "requires it back (a final answer, a target without a documented reasoning field): "
    "losing it hides what the model returned.",
    DEEPSEEK_THINKING,
    ANTHROPIC_THINKING,
    fix=(
        "Carry the reasoning a response has into the converted response or stream, as "
        "`reasoning_content` toward openai-chat (the convention below)."
    ),
    convention=(
        "Reasoning in openai-chat",
        "OpenAI-compatible servers return reasoning as `reasoning_content` (or `reasoning`); "
        "it is their convention, not OpenAI's, hence a SHOULD.",
    ),
)


REPLAY_PROFILES = frozenset(
    {"anthropic", "anthropic-merging", "anthropic-strict", "deepseek-thinking"}
)
REPLAY_DIALECTS = frozenset({ANTHROPIC_MESSAGES, DEEPSEEK_CHAT})


def carries_reasoning(view: AssistantView, opaque_counts: bool = True) -> bool:
    """The view holds reasoning: text that is not blank, or (when
    ``opaque_counts``) a signature or redacted data, which only
    anthropic-messages can carry."""
    for placed in view.thinking:
        block = placed.block
        if block.text is not None and block.text.strip():
            return True
        if opaque_counts and (block.redacted_data or block.signature):
            return True
    return False


def extra_reasoning(view: AssistantView) -> list[object]:
    """Reasoning the codec does not read but the source message carries in a
    field of its own: OpenRouter's ``reasoning_details`` (text, encrypted data,
    Anthropic signatures), LiteLLM's ``thinking_blocks``. Non-empty values of
    message fields named for reasoning or thinking."""
    return [
        value
        for turn in view.turns
        for key, value in turn.extra.items()
        if ("reasoning" in key or "thinking" in key) and value not in (None, "", [], {})
    ]


def emptied(output: Conversation | Response, view: AssistantView) -> bool:
    """A response that lost all its reasoning (dropped and not_carried judge it)."""
    return isinstance(output, Response) and not carries_reasoning(view)


def _reasoning_size(view: AssistantView) -> str:
    text = view.thinking_text()
    if text and text.strip():
        return f"{len(text)} characters of reasoning"
    return "redacted or signed thinking"


@dataclass(frozen=True)
class _Loss:
    source: AssistantView
    output: AssistantView
    replayed: bool  # the client has to send this reasoning back


def _lost_reasoning(conversion: ConversionUnderTest) -> _Loss | None:
    """The source response's view and the output's, when the source carries
    reasoning the target can hold; None when there is nothing to judge."""
    if conversion.source.conversation is not None or conversion.output.conversation is not None:
        return None
    source, output = conversion.source.response, conversion.output.response
    if source is None or output is None or not source.choices or not output.choices:
        return None
    target = conversion.output.dialect
    source_view = assistant_views(source)[0]
    # Signatures and redacted data count only where the target can carry them.
    if not carries_reasoning(source_view, opaque_counts=target == ANTHROPIC_MESSAGES):
        return None
    # The reasoning comes back through the converter to the model that wrote it:
    # it must be kept where that model's API requires it again (Anthropic
    # thinking, DeepSeek thinking mode) and the target can hold it. Reasoning an
    # OpenAI-compatible server returned is not sent back (docs/conventions.md).
    replayed = (
        source_view.has_calls
        and conversion.source.dialect in REPLAY_DIALECTS
        and conversion.source.profile in REPLAY_PROFILES
        and target in REPLAY_DIALECTS
        and conversion.output.profile in REPLAY_PROFILES
    )
    return _Loss(source_view, assistant_views(output)[0], replayed)


def _loss_message(loss: _Loss) -> str | None:
    """What was lost, in one sentence; None when the output carries reasoning."""
    if carries_reasoning(loss.output):
        return None
    what = _reasoning_size(loss.source)
    if loss.replayed:
        why = (
            "the client cannot send it back with the tool results, as the target's thinking "
            "mode requires"
        )
    else:
        why = "the reasoning the model returned is lost to the client"
    return (
        f"{loss.source.describe()} carries {what}, but the converted response at "
        f"{loss.output.path} carries none: {why}"
    )


def check_dropped(conversion: ConversionUnderTest) -> list[Finding] | None:
    loss = _lost_reasoning(conversion)
    if loss is None or not loss.replayed:
        return None
    message = _loss_message(loss)
    if message is None:
        return []
    expected = loss.source.thinking_text()
    return [finding("reasoning.dropped", message, loss.output.path, expected, actual=None)]


def check_not_carried(conversion: ConversionUnderTest) -> list[Finding] | None:
    loss = _lost_reasoning(conversion)
    if loss is None or loss.replayed:
        return None
    message = _loss_message(loss)
    if message is None:
        return []
    expected = loss.source.thinking_text()
    return [finding("reasoning.not_carried", message, loss.output.path, expected, actual=None)]


def aligned_views(
    source: Conversation | Response, output: Conversation | Response
) -> list[tuple[AssistantView, AssistantView]] | None:
    """Source and output assistant views side by side, or None when they cannot
    be paired safely (a response without choices, or conversations whose
    numbers of assistant turns differ: other rules report the lost or split
    turns, and pairing by position would compare unrelated turns)."""
    for payload in (source, output):
        if isinstance(payload, Response) and not payload.choices:
            return None
    source_views, output_views = assistant_views(source), assistant_views(output)
    if len(source_views) != len(output_views):
        return None
    return list(zip(source_views, output_views, strict=True))


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.dropped": check_dropped,
    "reasoning.not_carried": check_not_carried,
}
