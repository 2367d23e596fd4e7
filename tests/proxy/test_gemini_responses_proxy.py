"""Proxies toward and from Gemini and the OpenAI Responses API (toy proxies on 127.0.0.1).

Gemini names the model and the stream choice in the path
(``/v1beta/models/{model}:generateContent``, ``:streamGenerateContent?alt=sse``)
and takes its key as ``x-goog-api-key`` or ``?key=``; the Responses API posts to
``/v1/responses`` with ``stream`` in the body. Each pair is shown three ways: a
correct toy passing (one that differs from the recording in model name, key
placement and result wrapping), and a broken toy the matching catches.
"""

from __future__ import annotations

import pytest

from tests.proxy.support import by_rule, proxied_adapter, verdicts
from tests.proxy.toy_proxy import GEMINI_KEY
from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
from toolwire.harness.engine.verdicts import Verdict
from toolwire.harness.proxy.endpoints import (
    GEMINI_ENDPOINT,
    JSON_ARRAY_STREAM,
    endpoint_of,
    stream_choice,
)
from toolwire.harness.proxy.matching import Matcher
from toolwire.harness.proxy.replay_http import REDACTED, redacted_headers, without_secrets

CONVERT = "convert"


def _problems(found: list[Verdict]) -> list[tuple[str, str, str]]:
    return [(v.rule_code, v.outcome, v.message) for v in found if v.outcome != "pass"]


@pytest.mark.parametrize(
    ("front", "back", "case_id"),
    [
        ("openai-chat", "gemini", "single-tool/array-arguments-openai"),
        ("openai-chat", "gemini", "streaming/single-call-openai"),
        ("anthropic-messages", "gemini", "streaming/single-call-anthropic"),
        ("gemini", "openai-chat", "single-tool/array-arguments-gemini"),
        ("gemini", "openai-chat", "streaming/single-call-gemini"),
        ("openai-chat", "openai-responses", "streaming/single-call-openai"),
        ("anthropic-messages", "openai-responses", "streaming/parallel-anthropic"),
        ("openai-responses", "openai-chat", "single-tool/array-arguments-responses"),
        ("openai-responses", "openai-chat", "streaming/single-call-responses"),
    ],
)
def test_a_correct_proxy_passes(front: str, back: str, case_id: str) -> None:
    """The toy names another model than the twin's, passes its Gemini key as
    ?key= and in x-goog-api-key, and wraps results differently: all correct."""
    with proxied_adapter(front, back) as adapter:
        found = verdicts(adapter, case_id)
    assert _problems(found) == []
    assert len(found) >= 10  # both legs of each interaction were judged


def test_the_gemini_key_never_reaches_the_record() -> None:
    with proxied_adapter("openai-chat", "gemini", fault="gemini-no-sse") as adapter:
        found = verdicts(adapter, "streaming/single-call-openai")
        implementation = adapter.implementation
        assert isinstance(implementation, HttpProxyAdapter)
        replay = implementation._replay
        assert replay is not None
        received = replay.received()
    assert received, "the toy forwarded nothing"
    for request in received:
        assert GEMINI_KEY not in request.path
        assert GEMINI_KEY not in repr(request.headers)
        sent = {name.lower(): value for name, value in request.headers}
        assert sent["x-goog-api-key"] == REDACTED
    assert all(GEMINI_KEY not in v.message for v in found)
    assert any(v.outcome == "error" for v in found)  # the miss message names the path


def test_a_gemini_stream_asked_in_the_body_is_caught() -> None:
    """``"stream": true`` in a :generateContent body asks Gemini for JSON."""
    with proxied_adapter("openai-chat", "gemini", fault="gemini-stream-in-body") as adapter:
        found = verdicts(adapter, "streaming/single-call-openai")
    error = by_rule(found)[CONVERT]
    assert error.outcome == "error"
    assert "$['conversation']['stream']: recorded true, received false" in error.message
    assert "it asks for a JSON answer, the recording is a stream" in error.message


def test_a_gemini_stream_without_alt_sse_is_caught() -> None:
    """Without alt=sse Gemini streams one JSON array, not the recorded events."""
    with proxied_adapter("openai-chat", "gemini", fault="gemini-no-sse") as adapter:
        found = verdicts(adapter, "streaming/single-call-openai")
    error = by_rule(found)[CONVERT]
    assert error.outcome == "error"
    assert f"it asks for a stream as {JSON_ARRAY_STREAM}" in error.message


def test_a_responses_stream_flipped_in_the_body_is_caught() -> None:
    with proxied_adapter("openai-chat", "openai-responses", fault="flip-stream") as adapter:
        found = verdicts(adapter, "streaming/single-call-openai")
    error = by_rule(found)[CONVERT]
    assert error.outcome == "error"
    assert "POST /v1/responses" in error.message
    assert "it asks for a JSON answer, the recording is a stream" in error.message


def test_a_gemini_request_to_another_dialects_endpoint_is_caught() -> None:
    with proxied_adapter("openai-chat", "gemini", fault="wrong-endpoint") as adapter:
        found = verdicts(adapter, "single-tool/array-arguments-openai")
    error = by_rule(found)[CONVERT]
    assert error.outcome == "error"
    assert f"the recording to POST {GEMINI_ENDPOINT}" in error.message


# --- the pieces ------------------------------------------------------------------


def test_gemini_paths_name_one_endpoint_whatever_the_model_and_the_stream() -> None:
    for path in (
        "/v1beta/models/gemini-2.5-flash:generateContent",
        "/v1beta/models/other:streamGenerateContent?alt=sse",
        "/v1/models/gemini-2.0-flash:generateContent",
        "/gemini/v1beta/models/m:streamGenerateContent",
    ):
        assert endpoint_of(path) == GEMINI_ENDPOINT
    assert endpoint_of("/v1/responses") == "/responses"
    assert endpoint_of("/v1beta/models") == "/models"  # a model list is not a call


def test_gemini_streams_by_its_path_and_the_others_by_their_body() -> None:
    assert stream_choice("gemini", "/v1beta/models/m:generateContent", True) is False
    assert stream_choice("gemini", "/v1beta/models/m:streamGenerateContent?alt=sse", None)
    assert (
        stream_choice("gemini", "/v1beta/models/m:streamGenerateContent?key=k", None)
        == JSON_ARRAY_STREAM
    )
    assert stream_choice("openai-responses", "/v1/responses", True) is True
    assert stream_choice("openai-responses", "/v1/responses", None) is False


def test_gemini_conversation_keys_ignore_the_model_and_the_key() -> None:
    matcher = Matcher("conversation", "gemini")
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    recorded = matcher.key("POST", "/v1beta/models/gemini-2.5-flash:generateContent", body)
    received = matcher.key("POST", "/v1beta/models/renamed:generateContent?key=k", body)
    streamed = matcher.key("POST", "/v1beta/models/m:streamGenerateContent?alt=sse", body)
    assert received == recorded
    assert streamed != recorded


def test_secrets_leave_paths_and_headers() -> None:
    assert without_secrets("/v1beta/models/m:streamGenerateContent?key=s3&alt=sse") == (
        "/v1beta/models/m:streamGenerateContent?alt=sse"
    )
    assert without_secrets("/v1beta/models/m:generateContent?key=s3") == (
        "/v1beta/models/m:generateContent"
    )
    assert without_secrets("/v1/chat/completions?x=1") == "/v1/chat/completions?x=1"
    headers = redacted_headers((("x-goog-api-key", "s3"), ("Authorization", "Bearer s3")))
    assert headers == (("x-goog-api-key", REDACTED), ("Authorization", REDACTED))


def _gemini_result(response: dict[str, object]) -> dict[str, object]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "Fetch it."}]},
            {"role": "model", "parts": [{"functionCall": {"name": "fetch", "args": {}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "fetch", "response": response}}],
            },
        ]
    }


def test_a_result_matches_whatever_wrapper_and_serialisation_carries_it() -> None:
    """Converters wrap a text result in any key and re-serialise JSON: the
    matcher compares what the result says (the rules judge the form)."""
    matcher = Matcher("conversation", "gemini")
    path = "/v1beta/models/m:generateContent"
    keys = [
        matcher.key("POST", path, _gemini_result(response)).value
        for response in (
            {"output": 'Error: {"code": 7, "ok": false}'},
            {"result": '{"code":7,"ok":false}'},
            {"content": 'Error: {"code": 7,\n "ok": false}'},
        )
    ]
    assert keys[0] == keys[1] == keys[2]
    changed = matcher.key("POST", path, _gemini_result({"content": '{"code": 8, "ok": false}'}))
    assert changed.value != keys[0]
