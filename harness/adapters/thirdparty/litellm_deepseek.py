"""LiteLLM's DeepSeek transformation, offline: ``litellm.completion`` with a
DeepSeek model.

Pinned (extra ``litellm``): litellm 1.106.2 (see ``_litellm.py``).

A user calls ``litellm.completion(model="deepseek/<model>", ...)`` with an
OpenAI-format body; LiteLLM prepares it for DeepSeek with ``DeepSeekChatConfig``
(``litellm.llms.deepseek.chat.transformation``): ``map_openai_params`` maps
``thinking`` / ``reasoning_effort``, ``transform_request`` fills
``reasoning_content`` on assistant messages in thinking mode.

* request openai-chat -> deepseek-chat and deepseek-chat -> deepseek-chat:
  ``litellm.utils.return_raw_request`` (public), the body LiteLLM sends to
  DeepSeek. The model is the case's own DeepSeek model; an openai-chat case
  names an OpenAI model, so it gets ``deepseek/deepseek-v4-pro``. A case for
  another vendor's model (GLM) is declined: a user would not send it
  through LiteLLM's DeepSeek provider.
* response and stream deepseek-chat -> deepseek-chat: the answer as the
  ``ModelResponse`` a user gets and keeps in the history
  (``convert_to_model_response_object``; streams through ``CustomStreamWrapper``
  with usage asked for), as JSON: a response with the fields LiteLLM set
  (``exclude_unset``), a stream's chunks as LiteLLM's proxy writes them
  (``exclude_none`` too: a ``None`` field, ``finish_reason`` included, is
  absent), ending with ``[DONE]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._litellm import (
    completion_chunks,
    load_litellm,
    model_response,
    raw_request,
)
from toolwire.harness.adapters.thirdparty._replay import chunk_events, dump
from toolwire.harness.model import DEEPSEEK_CHAT, OPENAI_CHAT, PayloadKind

DEFAULT_MODEL = "deepseek-v4-pro"


class LiteLLMDeepSeekAdapter:
    """LiteLLM's ``DeepSeekChatConfig`` (see the module docstring)."""

    name = "litellm-deepseek"

    def __init__(self) -> None:
        self.version = load_litellm(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {
                ("request", OPENAI_CHAT, DEEPSEEK_CHAT),
                ("request", DEEPSEEK_CHAT, DEEPSEEK_CHAT),
                ("response", DEEPSEEK_CHAT, DEEPSEEK_CHAT),
                ("stream", DEEPSEEK_CHAT, DEEPSEEK_CHAT),
            }
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if kind == "request":
            model = DEFAULT_MODEL if source == OPENAI_CHAT else _deepseek_model(payload)
            return raw_request({**payload, "model": f"deepseek/{model}"})
        if kind == "response":
            return dump(model_response(payload))
        model = _deepseek_model(payload[0]["data"] if payload else {})
        return chunk_events(completion_chunks(payload, model, "deepseek"), exclude_none=True)


def _deepseek_model(body: Mapping[str, Any]) -> str:
    model = body.get("model")
    if not isinstance(model, str) or not model.startswith("deepseek"):
        raise UnsupportedConversion(
            f"model {model!r} is not DeepSeek's: LiteLLM's DeepSeek transformation is for "
            "deepseek/ models"
        )
    return model
