"""benchmarks/accuracy_sample.py still imports, and its draw is the seeded one
docs/accuracy.md was checked on (same seed and ids, same sample)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from tests.support.real_transcripts import PROJECT_ROOT

SCRIPT = PROJECT_ROOT / "benchmarks" / "accuracy_sample.py"


@pytest.fixture
def sample(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    return importlib.import_module("accuracy_sample")


def _verdict(number: int, outcome: str = "fail", level: str | None = "MUST") -> dict[str, object]:
    return {
        "id": f"case/{number:03d}::rule.x[a]",
        "case": f"case/{number:03d}",
        "rule": "rule.x",
        "outcome": outcome,
        "level": level,
        "profile": None,
        "message": "m",
        "findings": [],
    }


def test_the_draw_depends_only_on_the_seed(sample: ModuleType) -> None:
    population = [("a", _verdict(number)) for number in range(40)]
    first = sample.draw(population, 14, 10)
    assert first == sample.draw(list(population), 14, 10)
    assert len(first) == 10
    assert first != sample.draw(population, 15, 10)


def test_rule_totals_counted_from_verdicts_when_absent(sample: ModuleType) -> None:
    document = {"verdicts": [_verdict(1), _verdict(2, "pass"), _verdict(3, "unsupported", None)]}
    counts = sample.rule_totals(document)
    assert counts["rule.x"]["exercised"] == 2
    assert counts["rule.x"]["fail"] == 1
