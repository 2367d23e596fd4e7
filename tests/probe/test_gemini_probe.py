"""`toolwire probe --dialect gemini` against a scripted Gemini 3 model (no network).

The scripted model answers ``good``'s script in Gemini's shape: calls as
``functionCall`` parts, the first call of each answer carrying a
``thoughtSignature``; it refuses (400) a continuation whose model turn lost
it, as Gemini 3 does (https://ai.google.dev/gemini-api/docs/thought-signatures).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.probe.fakes import SCENARIOS, good
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.probe.recording import save_run
from toolwire.harness.probe.runner import ProbeOptions, run_probe
from toolwire.harness.probe.schema import validate_profile
from toolwire.harness.probe.transport import Endpoint, Exchange

OPTIONS = ProbeOptions("http://127.0.0.1:9", "gemini-3-flash-preview", "gemini")
SIGNATURE = "CiQBcsjafGVtaW5pLXNpZ25hdHVyZQ=="


@dataclass
class ScriptedGemini:
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, endpoint: Endpoint, body: Mapping[str, Any]) -> Exchange:
        request = json.loads(json.dumps(body))
        self.requests.append(request)
        contents = request["contents"]
        scenario = SCENARIOS[contents[0]["parts"][0]["text"]]
        model_turns = [c for c in contents if c["role"] == "model"]
        unsigned = any(
            "functionCall" in turn["parts"][0] and "thoughtSignature" not in turn["parts"][0]
            for turn in model_turns
            if turn["parts"]
        )
        if unsigned:
            error = {
                "error": {
                    "code": 400,
                    "message": "Function call is missing a "
                    "thought_signature in functionCall parts.",
                    "status": "INVALID_ARGUMENT",
                }
            }
            return _exchange(endpoint, body, 400, "application/json", json.dumps(error))
        answer = good(scenario, len(model_turns), request)
        parts: list[dict[str, Any]] = []
        if answer.text:
            parts.append({"text": answer.text})
        for index, (name, arguments) in enumerate(answer.calls):
            part: dict[str, Any] = {"functionCall": {"name": name, "args": arguments}}
            if index == 0:
                part["thoughtSignature"] = SIGNATURE
            parts.append(part)
        document = {
            "candidates": [
                {"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 9},
            "modelVersion": "gemini-3-flash-preview",
            "responseId": f"r{len(self.requests)}",
        }
        if request.get("stream"):
            chunk = json.dumps(document)
            return _exchange(endpoint, body, 200, "text/event-stream", f"data: {chunk}\r\n\r\n")
        return _exchange(endpoint, body, 200, "application/json", json.dumps(document))


def _exchange(
    endpoint: Endpoint, body: Mapping[str, Any], status: int, content_type: str, text: str
) -> Exchange:
    return Exchange(
        url=endpoint.url,
        request_headers={"Content-Type": "application/json"},
        request_body=dict(body),
        status=status,
        reason="OK" if status == 200 else "Bad Request",
        response_headers=(("Content-Type", content_type),),
        response_text=text,
    )


def test_gemini_probe_answers_calls_and_replays_signatures(tmp_path: Path) -> None:
    model = ScriptedGemini()
    run = run_probe(OPTIONS, send=model)
    document = run.profile.as_json()
    assert validate_profile(document) == []
    assert document["toolCallFormat"] == "gemini"
    assert document["requiresReasoningReplay"] is True
    assert document["supportsParallelToolUse"] is True
    assert document["binding"]["endpoint"].endswith("/v1beta/models/{model}:generateContent")
    # A continuation: the model turn as returned, then functionResponse parts.
    continuation = next(r for r in model.requests if len(r["contents"]) == 3)
    turn, answers = continuation["contents"][1], continuation["contents"][2]
    assert turn["parts"][0]["thoughtSignature"] == SIGNATURE
    assert all("functionResponse" in part for part in answers["parts"])
    saved = save_run(run, tmp_path, datetime.date(2026, 11, 26))
    refused = [c for c in saved.cases if c.case_id.endswith("reasoning-not-replayed")]
    assert refused, [c.case_id for c in saved.cases]
    assert validate_corpus(tmp_path).ok
