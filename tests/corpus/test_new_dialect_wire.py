"""The payloads of the openai-responses and gemini cases in corpus-pending/
have the providers' documented shapes (tests/corpus/wire_shapes.py, and the
providers' own SDK types when installed), their features match what they hold,
and every multi-request case sends back what the model returned: Responses
call_ids and reasoning items with their encrypted_content, Gemini calls and
their thoughtSignatures (byte for byte, whatever the base64 alphabet)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.corpus import wire_shapes
from tests.corpus.new_dialect_cases import Exchange, PendingCase, pending_cases

CASES = list(pending_cases())
RESPONSES = [case for case in CASES if case.dialect == "openai-responses"]
GEMINI = [case for case in CASES if case.dialect == "gemini"]
# A response that ended early is retried, not continued: nothing to replay.
RETRIED = {"incomplete", "MAX_TOKENS", "MALFORMED_FUNCTION_CALL"}


def _ids(case: PendingCase) -> str:
    return case.id


def _sse(exchange: Exchange) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e.event, json.loads(e.data)) for e in exchange.events() if e.data]


def _final_response(case: PendingCase, exchange: Exchange) -> dict[str, Any]:
    """What the model answered, reassembled for a stream."""
    if not exchange.is_stream:
        return dict(exchange.response_json())
    if case.dialect == "openai-responses":
        return dict(_sse(exchange)[-1][1]["response"])
    parts: list[dict[str, Any]] = []
    reason = None
    for chunk in exchange.event_payloads():
        candidate = chunk["candidates"][0]
        parts += candidate.get("content", {}).get("parts", [])
        reason = candidate.get("finishReason", reason)
    return {"candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": reason}]}


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_payloads_have_the_documented_shape(case: PendingCase) -> None:
    problems: list[str] = []
    for exchange in case.exchanges:
        where = f"interaction {exchange.index + 1}"
        if case.dialect == "openai-responses":
            assert exchange.uri == "https://api.openai.com/v1/responses"
            problems += [f"{where} {p}" for p in wire_shapes.responses_request(exchange.request)]
            assert bool(exchange.request.get("stream")) == exchange.is_stream
            if exchange.is_stream:
                problems += [f"{where} {p}" for p in wire_shapes.responses_stream(_sse(exchange))]
            else:
                body = exchange.response_json()
                problems += [f"{where} {p}" for p in wire_shapes.responses_response(body)]
        else:
            verb = "streamGenerateContent?alt=sse" if exchange.is_stream else "generateContent"
            assert exchange.uri.startswith(
                "https://generativelanguage.googleapis.com/v1beta/models/"
            )
            assert exchange.uri.endswith(f":{verb}")
            problems += [f"{where} {p}" for p in wire_shapes.gemini_request(exchange.request)]
            if exchange.is_stream:
                chunks = exchange.event_payloads()
                problems += [f"{where} {p}" for p in wire_shapes.gemini_stream(chunks)]
            else:
                body = exchange.response_json()
                problems += [f"{where} {p}" for p in wire_shapes.gemini_response(body)]
        assert exchange.status == 200
    assert problems == []


def _calls_in(case: PendingCase, body: dict[str, Any]) -> list[list[str]]:
    """The tool calls of each model turn of a request or response, by name."""
    if case.dialect == "openai-responses":
        items = body.get("output", body.get("input"))
        turns: list[list[str]] = [[]]
        for item in items if isinstance(items, list) else []:
            if item.get("type") == "function_call":
                turns[-1].append(item["name"])
            elif turns[-1] and (
                item.get("type") == "function_call_output" or item.get("role") == "user"
            ):
                turns.append([])  # the model's turn ends where the client speaks
        return turns
    contents = [c["content"] for c in body.get("candidates", []) if "content" in c]
    contents += body.get("contents", [])
    return [
        [p["functionCall"]["name"] for p in c.get("parts", []) if "functionCall" in p]
        for c in contents
    ]


def _replays_reasoning(case: PendingCase, body: dict[str, Any]) -> bool:
    if case.dialect == "openai-responses":
        items = body["input"] if isinstance(body["input"], list) else []
        return any(i.get("type") == "reasoning" for i in items) and any(
            i.get("type") == "function_call" for i in items
        )
    return any(
        c.get("role") == "model"
        and any("thoughtSignature" in p or p.get("thought") for p in c["parts"])
        and any("functionCall" in p for p in c["parts"])
        for c in body["contents"]
    )


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_features_match_the_payloads(case: PendingCase) -> None:
    bodies = [e.request for e in case.exchanges]
    bodies += [_final_response(case, e) for e in case.exchanges]
    turns = [turn for body in bodies for turn in _calls_in(case, body)]
    assert ("streaming" in case.features) == any(e.is_stream for e in case.exchanges)
    if "parallel" in case.features:
        assert any(len(turn) >= 2 for turn in turns), "a turn with two calls or more"
    if "single-tool" in case.features:
        assert any(turns), "a tool call"
    if "reasoning-replay" in case.features:
        assert any(_replays_reasoning(case, e.request) for e in case.exchanges)


def _responses_replayed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    sent = [i for i in after["input"] if isinstance(after["input"], list)]
    call_ids = {i.get("call_id") for i in sent if i.get("type") == "function_call"}
    encrypted = {i.get("encrypted_content") for i in sent if i.get("type") == "reasoning"}
    texts = {
        part.get("text") if isinstance(part, dict) else None
        for i in sent
        if i.get("role") == "assistant"
        for part in (i["content"] if isinstance(i["content"], list) else [{"text": i["content"]}])
    }
    missing = []
    for item in before["output"]:
        if item["type"] == "function_call" and item["call_id"] not in call_ids:
            missing.append(f"function_call {item['call_id']}")
        if item["type"] == "reasoning" and item.get("encrypted_content") not in encrypted | {None}:
            missing.append(f"the encrypted_content of {item['id']}")
        if item["type"] == "message":
            missing += [
                f"the text of {item['id']}" for p in item["content"] if p["text"] not in texts
            ]
    return missing


def _gemini_replayed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    sent = [p for c in after["contents"] if c["role"] == "model" for p in c["parts"]]
    signatures = {wire_shapes.signature_bytes(p.get("thoughtSignature")) for p in sent}
    calls = [
        (p["functionCall"]["name"], p["functionCall"].get("args"))
        for p in sent
        if "functionCall" in p
    ]
    texts = {p.get("text") for p in sent}
    missing = []
    for part in before["candidates"][0].get("content", {}).get("parts", []):
        if part.get("text") and not part.get("thought") and part["text"] not in texts:
            missing.append("a text part")
        if "functionCall" in part:
            call = part["functionCall"]
            if (call["name"], call.get("args")) not in calls:
                missing.append(f"functionCall {call['name']}")
        signature = wire_shapes.signature_bytes(part.get("thoughtSignature"))
        if signature is not None and signature not in signatures:
            missing.append("a thoughtSignature")
    return missing


@pytest.mark.parametrize("case", [c for c in CASES if len(c.exchanges) > 1], ids=_ids)
def test_the_next_request_sends_back_what_the_model_returned(case: PendingCase) -> None:
    replayed = 0
    for before, after in zip(case.exchanges, case.exchanges[1:], strict=False):
        answer = _final_response(case, before)
        if case.dialect == "openai-responses":
            if answer.get("status") in RETRIED:
                continue
            missing = _responses_replayed(answer, after.request)
        else:
            if answer["candidates"][0].get("finishReason") in RETRIED:
                continue
            missing = _gemini_replayed(answer, after.request)
        assert missing == [], f"request {after.index + 1} lacks {missing}"
        replayed += 1
    if not replayed:
        pytest.skip("every answer before the last one ended early and was retried")


# ----------------------------------------------------------- provider SDKs


@pytest.mark.parametrize("case", RESPONSES, ids=_ids)
def test_openai_python_types_accept_the_responses_cases(case: PendingCase) -> None:
    pytest.importorskip("openai", reason="openai-python is not installed (verification only)")
    from tests.corpus import sdk_shapes

    problems: list[str] = []
    for exchange in case.exchanges:
        problems += sdk_shapes.responses_request(exchange.request)
        if exchange.is_stream:
            for _, event in _sse(exchange):
                problems += sdk_shapes.responses_event(event)
        else:
            problems += sdk_shapes.responses_response(exchange.response_json())
    assert problems == []


@pytest.mark.parametrize("case", GEMINI, ids=_ids)
def test_google_genai_types_accept_the_gemini_cases(case: PendingCase) -> None:
    pytest.importorskip("google.genai", reason="google-genai is not installed (verification only)")
    from tests.corpus import sdk_shapes

    problems: list[str] = []
    for exchange in case.exchanges:
        problems += sdk_shapes.gemini_request(exchange.request)
        chunks = exchange.event_payloads() if exchange.is_stream else [exchange.response_json()]
        for chunk in chunks:
            problems += sdk_shapes.gemini_response(chunk)
    assert problems == []
