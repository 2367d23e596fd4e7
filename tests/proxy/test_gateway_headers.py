"""Gateways that route by header are judged through the http:// adapter as written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.proxy.support import started_upstream, verdicts
from tests.proxy.toy_gateway import ToyGateway
from toolwire.harness.adapters.base import LoadedAdapter
from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.errors import AdapterLoadError

CASE = "error-result/retry-after-error-openai"
ROUTING = "&header=x-portkey-provider:openai&header=x-portkey-custom-host:{upstream_url}"


@contextmanager
def gateway_adapter(headers: str) -> Iterator[LoadedAdapter]:
    spec = f"http://127.0.0.1:0?front=openai-chat&back=openai-chat&upstream_port=1{headers}"
    adapter, _ = started_upstream(spec)
    implementation = adapter.implementation
    assert isinstance(implementation, HttpProxyAdapter)
    gateway = ToyGateway().start()
    implementation.port = gateway.port
    try:
        yield adapter
    finally:
        gateway.stop()
        implementation.close()


def test_with_its_routing_headers_the_gateway_passes_on_both_legs() -> None:
    with gateway_adapter(ROUTING) as adapter:
        found = verdicts(adapter, CASE)
    assert [v.item_id for v in found if v.outcome != "pass"] == []
    legs = {where.split(" (")[1] for v in found for where in v.directions if " (" in where}
    assert {"forwarded upstream), interaction 1", "returned downstream), interaction 1"} <= legs


def test_without_them_the_gateway_refuses_and_the_run_says_so() -> None:
    with gateway_adapter("") as adapter:
        found = verdicts(adapter, CASE)
    errors = [v for v in found if v.outcome == "error"]
    assert errors
    [refused] = errors
    assert "answered HTTP 400 without sending any request upstream" in refused.message
    assert "x-portkey-provider" in refused.message  # the gateway's own words
    assert not any(v.outcome == "pass" for v in found)


def test_a_header_value_can_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLWIRE_TEST_PROVIDER", "openai")
    routing = ROUTING.replace("provider:openai", "provider:${TOOLWIRE_TEST_PROVIDER}")
    with gateway_adapter(routing) as adapter:
        found = verdicts(adapter, CASE)
    assert [v.item_id for v in found if v.outcome != "pass"] == []


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("x-portkey-provider", "is not Name:value"),
        ("bad name:x", "is not Name:value"),
        ("x-key:${TOOLWIRE_SURELY_UNSET}", "TOOLWIRE_SURELY_UNSET}, which is not set"),
    ],
)
def test_a_malformed_header_is_one_clear_error(header: str, message: str) -> None:
    with pytest.raises(AdapterLoadError, match=message.replace("$", r"\$").replace("{", r"\{")):
        load_adapter(f"http://127.0.0.1:8080?upstream_port=9&header={header}")
