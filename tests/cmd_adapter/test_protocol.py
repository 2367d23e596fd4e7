"""The published protocol schema and the message checks built on it."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolwire.harness.adapters.cmd.protocol import (
    ProtocolError,
    check_message,
    decode_line,
    encode,
    protocol_schema,
    schema_problem,
    schema_text,
)
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS

HANDSHAKE: dict[str, Any] = {
    "type": "handshake",
    "protocol": 1,
    "name": "x",
    "version": "1",
    "directions": [["request", "openai-chat", "anthropic-messages"]],
}
VALID: list[dict[str, Any]] = [
    HANDSHAKE,
    {**HANDSHAKE, "capabilities": ["request_context", "id_mapping"]},
    {
        "type": "convert",
        "id": 1,
        "kind": "request",
        "source": "openai-chat",
        "target": "anthropic-messages",
        "payload": {"messages": []},
    },
    {
        "type": "convert",
        "id": 2,
        "kind": "stream",
        "source": "openai-chat",
        "target": "anthropic-messages",
        "payload": [{"event": None, "data": {"a": 1}}, {"data": "[DONE]"}],
        "request": {"messages": []},
    },
    {
        "type": "id_mapping",
        "id": 3,
        "kind": "request",
        "source": "openai-chat",
        "target": "anthropic-messages",
        "payload": {},
    },
    {"type": "shutdown"},
    {"type": "result", "id": 1, "payload": {"a": 1}},
    {"type": "result", "id": 1, "payload": "event: x\ndata: {}\n\n"},
    {"type": "error", "id": 1, "message": "bad", "error_type": "ValueError"},
    {"type": "unsupported", "id": 1, "message": "the name is too long"},
]


def test_the_schema_is_a_valid_draft_2020_12_schema_shipped_as_package_data() -> None:
    shipped = (
        files("toolwire.harness.adapters.cmd").joinpath("protocol.schema.json").read_text("utf-8")
    )
    assert shipped == schema_text()
    Draft202012Validator.check_schema(json.loads(shipped))


def test_the_schema_names_exactly_the_harness_dialects_and_kinds() -> None:
    definitions = protocol_schema()["$defs"]
    assert tuple(definitions["dialect"]["enum"]) == DIALECTS
    assert tuple(definitions["kind"]["enum"]) == PAYLOAD_KINDS


@pytest.mark.parametrize("message", VALID, ids=lambda m: str(m["type"]))
def test_valid_messages_pass(message: dict[str, Any]) -> None:
    assert schema_problem(message) is None
    assert Draft202012Validator(protocol_schema()).is_valid(message)


@pytest.mark.parametrize(
    ("message", "path", "words"),
    [
        (
            {**HANDSHAKE, "directions": [["request", "openai-chat", "mistral-chat"]]},
            "$.directions[0][2]",
            "'mistral-chat' is not one of",
        ),
        ({**HANDSHAKE, "protocol": 2}, "$.protocol", "1 was expected"),
        ({**HANDSHAKE, "capabilities": ["telepathy"]}, "$.capabilities[0]", "is not one of"),
        ({**HANDSHAKE, "extra": 1}, "$", "Additional properties are not allowed"),
        ({"type": "result", "id": 0, "payload": {}}, "$.id", "less than the minimum of 1"),
        ({"type": "result", "id": 1}, "$", "'payload' is a required property"),
        (
            {"type": "result", "id": 1, "payload": [{"event": "x"}]},
            "$.payload[0]",
            "'data' is a required property",
        ),
        ({"type": "error", "id": 1, "message": ""}, "$.message", "should be non-empty"),
        ({"type": "shutdown", "now": True}, "$", "Additional properties"),
    ],
)
def test_an_invalid_message_is_reported_at_its_json_path(
    message: dict[str, Any], path: str, words: str
) -> None:
    problem = schema_problem(message)
    assert problem is not None
    assert problem.startswith(f"at {path}: ")
    assert words in problem


def test_each_side_may_send_only_its_own_messages() -> None:
    assert check_message(HANDSHAKE, "adapter", 1, full=True) == "handshake"
    with pytest.raises(ProtocolError, match="message 4 from adapter has type 'convert'"):
        check_message(VALID[2], "adapter", 4, full=False)
    with pytest.raises(ProtocolError, match="toolwire sends: convert, id_mapping, shutdown"):
        check_message(HANDSHAKE, "toolwire", 1, full=False)


def test_full_checking_is_what_finds_schema_problems() -> None:
    broken = {**HANDSHAKE, "version": 3}
    assert check_message(broken, "adapter", 1, full=False) == "handshake"
    with pytest.raises(ProtocolError, match=r"is invalid: at \$\.version: 3 is not of type"):
        check_message(broken, "adapter", 1, full=True)


@pytest.mark.parametrize(
    ("line", "words"),
    [("not json", "line 3 from the adapter is not JSON"), ("[1]", "is a JSON list, not an object")],
)
def test_lines_that_are_not_objects_are_refused(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        decode_line(line, 3)


def test_messages_are_one_line_each() -> None:
    data = encode({"type": "result", "id": 1, "payload": {"text": "a\nb é"}})
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data) == {"type": "result", "id": 1, "payload": {"text": "a\nb é"}}
