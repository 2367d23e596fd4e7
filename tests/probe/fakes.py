"""A scripted OpenAI-compatible model for judging tests (this module holds no tests).

``ScriptedModel`` is a probe ``Sender``: it answers each request from a
script keyed by the scenario (which prompt opened the conversation) and the
stage (how many assistant turns the request already holds), without any
network. Answers are Chat Completions JSON, or a minimal valid stream when
the request asks for one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolwire.harness.probe.loops import LOOP_PROMPT, REPAIR_PROMPT
from toolwire.harness.probe.steps import BASIC_PROMPT, PARALLEL_PROMPT, SCHEMA_PROMPT
from toolwire.harness.probe.transport import Endpoint, Exchange

SCENARIOS = {
    BASIC_PROMPT: "basic",
    SCHEMA_PROMPT: "schema",
    LOOP_PROMPT: "loop",
    PARALLEL_PROMPT: "parallel",
    REPAIR_PROMPT: "repair",
}


@dataclass(frozen=True)
class Answer:
    text: str | None = None
    calls: tuple[tuple[str, Any], ...] = ()  # (name, arguments: object, or raw text)
    reasoning: str | None = None
    status: int = 200
    error: str = ""
    stream_as_json: bool = False  # ignore "stream": true, as some servers do


Script = Callable[[str, int, Mapping[str, Any]], Answer]


@dataclass
class ScriptedModel:
    script: Script
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, endpoint: Endpoint, body: Mapping[str, Any]) -> Exchange:
        request = json.loads(json.dumps(body))
        self.requests.append(request)
        scenario = SCENARIOS[request["messages"][1]["content"]]
        stage = sum(1 for m in request["messages"] if m["role"] == "assistant")
        answer = self.script(scenario, stage, request)
        if answer.status != 200:
            text = json.dumps({"error": {"message": answer.error, "type": "server_error"}})
            return _exchange(endpoint, body, answer.status, "application/json", text)
        calls = [
            {
                "id": f"call_{index}_{scenario}_{stage}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for index, (name, arguments) in enumerate(answer.calls)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": answer.text}
        if calls:
            message["tool_calls"] = calls
        if answer.reasoning is not None:
            message["reasoning_content"] = answer.reasoning
        finish = "tool_calls" if calls else "stop"
        if request.get("stream") and not answer.stream_as_json:
            return _exchange(endpoint, body, 200, "text/event-stream", _stream(message, finish))
        document = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": 1778400000,
            "model": "scripted-model",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        return _exchange(endpoint, body, 200, "application/json", json.dumps(document))


def _stream(message: dict[str, Any], finish: str) -> str:
    delta: dict[str, Any] = {"role": "assistant", "content": message["content"]}
    if "reasoning_content" in message:
        delta["reasoning_content"] = message["reasoning_content"]
    if "tool_calls" in message:
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
    envelope = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion.chunk",
        "created": 1778400000,
        "model": "m",
    }
    chunks = [
        {**envelope, "choices": [{"index": 0, "delta": part, "finish_reason": reason}]}
        for part, reason in ((delta, None), ({}, finish))
    ]
    return "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"


def _exchange(
    endpoint: Endpoint, body: Mapping[str, Any], status: int, content_type: str, text: str
) -> Exchange:
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 500: "Internal Server Error"}
    return Exchange(
        url=endpoint.url,
        request_headers={"Content-Type": "application/json"},
        request_body=dict(body),
        status=status,
        reason=reason.get(status, ""),
        response_headers=(("Content-Type", content_type),),
        response_text=text,
    )


def good(scenario: str, stage: int, _body: Mapping[str, Any]) -> Answer:
    """A model that does everything right (the base other scripts change)."""
    if scenario == "basic":
        return Answer(calls=(("probe_echo", {"message": "toolwire probe", "tag": "alpha"}),))
    if scenario == "schema":
        meta = {"source": "toolwire", "priority": 2}
        return Answer(
            calls=(("probe_echo", {"message": "schema check", "tag": "beta", "meta": meta}),)
        )
    if scenario == "loop":
        if stage == 0:
            return Answer(calls=(("probe_add", {"a": 48213, "b": 97351}),))
        return Answer(text="The sum is 145564.")
    if scenario == "parallel":
        return Answer(
            calls=(
                ("probe_echo", {"message": "parallel", "tag": "beta"}),
                ("probe_add", {"a": 2, "b": 3}),
            )
        )
    if stage == 0:
        return Answer(calls=(("probe_fail_once", {"path": "notes/today.txt"}),))
    return Answer(calls=(("probe_fail_once", {"path": "/notes/today.txt"}),))
