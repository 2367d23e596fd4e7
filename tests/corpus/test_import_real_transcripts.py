"""Every real recording (../shared/real-transcripts) imports as a valid case.

Each recording becomes a vcrpy cassette behind a neutral URI (so the dialect
must come from the payloads, not the host), with a credential header added;
`corpus add` must detect the dialect the recording was made in, find the
features its payloads show, scrub the header and write a case that
validates. Skips when the recordings are absent.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.real_transcripts import (
    PENDING_VERDICTS,
    RealTranscript,
    load_real_transcripts,
    with_requests,
)
from toolwire.harness.corpus.importer import AddOptions, import_cassette
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.errors import CorpusError

KEY = "sk-" + "proj-" + "R3alTr4nscr1pt" * 3
NEUTRAL_URI = "http://127.0.0.1:8000/proxy"


def _cassette(transcript: RealTranscript, folder: Path) -> Path:
    stream = transcript.kind == "stream"
    body = transcript.sse_text() if stream else json.dumps(transcript.response_body)
    document: dict[str, Any] = {
        "interactions": [
            {
                "request": {
                    "body": json.dumps(transcript.request_body),
                    "headers": {"Authorization": [f"Bearer {KEY}"]},
                    "method": "POST",
                    "uri": NEUTRAL_URI,
                },
                "response": {
                    "body": {"string": body},
                    "headers": {
                        "Content-Type": ["text/event-stream" if stream else "application/json"]
                    },
                    "status": {"code": transcript.status_code, "message": ""},
                },
            }
        ],
        "version": 1,
    }
    path = folder / f"{transcript.name}.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _expected_dialect(transcript: RealTranscript) -> str:
    # Any server speaking DeepSeek's reasoning_content is read as deepseek-chat.
    text = json.dumps([transcript.request_body, transcript.response_body, transcript.sse_events])
    return "deepseek-chat" if '"reasoning_content"' in text else transcript.dialect


def test_every_real_recording_imports_with_its_dialect(tmp_path: Path) -> None:
    transcripts = with_requests(load_real_transcripts())  # corpus add needs the request
    corpus = tmp_path / "corpus"
    features: Counter[str] = Counter()
    without_feature = []
    for transcript in transcripts:
        cassette = _cassette(transcript, tmp_path)
        try:
            result = import_cassette(cassette, AddOptions(corpus))
        except CorpusError as error:
            if transcript.name in PENDING_VERDICTS:  # a known false verdict (its reason there)
                assert all(code in str(error) for code in PENDING_VERDICTS[transcript.name][1])
                continue
            assert "shows no tool-calling feature" in str(error), transcript.name
            without_feature.append(transcript.name)
            continue
        assert result.dialect == _expected_dialect(transcript), transcript.name
        assert ("streaming" in result.features) == (transcript.kind == "stream"), transcript.name
        text = result.path.read_text(encoding="utf-8")
        assert KEY not in text
        assert "authorization" not in text.lower()
        case = load_case(result.path, corpus)
        if transcript.kind == "stream":
            assert case.interactions[0].response_body_text == transcript.sse_text()
        features.update(result.features)
    report = validate_corpus(corpus)
    assert report.ok, [str(problem) for problem in report.problems[:5]]
    # The recordings show every tool-calling feature they were chosen for.
    for feature in ("single-tool", "parallel", "mixed-text", "thinking", "streaming"):
        assert features[feature] > 0, feature
    assert features["reasoning-replay"] > 0  # DeepSeek and z.ai replay reasoning_content
    assert len(without_feature) < len(transcripts) // 3


@pytest.mark.parametrize("name_part", ["deepseek_model_thinking_stream", "anthropic_tool_output"])
def test_named_recordings_get_the_expected_features(tmp_path: Path, name_part: str) -> None:
    (transcript,) = [t for t in load_real_transcripts() if name_part in t.name][:1]
    result = import_cassette(_cassette(transcript, tmp_path), AddOptions(tmp_path / "corpus"))
    if name_part == "deepseek_model_thinking_stream":
        assert result.dialect == "deepseek-chat"
        assert {"thinking", "streaming"} <= set(result.features)
    else:
        assert result.dialect == "anthropic-messages"
        assert "single-tool" in result.features
