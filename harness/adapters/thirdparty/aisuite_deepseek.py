"""aisuite's DeepSeek provider, offline.

Pinned (extra ``aisuite``): aisuite 0.2.0 (see ``_aisuite.py``).

A user calls ``aisuite.Client().chat.completions.create("deepseek:<model>",
messages, ...)``; aisuite's ``DeepseekProvider`` (``aisuite.providers.deepseek_provider``)
hands the messages to the openai SDK as they are and converts the answer
with ``OpenAICompliantMessageConverter.convert_response``
(``aisuite.providers.message_converter``): what the user keeps in the history.

* request deepseek-chat -> deepseek-chat: ``create`` with the source's
  messages and arguments (DeepSeek's ``thinking`` switch in ``extra_body``,
  as DeepSeek documents for the OpenAI SDK); the body is what the SDK sends.
* response deepseek-chat -> deepseek-chat: ``create`` answered with the
  case's response: ``convert_response``, in the envelope of ``_aisuite.py``.

aisuite's DeepSeek provider does not stream: it refuses a request with
``stream: true`` ("does not support streaming chat completions"), which is
reported ``unsupported``.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty._aisuite import client, load_aisuite, response_body
from toolwire.harness.adapters.thirdparty._replay import Replay
from toolwire.harness.adapters.thirdparty.aisuite_anthropic import request_body
from toolwire.harness.model import DEEPSEEK_CHAT, PayloadKind

PROMPT = [{"role": "user", "content": "toolwire"}]
_PROVIDER = "deepseek"
# Request keys DeepSeek reads that the openai SDK has no argument for.
_EXTRA_BODY_KEYS = ("thinking",)


class AisuiteDeepSeekAdapter:
    """aisuite's DeepSeek provider (see the module docstring)."""

    name = "aisuite-deepseek"

    def __init__(self) -> None:
        self.version = load_aisuite(self.name)

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return frozenset(
            {("request", DEEPSEEK_CHAT, DEEPSEEK_CHAT), ("response", DEEPSEEK_CHAT, DEEPSEEK_CHAT)}
        )

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        model = f"{_PROVIDER}:{payload.get('model', 'deepseek-v4-pro')}"
        if kind == "request":
            body = dict(payload)
            extra_body = {key: body.pop(key) for key in _EXTRA_BODY_KEYS if key in body}
            if extra_body:
                body["extra_body"] = {**body.get("extra_body", {}), **extra_body}
            try:
                return request_body(_PROVIDER, model, body)
            except Exception as error:
                if "does not support streaming" not in str(error):
                    raise
                # aisuite declines this itself: its DeepSeek provider has no stream.
                raise UnsupportedConversion(f"aisuite: {error}") from error
        suite = client(_PROVIDER, Replay(answer=payload))
        return response_body(suite.chat.completions.create(model, list(PROMPT)), payload)
