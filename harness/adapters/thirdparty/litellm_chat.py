"""LiteLLM's Anthropic chat transformation, offline: ``litellm.completion``
with an Anthropic model.

Pinned (extra ``litellm``): litellm 1.106.2 (see ``_litellm.py``).

A user calls ``litellm.completion(model="anthropic/claude-sonnet-4-5", ...)``
with OpenAI-format arguments; LiteLLM converts them with ``AnthropicConfig``
(``litellm.llms.anthropic.chat.transformation``) and converts the answer back.

* request openai-chat -> anthropic-messages: ``litellm.utils.return_raw_request``
  (public) with the source body as ``completion`` arguments and the model
  above: the body LiteLLM sends to ``/v1/messages`` after
  ``AnthropicConfig.map_openai_params`` and ``AnthropicConfig.transform_request``.
* response anthropic-messages -> openai-chat: ``AnthropicConfig.transform_response``
  (public method, internal module) on the body, the call LiteLLM's HTTP
  handler makes; the ``ModelResponse`` a user gets, as JSON.
* stream anthropic-messages -> openai-chat: the event stream through
  ``ModelResponseIterator`` (``litellm.llms.anthropic.chat.handler``, internal)
  and ``CustomStreamWrapper``, as ``litellm.completion(stream=True,
  stream_options={"include_usage": True})`` yields it; the chunks as the
  event stream LiteLLM's proxy sends (``[DONE]`` last), each written as its
  ``_serialize_streaming_chunk`` writes it (``exclude_none``, ``exclude_unset``):
  a field that is ``None``, ``finish_reason`` included, is absent.

A ``ModelResponse`` is written with the fields LiteLLM set (``exclude_unset``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._litellm import load_litellm, logging_object, raw_request
from toolwire.harness.adapters.thirdparty._offline import load
from toolwire.harness.adapters.thirdparty._replay import chunk_events, dump, event_stream
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_CHAT, PayloadKind

MODEL = "anthropic/claude-sonnet-4-5"
_LOCAL_MODEL = MODEL.partition("/")[2]
_URL = "https://api.anthropic.com/v1/messages"


class LiteLLMAnthropicChatAdapter:
    """LiteLLM's ``AnthropicConfig`` (see the module docstring)."""

    name = "litellm-anthropic-chat"

    def __init__(self) -> None:
        self.version = load_litellm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", OPENAI_CHAT, ANTHROPIC_MESSAGES),
                ("response", ANTHROPIC_MESSAGES, OPENAI_CHAT),
                ("stream", ANTHROPIC_MESSAGES, OPENAI_CHAT),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if kind == "request":
            return raw_request({**payload, "model": MODEL})
        if kind == "response":
            return dump(self._response(payload))
        return chunk_events(self._stream(payload), exclude_none=True)

    def _response(self, body: Mapping[str, Any]) -> Any:
        httpx = load("httpx")
        config = load("litellm.llms.anthropic.chat.transformation").AnthropicConfig()
        raw = httpx.Response(200, json=dict(body), request=httpx.Request("POST", _URL))
        return config.transform_response(
            model=_LOCAL_MODEL,
            raw_response=raw,
            model_response=load("litellm.types.utils").ModelResponse(),
            logging_obj=logging_object(_LOCAL_MODEL),
            request_data={},
            messages=[],
            optional_params={},
            litellm_params={},
            encoding=None,
        )

    def _stream(self, events: list[Mapping[str, Any]]) -> Iterator[Any]:
        handler = load("litellm.llms.anthropic.chat.handler")
        wrapper_class = load("litellm.litellm_core_utils.streaming_handler").CustomStreamWrapper
        # What httpx's iter_lines gives LiteLLM for the event stream.
        lines = event_stream(events).split("\n")
        iterator = handler.ModelResponseIterator(streaming_response=iter(lines), sync_stream=True)
        return iter(
            wrapper_class(
                completion_stream=iterator,
                model=_LOCAL_MODEL,
                logging_obj=logging_object(_LOCAL_MODEL, stream=True),
                custom_llm_provider="anthropic",
                stream_options={"include_usage": True},
            )
        )
