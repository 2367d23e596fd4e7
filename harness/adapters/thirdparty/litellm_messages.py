"""LiteLLM's Anthropic ``/v1/messages`` adapter, both ways, offline.

Pinned (extra ``litellm``): litellm 1.106.2 (see ``_litellm.py``); runs on
1.80 and later too, wherever the release keeps the adapter
(``_litellm_entry.py``).

When a client speaks Anthropic Messages to LiteLLM (``litellm.anthropic.messages``,
or the proxy's ``/v1/messages``, the path Claude Code takes) and the model
behind it speaks Chat Completions, LiteLLM converts with its adapter in
``litellm.llms.anthropic.pass_through.adapters`` (moved, see
``_litellm_entry.py``). OpenAI models take that
path when the documented switch ``litellm.use_chat_completions_url_for_anthropic_messages``
is on (otherwise LiteLLM goes to OpenAI's Responses API); every provider
without a native ``/v1/messages`` takes it always. The model a user names
here is ``openai/gpt-4.1-mini``, with ``drop_params=True`` (LiteLLM's
documented setting for mixing providers): without it, every request with
Anthropic ``thinking`` fails, since LiteLLM turns it into a
``reasoning_effort`` that this model does not take.

* request anthropic-messages -> openai-chat:
  ``LiteLLMMessagesToCompletionTransformationHandler._prepare_completion_kwargs``
  (internal: the conversion ``anthropic_messages_handler`` makes, through
  ``AnthropicAdapter.translate_completion_input_params_with_tool_mapping``),
  then ``litellm.utils.return_raw_request`` (public) for the body
  ``litellm.completion`` sends with those arguments. A request LiteLLM
  sends to OpenAI's Responses API instead (it does so when Anthropic
  ``thinking`` is on) is declined: it is not a Chat Completions body.
* response openai-chat -> anthropic-messages: the body as LiteLLM's
  ``ModelResponse`` (``convert_to_model_response_object``), then
  ``AnthropicAdapter.translate_completion_output_params`` (public class of
  an internal module), the dict LiteLLM returns to the client.
* stream openai-chat -> anthropic-messages: the chunks through
  ``CustomStreamWrapper``, then
  ``AnthropicAdapter.translate_completion_output_params_streaming(is_async=False)``,
  the event-stream bytes LiteLLM sends.

The tool-name mapping that the request leg returns (names over 64
characters are shortened) is not available to the response legs, which
see only the response: responses are converted without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._litellm import (
    completion_chunks,
    load_litellm,
    model_response,
    raw_request_to,
)
from toolwire.harness.adapters.thirdparty._litellm_entry import (
    adapters_module,
    async_only,
    completion_kwargs,
    routes_to_responses_api,
    sse_bytes,
)
from toolwire.harness.adapters.thirdparty._offline import load, plain_json
from toolwire.harness.adapters.thirdparty._replay import dump
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

MODEL = "openai/gpt-4.1-mini"
_LOCAL_MODEL = MODEL.partition("/")[2]


class LiteLLMAnthropicMessagesAdapter:
    """LiteLLM's ``/v1/messages`` adapter (see the module docstring)."""

    name = "litellm-anthropic-messages"

    def __init__(self) -> None:
        self.version = load_litellm(self.name)
        load("litellm").use_chat_completions_url_for_anthropic_messages = True

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", ANTHROPIC_MESSAGES, OPENAI_CHAT),
                ("response", OPENAI_CHAT, ANTHROPIC_MESSAGES),
                ("stream", OPENAI_CHAT, ANTHROPIC_MESSAGES),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if kind == "request":
            return self._request(payload)
        adapter = adapters_module("transformation").AnthropicAdapter()
        if kind == "response":
            converted = adapter.translate_completion_output_params(model_response(payload))
            return plain_json(_plain(converted))
        chunks = completion_chunks(payload, _LOCAL_MODEL, "openai", async_only(adapter))
        return sse_bytes(adapter, chunks, _LOCAL_MODEL).decode("utf-8")

    def _request(self, body: Mapping[str, Any]) -> Any:
        handler = adapters_module("handler").LiteLLMMessagesToCompletionTransformationHandler
        kwargs = completion_kwargs(handler, MODEL, body, {"drop_params": True})
        if routes_to_responses_api(kwargs):
            raise UnsupportedConversion(
                f"LiteLLM sends this request to OpenAI's Responses API ({kwargs['model']}), "
                "not Chat Completions"
            )
        url, body = raw_request_to(kwargs)
        if url.rstrip("/").endswith("/responses"):
            # LiteLLM sends requests with thinking to OpenAI's Responses API.
            raise UnsupportedConversion(
                f"LiteLLM sends this request to {url}, not Chat Completions"
            )
        return body


def _plain(value: Any) -> Any:
    """LiteLLM's response dict may hold pydantic objects (usage); dump them."""
    if hasattr(value, "model_dump"):
        return dump(value)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
