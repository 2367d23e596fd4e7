"""The Python twin of adapter.js: the same small converter, line for line.

Converts OpenAI Chat Completions requests to Anthropic Messages requests.
Use it in-process (``--adapter twin:ExampleConverter`` with this folder on
PYTHONPATH) or as a ``cmd:`` adapter (``--adapter "cmd:python twin.py"``):
run as a program, it speaks the same newline-delimited JSON protocol as
adapter.js. toolwire's tests check that both give the same verdicts.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, ClassVar

NAME = "example-openai-to-anthropic"
VERSION = "0.1.0"
DIRECTIONS = [["request", "openai-chat", "anthropic-messages"]]
DEFAULT_MAX_TOKENS = 4096
# docs/conventions.md: a failed result's openai-chat content starts with "Error:".
ERROR_MARK = re.compile(r"^\s*error\s*:", re.IGNORECASE)


class ConversionError(ValueError):
    pass


def text_parts(content: Any, where: str) -> list[dict[str, Any]]:
    """An openai-chat content (string or parts) as Anthropic text blocks."""
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks = []
    for index, part in enumerate(content):
        if part.get("type") != "text":
            raise ConversionError(f"{where}.content[{index}]: only text parts are converted")
        blocks.append({"type": "text", "text": part["text"]})
    return blocks


def tool_choice(choice: Any, parallel: Any) -> dict[str, Any] | None:
    converted: dict[str, Any] | None = None
    if choice == "auto":
        converted = {"type": "auto"}
    elif choice == "none":
        converted = {"type": "none"}
    elif choice == "required":
        converted = {"type": "any"}
    elif isinstance(choice, dict):
        converted = {"type": "tool", "name": choice["function"]["name"]}
    if parallel is False:
        converted = converted or {"type": "auto"}
        if converted["type"] != "none":
            converted["disable_parallel_tool_use"] = True
    return converted


def convert_request(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("n", 1) != 1:
        raise ConversionError("n: Anthropic returns one choice; n must be 1")
    system: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []
    for index, message in enumerate(body["messages"]):
        where = f"messages[{index}]"
        role = message["role"]
        if role in ("system", "developer"):
            system.extend(text_parts(message.get("content"), where))
        elif role == "tool":
            content = message.get("content") or ""
            text = (
                content
                if isinstance(content, str)
                else "".join(block["text"] for block in text_parts(content, where))
            )
            result: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": message["tool_call_id"],
                "content": text,
            }
            if ERROR_MARK.match(text):
                result["is_error"] = True
            previous = messages[-1] if messages else None
            if previous is not None and previous["role"] == "user" and previous.get("results"):
                previous["content"].append(result)
            else:
                messages.append({"role": "user", "content": [result], "results": True})
        elif role == "user":
            blocks = text_parts(message.get("content"), where)
            previous = messages[-1] if messages else None
            if previous is not None and previous.get("results"):
                previous["content"].extend(blocks)  # text after results, in the same turn
                del previous["results"]
            else:
                messages.append({"role": "user", "content": message["content"]})
        elif role == "assistant":
            blocks = text_parts(message.get("content"), where)
            for call in message.get("tool_calls") or []:
                try:
                    arguments = json.loads(call["function"]["arguments"] or "{}")
                except json.JSONDecodeError:
                    raise ConversionError(
                        f"{where}: the arguments of call {call['id']} are not JSON"
                    ) from None
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": call["id"],
                        "name": call["function"]["name"],
                        "input": arguments,
                    }
                )
            messages.append({"role": "assistant", "content": blocks})
        else:
            raise ConversionError(f"{where}: unknown role {role!r}")
    for message in messages:
        message.pop("results", None)
    converted: dict[str, Any] = {"model": body["model"]}
    converted["max_tokens"] = (
        body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_MAX_TOKENS
    )
    if system:
        converted["system"] = system
    converted["messages"] = messages
    if body.get("tools") is not None:
        converted["tools"] = [
            {
                "name": tool["function"]["name"],
                **(
                    {"description": tool["function"]["description"]}
                    if "description" in tool["function"]
                    else {}
                ),
                "input_schema": tool["function"].get("parameters")
                or {"type": "object", "properties": {}},
                # Anthropic tools take strict too (structured outputs).
                **({"strict": tool["function"]["strict"]} if "strict" in tool["function"] else {}),
            }
            for tool in body["tools"]
        ]
    choice = tool_choice(body.get("tool_choice"), body.get("parallel_tool_calls"))
    if choice is not None:
        converted["tool_choice"] = choice
    for key in ("temperature", "top_p", "stream"):
        if key in body:
            converted[key] = body[key]
    stop = body.get("stop")
    if stop is not None:
        converted["stop_sequences"] = [stop] if isinstance(stop, str) else stop
    return converted


class ExampleConverter:
    """The toolwire adapter protocol, in-process."""

    name = NAME
    version = VERSION
    directions: ClassVar[list[tuple[str, ...]]] = [tuple(d) for d in DIRECTIONS]

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if [kind, source, target] not in DIRECTIONS:
            raise ConversionError(f"cannot convert {kind} {source} -> {target}")
        return convert_request(payload)


def main() -> None:
    """The cmd: protocol: a handshake, then one answer per line read."""
    handshake = {
        "type": "handshake",
        "protocol": 1,
        "name": NAME,
        "version": VERSION,
        "directions": DIRECTIONS,
    }
    print(json.dumps(handshake), flush=True)
    converter = ExampleConverter()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "shutdown":
            return
        try:
            payload = converter.convert(
                message["payload"], message["kind"], message["source"], message["target"]
            )
            answer = {"type": "result", "id": message["id"], "payload": payload}
        except (ConversionError, KeyError, TypeError, AttributeError) as error:
            answer = {
                "type": "error",
                "id": message["id"],
                "message": str(error),
                "error_type": type(error).__name__,
            }
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
