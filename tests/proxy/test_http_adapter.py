"""The http:// adapter spec: what it accepts, what it refuses, and how it says so."""

from __future__ import annotations

import pytest

from toolwire.harness.adapters.http_adapter import HttpProxyAdapter, ProxyUsageError
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.errors import AdapterLoadError, ToolwireError


def test_defaults_are_an_anthropic_front_and_an_openai_back() -> None:
    adapter = load_adapter("http://127.0.0.1:8080")
    proxy = adapter.implementation
    assert isinstance(proxy, HttpProxyAdapter)
    assert (proxy.front, proxy.back, proxy.path, proxy.port) == (
        "anthropic-messages",
        "openai-chat",
        "/v1/messages",
        8080,
    )
    assert proxy.match == "conversation"
    assert adapter.name == "http-proxy"
    assert {str(d) for d in adapter.directions} == {
        "request:anthropic-messages->openai-chat",
        "response:openai-chat->anthropic-messages",
        "stream:openai-chat->anthropic-messages",
    }


def test_every_option_is_read() -> None:
    spec = (
        "http://localhost:9000/?front=openai-chat&back=deepseek-chat&path=/chat&match=strict"
        "&timeout=2.5&upstream_port=7000&ready=/health&name=litellm&version=1.2"
    )
    adapter = load_adapter(spec)
    proxy = adapter.implementation
    assert isinstance(proxy, HttpProxyAdapter)
    assert (proxy.front, proxy.back, proxy.path, proxy.match) == (
        "openai-chat",
        "deepseek-chat",
        "/chat",
        "strict",
    )
    assert (proxy.request_timeout, proxy.upstream_port, proxy.ready_path) == (2.5, 7000, "/health")
    assert (adapter.name, adapter.version) == ("litellm", "1.2")
    assert load_adapter("http://127.0.0.1:1?front=openai-chat").implementation.path == (  # type: ignore[attr-defined]
        "/v1/chat/completions"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("https://127.0.0.1:8080", "only plain http:// proxies on this machine"),
        ("http://example.com:8080", "must listen on 127.0.0.1, not 'example.com'"),
        ("http://10.0.0.5:8080", "must listen on 127.0.0.1"),
        ("http://127.0.0.1:8080?frnt=openai-chat", "unknown option 'frnt'"),
        ("http://127.0.0.1:8080?front=mistral-chat", "front='mistral-chat' is not a dialect"),
        ("http://127.0.0.1:8080?match=fuzzy", "match='fuzzy' is not a match mode"),
        ("http://127.0.0.1:8080?timeout=0", "timeout='0' is not a positive number"),
        ("http://127.0.0.1:8080?timeout=soon", "timeout='soon' is not a positive number"),
        ("http://127.0.0.1:8080?upstream_port=99999", "upstream_port='99999' is not a port"),
        ("http://127.0.0.1:99999", "bad port"),
    ],
)
def test_a_bad_spec_is_one_clear_usage_error(spec: str, message: str) -> None:
    with pytest.raises(AdapterLoadError) as caught:
        load_adapter(spec)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert caught.value.exit_code == 2


def test_single_payloads_are_not_converted() -> None:
    proxy = HttpProxyAdapter("http://127.0.0.1:8080")
    with pytest.raises(ToolwireError, match="converts whole exchanges"):
        proxy.convert({}, "request", "anthropic-messages", "openai-chat")


def test_a_proxy_started_by_hand_needs_a_fixed_upstream_port() -> None:
    proxy = HttpProxyAdapter("http://127.0.0.1:8080")
    with pytest.raises(ProxyUsageError, match=r"add \?upstream_port=PORT"):
        proxy.start()


def test_a_proxy_started_by_hand_needs_its_port() -> None:
    proxy = HttpProxyAdapter("http://127.0.0.1?upstream_port=7001")
    with pytest.raises(ProxyUsageError, match="names no port"):
        proxy.start()
