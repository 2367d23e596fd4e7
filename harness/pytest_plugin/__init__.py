"""toolwire's pytest plugin: corpus cases as test items.

``pytest --toolwire-adapter SPEC`` collects one item per corpus case, with
ids like ``parallel/two-cities-openai[reference]``, so ``-k``, ``-x``,
``--lf``, ``--collect-only``, ``-n`` and ``--junitxml`` work as usual.

The plugin costs nothing in sessions that do not use it: the engine is
imported inside the hooks, only once an adapter is named. Collection reads
the corpus and loads the adapter but converts nothing; each item judges its
own case when it runs, so under xdist a worker judges only the cases of its
own items (collection reads only each case's ``toolwire:`` block; a case
is read whole when its item runs), sends each case's verdicts with its
item's report (its passes only counted unless ``results.json`` is asked
for), and the controller alone writes ``results.json``.
docs/pytest-plugin.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from toolwire.harness.pytest_plugin.items import (
    SECTION_SHOULD,
    SETUP,
    ToolwireCorpus,
    ToolwireFailure,
    ToolwireItem,
)

if TYPE_CHECKING:
    from collections.abc import Generator

    from toolwire.harness.pytest_plugin.state import CaseRecord, Judged, Setup

__all__ = ["ToolwireCorpus", "ToolwireFailure", "ToolwireItem"]

OPTION_ADAPTER = "toolwire_adapter"
OPTION_CORPUS = "toolwire_corpus"
OPTION_BASELINE = "toolwire_baseline"
OPTION_REPORT_DIR = "toolwire_report_dir"
OPTION_TIMEOUT = "toolwire_timeout"
OPTION_FAIL_ON = "toolwire_fail_on"
OPTION_PROFILE = "toolwire_profile"
FAIL_ON_CHOICES = ("must", "warn")  # toolwire.harness.gate.FAIL_ON, without importing it
WORKER_OUTPUT = "toolwire_judged"
# The attribute of an xdist worker's call report that carries its case's verdicts.
REPORT_RECORD = "toolwire_record"
# The verdicts to report: this process's own, or (xdist controller) the workers'.
_JUDGED: pytest.StashKey[Judged] = pytest.StashKey()
# xdist controller: the records received with the workers' reports, by case id.
_RECEIVED: pytest.StashKey[dict[str, CaseRecord]] = pytest.StashKey()


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
    group.addoption(
        "--toolwire-fail-on",
        dest=OPTION_FAIL_ON,
        choices=FAIL_ON_CHOICES,
        help="What fails a case: MUST failures, errors and stale baseline entries (must, "
        "the default), or SHOULD verdicts too (warn).",
    )
    group.addoption(
        "--toolwire-profile",
        dest=OPTION_PROFILE,
        action="append",
        metavar="DIALECT=PROFILE",
        help="Judge output in DIALECT under PROFILE (repeatable), as `toolwire run --profile`.",
    )
    for name, help_text in (
        (OPTION_ADAPTER, "adapter spec for toolwire's conformance checks"),
        (OPTION_CORPUS, "toolwire corpus folder"),
        (OPTION_BASELINE, "toolwire baseline file"),
        (OPTION_REPORT_DIR, "folder for toolwire's results.json"),
        (OPTION_TIMEOUT, "seconds an adapter may take per case"),
        (OPTION_FAIL_ON, "what fails a toolwire case: must (default) or warn"),
    ):
        parser.addini(name, help_text, default=None)
    parser.addini(OPTION_PROFILE, "DIALECT=PROFILE lines for toolwire's judging", type="linelist")


def _setting(config: pytest.Config, name: str) -> Any:
    """Command line over ini file."""
    value = config.getoption(name)
    if value is None:
        value = config.getini(name)
    return value or None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "toolwire: a toolwire conformance case")
    if _setting(config, OPTION_ADAPTER) is not None and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Receiver(config), "toolwire-receiver")


class _Receiver:
    """xdist controller: takes each case's verdicts off its item's report as
    the report arrives, so nothing is left to decode when the workers end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        shipped = report.__dict__.pop(REPORT_RECORD, None)
        if shipped is None:
            return  # a serial session's report, or no judged case
        from toolwire.harness.pytest_plugin.state import record_from_json

        record = record_from_json(shipped)
        received = self.config.stash.setdefault(_RECEIVED, {})
        if not received and _setting(self.config, OPTION_REPORT_DIR) is not None:
            # Import what results.json takes now, while the workers judge,
            # not after the last of them ended.
            from toolwire.harness.pytest_plugin.state import prepare_document

            prepare_document()
        received[record.case_id] = record


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """The session's collection gets one more child: the corpus, so its
    items are counted, selected and listed like any others."""
    report = yield
    if isinstance(collector, pytest.Session) and report.passed:
        setup = _setup(collector.config)
        if setup is not None:
            report.result.append(
                ToolwireCorpus.from_parent(collector, name="toolwire", nodeid="toolwire")
            )
    return report


def _setup(config: pytest.Config) -> Setup | None:
    spec = _setting(config, OPTION_ADAPTER)
    if spec is None:
        return None
    from toolwire.harness.errors import ToolwireError
    from toolwire.harness.pytest_plugin.state import read_setup

    worker = getattr(config, "workerinput", {}).get("workerid", "")
    timeout = _setting(config, OPTION_TIMEOUT)
    fail_on = _setting(config, OPTION_FAIL_ON) or "must"
    if fail_on not in FAIL_ON_CHOICES:  # from the ini file: the command line checks its own
        raise pytest.UsageError(
            f"toolwire: toolwire_fail_on = {fail_on!r} is not one of {', '.join(FAIL_ON_CHOICES)}"
        )
    profiles = tuple(_setting(config, OPTION_PROFILE) or ())
    try:
        setup = read_setup(
            spec,
            _setting(config, OPTION_CORPUS),
            _setting(config, OPTION_BASELINE),
            float(timeout) if timeout is not None else None,
            worker,
            profiles=profiles,
            fail_on=fail_on,
        )
    except ToolwireError as error:
        raise pytest.UsageError(f"toolwire: {error}") from None
    except ValueError:
        raise pytest.UsageError(
            f"toolwire: the timeout {timeout!r} is not a number of seconds"
        ) from None
    config.stash[SETUP] = setup
    config.stash[_JUDGED] = setup.judged
    return setup


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A case's SHOULD verdicts, explained in a section of its call report;
    from an xdist worker, the case's verdicts for the controller too."""
    report = yield
    if call.when == "call" and isinstance(item, ToolwireItem):
        if item.should_text:
            report.sections.append((SECTION_SHOULD, item.should_text))
        # The record stays with the session's verdicts (Setup.judged), not the item.
        record, item.record = item.record, None
        if record is not None and hasattr(item.config, "workerinput"):
            from toolwire.harness.pytest_plugin.state import record_to_json

            # Every verdict only for results.json; the summary counts passes.
            passes = _setting(item.config, OPTION_REPORT_DIR) is not None
            setattr(report, REPORT_RECORD, json.dumps(record_to_json(record, passes)))
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, object, object]:
    """The items run as `toolwire run` judges: fewer garbage-collector passes."""
    if SETUP not in session.config.stash:
        return (yield)
    from toolwire.harness.engine.gc_threshold import fewer_gc_passes

    with fewer_gc_passes():
        return (yield)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    judged = config.stash.get(_JUDGED, None)
    if judged is None or not judged.records or hasattr(config, "workerinput"):
        return  # nothing was judged (--collect-only, all deselected) or an xdist worker
    from toolwire.harness.pytest_plugin.summary import write_summary

    write_summary(terminalreporter, judged)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: a worker's header facts (adapter, corpus, start),
    with the records its reports brought."""
    shipped = getattr(node, "workeroutput", {}).get(WORKER_OUTPUT)
    if not shipped:
        return
    from toolwire.harness.pytest_plugin.state import Judged

    received = Judged.from_json(shipped)
    config = node.config
    judged = config.stash.get(_JUDGED, None)
    if judged is None:
        judged = config.stash[_JUDGED] = received
    else:
        judged.merge(received)
    judged.records.update(config.stash.get(_RECEIVED, {}))


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Let go of the session's cases and verdicts (results.json and the
    summary are written by now). pytest collects garbage at unconfigure, at
    cleanup and at exit, and each pass would walk them all: about 0.1 s a
    pass on the bundled corpus (docs/performance.md)."""
    stash = config.stash
    if SETUP in stash:
        del stash[SETUP]
    if _JUDGED in stash:
        del stash[_JUDGED]
    if _RECEIVED in stash:
        del stash[_RECEIVED]


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    judged = config.stash.get(_JUDGED, None)
    if judged is None:
        return
    if hasattr(config, "workerinput"):
        # xdist workers never write files: their reports carried the verdicts
        # to the controller; the header facts go with the worker's output.
        config.workeroutput[WORKER_OUTPUT] = judged.to_json(records=False)  # type: ignore[attr-defined]
        return
    report_dir = _setting(config, OPTION_REPORT_DIR)
    if report_dir is None or not judged.records:
        return
    from toolwire.harness.atomic_write import write_atomic

    write_atomic(
        Path(report_dir) / "results.json",
        json.dumps(judged.document(), indent=2, ensure_ascii=False) + "\n",
    )
