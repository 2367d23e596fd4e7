"""The corpus coverage report: what the cases exercise, by feature, dialect,
direction and provenance, and which rules have positive and negative cases.

Definitions (docs/corpus-format.md, "Coverage"):
- a case is **positive** for a rule when the rule was judged on it and held:
  on the case's own payloads, judged as `toolwire lint` judges them (payload
  rules on each payload, replay rules on a multi-request case, under the
  case's profile); or on the output of the reference adapter run over the
  case; or on a faithful pass-through (the same-dialect conversion a proxy
  performs, judged by every payload and conversion rule: it is how a rule
  such as ``reasoning.signature_lost`` is judged on Anthropic thinking that
  no cross-dialect conversion can keep). Only non-negative cases count, and a rule
  that did not apply to anything in the case (a stream rule on a JSON
  answer, a thinking rule without thinking) does not count: a check that
  returns "nothing to judge" gives no verdict.
- a case is **negative** for a rule when it is a negative case naming the
  rule in ``expect.violations`` (lint must find exactly those codes; the
  negative-case tests check that).
- a rule whose scopes hold neither ``payload`` nor ``replay`` (conversion and
  round-trip rules) cannot be broken by a lintable file: it compares an
  adapter's output with its source. Its negative side is the broken-adapter
  self-test (one adapter that breaks it), not a corpus case.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.catalogue import RULE_CODES, RULES
from toolwire.conformance.context import Exchange
from toolwire.conformance.registry import PAYLOAD_CHECKS, REPLAY_CHECKS
from toolwire.conformance.rule import Rule
from toolwire.harness.adapters.base import LoadedAdapter, check_adapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.corpus.vocabulary import FEATURES, PROVENANCE_KINDS
from toolwire.harness.engine.collect import VerdictCollector
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS
from toolwire.harness.payloads import case_payloads

# Where a rule's negative evidence must come from.
NEGATIVE_BY_CORPUS = "corpus"
NEGATIVE_BY_ADAPTER = "broken-adapter"
LINTABLE_SCOPES = frozenset({"payload", "replay"})


@dataclass(frozen=True)
class RuleCoverage:
    code: str
    level: str
    scopes: tuple[str, ...]
    negative_by: str
    positive: tuple[str, ...]
    negative: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "scopes": list(self.scopes),
            "positive": list(self.positive),
            "negative": list(self.negative),
            "negative_by": self.negative_by,
        }


@dataclass(frozen=True)
class CoverageReport:
    total: int
    features: Mapping[str, int]
    dialects: Mapping[str, int]
    directions: Mapping[str, int]
    provenance: Mapping[str, int]
    features_by_dialect: Mapping[str, Mapping[str, int]]
    rules: tuple[RuleCoverage, ...]
    judged_with: tuple[str, ...]
    # Cases that could not be judged, negative cases naming unknown codes...
    notes: tuple[str, ...] = ()

    @property
    def missing_positive(self) -> list[str]:
        return [rule.code for rule in self.rules if not rule.positive]

    @property
    def missing_negative(self) -> list[str]:
        """Rules that need a negative corpus case and have none."""
        return [
            rule.code
            for rule in self.rules
            if rule.negative_by == NEGATIVE_BY_CORPUS and not rule.negative
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "judged_with": list(self.judged_with),
            "features_by_dialect": {k: dict(v) for k, v in self.features_by_dialect.items()},
            "rules": {rule.code: rule.to_json() for rule in self.rules},
            "missing": {"positive": self.missing_positive, "negative": self.missing_negative},
            "notes": list(self.notes),
        }


class PassThrough:
    """A faithful proxy: every same-dialect direction, payload unchanged."""

    name = "pass-through"
    version = "1"
    directions = tuple((kind, dialect, dialect) for kind in PAYLOAD_KINDS for dialect in DIALECTS)

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return payload


def negative_by(rule: Rule) -> str:
    return NEGATIVE_BY_CORPUS if rule.scopes & LINTABLE_SCOPES else NEGATIVE_BY_ADAPTER


def corpus_coverage(
    corpus: Corpus, adapter: LoadedAdapter | None = None, pass_through: bool = True
) -> CoverageReport:
    """The coverage of ``corpus``; ``adapter`` (normally ``reference``) and the
    pass-through add the rules judged on their output to the lint judgements."""
    adapters = [adapter] if adapter is not None else []
    if pass_through:
        adapters.append(check_adapter(PassThrough(), PassThrough.name))
    cases = list(corpus)
    positive: dict[str, list[str]] = {rule.code: [] for rule in RULES}
    negative: dict[str, list[str]] = {rule.code: [] for rule in RULES}
    notes: list[str] = []
    for case in cases:
        if case.is_negative:
            for code in case.expect.violations:
                if code in negative:
                    negative[code].append(case.id)
                else:
                    notes.append(f"{case.id}: expects {code!r}, which no rule has")
            continue
        held, problem = held_rules(case, corpus, adapters)
        if problem:
            notes.append(f"{case.id}: {problem}")
        for code in held:
            positive[code].append(case.id)
    rules = tuple(
        RuleCoverage(
            code=rule.code,
            level=rule.level,
            scopes=tuple(sorted(rule.scopes)),
            negative_by=negative_by(rule),
            positive=tuple(positive[rule.code]),
            negative=tuple(negative[rule.code]),
        )
        for rule in RULES
    )
    return CoverageReport(
        total=len(cases),
        features=_ordered(Counter(f for case in cases for f in case.features), FEATURES),
        dialects=_ordered(Counter(case.dialect for case in cases), DIALECTS),
        directions=direction_counts(cases),
        provenance=provenance_counts(cases),
        features_by_dialect={
            feature: _ordered(
                Counter(case.dialect for case in cases if case.has_feature(feature)), DIALECTS
            )
            for feature in FEATURES
            if any(case.has_feature(feature) for case in cases)
        },
        rules=rules,
        judged_with=("lint", *(loaded.name for loaded in adapters)),
        notes=tuple(notes),
    )


def held_rules(
    case: Case, corpus: Corpus | None, adapters: Iterable[LoadedAdapter]
) -> tuple[set[str], str | None]:
    """Codes judged and held on ``case``, and why judging stopped, if it did."""
    held: set[str] = set()
    try:
        held |= _held_by_lint(case)
    except ToolwireError as error:
        return held, f"its payloads could not be judged ({error.message})"
    for adapter in adapters:
        verdicts = run_case(case, adapter, RunOptions(corpus=corpus))
        held |= {v.rule_code for v in verdicts if v.outcome == "pass" and v.rule_code in RULE_CODES}
    return held, None


def _held_by_lint(case: Case) -> set[str]:
    """Payload and replay rules judged on the case's own payloads, under its profile."""
    collector = VerdictCollector(case.id, "lint")
    by_interaction: dict[int, dict[str, Any]] = {}
    for kind in case.payload_kinds:
        for source in case_payloads(case, kind):
            collector.judge_payload(source.under_test, PAYLOAD_CHECKS, source.label)
            slot = "request" if kind == "request" else "response"
            by_interaction.setdefault(source.interaction, {})[slot] = source.under_test
    if len(case.interactions) > 1:
        exchanges = [
            Exchange(index, parts["request"], parts.get("response"))
            for index, parts in sorted(by_interaction.items())
            if "request" in parts
        ]
        collector.judge(REPLAY_CHECKS, exchanges, case.dialect, case.profile, "conversation")
    return {verdict.rule_code for verdict in collector.verdicts() if verdict.outcome == "pass"}


def direction_counts(cases: Iterable[Case]) -> dict[str, int]:
    """Cases by payload kind and dialect (``request openai-chat``), and by the
    conversions their twins describe (``request openai-chat->anthropic-messages``)."""
    counter: Counter[str] = Counter()
    for case in cases:
        for kind in case.payload_kinds:
            counter[f"{kind} {case.dialect}"] += 1
            for target in case.twins:
                counter[f"{kind} {case.dialect}->{target}"] += 1
    order = {key: (PAYLOAD_KINDS.index(key.split(" ", 1)[0]), "->" in key, key) for key in counter}
    return {key: counter[key] for key in sorted(counter, key=order.__getitem__)}


def provenance_counts(cases: Iterable[Case]) -> dict[str, int]:
    return _ordered(Counter(case.provenance.kind for case in cases), PROVENANCE_KINDS)


def _ordered(counter: Counter[str], order: Iterable[str]) -> dict[str, int]:
    return {name: counter[name] for name in order if counter[name]}
