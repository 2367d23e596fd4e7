"""The frame of every broken adapter: the reference adapter with one defect.

A broken adapter converts exactly like ``ReferenceAdapter`` and then damages
the output of the directions it names in ``damaged``, the way a real
converter gets that one thing wrong (WIRE.md section 3). It declares:

* ``breaks``: the rule code the defect must trigger;
* ``defect``: one line saying what it does wrong;
* ``shows_on``: the cases where the code must show (every one of them);
  empty means "at least one case of the corpus";
* ``no_round_trip``: drop the reverse of the damaged directions, so that no
  A->B->A trip runs the damage a second time on the way back (used where the
  trip back would only repeat the defect under another code, or where the
  reference refuses the damaged payload);
* ``pass_through``: extra same-dialect directions it serves as a proxy
  (a copy of the payload, then the damage);
* ``profiles``: target profiles the run must use (dialect -> profile);
* ``corpus_patches``: test-local cases (``patched_corpus.PATCHES``) the run
  adds to the bundled corpus, for a defect no bundled case can show.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from toolwire.harness.adapters.reference import DIRECTIONS, ReferenceAdapter
from toolwire.harness.model import PayloadKind

Triple = tuple[str, str, str]
Json = dict[str, Any]

OPENAI = "openai-chat"
ANTHROPIC = "anthropic-messages"
DEEPSEEK = "deepseek-chat"
QWEN = "qwen-xml"


class BrokenAdapter(ReferenceAdapter):
    """The reference adapter, damaged in the ``damaged`` directions."""

    name = "broken"
    breaks: ClassVar[str] = ""
    defect: ClassVar[str] = ""
    damaged: ClassVar[frozenset[Triple]] = frozenset()
    shows_on: ClassVar[tuple[str, ...]] = ()
    no_round_trip: ClassVar[bool] = False
    pass_through: ClassVar[frozenset[Triple]] = frozenset()
    profiles: ClassVar[Mapping[str, str]] = {}
    corpus_patches: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The report names the adapter after its class: "ResultsSplit" -> "results-split".
        cls.name = re.sub(r"(?<!^)(?=[A-Z])", "-", cls.__name__).lower()

    def __init__(self) -> None:
        super().__init__()
        # The directions a self-test run keeps (tests/selftest/reach.py); None: all.
        self.focus: frozenset[Triple] | None = None

    @property
    def directions(self) -> frozenset[Triple]:
        found = set(DIRECTIONS) | self.pass_through
        if self.no_round_trip:
            found -= {(kind, target, source) for kind, source, target in self.damaged}
        if self.focus is not None:
            found &= self.focus
        return frozenset(found)

    @property
    def changed_directions(self) -> frozenset[Triple]:
        return self.damaged | self.pass_through

    @property
    def target_profiles(self) -> Mapping[str, str]:
        return self.profiles

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        direction = (kind, source, target)
        if direction in self.pass_through:
            output = copy.deepcopy(payload)
        else:
            output = super().convert(payload, kind, source, target, request)
        if direction in self.damaged:
            return self.damage(copy.deepcopy(output), payload, direction)
        return output

    def id_mapping(
        self, payload: Any, kind: PayloadKind, source: str, target: str
    ) -> dict[str, str]:
        if (kind, source, target) in self.pass_through:
            return {}
        return super().id_mapping(payload, kind, source, target)

    def damage(self, output: Any, payload: Any, direction: Triple) -> Any:
        """Break the converted ``output`` of ``payload`` (a fresh copy: mutate freely)."""
        raise NotImplementedError


# --- helpers over plain JSON payloads ------------------------------------------


def blocks(message: Json) -> list[Json]:
    """An anthropic message's content blocks (a string content has none)."""
    content = message.get("content")
    return content if isinstance(content, list) else []


def messages_of(payload: Json, role: str) -> Iterator[Json]:
    return (m for m in payload.get("messages", []) if m.get("role") == role)


def tool_results(payload: Json) -> list[Json]:
    """Every anthropic tool_result block of a request, in order."""
    return [
        block
        for message in messages_of(payload, "user")
        for block in blocks(message)
        if block.get("type") == "tool_result"
    ]


def choice_message(response: Json) -> Json:
    message: Json = response["choices"][0]["message"]
    return message


def stream_chunks(events: list[Json]) -> Iterator[Json]:
    """The JSON data of each event of a stream in the adapter protocol's list form."""
    return (event["data"] for event in events if isinstance(event.get("data"), dict))


def call_fragments(events: list[Json]) -> Iterator[Json]:
    """Every openai-chat ``delta.tool_calls[]`` fragment of a stream."""
    for chunk in stream_chunks(events):
        for choice in chunk.get("choices") or ():
            yield from (choice.get("delta") or {}).get("tool_calls") or ()
