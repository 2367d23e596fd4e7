"""Progress of `toolwire run`: a bar with counts and the current case on a
terminal, plain lines in CI, never on stdout."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.cli.main import cli
from toolwire.harness.cli.progress import RunProgress, resolve_mode
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.session import Selection, run_corpus

PARALLEL = "feature:parallel"


class Terminal(io.StringIO):
    """What a terminal looks like to the progress display."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("stream", "environ", "expected"),
    [
        (Terminal(), {"TERM": "xterm"}, "bar"),
        (Terminal(), {"TERM": "xterm", "CI": "true"}, "plain"),
        (Terminal(), {"TERM": "dumb"}, "plain"),
        (io.StringIO(), {"TERM": "xterm"}, "plain"),
    ],
)
def test_auto_is_a_bar_only_on_an_interactive_terminal_outside_ci(
    stream: io.StringIO, environ: dict[str, str], expected: str
) -> None:
    assert resolve_mode("auto", stream, environ) == expected


def test_an_explicit_mode_wins() -> None:
    assert resolve_mode("off", Terminal(), {}) == "off"
    assert resolve_mode("bar", io.StringIO(), {"CI": "1"}) == "bar"


def _judge(progress: RunProgress, adapter_spec: str = "reference") -> None:
    corpus = load_corpus(bundled_corpus_root())
    with progress:
        run_corpus(
            corpus,
            load_adapter(adapter_spec),
            RunOptions(corpus=corpus),
            Selection.parse(PARALLEL),
            on_case=progress.case_finished,
            on_case_start=progress.case_started,
        )


def _parallel_case_count() -> int:
    selection = Selection.parse(PARALLEL)
    return sum(1 for case in load_corpus(bundled_corpus_root()) if selection.selects_case(case))


def test_the_bar_shows_the_count_the_outcomes_and_the_case_being_judged() -> None:
    total = _parallel_case_count()
    terminal = Terminal()
    progress = RunProgress("bar", total, terminal)
    shown: list[tuple[str, str]] = []
    original_started = progress.case_started

    def started(case: Case) -> None:
        original_started(case)
        shown.append((case.id, terminal.getvalue().rsplit("\r", 1)[-1]))

    progress.case_started = started  # type: ignore[method-assign]
    _judge(progress, "tests.reports.adapters:RenamesIds")
    screen = terminal.getvalue()
    assert f"{total}/{total}" in screen
    assert "fail" in screen  # the ids it renames break pairing
    # while a case runs, its id is on screen
    assert len(shown) == total
    assert all(case_id[-30:] in frame for case_id, frame in shown)  # long ids keep their end


def test_plain_lines_come_at_most_once_an_interval_and_not_at_the_end() -> None:
    clock = Clock()
    stream = io.StringIO()
    progress = RunProgress("plain", 3, stream, clock=clock, interval=30.0)
    corpus = list(load_corpus(bundled_corpus_root()))[:3]
    clock.now = 10.0
    progress.case_finished(corpus[0], [])
    assert stream.getvalue() == ""  # a short run prints nothing
    clock.now = 31.0
    progress.case_finished(corpus[1], [])
    assert stream.getvalue() == (
        f"toolwire run: 2/3 cases (66%) in 31 s; no failures; last {corpus[1].id}\n"
    )
    clock.now = 90.0
    progress.case_finished(corpus[2], [])
    assert stream.getvalue().count("\n") == 1  # the summary follows; no line for the last case


def test_off_writes_nothing() -> None:
    stream = Terminal()
    _judge(RunProgress("off", _parallel_case_count(), stream))
    assert stream.getvalue() == ""


def test_progress_never_reaches_stdout_so_the_json_stays_whole() -> None:
    result = CliRunner().invoke(
        cli, ["run", "--select", PARALLEL, "--format", "json", "--progress", "bar"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["totals"]["pass"] > 0
    # CliRunner's stderr is no terminal: click shows the label, never the bar
    assert "[" not in result.stderr


def test_an_unknown_progress_mode_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["run", "--progress", "fancy"])
    assert result.exit_code == 2
    assert "'fancy' is not one of" in result.output
