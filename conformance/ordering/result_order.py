"""ordering.result_order: a conversion keeps the order of the tool results.

The rule judges what the converter did, not what the client sent: a client
may send the results of parallel calls in the order they finished (the
corpus cases ``parallel/results-out-of-order-*``), every API accepts that,
and a converter that keeps the client's order has changed nothing. So the
rule compares, per assistant turn of calls, the order of the results that
answer it in the output with their order in the source:

* the same order as the source: held;
* the order of the calls, where the source had them in another order: held
  too (the converter put them back into call order, which is what the
  providers' examples show);
* any other order: a finding (SHOULD: no API refuses results out of order).

A turn gives no verdict where there is nothing to compare: fewer than two
of its results reach both sides, or two results that the source sent out of
call order (the output can then only keep them or put them in call order,
both held, so a pass would say nothing). The output's order is read only
where its results name their calls by id: where results answer by position
(qwen-xml markup carries no call ids) or by name (Gemini results without an
id), the output cannot say another order than the calls', and pairing the
wrong result with a call is ``fidelity.*``'s to judge.

Turns and calls of the two sides are paired by call id (through the
adapter's declared mapping), by position where ids are missing (as
``ordering.parallel_calls_split`` does); a source turn whose calls are split
over several output turns, or lost, is left to the rules that say so.

The rule has no payload scope: a payload on its own (``toolwire lint``, or an
adapter's output read alone) shows the order a client chose, not a change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolwire.conformance.context import (
    ConversionCheck,
    ConversionUnderTest,
    PayloadUnderTest,
    RoundTripCheck,
    RoundTripUnderTest,
)
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.ordering.applies import answers, result_path
from toolwire.conformance.readings.gemini_pairs import answered_calls
from toolwire.conformance.readings.paths import turn_path
from toolwire.conformance.readings.timeline import CallSite, CallTurn, ResultSite, timeline_of
from toolwire.conformance.readings.views import pair_up
from toolwire.conformance.rule import rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS
from toolwire.harness.model import GEMINI, Conversation, ToolCall

RESULT_ORDER = rule(
    "ordering.result_order",
    "SHOULD",
    "conversion roundtrip",
    "A conversion keeps the order of the tool results that answer one assistant turn, "
    "or puts them in the order of the calls they answer; it does not reorder them otherwise.",
    ANTHROPIC_TOOLS,
    OPENAI_TOOLS,
    fix=(
        "Write each turn's results in the order the source gave them (or in the order of the "
        "calls they answer: the order of `tool_calls` or of the tool_use blocks); do not "
        "sort, group or reverse them any other way."
    ),
)


@dataclass(frozen=True)
class _Answers:
    """The results that answer one call turn, in wire order, each with the
    number (in the conversation's timeline) of the call it answers."""

    calls: tuple[int, ...]
    sites: tuple[ResultSite, ...]
    by_id: bool  # every result names its call by id


def _answers(conversation: Conversation, call_turn: CallTurn) -> _Answers:
    timeline = timeline_of(conversation)
    number = {(c.turn_index, c.block_index): n for n, c in enumerate(timeline.calls)}
    offered = [site.call.id for site in call_turn.calls]
    if conversation.dialect == GEMINI:
        # By id where the result has one, else by name and order (gemini_pairs).
        answered = answered_calls(conversation)
        calls: list[int] = []
        sites: list[ResultSite] = []
        for index in call_turn.window:
            for site in timeline.results_by_turn.get(index, ()):
                call = answered.get((site.turn_index, site.block_index))
                if call is None or call not in call_turn.calls:
                    continue
                n = number[(call.turn_index, call.block_index)]
                if n not in calls:
                    calls.append(n)
                    sites.append(site)
        by_id = all(site.result.call_id for site in sites)
        return _Answers(tuple(calls), tuple(sites), by_id)
    if all(offered) and len(set(offered)) == len(offered):
        by_call = {site.call.id: site for site in call_turn.calls}
        found = answers(conversation, call_turn)
        return _Answers(
            tuple(number[_place(by_call[s.result.call_id])] for s in found), tuple(found), True
        )
    if any(offered):
        # Some ids missing or repeated (pairing.* say so): no order to read.
        return _Answers((), (), False)
    # No call ids at all (qwen-xml markup): the n-th result answers the n-th call.
    window = [s for index in call_turn.window for s in timeline.results_by_turn.get(index, ())]
    pairs = list(zip(call_turn.calls, window, strict=False))
    return _Answers(tuple(number[_place(c)] for c, _ in pairs), tuple(s for _, s in pairs), False)


def _place(site: CallSite) -> tuple[int, int]:
    return (site.turn_index, site.block_index)


def _same_id(source: ToolCall, output: ToolCall, mapping: Mapping[str, str] | None) -> bool:
    if not source.id:
        return False
    expected = mapping.get(source.id, source.id) if mapping else source.id
    return expected == output.id


def _label(conversation: Conversation, n: int) -> str:
    call = timeline_of(conversation).calls[n].call
    return call.id or f"call #{n + 1} ({call.name})"


def check_result_order(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
) -> list[Finding] | None:
    """Compare the order of each call turn's results in ``output`` with ``source``."""
    source_talk, output_talk = source.conversation, output.conversation
    if source_talk is None or output_talk is None:
        return None  # a response holds no results
    source_timeline, output_timeline = timeline_of(source_talk), timeline_of(output_talk)
    if not source_timeline.results or not output_timeline.results:
        return None
    source_calls = [site.call for site in source_timeline.calls]
    output_calls = [site.call for site in output_timeline.calls]
    pairs = pair_up([c.id for c in source_calls], [c.id for c in output_calls], id_mapping)
    if len(source_calls) != len(output_calls):
        # Calls lost or added (other rules' findings): trust only pairs by id.
        pairs = [(i, j) for i, j in pairs if _same_id(source_calls[i], output_calls[j], id_mapping)]
    to_output = dict(pairs)
    to_source = {j: i for i, j in pairs}
    output_number = {_place(c): n for n, c in enumerate(output_timeline.calls)}
    output_turn_of = {
        output_number[_place(c)]: turn for turn in output_timeline.call_turns for c in turn.calls
    }
    judged = False
    found: list[Finding] = []
    for call_turn in source_timeline.call_turns:
        given = _answers(source_talk, call_turn).calls
        if len(given) < 2 or any(n not in to_output for n in given):
            continue
        landed = [output_turn_of.get(to_output[n]) for n in given]
        output_turn = landed[0]
        if output_turn is None or any(
            turn is None or turn.turn_index != output_turn.turn_index for turn in landed
        ):
            continue  # calls lost or split: ordering.parallel_calls_split, pairing.*
        sent = _answers(output_talk, output_turn)
        if not sent.by_id:
            continue  # results by position or name: their order is the calls' order
        kept = set(given)
        got = [(to_source[j], site) for j, site in zip(sent.calls, sent.sites, strict=True)]
        got = [(n, site) for n, site in got if n in kept]
        common = {n for n, _ in got}
        source_order = [n for n in given if n in common]
        if len(source_order) < 2:
            continue  # results lost: fidelity and pairing rules say so
        call_order = sorted(source_order)
        if source_order != call_order and len(source_order) == 2:
            continue  # either order of two is held: nothing judged
        judged = True
        output_order = [n for n, _ in got]
        if output_order in (source_order, call_order):
            continue
        wrong = next(
            k for k, (a, b) in enumerate(zip(output_order, source_order, strict=True)) if a != b
        )
        path = result_path(output_talk, got[wrong][1])
        expected = [_label(output_talk, to_output[n]) for n in source_order]
        actual = [_label(output_talk, to_output[n]) for n in output_order]
        in_source = [_label(source_talk, n) for n in source_order]
        found.append(
            finding(
                "ordering.result_order",
                f"the results of the calls of {turn_path(output_turn.turn_index, output_talk)} "
                f"came in the order {', '.join(map(repr, in_source))} in the source and "
                f"{', '.join(map(repr, actual))} here",
                path,
                expected=expected,
                actual=actual,
            )
        )
    return found if judged else None


def _conversion(conversion: ConversionUnderTest) -> list[Finding] | None:
    return check_result_order(conversion.source, conversion.output, conversion.id_mapping)


def _roundtrip(roundtrip: RoundTripUnderTest) -> list[Finding] | None:
    return check_result_order(roundtrip.original, roundtrip.returned)


CONVERSION_CHECKS: dict[str, ConversionCheck] = {"ordering.result_order": _conversion}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {"ordering.result_order": _roundtrip}
