"""The ``conversation`` matcher's key: a request's conversation as its content.

``matching.py``'s docstring says what the key keeps (runs of text, reasoning,
calls and results, the tools, the stream choice) and what it leaves to the
rules. Kept apart because reading a conversation into that key (ordinals for
call ids, results read as their meaning) is a job of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.conformance.readings.conventions import (
    failure_marker,
    json_value,
    output_envelope,
    strip_error_mark,
)
from toolwire.conformance.readings.result_objects import any_json, enveloped_value
from toolwire.harness.dialects import get_codec
from toolwire.harness.errors import ToolwireError
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    GEMINI,
    OPENAI_RESPONSES,
    Block,
    OpaqueBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)
from toolwire.harness.proxy.endpoints import stream_choice

SIGNED_REASONING = frozenset((GEMINI, ANTHROPIC_MESSAGES, OPENAI_RESPONSES))


def conversation_key(
    dialect: str, body: Any, path: str = "", reasoning: bool = True
) -> dict[str, Any]:
    if body is None:
        return {"unreadable": "the body is not JSON"}
    try:
        conversation = get_codec(dialect).parse_request(body)
    except ToolwireError as error:
        return {"unreadable": f"the {dialect} codec cannot read it: {error}"}
    ordinals = _Ordinals()
    runs: list[dict[str, Any]] = []
    if conversation.system:
        _add(runs, "system", conversation.system, ordinals)
    keep_thinking = reasoning and dialect not in SIGNED_REASONING
    for turn in conversation.turns:
        _add(runs, _role_class(turn.role), turn.blocks, ordinals, keep_thinking, dialect == GEMINI)
    for run in runs:
        if "results" in run:
            run["results"].sort(key=lambda result: result["for"] or 0)
    return {
        "stream": stream_choice(dialect, path, conversation.stream),
        "tools": [tool.name for tool in conversation.tools or ()],
        "runs": runs,
    }


def _role_class(role: str) -> str:
    if role in ("system", "developer"):
        return "system"
    # An openai-chat tool message is the user's side answering, as in Anthropic.
    return "user" if role == "tool" else role


def _add(
    runs: list[dict[str, Any]],
    role: str,
    blocks: Sequence[Block],
    ordinals: _Ordinals,
    keep_thinking: bool = True,
    objects: bool = False,
) -> None:
    """Adds the blocks to the run of consecutive messages of ``role``."""
    if not runs or runs[-1]["role"] != role:
        runs.append({"role": role})
    run = runs[-1]
    for block in blocks:
        if isinstance(block, TextBlock):
            if block.text:
                run["text"] = run.get("text", "") + _unfolded(block.text)
        elif isinstance(block, ThinkingBlock):
            if not keep_thinking:
                continue
            if block.redacted_data is not None:
                run.setdefault("redacted_thinking", []).append(block.redacted_data)
            elif block.text:
                run["thinking"] = run.get("thinking", "") + _unfolded(block.text)
        elif isinstance(block, ToolCall):
            call = {"call": ordinals.call(block.id, block.name), "name": block.name}
            run.setdefault("calls", []).append({**call, "arguments": block.arguments})
        elif isinstance(block, ToolResult):
            # docs/conventions.md: an "Error:" marker and an is_error flag say the
            # same, and so does a converter's own marker around the text
            # ("[is_error=true]\n...", "<error>...</error>"): the rules judge it.
            text = strip_error_mark(_unfolded(_unmarked(block.content)))
            value = _result_value(text, objects)
            answered = ordinals.result(block.call_id, block.name)
            result = {"for": answered, "text": value}
            run.setdefault("results", []).append(result)
        elif isinstance(block, OpaqueBlock):
            run.setdefault("opaque", []).append(block.type)


def _unmarked(blocks: Sequence[Block]) -> str:
    text = "".join(b.text for b in blocks if isinstance(b, TextBlock))
    marked = failure_marker(text)
    return text if marked is None else marked[1]


def _result_value(text: str, objects: bool = False) -> Any:
    """A result as its meaning, read as the rules read it (conformance/readings/conventions.py):
    JSON text is its value, and an output envelope (``{"output": ...}``,
    ``{"result": ...}``, ``{"content": ...}``: Gemini takes any object,
    https://ai.google.dev/api/caching#FunctionResponse) is the text it holds.
    Converters re-serialise and wrap results; the rules, not the matcher,
    judge how."""
    inner = output_envelope(text)
    if inner is not None:
        text = strip_error_mark(_unfolded(inner))  # a marker inside the envelope
    if objects:
        # A Gemini envelope may hold the value the text spells ({"output": [1, 2]},
        # {"output": 42}: conformance/readings/result_objects.py), so there a bare
        # number is its value too. Elsewhere {"result": 42} is a text of its own.
        wrapped, wrapped_value = enveloped_value(text)
        if wrapped:
            return wrapped_value
        parsed, scalar = any_json(text)
        if parsed and not isinstance(scalar, (str, dict, list)):
            return scalar
    found, value = json_value(text)
    return value if found else text


class _Ordinals:
    """Call ids as ordinals (1, 2, ...), and which calls are still unanswered."""

    def __init__(self) -> None:
        self.by_id: dict[str, int] = {}
        self.count = 0
        self.open: list[tuple[str | None, int]] = []  # (name, ordinal) of unanswered calls

    def call(self, call_id: str | None, name: str | None) -> int:
        if call_id is not None and call_id in self.by_id:
            ordinal = self.by_id[call_id]
        else:
            self.count += 1
            ordinal = self.count
            if call_id is not None:
                self.by_id[call_id] = ordinal
        self.open.append((name, ordinal))
        return ordinal

    def result(self, call_id: str | None, name: str | None) -> int | None:
        if call_id is not None:
            if call_id not in self.by_id:  # an orphan: an ordinal of its own
                self.count += 1
                self.by_id[call_id] = self.count
            ordinal = self.by_id[call_id]
            self.open = [entry for entry in self.open if entry[1] != ordinal]
            return ordinal
        for index, (open_name, ordinal) in enumerate(self.open):
            if name is None or open_name == name:
                del self.open[index]
                return ordinal
        return None


def _unfolded(text: str) -> str:
    # Converters join text blocks with "", "\n" or "\n\n" (docs/conventions.md,
    # conformance/readings/text.py): newlines never decide which recording a request is.
    return text.replace("\n", "")
