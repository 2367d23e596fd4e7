"""Request-level fidelity: tool definitions, tool choice, empty content.

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

fidelity.tool_choice compares the neutral mode (Anthropic ``any`` is OpenAI
``required``), the named tool, the tools a restricted choice lets the model
call (OpenAI ``allowed_tools``; Gemini ``allowedFunctionNames`` beside ANY,
which is ``required`` among them, or VALIDATED, which is ``auto`` among them:
``toolwire.conformance.readings.allowed_tools``; ``required`` among one tool is that
tool, a restriction to every offered tool is none), and whether parallel calls are allowed
(OpenAI ``parallel_tool_calls``, Anthropic
``tool_choice.disable_parallel_tool_use``); unset means the documented
default (``auto`` when tools are offered; parallel calls allowed).

fidelity.empty_content judges what is sent to anthropic-messages: a text
block must be non-empty ("text content blocks must be non-empty"), and every
message but a final assistant one needs content (the API's 400 "all messages
must have non-empty content except for the optional final assistant
message", e.g. anthropics/claude-code#3196). Whitespace-only text is accepted
(a real accepted request replays ``" "``). Responses are not judged: an empty
text block an API returns is not a converter's doing, and it is judged when a
client sends it back. The openai family documents ``content`` as optional
beside ``tool_calls`` and real responses carry both ``null`` and ``""``
there, so no form of empty content is a finding in an openai-family payload.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolwire.conformance.context import PayloadUnderTest
from toolwire.conformance.fidelity.arguments import first_json_difference, json_equal
from toolwire.conformance.findings import Finding, finding
from toolwire.conformance.readings.allowed_tools import (
    Restriction,
    allowed_finding,
    as_plain,
    offered,
    restriction,
)
from toolwire.conformance.readings.paths import block_path, turn_path
from toolwire.conformance.readings.schema_meaning import parameters_meaning
from toolwire.conformance.readings.timeline import result_sites
from toolwire.conformance.readings.views import call_refs, from_qwen_markup, pair_up, short
from toolwire.conformance.rule import means, rejected, rule
from toolwire.conformance.sources import (
    ANTHROPIC_DOCS,
    ANTHROPIC_TOOLS,
    GEMINI_FUNCTION_CALLING,
    OPENAI_DOCS,
    OPENAI_TOOLS,
    RESPONSES_FUNCTION_TOOL,
)
from toolwire.harness.model import (
    ANTHROPIC_MESSAGES,
    OPENAI_RESPONSES,
    Conversation,
    TextBlock,
    ToolDef,
    ToolResult,
)

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


TOOL_CHOICE = rule(
    "fidelity.tool_choice",
    "MUST",
    "conversion roundtrip",
    "tool_choice and the parallel-call setting keep their meaning in the target dialect.",
    OPENAI_DOCS,
    ANTHROPIC_TOOLS,
    evidence=(
        means(OPENAI_DOCS, "tool_choice none/auto/required/named and parallel_tool_calls"),
        means(ANTHROPIC_TOOLS, "tool_choice auto/any/tool/none and disable_parallel_tool_use"),
        means(OPENAI_DOCS, "tool_choice allowed_tools: the tools the model may call"),
        means(GEMINI_FUNCTION_CALLING, "functionCallingConfig mode and allowedFunctionNames"),
    ),
    fix=(
        "Translate tool_choice by meaning: auto<->auto, required<->any, a named function "
        "<->`{type: tool, name}`, none<->none; `parallel_tool_calls: false` <-> "
        "`disable_parallel_tool_use: true`. Set no restriction the source did not have. A "
        "choice restricted to some tools (OpenAI `allowed_tools`; Gemini "
        "`allowedFunctionNames` with ANY, i.e. required, or VALIDATED, i.e. auto) keeps its "
        "tools and its mode, or is declined where the target cannot say it."
    ),
)


EMPTY_CONTENT = rule(
    "fidelity.empty_content",
    "MUST",
    "payload",
    "No empty text blocks are sent to anthropic-messages, and null versus empty "
    "content is carried the way the target dialect expects.",
    ANTHROPIC_DOCS,
    OPENAI_DOCS,
    evidence=(
        rejected(
            "https://github.com/anthropics/claude-code/issues/59812",
            'Anthropic 400 "messages: text content blocks must be non-empty"',
        ),
        rejected(
            "https://github.com/anthropics/claude-code/issues/3196",
            'Anthropic 400 "all messages must have non-empty content except for the '
            'optional final assistant message"',
        ),
    ),
    fix=(
        "Leave out empty text blocks toward anthropic-messages (write no block, or only the "
        'tool_use blocks), and write `content: null` or `""` as the target dialect expects.'
    ),
    convention=(
        "Content forms",
        'openai-chat writes `content: null` on a turn with calls only, deepseek-chat `""`.',
    ),
)


def _function_tools(conversation: Conversation | None) -> list[ToolDef]:
    if conversation is None:
        return []
    return [tool for tool in conversation.tools or () if tool.kind == "function"]


def _tools_path(payload: PayloadUnderTest, index: int) -> str:
    conversation = payload.conversation
    assert conversation is not None
    tool = _function_tools(conversation)[index]
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
    source_tools = _function_tools(source.conversation)
    output_tools = _function_tools(output.conversation)
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
                f"strict mode of {source.name!r} at {path} was {was} in the "
                f"source and is {now} in the output{why}",
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


def _effective_choice(conversation: Conversation) -> tuple[str, str | None, bool] | None:
    """(mode, tool name, parallel allowed); None when the choice is a value
    the neutral model does not read (it stays in ``extra``). A restriction
    reads as its mode (``allowed_finding`` compares which tools it allows)."""
    choice = conversation.tool_choice
    kept = restriction(conversation)
    if kept is not None:
        mode, name = _restricted_mode(kept, offered(conversation))
    elif choice is None and "tool_choice" in conversation.extra:
        return None
    elif choice is None:
        mode, name = ("auto" if _function_tools(conversation) else "none"), None
    else:
        mode, name = choice.mode, choice.name
    parallel = conversation.parallel_tool_calls is not False
    return mode, name, parallel


def _restricted_mode(kept: Restriction, tools: frozenset[str]) -> tuple[str, str | None]:
    # "required" among one tool forces that tool, as a named choice does
    # (the reference reduces a restriction with the same as_plain).
    plain = as_plain(kept, tools)
    return (kept.mode, None) if plain is None else (plain.mode, plain.name)


def check_tool_choice(source: PayloadUnderTest, output: PayloadUnderTest) -> list[Finding] | None:
    before, after = source.conversation, output.conversation
    if before is None or after is None:
        return None
    said = before.tool_choice is not None or before.parallel_tool_calls is not None
    if not said and not _function_tools(before):
        return None  # no tools and no choice: nothing to keep
    expected, actual = _effective_choice(before), _effective_choice(after)
    if expected is None or actual is None:
        return None  # a choice outside the documented set: nothing to compare with
    found = []
    if expected[:2] == actual[:2]:
        narrowed = allowed_finding(before, after, expected[0])
        found.extend([narrowed] if narrowed is not None else [])
    else:
        found.append(
            finding(
                "fidelity.tool_choice",
                f"tool_choice was {_describe(expected)} in the source, but the output says "
                f"{_describe(actual)}",
                "tool_choice",
                expected=_describe(expected),
                actual=_describe(actual),
            )
        )
    if expected[2] != actual[2] and "none" not in (expected[0], actual[0]):
        where = (
            "parallel_tool_calls"
            if output.dialect != ANTHROPIC_MESSAGES
            else ("tool_choice.disable_parallel_tool_use")
        )
        state = "allowed" if expected[2] else "disabled"
        # Unset means the documented default (parallel calls allowed): say so,
        # rather than show a value the output never wrote.
        output_says = _describe_parallel(after.parallel_tool_calls, output.dialect)
        found.append(
            finding(
                "fidelity.tool_choice",
                f"parallel tool calls were {state} in the source, but not in the output "
                f"({where} {output_says})",
                where,
                expected="disabled" if not expected[2] else "allowed",
                actual=f"allowed ({where} {output_says})" if actual[2] else "disabled",
            )
        )
    return found


def _describe_parallel(value: bool | None, dialect: str) -> str:
    if value is None:
        return "is absent, and the default allows them"
    if dialect == ANTHROPIC_MESSAGES:
        return f"is {'false' if value else 'true'}"
    return f"is {'true' if value else 'false'}"


def _describe(choice: tuple[str, str | None, bool]) -> str:
    mode, name, _ = choice
    return f"{mode} {name!r}" if name else mode


def check_empty_content(payload: PayloadUnderTest) -> list[Finding] | None:
    conversation = payload.conversation
    if payload.dialect != ANTHROPIC_MESSAGES or conversation is None:
        return None
    found = [
        finding(
            "fidelity.empty_content",
            f"the text block at {path} is empty; anthropic-messages rejects empty text blocks",
            path,
            expected="non-empty text",
            actual="",
        )
        for path in _empty_text_blocks(conversation)
    ]
    found.extend(_empty_error_results(conversation))
    last = len(conversation.turns) - 1
    for index, turn in enumerate(conversation.turns):
        # A null or missing content is a schema violation (schema.request).
        if turn.content_form not in ("string", "blocks"):
            continue
        empty_string = turn.content_form == "string" and turn.text == ""
        if (turn.blocks and not empty_string) or (index == last and turn.role == "assistant"):
            continue
        found.append(
            finding(
                "fidelity.empty_content",
                f"{turn_path(index)} ({turn.role}) has empty content; every message but a "
                "final assistant message needs content",
                f"{turn_path(index)}.content",
                expected="at least one content block",
                actual="" if empty_string else [],
            )
        )
    return found


def _empty_error_results(conversation: Conversation) -> list[Finding]:
    """Anthropic answers 400 "content cannot be empty if `is_error` is true" to a
    failed tool_result with no content (reported:
    https://github.com/bytedance/trae-agent/issues/230,
    https://github.com/jlevy/markform/issues/153). An empty text block inside it
    is already an empty text block; this is the absent, "" or [] content."""
    found = []
    for site in result_sites(conversation):
        result = site.result
        if result.is_error is not True:
            continue
        if result.content_form == "string":
            empty = not result.content or not any(
                isinstance(b, TextBlock) and b.text for b in result.content
            )
        else:
            # Listed blocks: an empty text block among them is reported above.
            empty = not result.content
        if not empty:
            continue
        path = block_path(conversation, site.turn_index, site.block_index)
        found.append(
            finding(
                "fidelity.empty_content",
                f"the failed tool_result at {path} has no content; anthropic-messages rejects "
                "an is_error result without content (say what failed)",
                f"{path}.content",
                expected="a non-empty error message",
                actual=None if result.content_form == "absent" else "",
            )
        )
    return found


def _empty_text_blocks(conversation: Conversation) -> list[str]:
    paths = []
    if conversation.system_form == "blocks":
        paths += [
            f"system[{i}]"
            for i, block in enumerate(conversation.system)
            if isinstance(block, TextBlock) and block.text == ""
        ]
    for t, turn in enumerate(conversation.turns):
        if turn.content_form != "blocks":
            continue
        for b, block in enumerate(turn.blocks):
            if isinstance(block, TextBlock) and block.text == "":
                paths.append(block_path(conversation, t, b))
            elif isinstance(block, ToolResult) and block.content_form == "blocks":
                paths += [
                    f"{block_path(conversation, t, b)}.content[{k}]"
                    for k, inner in enumerate(block.content)
                    if isinstance(inner, TextBlock) and inner.text == ""
                ]
    return paths
