"""LiteLLM's Gemini (Google AI Studio) transformation, offline:
``litellm.completion`` with a ``gemini/`` model.

Pinned (extra ``litellm``): litellm 1.106.2 (see ``_litellm.py``).

A user calls ``litellm.completion(model="gemini/gemini-2.5-flash", ...)`` with
OpenAI-format arguments; LiteLLM sends a ``generateContent`` request built by
``VertexGeminiConfig`` / ``GoogleAIStudioGeminiConfig``
(``litellm.llms.vertex_ai.gemini``, ``litellm.llms.gemini.chat``) and converts
the answer back.

* request openai-chat -> gemini: ``litellm.utils.return_raw_request`` (public)
  with the source body as ``completion`` arguments and a ``gemini/`` model:
  LiteLLM runs its whole request path (``GoogleAIStudioGeminiConfig.map_openai_params``,
  ``sync_transform_request_body``) and stops just before the HTTP call; the
  body is the one ``VertexLLM.completion`` posts to
  ``models/<model>:generateContent`` (the same body for
  ``:streamGenerateContent``). The model is the case's when it is a Gemini
  model, else ``gemini-2.5-flash``. A request LiteLLM refuses
  (``UnsupportedParamsError``: ``parallel_tool_calls=False`` with several
  tools) is declined.
* response gemini -> openai-chat: ``VertexGeminiConfig.transform_response``
  (public method, internal module) on the body, the call
  ``VertexLLM.completion`` makes; the ``ModelResponse`` a user gets, as JSON
  with the fields LiteLLM set (``exclude_unset``).
* stream gemini -> openai-chat: the event stream's lines through
  ``ModelResponseIterator`` (``litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini``,
  internal: what ``make_sync_call`` builds on ``response.iter_lines()``) and
  ``CustomStreamWrapper`` with ``custom_llm_provider="vertex_ai_beta"``, as
  ``VertexLLM.completion(stream=True)`` wraps it, usage asked for
  (``stream_options={"include_usage": True}``); the chunks as the event
  stream LiteLLM's proxy sends (``exclude_none``, ``exclude_unset``, ``[DONE]``
  last).

toolwire's own leg: none of the conversion; the shim only writes the case's
stream back as the event-stream lines Gemini sends (``data: {...}`` and a
blank line each).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._litellm import (
    first_data,
    load_litellm,
    logging_object,
    raw_request,
    refused,
)
from toolwire.harness.adapters.thirdparty._offline import load, plain_json
from toolwire.harness.adapters.thirdparty._replay import chunk_events, dump, event_stream
from toolwire.harness.model import GEMINI, OPENAI_CHAT, PayloadKind

DEFAULT_MODEL = "gemini-2.5-flash"
_URL = "https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent"


class LiteLLMGeminiAdapter:
    """LiteLLM's ``gemini/`` provider (see the module docstring)."""

    name = "litellm-gemini"

    def __init__(self) -> None:
        self.version = load_litellm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", OPENAI_CHAT, GEMINI),
                ("response", GEMINI, OPENAI_CHAT),
                ("stream", GEMINI, OPENAI_CHAT),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in self.directions:
            raise UnsupportedConversion(f"LiteLLM's gemini/ provider: no {kind} {source}->{target}")
        if kind == "request":
            model = _gemini_model(payload.get("model"))
            try:
                return plain_json(raw_request({**payload, "model": f"gemini/{model}"}))
            except RuntimeError as error:
                reason = str(error).removeprefix("litellm built no request: ")
                if refused(reason):
                    raise UnsupportedConversion(f"LiteLLM refuses the request: {reason}") from None
                raise
        if kind == "response":
            return dump(self._response(payload))
        return chunk_events(self._stream(payload), exclude_none=True)

    def _response(self, body: Mapping[str, Any]) -> Any:
        httpx = load("httpx")
        module = load("litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini")
        model = _gemini_model(body.get("modelVersion"))
        url = _URL.format(model=model)
        raw = httpx.Response(200, json=dict(body), request=httpx.Request("POST", url))
        return module.VertexGeminiConfig().transform_response(
            model=model,
            raw_response=raw,
            model_response=load("litellm.types.utils").ModelResponse(),
            logging_obj=_logging(model),
            request_data={},
            messages=[],
            optional_params={},
            litellm_params={},
            encoding=None,
            api_key="",
        )

    def _stream(self, events: list[Mapping[str, Any]]) -> Iterator[Any]:
        module = load("litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini")
        wrapper_class = load("litellm.litellm_core_utils.streaming_handler").CustomStreamWrapper
        model = _gemini_model(first_data(events).get("modelVersion"))
        logging_obj = _logging(model, stream=True)
        # What httpx's iter_lines gives LiteLLM for the event stream.
        lines = event_stream(events).split("\n")
        iterator = module.ModelResponseIterator(
            streaming_response=iter(lines), sync_stream=True, logging_obj=logging_obj
        )
        return iter(
            wrapper_class(
                # As VertexLLM.completion(stream=True): the wrapper opens the
                # stream through make_call (make_sync_call returns the iterator).
                completion_stream=None,
                make_call=lambda client: iterator,
                model=model,
                logging_obj=logging_obj,
                custom_llm_provider="vertex_ai_beta",
                stream_options={"include_usage": True},
            )
        )


def _logging(model: str, stream: bool = False) -> Any:
    """A logging object as ``completion`` leaves it before the provider call:
    with the call's optional parameters (none that change the conversion:
    only the legacy ``functions`` does)."""
    logging_obj = logging_object(model, stream=stream)
    logging_obj.optional_params = {}
    return logging_obj


def _gemini_model(model: Any) -> str:
    """The case's model when it is a Gemini model, else ``DEFAULT_MODEL``."""
    if isinstance(model, str) and model.startswith("gemini"):
        return model
    return DEFAULT_MODEL
