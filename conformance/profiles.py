"""Target profiles: the server a converted payload is meant for.

A rule's level may depend on the profile (WIRE.md section 2). Anthropic's own
API merges consecutive same-role messages, so splitting tool results is only
a SHOULD there; Anthropic-compatible servers that do not merge make it a MUST.
"""

from __future__ import annotations

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
            "Anthropic's API: consecutive same-role messages are merged into one turn.",
            "https://docs.anthropic.com/en/api/messages",
        ),
        Profile(
            "anthropic-strict",
            "anthropic-messages",
            "Anthropic-compatible servers that do not merge consecutive same-role messages.",
            "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
        ),
        Profile(
            "deepseek-thinking",
            "deepseek-chat",
            "DeepSeek thinking mode with tools: reasoning_content replayed on tool-call turns.",
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
