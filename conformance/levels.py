"""Why a rule is MUST: the evidence behind each MUST level (docs/levels.md).

A rule is MUST only where a provider's documentation requires the form, or a
real API rejected the payload, or (for a conversion only) both dialects
document a field with the same meaning, so that dropping or changing it sends
something else than the source said. Each MUST rule (at its base level or
under any profile) names that evidence here; tests/conformance/test_levels.py
fails on a MUST rule without it, and the rule pages show it.

Kinds:

* ``requirement``: the provider's documentation states the form as required;
* ``rejection``: a real API answered 400 to the payload, or, for what a server
  returns, the official SDK or the clients on it failed on it (a public report
  of the error, quoted in a few words);
* ``meaning``: both dialects document the field and what it carries; only
  for rules judged on a conversion, a round trip or a replay, never alone on
  one payload.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from toolwire.conformance.catalogue import (
    ANTHROPIC_DOCS,
    ANTHROPIC_STREAM,
    ANTHROPIC_THINKING,
    ANTHROPIC_TOOLS,
    DEEPSEEK_REASONER,
    DEEPSEEK_THINKING,
    GEMINI_FUNCTION_CALLING,
    GEMINI_RESPONSE_COUNT_400,
    GEMINI_THOUGHT_SIGNATURES,
    OPENAI_DOCS,
    OPENAI_STREAM,
    OPENAI_TOOLS,
    QWEN_CODER,
    RULES,
    Rule,
)

Kind: TypeAlias = Literal["requirement", "rejection", "meaning"]


@dataclass(frozen=True)
class Evidence:
    kind: Kind
    url: str
    says: str  # what the document says or what the API answered, in a few words


def _doc(url: str, says: str) -> Evidence:
    return Evidence("requirement", url, says)


def _rejected(url: str, says: str) -> Evidence:
    return Evidence("rejection", url, says)


def _means(url: str, says: str) -> Evidence:
    return Evidence("meaning", url, says)


_ORPHAN_OPENAI = "https://github.com/FoundationAgents/OpenManus/issues/744"
_ORPHAN_ANTHROPIC = "https://github.com/anthropics/claude-code/issues/13460"
_UNANSWERED_ANTHROPIC = "https://github.com/anthropics/claude-code/issues/1237"
_UNANSWERED_OPENAI = "https://github.com/microsoft/promptflow/pull/3130"
_SIGNATURE_REJECTED = "https://github.com/anthropics/anthropic-sdk-python/issues/1598"
_ANTHROPIC_STOP_REASONS = "https://docs.anthropic.com/en/api/handling-stop-reasons"
_OPENAI_CHUNK = "https://platform.openai.com/docs/api-reference/chat-streaming/streaming"
# The API reference's function tool (openai-python's FunctionToolParam.strict,
# generated from the same spec, says the same).
_RESPONSES_FUNCTION_TOOL = "https://platform.openai.com/docs/api-reference/responses/create"

MUST_EVIDENCE: dict[str, tuple[Evidence, ...]] = {
    "reasoning.call_signature_lost": (
        _doc(
            GEMINI_THOUGHT_SIGNATURES,
            "Gemini 3: thought signatures must be passed back during function calling, at the "
            "position received; a missing signature on the current turn's first function call "
            "of a step gives a 400 error",
        ),
    ),
    "pairing.call_id_missing": (
        _doc(OPENAI_DOCS, "tool_calls[].id is a required string of an assistant message"),
        _doc(ANTHROPIC_DOCS, "tool_use.id and tool_result.tool_use_id are required"),
        _doc(
            "https://platform.openai.com/docs/api-reference/responses/create",
            "function_call.call_id and function_call_output.call_id are required strings",
        ),
    ),
    "pairing.call_id_duplicate": (
        _rejected(
            "https://github.com/anthropics/claude-code/issues/21317",
            'Anthropic 400 "messages.1.content.1: `tool_use` ids must be unique"',
        ),
    ),
    "pairing.orphan_result": (
        _rejected(
            _ORPHAN_OPENAI,
            "OpenAI 400 \"Messages with role 'tool' must be a response to a preceding "
            "message with 'tool_calls'\"",
        ),
        _rejected(
            _ORPHAN_ANTHROPIC,
            'Anthropic 400 "unexpected `tool_use_id` found in `tool_result` blocks"',
        ),
        _rejected(
            GEMINI_RESPONSE_COUNT_400,
            'Gemini 400 "Please ensure that the number of function response parts is equal '
            'to the number of function call parts of the function call turn"',
        ),
        _rejected(
            "https://github.com/continuedev/continue/issues/10092",
            'OpenAI Responses 400 "No tool call found for function call output with call_id '
            'call_..."',
        ),
    ),
    "pairing.duplicate_result": (
        _rejected(
            "https://github.com/anthropics/claude-code/issues/14110",
            'Anthropic 400 "each tool_use must have a single result. Found multiple '
            '`tool_result` blocks"',
        ),
    ),
    "pairing.unanswered_call": (
        _rejected(
            GEMINI_RESPONSE_COUNT_400,
            'Gemini 400 "Please ensure that the number of function response parts is equal '
            'to the number of function call parts of the function call turn"',
        ),
        _rejected(
            _UNANSWERED_ANTHROPIC,
            'Anthropic 400 "`tool_use` ids were found without `tool_result` blocks '
            'immediately after"',
        ),
        _rejected(
            _UNANSWERED_OPENAI,
            "OpenAI 400 \"An assistant message with 'tool_calls' must be followed by tool "
            "messages responding to each 'tool_call_id'\"",
        ),
        _rejected(
            "https://github.com/openai/codex/issues/620",
            'OpenAI Responses 400 "No tool output found for function call call_..."',
        ),
    ),
    "pairing.id_pattern": (
        _doc(
            "https://ai.google.dev/api/caching#FunctionDeclaration",
            "Gemini function names: a-z, A-Z, 0-9, underscores, colons, dots and dashes, "
            "64 at most",
        ),
        _doc(ANTHROPIC_DOCS, "tool names match ^[a-zA-Z0-9_-]{1,64}$ (64 characters at most)"),
        _doc(OPENAI_DOCS, "function names: a-z, A-Z, 0-9, underscores and dashes, 64 at most"),
        _rejected(
            "https://github.com/anomalyco/opencode/issues/1279",
            "Anthropic 400 \"tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'\"",
        ),
    ),
    "ordering.result_not_adjacent": (
        _rejected(
            _UNANSWERED_OPENAI,
            "OpenAI 400: the assistant message with tool_calls must be followed by the "
            "tool messages answering it",
        ),
        _rejected(
            _UNANSWERED_ANTHROPIC,
            "Anthropic 400: each tool_use needs its tool_result in the next message",
        ),
    ),
    "ordering.result_after_text": (
        _doc(
            ANTHROPIC_TOOLS,
            "in the user message holding tool results, the tool_result blocks come first; "
            "text only after them (a 400 otherwise)",
        ),
    ),
    # MUST only under anthropic-strict: servers that do not merge same-role messages.
    "ordering.parallel_results_split": (
        _rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages": a '
            "server that does not merge same-role messages rejects them",
        ),
        _doc(ANTHROPIC_TOOLS, "all results of one assistant turn go in one user message"),
    ),
    "ordering.role_alternation": (
        _rejected(
            "https://github.com/deepseek-ai/DeepSeek-R1/issues/21",
            'DeepSeek 400 "does not support successive user or assistant messages"',
        ),
    ),
    "ordering.system_placement": (
        _rejected(
            "https://github.com/Maol-1997/cursor-claude-connector/issues/3",
            'Anthropic 400 "Unexpected role \\"system\\". The Messages API accepts a '
            'top-level `system` parameter"',
        ),
    ),
    "fidelity.arguments": (
        _doc(ANTHROPIC_DOCS, "tool_use.input is an object"),
        _doc(OPENAI_DOCS, "function.arguments is the arguments as JSON text"),
        _means(OPENAI_TOOLS, "the arguments are what the model generated for the call"),
        _means(ANTHROPIC_TOOLS, "input is what the model generated for the call"),
    ),
    "fidelity.text": (
        _means(OPENAI_DOCS, "message content is the text of the message"),
        _means(ANTHROPIC_DOCS, "text blocks are the text of the message"),
    ),
    "fidelity.error_flag": (
        _means(ANTHROPIC_TOOLS, "is_error: true marks a tool_result whose execution failed"),
    ),
    "fidelity.tool_definitions": (
        _means(
            OPENAI_TOOLS, "name, description, parameters (JSON Schema) and strict define a tool"
        ),
        _means(ANTHROPIC_TOOLS, "name, description, input_schema (JSON Schema) define a tool"),
        _means(
            OPENAI_TOOLS,
            "if you omit strict, Responses normalizes the schema into strict mode (optional "
            "fields required) while Chat Completions stays non-strict; strict: false opts out",
        ),
        _means(
            _RESPONSES_FUNCTION_TOOL,
            "Responses function tool strict: whether to enforce strict parameter "
            "validation, default true",
        ),
    ),
    "fidelity.tool_choice": (
        _means(OPENAI_DOCS, "tool_choice none/auto/required/named and parallel_tool_calls"),
        _means(ANTHROPIC_TOOLS, "tool_choice auto/any/tool/none and disable_parallel_tool_use"),
        _means(OPENAI_DOCS, "tool_choice allowed_tools: the tools the model may call"),
        _means(GEMINI_FUNCTION_CALLING, "functionCallingConfig mode and allowedFunctionNames"),
    ),
    "fidelity.stop_reason": (
        _means(OPENAI_DOCS, "finish_reason stop, length, tool_calls, content_filter"),
        _means(ANTHROPIC_DOCS, "stop_reason end_turn, max_tokens, stop_sequence, tool_use"),
    ),
    "fidelity.empty_content": (
        _rejected(
            "https://github.com/anthropics/claude-code/issues/59812",
            'Anthropic 400 "messages: text content blocks must be non-empty"',
        ),
        _rejected(
            "https://github.com/anthropics/claude-code/issues/3196",
            'Anthropic 400 "all messages must have non-empty content except for the '
            'optional final assistant message"',
        ),
    ),
    "fidelity.roundtrip": (
        _means(OPENAI_DOCS, "temperature, top_p, max tokens, stop and content parts"),
        _means(ANTHROPIC_DOCS, "temperature, top_p, max_tokens, stop_sequences, content blocks"),
    ),
    "reasoning.replay_missing": (
        _doc(
            DEEPSEEK_THINKING,
            "in thinking mode with tool calls, reasoning_content is passed back in later requests",
        ),
        _rejected(
            "https://github.com/anomalyco/opencode/issues/25356",
            'DeepSeek 400 "The reasoning_content in the thinking mode must be passed back to '
            'the API"',
        ),
    ),
    "reasoning.replay_forbidden": (
        _doc(
            DEEPSEEK_REASONER,
            "reasoning_content included in the input messages makes the API return 400",
        ),
    ),
    "reasoning.altered": (
        _doc(ANTHROPIC_THINKING, "thinking blocks are passed back unmodified"),
        _means(DEEPSEEK_THINKING, "reasoning_content is the model's own reasoning, passed back"),
    ),
    "reasoning.signature_lost": (
        _doc(ANTHROPIC_THINKING, "the signature of a thinking block is verified when sent back"),
        _rejected(
            "https://github.com/kaitranntt/ccs/issues/415",
            'Anthropic 400 "Invalid `signature` in `thinking` block" for an emptied signature',
        ),
    ),
    "reasoning.position": (
        _rejected(
            "https://github.com/anthropics/claude-code/issues/20705",
            'Anthropic 400 "If an assistant message contains any thinking blocks, the first '
            'block must be thinking or redacted_thinking. Found text."',
        ),
    ),
    "reasoning.item_unfollowed": (
        _rejected(
            "https://github.com/continuedev/continue/issues/8933",
            "api.openai.com/v1/responses 400 invalid_request_error \"Item 'rs_...' of type "
            "'reasoning' was provided without its required following item.\"",
        ),
    ),
    "reasoning.item_separated": (
        _rejected(
            "https://github.com/continuedev/continue/issues/10018",
            "api.openai.com/v1/responses 400 invalid_request_error \"Item 'fc_...' of type "
            "'function_call' was provided without its required 'reasoning' item: 'rs_...'.\"",
        ),
        _rejected(
            "https://github.com/cline/cline/issues/12242",
            "the same 400 for gpt-5.5 through cline's openai-native provider",
        ),
    ),
    "xml.call_not_parsed": (
        _means(QWEN_CODER, "Qwen3-Coder writes tool calls as <tool_call><function=...> XML"),
    ),
    "xml.parameter_type": (
        _means(QWEN_CODER, "Qwen's own parser converts each parameter by the tool's schema type"),
    ),
    "xml.text_preserved": (
        _means(QWEN_CODER, "text before <tool_call> is the message content; the markup is not"),
    ),
    "xml.call_order": (_means(QWEN_CODER, "several <tool_call> blocks are calls in that order"),),
    "xml.malformed_executed": (
        _means(QWEN_CODER, "only a complete <tool_call>...</tool_call> block is a call"),
    ),
    "xml.stream_equivalence": (
        _means(QWEN_CODER, "a streamed output is the same text as the output in one piece"),
    ),
    "stream.reassembly": (
        _means(OPENAI_STREAM, "the chunks' deltas join to the message of the completion"),
        _means(ANTHROPIC_STREAM, "the events' deltas build the message content"),
    ),
    "stream.index_collision": (
        _doc(OPENAI_STREAM, "tool_calls[].index identifies which call a delta belongs to"),
        _doc(ANTHROPIC_STREAM, "each content block has its own index in the events"),
    ),
    "stream.event_order": (
        _doc(
            ANTHROPIC_STREAM,
            "message_start, then per block start/delta/stop, then message_delta, message_stop",
        ),
        _doc(OPENAI_STREAM, "chat.completion.chunk objects, ended by data: [DONE]"),
    ),
    "stream.partial_json": (
        _doc(
            ANTHROPIC_STREAM,
            "input_json_delta partial_json strings join to the tool_use input JSON",
        ),
        _doc(OPENAI_STREAM, "function.arguments fragments join to the arguments JSON"),
    ),
    "replay.assistant_altered": (
        _doc(ANTHROPIC_THINKING, "thinking blocks go back unmodified with their signature"),
        _doc(DEEPSEEK_THINKING, "reasoning_content of tool-call turns goes back"),
        _means(OPENAI_TOOLS, "the assistant message with its tool_calls is sent back as returned"),
    ),
    "fidelity.stop_reason_content": (
        _doc(_ANTHROPIC_STOP_REASONS, "stop_reason tool_use: the response holds tools to run"),
        _doc(OPENAI_DOCS, "finish_reason tool_calls: the model called a tool"),
        _rejected(
            "https://github.com/vllm-project/vllm/issues/53255",
            'finish_reason "tool_calls" beside no call: the client takes the tool branch '
            "with nothing to run",
        ),
    ),
    "reasoning.dropped": (
        _doc(DEEPSEEK_THINKING, "reasoning_content of a tool-call turn is sent back, else 400"),
        _doc(ANTHROPIC_THINKING, "thinking blocks of a tool-use turn are passed back unmodified"),
    ),
    "reasoning.invented": (
        _rejected(
            _SIGNATURE_REJECTED,
            "Anthropic refuses thinking blocks it did not produce: invalid signature 400",
        ),
    ),
    "reasoning.signature_invented": (
        _rejected(
            _SIGNATURE_REJECTED,
            'Anthropic 400 "Invalid `signature` in `thinking` block" for foreign blocks',
        ),
    ),
    "stream.chunk_id": (_doc(_OPENAI_CHUNK, "chunk id: each chunk has the same ID"),),
    "stream.call_index": (
        _rejected(
            "https://github.com/marimo-team/marimo/pull/7356",
            "IndexError on an out-of-bounds streamed tool call index (OpenAI-compatible)",
        ),
    ),
    "schema.gemini_parameters": (
        _doc(
            "https://ai.google.dev/api/caching#Schema",
            "parameters is a Schema object: type, format, description, nullable, enum, "
            "properties, required, items, anyOf, ... and no other field",
        ),
        _rejected(
            "https://github.com/BerriAI/litellm/issues/14330",
            'Gemini 400 "Invalid JSON payload received. Unknown name "additionalProperties" '
            "at 'tools[0].function_declarations[0].parameters': Cannot find field\"",
        ),
    ),
    "schema.request": (
        _doc(OPENAI_DOCS, "the request body's fields and types"),
        _doc(ANTHROPIC_DOCS, "the request body's fields and types"),
        _doc(DEEPSEEK_THINKING, "the request body's fields in thinking mode"),
    ),
    "schema.response": (
        _doc(OPENAI_DOCS, "the response and chunk objects' fields and types"),
        _doc(ANTHROPIC_DOCS, "the response and event objects' fields and types"),
        _doc(DEEPSEEK_THINKING, "the response fields in thinking mode"),
    ),
}


def can_be_must(rule: Rule) -> bool:
    """Whether ``rule`` is MUST at its base level or under any profile."""
    return rule.level == "MUST" or "MUST" in rule.profile_levels.values()


def can_be_should(rule: Rule) -> bool:
    """Whether ``rule`` is SHOULD at its base level or under any profile."""
    return rule.level == "SHOULD" or "SHOULD" in rule.profile_levels.values()


def evidence_for(code: str) -> tuple[Evidence, ...]:
    return MUST_EVIDENCE.get(code, ())


def must_rules() -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if can_be_must(rule))
