"""Gathering findings into verdicts: one per rule for a case.

A rule judged several times in a case (several interactions, directions,
a round trip) gives one verdict: ``fail`` (MUST) or ``warn`` (SHOULD) when
any judgement found something, ``pass`` when it was judged and held. A rule
that never applied gives no verdict, so a pass always means the case really
exercised the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from toolwire.conformance.catalogue import RULES_BY_CODE
from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.rule import Level
from toolwire.harness.adapters.base import Direction
from toolwire.harness.engine.explain import finding_diff
from toolwire.harness.engine.verdicts import CONVERT, UNSUPPORTED, Located, Outcome, Verdict
from toolwire.harness.errors import WireFormatError
from toolwire.harness.redaction import redact
from toolwire.harness.schemas import validate_payload

# Messages quote code we do not control (exceptions, codec errors on huge
# values): a report stays readable and bounded whatever the adapter did.
MAX_MESSAGE_CHARS = 1000
# Findings kept per rule and case; the rest are counted in one last finding.
MAX_FINDINGS_KEPT = 100


def shorten_message(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Redacted (what an adapter says or a payload holds may carry a key),
    then cut to ``limit``: every message of a verdict goes through here."""
    text = redact(text)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}… ({len(text) - limit + 40:,} more characters)"


def describe_error(error: BaseException, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``Type: message`` of an exception from adapter code, even one that cannot print."""
    try:
        text = str(error)
    except Exception:
        text = "(its message could not be printed)"
    return shorten_message(f"{type(error).__name__}: {text}", limit)


# The checks of a scope that apply to a dialect under a profile, with the
# level each is judged at: the same few dozen combinations all run long, so
# each is worked out once. Keyed by the mapping's identity; the entry holds
# the mapping, so its id() cannot be reused while it is remembered.
_Plan = tuple[tuple[str, Callable[[Any], list[Finding] | None], Level], ...]
MAX_PLANS = 256
_plans: dict[tuple[int, str, str], tuple[Mapping[str, Any], _Plan]] = {}


def _applicable(
    checks: Mapping[str, Callable[[Any], list[Finding] | None]], dialect: str, profile: str
) -> _Plan:
    key = (id(checks), dialect, profile)
    entry = _plans.get(key)
    if entry is not None and entry[0] is checks:
        return entry[1]
    plan = []
    for code, check in checks.items():
        rule = RULES_BY_CODE[code]
        level = rule.level_for(profile)
        if level is not None and rule.applies_to_dialect(dialect):
            plan.append((code, check, level))
    if len(_plans) >= MAX_PLANS:  # only ever a mapping built per call would get here
        _plans.clear()
    _plans[key] = (checks, tuple(plan))
    return tuple(plan)


def _beyond_source(
    check: Callable[[Any], list[Finding] | None], source: PayloadUnderTest, subject: Any
) -> list[Finding] | None:
    """``check`` on ``subject``, without the findings it also gives on ``source``."""
    found = check(subject)
    if not found:
        return found
    already = {(f.message, f.path) for f in check(source) or ()}
    return [f for f in found if (f.message, f.path) not in already]


@dataclass
class _RuleRecord:
    level: Level
    profile: str
    judged: int = 0
    findings: list[Located] = field(default_factory=list)
    failing_level: Level | None = None
    directions: list[str] = field(default_factory=list)
    omitted: int = 0  # findings beyond MAX_FINDINGS_KEPT


class VerdictCollector:
    def __init__(self, case_id: str, adapter: str) -> None:
        self.case_id = case_id
        self.adapter = adapter
        self._rules: dict[str, _RuleRecord] = {}
        self._errors: list[Located] = []
        self._unsupported: list[str] = []

    # --- judging --------------------------------------------------------------

    def judge_payload(
        self,
        payload: PayloadUnderTest,
        checks: Mapping[str, Callable[[PayloadUnderTest], list[Finding] | None]],
        where: str,
    ) -> None:
        self.judge(checks, payload, payload.dialect, payload.profile, where)

    def judge_returned_payload(
        self,
        returned: PayloadUnderTest,
        source: PayloadUnderTest,
        checks: Mapping[str, Callable[[PayloadUnderTest], list[Finding] | None]],
        where: str,
    ) -> None:
        """The payload rules on what came back from a round trip, less the
        findings the source itself gives: what the client sent is the
        client's, and only what the converter added is the converter's."""
        for code, check, level in _applicable(checks, returned.dialect, returned.profile):
            beyond = partial(_beyond_source, check, source)
            self._judge_one(code, beyond, level, returned, returned.profile, where)

    def judge(
        self,
        checks: Mapping[str, Callable[[Any], list[Finding] | None]],
        subject: Any,
        dialect: str,
        profile: str,
        where: str,
    ) -> None:
        for code, check, level in _applicable(checks, dialect, profile):
            self._judge_one(code, check, level, subject, profile, where)

    def _judge_one(
        self,
        code: str,
        check: Callable[[Any], list[Finding] | None],
        level: Level,
        subject: Any,
        profile: str,
        where: str,
    ) -> None:
        try:
            found = check(subject)
        except Exception as error:  # a crashing check is a harness bug: say so, go on
            self._errors.append(
                Located(where, f"check {code} crashed: {describe_error(error)}", "")
            )
            return
        if found is not None:
            self._record(code, level, profile, where, found)

    def _record(
        self, code: str, level: Level, profile: str, where: str, found: list[Finding]
    ) -> None:
        record = self._rules.get(code)
        if record is None:
            record = self._rules[code] = _RuleRecord(level, profile)
        record.judged += 1
        if where not in record.directions:
            record.directions.append(where)
        if not found:
            return
        if record.failing_level != "MUST":
            record.failing_level = level
            record.level, record.profile = level, profile
        for item in found:
            if len(record.findings) >= MAX_FINDINGS_KEPT:
                record.omitted += 1
                continue
            diff = redact(finding_diff(item))
            record.findings.append(Located(where, shorten_message(item.message), item.path, diff))

    def unreadable_output(
        self, direction: Direction, raw: Any, profile: str, where: str, error: WireFormatError
    ) -> None:
        """Output the target's codec cannot read: a schema failure, nothing else judged."""
        code = "schema.request" if direction.kind == "request" else "schema.response"
        findings = [Finding(code, f"the output does not parse as {direction.target}: {error}", "")]
        kind = "stream" if direction.kind == "stream" else direction.kind
        if kind != "stream":
            try:
                violations = validate_payload(direction.target, kind, raw)
            except Exception:  # the output may not even be JSON-like
                violations = []
            findings.extend(Finding(code, v.message, v.path) for v in violations[:10])
        self._record(code, "MUST", profile, where, findings)

    def error(self, where: str, message: str) -> None:
        self._errors.append(Located(where, shorten_message(message), ""))

    def unsupported(self, message: str) -> None:
        self._unsupported.append(shorten_message(message))

    # --- results --------------------------------------------------------------

    def verdicts(self) -> list[Verdict]:
        verdicts = []
        if self._errors:
            verdicts.append(
                Verdict(
                    self.case_id,
                    CONVERT,
                    self.adapter,
                    "error",
                    message=self._errors[0].message,
                    findings=tuple(self._errors),
                    directions=tuple(dict.fromkeys(e.where for e in self._errors)),
                )
            )
        if self._unsupported:
            verdicts.append(
                Verdict(
                    self.case_id,
                    UNSUPPORTED,
                    self.adapter,
                    "unsupported",
                    message="; ".join(self._unsupported),
                )
            )
        for code in sorted(self._rules):
            record = self._rules[code]
            outcome: Outcome
            findings = record.findings
            if record.omitted:
                more = f"... and {record.omitted} more findings of this rule, not kept"
                findings = [*findings, Located(findings[-1].where, more, "")]
            if record.findings:
                outcome = "fail" if record.level == "MUST" else "warn"
                message = record.findings[0].message
            else:
                outcome, message = "pass", ""
            verdicts.append(
                Verdict(
                    self.case_id,
                    code,
                    self.adapter,
                    outcome,
                    level=record.level,
                    profile=record.profile,
                    message=message,
                    findings=tuple(findings),
                    directions=tuple(record.directions),
                )
            )
        return verdicts
