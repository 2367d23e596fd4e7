"""benchmarks/accuracy_sample.py still imports, and its draw is the seeded one
docs/accuracy.md was checked on (same seed and ids, same sample)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
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


def _write_reports(root: Path, verdicts: dict[str, list[dict[str, object]]]) -> Path:
    for adapter, listed in verdicts.items():
        (root / adapter).mkdir()
        (root / adapter / "results.json").write_text(json.dumps({"verdicts": listed}))
    return root


def test_warnings_are_drawn_at_should_and_failures_at_must(
    sample: ModuleType, tmp_path: Path
) -> None:
    reports = _write_reports(
        tmp_path,
        {
            "a": [_verdict(1), _verdict(2, "warn", "SHOULD"), _verdict(3, "pass")],
            "b": [_verdict(4, "warn", "SHOULD"), _verdict(5, "fail", "SHOULD")],
        },
    )
    warned = sample.verdicts_at(reports, ("a", "b"), "warn")
    assert [(adapter, verdict["case"]) for adapter, verdict in warned] == [
        ("a", "case/002"),
        ("b", "case/004"),
    ]
    failed = sample.verdicts_at(reports, ("a", "b"), "fail")
    assert [verdict["case"] for _, verdict in failed] == ["case/001"]
    assert sample.failing_musts(reports, ("a", "b")) == failed


def test_the_sample_command_draws_warnings(
    sample: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = _write_reports(
        tmp_path, {name: [_verdict(1), _verdict(2, "warn", "SHOULD")] for name in sample.LIBRARIES}
    )
    argv = ["sample", "--reports", str(reports), "--outcome", "warn", "-n", "3", "--seed", "2"]
    assert sample.main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# 12 warning SHOULD verdicts of 12 libraries; seed 2; n=3")
    assert printed.count("rule.x on case/002") == 3
    assert "case/001" not in printed


def test_all_libraries_are_the_thirdparty_list(sample: ModuleType) -> None:
    listed = sample.thirdparty_libraries(PROJECT_ROOT / "reports")
    assert set(sample.LIBRARIES) < set(listed)
    assert "litellm-gemini" in listed
    assert "reference" not in listed
    assert not any(name.startswith("proxy-") for name in listed)
