"""sglang's Qwen3-Coder tool-call parser as a converter: Qwen XML in text -> tool_calls.

Pinned: sglang 0.5.10.post1, installed without its GPU stack
(``pip install --no-deps sglang==0.5.10.post1`` plus the extra
``sglang-qwen``, the pure modules the parser imports). It is the last
release whose ``import sglang`` does not import torch: from 0.5.11 on,
``sglang/__init__.py`` imports ``sglang.srt.utils``, which imports torch, and
every ``sglang.*`` module goes through that file.

Directions: response and stream, ``qwen-xml`` -> ``openai-chat``, with the
request's tools (the engine passes ``request=``).

What it calls: ``sglang.srt.function_call.function_call_parser.FunctionCallParser``
(internal) with parser name ``"qwen3_coder"``, that is
``qwen3_coder_detector.Qwen3CoderDetector``: ``has_tool_call`` and
``parse_non_stream`` (``detect_and_parse``) for a response,
``parse_stream_chunk`` (``parse_streaming_increment``) for each streamed
text fragment. The request's tools are read by sglang's own
``entrypoints.openai.protocol.Tool`` model.

The body around the parse mirrors sglang's server
(``entrypoints/openai/serving_chat.py`` of the same release, which cannot be
imported without torch): ``_process_tool_calls`` for a response (the
``stop`` finish reason becomes ``tool_calls`` as soon as the text holds a
call opener; ``content`` is the parser's normal text, ``null`` when empty;
ids ``call_`` + 24 hex digits of a uuid4) and ``_process_tool_call_stream``
for a stream (one chunk for the normal text, one per call fragment, the id
and name on a call's first fragment only; a final chunk carries the finish
reason, ``tool_calls`` when a call was streamed). Chunks and messages are
sglang's own pydantic models, dumped as its server dumps them. The fields
of the source body that sglang does not touch are kept as they were.

sglang parses nothing when ``tool_choice`` is ``none`` (the text passes
through) and, for ``required`` or a named tool, constrains the model to a
JSON array instead of XML: such a payload is declined with
``UnsupportedConversion``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._offline import load, plain_json, require
from toolwire.harness.model import OPENAI_CHAT, QWEN_XML, PayloadKind

EXTRA = "sglang-qwen"
_MODULES = ("sglang", "partial_json_parser", "orjson", "msgspec", "openai")
PARSER_NAME = "qwen3_coder"

DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    {("response", QWEN_XML, OPENAI_CHAT), ("stream", QWEN_XML, OPENAI_CHAT)}
)


class SGLangQwenAdapter:
    """Drives sglang's Qwen3-Coder detector (see the module docstring)."""

    name = "sglang-qwen"

    def __init__(self) -> None:
        self.version = require(self.name, EXTRA, _MODULES, "sglang")

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        if (kind, source, target) not in DIRECTIONS:
            raise UnsupportedConversion(f"the sglang shim does not convert {kind} {source}")
        request = request if isinstance(request, dict) else {}
        choice = request.get("tool_choice", "auto")
        if choice == "required" or isinstance(choice, dict):
            raise UnsupportedConversion(
                "sglang constrains output to a JSON array for tool_choice "
                f"{json.dumps(choice)}; it never parses Qwen XML there"
            )
        tools = _tools(request)
        parse = choice != "none" and bool(tools)
        if kind == "response":
            return plain_json(_response(payload, tools if parse else None))
        return _stream(payload, tools if parse else None)


def _tools(request: dict[str, Any]) -> list[Any]:
    protocol = load("sglang.srt.entrypoints.openai.protocol")
    return [protocol.Tool.model_validate(tool) for tool in request.get("tools") or []]


def _parser(tools: list[Any]) -> Any:
    module = load("sglang.srt.function_call.function_call_parser")
    return module.FunctionCallParser(tools, PARSER_NAME)


def _call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"  # serving_chat._process_tool_call_id


def _dump(model: Any) -> Any:
    return json.loads(model.model_dump_json())


# --- a whole response (serving_chat._process_tool_calls) ------------------------


def _response(body: dict[str, Any], tools: list[Any] | None) -> dict[str, Any]:
    protocol = load("sglang.srt.entrypoints.openai.protocol")
    converted = dict(body)
    choices = []
    for choice in body.get("choices", []):
        message = dict(choice.get("message") or {})
        text = message.get("content") or ""
        finish = choice.get("finish_reason")
        tool_calls = None
        if tools is not None:
            parser = _parser(tools)
            if parser.has_tool_call(text):
                if finish == "stop":
                    finish = "tool_calls"
                text, calls = parser.parse_non_stream(text)
                tool_calls = [
                    protocol.ToolCall(
                        id=_call_id(),
                        index=call.tool_index,
                        function=protocol.FunctionResponse(
                            name=call.name, arguments=call.parameters
                        ),
                    )
                    for call in calls
                ]
        parsed = protocol.ChatMessage(
            role="assistant",
            content=text if text else None,
            tool_calls=tool_calls,
            reasoning_content=message.get("reasoning_content") or None,
        )
        choices.append({**choice, "message": _dump(parsed), "finish_reason": finish})
    converted["choices"] = choices
    return converted


# --- a stream (serving_chat._process_tool_call_stream) --------------------------


def _stream(events: list[dict[str, Any]], tools: list[Any] | None) -> Any:
    protocol = load("sglang.srt.entrypoints.openai.protocol")
    parsers: dict[int, Any] = {}
    has_calls: dict[int, bool] = {}
    finishes: dict[int, Any] = {}
    output: list[dict[str, Any]] = []
    last: dict[str, Any] = {}

    def chunk(index: int, delta: Any, finish: Any = None) -> None:
        response = protocol.ChatCompletionStreamResponse(
            id=last.get("id") or "",
            created=last.get("created") or 0,
            model=last.get("model") or "",
            choices=[
                protocol.ChatCompletionResponseStreamChoice(
                    index=index, delta=delta, finish_reason=finish
                )
            ],
        )
        output.append({"event": None, "data": _dump(response)})

    for event in events:
        data = event.get("data")
        if not isinstance(data, dict) or not data.get("choices"):
            # The finish chunks come before the usage chunk and [DONE], which
            # pass as the server sent them.
            _flush_finishes(finishes, has_calls, chunk, protocol)
            output.append(event)
            continue
        last = data
        for choice in data["choices"]:
            index = choice.get("index", 0)
            delta = choice.get("delta") or {}
            if delta.get("role"):
                chunk(index, protocol.DeltaMessage(role="assistant", content=""))
            text = delta.get("content") or ""
            if text and tools is not None:
                parser = parsers.setdefault(index, _parser(tools))
                _emit_parsed(parser.parse_stream_chunk(text), index, has_calls, chunk, protocol)
            elif text:
                chunk(index, protocol.DeltaMessage(content=text))
            if choice.get("finish_reason") is not None:
                finishes[index] = choice["finish_reason"]
    _flush_finishes(finishes, has_calls, chunk, protocol)
    return plain_json(output)


def _emit_parsed(
    parsed: tuple[str, list[Any]], index: int, has_calls: dict[int, bool], chunk: Any, protocol: Any
) -> None:
    normal_text, calls = parsed
    if normal_text:
        chunk(index, protocol.DeltaMessage(content=normal_text))
    for call in calls:
        has_calls[index] = True
        first = bool(call.name)  # the id and name go on a call's first fragment only
        chunk(
            index,
            protocol.DeltaMessage(
                tool_calls=[
                    protocol.ToolCall(
                        id=_call_id() if first else None,
                        index=call.tool_index,
                        function=protocol.FunctionResponse(
                            name=call.name if first else None, arguments=call.parameters
                        ),
                    )
                ]
            ),
        )


def _flush_finishes(
    finishes: dict[int, Any], has_calls: dict[int, bool], chunk: Any, protocol: Any
) -> None:
    for index, finish in sorted(finishes.items()):
        final = "tool_calls" if has_calls.get(index) and finish == "stop" else finish
        chunk(index, protocol.DeltaMessage(), final)
    finishes.clear()
