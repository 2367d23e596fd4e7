"""A tool choice restricted to several of the offered tools.

Three dialects can say "call one of these tools" (or "may call only these"):

* openai-chat ``{"type": "allowed_tools", "allowed_tools": {"mode": "auto" |
  "required", "tools": [{"type": "function", "function": {"name": N}}]}}``
  (https://platform.openai.com/docs/api-reference/chat/create, ``tool_choice``;
  openai-python ``ChatCompletionAllowedToolChoiceParam``);
* openai-responses ``{"type": "allowed_tools", "mode": ..., "tools":
  [{"type": "function", "name": N}]}``
  (https://platform.openai.com/docs/api-reference/responses/create);
* gemini ``functionCallingConfig: {mode: ANY | VALIDATED,
  allowedFunctionNames: [...]}``: ANY is ``required`` among the names,
  VALIDATED ``auto`` among them, every call constrained to its schema
  (https://ai.google.dev/api/caching#FunctionCallingConfig: the names
  "should only be set when the Mode is ANY or VALIDATED").

The wire forms are read by ``toolwire.conformance.readings.allowed_tools``, which
``fidelity.tool_choice`` judges with. The neutral model has one tool name at
most, so the adapter resolves a
restriction before the conversion steps and writes it back after them
(``resolve`` / ``restore``). A restriction that means a plain choice becomes
that choice: every offered tool allowed is ``auto`` / ``required``; ``required``
with one tool is that tool (names the request does not offer count for
nothing: ``as_plain``, as ``fidelity.tool_choice`` reads them). Any other
restriction is carried where the target can say it (openai-chat and
openai-responses both modes; gemini ``required`` as ANY, and ``auto`` as
VALIDATED when every function tool is strict, since VALIDATED makes them so:
gemini/request.py) and declined elsewhere (anthropic-messages,
deepseek-chat, gemini ``auto`` over tools that are not all strict): dropping
it would let the model call tools the source ruled out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolwire.conformance.readings.allowed_tools import (
    Mode,
    Restriction,
    as_plain,
    claims_restriction,
    offered,
    restriction,
)
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.model import GEMINI, OPENAI_CHAT, OPENAI_RESPONSES, Conversation, ToolChoice


def resolve(conversation: Conversation, target: str) -> tuple[Conversation, Restriction | None]:
    """``conversation`` with its restriction turned into a plain choice, and the
    restriction the target must still carry (None when the plain choice says it
    all). Declines a restriction ``target`` cannot say."""
    found = restriction(conversation)
    if found is None:
        if claims_restriction(conversation):
            raise UnsupportedConversion(
                "tool_choice allowed_tools lists something other than function tools by "
                "name (hosted or custom tools), which have no equivalent here"
            )
        return conversation, None
    extra = {k: v for k, v in conversation.extra.items() if k != "tool_choice"}
    tools = offered(conversation)
    # Reduced as fidelity.tool_choice reads it: names the request does not
    # offer count for nothing (a forced call of an undeclared tool is no choice).
    plain = as_plain(found, tools)
    left = found if plain is None else None
    plain = plain or ToolChoice(found.mode)
    if left is not None and not _carries(target, left.mode, conversation):
        if target == GEMINI:
            raise UnsupportedConversion(
                f"tool_choice allows auto calls of {len(left.names)} of the {len(tools)} "
                "tools offered; gemini restricts an auto choice only with functionCallingConfig "
                "mode VALIDATED, which makes every function strict, and these are not all strict"
            )
        raise UnsupportedConversion(
            f"tool_choice allows {left.mode} calls of {len(left.names)} of the "
            f"{len(tools)} tools offered; {target} has no such restriction "
            "(its tool choice lets the model call every tool, forces any tool or one "
            "tool, or calls none)"
        )
    return replace(conversation, tool_choice=plain, extra=extra), left


def _carries(target: str, mode: Mode, conversation: Conversation) -> bool:
    if target in (OPENAI_CHAT, OPENAI_RESPONSES):
        return True
    if target != GEMINI:
        return False
    # Gemini names functions with ANY (required) or VALIDATED (auto), and
    # VALIDATED constrains every call to its schema: only over strict tools.
    functions = [tool for tool in conversation.tools or () if tool.kind == "function"]
    return mode == "required" or all(tool.strict is True for tool in functions)


_GEMINI_MODE: dict[Mode, str] = {"required": "ANY", "auto": "VALIDATED"}


def restore(conversation: Conversation, kept: Restriction | None) -> Conversation:
    """The converted ``conversation`` carrying ``kept`` in its own form."""
    if kept is None:
        return conversation
    names = list(kept.names)
    if conversation.dialect == GEMINI:
        raw = {"mode": _GEMINI_MODE[kept.mode], "allowedFunctionNames": names}
        return replace(conversation, tool_choice=ToolChoice(kept.mode, raw=raw))
    if conversation.dialect == OPENAI_RESPONSES:
        tools: list[dict[str, Any]] = [{"type": "function", "name": n} for n in names]
        value: dict[str, Any] = {"type": "allowed_tools", "mode": kept.mode, "tools": tools}
    else:
        tools = [{"type": "function", "function": {"name": n}} for n in names]
        value = {
            "type": "allowed_tools",
            "allowed_tools": {"mode": kept.mode, "tools": tools},
        }
    return replace(
        conversation, tool_choice=None, extra={**conversation.extra, "tool_choice": value}
    )
