"""fidelity.tool_choice on a choice restricted to some tools (OpenAI
``allowed_tools``, Gemini ANY with ``allowedFunctionNames``): a converter that
drops the restriction is caught, one that keeps the meaning another way passes,
and a choice it cannot read gets no verdict."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_fidelity_corpus import anthropic_request, only, payload
from toolwire.conformance import fidelity
from toolwire.conformance.context import ConversionUnderTest, PayloadUnderTest

CODE = "fidelity.tool_choice"
ASK = {"role": "user", "content": "Weather in Paris?"}


def check(source: PayloadUnderTest, output: PayloadUnderTest) -> Any:
    return fidelity.CONVERSION_CHECKS[CODE](ConversionUnderTest(source=source, output=output))


def _chat_tool(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}


def chat(choice: Any, names: str = "abc") -> PayloadUnderTest:
    raw: dict[str, Any] = {"model": "gpt-4.1", "messages": [ASK]}
    raw["tools"] = [_chat_tool(n) for n in names]
    if choice is not None:
        raw["tool_choice"] = choice
    return payload("openai-chat", "request", raw)


def chat_allowed(mode: str, names: str) -> dict[str, Any]:
    tools = [{"type": "function", "function": {"name": n}} for n in names]
    return {"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": tools}}


def gemini(config: dict[str, Any] | None, names: str = "abc") -> PayloadUnderTest:
    raw: dict[str, Any] = {
        "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
        "tools": [{"functionDeclarations": [{"name": n} for n in names]}],
    }
    if config is not None:
        raw["toolConfig"] = {"functionCallingConfig": config}
    return payload("gemini", "request", raw)


def responses(choice: Any, names: str = "abc") -> PayloadUnderTest:
    tools = [{"type": "function", "name": n, "parameters": {"type": "object"}} for n in names]
    raw = {"model": "gpt-5-mini", "input": "Weather in Paris?", "tools": tools}
    return payload("openai-responses", "request", {**raw, "tool_choice": choice})


ANY_AB = {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}


def test_a_restriction_carried_passes() -> None:
    assert check(gemini(ANY_AB), chat(chat_allowed("required", "ab"))) == []
    assert check(chat(chat_allowed("required", "ba")), gemini(ANY_AB)) == []
    choice = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}]}
    assert check(chat(chat_allowed("auto", "a")), responses(choice)) == []


def test_a_dropped_restriction_is_caught() -> None:
    found = only(check(gemini(ANY_AB), chat("required")))
    assert (found.expected, found.actual, found.path) == (
        ["a", "b"],
        ["a", "b", "c"],
        "tool_choice",
    )
    assert "'a', 'b' in the source" in found.message
    found = only(check(chat(chat_allowed("required", "ab")), gemini({"mode": "ANY"})))
    assert found.path == "toolConfig.functionCallingConfig"
    # The restriction lost toward a dialect that cannot say it (a converter that
    # does not decline): anthropic any lets the model call every tool.
    anthropic_tools = [{"name": n, "input_schema": {"type": "object"}} for n in "abc"]
    output = anthropic_request([ASK], tools=anthropic_tools, tool_choice={"type": "any"})
    assert only(check(chat(chat_allowed("required", "ab")), output)).actual == ["a", "b", "c"]


def test_a_restriction_invented_is_caught() -> None:
    found = only(check(chat("required"), gemini(ANY_AB)))
    assert (found.expected, found.actual) == (["a", "b", "c"], ["a", "b"])


def test_the_same_meaning_written_another_way_passes() -> None:
    # The tools outside the restriction dropped, the choice plain: the same tools callable
    # (the lost definitions are fidelity.tool_definitions' to report).
    assert check(gemini(ANY_AB), chat("required", "ab")) == []
    # Every offered tool allowed is no restriction; required among one tool is that tool.
    assert (
        check(gemini({"mode": "ANY", "allowedFunctionNames": list("abc")}), chat("required")) == []
    )
    named = {"type": "function", "function": {"name": "a"}}
    assert check(chat(chat_allowed("required", "a")), chat(named)) == []
    assert check(chat(chat_allowed("auto", "abc")), chat(None)) == []


def test_a_mode_change_under_a_restriction_is_one_finding() -> None:
    found = only(check(chat(chat_allowed("auto", "ab")), gemini(ANY_AB)))
    assert (found.expected, found.actual) == ("auto", "required")


def test_a_restriction_it_cannot_read_gets_no_verdict() -> None:
    hosted = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "image_generation"}]}
    assert check(responses(hosted), chat("auto")) is None


# VALIDATED with names: the model answers in text or calls one of them
# (https://ai.google.dev/api/caching#FunctionCallingConfig): auto among them.
VALIDATED_AB = {"mode": "VALIDATED", "allowedFunctionNames": ["a", "b"]}
VALIDATED_A = {"mode": "VALIDATED", "allowedFunctionNames": ["a"]}


def test_validated_with_names_carried_as_allowed_tools_auto_passes() -> None:
    assert check(gemini(VALIDATED_AB), chat(chat_allowed("auto", "ab"))) == []
    assert check(chat(chat_allowed("auto", "ba")), gemini(VALIDATED_AB)) == []
    assert check(gemini(VALIDATED_A), chat(chat_allowed("auto", "a"))) == []
    choice = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}]}
    assert check(gemini(VALIDATED_A), responses(choice)) == []


def test_validated_with_names_dropped_is_caught() -> None:
    found = only(check(gemini(VALIDATED_AB), chat("auto")))
    assert (found.expected, found.actual) == (["a", "b"], ["a", "b", "c"])
    found = only(check(chat(chat_allowed("auto", "ab")), gemini({"mode": "VALIDATED"})))
    assert found.path == "toolConfig.functionCallingConfig"


def test_validated_with_one_name_forces_nothing() -> None:
    # One name beside VALIDATED is auto among one tool: forcing it is a mode change.
    named = {"type": "function", "function": {"name": "a"}}
    found = only(check(gemini(VALIDATED_A), chat(named)))
    assert (found.expected, found.actual) == ("auto", "tool 'a'")
    found = only(check(gemini(VALIDATED_A), chat(chat_allowed("required", "a"))))
    assert (found.expected, found.actual) == ("auto", "tool 'a'")


def test_validated_and_any_with_the_same_names_differ_in_mode() -> None:
    found = only(check(gemini(VALIDATED_AB), chat(chat_allowed("required", "ab"))))
    assert (found.expected, found.actual) == ("auto", "required")
    assert only(check(gemini(ANY_AB), gemini(VALIDATED_AB))).actual == "auto"


def test_validated_with_every_tool_named_is_no_restriction() -> None:
    every = {"mode": "VALIDATED", "allowedFunctionNames": list("abc")}
    assert check(gemini(every), chat("auto")) == []
    assert check(gemini(every), gemini({"mode": "VALIDATED"})) == []


def test_names_beside_auto_or_an_empty_list_restrict_nothing() -> None:
    # allowedFunctionNames "should only be set when the Mode is ANY or VALIDATED";
    # an empty repeated field is the unset one.
    assert check(gemini({"mode": "AUTO", "allowedFunctionNames": ["a"]}), chat("auto")) == []
    assert check(gemini({"mode": "ANY", "allowedFunctionNames": []}), chat("required")) == []


def test_a_named_tool_is_any_among_it_when_it_is_the_only_tool() -> None:
    # Found by the fuzzer: the reference writes tool 'a' as ANY among ['a'];
    # with 'a' the only tool that is still tool 'a', not just any tool.
    named = {"type": "function", "function": {"name": "a"}}
    any_a = {"mode": "ANY", "allowedFunctionNames": ["a"]}
    assert check(chat(named, names="a"), gemini(any_a, names="a")) == []
    assert check(gemini(any_a, names="a"), chat(named, names="a")) == []
