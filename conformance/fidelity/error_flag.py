"""fidelity.error_flag: a failed tool result stays marked as failed.

The error flag: a result is failed when ``is_error`` is true, or, in the
openai family that has no flag, when its content starts with ``Error:``
(docs/conventions.md); the marker itself is not part of the text.

Gemini results are JSON objects: the ``Error:`` text under a one-key
wrapper (``result``, ``content``...) says the failure too, as
conformance/readings/result_objects.py explains.

A converter's own marker around a failed result's text (a prefix line such
as ``[is_error=true]``, or ``<error>...</error>``: conventions.failure_marker)
marks it failed too, where the target has no flag; toward anthropic-messages,
which has ``is_error``, the marker alone leaves the flag lost, and the finding
names it.

Each source result is compared with the output's result for the same call,
paired by id (the adapter's declared id mapping applies), or by the call it
answers where the ids do not pair them (readings.views.result_keys).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.conformance.context import (
    ConversionCheck,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.fidelity.result_names import result_label
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import SHOULD_ON_OPENAI_FAMILY
from toolwire.conformance.readings.conventions import (
    failure_marker,
    result_is_error_by_convention,
    unwrapped,
)
from toolwire.conformance.readings.semantic import result_text
from toolwire.conformance.readings.views import ResultRef, pair_up, result_keys, result_refs
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI

ERROR_FLAG = rule(
    "fidelity.error_flag",
    "MUST",
    "conversion roundtrip",
    "A failed tool result stays marked as failed: is_error survives, or is carried "
    "by a documented convention where the target has no flag.",
    ANTHROPIC_TOOLS,
    # openai-family targets have no error field: the flag travels only by
    # toolwire's own convention (docs/conventions.md), so losing it there
    # is a SHOULD; where anthropic's documented is_error exists, a MUST.
    profile_levels=dict(SHOULD_ON_OPENAI_FAMILY),
    evidence=(means(ANTHROPIC_TOOLS, "is_error: true marks a tool_result whose execution failed"),),
    fix=(
        "Keep `is_error: true` where the target has it. Toward openai-chat, which has no "
        "flag, start the tool message with `Error:` (the convention below); from openai-chat, "
        "such a message may become `is_error: true`."
    ),
    convention=(
        "A failed tool result in openai-chat",
        "openai-chat has no error flag on a tool message; a leading `Error:` keeps the failure "
        "readable, and is accepted, never required at MUST.",
    ),
)


def check_error_flag(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
    through: tuple[str, ...] | None = None,
) -> list[Finding] | None:
    """``through``: the dialects the results went through (default: the
    output's). A successful result whose text itself starts with the marker
    cannot stay successful through a dialect without an error flag: the
    convention reads it as failed, and no converter can say otherwise.

    The convention is accepted, never required (docs/conventions.md): a
    converter that does not read "Error:" into ``is_error`` loses nothing the
    source carried, so only a flag the source really carried is judged lost
    (see ``_failure_still_said``)."""
    flagless = any(d != "anthropic-messages" for d in (through or (output.dialect,)))
    source_results = result_refs(source)
    if not source_results:
        return None
    output_results = result_refs(output)
    # By id, or by the call each answers where ids do not pair them (a Gemini
    # result without one, turns regrouped with new ids: readings.views.result_keys).
    pairs = pair_up(*result_keys(source, output, id_mapping))
    if not any(source_results[i].is_error or output_results[j].is_error for i, j in pairs):
        # No failed result on either side (or no result left in the output:
        # pairing.unanswered_call's): no flag was at stake, so no verdict.
        return None
    found = []
    for i, j in pairs:
        was, now = source_results[i].is_error, output_results[j].is_error
        if was == now:
            continue
        if (
            not was
            and flagless
            and result_is_error_by_convention(result_text(source_results[i].result))
        ):
            continue
        if was and _failure_still_said(
            source_results[i], output_results[j], through, output.dialect == GEMINI
        ):
            continue
        marker = _own_marker(output_results[j], output.dialect == GEMINI) if was else None
        if marker is not None and output.dialect != ANTHROPIC_MESSAGES:
            continue  # marked failed by the converter's own marker, where no flag exists
        ref = output_results[j]
        how = {
            ANTHROPIC_MESSAGES: "is_error: true",
            # FunctionResponse: "error" key to specify error details
            GEMINI: 'a response with an "error" key',
        }.get(output.dialect, "content starting 'Error:'")
        change = (
            f"failed in the source ({source_results[i].path}) but is not marked failed; "
            f"expected {how}"
            + (
                ""
                if marker is None
                else f" (its text carries {marker}, but the dialect has the flag itself)"
            )
            if was
            else f"did not fail in the source ({source_results[i].path}) but is marked failed"
        )
        found.append(
            finding(
                "fidelity.error_flag",
                f"{result_label(ref)} at {ref.path} {change}",
                ref.path,
                expected=was,
                actual=now,
            )
        )
    return found


def _failure_still_said(
    source: ResultRef, output: ResultRef, through: tuple[str, ...] | None, objects: bool = False
) -> bool:
    """Whether a failed result's output, unflagged, lost nothing the source carried.

    * The source had no flag (openai-chat, deepseek-chat): its failure was only
      the "Error:" text. An unflagged output that keeps that text says as much
      as the source did; one that also drops the text lost the failure.
    * A round trip through a dialect without a flag (``through``): the flag
      could only travel by the convention, whose forward leg is judged on its
      own conversion (a SHOULD where the target has no flag); the leg back not
      reading the marker loses nothing more.
    """
    if through is not None and any(d != "anthropic-messages" for d in through):
        return True
    if source.result.is_error is not None:
        return False  # a flag the source carried, lost where the target can carry it
    text = result_text(output.result)
    if objects:
        # A gemini result wrapping "Error: ..." under one key says it too.
        text = unwrapped(text)
    return result_is_error_by_convention(text)


def _own_marker(output: ResultRef, objects: bool) -> str | None:
    """The converter's own failure marker around the output's text
    (conventions.failure_marker: a prefix line, an ``<error>`` element), named
    for the verdict; None without one. Like the ``Error:`` marker it says the
    failure where the target has no flag; fidelity.text judges the text it marks."""
    text = result_text(output.result)
    if objects:
        text = unwrapped(text)
    found = failure_marker(text)
    return None if found is None else found[0]


def _error_flag_roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    # Through a dialect without an error flag, a successful "Error: ..." result
    # cannot come back successful (docs/conventions.md).
    return check_error_flag(roundtrip.original, roundtrip.returned, None, (roundtrip.via,))


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.error_flag": pairwise.conversion_with_ids(check_error_flag),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"fidelity.error_flag": _error_flag_roundtrip}
