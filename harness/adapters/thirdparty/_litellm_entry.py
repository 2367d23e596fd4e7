"""Where each LiteLLM release keeps the code the LiteLLM shims call.

The shims run on every release from 1.80 to the newest (1.110.2 when
written). Read from the wheels on PyPI, three things moved:

* the ``/v1/messages`` adapter package (``handler``: the request leg,
  ``transformation``: the response and stream legs):

  ====================  ===========================================================
  releases              package
  ====================  ===========================================================
  1.80.0 - 1.104.9      ``litellm.llms.anthropic.experimental_pass_through.adapters``
  1.105.0 - 1.108.14    ``litellm.llms.anthropic.pass_through.adapters``
  1.109.0 and later     ``litellm.llms.anthropic.messages.adapters``
  ====================  ===========================================================

  ``adapters_module`` tries them newest first; only a missing *package* moves
  on to the next one (a dependency missing inside it is the real error).
* ``_prepare_completion_kwargs`` returns the ``completion`` arguments alone
  in 1.80 and ``(arguments, tool name mapping)`` later, and takes
  ``output_format`` by name only from 1.85 on: ``completion_kwargs`` passes by
  name what the release's signature names and the rest in ``extra_kwargs``,
  as its ``anthropic_messages_handler`` (``**kwargs``) does.
* ``translate_completion_output_params_streaming`` takes ``is_async`` from
  1.90 on; before, every caller got the asynchronous event stream, which
  ``sse_bytes`` drains. ``async_only`` says so: the shim then feeds the
  chunks from an asynchronous source, as ``acompletion`` does (a
  synchronous source takes another path in those releases, which raises on
  the usage chunk: not what any LiteLLM user runs).
* 1.86 (at least) routes a request with Anthropic ``thinking`` to OpenAI's
  Responses API by naming the model ``responses/<model>``
  (``routes_to_responses_api``); later releases do it inside ``completion``.

* ``return_raw_request`` stops just before the HTTP call from 1.104 on
  (``Logging(raw_request_only=...)``); before, it lets the call go out and
  fail, and the OpenAI SDK retries twice, sleeping about 1.5 s per request:
  ``raw_request_kwargs`` asks those releases for no retries (``max_retries``
  is a client setting, not part of the body: same bodies on 1.80.17).

Everything else the shims use (``return_raw_request``, ``Logging``,
``convert_to_model_response_object``, ``CustomStreamWrapper``,
``AnthropicConfig``, ``ModelResponseIterator``) kept its module and the
keyword arguments the shims pass over the whole range.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

from toolwire.harness.adapters.thirdparty._offline import load, run_async

# Newest first: a release has exactly one of them.
ADAPTER_PACKAGES = (
    "litellm.llms.anthropic.messages.adapters",
    "litellm.llms.anthropic.pass_through.adapters",
    "litellm.llms.anthropic.experimental_pass_through.adapters",
)


def adapters_module(name: str) -> Any:
    """``<adapters package>.<name>`` of the installed release."""
    for package in ADAPTER_PACKAGES:
        try:
            return load(f"{package}.{name}")
        except ModuleNotFoundError as error:
            # Only "this package does not exist here" means "try the next".
            if not error.name or not f"{package}.{name}".startswith(error.name):
                raise
    raise ModuleNotFoundError(
        f"no LiteLLM /v1/messages adapter module {name!r} in any known place: "
        f"{', '.join(ADAPTER_PACKAGES)}"
    )


def raw_request_kwargs(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """``kwargs`` for ``return_raw_request``, without retries on releases whose
    ``return_raw_request`` lets the request go out."""
    logging = load("litellm.litellm_core_utils.litellm_logging").Logging
    if "raw_request_only" in inspect.signature(logging.__init__).parameters:
        return dict(kwargs)
    return {"max_retries": 0, **kwargs}


def completion_kwargs(
    handler: Any, model: str, body: Mapping[str, Any], extra: Mapping[str, Any]
) -> dict[str, Any]:
    """The ``completion`` arguments ``_prepare_completion_kwargs`` makes of an
    Anthropic request body, on any release."""
    prepare = handler._prepare_completion_kwargs
    takes = set(inspect.signature(prepare).parameters) - {"model", "extra_kwargs"}
    named = {key: value for key, value in body.items() if key in takes}
    rest = {key: value for key, value in body.items() if key not in takes and key != "model"}
    result = prepare(model=model, extra_kwargs={**rest, **extra}, **named)
    # 1.85 and later also return the tool name mapping.
    kwargs = result[0] if isinstance(result, tuple) else result
    return dict(kwargs)


def async_only(adapter: Any) -> bool:
    """Whether the release's stream translation is asynchronous only (before 1.90)."""
    translate = adapter.translate_completion_output_params_streaming
    return "is_async" not in inspect.signature(translate).parameters


def routes_to_responses_api(kwargs: Mapping[str, Any]) -> bool:
    """Whether ``completion`` arguments name LiteLLM's Responses API bridge."""
    return str(kwargs.get("model", "")).startswith("responses/")


def sse_bytes(adapter: Any, chunks: Iterable[Any], model: str) -> bytes:
    """The event-stream bytes ``translate_completion_output_params_streaming``
    gives a synchronous caller, on any release."""
    translate = adapter.translate_completion_output_params_streaming
    if not async_only(adapter):
        return b"".join(translate(chunks, model=model, is_async=False))
    stream = translate(chunks, model=model)
    if isinstance(stream, AsyncIterator):
        return bytes(run_async(lambda: _drained(stream)))
    return b"".join(stream)


async def _drained(stream: AsyncIterator[bytes]) -> bytes:
    return b"".join([piece async for piece in stream])
