"""pydantic-ai as a converter: a message history rendered for another provider, offline.

Pinned (extra ``pydantic-ai``): pydantic-ai-slim[openai,anthropic] 2.68.0.

Directions: requests only (pydantic-ai renders requests from its
``ModelMessage`` history; it renders no response body), between
openai-chat and anthropic-messages and between anthropic-messages and
deepseek-chat.

What it calls:

* rendering (the part under test): ``Model.request`` /
  ``Model.request_stream`` (public) of ``OpenAIChatModel`` with
  ``OpenAIProvider`` or ``DeepSeekProvider``, or of ``AnthropicModel`` with
  ``AnthropicProvider``, each given a dummy key and, through the providers'
  public ``http_client`` option, an in-process transport that records the
  body and answers 400 (``_offline.RequestCapture``). The result is exactly
  what pydantic-ai's ``_map_messages`` / ``_map_message`` and tool mapping
  put on the wire.
* reading the source's assistant turns: pydantic-ai's own response parsers,
  ``OpenAIChatModel._process_response`` (internal, on a one-choice
  ``ChatCompletion`` around the assistant message) and
  ``AnthropicModel._process_response`` (internal, on a ``BetaMessage``
  around the assistant content).

toolwire's own leg (``_pydantic_ai_history``), so a failure there is not
pydantic-ai's: the user, system and tool messages of the source become
``SystemPromptPart`` / ``UserPromptPart`` (text only) / ``ToolReturnPart``;
a failed result (Anthropic ``is_error``, or an openai-chat tool message
starting ``Error:`` as docs/conventions.md reads it) gets
``outcome="failed"``; ``tool_choice``, ``parallel_tool_calls``,
``max_tokens``, sampling and thinking settings become ``ModelSettings``.

pydantic-ai's ``UserError`` (its refusal of a setting the target model does
not support, such as a forced tool choice for ``deepseek-reasoner``) is
reported as ``UnsupportedConversion``: a deliberate decline, not a crash.
"""

from __future__ import annotations

from typing import Any

from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.thirdparty import _pydantic_ai_history as history
from toolwire.harness.adapters.thirdparty._offline import (
    OFFLINE_API_KEY,
    RequestCapture,
    capture_request_body,
    load,
    require,
)
from toolwire.harness.model import ANTHROPIC_MESSAGES, DEEPSEEK_CHAT, OPENAI_CHAT, PayloadKind

EXTRA = "pydantic-ai"
_MODULES = ("pydantic_ai", "openai", "anthropic", "httpx2")

_PAIRS = (
    (OPENAI_CHAT, ANTHROPIC_MESSAGES),
    (ANTHROPIC_MESSAGES, OPENAI_CHAT),
    (ANTHROPIC_MESSAGES, DEEPSEEK_CHAT),
    (DEEPSEEK_CHAT, ANTHROPIC_MESSAGES),
)
DIRECTIONS: frozenset[tuple[str, str, str]] = frozenset(
    ("request", source, target) for source, target in _PAIRS
)

# The model a body is rendered for when the source names another provider's
# model: pydantic-ai picks behaviour by model profile, so use a current one.
_TARGET_MODELS = {
    ANTHROPIC_MESSAGES: "claude-sonnet-4-5",
    OPENAI_CHAT: "gpt-4.1",
    DEEPSEEK_CHAT: "deepseek-reasoner",
}
_MODEL_PREFIXES = {ANTHROPIC_MESSAGES: "claude", OPENAI_CHAT: "gpt", DEEPSEEK_CHAT: "deepseek"}


class PydanticAIAdapter:
    """Drives pydantic-ai's model classes (see the module docstring)."""

    name = "pydantic-ai"

    def __init__(self) -> None:
        self.version = require(self.name, EXTRA, _MODULES, "pydantic-ai-slim")

    @property
    def directions(self) -> frozenset[tuple[str, str, str]]:
        return DIRECTIONS

    def convert(self, payload: Any, kind: PayloadKind, source: str, target: str) -> Any:
        if (kind, source, target) not in DIRECTIONS:
            raise UnsupportedConversion(f"the pydantic-ai shim does not convert {kind} {source}")
        capture = RequestCapture()
        reader = _model(source, _model_name(payload, source), RequestCapture())
        messages = history.messages_from(payload, source, reader)
        settings = history.settings_from(payload, source)
        parameters = history.parameters_from(payload, source)
        model = _model(target, _model_name(payload, target), capture)
        send = _stream if payload.get("stream") else _request
        arguments = (model, messages, settings, parameters)
        try:
            return capture_request_body(capture, lambda: send(*arguments))
        except load("pydantic_ai.exceptions").UserError as error:
            # pydantic-ai refusing what the target model cannot do (for example a
            # forced tool choice for deepseek-reasoner) is a deliberate decline.
            raise UnsupportedConversion(f"pydantic-ai declined: {error}") from error


async def _request(model: Any, messages: Any, settings: Any, parameters: Any) -> None:
    await model.request(messages, settings, parameters)


async def _stream(model: Any, messages: Any, settings: Any, parameters: Any) -> None:
    async with model.request_stream(messages, settings, parameters):
        pass


def _model_name(body: dict[str, Any], dialect: str) -> str:
    name = body.get("model")
    if isinstance(name, str) and name.startswith(_MODEL_PREFIXES[dialect]):
        return name
    return _TARGET_MODELS[dialect]


def _model(dialect: str, model_name: str, capture: RequestCapture) -> Any:
    """A pydantic-ai model for ``dialect`` whose HTTP client is ``capture``'s."""
    if dialect == ANTHROPIC_MESSAGES:
        provider = load("pydantic_ai.providers.anthropic").AnthropicProvider(
            api_key=OFFLINE_API_KEY, http_client=capture.client()
        )
        return load("pydantic_ai.models.anthropic").AnthropicModel(model_name, provider=provider)
    if dialect == DEEPSEEK_CHAT:
        provider = load("pydantic_ai.providers.deepseek").DeepSeekProvider(
            api_key=OFFLINE_API_KEY, http_client=capture.client()
        )
    else:
        provider = load("pydantic_ai.providers.openai").OpenAIProvider(
            api_key=OFFLINE_API_KEY, http_client=capture.client()
        )
    return load("pydantic_ai.models.openai").OpenAIChatModel(model_name, provider=provider)
