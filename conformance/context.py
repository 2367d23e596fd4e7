"""What a check is given: the payloads under judgement, parsed and raw.

Checks are pure functions of these objects. ``None`` from a check means the
rule does not apply to what it was given (nothing to judge: no tool results,
no thinking, not a stream...); an empty list means it applies and holds.
That distinction lets a report show which cases really exercised a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeAlias

from toolwire.conformance.findings import Finding
from toolwire.conformance.rule import Rule
from toolwire.harness.model import Conversation, PayloadKind, Response, StreamTranscript, ToolDef

Parsed: TypeAlias = Conversation | Response | StreamTranscript


@dataclass(frozen=True)
class PayloadUnderTest:
    """One payload in one dialect, as sent (``raw``) and as the oracle reads it."""

    dialect: str
    kind: PayloadKind
    profile: str
    raw: Any
    parsed: Parsed
    # Tool definitions in force (from the request), for typing Qwen XML values.
    tools: tuple[ToolDef, ...] | None = None
    # Where it came from, for explanations: "interaction 2 request", ...
    label: str = ""

    @property
    def conversation(self) -> Conversation | None:
        return self.parsed if isinstance(self.parsed, Conversation) else None

    @property
    def response(self) -> Response | None:
        if isinstance(self.parsed, Response):
            return self.parsed
        if isinstance(self.parsed, StreamTranscript):
            return self.parsed.response
        return None

    @property
    def stream(self) -> StreamTranscript | None:
        return self.parsed if isinstance(self.parsed, StreamTranscript) else None


@dataclass(frozen=True)
class ConversionUnderTest:
    """A source payload, what the adapter made of it, and the case's expectations."""

    source: PayloadUnderTest
    output: PayloadUnderTest
    # The same conversation in the target dialect, when the case has a twin there.
    expected: PayloadUnderTest | None = None
    # The case's `expect` block (tool_calls, text, xml_issues for qwen-xml cases).
    expect: Mapping[str, Any] = field(default_factory=dict)
    # An id mapping the adapter declares (source id -> target id), if any.
    id_mapping: Mapping[str, str] | None = None


@dataclass(frozen=True)
class RoundTripUnderTest:
    """A payload converted to another dialect and back."""

    original: PayloadUnderTest
    returned: PayloadUnderTest
    via: str


@dataclass(frozen=True)
class Exchange:
    """One request and the response it got, in a multi-request conversation."""

    index: int
    request: PayloadUnderTest
    response: PayloadUnderTest | None


PayloadCheck: TypeAlias = Callable[[PayloadUnderTest], "list[Finding] | None"]
ConversionCheck: TypeAlias = Callable[[ConversionUnderTest], "list[Finding] | None"]
RoundTripCheck: TypeAlias = Callable[[RoundTripUnderTest], "list[Finding] | None"]
ReplayCheck: TypeAlias = Callable[[Sequence[Exchange]], "list[Finding] | None"]

# A family's checks by scope: code -> check, in the order of the family's rules.
Checks: TypeAlias = tuple[
    dict[str, PayloadCheck],
    dict[str, ConversionCheck],
    dict[str, RoundTripCheck],
    dict[str, ReplayCheck],
]
SCOPE_TABLES = ("PAYLOAD_CHECKS", "CONVERSION_CHECKS", "ROUNDTRIP_CHECKS", "REPLAY_CHECKS")


def checks_of(rules: Sequence[Rule], modules: Sequence[ModuleType]) -> Checks:
    """The check tables of ``modules`` merged, ordered as ``rules``.

    Each module may export any of ``SCOPE_TABLES``; a code checked twice in
    one scope, or a check for a code not among ``rules``, is a mistake in the
    family's listing and fails at import.
    """
    order = {rule.code: index for index, rule in enumerate(rules)}
    tables: list[dict[str, Any]] = []
    for name in SCOPE_TABLES:
        merged: dict[str, Any] = {}
        for module in modules:
            for code, check in getattr(module, name, {}).items():
                if code in merged or code not in order:
                    raise ValueError(
                        f"{module.__name__}.{name}: {code} is checked twice or unlisted"
                    )
                merged[code] = check
        tables.append(dict(sorted(merged.items(), key=lambda item: order[item[0]])))
    return tables[0], tables[1], tables[2], tables[3]
