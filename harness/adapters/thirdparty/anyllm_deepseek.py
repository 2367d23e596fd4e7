"""any-llm's DeepSeek provider (its DeepSeek preprocessing), offline.

Pinned (extra ``anyllm``): any-llm-sdk 1.40.2 (see ``_anyllm.py``).

A user calls ``AnyLLM.create("deepseek").acompletion(model=..., ...)``; any-llm
prepares the request with ``DeepseekProvider._convert_completion_params`` and
``any_llm.providers.deepseek.utils._preprocess_messages`` (internal), which
puts ``reasoning_content`` back on assistant messages from the
``extra_content`` side channel where any-llm keeps it.

* request openai-chat -> deepseek-chat and deepseek-chat -> deepseek-chat:
  the history is first rebuilt as an any-llm user holds it: each assistant
  message is the ``ChatCompletionMessage`` that ``acompletion`` returned for
  it (the case's assistant message served as a DeepSeek answer), appended
  as the object, as any-llm's examples do. Then ``acompletion`` with the
  source's arguments (DeepSeek's ``thinking`` switch in ``extra_body``, as
  DeepSeek documents for the OpenAI SDK); the body is what the openai SDK
  sends. An openai-chat case names an OpenAI model, so it gets
  ``deepseek-v4-pro``; a case for another vendor's model (GLM) is declined.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._anyllm import (
    HTTPX,
    call,
    call_for_body,
    load_anyllm,
    provider,
    split_request,
)
from toolwire.harness.adapters.thirdparty._replay import Replay, placeholder_answer
from toolwire.harness.model import DEEPSEEK_CHAT, OPENAI_CHAT, PayloadKind

DEFAULT_MODEL = "deepseek-v4-pro"
_PROVIDER = "deepseek"
# Request keys DeepSeek reads that the openai SDK has no argument for.
_EXTRA_BODY_KEYS = ("thinking",)


class AnyLLMDeepSeekAdapter:
    """any-llm's DeepSeek provider (see the module docstring)."""

    name = "anyllm-deepseek"

    def __init__(self) -> None:
        self.version = load_anyllm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {("request", OPENAI_CHAT, DEEPSEEK_CHAT), ("request", DEEPSEEK_CHAT, DEEPSEEK_CHAT)}
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        model, arguments = split_request(payload)
        if source == OPENAI_CHAT:
            model = DEFAULT_MODEL
        elif not model.startswith("deepseek"):
            raise UnsupportedConversion(
                f"model {model!r} is not DeepSeek's: any-llm's DeepSeek provider is for DeepSeek"
            )
        extra_body = {key: arguments.pop(key) for key in _EXTRA_BODY_KEYS if key in arguments}
        if extra_body:
            arguments["extra_body"] = {**arguments.get("extra_body", {}), **extra_body}
        arguments["messages"] = _as_held(arguments["messages"], model)
        httpx = HTTPX[_PROVIDER]
        replay = placeholder_answer("openai", bool(arguments.get("stream")), httpx)
        llm = provider(_PROVIDER, replay)
        return call_for_body(replay, lambda: llm.acompletion(model=model, **arguments))


def _as_held(messages: list[Mapping[str, Any]], model: str) -> list[Any]:
    """The history as an any-llm user holds it: each assistant message is the
    object ``acompletion`` returned for it; the others are as they are."""
    assistant = [dict(m) for m in messages if m.get("role") == "assistant"]
    answers = [
        {
            "id": "toolwire-history",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": m, "logprobs": None, "finish_reason": "stop"}],
        }
        for m in assistant
    ]
    llm = provider(_PROVIDER, Replay(answers=answers, httpx_module=HTTPX[_PROVIDER]))
    prompt = [{"role": "user", "content": "toolwire"}]

    async def replay_all() -> list[Any]:
        return [await llm.acompletion(model=model, messages=prompt) for _ in answers]

    held = iter(completion.choices[0].message for completion in call(replay_all))
    return [next(held) if m.get("role") == "assistant" else m for m in messages]
