"""fidelity.empty_content: no empty content is sent to anthropic-messages.

fidelity.empty_content judges what is sent to anthropic-messages: a text
block must be non-empty ("text content blocks must be non-empty"), and every
message but a final assistant one needs content (the API's 400 "all messages
must have non-empty content except for the optional final assistant
message", e.g. anthropics/claude-code#3196). Whitespace-only text is accepted
(a real accepted request replays ``" "``). Responses are not judged: an empty
text block an API returns is not a converter's doing, and it is judged when a
client sends it back. The openai family documents ``content`` as optional
beside ``tool_calls`` and real responses carry both ``null`` and ``""``
there, so no form of empty content is a finding in an openai-family payload.
"""

from __future__ import annotations

from toolwire.conformance.context import PayloadCheck, PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.paths import block_path, turn_path
from toolwire.conformance.readings.timeline import result_sites
from toolwire.conformance.rule import rejected, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, Conversation, TextBlock, ToolResult

EMPTY_CONTENT = rule(
    "fidelity.empty_content",
    "MUST",
    "payload",
    "No empty text blocks are sent to anthropic-messages, and null versus empty "
    "content is carried the way the target dialect expects.",
    ANTHROPIC_DOCS,
    OPENAI_DOCS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/59812",
            'Anthropic 400 "messages: text content blocks must be non-empty"',
        ),
        rejected(
            "https://github.com/anthropics/claude-code/issues/3196",
            'Anthropic 400 "all messages must have non-empty content except for the '
            'optional final assistant message"',
        ),
    ),
    fix=(
        "Leave out empty text blocks toward anthropic-messages (write no block, or only the "
        'tool_use blocks), and write `content: null` or `""` as the target dialect expects.'
    ),
    convention=(
        "Content forms",
        'openai-chat writes `content: null` on a turn with calls only, deepseek-chat `""`.',
    ),
)


def check_empty_content(payload: PayloadUnderTest) -> list[Finding] | None:
    conversation = payload.conversation
    if payload.dialect != ANTHROPIC_MESSAGES or conversation is None:
        return None
    found = [
        finding(
            "fidelity.empty_content",
            f"the text block at {path} is empty; anthropic-messages rejects empty text blocks",
            path,
            expected="non-empty text",
            actual="",
        )
        for path in _empty_text_blocks(conversation)
    ]
    found.extend(_empty_error_results(conversation))
    last = len(conversation.turns) - 1
    for index, turn in enumerate(conversation.turns):
        # A null or missing content is a schema violation (schema.request).
        if turn.content_form not in ("string", "blocks"):
            continue
        empty_string = turn.content_form == "string" and turn.text == ""
        if (turn.blocks and not empty_string) or (index == last and turn.role == "assistant"):
            continue
        found.append(
            finding(
                "fidelity.empty_content",
                f"{turn_path(index)} ({turn.role}) has empty content; every message but a "
                "final assistant message needs content",
                f"{turn_path(index)}.content",
                expected="at least one content block",
                actual="" if empty_string else [],
            )
        )
    return found


def _empty_error_results(conversation: Conversation) -> list[Finding]:
    """Anthropic answers 400 "content cannot be empty if `is_error` is true" to a
    failed tool_result with no content (reported:
    https://github.com/bytedance/trae-agent/issues/230,
    https://github.com/jlevy/markform/issues/153). An empty text block inside it
    is already an empty text block; this is the absent, "" or [] content."""
    found = []
    for site in result_sites(conversation):
        result = site.result
        if result.is_error is not True:
            continue
        if result.content_form == "string":
            empty = not result.content or not any(
                isinstance(b, TextBlock) and b.text for b in result.content
            )
        else:
            # Listed blocks: an empty text block among them is reported above.
            empty = not result.content
        if not empty:
            continue
        path = block_path(conversation, site.turn_index, site.block_index)
        found.append(
            finding(
                "fidelity.empty_content",
                f"the failed tool_result at {path} has no content; anthropic-messages rejects "
                "an is_error result without content (say what failed)",
                f"{path}.content",
                expected="a non-empty error message",
                actual=None if result.content_form == "absent" else "",
            )
        )
    return found


def _empty_text_blocks(conversation: Conversation) -> list[str]:
    paths = []
    if conversation.system_form == "blocks":
        paths += [
            f"system[{i}]"
            for i, block in enumerate(conversation.system)
            if isinstance(block, TextBlock) and block.text == ""
        ]
    for t, turn in enumerate(conversation.turns):
        if turn.content_form != "blocks":
            continue
        for b, block in enumerate(turn.blocks):
            if isinstance(block, TextBlock) and block.text == "":
                paths.append(block_path(conversation, t, b))
            elif isinstance(block, ToolResult) and block.content_form == "blocks":
                paths += [
                    f"{block_path(conversation, t, b)}.content[{k}]"
                    for k, inner in enumerate(block.content)
                    if isinstance(inner, TextBlock) and inner.text == ""
                ]
    return paths


PAYLOAD_CHECKS: dict[str, PayloadCheck] = {"fidelity.empty_content": check_empty_content}
