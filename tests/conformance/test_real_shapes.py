"""Shapes real APIs accepted, read without a false MUST (issue 28), each shown
three ways: the form the reference writes, a correct form written differently
(what a real client sent and the API accepted), and a broken one still caught.

The payloads are written here in the real shapes; the recordings they follow
are named by their upstream path (see docs/accuracy.md, "Real Responses and
Gemini recordings: verdicts").
"""

from __future__ import annotations

import copy
import json
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.pairing.orphan_result import PAYLOAD_CHECKS as ORPHAN_CHECKS
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.schema.validation import check_request
from toolwire.harness.dialects import get_codec
from toolwire.harness.lint.check import lint_text

GEMINI_URI = (
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-flash-preview:generateContent"
)
RESPONSES_URI = "https://api.openai.com/v1/responses"
Json = dict[str, Any]


def cassette(uri: str, *exchanges: tuple[Json, Json]) -> str:
    return json.dumps(
        {
            "interactions": [
                {
                    "request": {"method": "POST", "uri": uri, "body": json.dumps(request)},
                    "response": {
                        "status": {"code": 200},
                        "headers": {"Content-Type": ["application/json"]},
                        "body": {"string": json.dumps(response)},
                    },
                }
                for request, response in exchanges
            ]
        }
    )


def musts(text: str, dialect: str | None = None) -> list[tuple[str, str]]:
    found = lint_text(text, "case.json", dialect)
    return sorted((v.code, v.path) for v in found if v.level == "MUST")


# --- Gemini: two consecutive model contents are one model turn ---------------------
# pydantic-ai, tests/cassettes/test_tool_search/
# test_cross_provider_capability_replay[openai-responses-gpt-5.4-google-gemini-3-flash-preview].yaml

WEATHER = {"functionDeclarations": [{"name": "weather", "description": "Weather of a city"}]}


def _call(name: str, city: str, call_id: str) -> Json:
    return {"functionCall": {"id": call_id, "name": name, "args": {"city": city}}}


def _answer(name: str, call_id: str, text: str) -> Json:
    return {"functionResponse": {"id": call_id, "name": name, "response": {"output": text}}}


def _gemini_request(model_contents: list[list[Json]], answers: list[Json]) -> Json:
    contents: list[Json] = [{"role": "user", "parts": [{"text": "Paris and Rome?"}]}]
    contents += [{"role": "model", "parts": parts} for parts in model_contents]
    contents.append({"role": "user", "parts": answers})
    return {"contents": contents, "tools": [WEATHER]}


PARIS, ROME = _call("weather", "Paris", "c_paris"), _call("weather", "Rome", "c_rome")
BOTH_ANSWERS = [_answer("weather", "c_paris", "18 C"), _answer("weather", "c_rome", "24 C")]


def _gemini_payload(body: Json) -> str:
    return json.dumps(body)


def test_gemini_calls_in_one_model_content_pass() -> None:
    body = _gemini_request([[PARIS, ROME]], BOTH_ANSWERS)
    assert musts(_gemini_payload(body), "gemini") == []


def test_gemini_calls_in_consecutive_model_contents_are_one_turn() -> None:
    body = _gemini_request([[PARIS], [ROME]], BOTH_ANSWERS)
    assert musts(_gemini_payload(body), "gemini") == []


def test_gemini_consecutive_model_contents_with_a_missing_answer_still_fail() -> None:
    body = _gemini_request([[PARIS], [ROME]], BOTH_ANSWERS[:1])
    assert musts(_gemini_payload(body), "gemini") == [
        ("pairing.unanswered_call", "contents[2].parts[0]")
    ]


def test_gemini_consecutive_model_contents_with_a_ghost_answer_still_fail() -> None:
    ghost = _answer("weather", "c_oslo", "3 C")
    body = _gemini_request([[PARIS], [ROME]], [*BOTH_ANSWERS, ghost])
    assert musts(_gemini_payload(body), "gemini") == [
        ("pairing.orphan_result", "contents[3].parts[2]")
    ]


def test_other_dialects_keep_each_assistant_message_a_turn() -> None:
    # openai-chat answers 400 when an assistant message's calls are not followed
    # by their tool messages: two assistant messages in a row are still two turns.
    def call(call_id: str) -> Json:
        return {"id": call_id, "type": "function", "function": {"name": "w", "arguments": "{}"}}

    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "Paris and Rome?"},
            {"role": "assistant", "content": None, "tool_calls": [call("call_a")]},
            {"role": "assistant", "content": None, "tool_calls": [call("call_b")]},
            {"role": "tool", "tool_call_id": "call_a", "content": "18"},
            {"role": "tool", "tool_call_id": "call_b", "content": "24"},
        ],
    }
    found = {code for code, _ in musts(json.dumps(body), "openai-chat")}
    assert {"pairing.unanswered_call", "pairing.orphan_result"} <= found


# --- Responses: a request that continues server-side state -------------------------

TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Current weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}
OUTPUT = {"type": "function_call_output", "call_id": "call_Kx3p9QdL2mVn7RtY", "output": "18 C"}


def _responses(extra: Json, items: list[Json]) -> Json:
    return {"model": "gpt-5", "input": items, "tools": [TOOL], **extra}


def _orphan_check(body: Json) -> Any:
    parsed = get_codec("openai-responses").parse_request(body)
    profile = DEFAULT_PROFILE["openai-responses"]
    return ORPHAN_CHECKS["pairing.orphan_result"](
        PayloadUnderTest("openai-responses", "request", profile, body, parsed)
    )


def test_a_result_for_a_call_the_server_holds_is_not_an_orphan() -> None:
    for state in (
        {"previous_response_id": "resp_68af0c1e9c5c8190"},
        {"conversation": "conv_68af0c"},
    ):
        body = _responses(state, [OUTPUT])
        assert musts(json.dumps(body), "openai-responses") == []
        assert _orphan_check(body) is None  # nothing the request holds to judge: no verdict


def test_the_same_result_without_server_state_is_an_orphan() -> None:
    body = _responses({}, [OUTPUT])
    assert musts(json.dumps(body), "openai-responses") == [("pairing.orphan_result", "input[0]")]


def test_server_state_still_judges_the_calls_the_request_carries() -> None:
    call = {
        "type": "function_call",
        "call_id": "call_Zz1",
        "name": "get_weather",
        "arguments": '{"city": "Oslo"}',
    }
    answered = {"type": "function_call_output", "call_id": "call_Zz1", "output": "3 C"}
    state = {"previous_response_id": "resp_68af0c1e9c5c8190"}
    body = _responses(state, [OUTPUT, call, answered])
    assert musts(json.dumps(body), "openai-responses") == []
    assert _orphan_check(body) == []  # judged: the call of input[1] is answered
    user = {"role": "user", "content": "And tomorrow?"}
    unanswered = _responses(state, [OUTPUT, call, user])
    assert musts(json.dumps(unanswered), "openai-responses") == [
        ("pairing.unanswered_call", "input[1]")
    ]


# --- Gemini: an empty answer a client does not send back ---------------------------


def _gemini_response(parts: list[Json]) -> Json:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9, "trafficType": "ON_DEMAND"},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "xQ1aaPqJBPmBm9IP7_2l8QE",
    }


FIRST = {"contents": [{"role": "user", "parts": [{"text": "Say nothing."}]}]}
NEXT = {
    "contents": [
        {"role": "user", "parts": [{"text": "Say nothing."}]},
        {"role": "user", "parts": [{"text": "Now say hi."}]},
    ]
}
DONE = _gemini_response([{"text": "Hi."}])


def test_an_empty_answer_left_out_loses_nothing() -> None:
    empty = _gemini_response([{"text": ""}])
    assert musts(cassette(GEMINI_URI, (FIRST, empty), (NEXT, DONE))) == []


def test_an_empty_answer_sent_back_passes() -> None:
    empty = _gemini_response([{"text": ""}])
    sent = copy.deepcopy(NEXT)
    sent["contents"].insert(1, {"role": "model", "parts": [{"text": ""}]})
    assert musts(cassette(GEMINI_URI, (FIRST, empty), (sent, DONE))) == []


def test_an_answer_with_text_left_out_is_still_caught() -> None:
    said = _gemini_response([{"text": "Nothing."}])
    assert musts(cassette(GEMINI_URI, (FIRST, said), (NEXT, DONE))) == [
        ("replay.assistant_altered", "contents[1]")
    ]


# --- Gemini: "description": null is an absent description --------------------------
# simonw/llm-gemini, tests/cassettes/test_gemini/test_tools.yaml


def _declared(description: Any) -> str:
    tool = {"name": "pelican_name_generator", "description": description, "parameters": None}
    body = {"contents": FIRST["contents"], "tools": [{"functionDeclarations": [tool]}]}
    return json.dumps(body)


def test_a_null_description_is_absent_in_protobuf_json() -> None:
    assert musts(_declared(None), "gemini") == []
    assert musts(_declared("Generates names"), "gemini") == []


def test_a_description_of_the_wrong_type_still_fails() -> None:
    # The codec refuses it before lint gets there; the schema rule alone still does.
    body = json.loads(_declared(None))
    parsed = get_codec("gemini").parse_request(body)
    body["tools"][0]["functionDeclarations"][0]["description"] = 7
    payload = PayloadUnderTest("gemini", "request", DEFAULT_PROFILE["gemini"], body, parsed)
    assert [f.path for f in check_request(payload) or ()] == [
        "tools[0].functionDeclarations[0].description"
    ]


def test_null_inside_call_arguments_is_a_value() -> None:
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "x"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": None}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "f", "response": {"v": None}}}],
            },
        ]
    }
    assert musts(json.dumps(body), "gemini") == []


# --- Responses: a server that numbers call ids per response (Bedrock's call_0) -----


def _fc(call_id: str, item: str, city: str) -> Json:
    arguments = json.dumps({"city": city})
    return {
        "type": "function_call",
        "id": item,
        "call_id": call_id,
        "name": "get_weather",
        "arguments": arguments,
    }


def _answered(call_id: str, text: str) -> Json:
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def _response(output: list[Json]) -> Json:
    return {
        "id": "resp_bedrock_1",
        "object": "response",
        "status": "completed",
        "model": "openai.gpt-oss-120b",
        "output": output,
    }


USER = {"role": "user", "content": "Weather in Paris, then Rome?"}
PARIS_FC, ROME_FC = _fc("call_0", "fc_a1", "Paris"), _fc("call_0", "fc_b2", "Rome")


def _bedrock(second_request_items: list[Json]) -> str:
    first = _responses({}, [USER])
    second = _responses({}, [USER, PARIS_FC, _answered("call_0", "18 C")])
    third = _responses({}, second_request_items)
    text = _response(
        [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "18 C and 24 C.", "annotations": []}],
            }
        ]
    )
    return cassette(
        RESPONSES_URI,
        (first, _response([PARIS_FC])),
        (second, _response([ROME_FC])),
        (third, text),
    )


def test_ids_a_server_reuses_sent_back_unchanged_pass() -> None:
    raw = [USER, PARIS_FC, _answered("call_0", "18 C"), ROME_FC, _answered("call_0", "24 C")]
    assert musts(_bedrock(raw)) == []


def test_ids_a_server_reuses_renamed_by_the_client_fail_the_replay() -> None:
    renamed = [
        USER,
        _fc("call_0", "fc_a1", "Paris"),
        _answered("call_0", "18 C"),
        _fc("resp_bedrock_1:call_0", "fc_b2", "Rome"),
        _answered("resp_bedrock_1:call_0", "24 C"),
    ]
    assert [code for code, _ in musts(_bedrock(renamed))] == ["replay.assistant_altered"]


def test_two_calls_of_one_turn_with_one_id_are_still_a_duplicate() -> None:
    body = _responses(
        {},
        [USER, PARIS_FC, ROME_FC, _answered("call_0", "18 C"), _answered("call_0", "24 C")],
    )
    found = [code for code, _ in musts(json.dumps(body), "openai-responses")]
    assert "pairing.call_id_duplicate" in found


# --- Gemini: an answer sent back over consecutive model contents -------------------

ASKED = {"contents": [{"role": "user", "parts": [{"text": "Paris and Rome?"}]}], "tools": [WEATHER]}
CALLED = _gemini_response([PARIS, ROME])


def _replayed(model_contents: list[list[Json]], answers: list[Json]) -> str:
    return cassette(GEMINI_URI, (ASKED, CALLED), (_gemini_request(model_contents, answers), DONE))


def test_an_answer_sent_back_in_one_content_passes() -> None:
    assert musts(_replayed([[PARIS, ROME]], BOTH_ANSWERS)) == []


def test_an_answer_sent_back_over_consecutive_contents_passes() -> None:
    assert musts(_replayed([[PARIS], [ROME]], BOTH_ANSWERS)) == []


def test_an_answer_sent_back_with_a_call_lost_is_still_caught() -> None:
    found = musts(_replayed([[PARIS]], BOTH_ANSWERS[:1]))
    assert ("replay.assistant_altered", "contents[1]") in found
