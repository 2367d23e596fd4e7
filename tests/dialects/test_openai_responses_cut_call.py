"""A Responses call cut off by max_output_tokens keeps what was streamed, as
the openai-chat codec keeps one beside ``length`` (harness/dialects/partial_json.py)."""

from __future__ import annotations

from typing import Any

from toolwire.harness.dialects.openai_responses.response import parse_response
from toolwire.harness.model import ToolCall


def _body(status: str, arguments: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "resp_1",
        "object": "response",
        "status": status,
        "output": [
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "write_file",
                "arguments": arguments,
                "status": "incomplete",
            }
        ],
    }
    if status == "incomplete":
        body["incomplete_details"] = {"reason": "max_output_tokens"}
    return body


def _call(body: dict[str, Any]) -> ToolCall:
    (call,) = [b for b in parse_response(body).choices[0].message.blocks if isinstance(b, ToolCall)]
    return call


def test_a_call_cut_at_the_limit_keeps_its_complete_members() -> None:
    call = _call(_body("incomplete", '{"path": "a.py", "content": "import sys'))
    assert call.arguments_error is None
    assert call.arguments == {"path": "a.py"}
    assert call.raw_arguments == '{"path": "a.py", "content": "import sys'


def test_broken_arguments_in_a_completed_response_stay_an_error() -> None:
    assert _call(_body("completed", '{"path": "a.py", "content": "imp')).arguments_error
    # Two values run together are no prefix, even at the limit.
    assert _call(_body("incomplete", '{"a": 1}{"b": 2}')).arguments_error
