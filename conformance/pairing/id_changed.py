"""pairing.id_changed: the ids of calls, and of the results that reference
them, survive a conversion and a round trip.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.pairing.applies import calls_with_paths
from toolwire.conformance.presets import ID_DIALECTS
from toolwire.conformance.readings.conventions import GEMINI_SIGNATURE_SEPARATOR
from toolwire.conformance.readings.paths import result_paths
from toolwire.conformance.readings.timeline import timeline_of
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import GEMINI, Conversation

ID_CHANGED = rule(
    "pairing.id_changed",
    # SHOULD (docs/levels.md): no API rejects ids renamed consistently, and
    # a rename that breaks the pairing is pairing.orphan_result's and
    # pairing.unanswered_call's, which are MUST.
    "SHOULD",
    "conversion roundtrip",
    "Conversion keeps every tool call id and the result that references it, "
    "or maps ids through one consistent, reversible mapping the adapter declares.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    dialects=ID_DIALECTS,
    fix=(
        "Keep tool call ids as they are. If the target needs another form, map each id "
        "through one reversible mapping, use it on the call and on its result, and declare it "
        "(the adapter's `id_mapping`, docs/adapters.md)."
    ),
)


def check_id_changed(conversion: ConversionUnderTest) -> list[Finding] | None:
    """Ids of calls (and the results that reference them) survive conversion.

    Ids are compared as collections, not by position: reordering calls or
    results changes no id (ordering.* judge order). An output call or result
    with no id at all is pairing.call_id_missing's to report, so an id it lost
    is not counted again here.
    """
    source = conversion.source.conversation or conversion.source.response
    output = conversion.output.conversation or conversion.output.response
    if source is None or output is None:
        return None
    # A Gemini thoughtSignature may ride in the id (docs/conventions.md,
    # "Ids and thought signatures"): the id is what comes before it.
    gemini = GEMINI in (conversion.source.dialect, conversion.output.dialect)
    source_calls = _ids([(call.id, path) for call, path in calls_with_paths(source)], gemini)
    if not any(call_id for call_id, _ in source_calls):
        return None  # Qwen XML calls carry no id: the output's ids are new, not changed
    mapping = conversion.id_mapping or {}
    if gemini:  # a declared mapping may carry the signature too
        mapping = {_base(k): _base(v) for k, v in mapping.items()}
    output_calls = _ids([(call.id, path) for call, path in calls_with_paths(output)], gemini)
    calls = _changed("call", source_calls, output_calls, mapping)
    results: list[Finding] = []
    output_ids = any(call_id for call_id, _ in output_calls)
    if isinstance(source, Conversation) and isinstance(output, Conversation):
        output_results = _ids(_result_refs(output), gemini)
        output_ids = output_ids or any(call_id for call_id, _ in output_results)
        results = _changed("result", _ids(_result_refs(source), gemini), output_results, mapping)
    # No id left in the output (calls lost, or their ids emptied: other rules'
    # findings): there was no id to compare, so no verdict.
    return _one_rewrite(calls, results, declared=bool(mapping)) if output_ids else None


def _one_rewrite(calls: list[Finding], results: list[Finding], declared: bool) -> list[Finding]:
    """A rename applied the same way to every call and to the results that
    reference it is one defect (an undeclared mapping), not one per id: a
    long conversation would otherwise give a hundred warnings for it."""
    renamed = {f.expected: f.actual for f in calls}
    consistent = len(renamed) == len(calls) and all(
        renamed.get(f.expected) == f.actual for f in results
    )
    if not consistent or len(calls) + len(results) < 2:
        return [*calls, *results]
    first = calls[0]
    references = f" and {_count(len(results), 'result reference')}" if results else ""
    return [
        finding(
            "pairing.id_changed",
            f"{_count(len(calls), 'call id')}{references} renamed the same way throughout, "
            f"first at {first.path}: {first.expected!r} became {first.actual!r}, "
            + (
                "which is not the id_mapping the adapter declares"
                if declared
                else "a mapping the adapter does not declare (its id_mapping)"
            ),
            first.path,
            expected=first.expected,
            actual=first.actual,
        )
    ]


def _ids(refs: list[tuple[str | None, str]], gemini: bool) -> list[tuple[str | None, str]]:
    """``refs`` with a signature carried after ``__thought__`` cut off (``gemini``)."""
    if not gemini:
        return refs
    return [(_base(i) if i else i, path) for i, path in refs]


def _base(call_id: str) -> str:
    """The id before a signature carried after ``__thought__``."""
    return call_id.partition(GEMINI_SIGNATURE_SEPARATOR)[0]


def _result_refs(conversation: Conversation) -> list[tuple[str | None, str]]:
    sites = timeline_of(conversation).results
    return [
        (site.result.call_id, path)
        for site, path in zip(sites, result_paths(conversation), strict=True)
    ]


def _changed(
    what: str,
    source: list[tuple[str | None, str]],
    output: list[tuple[str | None, str]],
    mapping: Mapping[str, str],
) -> list[Finding]:
    """Ids that were renamed: a source id gone from the output while an id the
    source never had appears. An id only added (an extra or repeated result) or
    only lost (a dropped result, an emptied id) is another rule's to report:
    pairing.orphan_result, .duplicate_result, .unanswered_call, .call_id_missing."""
    expected = list(dict.fromkeys(mapping.get(i, i) for i, _ in source if i))
    expected_ids = set(expected)
    present = {i for i, _ in output if i}
    missing = [i for i in expected if i not in present]
    if not missing:
        return []  # nothing renamed: the findings below pair each missing id
    unexpected: dict[str, str] = {}
    for output_id, path in output:
        if output_id and output_id not in expected_ids and output_id not in unexpected:
            unexpected[output_id] = path
    verb = "carries" if what == "call" else "references"
    return [
        finding(
            "pairing.id_changed",
            f"the {what} at {path} {verb} {output_id!r}; the source had {was!r} there",
            path,
            expected=was,
            actual=output_id,
        )
        for was, (output_id, path) in zip(missing, unexpected.items(), strict=False)
    ]


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def check_id_changed_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    """After A->B->A every id is the one A had: a mapping must be reversible."""
    return check_id_changed(
        ConversionUnderTest(source=roundtrip.original, output=roundtrip.returned)
    )


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"pairing.id_changed": check_id_changed}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"pairing.id_changed": check_id_changed_roundtrip}
