"""The openai-responses and gemini cases, read without the corpus loader.

They wait in ``corpus-pending/`` (same folder layout and ids as ``corpus/``)
until the two dialects' codecs are merged: the loader refuses a dialect it has
no codec for, so these helpers read the YAML themselves. Once the folder is
moved into ``corpus/`` they read those dialects' cases there instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from toolwire.harness.model import SSEEvent
from toolwire.harness.sse import parse_sse

REPO = Path(__file__).resolve().parents[2]
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when built in
PENDING = REPO / "corpus-pending"
BUNDLED = REPO / "corpus"
NEW_DIALECTS = ("openai-responses", "gemini")
_DIALECT_LINE = re.compile(r"^  dialect: (openai-responses|gemini)$", re.MULTILINE)


def cases_root() -> Path:
    """corpus-pending/ while it exists, else the bundled corpus."""
    return PENDING if PENDING.is_dir() else BUNDLED


@dataclass(frozen=True)
class Exchange:
    index: int
    method: str
    uri: str
    request: dict[str, Any]
    status: int
    content_type: str
    response_text: str

    @property
    def is_stream(self) -> bool:
        return self.content_type.split(";")[0].strip() == "text/event-stream"

    def response_json(self) -> Any:
        return json.loads(self.response_text)

    def events(self) -> tuple[SSEEvent, ...]:
        return parse_sse(self.response_text)

    def event_payloads(self) -> list[dict[str, Any]]:
        return [json.loads(e.data) for e in self.events() if e.data and e.data != "[DONE]"]


@dataclass(frozen=True)
class PendingCase:
    path: Path
    meta: dict[str, Any]
    exchanges: tuple[Exchange, ...]

    @property
    def id(self) -> str:
        return str(self.meta["id"])

    @property
    def dialect(self) -> str:
        return str(self.meta["dialect"])

    @property
    def features(self) -> tuple[str, ...]:
        return tuple(self.meta["features"])


def case_paths(root: Path | None = None) -> list[Path]:
    root = root or cases_root()
    paths = sorted(root.rglob("*.yaml"))
    if root == BUNDLED:  # moved in: only the two dialects' cases of issue 18
        paths = [
            p
            for p in paths
            if _DIALECT_LINE.search(p.read_text(encoding="utf-8")) and not _earlier(p, root)
        ]
    return paths


def _earlier(path: Path, root: Path) -> bool:
    """A case of these dialects that was bundled before issue 18's cases moved
    in: the codecs' development cases (``responses-dev/``, ``gemini-dev/``) and
    the negative cases of their rules (``negative/``, judged by
    tests/corpus/test_negative_cases.py), which follow their own rules."""
    folder = path.relative_to(root).parts[0]
    return folder == "negative" or folder.endswith("-dev")


def read_case(path: Path) -> PendingCase:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
    exchanges = []
    for index, item in enumerate(data["interactions"]):
        request, response = item["request"], item["response"]
        headers = {k.lower(): v for k, v in response["headers"].items()}
        exchanges.append(
            Exchange(
                index=index,
                method=request["method"],
                uri=request["uri"],
                request=json.loads(request["body"]),
                status=int(response["status"]["code"]),
                content_type=headers.get("content-type", [""])[0],
                response_text=response["body"]["string"],
            )
        )
    return PendingCase(path, data["toolwire"], tuple(exchanges))


def pending_cases(root: Path | None = None) -> Iterator[PendingCase]:
    for path in case_paths(root):
        yield read_case(path)
