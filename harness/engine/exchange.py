"""Judging a proxy on both legs of each exchange.

An adapter converts one payload per call; a proxy converts a whole exchange:
the client's request goes in (front dialect), a request comes out upstream
(back dialect), the upstream's answer comes back, and an answer goes out
downstream (front dialect). An adapter whose implementation offers the
optional capability

    front: str; back: str
    exchange(request, upstream, timeout) -> ExchangeRecord

is driven per interaction of a case: ``request`` is the case's request
(front dialect), ``upstream`` the interactions to answer from (the case's
twin in the back dialect, or the case itself when front and back are the
same), and the record says what the proxy forwarded and what it returned.
Two conversions are then judged with the same rules as any adapter's:

* request leg, ``request front->back``: the case's request against what the
  upstream received (the twin's request as the expected value);
* response leg, ``response|stream back->front``: the upstream's recorded
  answer against what the proxy returned (the case's own answer as the
  expected value).

A forwarded request that matches no recording, and any transport failure
(refused, reset, timeout, a stream cut midway, an HTTP error status), is an
``error`` verdict naming what happened; what was captured is still judged.
An ``exchange`` that accepts a ``position`` keyword is told the interaction
the case is at (0-based): the http:// adapter's upstream then answers a
request it did not recognise with that recording, when it is the same kind
of call, so the response leg is judged although the request leg failed
(``ExchangeRecord.by_position``). One that accepts ``uri`` is given the URL
the case's request was recorded at (where Gemini names the model and whether
it streams).
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass
from typing import Any

from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest
from toolwire.conformance.registry import CONVERSION_CHECKS, PAYLOAD_CHECKS
from toolwire.harness.adapters.base import Direction, LoadedAdapter, _accepts_keyword
from toolwire.harness.adapters.exchanges import ExchangeCapable, ExchangeRecord
from toolwire.harness.corpus.case import Case
from toolwire.harness.engine.adapter_errors import describe_adapter_error
from toolwire.harness.engine.calls import AdapterCall, CallOutcome
from toolwire.harness.engine.collect import VerdictCollector
from toolwire.harness.engine.judging import (
    chosen_profile,
    expect_mapping,
    read_output,
    target_profile,
)
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.timeout import CallTimedOut, call_with_timeout
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import PayloadKind
from toolwire.harness.payloads import SourcePayload, case_payloads

# The adapter enforces its own per-request timeout; this margin only catches
# an exchange that ignores it.
GRACE = 2.0
BODY_EXCERPT = 200


def run_exchanges(
    case: Case,
    adapter: LoadedAdapter,
    options: RunOptions,
    collector: VerdictCollector,
) -> list[Verdict]:
    proxy = adapter.implementation
    if not isinstance(proxy, ExchangeCapable):
        collector.error("exchange", "the adapter has exchange() but not front and back dialects")
        return collector.verdicts()
    if case.dialect != proxy.front:
        collector.unsupported(f"the proxy's front dialect is {proxy.front}, not {case.dialect}")
        return collector.verdicts()
    twin = _upstream_case(case, proxy.back, options)
    if twin is None:
        collector.unsupported(f"the case has no twin in {proxy.back} for the upstream to serve")
        return collector.verdicts()
    if len(twin.interactions) != len(case.interactions):
        collector.unsupported(
            f"the twin {twin.id} has {len(twin.interactions)} interactions, the case "
            f"{len(case.interactions)}: the upstream cannot answer each request"
        )
        return collector.verdicts()
    deadline = time.monotonic() + options.timeout
    positioned = _accepts_keyword(proxy.exchange, "position")
    for source in case_payloads(case, "request"):
        _exchange_one(case, twin, proxy, source, options, deadline, collector, positioned)
    return collector.verdicts()


def _upstream_case(case: Case, back: str, options: RunOptions) -> Case | None:
    if back == case.dialect:
        return case
    twin_id = case.twins.get(back)
    if twin_id is None or options.corpus is None:
        return None
    return options.corpus.get(twin_id)


def _exchange_one(
    case: Case,
    twin: Case,
    proxy: ExchangeCapable,
    source: SourcePayload,
    options: RunOptions,
    deadline: float,
    collector: VerdictCollector,
    positioned: bool = False,
) -> None:
    number = source.interaction + 1
    request_where = (
        f"request {proxy.front}->{proxy.back} (forwarded upstream), interaction {number}"
    )
    remaining = max(deadline - time.monotonic(), 0.01)
    request = copy.deepcopy(source.raw)

    told: dict[str, Any] = {}
    if positioned:
        told["position"] = source.interaction
    if _accepts_keyword(proxy.exchange, "uri"):
        # A Gemini request's model and stream choice are in its URL, not its body.
        told["uri"] = case.interactions[source.interaction].uri

    def exchange() -> ExchangeRecord:
        return proxy.exchange(request, twin.interactions, remaining, **told)

    heard = _Heard(options, proxy, request_where, number, source.raw)
    try:
        record = call_with_timeout(exchange, remaining + GRACE)
    except CallTimedOut as error:
        heard("timed out", error=str(error))
        collector.error(request_where, f"the exchange timed out: {error} (raise --timeout)")
        return
    except Exception as error:  # the adapter's own failure is a verdict, not a crash
        described = describe_adapter_error(error, proxy)
        heard("raised", error=described)
        collector.error(request_where, f"the proxy adapter raised {described}")
        return
    heard("failed" if record.failure else "returned", _summary(record), record.failure)
    _judge_request_leg(case, twin, proxy, source, record, options, request_where, collector)
    _judge_response_leg(case, twin, proxy, source, record, options, collector)


@dataclass(frozen=True)
class _Heard:
    """Tells ``options.on_call`` about one exchange (``toolwire convert``)."""

    options: RunOptions
    proxy: ExchangeCapable
    where: str
    interaction: int
    request: Any

    def __call__(self, outcome: CallOutcome, output: Any = None, error: str | None = None) -> None:
        if self.options.on_call is None:
            return
        front, back = self.proxy.front, self.proxy.back
        self.options.on_call(
            AdapterCall(
                self.where,
                self.interaction,
                "request",
                front,
                back,
                self.request,
                outcome,
                output=output,
                error=error,
                exchange=True,
            )
        )


def _summary(record: ExchangeRecord) -> dict[str, Any]:
    """An exchange as ``toolwire convert`` shows it (interactions 1-based)."""
    served = None if record.served is None else record.served + 1
    return {
        "forwarded": list(record.forwarded),
        "upstream_answered": served,
        "by_position": record.by_position,
        "mismatch": record.mismatch,
        "status": record.status,
        "content_type": record.content_type,
        "downstream": record.downstream,
    }


def _judge_request_leg(
    case: Case,
    twin: Case,
    proxy: ExchangeCapable,
    source: SourcePayload,
    record: ExchangeRecord,
    options: RunOptions,
    where: str,
    collector: VerdictCollector,
) -> None:
    if record.forwarded:
        direction = Direction("request", proxy.front, proxy.back)
        expected = _payload_at(twin, "request", source.interaction)
        _judge_conversion(
            case, direction, source, record.forwarded[0], expected, options, where, collector
        )
    elif record.failure is None:
        answered = f" HTTP {record.status}" if record.status is not None else ""
        collector.error(
            where,
            f"the proxy answered{answered} without sending any request upstream: "
            f"{_excerpt(record)}",
        )
    if record.mismatch is None:
        return
    if record.by_position and record.served is not None:
        collector.error(
            where,
            f"the replay upstream did not recognise it: {record.mismatch}; it answered with "
            f"recorded interaction {record.served + 1}, where the case is, so the proxy's "
            "answer is still judged (response leg)",
        )
    else:
        collector.error(where, f"the replay upstream could not answer it: {record.mismatch}")


def _judge_response_leg(
    case: Case,
    twin: Case,
    proxy: ExchangeCapable,
    source: SourcePayload,
    record: ExchangeRecord,
    options: RunOptions,
    collector: VerdictCollector,
) -> None:
    number = source.interaction + 1
    served = None if record.served is None else twin.interactions[record.served]
    kind: PayloadKind = "stream" if served is not None and served.is_stream() else "response"
    where = f"{kind} {proxy.back}->{proxy.front} (returned downstream), interaction {number}"
    if record.failure is not None:
        collector.error(where, record.failure)
        return
    if served is None or record.served is None or not served.is_success():
        return  # no recorded success was served: nothing downstream to judge
    if record.status is None or not 200 <= record.status < 300:
        collector.error(where, f"the proxy answered HTTP {record.status}: {_excerpt(record)}")
        return
    upstream_answer = _payload_at(twin, kind, record.served)
    if upstream_answer is None:
        return
    direction = Direction(kind, proxy.back, proxy.front)
    if record.downstream_kind != kind:
        wanted = "an event stream" if kind == "stream" else "a JSON response"
        got = f"Content-Type {record.content_type or 'none'!r}"
        profile = target_profile(case, proxy.front, options)
        error = WireFormatError("$", f"the request asked for {wanted}, the proxy returned {got}")
        collector.unreadable_output(direction, record.downstream, profile, where, error)
        return
    upstream_source = _source_at(twin, kind, record.served)
    expected = _payload_at(case, kind, source.interaction)
    assert upstream_source is not None
    _judge_conversion(
        twin, direction, upstream_source, record.downstream, expected, options, where, collector
    )


def _judge_conversion(
    case: Case,
    direction: Direction,
    source: SourcePayload,
    output_raw: Any,
    expected: PayloadUnderTest | None,
    options: RunOptions,
    where: str,
    collector: VerdictCollector,
) -> None:
    profile = target_profile(case, direction.target, options)
    chosen = chosen_profile(direction.target, options)
    output = read_output(direction, output_raw, profile, source, where, collector, chosen)
    if output is None:
        return
    collector.judge_payload(output, PAYLOAD_CHECKS, where)
    conversion = ConversionUnderTest(
        source=source.under_test, output=output, expected=expected, expect=expect_mapping(case)
    )
    collector.judge(CONVERSION_CHECKS, conversion, direction.target, output.profile, where)


def _source_at(case: Case, kind: PayloadKind, interaction: int) -> SourcePayload | None:
    for candidate in case_payloads(case, kind):
        if candidate.interaction == interaction:
            return candidate
    return None


def _payload_at(case: Case, kind: PayloadKind, interaction: int) -> PayloadUnderTest | None:
    found = _source_at(case, kind, interaction)
    return found.under_test if found is not None else None


def _excerpt(record: ExchangeRecord) -> str:
    body = record.downstream
    text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= BODY_EXCERPT else f"{text[:BODY_EXCERPT]}..."
