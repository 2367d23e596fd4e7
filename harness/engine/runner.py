"""``run_case``: drive an adapter over one case and judge what it produced.

For each direction the adapter declares from the case's dialect, each payload
of that kind is converted, read back by the target's codec, and judged:
payload rules on the output (under the target profile), conversion rules
against the source, and a round trip A->B->A where the adapter also has the
reverse direction (what comes back is judged by the payload rules too, less
what the source itself shows, and by the round-trip rules). Findings are
gathered into one verdict per rule.

Each case is isolated: an adapter that raises, hangs, exits or returns
something that is not a JSON payload gives an ``error`` verdict with its
reason, never an exception out of here (docs/hostile-input.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest, RoundTripUnderTest
from toolwire.conformance.registry import CONVERSION_CHECKS, PAYLOAD_CHECKS, ROUNDTRIP_CHECKS
from toolwire.harness.adapters.base import Direction, LoadedAdapter, UnsupportedConversion
from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.adapter_errors import describe_adapter_error
from toolwire.harness.engine.calls import AdapterCall, CallOutcome, OnCall
from toolwire.harness.engine.case_thread import CaseBudget, JudgeAbandoned, judge_on_own_thread
from toolwire.harness.engine.collect import VerdictCollector, describe_error
from toolwire.harness.engine.exchange import run_exchanges
from toolwire.harness.engine.judging import (
    chosen_profile,
    expect_mapping,
    read_output,
    target_profile,
)
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.timeout import CallTimedOut
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import GEMINI
from toolwire.harness.payloads import SourcePayload, case_payloads, sent_back_from_gemini
from toolwire.harness.wire_values import InputCopies, NotWireValue


class _CaseFailed(Exception):
    """The adapter broke on this payload; the reason is already recorded."""


def run_case(
    case: Case, adapter: LoadedAdapter, options: RunOptions | None = None
) -> list[Verdict]:
    options = options or RunOptions()
    if case.is_negative:
        return []  # negative cases are broken inputs for `toolwire lint`, not conversions
    if hasattr(adapter.implementation, "exchange"):
        # A proxy converts whole exchanges: both legs are judged there.
        return run_exchanges(case, adapter, options, VerdictCollector(case.id, adapter.name))
    return judge_on_own_thread(
        lambda budget: _judge_case(case, adapter, options, budget), options.timeout
    )


def _judge_case(
    case: Case, adapter: LoadedAdapter, options: RunOptions, budget: CaseBudget
) -> list[Verdict]:
    collector = VerdictCollector(case.id, adapter.name)
    copies = InputCopies()
    for kind in case.payload_kinds:
        directions = sorted(
            (d for d in adapter.directions if d.kind == kind and d.source == case.dialect),
            key=str,
        )
        if not directions:
            collector.unsupported(f"no {kind} direction from {case.dialect}")
            continue
        try:
            sources = case_payloads(case, kind)
        except (ToolwireError, RecursionError) as error:  # a broken case: no adapter's fault
            collector.error(
                f"{kind} payloads",
                f"the case cannot be read, so nothing was converted: {describe_error(error)} "
                "(run `toolwire corpus validate`)",
            )
            break
        for direction in directions:
            for source in sources:
                try:
                    _judge_one(case, adapter, direction, source, options, budget, copies, collector)
                except _CaseFailed:
                    continue
                except Exception as error:  # a harness bug must not end the run: report it
                    collector.error(
                        f"{direction.kind} {direction.source}->{direction.target}, {source.label}",
                        f"toolwire failed while judging this payload: {describe_error(error)} "
                        "(a toolwire bug: please report it)",
                    )
    return collector.verdicts()


def _judge_one(
    case: Case,
    adapter: LoadedAdapter,
    direction: Direction,
    source: SourcePayload,
    options: RunOptions,
    budget: CaseBudget,
    copies: InputCopies,
    collector: VerdictCollector,
) -> None:
    where = f"{direction.kind} {direction.source}->{direction.target}, {source.label}"
    profile = target_profile(case, direction.target, options)
    request = source.request_raw if direction.kind != "request" else None
    call = _Call(adapter, budget, copies, collector, options.on_call)
    number = source.interaction + 1
    output_raw = call.convert(direction, source.raw, where, request, number)
    chosen = chosen_profile(direction.target, options)
    output = read_output(direction, output_raw, profile, source, where, collector, chosen)
    if output is None:
        return
    collector.judge_payload(output, PAYLOAD_CHECKS, where)
    conversion = ConversionUnderTest(
        source=source.under_test,
        output=output,
        expected=_twin_payload(case, direction, source, options),
        expect=expect_mapping(case),
        id_mapping=call.declared_ids(direction, source, where),
    )
    collector.judge(CONVERSION_CHECKS, conversion, direction.target, output.profile, where)
    reverse = Direction(direction.kind, direction.target, direction.source)
    if not adapter.supports(reverse) or direction.source == direction.target:
        return
    back_where = f"{where}, and back"
    sent_back = (
        sent_back_from_gemini(output_raw, source) if direction.target == GEMINI else output_raw
    )
    returned_raw = call.convert(reverse, sent_back, back_where, interaction=number)
    # What comes back is judged under the run's profile for the source's
    # dialect where one was given (it names that endpoint), else the case's.
    back_profile = options.profiles.get(case.dialect, case.profile)
    back_chosen = chosen_profile(case.dialect, options)
    returned = read_output(
        reverse, returned_raw, back_profile, source, back_where, collector, back_chosen
    )
    if returned is None:
        return
    collector.judge_returned_payload(returned, source.under_test, PAYLOAD_CHECKS, back_where)
    roundtrip = RoundTripUnderTest(source.under_test, returned, via=direction.target)
    collector.judge(ROUNDTRIP_CHECKS, roundtrip, case.dialect, returned.profile, back_where)


@dataclass(frozen=True)
class _Call:
    """Calling the adapter for one payload: a private copy in, a checked copy out."""

    adapter: LoadedAdapter
    budget: CaseBudget
    copies: InputCopies
    collector: VerdictCollector
    on_call: OnCall | None = None

    def _heard(
        self,
        direction: Direction,
        at: tuple[str, int],  # where (as verdicts say) and the interaction (1-based)
        payload: Any,
        request: Any,
        outcome: CallOutcome,
        output: Any = None,
        error: str | None = None,
    ) -> None:
        if self.on_call is None or self.budget.abandoned:
            return  # an abandoned judge's late answer is not what was judged
        given = request if self.adapter.accepts_request else None
        kind, source, target = direction
        self.on_call(AdapterCall(*at, kind, source, target, payload, outcome, given, output, error))

    def declared_ids(
        self, direction: Direction, source: SourcePayload, where: str
    ) -> Mapping[str, str] | None:
        argument = self.copies.copy(source.raw)
        try:
            return self.budget.call(lambda: self.adapter.id_mapping(argument, direction))
        except JudgeAbandoned:
            raise
        except CallTimedOut as error:
            self.collector.error(where, f"the adapter's id_mapping timed out: {error}")
        except BaseException as error:  # as for convert: a verdict, not a crash
            described = describe_adapter_error(error, self.adapter.implementation)
            self.collector.error(where, f"the adapter's id_mapping raised {described}")
        return None

    def convert(
        self,
        direction: Direction,
        payload: Any,
        where: str,
        request: Any = None,
        interaction: int = 0,
    ) -> Any:
        collector = self.collector
        # The adapter gets its own copy: one that mutates its input cannot
        # change the source the rules compare against.
        argument = self.copies.copy(payload)
        context = self.copies.copy(request) if request is not None else None
        adapter = self.adapter
        at = (where, interaction)

        def settle(result: Any) -> Any:
            # A checked private copy, made as the call returns: what the adapter
            # does later cannot change what is judged (or replayed).
            if result is None:
                return None
            try:
                return self.copies.copy_output(result, lambda: self.copies.chars(payload))
            except NotWireValue as error:
                raise _NotJudgeable(error) from None

        try:
            result = self.budget.call(
                lambda: adapter.convert_direction(argument, direction, context), settle
            )
        except JudgeAbandoned:
            raise
        except CallTimedOut as error:
            self._heard(direction, at, payload, request, "timed out", error=str(error))
            collector.error(
                where, f"the adapter timed out: {error} (raise --timeout if it is slow)"
            )
            raise _CaseFailed from error
        except UnsupportedConversion as error:
            reason = describe_error(error).partition(": ")[2]
            self._heard(direction, at, payload, request, "declined", error=reason)
            collector.unsupported(f"{where}: {reason}")
            raise _CaseFailed from error
        except _NotJudgeable as error:
            self._heard(direction, at, payload, request, "unusable", error=str(error.reason))
            collector.error(
                where,
                f"the adapter's output cannot be judged: {error.reason} "
                "(adapters return plain JSON values: docs/adapters.md)",
            )
            raise _CaseFailed from None
        except BaseException as error:  # an adapter's exception is a verdict, not a crash
            described = describe_adapter_error(error, adapter.implementation)
            self._heard(direction, at, payload, request, "raised", error=described)
            collector.error(where, f"the adapter raised {described}")
            raise _CaseFailed from error
        if result is None:
            self._heard(direction, at, payload, request, "unusable", error="it returned None")
            collector.error(where, "the adapter returned None")
            raise _CaseFailed
        self._heard(direction, at, payload, request, "returned", output=result)
        return result


class _NotJudgeable(Exception):
    """An adapter's answer that is not a plain JSON value (``reason`` says why)."""

    def __init__(self, reason: NotWireValue) -> None:
        super().__init__(str(reason))
        self.reason = reason


def _twin_payload(
    case: Case, direction: Direction, source: SourcePayload, options: RunOptions
) -> PayloadUnderTest | None:
    twin_id = case.twins.get(direction.target)
    if options.corpus is None or twin_id is None:
        return None
    twin = options.corpus.get(twin_id)
    if twin is None:
        return None
    try:
        candidates = case_payloads(twin, direction.kind)
    except (ToolwireError, RecursionError):
        # The twin's own case reports that it cannot be read; this case is
        # judged without it (the rules that compare with a twin give no verdict).
        return None
    for candidate in candidates:
        if candidate.interaction == source.interaction:
            return candidate.under_test
    return None
