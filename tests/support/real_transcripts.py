"""Access to the real API recordings in ``../shared/real-transcripts``.

They are reference data kept beside the project, never copied into it. Tests
that use them skip with a clear reason when the folder is absent (for
example in a clone without ``shared/`` beside it). ``TOOLWIRE_SHARED`` may
point elsewhere.
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

# The recordings name dialects by provider family; map them to ours.
# A "qwen" recording is a Qwen model behind an OpenAI-compatible server that
# parsed the tool calls itself, so it is plain openai-chat on the wire.
_DIALECT_OF = {
    "openai-chat": "openai-chat",
    "anthropic-messages": "anthropic-messages",
    "deepseek": "deepseek-chat",
    "qwen": "openai-chat",
}


def shared_dir() -> Path:
    override = os.environ.get("TOOLWIRE_SHARED")
    return Path(override) if override else PROJECT_ROOT.parent / "shared"


def transcripts_dir() -> Path:
    return shared_dir() / "real-transcripts"


@dataclass(frozen=True)
class RealTranscript:
    name: str
    dialect: str  # our dialect name
    kind: str  # "response" or "stream"
    status_code: int
    request_body: dict[str, Any]
    response_body: Any
    sse_events: list[dict[str, Any]] | None

    def sse_text(self) -> str:
        """The stream as it was on the wire (events re-serialised)."""
        assert self.sse_events is not None
        parts = []
        for event in self.sse_events:
            data = event["data"]
            text = data if isinstance(data, str) else json.dumps(data)
            prefix = f"event: {event['event']}\n" if event.get("event") else ""
            parts.append(f"{prefix}data: {text}\n\n")
        return "".join(parts)


def load_real_transcripts() -> list[RealTranscript]:
    """Every recording, or a pytest skip when the folder is absent."""
    folder = transcripts_dir()
    if not folder.is_dir():
        pytest.skip(f"real transcripts not found at {folder} (set TOOLWIRE_SHARED to use them)")
    return list(_read_all(folder))


def _read_all(folder: Path) -> Iterator[RealTranscript]:
    for path in sorted(folder.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        yield RealTranscript(
            name=path.stem,
            dialect=_DIALECT_OF[raw["dialect"]],
            kind=raw["kind"],
            status_code=raw["status_code"],
            request_body=raw["request_body"],
            response_body=raw.get("response_body"),
            sse_events=raw.get("response_sse_events"),
        )
