"""fidelity.empty_text_added: a conversion to anthropic-messages adds no empty text block.

fidelity.empty_text_added (SHOULD) judges a conversion whose output is an
anthropic-messages response or stream: it holds no more empty text blocks
than the source carried (an openai-family source carries none: its ``""``
or ``null`` content means "no text"). The API itself returns empty text
blocks (anthropics/anthropic-sdk-python#461; the SDK's refusal_response
stream fixture), so one in a response is no violation; but a converter that
turns ``content: ""`` into ``{"type": "text", "text": ""}`` hands clients a
block that Anthropic refuses when they send it back ("text content blocks
must be non-empty": anthropics/claude-code#88536 through a LiteLLM proxy,
NousResearch/hermes-agent#11906 through claude-code-router). SHOULD: the
harm comes on replay, where fidelity.empty_content judges the request.
"""

from __future__ import annotations

from toolwire.conformance.context import ConversionCheck, PayloadUnderTest
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, Response, TextBlock

EMPTY_TEXT_ADDED = rule(
    "fidelity.empty_text_added",
    "SHOULD",
    "conversion",
    "A response converted to anthropic-messages holds no empty text block the source "
    "did not carry (Anthropic refuses one when the turn is sent back).",
    ANTHROPIC_DOCS,
    "https://github.com/anthropics/claude-code/issues/88536",
    dialects=frozenset({ANTHROPIC}),
    fix=(
        "When the source's content is empty or null, write no text block at all instead of "
        "an empty one."
    ),
)


def _empty_texts(response: Response) -> int:
    return sum(isinstance(b, TextBlock) and b.text == "" for b in response.message.blocks)


def check_empty_text_added(
    source: PayloadUnderTest, output: PayloadUnderTest
) -> list[Finding] | None:
    before, after = source.response, output.response
    if output.dialect != ANTHROPIC_MESSAGES or before is None or after is None:
        return None
    if not before.choices or not after.choices:
        return None
    carried = _empty_texts(before) if source.dialect == ANTHROPIC_MESSAGES else 0
    added = _empty_texts(after) - carried
    if added <= 0:
        return []
    where = "the streamed message" if output.stream is not None else "content"
    return [
        finding(
            "fidelity.empty_text_added",
            f"{where} holds {added} empty text block(s) the source did not carry; Anthropic "
            "refuses an empty text block when a client sends this turn back",
            "content",
            expected="no empty text block",
            actual={"type": "text", "text": ""},
        )
    ]


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.empty_text_added": pairwise.conversion(check_empty_text_added),
}
