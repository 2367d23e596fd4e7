"""qwen-xml -> openai-chat: XML calls become tool_calls; malformed calls never run."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.adapters.test_reference_support import (
    adapter_for,
    answer,
    corpus,
    payload_of,
    positive_cases,
    schema_violations,
)
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.qwen_xml.parser import parse_qwen_xml
from toolwire.harness.model import OPENAI_CHAT, QWEN_XML

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "required": ["city"],
            },
        },
    }
]
TYPED = ReferenceAdapter(TOOLS)
UNTYPED = ReferenceAdapter()
CALL_ID = re.compile(r"^call_[0-9a-f]{24}$")


def xml_call(city: str, days: str) -> str:
    return (
        "<tool_call>\n<function=get_weather>\n<parameter=city>\n"
        f"{city}\n</parameter>\n<parameter=days>\n{days}\n</parameter>\n</function>\n</tool_call>"
    )


def response(content: str, finish: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-q1",
        "object": "chat.completion",
        "created": 1,
        "model": "qwen3-coder",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish,
            }
        ],
    }


def convert(content: str, adapter: ReferenceAdapter = TYPED, finish: str = "stop") -> Any:
    out = adapter.convert(response(content, finish), "response", QWEN_XML, OPENAI_CHAT)
    assert schema_violations(OPENAI_CHAT, "response", out) == []
    return out["choices"][0]


def calls_of(choice: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in choice["message"].get("tool_calls", [])
    ]


# --- the corpus ----------------------------------------------------------------


def _qwen_params() -> list[Any]:
    return [
        pytest.param(case.id, kind, id=f"{case.id}:{kind}")
        for case in positive_cases()
        if case.dialect == QWEN_XML
        for kind in case.interactions[-1].payload_kinds
        if kind != "request"
    ]


def _source_text(payload: Any, kind: Any) -> str:
    """The assistant text as the model wrote it (a stream's content deltas joined)."""
    if kind != "stream":
        return str(payload["choices"][0]["message"]["content"])
    pieces = []
    for event in payload:
        data = event["data"]
        for choice in data.get("choices", []) if isinstance(data, dict) else []:
            pieces.append(choice.get("delta", {}).get("content") or "")
    return "".join(pieces)


@pytest.mark.parametrize(("case_id", "kind"), _qwen_params())
def test_corpus_calls_and_text_are_what_the_case_expects(case_id: str, kind: Any) -> None:
    case = corpus()[case_id]
    interaction = case.interactions[-1]
    out = adapter_for(case, interaction).convert(
        payload_of(interaction, kind), kind, QWEN_XML, OPENAI_CHAT
    )
    assert schema_violations(OPENAI_CHAT, kind, out) == []
    message = answer(OPENAI_CHAT, kind, out)
    assert case.expect.tool_calls is not None
    expected = [(c.name, dict(c.arguments)) for c in case.expect.tool_calls]
    got = [(c.name, c.arguments) for c in message.message.tool_calls]
    if "missing_opener" in case.expect.xml_issues:
        # The one accepted recovery: a call whose only fault is the missing
        # opener, with its complete arguments, in addition to the valid ones.
        source = _source_text(payload_of(interaction, kind), kind)
        tools = get_codec(OPENAI_CHAT).parse_request(interaction.request_json()).tools
        recoverable = [
            r
            for r in parse_qwen_xml(source, tools).rejected
            if {issue.code for issue in r.issues} == {"missing_opener"}
        ]
        recovered = [call for call in got if call not in expected]
        assert [call for call in got if call in expected] == expected
        assert len(recovered) <= len(recoverable)
        for name, arguments in recovered:
            assert f"<function={name}>" in source
            assert all(str(value) in source for value in arguments.values())
    else:
        assert got == expected
    assert all(c.id and CALL_ID.match(c.id) for c in message.message.tool_calls)
    text = message.message.text
    assert text.startswith(case.expect.text or "")
    if not case.expect.xml_issues:
        assert text == (case.expect.text or "") and "<" not in text
        # Otherwise a rejected call's markup may stay in the text, exactly as written
        # (never as a call: the calls above are exactly the executable ones).
        assert message.stop_reason.raw == "tool_calls"


# --- hand-written ----------------------------------------------------------------


def test_text_then_calls_become_content_and_typed_tool_calls() -> None:
    choice = convert(
        "Checking both cities.\n\n" + xml_call("Paris", "3") + "\n" + xml_call("Rome", "2")
    )
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "Checking both cities."
    assert calls_of(choice) == [
        ("get_weather", {"city": "Paris", "days": 3}),
        ("get_weather", {"city": "Rome", "days": 2}),
    ]
    ids = [c["id"] for c in choice["message"]["tool_calls"]]
    assert len(set(ids)) == 2 and all(CALL_ID.match(i) for i in ids)


def test_calls_only_give_null_content() -> None:
    choice = convert(xml_call("Oslo", "1"))
    assert choice["message"]["content"] is None
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 1})]


def test_without_tools_values_stay_strings_as_the_codec_reads_them() -> None:
    choice = convert(xml_call("Oslo", "1"), UNTYPED)
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": "1"})]


def test_with_request_binds_the_tools_of_the_request() -> None:
    request = {
        "model": "qwen3-coder",
        "messages": [{"role": "user", "content": "?"}],
        "tools": TOOLS,
    }
    choice = convert(xml_call("Oslo", "1"), UNTYPED.with_request(request))
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 1})]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("Let me check.\n" + xml_call("Oslo", "1")[:-30], "cut off inside the call"),
        ("Let me check.\n" + xml_call("Oslo", "three"), "days is not an integer"),
        (
            "Let me check.\n" + xml_call("Oslo", "1").replace("get_weather", "get_wether"),
            "unknown tool",
        ),
        (
            "Let me check.\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>",
            "missing opener and cut off",
        ),
    ],
)
def test_a_malformed_call_is_never_executed_and_stays_text(content: str, why: str) -> None:
    choice = convert(content)
    assert "tool_calls" not in choice["message"], why
    assert choice["message"]["content"] == content  # exactly as written
    assert choice["finish_reason"] == "stop"


def test_a_malformed_call_beside_a_valid_one_runs_only_the_valid_one() -> None:
    content = "Two.\n" + xml_call("Oslo", "1") + "\n" + xml_call("Rome", "x")
    choice = convert(content)
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 1})]
    assert choice["message"]["content"].startswith("Two.")
    assert "<parameter=days>\nx\n</parameter>" in choice["message"]["content"]


def test_a_malformed_call_cut_after_a_newline_keeps_that_newline() -> None:
    # Found by the fuzzer: the newlines around the text were stripped, the
    # rejected markup's own last newline with them (xml.text_preserved).
    rejected = xml_call("Rome", "x").rsplit("</parameter>", 1)[0]
    assert rejected.endswith("x\n")
    choice = convert("Two.\n" + xml_call("Oslo", "1") + "\n" + rejected)
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 1})]
    assert choice["message"]["content"].endswith(rejected)
    assert choice["message"]["content"].startswith("Two.")


def test_a_call_missing_only_its_opener_is_recovered_whole() -> None:
    content = "Checking.\n" + xml_call("Oslo", "2").removeprefix("<tool_call>\n")
    choice = convert(content)
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 2})]
    assert choice["message"]["content"] == "Checking."


def test_length_is_kept_when_the_output_was_cut_off() -> None:
    choice = convert("Go.\n" + xml_call("Oslo", "1") + "\n<tool_call>\n<funct", finish="length")
    assert choice["finish_reason"] == "length"
    assert calls_of(choice) == [("get_weather", {"city": "Oslo", "days": 1})]


def test_a_stream_in_one_character_fragments_gives_the_same_message() -> None:
    content = "Checking.\n\n" + xml_call("Oslo", "2")
    whole = convert(content)
    chunks = [
        {
            "id": "chatcmpl-q1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "qwen3-coder",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        }
        for delta in [{"role": "assistant", "content": ""}, *({"content": c} for c in content)]
    ]
    chunks.append({**chunks[0], "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    events = [{"event": None, "data": chunk} for chunk in chunks] + [
        {"event": None, "data": "[DONE]"}
    ]
    out = TYPED.convert(events, "stream", QWEN_XML, OPENAI_CHAT)
    assert schema_violations(OPENAI_CHAT, "stream", out) == []
    streamed = answer(OPENAI_CHAT, "stream", out)
    assert streamed.message.text == whole["message"]["content"]
    assert [(c.id, c.name, c.arguments) for c in streamed.message.tool_calls] == [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in whole["message"]["tool_calls"]
    ]
    assert streamed.stop_reason.raw == "tool_calls"


# --- requests -----------------------------------------------------------------------


def test_request_history_xml_becomes_tool_calls_paired_with_their_results() -> None:
    request = {
        "model": "qwen3-coder",
        "tools": TOOLS,
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Checking.\n" + xml_call("Oslo", "1")},
            {"role": "tool", "tool_call_id": "call_client_1", "content": "sunny"},
            {"role": "assistant", "content": xml_call("Rome", "2")},
            {"role": "tool", "content": "rain"},
        ],
    }
    out = TYPED.convert(request, "request", QWEN_XML, OPENAI_CHAT)
    assert schema_violations(OPENAI_CHAT, "request", out) == []
    first, second = out["messages"][1], out["messages"][3]
    assert first["content"] == "Checking."
    assert first["tool_calls"][0]["id"] == "call_client_1"  # the client's id is kept
    assert json.loads(first["tool_calls"][0]["function"]["arguments"]) == {
        "city": "Oslo",
        "days": 1,
    }
    generated = second["tool_calls"][0]["id"]
    assert CALL_ID.match(generated) and out["messages"][4]["tool_call_id"] == generated
    assert out["messages"][0] == request["messages"][0]


def test_a_request_without_markup_passes_through_unchanged() -> None:
    request = {
        "model": "qwen3-coder",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
        "temperature": 0.2,
    }
    assert TYPED.convert(request, "request", QWEN_XML, OPENAI_CHAT) == request
