"""reasoning.*: model reasoning goes back to the provider the way it demands.

* DeepSeek's ``reasoning_content`` in later requests: replay.py
  (its conversion check is wired here).
* Replayed reasoning is the text returned, and Anthropic thinking keeps its
  signature and redacted data
  (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
  A deepseek-chat target cannot carry signatures (docs/conventions.md).
* Anthropic thinking blocks open the assistant content: position.py.
* Reasoning carried across dialects, signatures, Gemini's and the Responses
  API's reasoning: carried.py, signature_invented.py,
  call_signature_lost.py, items.py.

Each ``check_<property>`` is pure; the wiring dicts at the end say what the
engine calls for each scope.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.reasoning_views import AssistantView, thinking_pairs
from toolwire.conformance.readings.text import same_text
from toolwire.conformance.reasoning import replay_missing
from toolwire.conformance.reasoning.carried import carries_reasoning, extra_reasoning
from toolwire.conformance.rule import documented, means, rejected, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING, DEEPSEEK_THINKING
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, Conversation, Response

ALTERED = rule(
    "reasoning.altered",
    "MUST",
    "conversion roundtrip",
    "Replayed reasoning is the real text returned: not summarised, regenerated or "
    "replaced by a placeholder.",
    DEEPSEEK_THINKING,
    ANTHROPIC_THINKING,
    evidence=(
        documented(ANTHROPIC_THINKING, "thinking blocks are passed back unmodified"),
        means(DEEPSEEK_THINKING, "reasoning_content is the model's own reasoning, passed back"),
    ),
    fix=(
        "Send back the reasoning text exactly as it was returned: do not summarise, shorten, "
        "regenerate or replace it with a placeholder."
    ),
    convention=(
        "Thinking in deepseek-chat",
        "DeepSeek carries reasoning as plain `reasoning_content` text; several thinking "
        "blocks are joined with no separator, and that is not an alteration.",
    ),
)


SIGNATURE_LOST = rule(
    "reasoning.signature_lost",
    "MUST",
    "conversion roundtrip",
    "Thinking signatures and redacted_thinking data come back unchanged.",
    ANTHROPIC_THINKING,
    evidence=(
        documented(
            ANTHROPIC_THINKING, "the signature of a thinking block is verified when sent back"
        ),
        rejected(
            "https://github.com/kaitranntt/ccs/issues/415",
            'Anthropic 400 "Invalid `signature` in `thinking` block" for an emptied signature',
        ),
    ),
    fix=(
        "Keep each thinking block's `signature` and each redacted_thinking block's `data` "
        "byte for byte when the target is anthropic-messages."
    ),
    convention=(
        "Thinking in deepseek-chat",
        "DeepSeek has no field for a signature: it is judged only where the target can carry "
        "one (anthropic-messages).",
    ),
)


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


# --- wiring: what the engine calls -------------------------------------------


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


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "reasoning.replay_missing": _conversion(replay_missing.check_replay_kept, DEEPSEEK_CHAT),
    "reasoning.altered": _conversion(_response_aware(check_altered)),
    "reasoning.signature_lost": _conversion(
        _response_aware(check_signature_lost), ANTHROPIC_MESSAGES
    ),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "reasoning.altered": _roundtrip(check_altered),
    "reasoning.signature_lost": _roundtrip(check_signature_lost, ANTHROPIC_MESSAGES),
}
