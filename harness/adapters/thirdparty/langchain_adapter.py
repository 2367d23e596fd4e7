"""LangChain as a converter: langchain-core messages between langchain-openai and
langchain-anthropic, offline.

Pinned (extra ``langchain``): langchain-core 1.7.2, langchain-anthropic 1.7.7,
langchain-openai 1.7.3. ``version`` reports the installed langchain-core.

LangChain has no wire-to-wire converter; its conversions go through its own
message objects. What this shim calls, per direction:

* request openai-chat -> anthropic-messages: ``ChatAnthropic.bind_tools``
  then ``invoke`` (or ``stream`` when the source streams) on the OpenAI
  message dicts (public: langchain-core's ``convert_to_messages`` reads them).
  The body is what the Anthropic SDK client sends: ChatAnthropic's cached
  ``_client`` (internal) is built from its own ``_client_params`` with an
  in-process transport that records the body (``_offline.RequestCapture``).
* request anthropic-messages -> openai-chat: the messages (the top-level
  ``system`` first, as a system message) through
  ``langchain_core.messages.convert_to_openai_messages`` (public: it reads
  Anthropic content blocks), then ``ChatOpenAI.bind_tools`` and ``invoke`` /
  ``stream`` (public), with the recording transport as its public
  ``http_client``.
* response anthropic-messages -> openai-chat: ``ChatAnthropic._format_output``
  (internal: Anthropic message -> ``AIMessage``), then
  ``convert_to_openai_messages(..., text_format="string")`` (public).
* response openai-chat -> anthropic-messages: ``ChatOpenAI._create_chat_result``
  (internal: completion -> ``AIMessage``), then
  ``langchain_anthropic.chat_models._format_messages`` (internal).

toolwire's own legs, so a failure there is not LangChain's: mapping the
request's ``tool_choice`` to LangChain's ``bind_tools`` vocabulary (a tool
name, ``"auto"``, ``"any"``, ``"none"``, or Anthropic's ``{"type": "none"}``
for ChatAnthropic, whose ``bind_tools`` has no ``"none"``), and, for
responses, the envelope around the converted message: LangChain keeps the
provider's raw stop reason in ``response_metadata`` and renders no response
body, so ``_envelopes`` maps stop reasons with toolwire's table and copies
``usage_metadata`` (LangChain's own token totals).
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty import _envelopes
from toolwire.harness.adapters.thirdparty._offline import (
    OFFLINE_API_KEY,
    RequestCapture,
    load,
    plain_json,
    require,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

EXTRA = "langchain"
_MODULES = ("langchain_core", "langchain_openai", "langchain_anthropic", "anthropic")

DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    (kind, source, target)
    for kind in ("request", "response")
    for source, target in ((OPENAI_CHAT, ANTHROPIC_MESSAGES), (ANTHROPIC_MESSAGES, OPENAI_CHAT))
)

# ChatAnthropic needs some model name; it only lands in the body's "model".
_FALLBACK_MODEL = "claude-sonnet-4-5"


class LangChainAdapter:
    """Drives LangChain's message conversion (see the module docstring)."""

    name = "langchain"

    def __init__(self) -> None:
        self.version = require(self.name, EXTRA, _MODULES, "langchain-core")

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in DIRECTIONS:
            raise UnsupportedConversion(f"the langchain shim does not convert {kind} {source}")
        if kind == "request":
            if source == OPENAI_CHAT:
                return _openai_request_to_anthropic(payload)
            return _anthropic_request_to_openai(payload)
        if source == OPENAI_CHAT:
            return _openai_response_to_anthropic(payload)
        return _anthropic_response_to_openai(payload)


# --- requests ------------------------------------------------------------------
# A request is what LangChain puts on the wire for ``invoke`` (or ``stream``,
# when the source request streams): the chat model's SDK client sends through
# ``RequestCapture``, which records the body and answers 400.


def _send(runnable: Any, messages: list[Any], body: dict[str, Any], stop: Any) -> Any:
    if body.get("stream"):
        return list(runnable.stream(messages, stop=stop))
    return runnable.invoke(messages, stop=stop)


def _openai_request_to_anthropic(body: dict[str, Any]) -> Any:
    anthropic = load("anthropic")
    settings: dict[str, Any] = {"model": body.get("model") or _FALLBACK_MODEL}
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    if max_tokens is not None:
        settings["max_tokens"] = max_tokens
    for key in ("temperature", "top_p"):
        if body.get(key) is not None:
            settings[key] = body[key]
    model = load("langchain_anthropic").ChatAnthropic(
        api_key=OFFLINE_API_KEY, max_retries=0, **settings
    )
    capture = RequestCapture()
    # ChatAnthropic has no http_client option: its cached `_client` is built
    # from its own `_client_params`, with the capturing transport.
    model.__dict__["_client"] = anthropic.Client(
        **model._client_params, http_client=capture.sync_client()
    )
    runnable = model
    if body.get("tools"):
        runnable = model.bind_tools(
            body["tools"],
            tool_choice=_anthropic_tool_choice(body.get("tool_choice")),
            parallel_tool_calls=body.get("parallel_tool_calls"),
        )
    stop = body.get("stop")
    stop_list = [stop] if isinstance(stop, str) else stop
    return capture.body(lambda: _send(runnable, body.get("messages", []), body, stop_list))


def _anthropic_tool_choice(choice: Any) -> Any:
    """OpenAI's tool_choice in ChatAnthropic.bind_tools' vocabulary (toolwire's leg)."""
    if choice is None or choice == "auto":
        return choice
    if choice == "required":
        return "any"
    if choice == "none":
        return {"type": "none"}  # bind_tools copies dicts as they are
    if isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        return choice["function"].get("name")
    raise UnsupportedConversion(f"tool_choice {choice!r} has no ChatAnthropic.bind_tools form")


def _anthropic_request_to_openai(body: dict[str, Any]) -> Any:
    core = load("langchain_core.messages")
    dicts: list[Any] = []
    if body.get("system"):
        dicts.append({"role": "system", "content": body["system"]})
    dicts.extend(body.get("messages", []))
    openai_messages = core.convert_to_openai_messages(dicts)
    settings: dict[str, Any] = {"model": body.get("model")}
    if body.get("max_tokens") is not None:
        settings["max_tokens"] = body["max_tokens"]
    for key in ("temperature", "top_p"):
        if body.get(key) is not None:
            settings[key] = body[key]
    capture = RequestCapture()
    model = load("langchain_openai").ChatOpenAI(
        api_key=OFFLINE_API_KEY, max_retries=0, http_client=capture.sync_client(), **settings
    )
    runnable = model
    choice = body.get("tool_choice") or {}
    if body.get("tools"):
        parallel = choice.get("disable_parallel_tool_use")
        runnable = model.bind_tools(
            body["tools"],
            tool_choice=_openai_tool_choice(choice),
            parallel_tool_calls=None if parallel is None else not parallel,
        )
    stop = body.get("stop_sequences")
    return capture.body(lambda: _send(runnable, openai_messages, body, stop))


def _openai_tool_choice(choice: dict[str, Any]) -> Any:
    """Anthropic's tool_choice in ChatOpenAI.bind_tools' vocabulary (toolwire's leg)."""
    kind = choice.get("type")
    if kind in (None, "auto", "any", "none"):
        return kind
    if kind == "tool":
        return choice.get("name")
    raise UnsupportedConversion(f"tool_choice {choice!r} has no ChatOpenAI.bind_tools form")


# --- responses -----------------------------------------------------------------


def _anthropic_response_to_openai(body: dict[str, Any]) -> Any:
    anthropic = load("anthropic")
    core = load("langchain_core.messages")
    model = load("langchain_anthropic").ChatAnthropic(
        model=body.get("model") or _FALLBACK_MODEL, api_key=OFFLINE_API_KEY
    )
    result = model._format_output(anthropic.types.Message.model_validate(body))
    message = result.generations[0].message
    converted = core.convert_to_openai_messages(message, text_format="string")
    return plain_json(
        _envelopes.openai_completion(
            body, converted, body.get("stop_reason"), message.usage_metadata
        )
    )


def _openai_response_to_anthropic(body: dict[str, Any]) -> Any:
    chat_openai = load("langchain_openai").ChatOpenAI
    anthropic_models = load("langchain_anthropic.chat_models")
    model = chat_openai(model=body.get("model") or "gpt-4o", api_key=OFFLINE_API_KEY)
    result = model._create_chat_result(body)
    generation = result.generations[0]
    _system, formatted = anthropic_models._format_messages(
        [generation.message], model=body.get("model")
    )
    finish = (generation.generation_info or {}).get("finish_reason")
    return plain_json(
        _envelopes.anthropic_message(body, formatted, finish, generation.message.usage_metadata)
    )
