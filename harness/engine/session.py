"""A conformance run over a corpus: selection, baseline, broken-adapter detection.

With ``jobs`` above 1 the cases run in worker processes (toolwire.harness.engine.workers);
the verdicts and their order are those of a serial run.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.baseline.entries import BaselineEntry, apply_baseline
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import Corpus
from toolwire.harness.corpus.vocabulary import FEATURES
from toolwire.harness.engine.gc_threshold import fewer_gc_passes
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import CONVERT, UNSUPPORTED, Verdict, outcome_totals
from toolwire.harness.engine.workers import WorkerSetup, run_in_workers
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import DIALECTS


class SelectionError(ToolwireError):
    exit_code = 2


@dataclass(frozen=True)
class Selection:
    """``--select``: comma-separated terms; a case is selected when any term
    matches. ``feature:X``, ``dialect:X``, ``rule:GLOB`` (keeps only those
    rules' verdicts) or a glob on the case id."""

    case_terms: tuple[str, ...] = ()
    rule_globs: tuple[str, ...] = ()

    @classmethod
    def parse(cls, expression: str | None) -> Selection:
        if not expression:
            return cls()
        case_terms, rule_globs = [], []
        for term in (t.strip() for t in expression.split(",")):
            if not term:
                continue
            if term.startswith("rule:"):
                rule_globs.append(term[5:])
            elif ":" in term and term.split(":", 1)[0] not in ("feature", "dialect"):
                raise SelectionError(
                    f"unknown selection term {term!r}",
                    hint="use feature:NAME, dialect:NAME, rule:GLOB or a glob on case ids",
                )
            else:
                _check_named_term(term)
                case_terms.append(term)
        for pattern in rule_globs:
            _check_rule_glob(pattern)
        return cls(tuple(case_terms), tuple(rule_globs))

    def selects_case(self, case: Case) -> bool:
        if not self.case_terms:
            return True
        for term in self.case_terms:
            kind, _, value = term.partition(":")
            if kind == "feature" and value in case.features:
                return True
            if kind == "dialect" and value == case.dialect:
                return True
            if ":" not in term and fnmatch.fnmatchcase(case.id, term):
                return True
        return False

    def selects_rule(self, code: str) -> bool:
        if not self.rule_globs or code == CONVERT:
            return True
        return any(fnmatch.fnmatchcase(code, pattern) for pattern in self.rule_globs)


def _check_rule_glob(pattern: str) -> None:
    """``rule:GLOB`` must name at least one rule: one that names none would
    keep no verdict, and a run judging nothing must not read as a pass."""
    from toolwire.conformance.catalogue import RULES_BY_CODE
    from toolwire.harness.corpus.vocabulary import closest
    from toolwire.harness.rule_links import rules_index_url

    if any(fnmatch.fnmatchcase(code, pattern) for code in RULES_BY_CODE):
        return
    near = closest(pattern, RULES_BY_CODE, count=3) if pattern else []
    raise SelectionError(
        f"rule:{pattern} matches no rule",
        hint=(f"did you mean: {', '.join(near)}? " if near else "")
        + f"rule codes look like schema.request or pairing.*: see {rules_index_url()}",
    )


@dataclass(frozen=True)
class RunResult:
    adapter: LoadedAdapter
    corpus_root: str
    cases: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    started: datetime
    finished: datetime
    broken: str | None = None
    profiles: dict[str, str] = field(default_factory=dict)
    # case id -> the case's features, for the results' totals by feature
    case_features: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def totals(self) -> dict[str, int]:
        return outcome_totals(self.verdicts)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 a MUST failed or a baseline entry is stale, 3 the adapter broke."""
        totals = self.totals
        if self.broken or totals["error"]:
            return 3
        if totals["fail"] or totals["stale"]:
            return 1
        return 0


def run_corpus(
    corpus: Corpus,
    adapter: LoadedAdapter,
    options: RunOptions,
    selection: Selection | None = None,
    baseline: Sequence[BaselineEntry] = (),
    on_case: Callable[[Case, list[Verdict]], None] | None = None,
    jobs: int = 1,
    on_case_start: Callable[[Case], None] | None = None,
) -> RunResult:
    """Judge the selected cases. ``on_case_start`` / ``on_case`` are told of
    each case before and after it is judged (progress display); with worker
    processes, ``on_case_start`` hears of a case as a worker is given it, so
    several cases may be in flight."""
    selection = selection or Selection()
    started = datetime.now(UTC)
    cases = [case for case in corpus if selection.selects_case(case)]
    if not cases:
        raise SelectionError(
            "the selection matches no case", hint="`toolwire corpus list` shows ids"
        )
    verdicts: list[Verdict] = []
    with fewer_gc_passes():
        judged_cases = _judge_cases(corpus, cases, adapter, options, jobs, on_case_start)
        for case, judged_verdicts in judged_cases:
            case_verdicts = [v for v in judged_verdicts if selection.selects_rule(v.rule_code)]
            verdicts.extend(case_verdicts)
            if on_case is not None:
                on_case(case, case_verdicts)
    judged = [case for case in cases if not case.is_negative]
    _check_rules_judged(selection, verdicts)
    verdicts = apply_baseline(verdicts, baseline, (case.id for case in judged))
    return RunResult(
        adapter=adapter,
        corpus_root=str(corpus.root),
        cases=tuple(case.id for case in cases),
        verdicts=tuple(verdicts),
        started=started,
        finished=datetime.now(UTC),
        broken=_broken(judged, verdicts),
        profiles=dict(options.profiles),
        case_features={case.id: case.features for case in cases},
    )


def _check_rules_judged(selection: Selection, verdicts: Sequence[Verdict]) -> None:
    """With ``rule:`` terms, a run where no selected rule was judged (and
    nothing broke) would say PASS about nothing: a usage error instead."""
    if not selection.rule_globs:
        return
    if any(v.rule_code not in (CONVERT, UNSUPPORTED) or v.outcome == "error" for v in verdicts):
        return
    terms = ", ".join(f"rule:{pattern}" for pattern in selection.rule_globs)
    raise SelectionError(
        f"{terms} judged nothing: no selected case exercises those rules",
        hint="select cases of the dialects and features the rules apply to",
    )


def _judge_cases(
    corpus: Corpus,
    cases: list[Case],
    adapter: LoadedAdapter,
    options: RunOptions,
    jobs: int,
    on_case_start: Callable[[Case], None] | None,
) -> Iterator[tuple[Case, list[Verdict]]]:
    """Each case with its verdicts, in order: here, or in ``jobs`` worker processes."""
    # A proxy (the exchange capability) is one process that answers one
    # exchange at a time: it runs here whatever ``jobs`` says.
    if jobs < 2 or len(cases) < 2 or hasattr(adapter.implementation, "exchange"):
        for case in cases:
            if on_case_start is not None:
                on_case_start(case)
            yield case, run_case(case, adapter, options)
        return
    setup = WorkerSetup(adapter.spec, adapter.name, str(corpus.root), options)
    by_id = {case.id: case for case in cases}

    def sent(case_id: str) -> None:
        if on_case_start is not None:
            on_case_start(by_id[case_id])

    for case_id, verdicts in run_in_workers(setup, list(by_id), jobs, on_sent=sent, corpus=corpus):
        yield by_id[case_id], verdicts


def _broken(cases: Sequence[Case], verdicts: Sequence[Verdict]) -> str | None:
    """One line when every case errored: the adapter is broken, not the cases."""
    errored = {v.case_id: v.message for v in verdicts if v.rule_code == CONVERT}
    if not cases or len(errored) < len(cases):
        return None
    first = next(iter(errored.values()))
    return f"the adapter failed on every case ({len(cases)}); first error: {first}"


def _check_named_term(term: str) -> None:
    """``dialect:X`` and ``feature:X`` name a known dialect or feature: a typo
    would otherwise select nothing, or silently less than meant."""
    kind, _, value = term.partition(":")
    names = {"dialect": DIALECTS, "feature": FEATURES}.get(kind)
    if names is None or value in names:
        return
    close = difflib.get_close_matches(value, names, n=1)
    suggestion = f"did you mean {kind}:{close[0]}? " if close else ""
    raise SelectionError(
        f"unknown {kind} {value!r} in --select {term!r}",
        hint=f"{suggestion}{kind}s: {', '.join(names)}",
    )
