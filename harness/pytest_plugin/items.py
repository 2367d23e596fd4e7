"""The pytest nodes: one collector for the corpus, one item per case.

An item is what collection can know without converting anything: a corpus
case, against the named adapter (``parallel/two-cities-openai[reference]``).
The rules a case exercises are known only once the adapter's output is
judged, so they are the item's checks, not items of their own. Running the
item judges its case; the item fails on any MUST failure, adapter error or
stale baseline entry, with toolwire's explanation of each (no traceback).
SHOULD verdicts pass the item: they are recorded on it (a report section and
``user_properties``, so JUnit XML carries them) and listed in the terminal
summary, never raised as Python warnings (``-W error`` must not turn advice
into failures); ``--toolwire-fail-on warn`` makes them fail it, as
``toolwire run --fail-on warn`` fails the run. docs/pytest-plugin.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from toolwire.harness.corpus.index import CaseEntry
    from toolwire.harness.engine.verdicts import Verdict
    from toolwire.harness.pytest_plugin.state import CaseRecord, Setup

# user_properties names (JUnit XML <property> elements)
PROPERTY_SHOULD = "toolwire_should"
PROPERTY_WORKER = "toolwire_worker"
# the title of the report section that explains them (-rA, -rP)
SECTION_SHOULD = "toolwire SHOULD verdicts"
# The session's Setup. The collector and its items look it up here rather than
# hold it, so that the plugin can let go of every case and verdict when the
# session ends (pytest_unconfigure), before pytest's closing garbage collections.
SETUP: pytest.StashKey[Setup] = pytest.StashKey()


class ToolwireFailure(Exception):
    """A case that fails; its text is toolwire's explanation of every failing verdict."""


class ToolwireCorpus(pytest.Collector):
    """The corpus, as one collector under the session: its items are its cases."""

    def collect(self) -> Iterator[ToolwireItem]:
        setup = self.config.stash[SETUP]
        adapter = setup.adapter.name
        index = 0
        for case in setup.corpus.entries:
            if case.is_negative:
                continue  # broken inputs for `toolwire lint`: nothing to convert
            name = f"{case.id}[{adapter}]"
            yield ToolwireItem.from_parent(self, name=name, nodeid=name, case=case, index=index)
            index += 1

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, self.name


class ToolwireItem(pytest.Item):
    def __init__(self, *, case: CaseEntry, index: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.index = index
        self.add_marker(pytest.mark.toolwire)
        # -k matches the dialect and the features too: -k "deepseek and streaming"
        self.extra_keyword_matches.update((case.dialect, *case.features))
        self.should_text = ""  # the SHOULD verdicts explained, for the call report
        self.record: CaseRecord | None = None  # once judged

    @property
    def setup_state(self) -> Setup:
        return self.config.stash[SETUP]

    def runtest(self) -> None:
        from toolwire.harness.errors import CorpusError

        setup = self.setup_state
        try:
            record = setup.judge(self.case.id, self.index)
        except CorpusError as error:
            # The case file (or a twin's) cannot be read: read whole only now.
            raise ToolwireFailure(f"the case cannot be read: {error}") from None
        self.record = record
        if setup.worker:
            self.user_properties.append((PROPERTY_WORKER, setup.worker))
        outcome, text = case_outcome(record.verdicts, setup.judged.fail_on)
        advice = [v for v in record.verdicts if v.outcome == "warn"]
        if advice:
            self.user_properties.extend(
                (PROPERTY_SHOULD, f"{v.rule_code}: {v.message}") for v in advice
            )
            self.should_text = _explained(advice)
        if outcome == "failed":
            raise ToolwireFailure(text)
        if outcome == "skipped":
            pytest.skip(text)
        if outcome == "xfailed":
            pytest.xfail(text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ToolwireFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Any, int, str]:
        # The case's own file: editors and CI annotations can open it.
        return self.case.source, 0, self.name


def case_outcome(verdicts: tuple[Verdict, ...], fail_on: str = "must") -> tuple[str, str]:
    """The item's outcome ("passed", "failed", "skipped", "xfailed") and its
    text; with ``fail_on`` "warn" a SHOULD verdict fails it too."""
    failing = [v for v in verdicts if v.is_failure or (fail_on == "warn" and v.outcome == "warn")]
    if failing:
        return "failed", _explained(failing)
    judged = [v for v in verdicts if v.outcome != "unsupported"]
    if not judged:
        unsupported = [v.message for v in verdicts]
        if unsupported:
            return "skipped", f"unsupported: {'; '.join(unsupported)}"
        return "skipped", "no rule applied to this case's conversions (nothing was judged)"
    baselined = [v for v in verdicts if v.outcome == "xfail"]
    if baselined:
        reasons = "; ".join(f"{v.rule_code}: {v.baseline_reason}" for v in baselined)
        return "xfailed", f"baselined: {reasons}"
    return "passed", ""


def _explained(verdicts: list[Verdict]) -> str:
    from toolwire.harness.engine.explain import explain

    return "\n\n".join(explain(v) for v in verdicts)
