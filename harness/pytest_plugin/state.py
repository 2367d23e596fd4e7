"""What a pytest session knows of its toolwire run.

``Setup`` is made at collection from the options: the corpus (read whole in
a serial session; an index of the cases' ``toolwire:`` blocks in an xdist
worker, which reads a case whole when it judges it), the adapter, the
baseline. Nothing is converted then: a case is judged when its item runs
(``Setup.judge``), once, in the process that runs the item, so under xdist a
worker judges only the cases of its own items.

``Judged`` is what the items produced: one ``CaseRecord`` per judged case.
An xdist worker sends each record to the controller as JSON with its item's
report (``record_to_json``), and its header facts when it ends
(``Judged.to_json``); the controller merges them (``Judged.merge``) and alone
writes ``results.json``, its verdicts in collection order: the document of a
serial session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from toolwire.harness.adapters.base import LoadedAdapter
    from toolwire.harness.baseline.entries import BaselineEntry
    from toolwire.harness.corpus.index import IndexedCorpus
    from toolwire.harness.engine.options import RunOptions
    from toolwire.harness.engine.verdicts import Verdict


@dataclass(frozen=True)
class CaseRecord:
    index: int  # the item's place in collection order
    case_id: str
    features: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    worker: str  # the xdist worker that judged it ("" without xdist)
    # Pass verdicts an xdist worker counted but did not send: without
    # results.json the controller needs only their number (record_to_json).
    passes_not_sent: int = 0


@dataclass
class Judged:
    """Every case judged so far, with the run's header facts."""

    spec: str
    adapter_name: str
    adapter_version: str
    corpus_root: str
    started: str = field(default_factory=lambda: datetime.now(UTC).isoformat())
    records: dict[str, CaseRecord] = field(default_factory=dict)
    # dialect -> profile named by --toolwire-profile; what fails a case
    profiles: dict[str, str] = field(default_factory=dict)
    fail_on: str = "must"

    def add(self, record: CaseRecord) -> None:
        self.records[record.case_id] = record

    def verdicts(self) -> list[Verdict]:
        """The verdicts received: under xdist without results.json, all but the passes."""
        return [v for record in self.ordered() for v in record.verdicts]

    def outcome_counts(self) -> dict[str, int]:
        """Verdicts by outcome, in OUTCOMES order, passes not sent included."""
        from toolwire.harness.engine.verdicts import outcome_totals

        counts = outcome_totals(v for record in self.records.values() for v in record.verdicts)
        counts["pass"] += sum(record.passes_not_sent for record in self.records.values())
        return counts

    def ordered(self) -> list[CaseRecord]:
        return sorted(self.records.values(), key=lambda record: record.index)

    def broken(self) -> str | None:
        return _broken(len(self.records), tuple(self.verdicts()))

    # --- between processes ----------------------------------------------------

    def to_json(self, records: bool = True) -> str:
        """The header facts, and the records unless ``records`` is false (an
        xdist worker sends each record with its item's report instead)."""
        return json.dumps(
            {
                "spec": self.spec,
                "adapter": [self.adapter_name, self.adapter_version],
                "corpus": self.corpus_root,
                "started": self.started,
                "profiles": self.profiles,
                "fail_on": self.fail_on,
                "records": [record_to_json(r) for r in self.records.values()] if records else [],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Judged:
        data = json.loads(text)
        name, version = data["adapter"]
        judged = cls(
            data["spec"],
            name,
            version,
            data["corpus"],
            data["started"],
            profiles=data.get("profiles", {}),
            fail_on=data.get("fail_on", "must"),
        )
        for record in data["records"]:
            judged.add(_record_from_data(record))
        return judged

    def merge(self, other: Judged) -> None:
        self.started = min(self.started, other.started)
        self.records.update(other.records)

    # --- the results document ---------------------------------------------------

    def document(self) -> dict[str, Any]:
        from toolwire.harness.adapters.base import LoadedAdapter
        from toolwire.harness.engine.session import RunResult
        from toolwire.harness.gate import gated_exit_code
        from toolwire.harness.results.document import results_document

        records = self.ordered()
        if any(record.passes_not_sent for record in records):
            raise ValueError(
                "results.json needs every verdict, but the xdist workers sent only the "
                "verdicts that did not pass (they do so when no report folder is set)"
            )
        verdicts = tuple(self.verdicts())
        # results_document reads the adapter's spec, name and version only:
        # the controller of an xdist session never loads the adapter.
        adapter = LoadedAdapter(
            self.spec,
            self.adapter_name,
            self.adapter_version,
            frozenset(),
            cast(Any, None),
        )
        result = RunResult(
            adapter=adapter,
            corpus_root=self.corpus_root,
            cases=tuple(record.case_id for record in records),
            verdicts=verdicts,
            started=datetime.fromisoformat(self.started),
            finished=datetime.now(UTC),
            broken=_broken(len(records), verdicts),
            profiles=dict(self.profiles),
            case_features={record.case_id: record.features for record in records},
        )
        document = results_document(result)
        outcomes = (v.outcome for v in verdicts)
        document["exit_code"] = gated_exit_code(result.exit_code, outcomes, self.fail_on)
        return document


def record_to_json(record: CaseRecord, passes: bool = True) -> list[Any]:
    """One judged case as JSON values (what an xdist worker sends the controller).

    Without ``passes`` its pass verdicts are only counted. They are nearly all
    of a run's verdicts, and a controller that writes no results.json only
    counts them: decoding them all took it about 0.1 s of the two cores its
    workers judge on (docs/performance.md)."""
    sent = record.verdicts if passes else [v for v in record.verdicts if v.outcome != "pass"]
    not_sent = record.passes_not_sent + len(record.verdicts) - len(sent)
    verdicts = [_dump(v) for v in sent]
    return [record.index, record.case_id, list(record.features), record.worker, verdicts, not_sent]


def record_from_json(text: str) -> CaseRecord:
    return _record_from_data(json.loads(text))


def _record_from_data(data: list[Any]) -> CaseRecord:
    index, case_id, features, worker, verdicts, not_sent = data
    return CaseRecord(
        index, case_id, tuple(features), tuple(map(_load, verdicts)), worker, not_sent
    )


def prepare_document() -> None:
    """Import the modules ``Judged.document`` uses."""
    import toolwire.harness.adapters.base
    import toolwire.harness.engine.session
    import toolwire.harness.results.document  # noqa: F401


def _broken(cases: int, verdicts: tuple[Verdict, ...]) -> str | None:
    """As ``toolwire run`` says it: every judged case errored."""
    from toolwire.harness.engine.verdicts import CONVERT

    errored = {v.case_id: v.message for v in verdicts if v.rule_code == CONVERT}
    if not cases or len(errored) < cases:
        return None
    first = next(iter(errored.values()))
    return f"the adapter failed on every case ({cases}); first error: {first}"


def _dump(verdict: Verdict) -> list[Any]:
    return [
        verdict.case_id,
        verdict.rule_code,
        verdict.adapter,
        verdict.outcome,
        verdict.level,
        verdict.profile,
        verdict.message,
        [[f.where, f.message, f.path, f.diff] for f in verdict.findings],
        list(verdict.directions),
        verdict.baseline_reason,
    ]


def _load(data: list[Any]) -> Verdict:
    from toolwire.harness.engine.verdicts import Located, Verdict

    case_id, code, adapter, outcome, level, profile, message, found, directions, reason = data
    return Verdict(
        case_id,
        code,
        adapter,
        outcome,
        level,
        profile,
        message,
        tuple(Located(*item) for item in found),
        tuple(directions),
        reason,
    )


@dataclass
class Setup:
    """The corpus index, adapter and baseline of the session, read at
    collection; a case is read in full when its item runs (or as a twin)."""

    corpus: IndexedCorpus
    adapter: LoadedAdapter
    options: RunOptions
    baseline: dict[str, list[BaselineEntry]]  # case id -> its entries
    judged: Judged
    worker: str = ""

    def judge(self, case_id: str, index: int) -> CaseRecord:
        """Run the adapter over one case and judge it (once per session).
        A case file that cannot be read raises CorpusError."""
        from toolwire.harness.baseline.entries import apply_baseline
        from toolwire.harness.engine.runner import run_case

        found = self.judged.records.get(case_id)
        if found is not None:
            return found
        case = self.corpus[case_id]
        for twin_id in case.twins.values():
            # Read now, so that a twin's unreadable file is this error, not
            # a failure inside the judging (which `toolwire run` never meets:
            # it reads every file first).
            self.corpus.get(twin_id)
        verdicts = run_case(case, self.adapter, self.options)
        entries = self.baseline.get(case.id, ())
        if entries:
            verdicts = apply_baseline(verdicts, entries, (case.id,))
        record = CaseRecord(index, case.id, case.features, tuple(verdicts), self.worker)
        self.judged.add(record)
        return record


def read_setup(
    spec: str,
    corpus_path: str | None,
    baseline_path: str | None,
    timeout: float | None,
    worker: str,
    profiles: tuple[str, ...] = (),
    fail_on: str = "must",
) -> Setup:
    """Load what a session needs; a ToolwireError says what is wrong.

    A serial session reads every case file whole, as `toolwire run` does
    (it judges them all). An xdist worker (``worker`` set) reads only the
    index: each case is read whole when the worker judges it, so the two
    workers do not both parse the whole corpus."""
    from toolwire.harness.adapters.loader import load_adapter
    from toolwire.harness.baseline.entries import load_baseline
    from toolwire.harness.cli.options import parse_profiles
    from toolwire.harness.corpus.index import IndexedCorpus, read_index
    from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
    from toolwire.harness.engine.options import DEFAULT_TIMEOUT, RunOptions

    chosen = parse_profiles(profiles)  # a wrong pair is refused before anything loads
    root = Path(corpus_path) if corpus_path else bundled_corpus_root()
    corpus = read_index(root) if worker else IndexedCorpus.of_cases(root, load_corpus(root))
    adapter = load_adapter(spec)
    entries = load_baseline(Path(baseline_path), corpus.ids) if baseline_path else []
    baseline: dict[str, list[BaselineEntry]] = {}
    for entry in entries:
        baseline.setdefault(entry.case_id, []).append(entry)
    options = RunOptions(timeout=timeout or DEFAULT_TIMEOUT, profiles=chosen, corpus=corpus)
    judged = Judged(
        adapter.spec,
        adapter.name,
        adapter.version,
        str(corpus.root),
        profiles=chosen,
        fail_on=fail_on,
    )
    return Setup(corpus, adapter, options, baseline, judged, worker)
