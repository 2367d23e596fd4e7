"""replay.*: what response n returned comes back unchanged in request n+1.

A client (or a proxy) replays the assistant's turn in the next request of a
conversation. Its tool call ids, names and arguments and its visible text
must come back as returned. Reasoning must come back where the provider
requires it, and unchanged wherever it comes back:

* anthropic-messages: the thinking blocks of a turn that made tool calls
  return unchanged, signature and redacted data included; a client may omit
  thinking from a turn that ended without calls
  (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking,
  "Preserving thinking blocks").
* deepseek-chat: ``reasoning_content`` returns on every assistant message of
  a stretch (between two user messages) with tool calls; in a stretch without
  calls it may be dropped and is ignored if sent, so it is not judged there
  (https://api-docs.deepseek.com/guides/thinking_mode).
* openai-chat: no reasoning field is documented, so reasoning is not judged.
* qwen-xml: the calls live in the text, so the whole assistant text (markup
  included) is compared.
* gemini: consecutive model contents are one turn, so an answer may come back
  split over several (its calls and text are compared across them); calls need
  not carry an id, and a client may add one to a call that
  had none (pydantic-ai does, and the API accepts it): only an id the
  response gave is compared. A Gemini 3 response's function-call
  ``thoughtSignature`` returns on its call, as the same bytes
  (``readings/gemini_signatures.py``): Gemini 3 refuses the request otherwise
  (https://ai.google.dev/gemini-api/docs/thought-signatures). Thought parts
  and text-part signatures are only advised back, and not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from toolwire.conformance.context import Exchange, ReplayCheck
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.gemini_signatures import requires_signatures, same_signature
from toolwire.conformance.readings.paths import block_path, turn_path
from toolwire.conformance.readings.reasoning_views import assistant_views
from toolwire.conformance.readings.server_state import server_state
from toolwire.conformance.readings.timeline import ASSISTANT_ROLES, MERGED_MODEL_TURNS
from toolwire.conformance.readings.xml_oracle import assistant_markup_text
from toolwire.conformance.readings.xml_values import preview, same_json
from toolwire.conformance.rule import documented, means, rule
from toolwire.conformance.sources import ANTHROPIC_THINKING, DEEPSEEK_THINKING, OPENAI_TOOLS
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    DEEPSEEK_CHAT,
    GEMINI,
    QWEN_XML,
    Conversation,
    Response,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    Turn,
)

ASSISTANT_ALTERED = rule(
    "replay.assistant_altered",
    "MUST",
    "replay",
    "The assistant turn sent back in request n+1 equals what response n returned: ids, "
    "text, thinking with signature, reasoning_content.",
    ANTHROPIC_THINKING,
    DEEPSEEK_THINKING,
    OPENAI_TOOLS,
    evidence=(
        documented(ANTHROPIC_THINKING, "thinking blocks go back unmodified with their signature"),
        documented(DEEPSEEK_THINKING, "reasoning_content of tool-call turns goes back"),
        means(OPENAI_TOOLS, "the assistant message with its tool_calls is sent back as returned"),
    ),
    fix=(
        "Send the assistant turn back as the response returned it: the same ids, text, "
        "thinking with its signature, and reasoning_content."
    ),
)


CODE = "replay.assistant_altered"


@dataclass(frozen=True)
class Replay:
    """Response n's message and where request n+1 sends it back."""

    number: int  # n, the index of the exchange that returned the message
    returned: Turn
    request: Conversation  # request n+1
    index: int | None  # the replayed turn in request n+1; None when it is missing
    expected_at: int  # where it belongs when request n+1 extends request n

    # Counted from 1, as `toolwire lint` labels interactions.
    @property
    def source(self) -> str:
        return f"the response of interaction {self.number + 1}"

    @property
    def where(self) -> str:
        return f"the request of interaction {self.number + 2}"


def locate_replay(
    number: int, before: Conversation, returned: Turn, after: Conversation
) -> Replay | None:
    """Find the turn of ``after`` that replays ``returned``; None when
    ``after`` does not continue ``before`` (nothing to judge)."""
    ids = [call.id for call in returned.tool_calls if call.id]
    if ids:
        # The newest turn with the id: a server that numbers ids per response
        # (Bedrock's call_0) gives earlier turns the same id.
        for index in reversed(range(len(after.turns))):
            turn = after.turns[index]
            if turn.role in ASSISTANT_ROLES and any(call.id == ids[0] for call in turn.tool_calls):
                return Replay(number, returned, after, index, index)
    position = len(before.turns)
    prefix_roles = [turn.role for turn in after.turns[:position]]
    if len(after.turns) <= position or prefix_roles != [turn.role for turn in before.turns]:
        return None  # not a continuation of request n: a new conversation
    if after.turns[position].role in ASSISTANT_ROLES:
        return Replay(number, returned, after, position, position)
    return Replay(number, returned, after, None, position)


# Open-model servers (Groq's reasoning_format "raw", vLLM, ...) put the
# reasoning in the content as a leading <think>...</think> section, and
# clients send it back in either form; in openai-chat it is reasoning, which
# no documentation requires back, so it is not compared as visible text.
_THINK_SECTION = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)


def _text(turn: Turn) -> str:
    # Converters and clients join text blocks with "", "\n" or "\n\n"
    # (docs/conventions.md) and pad an empty turn with " " (llm-anthropic's
    # real recording): compare the pieces, without surrounding whitespace.
    pieces = [b.text.strip("\n") for b in turn.blocks if isinstance(b, TextBlock)]
    return _THINK_SECTION.sub("", "".join(pieces)).strip()


def _calls(replay: Replay, dialect: str = "", signatures: bool = False) -> list[Finding]:
    assert replay.index is not None
    returned = replay.returned.tool_calls
    sent = [
        (call, block_path(replay.request, index, b))
        for index in sent_turns(replay)
        for b, call in enumerate(replay.request.turns[index].blocks)
        if isinstance(call, ToolCall)
    ]
    if len(returned) != len(sent):
        return [
            finding(
                CODE,
                f"{replay.source} returned {len(returned)} tool call(s) "
                f"({_ids(returned)}); {replay.where} sends back {len(sent)} at "
                f"{turn_path(replay.index, replay.request)} ({_ids([c for c, _ in sent])})",
                turn_path(replay.index, replay.request),
                expected=[_call_json(c) for c in returned],
                actual=[_call_json(c) for c, _ in sent],
            )
        ]
    found = []
    for position, (want, (got, path)) in enumerate(zip(returned, sent, strict=True)):
        for field, expected, actual in _call_differences(want, got, dialect, signatures):
            found.append(
                finding(
                    CODE,
                    f"call #{position + 1} of {replay.source} had {field} "
                    f"{preview(expected)}; {replay.where} sends {preview(actual)} at {path}",
                    path,
                    expected=expected,
                    actual=actual,
                )
            )
    return found


def _call_differences(
    want: ToolCall, got: ToolCall, dialect: str = "", signatures: bool = False
) -> list[tuple[str, object, object]]:
    differences: list[tuple[str, object, object]] = []
    if want.id != got.id and not (dialect == GEMINI and want.id is None):
        differences.append(("id", want.id, got.id))
    if signatures and want.signature and not same_signature(want.signature, got.signature):
        differences.append(("thoughtSignature", want.signature, got.signature))
    if want.name != got.name:
        differences.append(("name", want.name, got.name))
    if want.arguments is None or got.arguments is None:
        # Unparseable arguments: the text itself must come back.
        if want.raw_arguments != got.raw_arguments:
            differences.append(("arguments", want.raw_arguments, got.raw_arguments))
    elif not same_json(want.arguments, got.arguments):
        differences.append(("arguments", want.arguments, got.arguments))
    return differences


def _ids(calls: Sequence[ToolCall]) -> str:
    return ", ".join(repr(call.id) for call in calls) or "none"


def _call_json(call: ToolCall) -> dict[str, object]:
    return {"id": call.id, "name": call.name, "arguments": call.arguments}


def sent_turns(replay: Replay) -> list[int]:
    """The turns of request n+1 that send the answer back: the replayed turn,
    and in gemini the model contents right after it (consecutive model
    contents are one turn, ``readings/timeline.py``)."""
    assert replay.index is not None
    turns = replay.request.turns
    found = [replay.index]
    if replay.request.dialect in MERGED_MODEL_TURNS:
        while found[-1] + 1 < len(turns) and turns[found[-1] + 1].role in ASSISTANT_ROLES:
            found.append(found[-1] + 1)
    return found


def _sent_turn(replay: Replay) -> Turn:
    """The answer as request n+1 sends it back, its turns read as one."""
    turns = [replay.request.turns[index] for index in sent_turns(replay)]
    return replace(turns[0], blocks=tuple(block for turn in turns for block in turn.blocks))


def _visible_text(replay: Replay, dialect: str) -> list[Finding]:
    assert replay.index is not None
    turn = _sent_turn(replay)
    if dialect == QWEN_XML:
        expected, actual = assistant_markup_text(replay.returned), assistant_markup_text(turn)
        what = "text (tool-call markup included)"
        same = expected.strip() == actual.strip()
    else:
        expected, actual = _text(replay.returned), _text(turn)
        what = "text"
        same = expected == actual
    if same:
        return []
    path = turn_path(replay.index, replay.request)
    return [
        finding(
            CODE,
            f"{replay.source} returned the {what} {preview(expected)}; "
            f"{replay.where} sends {preview(actual)} at {path}",
            path,
            expected=expected,
            actual=actual,
        )
    ]


def _thinking_items(turn: Turn) -> list[tuple[str | None, str | None, str | None]]:
    return [
        (b.text, b.signature, b.redacted_data) for b in turn.blocks if isinstance(b, ThinkingBlock)
    ]


def _anthropic_thinking(replay: Replay) -> list[Finding]:
    assert replay.index is not None
    returned = _thinking_items(replay.returned)
    sent = _thinking_items(replay.request.turns[replay.index])
    path = turn_path(replay.index, replay.request)
    if not returned or sent == returned:
        return []
    if not sent and not replay.returned.tool_calls:
        return []  # thinking of a turn that ended without calls may be omitted
    if not sent:
        message = (
            f"{replay.source} returned {len(returned)} thinking block(s) with a tool "
            f"call; {replay.where} omits them at {path} (send them back unchanged, signature "
            "included)"
        )
    else:
        message = (
            f"{replay.source} returned {len(returned)} thinking block(s); "
            f"{replay.where} sends them changed at {path} (text, signature or redacted data)"
        )
    return [
        finding(
            CODE,
            message,
            path,
            expected=[_thinking_json(item) for item in returned],
            actual=[_thinking_json(item) for item in sent],
        )
    ]


def _thinking_json(item: tuple[str | None, str | None, str | None]) -> dict[str, str | None]:
    text, signature, data = item
    return {"thinking": text, "signature": signature, "data": data}


def _reasoning_content(turn: Turn) -> str | None:
    texts = [
        b.text
        for b in turn.blocks
        if isinstance(b, ThinkingBlock) and b.origin == "reasoning_content" and b.text is not None
    ]
    return "".join(texts) if texts else None


def _deepseek_reasoning(replay: Replay) -> list[Finding]:
    assert replay.index is not None
    views = assistant_views(replay.request)
    view = next((v for v in views if replay.index in v.indices), None)
    if view is None or not view.tool_stretch:
        return []  # outside a tool-call stretch reasoning may be dropped, and is ignored
    expected = _reasoning_content(replay.returned)
    actual = _reasoning_content(replay.request.turns[replay.index])
    if expected is None or actual == expected:
        return []
    path = f"{turn_path(replay.index, replay.request)}.reasoning_content"
    state = "omits it" if actual is None else f"sends {preview(actual)}"
    return [
        finding(
            CODE,
            f"{replay.source} returned reasoning_content {preview(expected)} in a "
            f"stretch with tool calls; {replay.where} {state} at {path}",
            path,
            expected=expected,
            actual=actual,
        )
    ]


def compare_replay(replay: Replay, dialect: str, model: str | None = None) -> list[Finding]:
    if replay.index is None:
        path = turn_path(replay.expected_at, replay.request)
        role = replay.request.turns[replay.expected_at].role
        return [
            finding(
                CODE,
                f"{replay.source} is not sent back: {replay.where} has a {role} "
                f"message at {path}, where the assistant's reply belongs",
                path,
                expected="assistant",
                actual=role,
            )
        ]
    found = _visible_text(replay, dialect)
    if dialect != QWEN_XML:
        found += _calls(replay, dialect, dialect == GEMINI and requires_signatures(model))
    if dialect == ANTHROPIC_MESSAGES:
        found += _anthropic_thinking(replay)
    elif dialect == DEEPSEEK_CHAT:
        found += _deepseek_reasoning(replay)
    return found


def returned_nothing(message: Turn, dialect: str) -> bool:
    """An answer with no call, no visible text and no reasoning that must
    come back (Gemini thought parts and text-part signatures are only advised
    back): nothing a client could lose by not sending it back."""
    for block in message.blocks:
        if isinstance(block, TextBlock):
            if block.text.strip():
                return False
        elif not (dialect == GEMINI and isinstance(block, ThinkingBlock)):
            return False
    return True


def _completed(exchange: Exchange) -> Response | None:
    """The message response n returned; None when it failed or a stream
    ended in an error (the client then has no complete turn to replay)."""
    payload = exchange.response
    if payload is None or payload.response is None or not payload.response.choices:
        return None
    stream = payload.stream
    if stream is not None and any(i.code in ("stream_error", "error_event") for i in stream.issues):
        return None
    return payload.response


def check_assistant_altered(exchanges: Sequence[Exchange]) -> list[Finding] | None:
    """Each response's assistant turn comes back unchanged in the next request."""
    judged = False
    found: list[Finding] = []
    for previous, following in pairwise(exchanges):
        response = _completed(previous)
        before, after = previous.request.conversation, following.request.conversation
        if response is None or before is None or after is None:
            continue
        replay = locate_replay(previous.index, before, response.message, after)
        if replay is None:
            continue
        if replay.index is None and (
            returned_nothing(response.message, after.dialect) or server_state(after)
        ):
            continue  # nothing was lost, or the server holds the answer
        judged = True
        found += compare_replay(replay, following.request.dialect, response.model)
    return found if judged else None


REPLAY_CHECKS: dict[str, ReplayCheck] = {CODE: check_assistant_altered}
