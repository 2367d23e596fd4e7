"""Which recorded request a received one is: the replay upstream's matchers.

A matcher projects a request (method, path, body) onto a comparable JSON
*key*; a received request matches a recorded one when their keys are equal.
When none is equal, the nearest recording is the one whose key differs in the
fewest places (deepdiff), and the differences are listed at their JSON paths,
as vcrpy lists the matchers that failed for each near miss.

Two matchers (docs/proxies.md "Matching"):

* ``strict`` (the default): method, path with query, and the JSON body equal
  ignoring key order (dicts compare unordered, lists in order). Fields named
  in ``ignore`` (top-level body keys, e.g. ``stream_options``) are dropped on
  both sides; nothing is ignored unless asked.
* ``conversation`` (what the ``http://`` adapter uses): a proxy's forwarded
  request is compared with the case's *twin*, which no converter reproduces
  byte for byte (model names, token limits, ids and argument spacing all
  differ). The key is then the conversation's content as the dialect's codec
  reads it, in runs of consecutive messages of one side (system; user,
  including tool results; assistant): each run's text and reasoning joined
  with newlines removed (converters join blocks with "", "\\n" or "\\n\\n"),
  its tool calls (name and parsed arguments) in order, its results (text)
  by the call they answer; the tool names offered; whether a stream was
  asked. Ids become ordinals (call 1, call 2), so pairing still counts; a
  call without an id (Gemini's may have none) gets the next ordinal, and a
  result without one answers the oldest unanswered call of its name, as
  Gemini pairs them. Reasoning is left out toward the dialects that carry it
  signed or encrypted (``SIGNED_REASONING``): Gemini's ``thoughtSignature``
  (https://ai.google.dev/gemini-api/docs/thought-signatures), Anthropic's
  thinking ``signature``, a Responses reasoning item's
  ``encrypted_content``, which a converter from another provider cannot
  have; the reasoning rules judge what was sent. Toward the chat dialects
  reasoning is plain text (DeepSeek's ``reasoning_content`` must come back)
  and stays in the key.
  Model, sampling and token parameters, ids, argument spacing, how content
  was carried (string or parts), error flags, message boundaries, the order
  of results and where text sits between calls are left to the rules, which
  judge them with precise codes. A result's leading ``Error:`` marker is
  ignored, as docs/conventions.md says, and so is a converter's own marker
  around the text (``[is_error=true]``, ``<error>...</error>``:
  ``conventions.failure_marker``); toward gemini a result is its JSON value,
  under an envelope or not (``{"output": [1, 2]}`` is ``[1, 2]``). Reasoning is also left out of the
  key when the proxy's front or back (not both) is openai-responses: requests
  across the Responses API carry none (docs/conventions.md). Paths compare
  from after their last version segment (``/v1/chat/completions`` equals
  DeepSeek's ``/chat/completions`` and z.ai's ``/api/paas/v4/chat/completions``);
  the query is ignored. Gemini names the model and the stream choice in
  the path (``/v1beta/models/{model}:generateContent``, or
  ``:streamGenerateContent?alt=sse``): its endpoint is
  ``/models/*:generateContent`` whatever the model, and whether it streams
  is read from the path (``stream_choice``), never from the body.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import OPENAI_RESPONSES
from toolwire.harness.proxy.conversation_key import conversation_key
from toolwire.harness.proxy.endpoints import endpoint_of, stream_choice

MatchMode: TypeAlias = Literal["strict", "conversation"]
MATCH_MODES: tuple[MatchMode, ...] = ("strict", "conversation")
MAX_DIFF_LINES = 8


@dataclass(frozen=True)
class RequestKey:
    """What a matcher compares: equal keys mean the same request."""

    value: dict[str, Any]


@dataclass(frozen=True)
class Matcher:
    mode: MatchMode = "strict"
    # conversation mode: the dialect the upstream speaks (its codec reads bodies)
    dialect: str | None = None
    # strict mode: top-level body keys dropped on both sides
    ignore: tuple[str, ...] = ()
    # conversation mode: the dialect the proxy is sent (its front), when known
    front: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in MATCH_MODES:
            raise ToolwireError(
                f"unknown match mode {self.mode!r}", hint=f"use one of: {', '.join(MATCH_MODES)}"
            )
        if self.mode == "conversation" and self.dialect is None:
            raise ToolwireError("conversation matching needs the upstream's dialect")

    def key(self, method: str, path: str, body: Any) -> RequestKey:
        if self.mode == "strict":
            if isinstance(body, dict) and self.ignore:
                body = {k: v for k, v in body.items() if k not in self.ignore}
            return RequestKey({"method": method.upper(), "path": path, "body": body})
        assert self.dialect is not None
        return RequestKey(
            {
                "method": method.upper(),
                "path": endpoint_of(path),
                "conversation": conversation_key(
                    self.dialect,
                    body,
                    path,
                    reasoning=not _across_responses(self.front, self.dialect),
                ),
            }
        )


@dataclass(frozen=True)
class NearMiss:
    """The recording nearest to an unmatched request, and what differed."""

    index: int
    differences: tuple[str, ...]
    count: int

    def describe(self) -> str:
        lines = "; ".join(self.differences)
        more = self.count - len(self.differences)
        tail = f"; and {more} more" if more > 0 else ""
        return f"nearest is recorded interaction {self.index + 1}, which differs at {lines}{tail}"


def find_match(received: RequestKey, recorded: Sequence[RequestKey], used: set[int]) -> int | None:
    """The first equal recording not yet served, else the first equal one (a retry)."""
    equal = [i for i, key in enumerate(recorded) if key.value == received.value]
    fresh = [i for i in equal if i not in used]
    if fresh:
        return fresh[0]
    return equal[0] if equal else None


def nearest_miss(received: RequestKey, recorded: Sequence[RequestKey]) -> NearMiss | None:
    from deepdiff import DeepDiff  # only needed to explain a miss

    best: NearMiss | None = None
    for index, key in enumerate(recorded):
        tree = DeepDiff(key.value, received.value, ignore_order=False, view="tree")
        levels = [level for change in tree.values() for level in change]
        if best is not None and len(levels) >= best.count:
            continue
        lines = tuple(_describe_level(level) for level in levels[:MAX_DIFF_LINES])
        best = NearMiss(index, lines, len(levels))
    return best


def _describe_level(level: Any) -> str:
    path = str(level.path()).replace("root", "$", 1)
    recorded, received = level.t1, level.t2
    if _missing(recorded):
        return f"{path}: not recorded, received {_short(received)}"
    if _missing(received):
        return f"{path}: recorded {_short(recorded)}, not received"
    return f"{path}: recorded {_short(recorded)}, received {_short(received)}"


def _missing(value: Any) -> bool:
    return type(value).__name__ == "NotPresent"


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


# --- which reasoning the conversation key keeps -----------------------------------


def _across_responses(front: str | None, back: str) -> bool:
    """A request converted into or out of openai-responses carries no reasoning
    (docs/conventions.md, "The Responses API"): the twin's reasoning is its own
    provider's, which no correct converter sends, so it cannot tell recordings
    apart; the reasoning rules judge what was sent."""
    return front is not None and front != back and OPENAI_RESPONSES in (front, back)


# --- answering a miss by position -------------------------------------------------


def position_refusal(
    dialect: str | None,
    received: tuple[str, str, Any],
    recorded: tuple[str, str],
    recorded_stream: bool,
) -> str | None:
    """Why the recording where the case is must not answer an unmatched request
    (``received`` and ``recorded`` are method, path and, received, the body),
    or None when serving it lets the proxy's answer be judged fairly.

    A request the upstream did not recognise is still answered from the
    recording at the case's position, so that the proxy's response leg is
    judged; but only when the request is the same kind of call as the
    recording: the same endpoint (another one is another dialect's), a body
    the upstream dialect's codec reads, and the same choice of stream or JSON.
    Otherwise the recorded answer is not one the proxy could have been given,
    and judging its conversion would blame the response leg for the request's
    fault."""
    method, path, body = received
    if dialect is None:
        return "the upstream's dialect is not known"
    if method.upper() != recorded[0].upper() or endpoint_of(path) != endpoint_of(recorded[1]):
        return (
            f"it went to {method.upper()} {endpoint_of(path)}, the recording to "
            f"{recorded[0].upper()} {endpoint_of(recorded[1])} (another endpoint, "
            "perhaps another dialect)"
        )
    if body is None:
        return "its body is not JSON"
    try:
        conversation = get_codec(dialect).parse_request(body)
    except ToolwireError as error:
        return f"the {dialect} codec cannot read it ({error})"
    except Exception as error:  # a proxy's body is hostile input: never crash the server
        return f"the {dialect} codec cannot read it ({type(error).__name__})"
    asked = stream_choice(dialect, path, conversation.stream)
    if asked != recorded_stream:
        if asked is True:
            return "it asks for a stream, the recording is a JSON answer"
        if asked:
            return f"it asks for a stream as {asked}, the recording is an event stream"
        return "it asks for a JSON answer, the recording is a stream"
    return None
