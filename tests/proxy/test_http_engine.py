"""The http:// adapter under the engine: both legs judged, each broken proxy caught.

A toy proxy built on the reference adapter (tests/proxy/toy_proxy.py) runs on
127.0.0.1 with the replay upstream as its upstream; each fault must be caught
by the verdict that names it.
"""

from __future__ import annotations

import time

import pytest

from tests.proxy.support import by_rule, proxied_adapter, verdicts
from toolwire.harness.engine.verdicts import CONVERT, UNSUPPORTED, Verdict

CONVERTING = [
    ("anthropic-messages", "openai-chat", "single-tool/weather-anthropic"),
    ("anthropic-messages", "openai-chat", "streaming/parallel-anthropic"),
    ("openai-chat", "anthropic-messages", "parallel/two-cities-openai"),
    ("openai-chat", "anthropic-messages", "streaming/parallel-openai"),
    ("anthropic-messages", "deepseek-chat", "thinking/tool-use-anthropic"),
    ("deepseek-chat", "anthropic-messages", "thinking/stream-deepseek"),
    ("openai-chat", "openai-chat", "error-result/retry-after-error-openai"),
]


def _problems(found: list[Verdict]) -> list[str]:
    return [f"{v.item_id}: {v.outcome}: {v.message}" for v in found if v.outcome != "pass"]


@pytest.mark.parametrize(("front", "back", "case_id"), CONVERTING)
def test_a_correct_proxy_passes_on_both_legs(front: str, back: str, case_id: str) -> None:
    with proxied_adapter(front, back) as adapter:
        found = verdicts(adapter, case_id)
    assert _problems(found) == []
    judged = {where for verdict in found for where in verdict.directions}
    assert any("(forwarded upstream)" in where for where in judged), judged
    assert any("(returned downstream)" in where for where in judged), judged
    assert len(found) >= 10


def test_the_response_leg_of_a_stream_is_judged_as_a_stream() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat") as adapter:
        found = by_rule(verdicts(adapter, "streaming/parallel-anthropic"))
    assert found["stream.event_order"].outcome == "pass"
    assert any(
        where.startswith("stream openai-chat->anthropic-messages (returned downstream)")
        for where in found["stream.event_order"].directions
    )


def test_a_case_in_another_front_dialect_is_unsupported() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat") as adapter:
        found = verdicts(adapter, "single-tool/weather-openai")
    assert [v.rule_code for v in found] == [UNSUPPORTED]
    assert "front dialect is anthropic-messages" in found[0].message


def test_a_case_without_a_twin_in_the_back_dialect_is_unsupported() -> None:
    with proxied_adapter("anthropic-messages", "deepseek-chat") as adapter:
        found = verdicts(adapter, "single-tool/weather-anthropic")
    assert [v.outcome for v in found] == ["unsupported"]
    assert "no twin in deepseek-chat" in found[0].message


def test_dropped_reasoning_fails_the_replay_rule_and_the_upstream_match() -> None:
    with proxied_adapter("anthropic-messages", "deepseek-chat", "drop-reasoning") as adapter:
        found = by_rule(verdicts(adapter, "thinking/tool-use-anthropic"))
    assert found["reasoning.replay_missing"].outcome == "fail"
    assert "reasoning_content is missing" in found["reasoning.replay_missing"].message
    mismatch = found[CONVERT]
    assert mismatch.outcome == "error"
    assert "the replay upstream did not recognise it" in mismatch.message
    assert "['thinking']" in mismatch.message
    # The upstream still answered from the recording where the case is, so the
    # proxy's (correct) conversion of that answer is judged and passes.
    assert "it answered with recorded interaction 2" in mismatch.message
    wheres = {where for verdict in found.values() for where in verdict.directions}
    assert any("(returned downstream), interaction 2" in where for where in wheres), wheres
    assert found["fidelity.arguments"].outcome == "pass"


def test_split_parallel_results_are_caught_by_their_rule() -> None:
    with proxied_adapter("openai-chat", "anthropic-messages", "split-results") as adapter:
        found = by_rule(verdicts(adapter, "parallel/two-cities-openai"))
    verdict = found["ordering.parallel_results_split"]
    assert verdict.outcome in ("fail", "warn")
    assert "split over messages[2], messages[3]" in verdict.message
    # The content is all there, so the upstream still recognises the request.
    assert CONVERT not in found


def test_a_renamed_tool_fails_fidelity_and_names_the_near_miss() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "rename-tool") as adapter:
        found = by_rule(verdicts(adapter, "single-tool/weather-anthropic"))
    assert found["fidelity.tool_definitions"].outcome == "fail"
    assert '"get_weather", received "get_weather_renamed"' in found[CONVERT].message


def _only_error(found: list[Verdict]) -> Verdict:
    errors = [v for v in found if v.outcome == "error"]
    assert len(errors) == 1, _problems(found)
    assert not [v for v in found if v.outcome == "fail"], _problems(found)
    return errors[0]


def test_a_500_is_an_error_naming_the_status_and_body() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "status-500") as adapter:
        found = verdicts(adapter, "single-tool/weather-anthropic")
    error = _only_error(found)
    assert error.message == 'the proxy answered HTTP 500: {"error": {"message": "boom"}}'
    # What the proxy forwarded before failing is still judged.
    assert by_rule(found)["fidelity.arguments"].outcome == "pass"


def test_a_reset_connection_is_an_error() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "reset") as adapter:
        error = _only_error(verdicts(adapter, "single-tool/weather-anthropic"))
    assert "dropped the connection without answering" in error.message


def test_a_hanging_proxy_is_stopped_by_the_request_timeout() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "hang", timeout=0.5) as adapter:
        started = time.monotonic()
        error = _only_error(verdicts(adapter, "single-tool/weather-anthropic"))
        elapsed = time.monotonic() - started
    assert "sent no answer within 0.5 s" in error.message
    assert elapsed < 3.0


def test_the_case_timeout_caps_the_request_timeout() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "hang", timeout=30) as adapter:
        started = time.monotonic()
        error = _only_error(verdicts(adapter, "single-tool/weather-anthropic", timeout=0.6))
        elapsed = time.monotonic() - started
    assert "sent no answer within" in error.message
    assert elapsed < 4.0


def test_a_stream_closed_midway_is_an_error_saying_how_far_it_got() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "close-mid-stream") as adapter:
        error = _only_error(verdicts(adapter, "streaming/parallel-anthropic"))
    assert "closed the connection midway through the body" in error.message
    assert "(2 complete events)" in error.message


def test_a_stalled_stream_is_an_error_not_a_hang() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "stall-stream", 0.5) as adapter:
        error = _only_error(verdicts(adapter, "streaming/parallel-anthropic"))
    assert "stopped sending midway" in error.message


def test_invalid_sse_fails_the_response_schema() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "invalid-sse") as adapter:
        found = by_rule(verdicts(adapter, "streaming/parallel-anthropic"))
    assert found["schema.response"].outcome == "fail"
    assert "is not JSON" in found["schema.response"].message
    assert CONVERT not in found


def test_json_for_a_stream_fails_the_response_schema() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "json-for-stream") as adapter:
        found = by_rule(verdicts(adapter, "streaming/parallel-anthropic"))
    assert "the request asked for an event stream" in found["schema.response"].message
    assert "'application/json'" in found["schema.response"].message


def test_a_proxy_that_is_not_running_is_refused() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat") as adapter:
        from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
        from toolwire.harness.proxy.process import free_port

        assert isinstance(adapter.implementation, HttpProxyAdapter)
        adapter.implementation.port = free_port()
        error = _only_error(verdicts(adapter, "single-tool/weather-anthropic"))
    assert "refused the connection" in error.message
