"""any-llm's Gemini provider (on google-genai), offline.

Pinned (extra ``anyllm``): any-llm-sdk 1.40.2 with its gemini extra
(google-genai 3.x, which sends through ``httpx``; see ``_anyllm.py``).

A user calls ``AnyLLM.create("gemini").acompletion(model="gemini-2.5-flash",
...)`` with OpenAI-format arguments. any-llm converts them with
``any_llm.providers.gemini`` (``GoogleProvider._convert_completion_params``
and ``utils._convert_messages``, ``_convert_tool_spec``,
``_convert_tool_choice``: internal) into google-genai types, which the
``genai.Client`` serialises and sends. This shim gives that client an
in-process transport (``HttpOptions(httpx_async_client=...)``, google-genai's
documented hook, on a ``_replay.Replay``), so every step is the libraries'
own and no socket opens:

* request openai-chat -> gemini: ``acompletion`` with the source body's
  arguments and the model above; the result is the JSON google-genai sends
  to ``models/gemini-2.5-flash:generateContent`` (``:streamGenerateContent``
  when the source streams; the model and the stream switch live in the URL,
  not the body).
* response gemini -> openai-chat: ``acompletion`` answered with the case's
  response JSON; google-genai parses it into a ``GenerateContentResponse``,
  and any-llm's ``_convert_response_to_response_dict`` and
  ``_convert_completion_response`` give the ``ChatCompletion`` a user gets.
* stream gemini -> openai-chat: ``acompletion(stream=True)`` answered with
  the case's event stream; google-genai parses each chunk, and
  ``_create_openai_chunk_from_google_chunk`` converts it; the chunks as a
  Chat Completions event stream (``[DONE]`` last).

toolwire's own leg, so a failure there is not any-llm's: any-llm answers with
pydantic objects, written out whole (``None`` as ``null``) as for its other
providers; the response and stream legs send a one-message request, since
the request a response answers is in the other dialect and these
conversions do not read it. A source request that carries another
vendor's extension (``thinking``, ``reasoning_format``, ``reasoning``) is
declined: a user would not send it to Gemini. A parameter any-llm refuses for Gemini
(``UnsupportedParameterError``, for example ``parallel_tool_calls``, which
Gemini has no switch for) is a decline, not a crash.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._anyllm import (
    API_KEY,
    call,
    call_for_body,
    load_anyllm,
    split_request,
)
from toolwire.harness.adapters.thirdparty._offline import load
from toolwire.harness.adapters.thirdparty._replay import (
    Replay,
    chunk_events,
    dump,
    event_stream,
)
from toolwire.harness.model import GEMINI, OPENAI_CHAT, PayloadKind

MODEL = "gemini-2.5-flash"
PROMPT = [{"role": "user", "content": "toolwire"}]
_PROVIDER = "gemini"
# Request fields of other vendors' Chat Completions APIs (GLM and DeepSeek
# ``thinking``, Groq ``reasoning_format``, OpenRouter ``reasoning``): any-llm
# hands unknown keywords to google-genai's config, which refuses them.
_VENDOR_FIELDS = frozenset({"thinking", "reasoning_format", "reasoning"})
# What a request under test is answered with: the library must finish its call,
# and what it makes of this answer is not judged.
_ANSWER: dict[str, Any] = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}
    ],
    "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
    "modelVersion": MODEL,
    "responseId": "toolwire",
}


class AnyLLMGeminiAdapter:
    """any-llm's Gemini provider (see the module docstring)."""

    name = "anyllm-gemini"

    def __init__(self) -> None:
        self.version = load_anyllm(self.name)

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
            raise UnsupportedConversion(
                f"the anyllm-gemini shim does not convert {kind} {source}->{target}"
            )
        try:
            return self._convert(payload, kind)
        except UnsupportedConversion:
            raise
        except load("any_llm.exceptions").UnsupportedParameterError as error:
            raise UnsupportedConversion(f"any-llm declined: {error}") from error

    def _convert(self, payload: Any, kind: PayloadKind) -> Any:
        if kind == "request":
            _model, arguments = split_request(payload)
            foreign = sorted(_VENDOR_FIELDS & arguments.keys())
            if foreign:
                raise UnsupportedConversion(
                    f"the source request carries {', '.join(foreign)}, another vendor's "
                    "extension that a user would not send to Gemini"
                )
            stream = bool(arguments.get("stream"))
            replay = placeholder(stream)
            llm = gemini(replay)
            return call_for_body(replay, lambda: llm.acompletion(model=MODEL, **arguments))
        if kind == "response":
            llm = gemini(Replay(answer=payload))
            return dump(
                call(lambda: llm.acompletion(model=MODEL, messages=PROMPT)), exclude_unset=False
            )
        llm = gemini(Replay(stream=event_stream(payload)))
        chunks = call(lambda: llm.acompletion(model=MODEL, messages=PROMPT, stream=True))
        return chunk_events(chunks, exclude_unset=False)


def gemini(replay: Replay) -> Any:
    """any-llm's Gemini provider whose genai client sends to ``replay``."""
    types = load("google.genai.types")
    options = types.HttpOptions(
        httpx_async_client=replay.async_client(), httpx_client=replay.sync_client()
    )
    return load("any_llm").AnyLLM.create(_PROVIDER, api_key=API_KEY, http_options=options)


def placeholder(stream: bool) -> Replay:
    """A replay answering any request with a one-word Gemini reply."""
    if stream:
        return Replay(stream=event_stream([{"event": None, "data": _ANSWER}]))
    return Replay(answer=_ANSWER)
