"""A forwarded request the upstream does not recognise is still answered by
position, so the proxy's response leg is judged, unless serving the recording
would judge the proxy on an answer it could not have been given.

docs/proxies.md, "Matching": the miss stays the request leg's ``error`` (with
the near-miss diff), the recording where the case is answers it when the
request is the same kind of call (endpoint, dialect, stream choice).
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest

from tests.proxy.support import by_rule, case, proxied_adapter, verdicts
from toolwire.harness.engine.verdicts import CONVERT, Verdict
from toolwire.harness.proxy.matching import Matcher, position_refusal
from toolwire.harness.proxy.replay import ReplayUpstream
from toolwire.harness.proxy.replay_http import MISMATCH_STATUS

WEATHER = "single-tool/weather-anthropic"
WEATHER_OPENAI = "single-tool/weather-openai"
STREAM = "streaming/parallel-anthropic"
RESPONSE_LEG = "(returned downstream)"


def _response_leg_findings(found: list[Verdict]) -> list[str]:
    return [
        f"{v.rule_code}: {item.message}"
        for v in found
        if v.outcome in ("fail", "warn")
        for item in v.findings
        if RESPONSE_LEG in item.where
    ]


def _response_leg_rules(found: list[Verdict]) -> set[str]:
    return {v.rule_code for v in found if any(RESPONSE_LEG in w for w in v.directions)}


# --- through a toy proxy: the two legs ------------------------------------------


def test_a_wrong_request_is_reported_and_the_right_answer_still_passes() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "drop-tool") as adapter:
        found = verdicts(adapter, WEATHER)
    rules = by_rule(found)
    # the request leg: the dropped tool, and the miss with its diff
    assert rules["fidelity.tool_definitions"].outcome == "fail"
    miss = rules[CONVERT]
    assert miss.outcome == "error"
    assert miss.message.startswith("the replay upstream did not recognise it: ")
    assert "$['conversation']['tools']" in miss.message
    assert "it answered with recorded interaction 1, where the case is" in miss.message
    assert all("(forwarded upstream)" in where for where in miss.directions)
    # the response leg: judged, and the proxy converted the answer right
    assert {"fidelity.arguments", "schema.response", "fidelity.text"} <= _response_leg_rules(found)
    assert _response_leg_findings(found) == []


def test_a_wrong_request_and_a_wrong_answer_are_both_reported() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "drop-tool-bad-answer") as adapter:
        found = verdicts(adapter, WEATHER)
    rules = by_rule(found)
    assert rules[CONVERT].outcome == "error"
    assert "did not recognise it" in rules[CONVERT].message
    assert rules["fidelity.tool_definitions"].outcome == "fail"
    response_findings = _response_leg_findings(found)
    assert any(text.startswith("fidelity.arguments: ") for text in response_findings), (
        response_findings
    )


def test_a_request_for_a_stream_is_not_answered_with_a_json_recording() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "flip-stream") as adapter:
        found = verdicts(adapter, WEATHER)
    miss = by_rule(found)[CONVERT]
    assert "could not answer it" in miss.message
    assert "it asks for a stream, the recording is a JSON answer" in miss.message
    assert "so the proxy's answer cannot be judged" in miss.message
    assert _response_leg_rules(found) == set()


def test_a_json_request_is_not_answered_with_a_streamed_recording() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "flip-stream") as adapter:
        found = verdicts(adapter, STREAM)
    miss = by_rule(found)[CONVERT]
    assert "it asks for a JSON answer, the recording is a stream" in miss.message
    assert _response_leg_rules(found) == set()


def test_a_request_to_another_dialects_endpoint_is_not_answered() -> None:
    with proxied_adapter("anthropic-messages", "openai-chat", "wrong-endpoint") as adapter:
        found = verdicts(adapter, WEATHER)
    miss = by_rule(found)[CONVERT]
    assert "it went to POST /messages, the recording to POST /chat/completions" in miss.message
    assert _response_leg_rules(found) == set()


# --- the replay upstream itself -------------------------------------------------


@pytest.fixture
def replay() -> Iterator[ReplayUpstream]:
    with ReplayUpstream(Matcher("conversation", "openai-chat")) as server:
        yield server


def _post(server: ReplayUpstream, path: str, body: object) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("POST", path, body=json.dumps(body).encode())
    return connection.getresponse()


def _changed_request(index: int) -> dict[str, object]:
    body: dict[str, object] = case(WEATHER_OPENAI).interactions[index].request_json()
    body["messages"] = [{"role": "user", "content": "And in Rome?"}]
    return body


def test_without_a_position_a_miss_gets_404(replay: ReplayUpstream) -> None:
    replay.serve(case(WEATHER_OPENAI).interactions)
    response = _post(replay, "/v1/chat/completions", _changed_request(1))
    assert response.status == MISMATCH_STATUS
    [received] = replay.received()
    assert received.by_position is None and received.miss is not None


def test_with_a_position_a_miss_gets_that_recording_and_stays_a_miss(
    replay: ReplayUpstream,
) -> None:
    weather = case(WEATHER_OPENAI)
    replay.serve(weather.interactions)
    replay.answer_by_position(1)
    response = _post(replay, "/v1/chat/completions", _changed_request(1))
    assert response.status == 200
    assert json.loads(response.read()) == weather.interactions[1].response_json()
    [received] = replay.received()
    assert received.matched is None
    assert received.by_position == 1
    assert received.miss is not None and '"And in Rome?"' in received.miss


def test_a_new_cassette_forgets_the_position(replay: ReplayUpstream) -> None:
    replay.serve(case(WEATHER_OPENAI).interactions)
    replay.answer_by_position(0)
    replay.serve(case(WEATHER_OPENAI).interactions)
    assert _post(replay, "/v1/chat/completions", _changed_request(0)).status == MISMATCH_STATUS


# --- when serving by position is refused ------------------------------------------

RECORDED = ("POST", "/chat/completions")
OPENAI_BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(
    ("received", "stream", "reason"),
    [
        (("POST", "/v1/chat/completions", OPENAI_BODY), False, None),
        (("POST", "/v1/chat/completions", {**OPENAI_BODY, "stream": True}), True, None),
        (("POST", "/v1/chat/completions", {**OPENAI_BODY, "stream": True}), False, "a stream"),
        (("POST", "/v1/chat/completions", OPENAI_BODY), True, "asks for a JSON answer"),
        (("POST", "/v1/messages", OPENAI_BODY), False, "another endpoint"),
        (("GET", "/v1/chat/completions", OPENAI_BODY), False, "another endpoint"),
        (("POST", "/v1/chat/completions", None), False, "its body is not JSON"),
        (("POST", "/v1/chat/completions", {"messages": "hi"}), False, "codec cannot read it"),
        (("POST", "/v1/chat/completions", ["not", "an", "object"]), False, "codec cannot read it"),
    ],
)
def test_position_refusal(
    received: tuple[str, str, object], stream: bool, reason: str | None
) -> None:
    found = position_refusal("openai-chat", received, RECORDED, stream)
    if reason is None:
        assert found is None
    else:
        assert found is not None and reason in found


def test_without_a_dialect_nothing_is_served_by_position() -> None:
    found = position_refusal(None, ("POST", "/chat/completions", OPENAI_BODY), RECORDED, False)
    assert found == "the upstream's dialect is not known"
