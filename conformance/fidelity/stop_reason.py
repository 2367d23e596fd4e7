"""Response-level fidelity: the stop reason and the token usage.

fidelity.stop_reason follows the catalogue's table on the neutral stop
reason: end_turn<->stop, tool_use<->tool_calls, max_tokens<->length,
stop_sequence<->stop. openai-chat's ``stop`` covers both a natural end and a
stop sequence, so where either side is of the openai family those two are
one. Accepted too, being documented equivalents rather than losses: Anthropic
``refusal`` and OpenAI ``content_filter`` (the anthropic codec writes one as
the other); a message that carries tool calls reported as ``tool_use``
although the source said ``stop`` (some compatible servers say ``stop`` with
calls). Anthropic ``pause_turn`` has no openai-chat counterpart, and a stop
reason the neutral model does not know (Gemini ``MALFORMED_FUNCTION_CALL``)
has no documented mapping: neither is judged, even when the output drops the
choice. An output with an empty ``choices`` / ``candidates`` list otherwise
lost the stop reason, like a null ``finish_reason`` (docs/conventions.md,
"Stop reasons").

fidelity.stop_reason_content judges one response (or reassembled stream) on
its own: a tool stop (anthropic ``tool_use``, openai ``tool_calls``) with no
tool call sends a client down its tool branch with nothing to run (agent
loops stall: vllm-project/vllm#53255, earendil-works/pi#9681), and an
anthropic ``end_turn`` beside a ``tool_use`` block makes the documented loop
("run the tool while stop_reason is tool_use",
https://docs.anthropic.com/en/api/handling-stop-reasons) skip the call
(can1357/oh-my-pi#12224, strands-agents/harness-sdk#1827). Server tool blocks
(``server_tool_use``, ``mcp_tool_use``) count as calls beside ``tool_use``,
but not beside ``end_turn``: the server ran them, and the real API ends such
answers with ``end_turn`` (recorded in ../shared/real-transcripts). Not judged: an
openai ``stop`` beside calls (OpenAI itself answers a forced ``tool_choice``
that way), ``max_tokens`` / ``length`` (a call may be cut or complete), and
any other stop reason.

fidelity.empty_text_added (SHOULD) judges a conversion whose output is an
anthropic-messages response or stream: it holds no more empty text blocks
than the source carried (an openai-family source carries none: its ``""``
or ``null`` content means "no text"). The API itself returns empty text
blocks (anthropics/anthropic-sdk-python#461; the SDK's refusal_response
stream fixture), so one in a response is no violation; but a converter that
turns ``content: ""`` into ``{"type": "text", "text": ""}`` hands clients a
block that Anthropic refuses when they send it back ("text content blocks
must be non-empty": anthropics/claude-code#88536 through a LiteLLM proxy,
NousResearch/hermes-agent#11906 through claude-code-router). SHOULD: the
harm comes on replay, where fidelity.empty_content judges the request.

fidelity.usage (SHOULD) compares input and output tokens. Anthropic's
``input_tokens`` excludes cached tokens while OpenAI's ``prompt_tokens``
includes them, so a converter that adds or subtracts the cached counts the
source reports keeps the meaning and is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.presets import ANTHROPIC
from toolwire.conformance.readings.views import is_openai_family
from toolwire.conformance.rule import documented, means, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_DOCS,
    ANTHROPIC_STOP_REASONS,
    ANTHROPIC_TOOLS,
    OPENAI_DOCS,
)
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    QWEN_XML,
    OpaqueBlock,
    Response,
    StopReason,
    TextBlock,
    ToolCall,
    Usage,
)

STOP_REASON = rule(
    "fidelity.stop_reason",
    "MUST",
    "conversion roundtrip",
    "The stop reason maps to its equivalent: end_turn<->stop, tool_use<->tool_calls, "
    "max_tokens<->length, stop_sequence<->stop.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    evidence=(
        means(OPENAI_DOCS, "finish_reason stop, length, tool_calls, content_filter"),
        means(ANTHROPIC_DOCS, "stop_reason end_turn, max_tokens, stop_sequence, tool_use"),
    ),
    fix=(
        "Map the stop reason by its meaning: end_turn<->stop, tool_use<->tool_calls, "
        "max_tokens<->length, stop_sequence<->stop. Never hard-code one value."
    ),
    convention=(
        "Stop reasons",
        "the documented details of the mapping (pause_turn, refusal, content_filter, a named "
        "tool_choice answered with stop); an empty choices list loses the stop reason, and a "
        "stop reason with no documented equivalent (Gemini MALFORMED_FUNCTION_CALL) gets no "
        "verdict.",
    ),
)


STOP_REASON_CONTENT = rule(
    "fidelity.stop_reason_content",
    "MUST",
    "payload",
    "A response's stop reason agrees with its content: tool_use / tool_calls only with a "
    "tool call, and an anthropic-messages end_turn never beside a tool_use block.",
    ANTHROPIC_STOP_REASONS,
    ANTHROPIC_TOOLS,
    OPENAI_DOCS,
    dialects=frozenset({ANTHROPIC, "openai-chat", "deepseek-chat"}),
    evidence=(
        documented(ANTHROPIC_STOP_REASONS, "stop_reason tool_use: the response holds tools to run"),
        documented(OPENAI_DOCS, "finish_reason tool_calls: the model called a tool"),
        rejected(
            "https://github.com/vllm-project/vllm/issues/53255",
            'finish_reason "tool_calls" beside no call: the client takes the tool branch '
            "with nothing to run",
        ),
    ),
    fix=(
        "Derive the stop reason from what the response carries: tool_use / tool_calls only "
        "when there is a tool call, and never end_turn beside a tool_use block."
    ),
)


EMPTY_TEXT_ADDED = rule(
    "fidelity.empty_text_added",
    "SHOULD",
    "conversion",
    "A response converted to anthropic-messages holds no empty text block the source "
    "did not carry (Anthropic refuses one when the turn is sent back).",
    ANTHROPIC_DOCS,
    "https://github.com/anthropics/claude-code/issues/88536",
    dialects=frozenset({ANTHROPIC}),
    fix=(
        "When the source's content is empty or null, write no text block at all instead of "
        "an empty one."
    ),
)


USAGE = rule(
    "fidelity.usage",
    "SHOULD",
    "conversion roundtrip",
    "Token usage (input and output tokens) survives conversion.",
    OPENAI_DOCS,
    ANTHROPIC_DOCS,
    fix=(
        "Copy input and output token counts: prompt_tokens<->input_tokens, "
        "completion_tokens<->output_tokens."
    ),
)


_OPENAI_WIRE = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "content_filter": "content_filter",
    "refusal": "content_filter",
}
_ANTHROPIC_WIRE = {
    "end_turn": "end_turn",
    "stop_sequence": "stop_sequence",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "content_filter": "refusal",
    "refusal": "refusal",
}
# How the other targets say a stop reason, for the message only.
_RESPONSES_WIRE = {
    "end_turn": "completed",
    "stop_sequence": "completed",
    "tool_use": "completed",
    "max_tokens": "incomplete (max_output_tokens)",
    "content_filter": "incomplete (content_filter)",
    "refusal": "incomplete (content_filter)",
}
_GEMINI_WIRE = {
    "end_turn": "STOP",
    "stop_sequence": "STOP",
    "tool_use": "STOP",
    "max_tokens": "MAX_TOKENS",
    "content_filter": "SAFETY",
    "refusal": "SAFETY",
}
_WIRE_PATH = {
    ANTHROPIC_MESSAGES: ("stop_reason", _ANTHROPIC_WIRE),
    OPENAI_RESPONSES: ("status", _RESPONSES_WIRE),
    GEMINI: ("candidates[0].finishReason", _GEMINI_WIRE),
}
_NOT_JUDGED = frozenset({"unknown", "pause_turn"})


def _classes(dialects: Sequence[str]) -> dict[str, str]:
    """Canonical stop reason -> equivalence class, given every dialect the
    response was written in on its way."""
    classes = {"content_filter": "filtered", "refusal": "filtered"}
    if any(is_openai_family(dialect) for dialect in dialects):
        classes["stop_sequence"] = "end_turn"
    return classes


def check_stop_reason(
    source: PayloadUnderTest, output: PayloadUnderTest, via: Sequence[str] = ()
) -> list[Finding] | None:
    before, after = source.response, output.response
    if before is None or after is None or not before.choices:
        return None
    expected = before.stop_reason
    if expected.canonical in _NOT_JUDGED:
        return None
    if not after.choices:
        return [_choice_lost(expected, output.dialect)]
    actual = after.stop_reason
    classes = _classes((source.dialect, output.dialect, *via))
    same = classes.get(expected.canonical, expected.canonical) == classes.get(
        actual.canonical, actual.canonical
    )
    calls_now_named = actual.canonical == "tool_use" and bool(after.message.tool_calls)
    if same or (expected.canonical == "end_turn" and calls_now_named):
        return []
    path, wanted = _wanted(expected, output.dialect)
    got = "no stop reason" if actual.raw is None else repr(actual.raw)
    return [
        finding(
            "fidelity.stop_reason",
            f"the source stopped with {_raw(expected)}; the output at {path} has {got}, "
            f"expected {wanted!r}",
            path,
            expected=wanted,
            actual=actual.raw,
        )
    ]


def _wanted(expected: StopReason, dialect: str) -> tuple[str, str | None]:
    """Where ``dialect`` says a stop reason, and how it says ``expected``."""
    path, wire = _WIRE_PATH.get(dialect, ("choices[0].finish_reason", _OPENAI_WIRE))
    return path, wire.get(expected.canonical, expected.raw)


def _choice_lost(expected: StopReason, dialect: str) -> Finding:
    # An empty choices / candidates list carries no stop reason at all: the
    # same loss as a null finish_reason, and a client reading choices[0]
    # fails (openai/openai-agents-python#1559).
    path, wanted = _wanted(expected, dialect)
    field = path.split("[", 1)[0]
    return finding(
        "fidelity.stop_reason",
        f"the source stopped with {_raw(expected)}; the output's {field} list is empty, so "
        f"that stop reason is lost, expected {wanted!r} at {path}",
        field,
        expected=wanted,
        actual=[],
    )


_SERVER_CALLS = frozenset({"server_tool_use", "mcp_tool_use"})


def check_stop_reason_content(payload: PayloadUnderTest) -> list[Finding] | None:
    response = payload.response
    if response is None or not response.choices or payload.dialect == QWEN_XML:
        return None
    anthropic = payload.dialect == ANTHROPIC_MESSAGES
    judged = False
    found = []
    for number, choice in enumerate(response.choices):
        stop = choice.stop_reason
        blocks = choice.message.blocks
        calls = sum(isinstance(block, ToolCall) for block in blocks)
        server_calls = sum(
            isinstance(block, OpaqueBlock) and block.type in _SERVER_CALLS for block in blocks
        )
        path = "stop_reason" if anthropic else f"choices[{number}].finish_reason"
        if stop.canonical == "tool_use":
            judged = True
            if not calls and not server_calls:
                found.append(
                    finding(
                        "fidelity.stop_reason_content",
                        f"{path} is {stop.raw!r}, but the message carries no tool call: a "
                        "client looks for a call to run and finds none",
                        path,
                        expected="a tool call beside this stop reason",
                        actual=stop.raw,
                    )
                )
        elif anthropic and stop.canonical == "end_turn":
            judged = True
            if calls:
                found.append(
                    finding(
                        "fidelity.stop_reason_content",
                        f"stop_reason is {stop.raw!r} beside {calls} tool_use block(s): a "
                        "client runs tools only when stop_reason is 'tool_use'",
                        path,
                        expected="tool_use",
                        actual=stop.raw,
                    )
                )
    return found if judged else None


def _empty_texts(response: Response) -> int:
    return sum(isinstance(b, TextBlock) and b.text == "" for b in response.message.blocks)


def check_empty_text_added(
    source: PayloadUnderTest, output: PayloadUnderTest
) -> list[Finding] | None:
    before, after = source.response, output.response
    if output.dialect != ANTHROPIC_MESSAGES or before is None or after is None:
        return None
    if not before.choices or not after.choices:
        return None
    carried = _empty_texts(before) if source.dialect == ANTHROPIC_MESSAGES else 0
    added = _empty_texts(after) - carried
    if added <= 0:
        return []
    where = "the streamed message" if output.stream is not None else "content"
    return [
        finding(
            "fidelity.empty_text_added",
            f"{where} holds {added} empty text block(s) the source did not carry; Anthropic "
            "refuses an empty text block when a client sends this turn back",
            "content",
            expected="no empty text block",
            actual={"type": "text", "text": ""},
        )
    ]


def _raw(stop: StopReason) -> str:
    return repr(stop.raw) if stop.raw is not None else stop.canonical


def check_usage(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.response, output.response
    if before is None or after is None:
        return None
    usage = before.usage
    if usage is None or (usage.input_tokens is None and usage.output_tokens is None):
        return None
    got = after.usage
    if got is None:
        return [
            finding(
                "fidelity.usage",
                f"the source reports {usage.input_tokens} input and {usage.output_tokens} output "
                "tokens; the output has no usage",
                "usage",
                expected=_counts(usage),
                actual=None,
            )
        ]
    found = []
    accepted_inputs = _accepted_inputs(before, usage)
    if usage.input_tokens is not None and got.input_tokens not in accepted_inputs:
        found.append(_mismatch("input", output.dialect, sorted(accepted_inputs), got.input_tokens))
    if usage.output_tokens is not None and got.output_tokens != usage.output_tokens:
        found.append(_mismatch("output", output.dialect, [usage.output_tokens], got.output_tokens))
    return found


def _accepted_inputs(response: Response, usage: Usage) -> set[int]:
    assert usage.input_tokens is not None
    base = usage.input_tokens
    raw = usage.raw
    if response.dialect == ANTHROPIC_MESSAGES:
        cached = _int(raw, "cache_read_input_tokens") + _int(raw, "cache_creation_input_tokens")
        return {base, base + cached}
    details = raw.get("prompt_tokens_details")
    cached = _int(details, "cached_tokens") if isinstance(details, Mapping) else 0
    return {base, base - cached}


def _int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _mismatch(which: str, dialect: str, accepted: list[int], actual: int | None) -> Finding:
    key = {
        ("input", True): "usage.input_tokens",
        ("output", True): "usage.output_tokens",
        ("input", False): "usage.prompt_tokens",
        ("output", False): "usage.completion_tokens",
    }[(which, dialect == ANTHROPIC_MESSAGES)]
    wanted = " or ".join(map(str, accepted))
    return finding(
        "fidelity.usage",
        f"{key} is {actual}, but the source reports {wanted} {which} tokens",
        key,
        expected=accepted[0] if len(accepted) == 1 else accepted,
        actual=actual,
    )


def _counts(usage: Usage) -> dict[str, int | None]:
    return {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
