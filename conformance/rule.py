"""What a rule is: its permanent code, level, scopes, statement, sources, the
evidence for a MUST, how to fix a failure, and the convention it accepts.

Every rule is defined once, beside its check, in ``conformance/<family>/``
(``ORPHAN_RESULT = rule("pairing.orphan_result", ...)``); the catalogue, the
level table and the rule pages are read from those definitions.

Codes are permanent: a retired rule keeps its code forever and a new rule
never reuses one. A rule's level may depend on the target profile (WIRE.md
section 2); ``level_for`` resolves it, and a verdict is never more severe than
the documentation of its profile supports.

Evidence kinds (docs/levels.md): ``requirement``, the provider's
documentation states the form as required; ``rejection``, a real API answered
400 to the payload, or, for what a server returns, the official SDK or the
clients on it failed on it; ``meaning``, both dialects document the field and
what it carries (only for rules judged on a conversion, a round trip or a
replay, never alone on one payload).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Level: TypeAlias = Literal["MUST", "SHOULD"]
# Where a rule looks: one payload on its own (a payload given to `toolwire
# lint`, or an adapter's output in a run), a conversion (the adapter's output
# compared with its source), a round trip A->B->A, or a multi-request
# conversation (what came back in request n+1).
Scope: TypeAlias = Literal["payload", "conversion", "roundtrip", "replay"]
EvidenceKind: TypeAlias = Literal["requirement", "rejection", "meaning"]


@dataclass(frozen=True)
class Evidence:
    kind: EvidenceKind
    url: str
    says: str  # what the document says or what the API answered, in a few words


def documented(url: str, says: str) -> Evidence:
    """The provider's documentation requires the form."""
    return Evidence("requirement", url, says)


def rejected(url: str, says: str) -> Evidence:
    """A real API (or the official SDK) refused the payload."""
    return Evidence("rejection", url, says)


def means(url: str, says: str) -> Evidence:
    """Both dialects document the field with the same meaning."""
    return Evidence("meaning", url, says)


@dataclass(frozen=True)
class Rule:
    code: str
    level: Level
    scopes: frozenset[Scope]
    statement: str
    docs: tuple[str, ...]
    # Dialects of the judged payload the rule applies to; empty means all.
    dialects: frozenset[str] = frozenset()
    # Per-profile levels; a profile mapped to None is out of the rule's scope.
    profile_levels: dict[str, Level | None] = field(default_factory=dict)
    # Why the rule may fail a run: needed wherever it can be MUST.
    evidence: tuple[Evidence, ...] = ()
    # How to fix a converter that breaks the rule, in a few sentences.
    fix: str = ""
    # The convention of docs/conventions.md the rule accepts: (section, why).
    convention: tuple[str, str] | None = None

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.code.split(".", 1)[1]

    @property
    def anchor(self) -> str:
        """The rule's anchor in docs/rules/<family>.md (GitHub heading style)."""
        return self.code.replace(".", "").lower()

    @property
    def docs_link(self) -> str:
        return f"docs/rules/{self.family}.md#{self.anchor}"

    @property
    def can_be_must(self) -> bool:
        """MUST at its base level or under any profile."""
        return self.level == "MUST" or "MUST" in self.profile_levels.values()

    @property
    def can_be_should(self) -> bool:
        """SHOULD at its base level or under any profile."""
        return self.level == "SHOULD" or "SHOULD" in self.profile_levels.values()

    def applies_to_dialect(self, dialect: str) -> bool:
        return not self.dialects or dialect in self.dialects

    def level_for(self, profile: str | None) -> Level | None:
        """The rule's level under ``profile``; None when the profile puts it out of scope."""
        if profile is not None and profile in self.profile_levels:
            return self.profile_levels[profile]
        return self.level


def rule(
    code: str,
    level: Level,
    scopes: str,
    statement: str,
    *docs: str,
    dialects: frozenset[str] = frozenset(),
    profile_levels: dict[str, Level | None] | None = None,
    evidence: tuple[Evidence, ...] = (),
    fix: str = "",
    convention: tuple[str, str] | None = None,
) -> Rule:
    """A rule definition; ``scopes`` is space-separated (``"payload conversion"``)."""
    return Rule(
        code=code,
        level=level,
        scopes=frozenset(scopes.split()),  # type: ignore[arg-type]
        statement=statement,
        docs=docs,
        dialects=dialects,
        profile_levels=profile_levels or {},
        evidence=evidence,
        fix=fix,
        convention=convention,
    )
