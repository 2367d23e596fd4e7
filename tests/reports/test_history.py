"""The release history: its table, the diff of releases, the page (no network)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.reports.factory import document, verdict
from toolwire.harness.reports import history_run, thirdparty
from toolwire.harness.reports.history import (
    Fix,
    HistoryError,
    HistorySpec,
    RunSummary,
    diff_releases,
    fixes_without_change,
    parse_fixes,
    parse_history,
    parse_releases,
    summarise_run,
    summary_from_json,
    summary_to_json,
    version_key,
)
from toolwire.harness.reports.history_page import Page, render_history_html, render_history_markdown

ROOT = Path(__file__).resolve().parents[2]
TABLE = """
[adapters]
lib-a = "lib"
lib-b = "lib"
other = "other"

[history.lib]
package = "lib"
extra = "lib"
releases = ["1.10.0", "1.9.2", "1.9.10"]
"""


def test_the_published_history_table_names_eight_releases_or_more() -> None:
    text = (ROOT / "reports" / "thirdparty.toml").read_text(encoding="utf-8")
    spec = parse_history(text)["litellm"]
    assert spec.package == "litellm" and spec.extra == "litellm"
    assert len(spec.releases) >= 8
    assert version_key(spec.releases[0]) < version_key("1.81")


def test_releases_are_sorted_as_versions_not_as_text() -> None:
    spec = parse_history(TABLE)["lib"]
    assert spec.releases == ("1.9.2", "1.9.10", "1.10.0")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("history = 3", "history must be a table"),
        ("[history.x]\nreleases = []", "releases must be a list"),
        ('[history.x]\nreleases = ["one"]', "'one' is not a release number"),
        ('[history.x]\nreleases = ["1.0", "1.0"]', "listed twice"),
        ('[history.x]\nreleases = ["1.0"]\nextras = "x"', "unknown keys extras"),
        ('[history.x]\nreleases = ["1.0"]\npackage = "A B"', "package must be"),
        ("[history", "not TOML"),
    ],
)
def test_a_malformed_history_table_is_a_one_line_error(text: str, expected: str) -> None:
    with pytest.raises(HistoryError) as caught:
        parse_history(text, "t.toml")
    assert expected in str(caught.value)
    assert str(caught.value).startswith("t.toml")
    assert "\n" not in str(caught.value)


def test_the_history_option_takes_the_tables_releases_or_its_own() -> None:
    specs = parse_history(TABLE)
    assert parse_releases("lib", specs) == specs["lib"]
    chosen = parse_releases("lib=2.0.0, 1.9.2", specs)
    assert chosen.releases == ("1.9.2", "2.0.0") and chosen.package == "lib"
    with pytest.raises(HistoryError, match=r"no \[history.nope\] table .*known: lib"):
        parse_releases("nope=1.0", specs)
    with pytest.raises(HistoryError, match="no release after"):
        parse_releases("lib=,", specs)


def test_the_extras_pin_is_replaced_by_the_release() -> None:
    pyproject = {"project": {"optional-dependencies": {"lib": ["Lib==1.0", "mcp>=2,<3"]}}}
    spec = HistorySpec("lib", "lib", "lib", ("1.9.2",))
    assert history_run.release_requirements(pyproject, spec, "1.9.2") == [
        "lib==1.9.2",
        "mcp>=2,<3",
    ]
    with pytest.raises(HistoryError, match="no extra 'lib'"):
        history_run.release_requirements({"project": {}}, spec, "1.9.2")


FIXES = """
[[fix]]
release = "1.9.10"
title = "Keep tool_result blocks"
url = "https://github.com/example/lib/pull/1"
rules = ["pairing.*"]

[[fix]]
release = "1.10.0"
title = "Thinking kept"
url = "https://github.com/example/lib/issues/2"
rules = ["reasoning.dropped"]
adapters = ["lib-b"]

[[fix]]
release = "1.10.0"
title = "Something the corpus does not reach"
url = "https://github.com/example/lib/pull/3"
rules = ["xml.*"]
"""


def test_fixes_parse_and_bad_entries_are_one_line_errors() -> None:
    fixes = parse_fixes(FIXES, "f.toml")
    assert [f.release for f in fixes] == ["1.9.10", "1.10.0", "1.10.0"]
    assert fixes[1].adapters == ("lib-b",)
    for bad, expected in [
        ('[[fix]]\nrelease = "1.0"\ntitle = "t"\nurl = "http://x"\nrules = ["a"]', "https://"),
        ('[[fix]]\nrelease = "1.0"\ntitle = "t"\nurl = "https://x"\nrules = []', "rules must"),
        ('[[fix]]\nrelease = "1.0"\nurl = "https://x"\nrules = ["a"]', "title must"),
        ('[[fix]]\nrelease = "x"\ntitle = "t"\nurl = "https://x"\nrules = ["a"]', "not a rel"),
    ]:
        with pytest.raises(HistoryError, match=expected):
            parse_fixes(bad, "f.toml")


def _run(*verdicts: dict[str, Any], version: str = "1") -> RunSummary:
    return summarise_run(document(list(verdicts), adapter_version=version))


def test_a_summary_keeps_every_outcome_and_reads_back_the_same() -> None:
    summary = _run(
        verdict("c/1", "pairing.id_changed", "fail", "renamed"),
        verdict("c/1", "schema.valid"),
        verdict("c/2", "convert", "unsupported", level=None),
    )
    assert summary.outcomes == {
        "c/1::pairing.id_changed": "fail",
        "c/1::schema.valid": "pass",
        "c/2::convert": "unsupported",
    }
    assert summary.messages == {"c/1::pairing.id_changed": "renamed", "c/2::convert": ""}
    back = summary_from_json(json.loads(json.dumps(summary_to_json(summary))))
    assert back == summary


def _history() -> dict[str, dict[str, RunSummary | str]]:
    return {
        "1.9.2": {
            "lib-a": _run(
                verdict("c/1", "pairing.id_changed", "fail", "id renamed"),
                verdict("c/2", "fidelity.text", "warn", "text joined"),
                verdict("c/3", "schema.valid"),
            ),
            "lib-b": _run(verdict("c/1", "reasoning.dropped", "fail", "thinking gone")),
        },
        "1.9.10": {
            "lib-a": _run(
                verdict("c/1", "pairing.id_changed"),
                verdict("c/2", "fidelity.text", "fail", "text joined"),
                verdict("c/3", "schema.valid", "fail", "bad schema"),
            ),
            "lib-b": "lib==1.9.10 could not be installed",
        },
        "1.10.0": {
            "lib-a": _run(
                verdict("c/2", "fidelity.text", "fail", "text joined"),
                verdict("c/3", "schema.valid", "fail", "bad schema"),
            ),
            "lib-b": _run(verdict("c/1", "reasoning.dropped")),
        },
    }


def test_releases_diff_into_appeared_and_disappeared_findings_beside_their_fixes() -> None:
    fixes = parse_fixes(FIXES, "f.toml")
    steps = diff_releases(_history(), fixes)
    by = {(s.adapter, s.new): s for s in steps}
    first = by[("lib-a", "1.9.10")]
    assert first.old == "1.9.2"
    # fail on c/1 went away; fidelity.text changed warn -> fail: it appears and disappears.
    assert [c.key for c in first.disappeared] == ["c/1::pairing.id_changed", "c/2::fidelity.text"]
    assert [(c.key, c.old, c.new) for c in first.appeared] == [
        ("c/2::fidelity.text", "warn", "fail"),
        ("c/3::schema.valid", "pass", "fail"),
    ]
    assert first.disappeared[0].new == "pass" and first.disappeared[0].message == "id renamed"
    assert [f.title for f in first.fixes] == ["Keep tool_result blocks"]
    assert sorted(c.key for c in first.unexplained) == [
        "c/2::fidelity.text",
        "c/2::fidelity.text",
        "c/3::schema.valid",
    ]
    quiet = by[("lib-a", "1.10.0")]
    assert quiet.appeared == () and quiet.disappeared == () and quiet.fixes == ()
    # A side without results is said, not diffed.
    assert by[("lib-b", "1.9.10")].problem == "1.9.10: lib==1.9.10 could not be installed"
    assert by[("lib-b", "1.10.0")].problem.startswith("1.9.10:")
    unmatched = fixes_without_change(steps, fixes)
    assert [f.title for f in unmatched] == ["Thinking kept", "Something the corpus does not reach"]


def test_a_fix_outside_the_step_or_for_another_adapter_explains_nothing() -> None:
    runs: dict[str, dict[str, RunSummary | str]] = {
        "1.0": {"a": _run(verdict("c", "pairing.x", "fail", "m"))},
        "2.0": {"a": _run(verdict("c", "pairing.x"))},
    }
    later = Fix("2.1", "later", "https://x/1", ("pairing.*",))
    other = Fix("2.0", "other adapter", "https://x/2", ("pairing.*",), adapters=("b",))
    case = Fix("2.0", "other case", "https://x/3", ("pairing.*",), cases=("d*",))
    (only,) = diff_releases(runs, [later, other, case])
    assert only.fixes == () and [c.key for c in only.unexplained] == ["c::pairing.x"]


def _page() -> Page:
    fixes = parse_fixes(FIXES, "f.toml")
    runs = _history()
    steps = tuple(diff_releases(runs, fixes))
    return Page(
        title="Lib <b>",
        command="python -m toolwire.harness.reports.thirdparty --history lib",
        generated="2026-11-26 08:00 UTC",
        releases=("1.9.2", "1.9.10", "1.10.0"),
        runs=runs,
        steps=steps,
        unmatched_fixes=tuple(fixes_without_change(steps, fixes)),
    )


def test_the_markdown_page_shows_counts_changes_fixes_and_the_unexplained() -> None:
    text = render_history_markdown(_page())
    assert text.startswith("# Lib \\<b\\>: release history")
    assert "`python -m toolwire.harness.reports.thirdparty --history lib`" in text
    assert "| 1.9.2 | **2** (1 fail, 1 warn; 1 pass) | **1** (1 fail; 0 pass) |" in text
    assert "lib==1.9.10 could not be installed" in text
    assert "### 1.9.2 → 1.9.10" in text
    assert (
        "- **lib-a**: `pairing.id_changed` disappeared on 1 case: [Keep tool\\_result blocks]"
        "(https://github.com/example/lib/pull/1) (1.9.10)"
    ) in text
    assert "- **lib-a**: `schema.valid` appeared on 1 case: *no known fix or issue*" in text
    assert "  - `c/3` (pass → fail): bad schema" in text
    assert "- no change: lib-a" in text  # 1.9.10 -> 1.10.0
    assert "[Something the corpus does not reach](https://github.com/example/lib/pull/3)" in text


def test_the_html_page_is_self_contained_and_escaped() -> None:
    html = render_history_html(_page())
    assert "<title>Lib &lt;b&gt;: release history</title>" in html
    assert "Content-Security-Policy" in html and "<script" not in html
    assert "href='https://github.com/example/lib/pull/1'" in html
    assert "<em>no known fix or issue</em>" in html
    assert html.count("<h3>") == 2


def _write_summary(folder: Path, summary: RunSummary) -> None:
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps(summary_to_json(summary)), encoding="utf-8")


def test_index_only_renders_the_page_from_the_committed_summaries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "thirdparty.toml"
    table.write_text(TABLE, encoding="utf-8")
    reports = tmp_path / "reports"
    base = reports / "history" / "lib"
    _write_summary(base / "1.9.2" / "lib-a", _run(verdict("c/1", "pairing.x", "fail", "m")))
    _write_summary(base / "1.10.0" / "lib-a", _run(verdict("c/1", "pairing.x")))
    (base / "1.9.10" / "lib-a").mkdir(parents=True)
    (base / "1.9.10" / "lib-a" / "problem.txt").write_text("exit 2 without results\n")
    (base / "fixes.toml").write_text(FIXES, encoding="utf-8")
    runner = thirdparty.Runner(reports, 1.0, install=False, logs=tmp_path / "logs")
    spec = parse_releases("lib", parse_history(TABLE))
    code = history_run.run_history(runner, ROOT, tmp_path, spec, ["lib-a"], index_only=True)
    assert code == 1  # 1.9.10 has no results, and says so
    assert "problem: no results for 1.9.10/lib-a" in capsys.readouterr().err
    page = (base / "README.md").read_text(encoding="utf-8")
    assert "exit 2 without results" in page
    assert (base / "index.html").exists()


def test_the_history_option_reports_a_bad_name_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "thirdparty.toml"
    table.write_text(TABLE, encoding="utf-8")
    code = thirdparty.main(["--history", "nope", "--table", str(table), "--no-install"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --history nope: no [history.nope] table") and "\n" not in err


def test_without_an_environment_and_without_install_each_release_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = thirdparty.Runner(tmp_path / "reports", 1.0, install=False, logs=tmp_path / "logs")
    spec = HistorySpec("lib", "lib", "lib", ("1.0.0",))
    assert history_run.environment(runner, tmp_path / "venvs", spec, "1.0.0", {}) is None
    history_run.run_release(runner, spec, "1.0.0", ["lib-a"], None)
    problem = tmp_path / "reports" / "history" / "lib" / "1.0.0" / "lib-a" / "problem.txt"
    assert problem.read_text(encoding="utf-8").strip() == "lib==1.0.0 could not be installed"


def test_the_published_fixes_parse_and_cite_litellm_threads() -> None:
    path = ROOT / "reports" / "history" / "litellm" / "fixes.toml"
    fixes = parse_fixes(path.read_text(encoding="utf-8"), str(path))
    assert fixes
    for fix in fixes:
        assert fix.url.startswith("https://github.com/BerriAI/litellm/"), fix.url


def test_a_finding_whose_case_became_partly_unsupported_says_so() -> None:
    runs: dict[str, dict[str, RunSummary | str]] = {
        "1.0": {"a": _run(verdict("c", "fidelity.error_flag", "warn", "flag lost"))},
        "2.0": {"a": _run(verdict("c", "unsupported", "unsupported", "declined", level=None))},
    }
    (only,) = diff_releases(runs, [])
    (gone,) = only.disappeared
    assert (gone.old, gone.new, gone.message) == (
        "warn",
        "no verdict (directions unsupported)",
        "flag lost",
    )


def test_findings_hidden_by_a_conversion_error_are_counted_not_listed() -> None:
    runs: dict[str, dict[str, RunSummary | str]] = {
        "1.0": {"a": _run(verdict("c", "fidelity.text", "fail", "m"), verdict("d", "x.y"))},
        "2.0": {
            "a": _run(
                verdict("c", "convert", "error", "No module named 'fastapi'", level=None),
                verdict("d", "x.y"),
            )
        },
    }
    (only,) = diff_releases(runs, [])
    assert [c.key for c in only.appeared] == ["c::convert"]
    assert only.disappeared == ()
    assert [(c.key, c.new) for c in only.masked] == [("c::fidelity.text", "convert error")]
    page = Page("Lib", "cmd", "", ("1.0", "2.0"), runs, (only,), ())
    assert "1 finding on 1 case not comparable" in render_history_markdown(page)
    assert "not comparable" in render_history_html(page)


def test_a_mass_change_is_folded_into_one_line_of_cases() -> None:
    many = [verdict(f"c/{n:02}", "convert", "error", "No module named 'fastapi'", level=None)
            for n in range(20)]  # fmt: skip
    runs: dict[str, dict[str, RunSummary | str]] = {
        "1.0": {"a": _run(verdict("c/00", "x.y"))},
        "2.0": {"a": _run(*many)},
    }
    steps = tuple(diff_releases(runs, []))
    text = render_history_markdown(Page("Lib", "cmd", "", ("1.0", "2.0"), runs, steps, ()))
    assert "`convert` appeared on 20 cases" in text
    assert "  - converted → error: `c/00`, `c/01`," in text
    assert text.count("No module named") == 1
