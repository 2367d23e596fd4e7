"""fidelity.empty_content: a failed anthropic tool_result needs content.

Anthropic answers 400 "content cannot be empty if `is_error` is true"
(https://github.com/bytedance/trae-agent/issues/230).
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.conformance.fidelity import PAYLOAD_CHECKS
from toolwire.harness.payloads import parse_payload

CHECK = PAYLOAD_CHECKS["fidelity.empty_content"]
ABSENT = object()


def _request(content: Any, is_error: bool | None = True) -> Any:
    result: dict[str, Any] = {"type": "tool_result", "tool_use_id": "toolu_1"}
    if is_error is not None:
        result["is_error"] = is_error
    if content is not ABSENT:
        result["content"] = content
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "Run it."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "run", "input": {}}],
            },
            {"role": "user", "content": [result]},
        ],
    }
    return parse_payload("anthropic-messages", "request", body, "anthropic")


@pytest.mark.parametrize("content", [ABSENT, "", []], ids=["absent", "empty-string", "empty-list"])
def test_a_failed_result_without_content_is_empty_content(content: Any) -> None:
    (found,) = CHECK(_request(content)) or []
    assert found.path == "messages[2].content[0].content"
    assert "is_error result without content" in found.message


@pytest.mark.parametrize("is_error", [False, None])
def test_an_empty_result_that_did_not_fail_is_accepted(is_error: bool | None) -> None:
    assert CHECK(_request("", is_error)) == []


def test_a_failed_result_that_says_what_failed_holds() -> None:
    assert CHECK(_request("exit status 1")) == []
