"""fidelity.tool_definitions: tool names, descriptions and parameter schemas survive.

fidelity.tool_definitions compares each user-defined tool by name (then by
position for renamed ones): name, description, ``strict`` and parameter
schema. Schemas compare by meaning (``toolwire.conformance.readings.schema_meaning``): key
order, an empty ``$defs``, ``required: []`` or a local ``$ref`` written in
place change nothing; a dropped ``enum``, bound, ``description`` or
``additionalProperties`` does. Other forms that mean the same: a missing
description and an empty one; ``strict: false`` and none, except in an
openai-responses payload (below); a function without ``parameters`` (OpenAI:
"omitting parameters defines a function with an empty parameter list") and the
empty object schema Anthropic's required ``input_schema`` needs. Server tools (a
versioned ``type``) have no counterpart across dialects and are left out.
The names a call uses are tool names too: a call renamed on the way is
reported here.

Strictness is compared as it takes effect: a missing ``strict`` is false,
but strict in openai-responses ("If you omit `strict`, the default depends on
the API: Responses requests will normalize your schema into strict mode ...
while Chat Completions requests remain non-strict by default. To opt out ...
explicitly set `strict: false`", https://platform.openai.com/docs/guides/function-calling;
openai-python's Responses ``FunctionToolParam.strict``: "Default `true`"). So
a tool that was not strict, written to openai-responses without ``strict:
false``, becomes strict there. That default is read only where the output is
openai-responses and the source another dialect; an openai-responses source
(converted elsewhere, or back on a round trip) is still read as if a missing
``strict`` were false, since carrying it to Chat faithfully needs ``strict:
true`` with the schema normalized into strict mode (not judged yet,
docs/accuracy.md "Verdicts to review").
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.conformance.context import ConversionCheck, PayloadUnderTest, RoundTripCheck
from toolwire.conformance.fidelity import pairwise
from toolwire.conformance.fidelity.function_tools import function_tools
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.json_values import first_json_difference, json_equal
from toolwire.conformance.readings.schema_meaning import parameters_meaning
from toolwire.conformance.readings.views import call_refs, from_qwen_markup, pair_up, short
from toolwire.conformance.rule import means, rule
from toolwire.conformance.sources import ANTHROPIC_TOOLS, OPENAI_TOOLS, RESPONSES_FUNCTION_TOOL
from toolwire.harness.model import ANTHROPIC_MESSAGES, OPENAI_RESPONSES, ToolDef

TOOL_DEFINITIONS = rule(
    "fidelity.tool_definitions",
    "MUST",
    "conversion roundtrip",
    "Tool names, descriptions and parameter schemas survive conversion.",
    OPENAI_TOOLS,
    ANTHROPIC_TOOLS,
    evidence=(
        means(OPENAI_TOOLS, "name, description, parameters (JSON Schema) and strict define a tool"),
        means(ANTHROPIC_TOOLS, "name, description, input_schema (JSON Schema) define a tool"),
        means(
            OPENAI_TOOLS,
            "if you omit strict, Responses normalizes the schema into strict mode (optional "
            "fields required) while Chat Completions stays non-strict; strict: false opts out",
        ),
        means(
            RESPONSES_FUNCTION_TOOL,
            "Responses function tool strict: whether to enforce strict parameter "
            "validation, default true",
        ),
    ),
    fix=(
        "Copy each tool's name, description and full JSON Schema (`parameters` <-> "
        "`input_schema`), keywords included (`enum`, `$defs`, `anyOf`, bounds, `format`, "
        "`additionalProperties`), and `strict` where the target has it."
    ),
)


def _tools_path(payload: PayloadUnderTest, index: int) -> str:
    conversation = payload.conversation
    assert conversation is not None
    tool = function_tools(conversation)[index]
    position = (conversation.tools or ()).index(tool)
    return (
        f"tools[{position}]"
        if payload.dialect in (ANTHROPIC_MESSAGES, OPENAI_RESPONSES)  # flat tools
        else (f"tools[{position}].function")
    )


def check_tool_definitions(
    source: PayloadUnderTest,
    output: PayloadUnderTest,
    id_mapping: Mapping[str, str] | None = None,
) -> list[Finding] | None:
    source_tools = function_tools(source.conversation)
    output_tools = function_tools(output.conversation)
    source_calls = call_refs(source)
    if not source_tools and not output_tools and not source_calls:
        return None
    found = []
    pairs = pair_up([t.name for t in source_tools], [t.name for t in output_tools])
    responses_default = output.dialect == OPENAI_RESPONSES and source.dialect != OPENAI_RESPONSES
    for i, j in pairs:
        found.extend(_compare_tool(source_tools[i], output_tools[j], output, j, responses_default))
    matched_source, matched_output = {i for i, _ in pairs}, {j for _, j in pairs}
    for i, tool in enumerate(source_tools):
        if i not in matched_source:
            found.append(
                finding(
                    "fidelity.tool_definitions",
                    f"the tool {tool.name!r} is missing from the output's tools",
                    "tools",
                    expected=tool.name,
                    actual=[t.name for t in output_tools],
                )
            )
    for j, tool in enumerate(output_tools):
        if j not in matched_output:
            found.append(
                finding(
                    "fidelity.tool_definitions",
                    f"the output offers a tool {tool.name!r} the source did not define",
                    _tools_path(output, j),
                    expected=[t.name for t in source_tools],
                    actual=tool.name,
                )
            )
    if not from_qwen_markup(source):
        # Qwen XML calls carry no id and pair by position, so a reorder would read
        # as a rename: the xml.* rules judge those calls (xml.call_order).
        found.extend(_compare_call_names(source, output, id_mapping))
    return found


def _strict(value: bool | None, meaning: bool) -> str:
    """What a tool's ``strict`` says, as the diff shows it: an unset one is
    None on the wire, read as strict or not."""
    if value is None:
        return f"not set ({'strict' if meaning else 'not strict'})"
    return str(value)


def _compare_tool(
    source: ToolDef,
    output: ToolDef,
    payload: PayloadUnderTest,
    index: int,
    responses_default: bool = False,
) -> list[Finding]:
    """``output`` is the ``index``-th function tool of ``payload``; with
    ``responses_default``, an output tool without ``strict`` is strict."""
    renamed = source.name != output.name
    redescribed = (source.description or "") != (output.description or "")
    was = bool(source.strict)
    # Only a Responses output from another dialect reads the Responses default
    # (see the module docstring); elsewhere a missing strict is false.
    defaulted = responses_default and output.strict is None
    now = True if defaulted else bool(output.strict)
    restricted = was != now
    before, after = parameters_meaning(source.parameters), parameters_meaning(output.parameters)
    reshaped = not json_equal(before, after)
    if not (renamed or redescribed or restricted or reshaped):
        return []  # the usual case: no path to build
    path = _tools_path(payload, index)
    found = []
    if renamed:
        found.append(
            finding(
                "fidelity.tool_definitions",
                f"the tool {source.name!r} is called {output.name!r} in the output at {path}",
                f"{path}.name",
                expected=source.name,
                actual=output.name,
            )
        )
    if redescribed:
        found.append(
            finding(
                "fidelity.tool_definitions",
                f"the description of {source.name!r} at {path} changed: "
                f"{short(source.description or '')} became {short(output.description or '')}",
                f"{path}.description",
                expected=source.description,
                actual=output.description,
            )
        )
    if restricted:
        why = " (a Responses tool without strict is strict; strict: false opts out)"
        why = why if defaulted else ""
        found.append(
            finding(
                "fidelity.tool_definitions",
                f"strict mode of {source.name!r} at {path} was {_strict(source.strict, was)} "
                f"in the source and is {_strict(output.strict, now)} in the output{why}",
                f"{path}.strict",
                expected=source.strict,
                actual=output.strict,
            )
        )
    if reshaped:
        # Compared in normal form, so the diff shows what changed in meaning,
        # not an added empty $defs or a reordered key beside it.
        found.append(
            finding(
                "fidelity.tool_definitions",
                f"the parameter schema of {source.name!r} at {path} differs in meaning from "
                f"the source's: {first_json_difference(before, after)}",
                path,
                expected=before,
                actual=after,
            )
        )
    return found


def _compare_call_names(
    source: PayloadUnderTest, output: PayloadUnderTest, id_mapping: Mapping[str, str] | None
) -> list[Finding]:
    source_calls, output_calls = call_refs(source), call_refs(output)
    pairs = pair_up(
        [r.call.id for r in source_calls], [r.call.id for r in output_calls], id_mapping
    )
    return [
        finding(
            "fidelity.tool_definitions",
            f"the call at {output_calls[j].path} names {output_calls[j].call.name!r}, but the "
            f"source call at {source_calls[i].path} named {source_calls[i].call.name!r}",
            output_calls[j].path,
            expected=source_calls[i].call.name,
            actual=output_calls[j].call.name,
        )
        for i, j in pairs
        if source_calls[i].call.name != output_calls[j].call.name
    ]


CONVERSION_CHECKS: dict[str, ConversionCheck] = {
    "fidelity.tool_definitions": pairwise.not_for_streams(
        pairwise.conversion_with_ids(check_tool_definitions)
    ),
}
ROUNDTRIP_CHECKS: dict[str, RoundTripCheck] = {
    "fidelity.tool_definitions": pairwise.roundtrip_not_for_streams(
        pairwise.roundtrip_with_ids(check_tool_definitions)
    ),
}
