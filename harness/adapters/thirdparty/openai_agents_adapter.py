"""openai-agents as a converter: a conversation replayed through its Responses-item
history into the next Chat Completions request, offline.

Pinned (extra ``openai-agents``): openai-agents 0.24.0 (with the openai SDK
it requires).

The Agents SDK keeps history as Responses-API items, whatever the model
API: a Chat Completions answer becomes items
(``agents.models.chatcmpl_converter.Converter.message_to_output_items``,
public class, the call ``OpenAIChatCompletionsModel`` makes on every answer),
and the next request is built from the items
(``Converter.items_to_messages`` inside
``OpenAIChatCompletionsModel.get_response`` / ``stream_response``, public).
toolwire checks that loop as a same-dialect transformation:

* request openai-chat -> openai-chat and deepseek-chat -> deepseek-chat:
  the source request's history is turned into items, then
  ``get_response`` (``stream_response`` when the source streams) of an
  ``OpenAIChatCompletionsModel`` builds the next request. Its ``AsyncOpenAI``
  client sends through an in-process transport that records the body and
  answers 400 (``_offline.RequestCapture``), so the result is exactly what the
  SDK puts on the wire. For deepseek-chat the client's base URL is DeepSeek's,
  which the SDK's reasoning-replay hook looks at.

toolwire's own leg, so a failure there is not the SDK's: user, system and
developer messages become input messages (text parts as ``input_text``);
tool messages become ``function_call_output`` items (the SDK's runner writes
these itself); tools become ``FunctionTool`` s with the source schema
(``strict_json_schema`` as the source's ``strict``; a tool without
``parameters`` gets ``{}``, which ``FunctionTool`` requires); ``tool_choice``,
``parallel_tool_calls``, ``max_tokens``, sampling and ``reasoning_effort``
become ``ModelSettings``; DeepSeek's ``thinking`` switch goes in
``extra_body``, as DeepSeek documents for the OpenAI SDK.

Not covered: the SDK's LiteLLM bridge (``agents.extensions.models``) hands
these same messages to LiteLLM, whose conversion the ``litellm`` adapter
judges.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._offline import (
    OFFLINE_API_KEY,
    RequestCapture,
    capture_request_body,
    load,
    require,
)
from toolwire.harness.model import DEEPSEEK_CHAT, OPENAI_CHAT, PayloadKind

EXTRA = "openai-agents"
_MODULES = ("agents", "openai", "httpx2")

DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    {("request", OPENAI_CHAT, OPENAI_CHAT), ("request", DEEPSEEK_CHAT, DEEPSEEK_CHAT)}
)
_BASE_URLS = {OPENAI_CHAT: "https://api.openai.com/v1", DEEPSEEK_CHAT: "https://api.deepseek.com"}


class OpenAIAgentsAdapter:
    """Drives the Agents SDK's Chat Completions model (see the module docstring)."""

    name = "openai-agents"

    def __init__(self) -> None:
        self.version = require(self.name, EXTRA, _MODULES, "openai-agents")

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in DIRECTIONS:
            raise UnsupportedConversion(f"the openai-agents shim does not convert {kind} {source}")
        agents = load("agents")
        capture = RequestCapture()
        client = load("openai").AsyncOpenAI(
            api_key=OFFLINE_API_KEY,
            base_url=_BASE_URLS[source],
            http_client=capture.client(),
            max_retries=0,
        )
        model_name = payload.get("model") or "gpt-4.1"
        model = agents.OpenAIChatCompletionsModel(model=model_name, openai_client=client)
        arguments: tuple[Any, ...] = (
            None,
            _items(payload.get("messages", []), model_name),
            _settings(payload),
            [_tool(tool) for tool in payload.get("tools") or []],
            None,
            [],
            agents.ModelTracing.DISABLED,
        )
        if payload.get("stream"):
            return capture_request_body(capture, lambda: _drain(model.stream_response(*arguments)))
        return capture_request_body(capture, lambda: model.get_response(*arguments))


async def _drain(events: Any) -> None:
    async for _event in events:
        pass


def _items(messages: list[dict[str, Any]], model_name: str) -> list[Any]:
    """The Responses-item history of Chat Completions ``messages``."""
    converter = load("agents.models.chatcmpl_converter").Converter
    message_type = load("openai.types.chat").ChatCompletionMessage
    items: list[Any] = []
    for position, message in enumerate(messages):
        role = message.get("role")
        if role in ("system", "developer", "user"):
            content = _input_content(message.get("content"), position)
            items.append({"role": role, "content": content})
        elif role == "tool":
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": message.get("tool_call_id"),
                    "output": _input_content(message.get("content"), position),
                }
            )
        elif role == "assistant":
            parsed = message_type.model_validate(message)
            for item in converter.message_to_output_items(
                parsed, provider_data={"model": model_name}
            ):
                items.append(item.model_dump(exclude_unset=True))
        else:
            raise ValueError(f"messages[{position}]: toolwire cannot read role {role!r}")
    return items


def _input_content(content: Any, position: int) -> Any:
    if content is None or isinstance(content, str):
        return content or ""
    parts = []
    for part in content:
        if not isinstance(part, dict) or part.get("type") != "text":
            raise ValueError(f"messages[{position}]: toolwire's glue reads text parts only")
        parts.append({"type": "input_text", "text": part.get("text", "")})
    return parts


def _settings(body: dict[str, Any]) -> Any:
    agents = load("agents")
    fields: dict[str, Any] = {}
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    if max_tokens is not None:
        fields["max_tokens"] = max_tokens
    for key in ("temperature", "top_p", "parallel_tool_calls"):
        if body.get(key) is not None:
            fields[key] = body[key]
    choice = body.get("tool_choice")
    if choice in ("auto", "none", "required"):
        fields["tool_choice"] = choice
    elif isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        fields["tool_choice"] = choice["function"].get("name")
    if isinstance(body.get("reasoning_effort"), str):
        fields["reasoning"] = load("openai.types.shared").Reasoning(effort=body["reasoning_effort"])
    if body.get("thinking") is not None:
        fields["extra_body"] = {"thinking": body["thinking"]}
    return agents.ModelSettings(**fields)


def _tool(tool: dict[str, Any]) -> Any:
    agents = load("agents")
    function = tool.get("function", {})

    async def never_called(_context: Any, _arguments: str) -> str:
        raise RuntimeError("toolwire never runs tools")

    return agents.FunctionTool(
        name=function.get("name"),
        description=function.get("description") or "",
        params_json_schema=function.get("parameters") or {},
        on_invoke_tool=never_called,
        strict_json_schema=bool(function.get("strict")),
    )
