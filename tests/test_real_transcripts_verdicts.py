"""Every MUST verdict `toolwire lint` gives on the real recordings in ../shared.

Both folders (``real-transcripts`` and ``real-transcripts-responses-gemini``)
are read; the test skips when they are absent. The interactions of one
upstream cassette are linted together, as one cassette (payload rules on each
request and answer, replay rules across them); a capture that kept only the
answer (vercel/ai's fixtures, no request body) is linted alone.

Every request there was accepted by the real API, and every answer was sent
by it: a MUST is false unless the client really changed what it replayed.
``REAL_DEFECTS`` lists each MUST with that defect; every other recording must
give none. ``CODEC_PENDING`` names the recordings whose false MUSTs come from
reading the payload (harness/dialects, issue 28's reading part), not from a
rule: they are expected to fail until that reading lands.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.real_transcripts import shared_dir
from toolwire.harness.lint.check import lint_text

FOLDERS = ("real-transcripts", "real-transcripts-responses-gemini")
_DIALECT_OF = {
    "openai-chat": "openai-chat",
    "anthropic-messages": "anthropic-messages",
    "deepseek": "deepseek-chat",
    "qwen": "openai-chat",
    "openai-responses": "openai-responses",
    "gemini": "gemini",
}

# (cassette, rule, path) -> the defect the client made when replaying.
REAL_DEFECTS: dict[tuple[str, str, str], str] = {
    (
        "pydantic/pydantic-ai:tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_stream.yaml",
        "replay.assistant_altered",
        "input[1]",
    ): (
        "the response's function_call had call_id 'call_kL0P...' and item id 'fc_67e5...'; "
        "the next request sends the call back with call_id 'fc_67e5...' (the item id) and "
        "answers that id: the client replaced the call id it was given"
    ),
    (
        "pydantic/pydantic-ai:tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_phase_streamed_on_part_start.yaml",
        "replay.assistant_altered",
        "input[1]",
    ): (
        "the streamed commentary text was 'I\u2019ll check ... \u201cPotatoLand.\u201d' "
        "(curly quotes); the next request sends it back with straight quotes: the replayed "
        "text is not what the model wrote"
    ),
}

# Cassettes whose false MUSTs come from the codec's reading of the payload.
CODEC_PENDING: dict[str, str] = {
    # (none left: Vertex AI's partialArgs streams are reassembled into one call)
}


@dataclass(frozen=True)
class Recording:
    name: str  # "<repo>:<upstream path>"
    dialect: str
    lint_inputs: tuple[str, ...]  # one cassette, or the answer-only captures one by one


def _sse(events: list[dict[str, Any]]) -> str:
    lines = []
    for event in events:
        data = event["data"]
        text = data if isinstance(data, str) else json.dumps(data)
        name = f"event: {event['event']}\n" if event.get("event") else ""
        lines.append(f"{name}data: {text}\n\n")
    return "".join(lines)


def _answer_text(raw: dict[str, Any]) -> tuple[str, str]:
    """The answer as lint reads it today, and its content type."""
    if raw["kind"] == "stream":
        return _sse(raw["response_sse_events"]), "text/event-stream"
    return json.dumps(raw["response_body"]), "application/json"


def _interaction(raw: dict[str, Any]) -> dict[str, Any]:
    body, content_type = _answer_text(raw)
    return {
        "request": {"method": "POST", "uri": raw["uri"], "body": json.dumps(raw["request_body"])},
        "response": {
            "status": {"code": raw["status_code"]},
            "headers": {"Content-Type": [content_type]},
            "body": {"string": body},
        },
    }


def _recordings() -> list[Recording]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for folder in FOLDERS:
        for path in sorted((shared_dir() / folder).glob("*.json")):
            raw = json.loads(path.read_text(encoding="utf-8"))
            name = f"{raw['source_repo']}:{raw['path']}"
            groups[(name, _DIALECT_OF[raw["dialect"]])].append(raw)
    found = []
    for (name, dialect), items in sorted(groups.items()):
        items.sort(key=lambda raw: raw["interaction_index"])
        sent = [raw for raw in items if raw["request_body"] is not None]
        inputs = [json.dumps({"interactions": [_interaction(raw) for raw in sent]})] if sent else []
        inputs += [_answer_text(raw)[0] for raw in items if raw["request_body"] is None]
        found.append(Recording(name, dialect, tuple(inputs)))
    return found


def _available() -> bool:
    return any((shared_dir() / folder).is_dir() for folder in FOLDERS)


RECORDINGS = _recordings() if _available() else []


def _params() -> list[Any]:
    params = []
    for recording in RECORDINGS:
        marks = []
        if recording.name in CODEC_PENDING:
            marks.append(pytest.mark.xfail(reason=CODEC_PENDING[recording.name], strict=False))
        params.append(
            pytest.param(recording, id=f"{recording.dialect}:{recording.name}", marks=marks)
        )
    return params


def musts_of(recording: Recording) -> set[tuple[str, str, str]]:
    found = set()
    for text in recording.lint_inputs:
        for violation in lint_text(text, recording.name, recording.dialect):
            if violation.level == "MUST":
                found.add((recording.name, violation.code, violation.path))
    return found


def test_the_recordings_are_present_or_skipped_with_a_reason() -> None:
    if not RECORDINGS:
        pytest.skip(f"no real recordings under {shared_dir()} (set TOOLWIRE_SHARED to use them)")
    dialects = {recording.dialect for recording in RECORDINGS}
    assert {"openai-responses", "gemini", "openai-chat", "anthropic-messages"} <= dialects


@pytest.mark.parametrize("recording", _params())
def test_every_must_on_a_real_recording_names_a_real_defect(recording: Recording) -> None:
    expected = {key for key in REAL_DEFECTS if key[0] == recording.name}
    assert musts_of(recording) == expected


def test_every_listed_defect_belongs_to_a_recording() -> None:
    if not RECORDINGS:
        pytest.skip(f"no real recordings under {shared_dir()}")
    names = {recording.name for recording in RECORDINGS}
    assert {key[0] for key in REAL_DEFECTS} <= names
    assert set(CODEC_PENDING) <= names
    assert all(reason.strip() for reason in REAL_DEFECTS.values())


def test_the_recordings_are_read_from_both_folders() -> None:
    folders = [shared_dir() / folder for folder in FOLDERS]
    if not all(folder.is_dir() for folder in folders):
        pytest.skip(f"the real recordings are not all under {shared_dir()}")
    files = sum(len(list(Path(folder).glob("*.json"))) for folder in folders)
    assert files >= 160
