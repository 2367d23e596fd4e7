"""The reference adapter carries a tool choice restricted to some tools
(OpenAI allowed_tools, Gemini ANY with allowedFunctionNames) where the target
can say it, turns one that means a plain choice into that choice, and declines
the rest; fidelity.tool_choice passes every conversion it makes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.test_fidelity_corpus import payload
from tests.conformance.test_tool_choice_allowed import chat_allowed
from toolwire.conformance import fidelity
from toolwire.conformance.context import ConversionUnderTest
from toolwire.harness.adapters.base import UnsupportedConversion
from toolwire.harness.adapters.reference import ReferenceAdapter

ADAPTER = ReferenceAdapter()
ANTHROPIC = "anthropic-messages"
CHAT_TOOLS = [
    {
        "type": "function",
        "function": {"name": n, "parameters": {"type": "object", "properties": {}}},
    }
    for n in "abc"
]


def chat(choice: Any) -> dict[str, Any]:
    messages = [{"role": "user", "content": "Weather in Paris?"}]
    return {"model": "gpt-4.1", "messages": messages, "tools": CHAT_TOOLS, "tool_choice": choice}


def gemini(config: dict[str, Any]) -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
        "tools": [{"functionDeclarations": [{"name": n} for n in "abc"]}],
        "toolConfig": {"functionCallingConfig": config},
    }


def responses(choice: Any) -> dict[str, Any]:
    tools = [{"type": "function", "name": n, "parameters": {"type": "object"}} for n in "abc"]
    return {"model": "gpt-5-mini", "input": "Weather?", "tools": tools, "tool_choice": choice}


def convert(raw: dict[str, Any], source: str, target: str) -> dict[str, Any]:
    out: dict[str, Any] = ADAPTER.convert(raw, "request", source, target)
    judged = fidelity.CONVERSION_CHECKS["fidelity.tool_choice"](
        ConversionUnderTest(
            source=payload(source, "request", raw), output=payload(target, "request", out)
        )
    )
    assert judged == [], judged
    return out


ANY_AB = {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}
# Auto among a and b, every call constrained to its schema
# (https://ai.google.dev/api/caching#FunctionCallingConfig).
VALIDATED_AB = {"mode": "VALIDATED", "allowedFunctionNames": ["a", "b"]}


def test_gemini_any_among_several_becomes_allowed_tools_required() -> None:
    out = convert(gemini(ANY_AB), "gemini", "openai-chat")
    assert out["tool_choice"] == chat_allowed("required", "ab")


def test_allowed_tools_required_becomes_gemini_any_with_the_names() -> None:
    out = convert(chat(chat_allowed("required", "ab")), "openai-chat", "gemini")
    assert out["toolConfig"] == {"functionCallingConfig": ANY_AB}


def test_openai_chat_and_responses_carry_both_modes() -> None:
    for mode in ("auto", "required"):
        out = convert(chat(chat_allowed(mode, "ab")), "openai-chat", "openai-responses")
        tools = [{"type": "function", "name": n} for n in "ab"]
        assert out["tool_choice"] == {"type": "allowed_tools", "mode": mode, "tools": tools}
        back = convert(out, "openai-responses", "openai-chat")
        assert back["tool_choice"] == chat_allowed(mode, "ab")


def test_a_restriction_that_means_a_plain_choice_becomes_it() -> None:
    out = convert(chat(chat_allowed("required", "a")), "openai-chat", "anthropic-messages")
    assert out["tool_choice"] == {"type": "tool", "name": "a"}
    out = convert(chat(chat_allowed("auto", "cab")), "openai-chat", "anthropic-messages")
    assert out["tool_choice"] == {"type": "auto"}
    every = {"mode": "ANY", "allowedFunctionNames": list("abc")}
    assert convert(gemini(every), "gemini", "anthropic-messages")["tool_choice"] == {"type": "any"}


@pytest.mark.parametrize(
    ("raw", "source", "target"),
    [
        (gemini(ANY_AB), "gemini", "anthropic-messages"),
        (chat(chat_allowed("required", "ab")), "openai-chat", "anthropic-messages"),
        # Gemini restricts an auto choice only with VALIDATED, which makes every
        # function strict: these are not.
        (chat(chat_allowed("auto", "ab")), "openai-chat", "gemini"),
        # VALIDATED among some tools is auto among them: Anthropic cannot say it.
        (gemini(VALIDATED_AB), "gemini", "anthropic-messages"),
        (
            gemini({"mode": "VALIDATED", "allowedFunctionNames": ["a"]}),
            "gemini",
            "anthropic-messages",
        ),
        (
            responses({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "mcp"}]}),
            "openai-responses",
            "openai-chat",
        ),
    ],
)
def test_a_restriction_the_target_cannot_say_is_declined(
    raw: dict[str, Any], source: str, target: str
) -> None:
    with pytest.raises(UnsupportedConversion):
        ADAPTER.convert(raw, "request", source, target)


def test_gemini_validated_among_some_becomes_allowed_tools_auto_over_strict_tools() -> None:
    out = convert(gemini(VALIDATED_AB), "gemini", "openai-chat")
    assert out["tool_choice"] == chat_allowed("auto", "ab")
    assert [tool["function"]["strict"] for tool in out["tools"]] == [True] * 3
    one = {"mode": "VALIDATED", "allowedFunctionNames": ["a"]}
    assert convert(gemini(one), "gemini", "openai-chat")["tool_choice"] == chat_allowed("auto", "a")


def test_allowed_tools_auto_over_strict_tools_becomes_gemini_validated_with_the_names() -> None:
    raw = chat(chat_allowed("auto", "ab"))
    raw["tools"] = [{**t, "function": {**t["function"], "strict": True}} for t in CHAT_TOOLS]
    out = convert(raw, "openai-chat", "gemini")
    assert out["toolConfig"] == {"functionCallingConfig": VALIDATED_AB}
    back = convert(out, "gemini", "openai-chat")
    assert back["tool_choice"] == chat_allowed("auto", "ab") and back["tools"] == raw["tools"]


def test_gemini_validated_naming_every_tool_is_plain_auto() -> None:
    every = {"mode": "VALIDATED", "allowedFunctionNames": list("abc")}
    out = convert(gemini(every), "gemini", "openai-chat")
    assert out["tool_choice"] == "auto"
    assert convert(gemini(every), "gemini", "anthropic-messages")["tool_choice"] == {"type": "auto"}


def test_names_the_request_does_not_offer_count_for_nothing() -> None:
    # Reduced as fidelity.tool_choice reads it (conformance/allowed_tools.as_plain):
    # required among a and an undeclared z is a forced call of a ...
    out = convert(chat(chat_allowed("required", "az")), "openai-chat", "anthropic-messages")
    assert out["tool_choice"] == {"type": "tool", "name": "a"}
    out = convert(chat(chat_allowed("auto", "cabz")), "openai-chat", "anthropic-messages")
    assert out["tool_choice"] == {"type": "auto"}
    # ... and required among z alone forces no undeclared tool: kept as given
    # where the target can say it, declined where it cannot.
    out = convert(chat(chat_allowed("required", "z")), "openai-chat", "openai-responses")
    assert out["tool_choice"]["tools"] == [{"type": "function", "name": "z"}]
    with pytest.raises(UnsupportedConversion):
        ADAPTER.convert(chat(chat_allowed("required", "z")), "request", "openai-chat", ANTHROPIC)
