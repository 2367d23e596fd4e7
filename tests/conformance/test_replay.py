"""replay.assistant_altered: what response n returned comes back unchanged in
request n+1. Holds on the corpus conversations and on consecutive real
recordings; fails on hand-altered copies of them."""

from __future__ import annotations

import copy
import re
from collections import defaultdict
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from tests.conformance.test_reasoning import CORPUS, case_payloads, codes, corpus_case
from tests.support.real_transcripts import (
    REAL_DEFECTS,
    RealTranscript,
    load_real_transcripts,
    with_requests,
)
from toolwire.conformance.context import Exchange, PayloadUnderTest
from toolwire.conformance.findings import Finding
from toolwire.conformance.profiles import DEFAULT_PROFILE
from toolwire.conformance.readings.server_state import server_state
from toolwire.conformance.replay.assistant_altered import (
    REPLAY_CHECKS,
    check_assistant_altered,
    returned_nothing,
)
from toolwire.harness.dialects import get_codec
from toolwire.harness.sse import parse_sse

CODE = "replay.assistant_altered"


def corpus_exchanges(case_id: str) -> list[Exchange]:
    payloads = list(case_payloads(corpus_case(case_id)))
    requests = [p for p in payloads if p.label.endswith("request")]
    answers = {int(p.label.split()[0]): p for p in payloads if not p.label.endswith("request")}
    return [Exchange(n, put, answers.get(n)) for n, put in enumerate(requests)]


def with_request(
    exchanges: list[Exchange], n: int, edit: Callable[[dict[str, Any]], None]
) -> list[Exchange]:
    """A copy of ``exchanges`` whose request n went through ``edit``."""
    put = exchanges[n].request
    body = copy.deepcopy(put.raw)
    edit(body)
    parsed = get_codec(put.dialect).parse_request(body)
    changed = PayloadUnderTest(put.dialect, "request", put.profile, body, parsed)
    return [*exchanges[:n], Exchange(n, changed, exchanges[n].response), *exchanges[n + 1 :]]


def test_the_engine_finds_the_check_under_its_code() -> None:
    assert {CODE: check_assistant_altered} == REPLAY_CHECKS


# --- the corpus conversations hold ------------------------------------------------

MULTI = [
    i for i in CORPUS.ids if len(corpus_case(i).interactions) > 1 and not corpus_case(i).is_negative
]


@pytest.mark.parametrize("case_id", MULTI)
def test_corpus_conversations_replay_what_was_returned(case_id: str) -> None:
    exchanges = corpus_exchanges(case_id)
    found = check_assistant_altered(exchanges)
    if found is None:
        # Only when no response returned anything to send back: a Gemini
        # MALFORMED_FUNCTION_CALL candidate has no content, and the client
        # sends the same request again (single-tool/malformed-function-call-gemini);
        # an empty answer left out (gemini-dev/empty-answer-not-replayed); or
        # when the server holds the answer (responses-dev/previous-response-continuation).
        assert not any(
            _returned_blocks(e) and not _nothing_to_send(e, after)
            for e, after in pairwise(exchanges)
        ), case_id
        return
    assert codes(found) == []


def _nothing_to_send(exchange: Exchange, after: Exchange) -> bool:
    answer = exchange.response
    conversation = after.request.conversation
    if answer is None or answer.response is None or conversation is None:
        return True
    message = answer.response.message
    return returned_nothing(message, conversation.dialect) or server_state(conversation) is not None


def _returned_blocks(exchange: Exchange) -> int:
    answer = exchange.response
    if answer is None or answer.response is None:
        return 0
    return sum(len(choice.message.blocks) for choice in answer.response.choices)


def test_a_single_request_has_nothing_to_replay() -> None:
    assert check_assistant_altered(corpus_exchanges("streaming/parallel-openai")) is None


# --- hand-altered copies fail -----------------------------------------------------


def single(found: list[Finding] | None) -> Finding:
    assert codes(found) == [CODE]
    assert found is not None
    return found[0]


def test_a_changed_call_id_is_caught() -> None:
    exchanges = corpus_exchanges("single-tool/weather-openai")

    def edit(body: dict[str, Any]) -> None:
        body["messages"][-2]["tool_calls"][0]["id"] = "call_renamed"

    found = single(check_assistant_altered(with_request(exchanges, 1, edit)))
    assert found.expected != found.actual
    assert found.actual == "call_renamed"
    assert "id" in found.message


def test_changed_arguments_are_caught_but_reserialised_ones_are_not() -> None:
    exchanges = corpus_exchanges("error-result/retry-after-error-openai")

    def reserialise(body: dict[str, Any]) -> None:
        body["messages"][1]["tool_calls"][0]["function"]["arguments"] = (
            '{"amount": 250, "from_currency": "USD", "to_currency": "EURO"}'
        )

    assert codes(check_assistant_altered(with_request(exchanges, 1, reserialise))) == []

    def change(body: dict[str, Any]) -> None:
        body["messages"][1]["tool_calls"][0]["function"]["arguments"] = (
            '{"amount": 250, "from_currency": "USD", "to_currency": "EUR"}'
        )

    found = single(check_assistant_altered(with_request(exchanges, 1, change)))
    assert found.path == "messages[1].tool_calls[0]"


def test_changed_text_is_caught() -> None:
    exchanges = corpus_exchanges("mixed-text/text-then-call-anthropic")

    def edit(body: dict[str, Any]) -> None:
        for block in body["messages"][1]["content"]:
            if block["type"] == "text":
                block["text"] = "Something else entirely."

    found = single(check_assistant_altered(with_request(exchanges, 1, edit)))
    assert found.actual == "Something else entirely."


def test_a_dropped_call_is_caught() -> None:
    exchanges = corpus_exchanges("parallel/two-cities-anthropic")

    def edit(body: dict[str, Any]) -> None:
        content = body["messages"][1]["content"]
        uses = [b for b in content if b["type"] == "tool_use"]
        content.remove(uses[-1])

    found = single(check_assistant_altered(with_request(exchanges, 1, edit)))
    assert "returned 2 tool call(s)" in found.message


def test_a_missing_reply_is_caught() -> None:
    # The reply is removed and its calls' ids are gone with it: request 1 now
    # has the tool result where the assistant's reply belongs.
    exchanges = corpus_exchanges("single-tool/weather-openai")

    def edit(body: dict[str, Any]) -> None:
        del body["messages"][-2]

    found = single(check_assistant_altered(with_request(exchanges, 1, edit)))
    assert found.actual == "tool"


def test_anthropic_thinking_on_a_tool_turn_must_come_back_unchanged() -> None:
    exchanges = corpus_exchanges("thinking/tool-use-anthropic")

    def resign(body: dict[str, Any]) -> None:
        body["messages"][1]["content"][0]["signature"] = "Zm9yZ2Vk"

    assert "changed" in single(check_assistant_altered(with_request(exchanges, 1, resign))).message

    def drop(body: dict[str, Any]) -> None:
        del body["messages"][1]["content"][0]

    assert "omits" in single(check_assistant_altered(with_request(exchanges, 1, drop))).message


def test_changed_redacted_thinking_data_is_caught() -> None:
    exchanges = corpus_exchanges("thinking/redacted-anthropic")

    def edit(body: dict[str, Any]) -> None:
        body["messages"][1]["content"][0]["data"] = "Q2hhbmdlZA=="

    single(check_assistant_altered(with_request(exchanges, 1, edit)))


def test_deepseek_reasoning_of_a_tool_stretch_must_come_back() -> None:
    exchanges = corpus_exchanges("reasoning-replay/deepseek-new-user-turn")

    def drop_final_answer_reasoning(body: dict[str, Any]) -> None:
        # messages[4] answered without calls, but its stretch made a call.
        del body["messages"][4]["reasoning_content"]

    found = single(check_assistant_altered(with_request(exchanges, 2, drop_final_answer_reasoning)))
    assert found.path == "messages[4].reasoning_content"

    def summarise(body: dict[str, Any]) -> None:
        body["messages"][2]["reasoning_content"] = "Checked the build."

    single(check_assistant_altered(with_request(exchanges, 1, summarise)))


def deepseek_exchanges(second_reasoning: str | None) -> list[Exchange]:
    """Two requests of a conversation without tool calls."""
    codec = get_codec("deepseek-chat")
    first = {"model": "deepseek-v4-pro", "messages": [{"role": "user", "content": "9.11 or 9.8?"}]}
    answer = {"role": "assistant", "content": "9.8 is greater.", "reasoning_content": "Compare."}
    reply = {
        "id": "r1",
        "object": "chat.completion",
        "model": "deepseek-v4-pro",
        "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}],
    }
    sent = {"role": "assistant", "content": "9.8 is greater."}
    if second_reasoning is not None:
        sent["reasoning_content"] = second_reasoning
    second = {
        "model": "deepseek-v4-pro",
        "messages": [*first["messages"], sent, {"role": "user", "content": "Why?"}],
    }
    profile = DEFAULT_PROFILE["deepseek-chat"]

    def put(kind: Any, body: dict[str, Any], parsed: Any) -> PayloadUnderTest:
        return PayloadUnderTest("deepseek-chat", kind, profile, body, parsed)

    return [
        Exchange(
            0,
            put("request", first, codec.parse_request(first)),
            put("response", reply, codec.parse_response(reply)),
        ),
        Exchange(1, put("request", second, codec.parse_request(second)), None),
    ]


@pytest.mark.parametrize("sent", [None, "", "Something else."])
def test_deepseek_reasoning_outside_tool_stretches_is_not_judged(sent: str | None) -> None:
    # Dropped or not, it is ignored by the API (thinking_mode guide).
    assert codes(check_assistant_altered(deepseek_exchanges(sent))) == []


def test_anthropic_thinking_of_a_turn_without_calls_may_be_dropped() -> None:
    transcripts = real_groups().get("pydantic-ai__test_anthropic_model_thinking_part")
    if transcripts is None:
        pytest.skip("the real recording is not available")
    exchanges = real_exchanges(transcripts)

    def drop(body: dict[str, Any]) -> None:
        body["messages"][1]["content"] = [
            b for b in body["messages"][1]["content"] if b["type"] != "thinking"
        ]

    assert codes(check_assistant_altered(with_request(exchanges, 1, drop))) == []

    def change(body: dict[str, Any]) -> None:
        body["messages"][1]["content"][0]["thinking"] = "A summary of my thoughts."

    single(check_assistant_altered(with_request(exchanges, 1, change)))


QWEN_TEXT = (
    "I'll check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nBeijing\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)


def qwen_exchanges(replayed_text: str) -> list[Exchange]:
    codec = get_codec("qwen-xml")
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                },
            },
        }
    ]
    text = QWEN_TEXT
    first = {
        "model": "qwen3-coder",
        "messages": [{"role": "user", "content": "Weather?"}],
        "tools": tools,
    }
    reply = {
        "id": "q1",
        "object": "chat.completion",
        "model": "qwen3-coder",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
    }
    second = {
        **first,
        "messages": [
            *first["messages"],
            {"role": "assistant", "content": replayed_text},
            {"role": "user", "content": "<tool_response>\nsunny\n</tool_response>"},
        ],
    }
    profile = DEFAULT_PROFILE["qwen-xml"]
    conversation = codec.parse_request(first)
    typed: Any = codec
    return [
        Exchange(
            0,
            PayloadUnderTest("qwen-xml", "request", profile, first, conversation),
            PayloadUnderTest(
                "qwen-xml",
                "response",
                profile,
                reply,
                typed.parse_response(reply, conversation.tools),
            ),
        ),
        Exchange(
            1,
            PayloadUnderTest("qwen-xml", "request", profile, second, codec.parse_request(second)),
            None,
        ),
    ]


def test_qwen_xml_replays_compare_the_markup_text() -> None:
    text = QWEN_TEXT
    assert codes(check_assistant_altered(qwen_exchanges(text))) == []
    found = single(check_assistant_altered(qwen_exchanges(text.replace("Beijing", "Shanghai"))))
    assert "markup included" in found.message


def test_a_new_conversation_is_not_a_replay() -> None:
    exchanges = corpus_exchanges("single-tool/weather-openai")

    def restart(body: dict[str, Any]) -> None:
        body["messages"] = [{"role": "user", "content": "Something new"}]

    assert check_assistant_altered(with_request(exchanges, 1, restart)) is None


# --- the real recordings -------------------------------------------------------------

STEM = re.compile(r"^(?P<cassette>.*)__(?P<number>\d{3})$")


def real_groups() -> dict[str, list[RealTranscript]]:
    groups: dict[str, list[RealTranscript]] = defaultdict(list)
    for transcript in with_requests(load_real_transcripts()):  # a replay needs the requests
        match = STEM.match(transcript.name)
        assert match, transcript.name
        groups[match["cassette"]].append(transcript)
    return {
        name: sorted(items, key=lambda t: t.name)
        for name, items in groups.items()
        if len(items) > 1
    }


def real_exchanges(transcripts: list[RealTranscript]) -> list[Exchange]:
    exchanges = []
    for transcript in transcripts:
        codec = get_codec(transcript.dialect)
        profile = DEFAULT_PROFILE[transcript.dialect]
        number = int(transcript.name.rsplit("__", 1)[1])
        body = transcript.request_body
        put = PayloadUnderTest(
            transcript.dialect, "request", profile, body, codec.parse_request(body)
        )
        answer = None
        if transcript.status_code == 200:
            if transcript.kind == "stream":
                events = parse_sse(transcript.sse_text())
                answer = PayloadUnderTest(
                    transcript.dialect, "stream", profile, events, codec.parse_stream(events)
                )
            else:
                raw = transcript.response_body
                answer = PayloadUnderTest(
                    transcript.dialect, "response", profile, raw, codec.parse_response(raw)
                )
        exchanges.append(Exchange(number, put, answer))
    return exchanges


def test_consecutive_real_recordings_replay_what_was_returned() -> None:
    groups = real_groups()
    judged = 0
    for name, transcripts in groups.items():
        found = check_assistant_altered(real_exchanges(transcripts))
        judged += found is not None
        if name in REAL_DEFECTS:  # the client did change the text (the reason is there)
            assert found and {f.code for f in found} == set(REAL_DEFECTS[name][1]), name
            continue
        assert not found, (name, [f.message for f in found or []])
    assert judged >= 20


def test_hand_altered_real_recordings_fail() -> None:
    groups = real_groups()
    altered = 0
    for name, transcripts in groups.items():
        exchanges = real_exchanges(transcripts)
        for n in range(1, len(exchanges)):
            previous = exchanges[n - 1].response
            if previous is None or check_assistant_altered(exchanges[n - 1 : n + 1]) is None:
                continue
            replayed_at = _replayed_index(exchanges[n - 1 : n + 1])
            if replayed_at is None or "messages" not in exchanges[n].request.raw:
                continue  # the sabotage below edits a Chat or Messages body

            def sabotage(body: dict[str, Any], at: int = replayed_at) -> None:
                _alter_message(body["messages"][at])

            found = check_assistant_altered(with_request(exchanges[n - 1 : n + 1], 1, sabotage))
            assert found and {f.code for f in found} == {CODE}, (name, n)
            altered += 1
    assert altered >= 20


def _replayed_index(pair: list[Exchange]) -> int | None:
    from toolwire.conformance.replay.assistant_altered import locate_replay

    before, after = pair[0].request.conversation, pair[1].request.conversation
    assert pair[0].response is not None and pair[0].response.response is not None
    assert before is not None and after is not None
    replay = locate_replay(0, before, pair[0].response.response.message, after)
    return replay.index if replay is not None else None


def _alter_message(message: dict[str, Any]) -> None:
    """Change what every dialect must replay: a call id, or else the text."""
    calls = message.get("tool_calls")
    content = message.get("content")
    if calls:
        calls[0]["id"] = "call_altered"
    elif isinstance(content, list) and any(b.get("type") == "tool_use" for b in content):
        next(b for b in content if b.get("type") == "tool_use")["id"] = "toolu_altered"
    elif isinstance(content, list):
        content.append({"type": "text", "text": "An added sentence."})
    else:
        message["content"] = (content or "") + " An added sentence."
