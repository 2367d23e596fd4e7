"""openai-agents as a Responses <-> Chat Completions converter, offline.

Pinned (extra ``openai-agents``): openai-agents 0.24.0 (with the openai SDK
it requires, which sends through ``httpx2``).

The Agents SDK speaks Responses items whatever the model API. Its
``OpenAIChatCompletionsModel`` (public) puts a Chat Completions model behind
that interface: the items become Chat Completions messages, and the Chat
Completions answer becomes Responses items, or Responses stream events. This
shim drives that model with its ``AsyncOpenAI`` client on an in-process
transport (``_replay.Replay``), so every conversion below is the SDK's own,
and no socket opens:

* request openai-responses -> openai-chat: ``get_response``
  (``stream_response`` when the source streams) with the source's ``input``
  items and ``instructions``; inside, ``Converter.items_to_messages``,
  ``Converter.tool_to_openai`` and ``Converter.convert_tool_choice``
  (``agents.models.chatcmpl_converter``) build the body the SDK sends, which
  is the result.
* response openai-chat -> openai-responses: ``get_response`` answered with
  the case's Chat Completion; ``Converter.message_to_output_items`` makes the
  output items of the ``ModelResponse`` it returns.
* stream openai-chat -> openai-responses: ``stream_response`` answered with
  the case's chunks; ``ChatCmplStreamHandler.handle_stream``
  (``agents.models.chatcmpl_stream_handler``) yields the Responses stream
  events, ``response.created`` to ``response.completed``, each written as the
  openai SDK's ``to_dict()`` writes it (the fields the SDK set) under its
  ``type`` as the event name.

toolwire's own legs, so a failure there is not the SDK's:

* request: the Responses body's settings become the ``ModelSettings`` the
  SDK's own Responses model reads them from (``temperature``, ``top_p``,
  penalties, ``parallel_tool_calls``, ``max_output_tokens`` as
  ``max_tokens``, ``reasoning``, ``text.verbosity``, ``store``, ``metadata``,
  ``top_logprobs``, ``include`` and ``truncation``); ``tool_choice``
  (``{"type": "function", "name": n}`` as ``n``); function tools become
  ``FunctionTool`` s with the source schema and ``strict``. Hosted tools
  (``web_search``...) and ``allowed_tools`` / hosted tool choices have no
  ``FunctionTool`` form: declined (the SDK's Chat Completions model rejects
  hosted tools itself). ``previous_response_id``, ``conversation`` and
  ``prompt`` are handed to the model as a Runner would; the SDK ignores them
  with a warning.
* response: ``ModelResponse`` is no Response object (the SDK has none for a
  Chat Completions answer). toolwire wraps its items as the SDK's stream
  path does for the same answer (``_fetch_response``, then ``handle_stream``):
  ``id`` the SDK's ``FAKE_RESPONSES_ID``, ``object: "response"``, the model
  name, ``status: "completed"`` (the SDK keeps no finish reason and says
  ``response.completed`` in its stream), ``created_at`` the source's
  ``created``, and ``usage`` from the SDK's ``Usage`` (input, output and total
  tokens and their details). The items are the SDK's, as it returns them.
* request for the response and stream legs: a one-message input, since the
  request a response answers is in the other dialect and the conversion does
  not read it.

A ``UserError`` the SDK raises on purpose (an input item or content type it
cannot carry to Chat Completions) is a decline, not a crash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._offline import (
    OFFLINE_API_KEY,
    load,
    plain_json,
    require,
    run_async,
)
from toolwire.harness.adapters.thirdparty._replay import (
    Replay,
    dump,
    event_stream,
    forbid_network,
    placeholder_answer,
)
from toolwire.harness.model import OPENAI_CHAT, OPENAI_RESPONSES, PayloadKind

EXTRA = "openai-agents"
_MODULES = ("agents", "openai", "httpx2")
_BASE_URL = "https://api.openai.com/v1"
_PROMPT = [{"role": "user", "content": "toolwire"}]

DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    {
        ("request", OPENAI_RESPONSES, OPENAI_CHAT),
        ("response", OPENAI_CHAT, OPENAI_RESPONSES),
        ("stream", OPENAI_CHAT, OPENAI_RESPONSES),
    }
)
# Responses body key -> ModelSettings field, where the value passes unchanged.
_SETTINGS = {
    "temperature": "temperature",
    "top_p": "top_p",
    "frequency_penalty": "frequency_penalty",
    "presence_penalty": "presence_penalty",
    "parallel_tool_calls": "parallel_tool_calls",
    "max_output_tokens": "max_tokens",
    "store": "store",
    "metadata": "metadata",
    "top_logprobs": "top_logprobs",
    "include": "response_include",
    "truncation": "truncation",
    "prompt_cache_retention": "prompt_cache_retention",
}


class OpenAIAgentsResponsesAdapter:
    """The Agents SDK's Chat Completions model, Responses side out (see the module docstring)."""

    name = "openai-agents-responses"

    def __init__(self) -> None:
        self.version = require(self.name, EXTRA, _MODULES, "openai-agents")
        forbid_network()

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in DIRECTIONS:
            raise UnsupportedConversion(
                f"the openai-agents-responses shim does not convert {kind} {source}->{target}"
            )
        try:
            if kind == "request":
                return _request(payload)
            if kind == "response":
                return _response(payload)
            return _stream(payload)
        except UnsupportedConversion:
            raise
        except load("agents.exceptions").UserError as error:
            raise UnsupportedConversion(f"openai-agents declined: {error}") from error


def _model(model_name: str, replay: Replay) -> Any:
    agents = load("agents")
    client = load("openai").AsyncOpenAI(
        api_key=OFFLINE_API_KEY,
        base_url=_BASE_URL,
        http_client=replay.async_client(),
        max_retries=0,
    )
    return agents.OpenAIChatCompletionsModel(model=model_name, openai_client=client)


def _arguments(
    instructions: Any, items: Any, settings: Any, tools: list[Any], **state: Any
) -> dict[str, Any]:
    agents = load("agents")
    return {
        "system_instructions": instructions,
        "input": items,
        "model_settings": settings,
        "tools": tools,
        "output_schema": None,
        "handoffs": [],
        "tracing": agents.ModelTracing.DISABLED,
        **state,
    }


def _request(body: Mapping[str, Any]) -> Any:
    stream = bool(body.get("stream"))
    replay = placeholder_answer("openai", stream, "httpx2")
    model = _model(str(body.get("model") or "gpt-4.1"), replay)
    items = body.get("input", [])
    arguments = _arguments(
        _instructions(body.get("instructions")),
        items if isinstance(items, str) else [dict(item) for item in items],
        settings_from(body),
        [_tool(tool) for tool in body.get("tools") or []],
        previous_response_id=body.get("previous_response_id"),
        conversation_id=_conversation_id(body.get("conversation")),
        prompt=body.get("prompt"),
    )

    async def send() -> None:
        if stream:
            async for _event in model.stream_response(**arguments):
                pass
        else:
            await model.get_response(**arguments)

    try:
        run_async(send)
    except load("agents.exceptions").UserError:
        raise
    except Exception:
        if not replay.bodies:
            raise
    return plain_json(replay.only_body())


def _response(completion: Mapping[str, Any]) -> Any:
    model_name = str(completion.get("model") or "gpt-4.1")
    model = _model(model_name, Replay(answer=dict(completion), httpx_module="httpx2"))
    settings = load("agents").ModelSettings()
    arguments = _arguments(None, list(_PROMPT), settings, [])
    result = run_async(lambda: model.get_response(**arguments))
    return wrap_response(
        [dump(item) for item in result.output],
        _usage(result.usage),
        model_name,
        completion.get("created"),
        load("agents.models.fake_id").FAKE_RESPONSES_ID,
    )


def _stream(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    model_name = _stream_model(events) or "gpt-4.1"
    model = _model(model_name, Replay(stream=event_stream(events), httpx_module="httpx2"))
    settings = load("agents").ModelSettings()
    arguments = _arguments(None, list(_PROMPT), settings, [])

    async def collect() -> list[Any]:
        return [event async for event in model.stream_response(**arguments)]

    return [{"event": event.type, "data": dump(event)} for event in run_async(collect)]


def wrap_response(
    output: list[Any], usage: Any, model: str, created: Any, response_id: str
) -> dict[str, Any]:
    """toolwire's Response object around the SDK's items (see the module docstring)."""
    body: dict[str, Any] = {
        "id": response_id,
        "object": "response",
        "created_at": created if isinstance(created, int | float) else 0,
        "status": "completed",
        "model": model,
        "output": output,
    }
    if usage is not None:
        body["usage"] = usage
    return body


def _usage(usage: Any) -> dict[str, Any] | None:
    if usage is None or not usage.requests:
        return None
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": dump(usage.input_tokens_details),
        "output_tokens": usage.output_tokens,
        "output_tokens_details": dump(usage.output_tokens_details),
        "total_tokens": usage.total_tokens,
    }


def _stream_model(events: list[dict[str, Any]]) -> str | None:
    for event in events:
        data = event.get("data")
        if isinstance(data, dict) and isinstance(data.get("model"), str):
            return str(data["model"])
    return None


def _instructions(instructions: Any) -> str | None:
    if instructions is None or isinstance(instructions, str):
        return instructions or None
    raise UnsupportedConversion(
        "instructions given as a list of items: OpenAIChatCompletionsModel takes a string"
    )


def _conversation_id(conversation: Any) -> Any:
    if isinstance(conversation, dict):
        return conversation.get("id")
    return conversation


def settings_from(body: Mapping[str, Any]) -> Any:
    """The ``ModelSettings`` a Responses request body stands for."""
    fields = settings_fields(body)
    if "reasoning" in fields:
        fields["reasoning"] = load("openai.types.shared").Reasoning(**fields["reasoning"])
    return load("agents").ModelSettings(**fields)


def settings_fields(body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``ModelSettings`` fields of a Responses request body (pure: no SDK import)."""
    fields: dict[str, Any] = {
        field: body[key] for key, field in _SETTINGS.items() if body.get(key) is not None
    }
    choice = body.get("tool_choice")
    if choice in ("auto", "none", "required"):
        fields["tool_choice"] = choice
    elif isinstance(choice, dict) and choice.get("type") == "function":
        fields["tool_choice"] = choice.get("name")
    elif choice is not None:
        raise UnsupportedConversion(
            f"tool_choice {choice!r} has no ModelSettings form for a Chat Completions model"
        )
    reasoning = body.get("reasoning")
    if isinstance(reasoning, dict) and any(v is not None for v in reasoning.values()):
        fields["reasoning"] = {k: v for k, v in reasoning.items() if v is not None}
    text = body.get("text")
    if isinstance(text, dict) and text.get("verbosity") is not None:
        fields["verbosity"] = text["verbosity"]
    if isinstance(text, dict) and text.get("format") not in (None, {"type": "text"}):
        raise UnsupportedConversion(
            "text.format: a structured output is an agent's output_type, not a request setting"
        )
    return fields


def _tool(tool: Mapping[str, Any]) -> Any:
    if tool.get("type") != "function":
        raise UnsupportedConversion(
            f"hosted tool {tool.get('type')!r}: "
            "OpenAIChatCompletionsModel sends function tools only"
        )
    agents = load("agents")

    async def never_called(_context: Any, _arguments: str) -> str:
        raise RuntimeError("toolwire never runs tools")

    return agents.FunctionTool(
        name=tool.get("name"),
        description=tool.get("description") or "",
        params_json_schema=tool.get("parameters") or {},
        on_invoke_tool=never_called,
        strict_json_schema=bool(tool.get("strict")),
    )
