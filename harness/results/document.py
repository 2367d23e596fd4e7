"""The results document: the source of truth every report is rendered from.

Its header records the toolwire, corpus and rules versions, the adapter's
name and version, Python and platform, start and end; then one record per
verdict and totals by outcome, rule family and feature. Its JSON Schema is
harness/reports/results.schema.json (`toolwire run --schema`): a key added
here must be added there too (tests/reports validate real runs against it).
"""

from __future__ import annotations

import hashlib
import platform
from collections import Counter
from pathlib import Path
from typing import Any

from toolwire.conformance.catalogue import RULE_CODES, RULES_BY_CODE
from toolwire.harness import __version__
from toolwire.harness.corpus.loader import case_files
from toolwire.harness.engine.explain import explain
from toolwire.harness.engine.session import RunResult
from toolwire.harness.engine.verdicts import OUTCOMES, Verdict
from toolwire.harness.errors import CorpusError
from toolwire.harness.reports.summary import rule_totals

RESULTS_FORMAT = 1


def rules_version() -> str:
    """A short fingerprint of the catalogue: changes when a rule is added or changed."""
    digest = hashlib.sha256()
    for code in RULE_CODES:
        rule = RULES_BY_CODE[code]
        digest.update(f"{code}|{rule.level}|{sorted(rule.profile_levels.items())}\n".encode())
    return digest.hexdigest()[:12]


def corpus_version(root: str | Path) -> str | None:
    """A short fingerprint of the corpus content: every case file's path and
    bytes, so any edit, addition or removal changes it. None when the folder
    cannot be read (the results then cannot say which corpus they judged)."""
    folder = Path(root)
    digest = hashlib.sha256()
    try:
        for path in case_files(folder):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    except (CorpusError, OSError):
        return None
    return digest.hexdigest()[:12]


def verdict_record(verdict: Verdict) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": verdict.item_id,
        "case": verdict.case_id,
        "rule": verdict.rule_code,
        "outcome": verdict.outcome,
        "level": verdict.level,
        "profile": verdict.profile,
        "message": verdict.message,
        "directions": list(verdict.directions),
        "findings": [
            {"where": f.where, "path": f.path, "message": f.message, "diff": f.diff}
            for f in verdict.findings
        ],
    }
    if verdict.baseline_reason is not None:
        record["baseline_reason"] = verdict.baseline_reason
    if verdict.outcome not in ("pass", "unsupported"):
        record["explanation"] = explain(verdict)
    return record


def results_document(result: RunResult) -> dict[str, Any]:
    by_family: Counter[str] = Counter()
    for verdict in result.verdicts:
        if verdict.rule_code in RULES_BY_CODE:
            by_family[f"{RULES_BY_CODE[verdict.rule_code].family}:{verdict.outcome}"] += 1
    features = {case: list(result.case_features.get(case, ())) for case in result.cases}
    return {
        "format": RESULTS_FORMAT,
        "toolwire": __version__,
        "rules_version": rules_version(),
        "corpus": {
            "root": result.corpus_root,
            "cases": len(result.cases),
            "version": corpus_version(result.corpus_root),
        },
        "adapter": {
            "name": result.adapter.name,
            "version": result.adapter.version,
            "spec": result.adapter.spec,
        },
        "profiles": result.profiles,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "started": result.started.isoformat(),
        "finished": result.finished.isoformat(),
        "broken": result.broken,
        "exit_code": result.exit_code,
        "totals": result.totals,
        "totals_by_family": dict(sorted(by_family.items())),
        "totals_by_feature": _totals_by_feature(result.verdicts, features),
        "totals_by_rule": rule_totals(
            ((v.rule_code, v.outcome) for v in result.verdicts), RULE_CODES
        ),
        "case_features": features,
        "verdicts": [verdict_record(v) for v in result.verdicts],
    }


def _totals_by_feature(
    verdicts: tuple[Verdict, ...], features: dict[str, list[str]]
) -> dict[str, dict[str, int]]:
    """feature -> outcome -> verdicts on cases with that feature (every outcome present)."""
    counts: dict[str, Counter[str]] = {}
    for verdict in verdicts:
        for feature in features.get(verdict.case_id, ()):
            counts.setdefault(feature, Counter())[verdict.outcome] += 1
    return {
        feature: {outcome: counts[feature].get(outcome, 0) for outcome in OUTCOMES}
        for feature in sorted(counts)
    }
