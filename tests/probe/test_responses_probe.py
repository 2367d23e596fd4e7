"""The probe speaks the Responses API: a scripted Chat model behind the
reference adapter answers as a Responses server would (no network)."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.probe.fakes import ScriptedModel, good
from toolwire.harness.adapters.reference import ReferenceAdapter
from toolwire.harness.adapters.reference.streams import events_in
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.probe.recording import save_run
from toolwire.harness.probe.runner import ProbeOptions, run_probe
from toolwire.harness.probe.schema import validate_profile
from toolwire.harness.probe.transport import Endpoint, Exchange

RESPONSES, CHAT = "openai-responses", "openai-chat"
OPTIONS = ProbeOptions("http://127.0.0.1:9/v1", "scripted-model", RESPONSES)
ADAPTER = ReferenceAdapter()


class ResponsesServer:
    """Requests converted to Chat for ``ScriptedModel``, answers converted back."""

    def __init__(self) -> None:
        self.chat = ScriptedModel(good)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, endpoint: Endpoint, body: Mapping[str, Any]) -> Exchange:
        request = json.loads(json.dumps(body))
        self.requests.append(request)
        chat_body = ADAPTER.convert(request, "request", RESPONSES, CHAT)
        answer = self.chat(endpoint, chat_body)
        if not answer.ok:
            return answer
        if answer.content_type == "text/event-stream":
            events = ADAPTER.convert(answer.response_text, "stream", CHAT, RESPONSES)
            text = "".join(
                f"event: {e['event']}\ndata: {json.dumps(e['data'])}\n\n" for e in events
            )
        else:
            converted = ADAPTER.convert(
                json.loads(answer.response_text), "response", CHAT, RESPONSES
            )
            text = json.dumps(converted)
        return dataclasses.replace(answer, request_body=dict(body), response_text=text)


def test_the_probe_runs_its_steps_against_a_responses_server(tmp_path: Path) -> None:
    server = ResponsesServer()
    run = run_probe(OPTIONS, send=server)
    document = run.profile.as_json()
    assert validate_profile(document) == []
    assert document["toolCallFormat"] == "openai"
    assert document["supportsParallelToolUse"] is True
    assert document["supportsStreamingToolUse"] is True
    first = server.requests[0]
    assert "messages" not in first and first["input"][0]["role"] == "user"
    assert first["tools"][0]["type"] == "function" and "function" not in first["tools"][0]
    continued = next(r for r in server.requests if len(r["input"]) > 1)
    kinds = [item.get("type", "message") for item in continued["input"]]
    assert "function_call" in kinds and "function_call_output" in kinds
    outputs = [i for i in continued["input"] if i.get("type") == "function_call_output"]
    calls = [i for i in continued["input"] if i.get("type") == "function_call"]
    assert [o["call_id"] for o in outputs] == [c["call_id"] for c in calls]
    # Every recorded conversation is a valid openai-responses case.
    saved = save_run(run, tmp_path, datetime.date(2026, 11, 26))
    assert saved.cases and not saved.skipped
    assert all(case.dialect == RESPONSES for case in saved.cases)
    assert validate_corpus(tmp_path).ok


def test_stream_answers_parse_as_responses_events() -> None:
    server = ResponsesServer()
    run = run_probe(OPTIONS, send=server)
    streamed = [
        c.exchanges[-1] for c in run.conversations if c.exchanges[-1].request_body.get("stream")
    ]
    assert streamed
    for exchange in streamed:
        events = events_in(exchange.response_text)
        kinds = [json.loads(e.data)["type"] for e in events]
        assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
