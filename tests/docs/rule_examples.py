"""Pick each rule's failing and passing example for its page.

    python -m tests.docs.rule_examples     # rewrites conformance/<family>/examples.json

The failing example is a real verdict: a negative corpus case that triggers
the rule (``toolwire lint`` on it), else the rule's broken adapter of the
self-test (tests/selftest/) on the first case it must show on. The passing
example is a case the reference adapter passes on that exercises the rule
(``tests.conformance.exercise.EXERCISES``): the source's part the rule
speaks of, and what the reference made of it. The generator of the pages
(``toolwire.conformance.pages``) only reads the files this writes, so it stays pure;
tests/docs/test_rule_pages.py checks the files equal what this picks now.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from tests.conformance.exercise import EXERCISES, view
from tests.docs.excerpts import Found, around, find_subject, render
from tests.selftest.broken import BROKEN_ADAPTERS
from toolwire.conformance.catalogue import FAMILIES, RULE_CODES
from toolwire.conformance.pages.rule_page import CONFORMANCE, examples_file
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.coverage import PassThrough, held_rules
from toolwire.harness.corpus.loader import Corpus, bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.session import run_corpus
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.lint.check import lint_text
from toolwire.harness.payloads import SourcePayload, case_payloads, events_to_wire
from toolwire.harness.sse import parse_sse

ROOT = Path(__file__).resolve().parents[2]
_WHERE = re.compile(r"^(request|response|stream) (\S+)->(\S+), interaction (\d+) \1(, and back)?$")
_LABEL = re.compile(r"interaction (\d+) (request|response|stream)$")
_FAMILIAR = ("openai-chat", "anthropic-messages")
MAX_PASSING_CANDIDATES = 200


def pick_all(corpus: Corpus) -> dict[str, Any]:
    reference = check_adapter(ReferenceAdapter(), "reference")
    verdicts = run_corpus(corpus, reference, RunOptions(corpus=corpus)).verdicts
    return {
        code: {"failing": failing(code, corpus), "passing": passing(code, corpus, verdicts)}
        for code in RULE_CODES
    }


# --- failing ------------------------------------------------------------------


def failing(code: str, corpus: Corpus) -> dict[str, Any] | None:
    negatives = sorted(
        (case for case in corpus if code in case.expect.violations),
        key=lambda case: (len(case.expect.violations), len(case.id), case.id),
    )
    for case in negatives:
        found = _from_negative(code, case)
        if found is not None:
            return found
    for adapter in sorted(BROKEN_ADAPTERS, key=lambda adapter: adapter.name):
        if adapter.breaks == code:
            found = _from_broken(code, adapter(), corpus)
            if found is not None:
                return found
    return None


def _from_negative(code: str, case: Case) -> dict[str, Any] | None:
    text = case.source.read_text(encoding="utf-8")
    for violation in lint_text(text, case.source.name):
        if violation.code != code:
            continue
        match = _LABEL.search(violation.source)
        if match:
            payload = _raw(case, int(match.group(1)), match.group(2))
            where = f"interaction {match.group(1)} {match.group(2)}"
        else:  # a replay rule: judged across the conversation, the last request shown
            payload = case.interactions[-1].request_json()
            where = f"interaction {len(case.interactions)} request"
        excerpt = around(payload, violation.path)
        return {
            "from": "corpus",
            "case": case.id,
            "file": _file(case),
            "description": case.description,
            "provenance": case.provenance.url,
            "level": violation.level,
            "where": where,
            "path": violation.path,
            "message": violation.message,
            **_excerpt("excerpt", excerpt),
        }
    return None


def _file(case: Case) -> str:
    """The case's file, relative to the repository (where the pages link it)."""
    return case.source.resolve().relative_to(ROOT).as_posix()


def _raw(case: Case, interaction: int, kind: str) -> Any:
    recorded = case.interactions[interaction - 1]
    if kind == "request":
        return recorded.request_json()
    if kind == "stream":
        return events_to_wire(recorded.response_events())
    return recorded.response_json()


def _from_broken(code: str, adapter: Any, corpus: Corpus) -> dict[str, Any] | None:
    loaded = check_adapter(adapter, adapter.name)
    for case_id in adapter.shows_on:
        case = corpus.get(case_id)
        if case is None:  # a test-local case (tests/selftest/patched_corpus.py)
            continue
        options = RunOptions(corpus=corpus, profiles=dict(adapter.profiles))
        for verdict in run_case(case, loaded, options):
            if verdict.rule_code != code or verdict.outcome not in ("fail", "warn"):
                continue
            finding = verdict.findings[0]
            output = _converted(adapter, case, finding.where)
            return {
                "from": "adapter",
                "adapter": adapter.name,
                "defect": adapter.defect,
                "case": case.id,
                "file": _file(case),
                "level": verdict.level,
                "where": finding.where,
                "path": finding.path,
                "message": finding.message,
                "diff": finding.diff,
                **_excerpt("excerpt", around(output, finding.path) if output else None),
            }
    return None


def _converted(adapter: Any, case: Case, where: str) -> Any:
    """What ``adapter`` made of the payload ``where`` names (None for a round trip)."""
    match = _WHERE.match(where)
    if match is None or match.group(5):
        return None
    kind, source, target, interaction, _ = match.groups()
    payload = _source_payload(case, kind, int(interaction))
    if payload is None:
        return None
    output = adapter.convert(payload.raw, kind, source, target, payload.request_raw)
    return events_to_wire(parse_sse(output)) if isinstance(output, str) else output


def _source_payload(case: Case, kind: str, interaction: int) -> SourcePayload | None:
    for payload in case_payloads(case, kind):  # type: ignore[arg-type]
        if payload.interaction == interaction - 1:
            return payload
    return None


# --- passing ------------------------------------------------------------------


def passing(code: str, corpus: Corpus, verdicts: Sequence[Verdict]) -> dict[str, Any] | None:
    chosen: tuple[tuple[bool, bool, int, str, str], dict[str, Any]] | None = None
    candidates = sorted(
        {v.case_id: v for v in verdicts if v.rule_code == code and v.outcome == "pass"}.values(),
        key=lambda v: (v.case_id.startswith("edge/"), v.case_id),
    )
    tried = 0
    for verdict in candidates:
        case = corpus.get(verdict.case_id)
        if case is None or case.is_negative or not EXERCISES[code](view(case)):
            continue
        tried += 1
        for direction in _directions(verdict.directions):
            found = _passing_on(code, case, direction)
            if found is None:
                continue
            size = len(found["source"].splitlines()) + len(found.get("output", "").splitlines())
            # edge/ cases are odd on purpose (no arguments, 60 turns): the last choice.
            familiar = _order(direction)[0] == 0
            key = (case.id.startswith("edge/"), not familiar, size, case.id, direction)
            if chosen is None or key < chosen[0]:
                chosen = (key, found)
            break
        if tried >= MAX_PASSING_CANDIDATES:
            break
    return chosen[1] if chosen else _held_on_own_payloads(code, corpus)


def _held_on_own_payloads(code: str, corpus: Corpus) -> dict[str, Any] | None:
    """A rule the reference run never judges (a legacy profile, a replay, a
    signature no conversion keeps): a case whose own payloads hold it, as
    `toolwire lint` or a faithful pass-through proxy judges them."""
    pass_through = check_adapter(PassThrough(), PassThrough.name)
    for case in sorted(corpus, key=lambda case: (case.id.startswith("edge/"), case.id)):
        if case.is_negative or not EXERCISES[code](view(case)):
            continue
        held, _ = held_rules(case, corpus, [pass_through])
        if code not in held:
            continue
        for kind in case.payload_kinds:
            for payload in case_payloads(case, kind):
                found = find_subject(code, payload.raw)
                if found is not None:
                    return {
                        "case": case.id,
                        "file": _file(case),
                        "description": case.description,
                        "direction": f"{payload.label}, as recorded",
                        **_excerpt("source", found),
                    }
    return None


def _order(direction: str) -> tuple[int, str]:
    """openai-chat <-> anthropic-messages first: the pair most readers know."""
    match = _WHERE.match(direction)
    familiar = bool(match) and {match.group(2), match.group(3)} <= set(_FAMILIAR)
    return (0 if familiar else 1 if match else 2, direction)


def _directions(directions: Iterable[str]) -> list[str]:
    return sorted(directions, key=_order)[:6]


def _passing_on(code: str, case: Case, direction: str) -> dict[str, Any] | None:
    match = _WHERE.match(direction)
    if match is None:
        return None
    kind, source, target, interaction, back = match.groups()
    payload = _source_payload(case, kind, int(interaction))
    if payload is None:
        return None
    before = find_subject(code, payload.raw)
    if before is None:
        return None
    reference = ReferenceAdapter()
    output = reference.convert(payload.raw, kind, source, target, payload.request_raw)
    if back:
        output = reference.convert(output, kind, target, source, None)
    if isinstance(output, str):
        output = events_to_wire(parse_sse(output))
    after = find_subject(code, output)
    return {
        "case": case.id,
        "file": _file(case),
        "description": case.description,
        "direction": direction,
        **_excerpt("source", before),
        **({} if after is None else _excerpt("output", after)),
    }


def _excerpt(name: str, found: Found) -> dict[str, str]:
    if found is None:
        return {}
    path, value = found
    return {f"{name}_path": path, name: render(value)}


def dump(examples: dict[str, Any], root: Path = CONFORMANCE) -> dict[Path, str]:
    """The text of each family's examples file (``conformance/<family>/examples.json``)."""
    return {
        examples_file(family, root): json.dumps(
            {code: examples[code] for code in examples if code.startswith(f"{family}.")},
            indent=1,
            ensure_ascii=False,
            sort_keys=True,
        )
        + "\n"
        for family in FAMILIES
    }


def main(argv: list[str]) -> None:
    root = Path(argv[0]) if argv else CONFORMANCE
    for path, text in dump(pick_all(load_corpus(bundled_corpus_root())), root).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
