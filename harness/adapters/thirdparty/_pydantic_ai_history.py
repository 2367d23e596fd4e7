"""toolwire's leg of the pydantic-ai shim: a request body read into pydantic-ai terms.

pydantic-ai reads provider *responses* (``_process_response``), not request
histories, so this module does the minimum around that parser: assistant
turns go through pydantic-ai's own response parser of the source dialect;
everything else becomes the plain parts a pydantic-ai application would have
in its history. A failure caused here is toolwire's, not pydantic-ai's:

* system and developer messages, Anthropic ``system``: ``SystemPromptPart``;
* user text: ``UserPromptPart`` (other user content is refused with a
  ``ValueError`` naming it, rather than guessed);
* tool results: ``ToolReturnPart`` with the tool name of the call it answers
  and ``outcome="failed"`` for Anthropic ``is_error: true`` or an openai-chat
  tool message starting ``Error:`` (docs/conventions.md);
* the request's tools, tool choice and settings: ``ToolDefinition`` s in
  ``ModelRequestParameters`` and ``ModelSettings`` keys.
"""

from __future__ import annotations

import re
from typing import Any

from toolwire.harness.adapters.thirdparty._offline import load
from toolwire.harness.model import ANTHROPIC_MESSAGES

_ERROR_MARKER = re.compile(r"^\s*error:", re.IGNORECASE)


def messages_from(body: dict[str, Any], dialect: str, reader: Any) -> list[Any]:
    """The ``ModelMessage`` history of ``body``; ``reader`` is a pydantic-ai model of
    the source dialect whose ``_process_response`` reads the assistant turns."""
    if dialect == ANTHROPIC_MESSAGES:
        return _AnthropicHistory(body, reader).messages()
    return _OpenAIHistory(body, reader).messages()


class _History:
    def __init__(self, body: dict[str, Any], reader: Any) -> None:
        self.body = body
        self.reader = reader
        self.parts_module = load("pydantic_ai.messages")
        self.result: list[Any] = []
        self.pending: list[Any] = []
        self.call_names: dict[str, str] = {}

    def flush(self) -> None:
        if self.pending:
            self.result.append(self.parts_module.ModelRequest(parts=self.pending))
            self.pending = []

    def add_response(self, response: Any) -> None:
        self.flush()
        for part in response.parts:
            if getattr(part, "part_kind", None) == "tool-call":
                self.call_names[part.tool_call_id] = part.tool_name
        self.result.append(response)

    def tool_return(self, call_id: str, content: Any, failed: bool) -> Any:
        return self.parts_module.ToolReturnPart(
            tool_name=self.call_names.get(call_id, ""),
            content=content,
            tool_call_id=call_id,
            outcome="failed" if failed else "success",
        )


class _OpenAIHistory(_History):
    def messages(self) -> list[Any]:
        parts = self.parts_module
        for position, message in enumerate(self.body.get("messages", [])):
            role = message.get("role")
            content = message.get("content")
            if role in ("system", "developer"):
                self.pending.append(parts.SystemPromptPart(_text(content, position)))
            elif role == "user":
                self.pending.append(parts.UserPromptPart(_text(content, position)))
            elif role == "tool":
                text = _text(content, position)
                self.pending.append(
                    self.tool_return(
                        message.get("tool_call_id", ""), text, bool(_ERROR_MARKER.match(text))
                    )
                )
            elif role == "assistant":
                self.add_response(self._parse_assistant(message))
            else:
                raise ValueError(f"messages[{position}]: toolwire cannot read role {role!r}")
        self.flush()
        return self.result

    def _parse_assistant(self, message: dict[str, Any]) -> Any:
        chat = load("openai.types.chat")
        completion = chat.ChatCompletion.model_validate(
            {
                "id": "chatcmpl-toolwire-history",
                "object": "chat.completion",
                "created": 0,
                "model": self.body.get("model") or "unknown",
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                    }
                ],
            }
        )
        return self.reader._process_response(completion)


class _AnthropicHistory(_History):
    def messages(self) -> list[Any]:
        parts = self.parts_module
        system = self.body.get("system")
        for text in [system] if isinstance(system, str) else (system or []):
            value = text if isinstance(text, str) else text.get("text", "")
            self.pending.append(parts.SystemPromptPart(value))
        for position, message in enumerate(self.body.get("messages", [])):
            content = message.get("content")
            if message.get("role") == "assistant":
                if isinstance(content, str):
                    content = [{"type": "text", "text": content}]
                blocks = content
                self.add_response(self._parse_assistant(blocks))
                continue
            if isinstance(content, str):
                self.pending.append(parts.UserPromptPart(content))
                continue
            for index, block in enumerate(content or []):
                kind = block.get("type")
                if kind == "text":
                    self.pending.append(parts.UserPromptPart(block.get("text", "")))
                elif kind == "tool_result":
                    self.pending.append(
                        self.tool_return(
                            block.get("tool_use_id", ""),
                            _result_content(block.get("content")),
                            block.get("is_error") is True,
                        )
                    )
                else:
                    raise ValueError(
                        f"messages[{position}].content[{index}]: toolwire's pydantic-ai "
                        f"glue does not read {kind!r} blocks"
                    )
        self.flush()
        return self.result

    def _parse_assistant(self, blocks: list[Any]) -> Any:
        beta = load("anthropic.types.beta")
        has_call = any(block.get("type") == "tool_use" for block in blocks)
        message = beta.BetaMessage.model_validate(
            {
                "id": "msg_toolwire_history",
                "type": "message",
                "role": "assistant",
                "model": self.body.get("model") or "unknown",
                "content": blocks,
                "stop_reason": "tool_use" if has_call else "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": 0, "output_tokens": 0},
            }
        )
        models = load("pydantic_ai.models")
        return self.reader._process_response(message, models.ModelRequestParameters(), {})


def _text(content: Any, position: int) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    texts = []
    for part in content:
        if not isinstance(part, dict) or part.get("type") != "text":
            kind = part.get("type") if isinstance(part, dict) else type(part).__name__
            raise ValueError(
                f"messages[{position}]: toolwire's pydantic-ai glue reads text parts only, "
                f"not {kind!r}"
            )
        texts.append(part.get("text", ""))
    return "".join(texts)


def _result_content(content: Any) -> Any:
    if content is None or isinstance(content, str):
        return content or ""
    texts = [block.get("text", "") for block in content if block.get("type") == "text"]
    if len(texts) != len(content):
        raise ValueError("toolwire's pydantic-ai glue reads text tool results only")
    return texts[0] if len(texts) == 1 else texts


# --- settings and tools --------------------------------------------------------


def settings_from(body: dict[str, Any], dialect: str) -> dict[str, Any]:
    """``ModelSettings`` for what the source request asks."""
    settings: dict[str, Any] = {}
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    if max_tokens is not None:
        settings["max_tokens"] = max_tokens
    for key in ("temperature", "top_p", "top_k"):
        if body.get(key) is not None:
            settings[key] = body[key]
    stop = body.get("stop_sequences", body.get("stop"))
    if stop:
        settings["stop_sequences"] = [stop] if isinstance(stop, str) else list(stop)
    if dialect == ANTHROPIC_MESSAGES:
        _anthropic_choice(body.get("tool_choice"), settings)
    else:
        _openai_choice(body.get("tool_choice"), settings)
        if body.get("parallel_tool_calls") is not None:
            settings["parallel_tool_calls"] = body["parallel_tool_calls"]
    thinking = _thinking(body)
    if thinking is not None:
        settings["thinking"] = thinking
    return settings


def _openai_choice(choice: Any, settings: dict[str, Any]) -> None:
    if choice in ("auto", "none", "required"):
        settings["tool_choice"] = choice
    elif isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        settings["tool_choice"] = [choice["function"].get("name")]


def _anthropic_choice(choice: Any, settings: dict[str, Any]) -> None:
    if not isinstance(choice, dict):
        return
    kind = choice.get("type")
    mapped = {"auto": "auto", "any": "required", "none": "none"}.get(str(kind))
    if mapped:
        settings["tool_choice"] = mapped
    elif kind == "tool":
        settings["tool_choice"] = [choice.get("name")]
    if choice.get("disable_parallel_tool_use") is not None:
        settings["parallel_tool_calls"] = not choice["disable_parallel_tool_use"]


def _thinking(body: dict[str, Any]) -> Any:
    effort = body.get("reasoning_effort")
    if isinstance(effort, str):
        return effort
    thinking = body.get("thinking")
    if isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive"):
        return True
    if isinstance(thinking, dict) and thinking.get("type") == "disabled":
        return False
    return None


def parameters_from(body: dict[str, Any], dialect: str) -> Any:
    """``ModelRequestParameters`` with the request's function tools."""
    tools_module = load("pydantic_ai.tools")
    definitions = []
    for tool in body.get("tools") or []:
        if dialect == ANTHROPIC_MESSAGES:
            name, description = tool.get("name"), tool.get("description")
            schema = tool.get("input_schema")
            strict = tool.get("strict")
        else:
            function = tool.get("function", {})
            name, description = function.get("name"), function.get("description")
            schema = function.get("parameters")
            strict = function.get("strict")
        fields: dict[str, Any] = {"name": name, "description": description}
        if schema is not None:
            fields["parameters_json_schema"] = schema
        if strict is not None:
            fields["strict"] = strict
        definitions.append(tools_module.ToolDefinition(**fields))
    models = load("pydantic_ai.models")
    return models.ModelRequestParameters(function_tools=definitions, allow_text_output=True)
