"""What the three LiteLLM shims share: loading LiteLLM offline and its plumbing.

Pinned (extra ``litellm``): litellm 1.106.2, the newest release whose
dependencies install from PyPI today (1.106.3 and later require a certifi
that does not exist yet), with ``mcp``: ``litellm.completion`` imports it on
every call although litellm's base install lacks it.

* ``load_litellm``: sets ``LITELLM_LOCAL_MODEL_COST_MAP=True`` first, so
  LiteLLM reads its bundled model cost map instead of fetching it, and
  ``HF_HUB_OFFLINE=1``, then forbids the network for the rest of the process.
* ``raw_request``: the body ``litellm.completion`` would send, from
  ``litellm.utils.return_raw_request`` (public): LiteLLM runs its whole
  request path (``get_optional_params``, the provider's
  ``transform_request``) with a logging object that stops it just before
  the HTTP call.
* ``model_response``: an OpenAI-compatible response body as LiteLLM's
  ``ModelResponse`` (``convert_to_model_response_object``, internal: what
  its OpenAI-compatible handlers call on every response).
* ``completion_chunks``: an OpenAI-compatible stream through
  ``CustomStreamWrapper`` (internal: what ``litellm.completion(stream=True)``
  returns), as the ``ModelResponseStream`` chunks a LiteLLM user iterates.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any

from toolwire.harness.adapters.thirdparty._litellm_entry import raw_request_kwargs
from toolwire.harness.adapters.thirdparty._offline import load, require
from toolwire.harness.adapters.thirdparty._replay import forbid_network, stream_data

EXTRA = "litellm"
MODULES = ("litellm", "mcp", "httpx")


def load_litellm(adapter: str) -> str:
    """Import LiteLLM offline; return its version (``AdapterLoadError`` without it)."""
    version = require(adapter, EXTRA, MODULES, "litellm")
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    # A stream without usage makes LiteLLM count tokens with the model's
    # Hugging Face tokenizer, which huggingface_hub would fetch, retrying with
    # back-off against the network guard for minutes: offline, it fails at
    # once and LiteLLM counts with its bundled tokenizer instead.
    os.environ["HF_HUB_OFFLINE"] = "1"
    forbid_network()
    litellm = load("litellm")
    # Releases up to about 1.81 load the cl100k tokenizer lazily, from the
    # network instead of the copy they bundle, unless this module (which
    # points tiktoken at that copy) was imported first; the request body does
    # not depend on it.
    load("litellm.litellm_core_utils.default_encoding")
    # Its "Give Feedback / Get Help" banner on every exception is noise here.
    litellm.suppress_debug_info = True
    return version


def raw_request(kwargs: Mapping[str, Any]) -> Any:
    """The request body ``litellm.completion(**kwargs)`` would send."""
    return raw_request_to(kwargs)[1]


def raw_request_to(kwargs: Mapping[str, Any]) -> tuple[str, Any]:
    """Where ``litellm.completion(**kwargs)`` would send its request, and the body."""
    utils = load("litellm.utils")
    call_types = load("litellm.types.utils").CallTypes
    captured = utils.return_raw_request(call_types.completion, raw_request_kwargs(kwargs))
    body = captured.get("raw_request_body")
    if body is None:
        raise RuntimeError(
            f"litellm built no request: {captured.get('error') or 'no reason given'}"
        )
    return str(captured.get("raw_request_api_base") or ""), body


def logging_object(model: str, stream: bool = False) -> Any:
    """A LiteLLM ``Logging`` object, which its response and stream code requires."""
    logging = load("litellm.litellm_core_utils.litellm_logging")
    return logging.Logging(
        model=model,
        messages=[],
        stream=stream,
        call_type="completion",
        litellm_call_id="toolwire",
        start_time=datetime.now(),
        function_id="toolwire",
    )


def model_response(body: Mapping[str, Any]) -> Any:
    """An OpenAI-compatible response body as LiteLLM's ``ModelResponse``."""
    convert = load("litellm.litellm_core_utils.llm_response_utils.convert_dict_to_response")
    model_response_class = load("litellm.types.utils").ModelResponse
    return convert.convert_to_model_response_object(
        response_object=dict(body), model_response_object=model_response_class()
    )


def completion_chunks(
    events: Iterable[Mapping[str, Any]], model: str, provider: str, asynchronous: bool = False
) -> Iterator[Any]:
    """An OpenAI-compatible stream as the ``ModelResponseStream`` chunks
    ``litellm.completion(stream=True, stream_options={"include_usage": True})``
    yields. Usage is asked for, as a user who wants it does.

    ``asynchronous``: the chunks come from an asynchronous source, as the
    OpenAI SDK's async client gives them to ``acompletion`` (the wrapper is
    then iterated with ``async for``)."""
    chunk_class = load("openai.types.chat").ChatCompletionChunk
    wrapper_class = load("litellm.litellm_core_utils.streaming_handler").CustomStreamWrapper
    chunks = [chunk_class.model_validate(data) for data in stream_data(events)]
    return iter(
        wrapper_class(
            completion_stream=_async_source(chunks) if asynchronous else iter(chunks),
            model=model,
            logging_obj=logging_object(model, stream=True),
            custom_llm_provider=provider,
            stream_options={"include_usage": True},
        )
    )


async def _async_source(chunks: list[Any]) -> AsyncIterator[Any]:
    for chunk in chunks:
        yield chunk


def first_data(events: Iterable[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The first event's parsed ``data`` object (``{}`` when there is none)."""
    for event in events:
        data = event.get("data")
        if isinstance(data, Mapping):
            return data
    return {}


# LiteLLM's own refusals of a request it will not send (a parameter the
# provider lacks, a tool_choice it cannot map): the library declines, it
# does not break.
REFUSALS = ("litellm.BadRequestError", "litellm.UnsupportedParamsError")


def refused(reason: str) -> bool:
    """Whether LiteLLM's error says it refuses the request (see ``REFUSALS``)."""
    return reason.startswith(REFUSALS)
