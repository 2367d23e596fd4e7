"""The probe's request bodies, and how a conversation continues.

A conversation starts with a system prompt, the three probe tools and one
user prompt; no ``tool_choice`` is sent, so each server's default applies.
It continues the way a careful client continues it:

* the assistant turn goes back as it came: Anthropic content blocks
  unchanged (thinking with its signature included; only an empty text
  block, which the API refuses, is left out); OpenAI ``role``,
  ``content``, ``tool_calls`` and the reasoning field (``reasoning_content``
  or ``reasoning``) exactly as returned
  (https://api-docs.deepseek.com/guides/thinking_mode: a tool-call turn's
  reasoning must be passed back). ``keep_reasoning=False`` drops the
  reasoning: step 6 does it on purpose;
* results follow right after their calls: one ``role: tool`` message per
  call (OpenAI), one user message of ``tool_result`` blocks, ``is_error``
  on failures (Anthropic);
* gemini: the model's Content goes back as returned (parts with their
  ``thoughtSignature``: Gemini 3 refuses a call without it,
  https://ai.google.dev/gemini-api/docs/thought-signatures; without
  ``keep_reasoning`` the signatures and thought parts are left out), then
  one user Content of ``functionResponse`` parts (``{"output": ...}``, or
  ``{"error": ...}`` on failures) in call order; the body carries ``model``
  and ``stream`` for the transport, which puts them in the URL;
* calls the model wrote as text (Qwen XML, JSON) are answered in text, as
  a Qwen chat template renders tool messages: one user message of
  ``<tool_response>`` blocks, in call order.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from toolwire.harness.dialects import get_codec
from toolwire.harness.model import ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES, Response
from toolwire.harness.probe import responses_api
from toolwire.harness.probe.observe import STRUCTURED, Observation
from toolwire.harness.probe.tools import ToolAnswer, anthropic_tools, gemini_tools, openai_tools

SYSTEM_PROMPT = (
    "You are being tested for tool use. The tools have no side effects. "
    "When asked to call a tool, call it with exactly the arguments given."
)
# Enough for a call or a short answer; Anthropic requires max_tokens.
ANTHROPIC_MAX_TOKENS = 1024
_OPENAI_MESSAGE_KEYS = ("content", "tool_calls")
_OPENAI_REASONING_KEYS = ("reasoning_content", "reasoning")
_ANTHROPIC_REASONING_BLOCKS = ("thinking", "redacted_thinking")
_OPENAI_CALL_KEYS = ("id", "type", "function")


def first_request(dialect: str, model: str, prompt: str, stream: bool = False) -> dict[str, Any]:
    """A new conversation: system prompt, the probe tools, one user prompt."""
    if dialect == OPENAI_RESPONSES:
        return responses_api.first_request(model, SYSTEM_PROMPT, prompt, stream)
    if dialect == GEMINI:
        body: dict[str, Any] = {
            "model": model,
            "systemInstruction": {"parts": [{"text": SYSTEM_PROMPT}]},
            "contents": [{"role": "user", "parts": [{"text": prompt}]}],
            "tools": gemini_tools(),
        }
        if stream:
            body["stream"] = True
        return body
    if dialect == ANTHROPIC_MESSAGES:
        body = {
            "model": model,
            "max_tokens": ANTHROPIC_MAX_TOKENS,
            "system": SYSTEM_PROMPT,
            "messages": [{"role": "user", "content": prompt}],
            "tools": anthropic_tools(),
        }
        if stream:
            body["stream"] = True
        return body
    body = {
        "model": model,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": prompt},
        ],
        "tools": openai_tools(),
    }
    if stream:
        # As the OpenAI SDK asks for usage in streams (real recordings do).
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def continued(
    dialect: str,
    request: dict[str, Any],
    observation: Observation,
    answers: Sequence[ToolAnswer],
    keep_reasoning: bool = True,
) -> dict[str, Any]:
    """``request`` followed by the model's turn and the answers to its calls."""
    if observation.response is None:
        raise ValueError("cannot continue after an answer that was not read")
    structured = observation.format in STRUCTURED
    if dialect == OPENAI_RESPONSES:
        return responses_api.continued(
            request,
            observation.response,
            structured,
            [call.id for call in observation.calls],
            answers,
            _text_results(answers),
            keep_reasoning,
        )
    body = copy.deepcopy(request)
    if dialect == GEMINI:
        return _gemini_continued(body, observation, answers, keep_reasoning)
    messages: list[Any] = body["messages"]
    messages.append(assistant_message(dialect, observation.response, keep_reasoning))
    if not structured:
        messages.append({"role": "user", "content": _text_results(answers)})
    elif dialect == ANTHROPIC_MESSAGES:
        blocks = []
        for call, answer in zip(observation.calls, answers, strict=True):
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": call.id,
                "content": answer.content,
            }
            if answer.is_error:
                block["is_error"] = True
            blocks.append(block)
        messages.append({"role": "user", "content": blocks})
    else:
        for call, answer in zip(observation.calls, answers, strict=True):
            messages.append({"role": "tool", "tool_call_id": call.id, "content": answer.content})
    return body


def assistant_message(dialect: str, response: Response, keep_reasoning: bool) -> dict[str, Any]:
    """The model's turn as the next request carries it (see the module docstring)."""
    rendered = get_codec(dialect).render_response(response)
    if dialect == ANTHROPIC_MESSAGES:
        blocks = [
            block
            for block in rendered.get("content") or []
            if (keep_reasoning or block.get("type") not in _ANTHROPIC_REASONING_BLOCKS)
            and not _empty_text(block)
        ]
        return {"role": "assistant", "content": blocks}
    message = rendered["choices"][0]["message"]
    kept: dict[str, Any] = {"role": "assistant"}
    for key in _OPENAI_MESSAGE_KEYS:
        if key in message and not (key == "tool_calls" and not message[key]):
            kept[key] = message[key]
    if "tool_calls" in kept:
        # Response-only fields (``index``) stay behind, as SDKs do.
        kept["tool_calls"] = [
            {key: call[key] for key in _OPENAI_CALL_KEYS if key in call}
            for call in kept["tool_calls"]
        ]
    if keep_reasoning:
        for key in _OPENAI_REASONING_KEYS:
            if message.get(key) is not None:
                kept[key] = message[key]
    kept.setdefault("content", None)
    return kept


def _gemini_continued(
    body: dict[str, Any],
    observation: Observation,
    answers: Sequence[ToolAnswer],
    keep_reasoning: bool,
) -> dict[str, Any]:
    assert observation.response is not None
    rendered = get_codec(GEMINI).render_response(observation.response)
    content = copy.deepcopy((rendered.get("candidates") or [{}])[0].get("content") or {})
    parts = [p for p in content.get("parts") or () if keep_reasoning or not p.get("thought")]
    if not keep_reasoning:
        for part in parts:
            part.pop("thoughtSignature", None)
    parts = [p for p in parts if p.get("text") != "" or len(p) > 1]  # stream leftovers
    body["contents"].append({"role": "model", "parts": parts})
    if observation.format not in STRUCTURED:
        body["contents"].append({"role": "user", "parts": [{"text": _text_results(answers)}]})
        return body
    replies = []
    for call, answer in zip(observation.calls, answers, strict=True):
        reply: dict[str, Any] = {"name": call.name}
        if call.id:
            reply["id"] = call.id
        reply["response"] = {"error" if answer.is_error else "output": answer.content}
        replies.append({"functionResponse": reply})
    body["contents"].append({"role": "user", "parts": replies})
    return body


def streamed(request: dict[str, Any], dialect: str) -> dict[str, Any]:
    """The same request, asked as a stream."""
    body = copy.deepcopy(request)
    body["stream"] = True
    if dialect not in (ANTHROPIC_MESSAGES, GEMINI, OPENAI_RESPONSES):
        body["stream_options"] = {"include_usage": True}
    return body


def _empty_text(block: Any) -> bool:
    # The Messages API refuses empty text blocks ("text content blocks must be
    # non-empty"); a stream can yield one.
    return isinstance(block, dict) and block.get("type") == "text" and not block.get("text")


def _text_results(answers: Sequence[ToolAnswer]) -> str:
    return "\n".join(f"<tool_response>\n{answer.content}\n</tool_response>" for answer in answers)
