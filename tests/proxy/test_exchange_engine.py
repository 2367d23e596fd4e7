"""The engine's exchange capability on its own: fake exchange records, no HTTP."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.proxy.support import by_rule, case, corpus
from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.adapters.exchanges import ExchangeRecord
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.corpus.case import Interaction
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.verdicts import CONVERT, Verdict
from toolwire.harness.payloads import events_to_wire

REFERENCE = ReferenceAdapter()
WEATHER = "single-tool/weather-anthropic"
TWIN = "single-tool/weather-openai"


class FakeProxy:
    """Answers each exchange with the record ``make(request, upstream)`` returns."""

    name = "fake-proxy"
    version = "0"
    front = "anthropic-messages"
    back = "openai-chat"

    def __init__(self, make: Any) -> None:
        self.make = make
        self.calls: list[Any] = []

    @property
    def directions(self) -> set[tuple[str, str, str]]:
        return {("request", self.front, self.back), ("response", self.back, self.front)}

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise AssertionError("the engine must not call convert on an exchange adapter")

    def exchange(
        self, request: Any, upstream: Sequence[Interaction], timeout: float
    ) -> ExchangeRecord:
        self.calls.append((request, tuple(i.index for i in upstream), timeout))
        record: ExchangeRecord = self.make(request, upstream)
        return record


def _run(make: Any, case_id: str = WEATHER) -> tuple[list[Verdict], FakeProxy]:
    proxy = FakeProxy(make)
    adapter = check_adapter(proxy, "fake")
    return run_case(case(case_id), adapter, RunOptions(corpus=corpus(), timeout=5)), proxy


def _faithful(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
    """What a correct proxy reports: the reference adapter's conversions of the
    case's request (forwarded) and of the twin's answer (returned)."""
    index = next(i for i, x in enumerate(case(WEATHER).interactions) if x.request_json() == request)
    return ExchangeRecord(
        forwarded=(REFERENCE.convert(request, "request", "anthropic-messages", "openai-chat"),),
        served=index,
        status=200,
        downstream=REFERENCE.convert(
            upstream[index].response_json(), "response", "openai-chat", "anthropic-messages"
        ),
        downstream_kind="response",
        content_type="application/json",
    )


def test_each_interaction_is_one_exchange_served_from_the_twin() -> None:
    found, proxy = _run(_faithful)
    assert [v for v in found if v.outcome != "pass"] == []
    assert len(proxy.calls) == 2
    assert all(upstream == (0, 1) for _, upstream, _ in proxy.calls)
    assert all(0 < timeout <= 5 for _, _, timeout in proxy.calls)
    assert proxy.calls[0][0] == case(WEATHER).interactions[0].request_json()
    wheres = {where for verdict in found for where in verdict.directions}
    assert "request anthropic-messages->openai-chat (forwarded upstream), interaction 1" in wheres
    assert "response openai-chat->anthropic-messages (returned downstream), interaction 2" in (
        wheres
    )


def test_an_answer_without_an_upstream_call_is_an_error() -> None:
    def cached(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        return ExchangeRecord(status=200, downstream={}, downstream_kind="response")

    found, _ = _run(cached)
    assert by_rule(found)[CONVERT].message == (
        "the proxy answered HTTP 200 without sending any request upstream: {}"
    )


def test_a_mismatch_is_an_error_and_the_forwarded_request_is_still_judged() -> None:
    def renamed(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        forwarded = upstream[0].request_json()
        forwarded["tools"][0]["function"]["name"] = "get_forecast"
        return ExchangeRecord(forwarded=(forwarded,), mismatch="nearest is recorded interaction 1")

    found = by_rule(_run(renamed)[0])
    assert found[CONVERT].message == (
        "the replay upstream could not answer it: nearest is recorded interaction 1"
    )
    assert found["fidelity.tool_definitions"].outcome == "fail"


def test_a_forwarded_body_that_is_not_json_fails_the_request_schema() -> None:
    def text(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        return ExchangeRecord(forwarded=("model=x&messages=",), failure="gave up")

    found = by_rule(_run(text)[0])
    assert found["schema.request"].outcome == "fail"
    assert found[CONVERT].message == "gave up"


def test_a_stream_where_a_json_answer_was_asked_fails_the_response_schema() -> None:
    def streams(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        record = _faithful(request, upstream)
        events = events_to_wire(
            case("streaming/parallel-anthropic").interactions[0].response_events()
        )
        return ExchangeRecord(
            forwarded=record.forwarded,
            served=record.served,
            status=200,
            downstream=events,
            downstream_kind="stream",
            content_type="text/event-stream",
        )

    found = by_rule(_run(streams)[0])
    assert found["schema.response"].outcome == "fail"
    assert "asked for a JSON response, the proxy returned Content-Type 'text/event-stream'" in (
        found["schema.response"].message
    )


def test_an_adapter_that_raises_gives_an_error_per_exchange() -> None:
    def boom(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        raise RuntimeError("socket on fire")

    found = by_rule(_run(boom)[0])
    line = boom.__code__.co_firstlineno + 1
    assert found[CONVERT].message == (
        "the proxy adapter raised RuntimeError: socket on fire "
        f"(at tests/proxy/test_exchange_engine.py:{line} in boom)"
    )
    assert len(found[CONVERT].findings) == 2


def test_exchange_without_front_and_back_is_an_error() -> None:
    class Incomplete:
        name, version = "incomplete", "0"
        directions = frozenset({("request", "openai-chat", "anthropic-messages")})

        def convert(self, *args: Any) -> Any:
            return None

        def exchange(self, *args: Any) -> Any:
            return None

    adapter = check_adapter(Incomplete(), "incomplete")
    found = run_case(case(TWIN), adapter, RunOptions(corpus=corpus()))
    assert [(v.rule_code, v.outcome) for v in found] == [(CONVERT, "error")]
    assert "not front and back dialects" in found[0].message


def test_an_exchange_that_takes_a_position_is_told_the_interaction() -> None:
    positions: list[int | None] = []

    class Positioned(FakeProxy):
        def exchange(  # type: ignore[override]
            self,
            request: Any,
            upstream: Sequence[Interaction],
            timeout: float,
            position: int | None = None,
        ) -> ExchangeRecord:
            positions.append(position)
            return super().exchange(request, upstream, timeout)

    found = run_case(
        case(WEATHER), check_adapter(Positioned(_faithful), "fake"), RunOptions(corpus=corpus())
    )
    assert [v for v in found if v.outcome != "pass"] == []
    assert positions == [0, 1]


def test_a_miss_answered_by_position_keeps_the_error_and_judges_the_answer() -> None:
    def dropped_tool(request: Any, upstream: Sequence[Interaction]) -> ExchangeRecord:
        record = _faithful(request, upstream)
        forwarded = dict(record.forwarded[0])
        forwarded.pop("tools")
        return ExchangeRecord(
            forwarded=(forwarded,),
            served=record.served,
            by_position=True,
            mismatch="nearest is recorded interaction 1",
            status=200,
            downstream=record.downstream,
            downstream_kind="response",
        )

    found = by_rule(_run(dropped_tool)[0])
    assert found[CONVERT].message.startswith(
        "the replay upstream did not recognise it: nearest is recorded interaction 1; "
        "it answered with recorded interaction 1, where the case is"
    )
    assert found["fidelity.tool_definitions"].outcome == "fail"
    assert found["fidelity.arguments"].outcome == "pass"
    assert any("(returned downstream)" in w for w in found["fidelity.arguments"].directions)
