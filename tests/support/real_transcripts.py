"""Access to the real API recordings in ``../shared``.

Two folders of them, kept beside the project and never copied into it:
``real-transcripts`` (OpenAI Chat, Anthropic Messages, DeepSeek, Qwen) and
``real-transcripts-responses-gemini`` (the Responses API and Gemini, with
streams captured in three forms, ``stream_format``, and response-only
captures whose ``request_body`` is null). Tests that use them skip with a
clear reason when neither folder is there (for example in a clone without
``shared/`` beside it). ``TOOLWIRE_SHARED`` may point elsewhere.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]

FOLDERS = ("real-transcripts", "real-transcripts-responses-gemini")

# The recordings name dialects by provider family; map them to ours.
# A "qwen" recording is a Qwen model behind an OpenAI-compatible server that
# parsed the tool calls itself, so it is plain openai-chat on the wire.
_DIALECT_OF = {
    "openai-chat": "openai-chat",
    "anthropic-messages": "anthropic-messages",
    "deepseek": "deepseek-chat",
    "qwen": "openai-chat",
    "openai-responses": "openai-responses",
    "gemini": "gemini",
}

# How a stream was on the wire (the README of the second folder): SSE, one
# JSON array of chunks (Gemini's streamGenerateContent without ?alt=sse), or
# one chunk object per line (a capture without the SSE framing).
STREAM_FORMATS = ("sse", "json-array", "chunks-jsonl")


# MUST verdicts that toolwire still gives on real traffic, each a false one
# whose fix is a rule's (issue 28, the verdict side), with the rule codes it
# gives. Tests expect exactly these, so that the fix shows by failing them:
# then remove the entry.
PENDING_VERDICTS: dict[str, tuple[str, tuple[str, ...]]] = {
    # (none left: two consecutive Gemini model contents now read as one turn)
}


# MUST verdicts on real traffic that are true: the client changed what it
# replayed. Keyed by the cassette (the recordings' stem before ``__NNN``).
REAL_DEFECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "pydantic-ai__test_openai_responses_phase_streamed_on_part_start": (
        "the model returned 'I\u2019ll check ... \u201cPotatoLand.\u201d' (curly quotes, "
        "in output_text.done and output_item.done alike); the next request replays it with "
        "straight quotes: the text sent back is not the text returned",
        ("replay.assistant_altered",),
    ),
    "pydantic-ai__test_openai_responses_stream": (
        "the streamed function_call had call_id 'call_kL0P...' and item id 'fc_67e5...'; the "
        "next request replays the call (and its output) with call_id 'fc_67e5...': the client "
        "sent back the item id as the call id",
        ("replay.assistant_altered",),
    ),
}


def shared_dir() -> Path:
    override = os.environ.get("TOOLWIRE_SHARED")
    return Path(override) if override else PROJECT_ROOT.parent / "shared"


def transcripts_dir() -> Path:
    """The first folder (kept for the tests that name it in a skip reason)."""
    return shared_dir() / FOLDERS[0]


def transcript_dirs() -> list[Path]:
    """The folders of recordings that are present."""
    return [shared_dir() / name for name in FOLDERS if (shared_dir() / name).is_dir()]


@dataclass(frozen=True)
class RealTranscript:
    name: str
    dialect: str  # our dialect name
    kind: str  # "response" or "stream"
    status_code: int
    request_body: dict[str, Any] | None  # None: the source kept only the response
    response_body: Any
    sse_events: list[dict[str, Any]] | None
    folder: str = FOLDERS[0]
    stream_format: str | None = None  # one of STREAM_FORMATS for a stream
    uri: str | None = None
    source: tuple[str, str] = ("", "")  # (source_repo, path) of the cassette upstream
    interaction_index: int = 0  # its place in that cassette

    def sse_text(self) -> str:
        """The stream as an event stream (events re-serialised as SSE).

        For a stream captured in another form this is the same chunks in the
        SSE framing (what Gemini sends with ``?alt=sse``)."""
        assert self.sse_events is not None
        parts = []
        for event in self.sse_events:
            prefix = f"event: {event['event']}\n" if event.get("event") else ""
            parts.append(f"{prefix}data: {_text(event['data'])}\n\n")
        return "".join(parts)

    def wire_text(self) -> str:
        """The stream in the form it was captured in (``stream_format``)."""
        assert self.sse_events is not None
        if self.stream_format == "json-array":
            return json.dumps([event["data"] for event in self.sse_events])
        if self.stream_format == "chunks-jsonl":
            return "".join(f"{_text(event['data'])}\n" for event in self.sse_events)
        return self.sse_text()

    def response_text(self) -> str:
        """The response body or stream as the wire carried it."""
        return self.wire_text() if self.kind == "stream" else json.dumps(self.response_body)


def _text(data: Any) -> str:
    return data if isinstance(data, str) else json.dumps(data)


def load_real_transcripts(folders: tuple[str, ...] = FOLDERS) -> list[RealTranscript]:
    """Every recording of ``folders`` present, or a pytest skip when none is."""
    present = [shared_dir() / name for name in folders if (shared_dir() / name).is_dir()]
    if not present:
        pytest.skip(
            f"real transcripts not found in {shared_dir()} ({', '.join(folders)}; "
            "set TOOLWIRE_SHARED to use them)"
        )
    return [transcript for folder in present for transcript in _read_all(folder)]


def by_cassette(transcripts: list[RealTranscript]) -> dict[tuple[str, str], list[RealTranscript]]:
    """The recordings grouped by the upstream cassette they come from, in its order."""
    groups: dict[tuple[str, str], list[RealTranscript]] = {}
    for transcript in transcripts:
        groups.setdefault(transcript.source, []).append(transcript)
    return {k: sorted(v, key=lambda t: t.interaction_index) for k, v in groups.items()}


def with_requests(transcripts: list[RealTranscript]) -> list[RealTranscript]:
    """The recordings that kept their request body."""
    return [t for t in transcripts if t.request_body is not None]


def _read_all(folder: Path) -> Iterator[RealTranscript]:
    for path in sorted(folder.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        stream_format = raw.get("stream_format")
        if raw["kind"] == "stream" and stream_format is None:
            stream_format = "sse"
        assert stream_format is None or stream_format in STREAM_FORMATS, path.name
        yield RealTranscript(
            name=path.stem,
            dialect=_DIALECT_OF[raw["dialect"]],
            kind=raw["kind"],
            status_code=raw["status_code"],
            request_body=raw["request_body"],
            response_body=raw.get("response_body"),
            sse_events=raw.get("response_sse_events"),
            folder=folder.name,
            stream_format=stream_format,
            uri=raw.get("uri"),
            source=(str(raw.get("source_repo", "")), str(raw.get("path", ""))),
            interaction_index=int(raw.get("interaction_index", 0)),
        )
