"""fidelity.roundtrip: A -> B -> A gives A again, up to the named normalisations.

The returned payload is compared with the original on the semantic view
(consecutive same-role messages merged, the error convention read, the
system prompt one leading item). Each difference that a more specific rule
judges in the round-trip scope is left to that rule, so that one defect gives
one code: text (``fidelity.text``), arguments and lost calls
(``fidelity.arguments``), tool names and definitions
(``fidelity.tool_definitions``), error flags (``fidelity.error_flag``),
tool choice, stop reason and usage, ids (``pairing.id_changed``), reasoning
(``reasoning.*``: through deepseek-chat a signature cannot survive, see
docs/conventions.md) and the order of text and calls
(``ordering.block_order``). What remains is judged here:

* the non-text content blocks (images, documents, server tool blocks) each
  role sent, by type and in order (a message lost with its text is
  fidelity.text's; one that held only such blocks is found here);
* the request parameters both dialects carry: ``temperature``, ``top_p``,
  the output token limit (anthropic ``max_tokens``; openai ``max_tokens`` or
  ``max_completion_tokens``), stop sequences (anthropic ``stop_sequences``;
  openai ``stop``, a string or a list; an empty list is no stop) and
  ``stream`` (not through gemini, whose URL says whether a call streams:
  ``:streamGenerateContent``). A parameter the
  original did not set may appear (anthropic-messages requires
  ``max_tokens``, so a converter must invent one).
"""

from __future__ import annotations

from typing import Any

from toolwire.conformance.context import PayloadUnderTest, RoundTripCheck, RoundTripUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.json_values import json_equal
from toolwire.conformance.readings.semantic import SemMessage, SemOpaque
from toolwire.conformance.readings.views import message_path, semantic_messages
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_DOCS, OPENAI_DOCS
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, Conversation

ROUNDTRIP = rule(
    "fidelity.roundtrip",
    "MUST",
    "roundtrip",
    "Converting A to B and back gives A again, up to the normalisations the rules name.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    evidence=(
        means(OPENAI_DOCS, "temperature, top_p, max tokens, stop and content parts"),
        means(ANTHROPIC_DOCS, "temperature, top_p, max_tokens, stop_sequences, content blocks"),
    ),
    fix=(
        "Carry every request parameter both dialects have (temperature, top_p, max tokens, "
        "stop sequences) and every content part, so that converting back gives the source."
    ),
)


_MAX_TOKENS = {ANTHROPIC_MESSAGES: ("max_tokens",)}
_OPENAI_MAX_TOKENS = ("max_completion_tokens", "max_tokens")


def check_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    original, returned = roundtrip.original, roundtrip.returned
    before, after = semantic_messages(original), semantic_messages(returned)
    if before is None or after is None:
        return None
    old_blocks, new_blocks = _opaque_by_role(before), _opaque_by_role(after)
    parameters = (
        _parameters(original.conversation, roundtrip.via)
        if original.conversation is not None
        else {}
    )
    if not (old_blocks or new_blocks or parameters):
        return None  # no block or parameter of the ones judged here: nothing to judge
    found = []
    for role in ("system", "user", "assistant"):
        old, new = old_blocks.get(role, []), new_blocks.get(role, [])
        found.extend(_compare_opaque(role, old, new, returned, roundtrip.via))
    if original.conversation is not None and returned.conversation is not None:
        found.extend(
            _compare_parameters(original.conversation, returned.conversation, roundtrip.via)
        )
    return found


def _opaque_by_role(
    messages: tuple[SemMessage, ...],
) -> dict[str, list[tuple[str, SemMessage]]]:
    """Role -> (type, message) of each opaque block its messages hold, in order."""
    by_role: dict[str, list[tuple[str, SemMessage]]] = {}
    for message in messages:
        for item in message.items:
            if isinstance(item, SemOpaque):
                by_role.setdefault(message.role, []).append((item.type, message))
    return by_role


def _compare_opaque(
    role: str,
    old: list[tuple[str, SemMessage]],
    new: list[tuple[str, SemMessage]],
    returned: PayloadUnderTest,
    via: str,
) -> list[Finding]:
    # Compared per role over the whole conversation, so that a lost or merged
    # message (fidelity.text's) does not shift the comparison.
    old_types, new_types = [t for t, _ in old], [t for t, _ in new]
    if old_types == new_types:
        return []
    index = next(
        (i for i, (a, b) in enumerate(zip(old_types, new_types, strict=False)) if a != b),
        min(len(old_types), len(new_types)),
    )
    path = message_path(returned, new[index][1]) if index < len(new) else "messages"
    return [
        finding(
            "fidelity.roundtrip",
            f"after the trip through {via}, the {role} messages hold the blocks "
            f"{new_types or 'none'} instead of {old_types}; they first differ at block "
            f"{index + 1} ({path})",
            path,
            expected=old_types,
            actual=new_types,
        )
    ]


def _parameters(conversation: Conversation, via: str = "") -> dict[str, Any]:
    extra = conversation.extra
    values: dict[str, Any] = {}
    for key in ("temperature", "top_p"):
        if key in extra:
            values[key] = extra[key]
    limits = _MAX_TOKENS.get(conversation.dialect, _OPENAI_MAX_TOKENS)
    limit = next((extra[key] for key in limits if key in extra), None)
    if limit is not None:
        values["max_tokens"] = limit
    stop_key = "stop_sequences" if conversation.dialect == ANTHROPIC_MESSAGES else "stop"
    stop = extra.get(stop_key)
    # An empty list names no stop sequence: it stops on nothing, as no stop does
    # (https://platform.openai.com/docs/api-reference/chat/create, ``stop``).
    if stop is not None and stop != []:
        values["stop"] = [stop] if isinstance(stop, str) else stop
    if conversation.stream and via != GEMINI:  # false and absent say the same
        values["stream"] = True
    return values


def _compare_parameters(
    original: Conversation, returned: Conversation, via: str = ""
) -> list[Finding]:
    before, after = _parameters(original, via), _parameters(returned, via)
    return [
        finding(
            "fidelity.roundtrip",
            f"the request parameter {_wire_key(original, name)} was {value!r} and came back "
            + (f"as {after[name]!r}" if name in after else "missing"),
            _wire_key(returned, name),
            expected=value,
            actual=after.get(name),
        )
        for name, value in before.items()
        if name not in after or not json_equal(value, after[name])
    ]


def _wire_key(conversation: Conversation, name: str) -> str:
    """The field that carries the neutral parameter ``name`` in this payload."""
    if name == "stop":
        return "stop_sequences" if conversation.dialect == ANTHROPIC_MESSAGES else "stop"
    if name == "max_tokens" and conversation.dialect != ANTHROPIC_MESSAGES:
        return next((k for k in _OPENAI_MAX_TOKENS if k in conversation.extra), "max_tokens")
    return name


ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"fidelity.roundtrip": check_roundtrip}
