"""The pytest plugin, run in real pytest subprocesses (pytester), on a tiny corpus."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.plugin.support import (
    CASE_IDS,
    GARBAGE,
    PASS,
    RECORDING,
    SHOULD_ADAPTER,
    SHOULD_CASE,
    conversions_by_case,
    tiny_corpus,
)


def _run(tw: pytest.Pytester, adapter: str, *extra: str) -> pytest.RunResult:
    corpus = tiny_corpus(tw.path / "corpus")
    return tw.runpytest_subprocess(
        "--toolwire-adapter", adapter, "--toolwire-corpus", str(corpus), "-p", "no:randomly", *extra
    )


def test_options_are_in_one_group_with_ini_mirrors(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["toolwire conformance checks:", "*--toolwire-adapter=SPEC*"])
    result.stdout.fnmatch_lines(["*toolwire_adapter*", "*toolwire_baseline*"])


def test_collect_only_lists_one_item_per_case_and_converts_nothing(tw: pytest.Pytester) -> None:
    result = _run(tw, RECORDING, "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [f"{case_id}[[]recording[]]" for case_id in sorted(CASE_IDS)]
        + [f"{len(CASE_IDS)} tests collected in *"]
    )
    assert "negative/" not in result.stdout.str()  # lint inputs, not conversions
    assert result.ret == 0
    assert conversions_by_case(tw.path) == {}


def test_the_collected_count_is_the_number_of_cases(tw: pytest.Pytester) -> None:
    result = _run(tw, PASS)
    result.stdout.fnmatch_lines([f"collected {len(CASE_IDS)} items"])
    result.assert_outcomes(passed=len(CASE_IDS))
    assert result.ret == 0


def test_k_deselects_by_case_id_dialect_and_feature(tw: pytest.Pytester) -> None:
    by_id = _run(tw, PASS, "-k", "weather")
    by_id.stdout.fnmatch_lines([f"collected {len(CASE_IDS)} items / 4 deselected / 2 selected"])
    by_id.assert_outcomes(passed=2, deselected=4)
    # The dialect and the case's features are keywords too.
    by_keyword = _run(tw, PASS, "-k", "openai-chat and streaming")
    by_keyword.assert_outcomes(passed=1, deselected=5)


def test_failures_explain_themselves_without_a_traceback(tw: pytest.Pytester) -> None:
    result = _run(tw, GARBAGE, "-k", "streaming")
    result.assert_outcomes(failed=1, deselected=5)
    result.stdout.fnmatch_lines(
        [
            "FAIL streaming/parallel-openai::schema.request[[]returns-garbage[]] (MUST *",
            "  Rule: Every request validates against its dialect's JSON Schema.",
            "  Next: fix the converter, or list it in a baseline file: *",
        ]
    )
    assert "Traceback" not in result.stdout.str()
    assert "runtest" not in result.stdout.str()  # no frame of the plugin's code
    assert result.ret == 1


def test_x_stops_at_the_first_failure(tw: pytest.Pytester) -> None:
    result = _run(tw, GARBAGE, "-x")
    assert result.parseoutcomes()["failed"] == 1


def test_last_failed_reruns_only_the_failures(tw: pytest.Pytester) -> None:
    _run(tw, GARBAGE, "-k", "weather-openai")
    rerun = _run(tw, GARBAGE, "--lf", "-q")
    outcomes = rerun.parseoutcomes()
    assert outcomes["failed"] == 1
    assert "passed" not in outcomes


def test_baseline_xfail_and_stale_through_the_ini_file(tw: pytest.Pytester) -> None:
    corpus = tiny_corpus(tw.path / "corpus")
    failing = _run(tw, GARBAGE, "-k", "weather-openai", "-rA")
    # A set: pytest 9.2's short summary repeats each explanation in full.
    failing_rules = sorted(
        {
            line.split("::", 1)[1].split("[", 1)[0]
            for line in failing.stdout.lines
            if line.startswith("FAIL single-tool/weather-openai::")
        }
    )
    assert failing_rules, failing.stdout.str()
    tw.path.joinpath("baseline.txt").write_text(
        "".join(f"single-tool/weather-openai::{rule}  # garbage out\n" for rule in failing_rules)
    )
    tw.makeini(
        f"[pytest]\ntoolwire_adapter = {GARBAGE}\ntoolwire_baseline = baseline.txt\n"
        f"toolwire_corpus = {corpus}\n"
    )
    result = tw.runpytest_subprocess("-k", "weather-openai")
    result.assert_outcomes(xfailed=1, deselected=len(CASE_IDS) - 1)
    assert result.ret == 0
    stale = tw.runpytest_subprocess("--toolwire-adapter", PASS, "-k", "weather-openai")
    stale.assert_outcomes(failed=1, deselected=len(CASE_IDS) - 1)
    stale.stdout.fnmatch_lines(
        [f"*stale baseline entry: single-tool/weather-openai::{failing_rules[0]}*"]
    )
    assert stale.ret == 1


def test_a_bad_adapter_is_a_usage_error(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("--toolwire-adapter", "does.not:exist")
    result.stderr.fnmatch_lines(["*toolwire: adapter 'does.not:exist': cannot import module*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_junitxml_has_one_testcase_per_case_and_carries_should_verdicts(
    tw: pytest.Pytester,
) -> None:
    report = tw.path / "junit.xml"
    _run(tw, GARBAGE, "-k", "weather-openai", f"--junitxml={report}")
    cases = list(ElementTree.parse(report).getroot().iter("testcase"))
    assert len(cases) == 1
    failure = cases[0].find("failure")
    assert failure is not None
    assert "schema.request" in (failure.get("message") or "")
    should = tw.path / "should.xml"
    _run(tw, SHOULD_ADAPTER, "-k", "results-out-of-order", f"--junitxml={should}")
    properties = [
        (p.get("name"), p.get("value") or "")
        for p in ElementTree.parse(should).getroot().iter("property")
    ]
    assert [name for name, _ in properties] == ["toolwire_should"]
    assert properties[0][1].startswith("ordering.result_order: ")


@pytest.mark.parametrize("how", ["-W error", "filterwarnings = error"])
def test_a_should_verdict_passes_under_warnings_as_errors_and_is_summarised(
    tw: pytest.Pytester, how: str
) -> None:
    extra: tuple[str, ...] = ("-W", "error")
    if how.startswith("filterwarnings"):
        tw.makeini(f"[pytest]\n{how}\n")
        extra = ()
    result = _run(tw, SHOULD_ADAPTER, "-rA", *extra)
    result.assert_outcomes(passed=len(CASE_IDS))
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "*= toolwire =*",
            f"adapter reorders-results 1 on {len(CASE_IDS)} cases: * verdicts",
            "* pass  1 warn*",
            "SHOULD verdicts (1; advice: they do not fail their cases; *",
            f"  {SHOULD_CASE}::ordering.result_order[[]reorders-results[]]: the results of *",
        ]
    )
    # -rA shows the explanation in the item's own report section.
    result.stdout.fnmatch_lines(
        [
            "*- toolwire SHOULD verdicts -*",
            "WARN *::ordering.result_order[[]reorders-results[]] (SHOULD *",
        ]
    )
    assert "warnings" not in result.parseoutcomes()


def test_disabled_with_p_no_toolwire(tw: pytest.Pytester) -> None:
    result = tw.runpytest_subprocess("-p", "no:toolwire", "--toolwire-adapter", PASS)
    result.stderr.fnmatch_lines(["*unrecognized arguments: --toolwire-adapter*"])


def test_without_an_adapter_the_plugin_adds_nothing(tw: pytest.Pytester) -> None:
    tw.makepyfile("def test_one():\n    pass\n")
    result = tw.runpytest_subprocess("-p", "no:randomly")
    result.stdout.fnmatch_lines(["collected 1 item"])
    assert "= toolwire =" not in result.stdout.str()


def test_under_xdist_each_case_is_judged_once_on_the_worker_of_its_item(
    tw: pytest.Pytester,
) -> None:
    serial = _run(tw, RECORDING, "-n", "0")
    assert serial.ret == 0
    serial_calls = conversions_by_case(tw.path, clear=True)
    assert sorted(serial_calls) == sorted(CASE_IDS)
    report = tw.path / "junit.xml"
    parallel = _run(tw, RECORDING, "-n", "2", f"--junitxml={report}")
    parallel.assert_outcomes(passed=len(CASE_IDS))
    calls = conversions_by_case(tw.path)
    # Each case converted on one worker only, as often as in a serial session.
    workers = {case_id: {worker for worker, _ in found} for case_id, found in calls.items()}
    assert all(len(found) == 1 for found in workers.values()), workers
    assert {case_id: len(found) for case_id, found in calls.items()} == {
        case_id: len(found) for case_id, found in serial_calls.items()
    }
    assert set().union(*workers.values()) == {"gw0", "gw1"}
    # ... the worker that ran the case's item, as the item recorded it (JUnit
    # writes the node id "single-tool/weather-openai[recording]" as the name
    # "single-tool.weather-openai[recording]").
    junit_names = {case_id.replace("/", "."): case_id for case_id in CASE_IDS}
    recorded = {
        junit_names[str(case.get("name")).rsplit("[", 1)[0]]: next(
            p.get("value") for p in case.iter("property") if p.get("name") == "toolwire_worker"
        )
        for case in ElementTree.parse(report).getroot().iter("testcase")
    }
    assert recorded == {case_id: found.pop() for case_id, found in workers.items()}


def _toolwire_section(result: pytest.RunResult) -> list[str]:
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "= toolwire =" in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("="))
    return [line for line in lines[start + 1 : end] if line]  # xdist may add a blank line


@pytest.mark.parametrize("adapter", [PASS, GARBAGE])
def test_under_xdist_the_summary_says_what_a_serial_session_says(
    tw: pytest.Pytester, adapter: str
) -> None:
    # Without results.json the workers send only counts of their passes.
    serial = _toolwire_section(_run(tw, adapter, "-n", "0"))
    parallel = _toolwire_section(_run(tw, adapter, "-n", "2"))
    assert parallel == serial
    assert len(serial) >= 2  # the adapter line, the totals (and advice, or BROKEN)


_RELEASE_CONFTEST = """
import pytest
from toolwire.harness import pytest_plugin

@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    kept = [key for key in (pytest_plugin.SETUP, pytest_plugin._JUDGED) if key in config.stash]
    with open("kept.txt", "w", encoding="utf-8") as file:
        file.write(str(len(kept)))
"""


@pytest.mark.parametrize("workers", ["0", "2"])
def test_the_session_lets_go_of_its_cases_and_verdicts_when_it_ends(
    tw: pytest.Pytester, workers: str
) -> None:
    # pytest collects garbage three times at the end: nothing of the run's is left to walk.
    tw.makeconftest(_RELEASE_CONFTEST)
    reports = tw.path / "reports"
    result = _run(tw, SHOULD_ADAPTER, "-n", workers, f"--toolwire-report-dir={reports}")
    assert result.ret == 0
    assert (tw.path / "kept.txt").read_text(encoding="utf-8") == "0"
    # ... after the report and the summary were written from them.
    document = json.loads((reports / "results.json").read_text(encoding="utf-8"))
    assert document["corpus"]["cases"] == len(CASE_IDS)
    result.stdout.fnmatch_lines(["*= toolwire =*", "* pass  1 warn*"])


def test_only_the_controller_writes_the_report_under_xdist(tw: pytest.Pytester) -> None:
    reports = tw.path / "reports"
    result = _run(tw, PASS, "-n", "2", f"--toolwire-report-dir={reports}")
    assert result.ret == 0
    document = json.loads((reports / "results.json").read_text())
    assert document["adapter"]["name"] == "pass-through"
    assert document["corpus"]["cases"] == len(CASE_IDS)
    assert sorted(p.name for p in reports.iterdir()) == ["results.json"]


def test_a_worker_session_sends_its_verdicts_and_writes_nothing(tmp_path: Path) -> None:
    from toolwire.harness import pytest_plugin
    from toolwire.harness.pytest_plugin.state import Judged

    class WorkerConfig:
        def __init__(self) -> None:
            self.workerinput: dict[str, str] = {"workerid": "gw0"}
            self.workeroutput: dict[str, str] = {}
            self.stash = {pytest_plugin._JUDGED: Judged("spec", "name", "1", str(tmp_path))}

        def getoption(self, name: str) -> str | None:
            return str(tmp_path) if name == pytest_plugin.OPTION_REPORT_DIR else None

        def getini(self, name: str) -> None:
            return None

    class Session:
        config = WorkerConfig()

    session = Session()
    pytest_plugin.pytest_sessionfinish(session)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
    sent = Judged.from_json(session.config.workeroutput[pytest_plugin.WORKER_OUTPUT])
    assert (sent.spec, sent.adapter_name) == ("spec", "name")
    assert sent.records == {}  # each case's verdicts went with its item's report


_LOADS_CONFTEST = """
import json, os
import pytest
from toolwire.harness import pytest_plugin

# Before the worker reports its end: the controller may stop it right after.
@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    config = session.config
    setup = config.stash.get(pytest_plugin.SETUP, None)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if setup is not None and worker:
        with open(f"loads-{worker}.json", "w", encoding="utf-8") as file:
            json.dump({"loaded": setup.corpus.loaded, "judged": list(setup.judged.records)}, file)
"""


def test_under_xdist_a_worker_reads_whole_only_the_cases_of_its_items(
    tw: pytest.Pytester,
) -> None:
    from toolwire.harness.corpus.loader import load_corpus

    tw.makeconftest(_LOADS_CONFTEST)
    result = _run(tw, PASS, "-n", "2")
    result.assert_outcomes(passed=len(CASE_IDS))
    twins = {case.id: set(case.twins.values()) for case in load_corpus(tw.path / "corpus")}
    loads = {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in tw.path.glob("loads-gw*.json")
    }
    assert sorted(loads) == ["loads-gw0", "loads-gw1"]
    judged = [set(found["judged"]) for found in loads.values()]
    assert judged[0].isdisjoint(judged[1]) and judged[0] | judged[1] == set(CASE_IDS)
    for found in loads.values():
        own = set(found["judged"])
        assert len(found["loaded"]) == len(set(found["loaded"]))  # each read once
        # Its own cases and their twins (a rule compares with the twin), no other.
        assert own <= set(found["loaded"]) <= own.union(*(twins[case] for case in own))


def test_under_xdist_an_unreadable_case_fails_its_items_and_the_others_run(
    tw: pytest.Pytester,
) -> None:
    corpus = tiny_corpus(tw.path / "corpus")
    broken = corpus / "single-tool" / "weather-openai.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("method: POST", "method: [", 1))
    arguments = ("--toolwire-adapter", PASS, "--toolwire-corpus", str(corpus), "-p", "no:randomly")
    parallel = tw.runpytest_subprocess(*arguments, "-n", "2")
    # The case itself, and its twin (judged against it), fail with the file's error.
    parallel.assert_outcomes(passed=len(CASE_IDS) - 2, failed=2)
    parallel.stdout.fnmatch_lines(["*the case cannot be read: *weather-openai.yaml*invalid YAML*"])
    assert "Traceback" not in parallel.stdout.str()
    # A serial session reads every file first, as `toolwire run`: a usage error.
    serial = tw.runpytest_subprocess(*arguments, "-n", "0")
    assert serial.ret == pytest.ExitCode.USAGE_ERROR
    serial.stderr.fnmatch_lines(["*toolwire: *weather-openai.yaml*invalid YAML*"])


def test_the_controller_reads_verdicts_without_the_rule_families() -> None:
    code = (
        "import sys\n"
        "from toolwire.harness.pytest_plugin.state import record_from_json\n"
        'record_from_json(\'[0, "c", [], "gw0", [["c", "r", "a", "pass", '
        '"MUST", "p", "m", [], [], null]], 0]\')\n'
        "print([m for m in ('toolwire.harness.engine.runner', 'toolwire.conformance.registry') "
        "if m in sys.modules])\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"


def test_the_plugin_imports_nothing_heavy_until_used() -> None:
    code = (
        "import sys, toolwire.harness.pytest_plugin\n"
        "heavy = [m for m in ('toolwire.harness.engine', 'jsonschema', 'deepdiff', 'yaml', 'vcr') "
        "if m in sys.modules]\n"
        "print(heavy)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert output.stdout.strip() == "[]"
