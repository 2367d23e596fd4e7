"""toolwire's pytest plugin: corpus cases as test items.

``pytest --toolwire-adapter SPEC`` collects one item per judged rule and case,
with ids like ``parallel/two-cities-openai::ordering.parallel_results_split[reference]``,
so ``-k``, ``-x``, ``--lf``, ``-n`` and ``--junitxml`` work as usual.

The plugin costs nothing in sessions that do not use it: the engine is
imported inside the hooks, only once an adapter is named. The cases run at
collection (the items are the verdicts); with xdist each worker collects the
same items and only the controller writes reports.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from harness.engine.session import RunResult
    from harness.engine.verdicts import Verdict

OPTION_ADAPTER = "toolwire_adapter"
OPTION_CORPUS = "toolwire_corpus"
OPTION_BASELINE = "toolwire_baseline"
OPTION_REPORT_DIR = "toolwire_report_dir"
OPTION_TIMEOUT = "toolwire_timeout"
_STATE = pytest.StashKey["_ToolwireState"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolwire", "toolwire conformance checks")
    group.addoption(
        "--toolwire-adapter",
        dest=OPTION_ADAPTER,
        metavar="SPEC",
        help="Run toolwire's conformance checks on this adapter.",
    )
    group.addoption(
        "--toolwire-corpus",
        dest=OPTION_CORPUS,
        metavar="PATH",
        help="Corpus folder (default: the bundled corpus).",
    )
    group.addoption(
        "--toolwire-baseline",
        dest=OPTION_BASELINE,
        metavar="FILE",
        help="Known failures, one 'case-id::rule-code  # reason' per line.",
    )
    group.addoption(
        "--toolwire-report-dir",
        dest=OPTION_REPORT_DIR,
        metavar="DIR",
        help="Write results.json here (by the controller only).",
    )
    group.addoption(
        "--toolwire-timeout",
        dest=OPTION_TIMEOUT,
        metavar="SECONDS",
        type=float,
        help="Seconds an adapter may take per case (default 10).",
    )
    for name, help_text in (
        (OPTION_ADAPTER, "adapter spec for toolwire's conformance checks"),
        (OPTION_CORPUS, "toolwire corpus folder"),
        (OPTION_BASELINE, "toolwire baseline file"),
        (OPTION_REPORT_DIR, "folder for toolwire's results.json"),
        (OPTION_TIMEOUT, "seconds an adapter may take per case"),
    ):
        parser.addini(name, help_text, default=None)


def _setting(config: pytest.Config, name: str) -> Any:
    """Command line over ini file."""
    value = config.getoption(name)
    if value is None:
        value = config.getini(name)
    return value or None


class _ToolwireState:
    """The run's results document: made by the collecting process, or, under
    xdist, received by the controller from a worker (every worker runs the
    same cases and holds the same verdicts)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document


class ToolwireFailure(Exception):
    """A verdict that fails; its text is the five-part explanation."""


class ToolwireItem(pytest.Item):
    def __init__(self, *, verdict: Verdict, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.verdict = verdict
        self.add_marker(pytest.mark.toolwire)

    def runtest(self) -> None:
        from harness.engine.explain import explain

        outcome = self.verdict.outcome
        if outcome == "pass":
            return
        if outcome == "unsupported":
            pytest.skip(f"unsupported: {self.verdict.message}")
        if outcome == "xfail":
            pytest.xfail(f"baselined: {self.verdict.baseline_reason}")
        if outcome == "warn":
            self.warn(pytest.PytestWarning(explain(self.verdict)))
            return
        raise ToolwireFailure(explain(self.verdict))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ToolwireFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.verdict.case_id), 0, self.name


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "toolwire: a toolwire conformance verdict")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    spec = _setting(config, OPTION_ADAPTER)
    if spec is None:
        return
    from harness.engine.results import results_document

    result = _run(config, spec)
    config.stash[_STATE] = _ToolwireState(results_document(result))
    for verdict in result.verdicts:
        items.append(
            ToolwireItem.from_parent(
                session, name=verdict.item_id, nodeid=verdict.item_id, verdict=verdict
            )
        )


def _run(config: pytest.Config, spec: str) -> RunResult:
    from harness.adapters.loader import load_adapter
    from harness.corpus.loader import bundled_corpus_root, load_corpus
    from harness.engine.baseline import load_baseline
    from harness.engine.runner import DEFAULT_TIMEOUT, RunOptions
    from harness.engine.session import run_corpus
    from harness.errors import ToolwireError

    try:
        corpus_path = _setting(config, OPTION_CORPUS)
        corpus = load_corpus(Path(corpus_path) if corpus_path else bundled_corpus_root())
        adapter = load_adapter(spec)
        baseline_path = _setting(config, OPTION_BASELINE)
        baseline = load_baseline(Path(baseline_path), corpus.ids) if baseline_path else []
        timeout = float(_setting(config, OPTION_TIMEOUT) or DEFAULT_TIMEOUT)
        return run_corpus(
            corpus, adapter, RunOptions(timeout=timeout, corpus=corpus), None, baseline
        )
    except ToolwireError as error:
        raise pytest.UsageError(f"toolwire: {error}") from None


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    document = state.document
    terminalreporter.section("toolwire")
    adapter = document["adapter"]
    terminalreporter.write_line(
        f"adapter {adapter['name']} {adapter['version']} on {document['corpus']['cases']} cases"
    )
    if document["broken"]:
        terminalreporter.write_line(f"BROKEN: {document['broken']}", red=True)
    totals = "  ".join(f"{n} {outcome}" for outcome, n in document["totals"].items() if n)
    terminalreporter.write_line(totals)
    for record in document["verdicts"]:
        if record["outcome"] == "stale":
            terminalreporter.write_line(
                f"stale baseline entry: {record['case']}::{record['rule']} (delete it)",
                yellow=True,
            )


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: keep the results a worker sent."""
    shipped = getattr(node, "workeroutput", {}).get("toolwire_results")
    config = node.config
    if shipped and _STATE not in config.stash:
        config.stash[_STATE] = _ToolwireState(json.loads(shipped))


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    if hasattr(config, "workerinput"):
        # xdist workers never write files: they send the results to the controller.
        config.workeroutput["toolwire_results"] = json.dumps(state.document)  # type: ignore[attr-defined]
        return
    report_dir = _setting(config, OPTION_REPORT_DIR)
    if report_dir is None:
        return
    from harness.atomic_write import write_atomic

    write_atomic(
        Path(report_dir) / "results.json",
        json.dumps(state.document, indent=2, ensure_ascii=False) + "\n",
    )
