"""`corpus add` reads a stream recorded without SSE framing (Gemini's
streamGenerateContent without ?alt=sse: one JSON array of chunks) and keeps it
as the event stream of the same chunks, the form a case stores a stream in.
The reader is the one `toolwire lint` uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tests.cli.test_lint_stream_forms import GEMINI_CHUNKS
from toolwire.harness.corpus.importer import AddOptions, import_cassette
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.sse import parse_sse

URI = (
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent"
)
REQUEST = {
    "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
    "tools": [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": None,
                    "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}},
                }
            ]
        }
    ],
}


def _cassette(tmp_path: Path, body: str, content_type: str) -> Path:
    document: dict[str, Any] = {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": URI,
                    "headers": {},
                    "body": json.dumps(REQUEST),
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"Content-Type": [content_type]},
                    "body": {"string": body},
                },
            }
        ],
    }
    path = tmp_path / "recorded.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def test_a_json_array_stream_is_imported_as_the_event_stream_of_its_chunks(
    tmp_path: Path,
) -> None:
    body = json.dumps(GEMINI_CHUNKS, indent=2)
    corpus = tmp_path / "corpus"
    result = import_cassette(_cassette(tmp_path, body, "application/json"), AddOptions(corpus))
    assert result.dialect == "gemini"
    assert "streaming" in result.features
    (interaction,) = load_case(result.path, corpus).interactions
    assert interaction.is_stream()
    chunks = [json.loads(event.data) for event in parse_sse(interaction.response_body_text)]
    assert chunks == GEMINI_CHUNKS
