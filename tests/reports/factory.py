"""Synthetic results documents, shaped like `toolwire run` writes them (schema-valid)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

OUTCOMES = ("pass", "fail", "warn", "error", "unsupported", "xfail", "stale")


def verdict(
    case: str,
    rule: str,
    outcome: str = "pass",
    message: str = "",
    *,
    adapter: str = "demo",
    diff: str = "",
    level: str | None = "MUST",
    findings: int = 1,
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": f"{case}::{rule}[{adapter}]",
        "case": case,
        "rule": rule,
        "outcome": outcome,
        "level": level,
        "profile": "openai",
        "message": message,
        "directions": ["request openai-chat->anthropic-messages, interaction 1 request"],
        "findings": [],
    }
    if outcome not in ("pass", "unsupported"):
        record["findings"] = [
            {
                "where": "request openai-chat->anthropic-messages, interaction 1 request",
                "path": f"messages[{i}]",
                "message": message,
                "diff": diff,
            }
            for i in range(findings)
        ]
        record["explanation"] = (
            f"{outcome.upper()} {case}::{rule}[{adapter}] ({level} under profile openai)\n"
            f"  Rule: the rule {rule} in one sentence.\n"
            + (f"  Diff:\n    {diff}\n" if diff else "")
            + f"  Why: {message}\n"
            f"  Next: fix the converter, or list it in a baseline file: {case}::{rule}  # reason"
        )
    if outcome == "xfail":
        record["baseline_reason"] = "known since 1.2"
    return record


def document(
    verdicts: list[dict[str, Any]],
    *,
    features: dict[str, list[str]] | None = None,
    adapter_version: str = "1.0",
    corpus_version: str | None = "c0ffee000001",
    broken: str | None = None,
) -> dict[str, Any]:
    """A results document around ``verdicts``; totals and exit code computed from them."""
    cases = sorted({v["case"] for v in verdicts})
    features = features if features is not None else {c: ["single-tool"] for c in cases}
    totals = Counter(v["outcome"] for v in verdicts)
    by_family: Counter[str] = Counter()
    by_feature: dict[str, Counter[str]] = {}
    for v in verdicts:
        if "." in v["rule"]:
            by_family[f"{v['rule'].split('.')[0]}:{v['outcome']}"] += 1
        for feature in features.get(v["case"], []):
            by_feature.setdefault(feature, Counter())[v["outcome"]] += 1
    if broken or totals["error"]:
        exit_code = 3
    elif totals["fail"] or totals["stale"]:
        exit_code = 1
    else:
        exit_code = 0
    return {
        "format": 1,
        "toolwire": "0.1.0",
        "rules_version": "12de69784a0b",
        "corpus": {"root": "/corpus", "cases": len(cases), "version": corpus_version},
        "adapter": {"name": "demo", "version": adapter_version, "spec": "demo.module:Demo"},
        "profiles": {},
        "python": "3.11.7",
        "platform": "Linux-x86_64",
        "started": "2026-01-02T03:04:05.000000+00:00",
        "finished": "2026-01-02T03:04:07.500000+00:00",
        "broken": broken,
        "exit_code": exit_code,
        "totals": {o: totals.get(o, 0) for o in OUTCOMES},
        "totals_by_family": dict(sorted(by_family.items())),
        "totals_by_feature": {
            f: {o: c.get(o, 0) for o in OUTCOMES} for f, c in sorted(by_feature.items())
        },
        "case_features": {c: list(features.get(c, [])) for c in cases},
        "verdicts": verdicts,
    }


def mixed_document() -> dict[str, Any]:
    """One verdict of every outcome across three families and two features."""
    verdicts = [
        verdict("single/weather", "pairing.id_changed", "pass"),
        verdict(
            "single/weather",
            "fidelity.arguments",
            "fail",
            "argument city changed",
            diff="$.city: expected 'Paris', got 'Pari'",
        ),
        verdict("parallel/two", "pairing.id_changed", "fail", "id 'call_1' became 'cal_1'"),
        verdict(
            "parallel/two", "ordering.result_order", "warn", "results reordered", level="SHOULD"
        ),
        verdict("parallel/two", "fidelity.arguments", "xfail", "known loss"),
        verdict("stream/one", "convert", "error", "upstream converter exploded", level=None),
        verdict("stream/one", "unsupported", "unsupported", "no stream direction", level=None),
        verdict("single/weather", "ordering.result_order", "stale", "listed but passes now"),
    ]
    features = {
        "single/weather": ["single-tool"],
        "parallel/two": ["parallel", "multi-turn"],
        "stream/one": ["streaming"],
    }
    return document(verdicts, features=features)


def many_failures(count: int, rules: int = 37) -> dict[str, Any]:
    """``count`` failing verdicts with realistic explanations, spread over ``rules`` rules."""
    verdicts = []
    for index in range(count):
        rule = f"family{index % 5}.rule_{index % rules}"
        message = f"call #{index} had id 'call_{index:06d}'; the output carries 'cal_{index:06d}'"
        verdicts.append(
            verdict(
                f"cases/case-{index:05d}",
                rule,
                "fail",
                message,
                diff=f"$.messages[{index % 9}].tool_call_id: expected 'call_{index}', got None",
                findings=3,
            )
        )
    return document(verdicts)


def with_outcome(doc: dict[str, Any], case: str, rule: str, outcome: str) -> dict[str, Any]:
    """A copy of ``doc`` where one verdict has another outcome (totals recomputed)."""
    records = copy.deepcopy(doc["verdicts"])
    for index, record in enumerate(records):
        if record["case"] == case and record["rule"] == rule:
            records[index] = verdict(case, rule, outcome, record["message"] or "changed")
    return document(
        records,
        features=doc["case_features"],
        adapter_version=doc["adapter"]["version"],
        corpus_version=doc["corpus"]["version"],
    )
