"""A tool choice restricted to some of the offered tools, read from any dialect.

* openai-chat (and the openai family): ``{"type": "allowed_tools",
  "allowed_tools": {"mode": "auto" | "required", "tools": [{"type":
  "function", "function": {"name": N}}]}}``
  (https://platform.openai.com/docs/api-reference/chat/create, ``tool_choice``);
* openai-responses: ``{"type": "allowed_tools", "mode": ..., "tools":
  [{"type": "function", "name": N}]}``
  (https://platform.openai.com/docs/api-reference/responses/create);
* gemini: ``functionCallingConfig {mode: ANY | VALIDATED,
  allowedFunctionNames: [...]}``, "a set of function names that, when
  provided, limits the functions the model will call. This should only be
  set when the Mode is ANY or VALIDATED"
  (https://ai.google.dev/api/caching#FunctionCallingConfig). ANY "always"
  predicts a call: ``required`` among the names. VALIDATED lets the model
  answer in text or call, its calls "limited to any one of
  allowed_function_names" (Vertex AI's ``FunctionCallingConfig.Mode``,
  https://docs.cloud.google.com/python/docs/reference/aiplatform/latest/google.cloud.aiplatform_v1beta1.types.FunctionCallingConfig.Mode):
  ``auto`` among the names. Names beside AUTO, NONE or no mode restrict
  nothing the docs say; an empty list is the unset proto field.

The codecs keep these in ``Conversation.extra["tool_choice"]`` (openai) or
``ToolChoice.raw`` (gemini; its ANY with one name also reads as
``mode="tool"``, which this restriction reduces to as well).
The reference adapter and ``fidelity.tool_choice`` both read them here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from toolwire.conformance.findings import Finding, finding
from toolwire.harness.model import GEMINI, OPENAI_RESPONSES, Conversation, ToolChoice

Mode = Literal["auto", "required"]

# Gemini modes whose allowedFunctionNames restrict the calls, as neutral modes.
_GEMINI_MODES: dict[str, Mode] = {"ANY": "required", "VALIDATED": "auto"}


@dataclass(frozen=True)
class Restriction:
    mode: Mode
    names: tuple[str, ...]  # in the order given, each once


def claims_restriction(conversation: Conversation) -> bool:
    """Whether the tool choice is an ``allowed_tools`` object (readable or not)."""
    value = conversation.extra.get("tool_choice")
    return isinstance(value, Mapping) and value.get("type") == "allowed_tools"


def restriction(conversation: Conversation) -> Restriction | None:
    """The restriction the tool choice carries; None when there is none, or
    when it lists something other than function tools by name."""
    if conversation.dialect == GEMINI:
        return _gemini_restriction(conversation)
    if not claims_restriction(conversation):
        return None
    value = conversation.extra["tool_choice"]
    nested = conversation.dialect != OPENAI_RESPONSES
    inner = value.get("allowed_tools") if nested else value
    if not isinstance(inner, Mapping) or inner.get("mode") not in ("auto", "required"):
        return None
    names = _function_names(inner.get("tools"), nested)
    if names is None:
        return None
    return Restriction("auto" if inner["mode"] == "auto" else "required", names)


def _gemini_restriction(conversation: Conversation) -> Restriction | None:
    choice = conversation.tool_choice
    raw = choice.raw if choice is not None and isinstance(choice.raw, Mapping) else {}
    mode = _GEMINI_MODES.get(str(raw.get("mode")))
    names = raw.get("allowedFunctionNames")
    if mode is None or not isinstance(names, list) or not names:
        return None
    if not all(isinstance(name, str) for name in names):
        return None
    return Restriction(mode, tuple(dict.fromkeys(names)))


def _function_names(tools: Any, nested: bool) -> tuple[str, ...] | None:
    if not isinstance(tools, list):
        return None
    names: list[str] = []
    for tool in tools:
        if not isinstance(tool, Mapping) or tool.get("type") != "function":
            return None
        holder = tool.get("function") if nested else tool
        name = holder.get("name") if isinstance(holder, Mapping) else None
        if not isinstance(name, str):
            return None
        names.append(name)
    return tuple(dict.fromkeys(names))


def as_plain(kept: Restriction, tools: frozenset[str]) -> ToolChoice | None:
    """The plain choice ``kept`` means among the offered ``tools``; None when it
    really restricts them. Only offered tools can be called, so names the
    request does not offer count for nothing (Gemini: the names "should match
    FunctionDeclaration.name"): ``required`` among one offered tool is that
    tool, even when it is the only tool offered (as a named choice reads, so
    that "tool a" and "ANY among [a]" compare equal); otherwise every offered
    tool named is no restriction."""
    named = [name for name in kept.names if name in tools]
    if kept.mode == "required" and len(named) == 1:
        return ToolChoice("tool", named[0])
    if set(named) == tools:
        return ToolChoice(kept.mode)
    return None


def offered(conversation: Conversation) -> frozenset[str]:
    """The names of the function tools the conversation offers."""
    return frozenset(
        tool.name for tool in conversation.tools or () if tool.kind == "function" and tool.name
    )


def allowed(conversation: Conversation) -> frozenset[str] | None:
    """The offered tools the choice lets the model call; None without a restriction."""
    kept = restriction(conversation)
    return None if kept is None else offered(conversation) & set(kept.names)


def allowed_finding(before: Conversation, after: Conversation, mode: str) -> Finding | None:
    """fidelity.tool_choice's finding when the tools the model may call differ
    (the modes already agree: ``mode`` is theirs)."""
    # Judged where a side restricts the tools (else every offered tool is
    # callable on both sides, and a lost tool is fidelity.tool_definitions').
    source, output = allowed(before), allowed(after)
    if mode not in ("auto", "required") or (source is None and output is None):
        return None
    expected = offered(before) if source is None else source
    actual = offered(after) if output is None else output
    if expected == actual:
        return None
    where = "toolConfig.functionCallingConfig" if after.dialect == GEMINI else "tool_choice"
    return finding(
        "fidelity.tool_choice",
        f"tool_choice lets the model call {_names(expected)} in the source, but "
        f"{_names(actual)} in the output ({where})",
        where,
        expected=sorted(expected),
        actual=sorted(actual),
    )


def _names(names: frozenset[str]) -> str:
    return ", ".join(map(repr, sorted(names))) or "no tool"
