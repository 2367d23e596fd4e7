"""What ``toolwire lint`` gives back, and the payload and xml rules applied to
one payload read in its dialect (shared by files and cassettes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.registry import PAYLOAD_CHECKS
from toolwire.harness.errors import ToolwireError
from toolwire.harness.lint import xml_rules
from toolwire.harness.lint.dialect_choice import DialectChoice
from toolwire.harness.model import PayloadKind
from toolwire.harness.payloads import parse_payload
from toolwire.harness.redaction import redact


class LintInputError(ToolwireError):
    exit_code = 2


@dataclass(frozen=True)
class LintViolation:
    source: str  # "file.json" or "cassette.yaml, interaction 2 request"
    code: str
    level: str
    message: str
    path: str

    def line(self) -> str:
        where = f"{self.source} at {self.path}" if self.path else self.source
        return f"{where}: {self.level} {self.code}: {self.message}"


@dataclass(frozen=True)
class LintReport:
    """What one file gave: its violations, and the dialect each part was read in."""

    violations: list[LintViolation]
    dialects: list[tuple[str, DialectChoice]]  # (source, choice), in reading order
    # What was read but not judged, and why (an interaction on another endpoint).
    notes: list[str] = field(default_factory=list)


def parse_under_test(
    dialect: str, kind: PayloadKind, value: Any, profile: str | None, source: str, tools: Any = None
) -> PayloadUnderTest:
    try:
        return parse_payload(
            dialect, kind, value, profile or DEFAULT_PROFILE[dialect], tools, source
        )
    except ToolwireError as error:
        raise LintInputError(f"{source}: not a valid {dialect} {kind}: {error}") from error
    except RecursionError:
        raise LintInputError(f"{source}: nested deeper than toolwire can read") from None


def judge(payload: PayloadUnderTest, source: str) -> list[LintViolation]:
    violations = []
    for code, check in PAYLOAD_CHECKS.items():
        rule = RULES_BY_CODE[code]
        level = rule.level_for(payload.profile)
        if level is None or not rule.applies_to_dialect(payload.dialect):
            continue
        violations.extend(violations_of(check(payload), source, level))
    return violations


def judge_xml(payload: PayloadUnderTest, source: str, parser_output: bool) -> list[LintViolation]:
    """The xml rules on a Qwen tool parser's served output (``xml_rules``)."""
    try:
        found = xml_rules.parser_output_checks(payload, parser_output)
    except ToolwireError as error:
        raise LintInputError(f"{source}: cannot rebuild the model text: {error}") from error
    return [LintViolation(source, f.code, level, f.message, f.path) for level, f in found or ()]


def violations_of(found: Sequence[Finding] | None, source: str, level: str) -> list[LintViolation]:
    # Redacted: a message may quote the payload, and a cassette may hold a key.
    return [LintViolation(source, f.code, level, redact(f.message), f.path) for f in found or ()]
