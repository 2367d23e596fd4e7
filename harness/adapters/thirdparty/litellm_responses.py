"""LiteLLM's Responses API bridge, offline: ``litellm.responses`` with a model
whose provider has no Responses API of its own.

Pinned (extra ``litellm``): litellm 1.106.2 (see ``_litellm.py``).

A user calls ``litellm.responses(model=..., input=..., tools=...)`` (or the
proxy's ``/v1/responses``); for a provider without a Responses API config
("custom_openai/, openai_like/, baseten/ and most other OpenAI-compatible
providers", https://docs.litellm.ai/docs/response_api_native_passthrough)
LiteLLM bridges through Chat Completions with
``LiteLLMCompletionTransformationHandler.response_api_handler``
(``litellm.responses.litellm_completion_transformation``). The model a user
names here is ``custom_openai/<the case's model>``: an OpenAI-compatible
server, so the body is judged as openai-chat with nothing provider-specific
added, with ``drop_params=True`` (LiteLLM's documented setting for mixing
providers): without it every request with ``reasoning`` fails, since
``custom_openai`` takes no ``reasoning_effort``.

* request openai-responses -> openai-chat: ``litellm.utils.return_raw_request``
  (public) with ``CallTypes.responses`` and the source body as
  ``litellm.responses`` arguments: LiteLLM runs ``responses`` (its argument
  handling, the bridge decision), the bridge's
  ``LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request``,
  then ``litellm.completion``'s own request path, which stops just before the
  HTTP call; the body is what LiteLLM would send to ``/chat/completions``.
  A request LiteLLM refuses (``BadRequestError``, ``UnsupportedParamsError``:
  a ``tool_choice`` it cannot map) is declined. This is the synchronous SDK
  path: a request naming ``previous_response_id`` is sent without the
  earlier turns there (only ``aresponses``, with the
  proxy's database, loads them), and the shim declines it rather than judge
  a path that needs a database.
* response openai-chat -> openai-responses: the body as LiteLLM's
  ``ModelResponse`` (``convert_to_model_response_object``, what
  ``litellm.completion`` returns for an OpenAI-compatible provider), then
  ``LiteLLMCompletionResponsesConfig.transform_chat_completion_response_to_responses_api_response``
  (what ``response_api_handler`` calls), written with the fields LiteLLM set.
* stream openai-chat -> openai-responses: the chunks through
  ``CustomStreamWrapper`` (usage asked for, as the bridge asks for it), then
  ``LiteLLMCompletionStreamingIterator`` (what ``response_api_handler``
  returns for ``stream=True``), iterated synchronously; each event written
  as LiteLLM's proxy writes it (``_serialize_streaming_chunk``:
  ``exclude_none``, ``exclude_unset``, a ``data:`` line without an event name).

toolwire's own leg: none of the conversion. The response and stream legs
need the Responses request that the chat answer answers (LiteLLM echoes
``instructions``, ``tools`` and the like from it into the Response); the
case gives the Chat Completions request instead, so they get an empty one
(``{}``, and ``{"stream": True}`` for streams): echoed request fields are
absent, which no toolwire rule judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._litellm import (
    completion_chunks,
    first_data,
    load_litellm,
    model_response,
    refused,
)
from toolwire.harness.adapters.thirdparty._offline import load, plain_json
from toolwire.harness.adapters.thirdparty._replay import dump
from toolwire.harness.model import OPENAI_CHAT, OPENAI_RESPONSES, PayloadKind

PROVIDER = "custom_openai"
# Where an OpenAI-compatible server would listen; no request is sent.
API_BASE = "https://openai-compatible.invalid/v1"
DEFAULT_MODEL = "gpt-4.1-mini"
# Server-side conversation state the synchronous bridge cannot load.
_SERVER_STATE = ("previous_response_id", "conversation")


class LiteLLMResponsesAdapter:
    """LiteLLM's Responses -> Chat Completions bridge (see the module docstring)."""

    name = "litellm-responses"

    def __init__(self) -> None:
        self.version = load_litellm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", OPENAI_RESPONSES, OPENAI_CHAT),
                ("response", OPENAI_CHAT, OPENAI_RESPONSES),
                ("stream", OPENAI_CHAT, OPENAI_RESPONSES),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in self.directions:
            raise UnsupportedConversion(f"LiteLLM's Responses bridge: no {kind} {source}->{target}")
        if kind == "request":
            return self._request(payload)
        config = _config()
        if kind == "response":
            converted = config.transform_chat_completion_response_to_responses_api_response(
                request_input=[],
                responses_api_request={},
                chat_completion_response=model_response(payload),
            )
            return dump(converted)
        return self._stream(payload)

    def _request(self, body: Mapping[str, Any]) -> Any:
        held = [key for key in _SERVER_STATE if body.get(key)]
        if held:
            raise UnsupportedConversion(
                f"the request refers to state on OpenAI's server ({', '.join(held)}); "
                "LiteLLM's synchronous bridge does not load it"
            )
        utils = load("litellm.utils")
        call_types = load("litellm.types.utils").CallTypes
        model = body.get("model") or DEFAULT_MODEL
        arguments = {
            **body,
            "model": f"{PROVIDER}/{model}",
            "api_base": API_BASE,
            "drop_params": True,
        }
        captured = utils.return_raw_request(call_types.responses, arguments)
        sent = captured.get("raw_request_body")
        if sent is None:
            reason = str(captured.get("error") or "no reason given")
            if refused(reason):
                raise UnsupportedConversion(f"LiteLLM refuses the request: {reason}")
            raise RuntimeError(f"litellm built no request: {reason}")
        url = str(captured.get("raw_request_api_base") or "")
        if url.rstrip("/").endswith("/responses"):
            raise UnsupportedConversion(f"LiteLLM sent this request to {url}, not Chat Completions")
        return plain_json(sent)

    def _stream(self, events: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
        model = str(first_data(events).get("model") or DEFAULT_MODEL)
        iterator_class = load(
            "litellm.responses.litellm_completion_transformation.streaming_iterator"
        ).LiteLLMCompletionStreamingIterator
        iterator = iterator_class(
            model=model,
            litellm_custom_stream_wrapper=completion_chunks(events, model, PROVIDER),
            request_input=[],
            responses_api_request={"stream": True},
            custom_llm_provider=PROVIDER,
        )
        return [{"event": None, "data": dump(event, exclude_none=True)} for event in iterator]


def _config() -> Any:
    return load(
        "litellm.responses.litellm_completion_transformation.transformation"
    ).LiteLLMCompletionResponsesConfig
