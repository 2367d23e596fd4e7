"""Target profiles: the server a converted payload is meant for.

A rule's level may depend on the profile (WIRE.md section 2). The default
``anthropic`` profile is what a converter must do to work on every real
Anthropic-format endpoint (Anthropic's API, Bedrock, Vertex AI, compatible
servers): several of them answer 400 to tool results split over consecutive
user messages, so the split is a MUST there (docs/levels.md, "Split tool
results toward Anthropic"). ``anthropic-merging`` is for a target that merges
consecutive same-role messages before it checks them, as the Messages API
reference says Anthropic's API does; ``anthropic-strict`` for servers that
accept no consecutive same-role messages at all.

deepseek-chat: ``deepseek-thinking`` judges a request that runs DeepSeek's
thinking mode (``thinking_mode_shown``); a request that does not show it is
judged under ``deepseek``, where the thinking-mode requirements are warnings
that say what thinking mode would do (docs/conventions.md, "Thinking in
deepseek-chat").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    dialect: str
    description: str
    docs: str


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "openai",
            "openai-chat",
            "OpenAI Chat Completions.",
            "https://platform.openai.com/docs/api-reference/chat/create",
        ),
        Profile(
            "anthropic",
            "anthropic-messages",
            "Every real Anthropic-format endpoint (Anthropic's API, Bedrock, Vertex AI, "
            "compatible servers): the results of one assistant turn in the one user message "
            "right after it; consecutive user text is merged.",
            "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
        ),
        Profile(
            "anthropic-merging",
            "anthropic-messages",
            "A target that merges consecutive same-role messages into one turn before checking "
            "them, as the Messages API reference says Anthropic's API does.",
            "https://docs.anthropic.com/en/api/messages",
        ),
        Profile(
            "anthropic-strict",
            "anthropic-messages",
            "Anthropic-compatible servers that accept no consecutive same-role messages.",
            "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
        ),
        Profile(
            "deepseek-thinking",
            "deepseek-chat",
            "DeepSeek thinking mode with tools: reasoning_content replayed on tool-call turns.",
            "https://api-docs.deepseek.com/guides/thinking_mode",
        ),
        Profile(
            "deepseek",
            "deepseek-chat",
            "A DeepSeek request that does not show thinking mode (no thinking: {type: "
            "enabled}, a model not documented as thinking by default): what thinking mode "
            "would require is a warning.",
            "https://api-docs.deepseek.com/guides/thinking_mode",
        ),
        Profile(
            "deepseek-reasoner-legacy",
            "deepseek-chat",
            "The older deepseek-reasoner: reasoning_content in the input is rejected.",
            "https://api-docs.deepseek.com/guides/reasoning_model",
        ),
        Profile(
            "qwen3-coder",
            "qwen-xml",
            "Qwen3-Coder writing tool calls as XML text (no server-side parser).",
            "https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct",
        ),
        Profile(
            "openai-responses",
            "openai-responses",
            "OpenAI Responses API (POST /v1/responses).",
            "https://platform.openai.com/docs/api-reference/responses/create",
        ),
        Profile(
            "gemini",
            "gemini",
            "The Gemini API (generateContent): Gemini 3 checks the thought signatures of "
            "the current turn's function calls.",
            "https://ai.google.dev/gemini-api/docs/thought-signatures",
        ),
    )
}

DEFAULT_PROFILE: dict[str, str] = {
    "openai-chat": "openai",
    "anthropic-messages": "anthropic",
    "deepseek-chat": "deepseek-thinking",
    "qwen-xml": "qwen3-coder",
    "openai-responses": "openai-responses",
    "gemini": "gemini",
}


# Models DeepSeek documents as thinking when the request says nothing: the
# thinking mode guide ("Thinking mode is enabled by default", with the V4
# models in its examples) and the reasoning model guide (deepseek-reasoner
# is the thinking model). deepseek-chat is the non-thinking name.
THINKING_BY_DEFAULT = frozenset({"deepseek-reasoner", "deepseek-v4-flash", "deepseek-v4-pro"})
THINKING_PROFILE = "deepseek-thinking"
UNSHOWN_THINKING_PROFILE = "deepseek"


def thinking_mode_shown(request: object) -> bool:
    """The deepseek-chat request runs DeepSeek's thinking mode: it sets
    ``thinking: {"type": "enabled"}``, or sets no toggle and names a model
    documented as thinking by default (``THINKING_BY_DEFAULT``)."""
    if not isinstance(request, Mapping):
        return False
    toggle = request.get("thinking")
    if isinstance(toggle, Mapping) and toggle.get("type") in ("enabled", "disabled"):
        return toggle.get("type") == "enabled"
    model = request.get("model")
    return isinstance(model, str) and model.strip().lower() in THINKING_BY_DEFAULT


def request_profile(dialect: str, profile: str, request: object) -> str:
    """The profile a request is judged under when nobody chose one: the
    default ``deepseek-thinking`` only where the request shows thinking mode,
    ``deepseek`` elsewhere. Every other profile is kept."""
    unshown = profile == THINKING_PROFILE and not thinking_mode_shown(request)
    return UNSHOWN_THINKING_PROFILE if dialect == "deepseek-chat" and unshown else profile
