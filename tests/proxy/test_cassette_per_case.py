"""The replay upstream reads a case's recordings once per case, not once per request.

Reading every recording's matching key for every request made a 31-request
case quadratic (600 ms of a 1.3 s benchmark, benchmarks/http_path.py). Each
exchange still sees only the requests forwarded during it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.proxy.support import case, proxied_adapter, verdicts
from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
from toolwire.harness.payloads import case_payloads
from toolwire.harness.proxy.replay import ReplayUpstream

MULTI_REQUEST = "error-result/retry-after-error-openai"
OTHER = "single-tool/weather-openai"


def _count_serves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = ReplayUpstream.serve

    def counting(self: ReplayUpstream, interactions: Any, matcher: Any = None) -> None:
        calls.append(len(interactions))
        original(self, interactions, matcher)

    monkeypatch.setattr(ReplayUpstream, "serve", counting)
    return calls


def test_one_cassette_load_per_case(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_serves(monkeypatch)
    requests = len(list(case_payloads(case(MULTI_REQUEST), "request")))
    assert requests >= 3
    with proxied_adapter("openai-chat", "openai-chat") as adapter:
        first = verdicts(adapter, MULTI_REQUEST)
        second = verdicts(adapter, OTHER)
    assert [v.item_id for v in first + second if v.outcome != "pass"] == []
    # one load per case, whatever the number of its requests
    assert calls == [len(case(MULTI_REQUEST).interactions), len(case(OTHER).interactions)]


def test_each_exchange_sees_only_its_own_requests() -> None:
    source = case(MULTI_REQUEST)
    with proxied_adapter("openai-chat", "openai-chat") as adapter:
        proxy = adapter.implementation
        assert isinstance(proxy, HttpProxyAdapter)
        records = [
            proxy.exchange(payload.raw, source.interactions, 10.0)
            for payload in case_payloads(source, "request")
        ]
    assert [len(record.forwarded) for record in records] == [1] * len(records)
    assert [record.served for record in records] == list(range(len(records)))
    # each forwarded request is the one sent, not an earlier one
    sent = [payload.raw["messages"] for payload in case_payloads(source, "request")]
    assert [record.forwarded[0]["messages"] for record in records] == sent
