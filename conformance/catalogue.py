"""The rule catalogue: every rule's permanent code, level, scope and sources.

Codes are permanent: a retired rule keeps its code forever and a new rule
never reuses one. A rule's level may depend on the target profile (WIRE.md
section 2); ``level_for`` resolves it, and a verdict is never more severe than
the documentation of its profile supports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from toolwire.conformance.profiles import PROFILES, Profile

Level: TypeAlias = Literal["MUST", "SHOULD"]
# Where a rule looks: one payload on its own (a payload given to `toolwire
# lint`, or an adapter's output in a run), a conversion (the adapter's output
# compared with its source), a round trip A->B->A, or a multi-request
# conversation (what came back in request n+1).
Scope: TypeAlias = Literal["payload", "conversion", "roundtrip", "replay"]

FAMILIES = ("pairing", "ordering", "fidelity", "reasoning", "xml", "stream", "replay", "schema")

OPENAI_DOCS = "https://platform.openai.com/docs/api-reference/chat/create"
OPENAI_TOOLS = "https://platform.openai.com/docs/guides/function-calling"
OPENAI_STREAM = "https://platform.openai.com/docs/api-reference/chat-streaming"
ANTHROPIC_DOCS = "https://docs.anthropic.com/en/api/messages"
ANTHROPIC_TOOLS = "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use"
ANTHROPIC_THINKING = "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
ANTHROPIC_STREAM = "https://docs.anthropic.com/en/docs/build-with-claude/streaming"
DEEPSEEK_THINKING = "https://api-docs.deepseek.com/guides/thinking_mode"
DEEPSEEK_REASONER = "https://api-docs.deepseek.com/guides/reasoning_model"
QWEN_CODER = "https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct"
OPENAI_CHUNK = "https://platform.openai.com/docs/api-reference/chat-streaming/streaming"
OPENAI_PYTHON_STREAM_HELPER = "https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/chat/_completions.py"
ANTHROPIC_STOP_REASONS = "https://docs.anthropic.com/en/api/handling-stop-reasons"
# The official Go SDK's ChatCompletionAccumulator: refuses a chunk whose id is
# not the stream's, and places each call fragment at tool_calls[index].
OPENAI_GO_ACCUMULATOR = "https://github.com/openai/openai-go/blob/main/streamaccumulator.go"
ANTHROPIC_PARALLEL = (
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/parallel-tool-use"
)
# Anthropic's maintainers on what the signature check rejects (edited, reordered,
# merged thinking blocks, or blocks another model produced), with the recorded 400s.
ANTHROPIC_SIGNATURE_400 = "https://github.com/anthropics/anthropic-sdk-python/issues/1598"
GEMINI_FUNCTION_CALLING = "https://ai.google.dev/gemini-api/docs/function-calling"
GEMINI_THOUGHT_SIGNATURES = "https://ai.google.dev/gemini-api/docs/thought-signatures"
# Gemini 400 "the number of function response parts is equal to the number of
# function call parts of the function call turn" (gemini-2.5-pro).
GEMINI_RESPONSE_COUNT_400 = "https://github.com/google-gemini/gemini-cli/issues/4217"
# The OpenAI Responses API (openai-responses).
RESPONSES_DOCS = "https://platform.openai.com/docs/api-reference/responses/create"
RESPONSES_STREAM = "https://platform.openai.com/docs/api-reference/responses-streaming"
RESPONSES_REASONING = "https://platform.openai.com/docs/guides/reasoning"
# openai-python's ResponseStreamState: RuntimeError without response.created,
# for a content event before its output item, and without response.completed.
OPENAI_PYTHON_RESPONSES_STREAM = (
    "https://github.com/openai/openai-python/blob/main/src/openai/lib/streaming/responses/"
    "_responses.py"
)
# Recorded HTTP 400s of api.openai.com/v1/responses for a reasoning item
# replayed alone and a function_call replayed without its reasoning item.
RESPONSES_REASONING_ALONE_400 = "https://github.com/continuedev/continue/issues/8933"
RESPONSES_CALL_WITHOUT_REASONING_400 = "https://github.com/continuedev/continue/issues/10018"

# Every profile of the openai family, where a rule backed only by Anthropic's
# documentation is judged as a SHOULD.
SHOULD_ON_OPENAI_FAMILY: dict[str, Level | None] = {
    "openai": "SHOULD",
    "deepseek-thinking": "SHOULD",
    "deepseek-reasoner-legacy": "SHOULD",
    "qwen3-coder": "SHOULD",
    "openai-responses": "SHOULD",
}

ANTHROPIC = "anthropic-messages"
OPENAI_FAMILY = frozenset({"openai-chat", "deepseek-chat", "qwen-xml"})
ANY_DIALECT: frozenset[str] = frozenset()
# Dialects whose calls carry ids; Qwen XML calls have none (results link by order).
ID_DIALECTS = frozenset({"openai-chat", "anthropic-messages", "deepseek-chat", "openai-responses"})


@dataclass(frozen=True)
class Rule:
    code: str
    level: Level
    scopes: frozenset[Scope]
    statement: str
    docs: tuple[str, ...]
    # Dialects of the judged payload the rule applies to; empty means all.
    dialects: frozenset[str] = ANY_DIALECT
    # Per-profile levels; a profile mapped to None is out of the rule's scope.
    profile_levels: dict[str, Level | None] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return self.code.split(".", 1)[0]

    @property
    def anchor(self) -> str:
        """The rule's anchor in docs/rules/<family>.md (GitHub heading style)."""
        return self.code.replace(".", "").lower()

    @property
    def docs_link(self) -> str:
        return f"docs/rules/{self.family}.md#{self.anchor}"

    def applies_to_dialect(self, dialect: str) -> bool:
        return not self.dialects or dialect in self.dialects

    def level_for(self, profile: str | None) -> Level | None:
        """The rule's level under ``profile``; None when the profile puts it out of scope."""
        if profile is not None and profile in self.profile_levels:
            return self.profile_levels[profile]
        return self.level


def _rule(
    code: str,
    level: Level,
    scopes: str,
    statement: str,
    *docs: str,
    dialects: frozenset[str] = ANY_DIALECT,
    profile_levels: dict[str, Level | None] | None = None,
) -> Rule:
    return Rule(
        code=code,
        level=level,
        scopes=frozenset(scopes.split()),  # type: ignore[arg-type]
        statement=statement,
        docs=docs,
        dialects=dialects,
        profile_levels=profile_levels or {},
    )


_STRICT_ONLY: dict[str, Level | None] = {"anthropic-strict": "MUST", "anthropic": "SHOULD"}

RULES: tuple[Rule, ...] = (
    # pairing
    _rule(
        "pairing.call_id_missing",
        "MUST",
        "payload",
        "Every tool call carries a non-empty id.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
        # function_call.call_id and function_call_output.call_id are required.
        RESPONSES_DOCS,
        dialects=ID_DIALECTS,
    ),
    _rule(
        "pairing.call_id_duplicate",
        "MUST",
        "payload",
        "No two tool calls in a conversation share an id.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
        dialects=ID_DIALECTS,
    ),
    _rule(
        "pairing.orphan_result",
        "MUST",
        "payload",
        "Every tool result answers a call made in the assistant turn before it "
        "(gemini: by id where the response has one, else by name and order).",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
        GEMINI_RESPONSE_COUNT_400,
        RESPONSES_DOCS,
    ),
    _rule(
        "pairing.duplicate_result",
        "MUST",
        "payload",
        "No tool call is answered more than once.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
    ),
    _rule(
        "pairing.unanswered_call",
        "MUST",
        "payload conversion",
        "Every tool call is answered before the next assistant turn; "
        "only the last turn of a conversation may leave calls open, "
        "and a call the source answered stays answered, on the last turn too.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
        GEMINI_RESPONSE_COUNT_400,
        RESPONSES_DOCS,
    ),
    _rule(
        "pairing.id_changed",
        # SHOULD (docs/levels.md): no API rejects ids renamed consistently, and
        # a rename that breaks the pairing is pairing.orphan_result's and
        # pairing.unanswered_call's, which are MUST.
        "SHOULD",
        "conversion roundtrip",
        "Conversion keeps every tool call id and the result that references it, "
        "or maps ids through one consistent, reversible mapping the adapter declares.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
        dialects=ID_DIALECTS,
    ),
    _rule(
        "pairing.id_pattern",
        "MUST",
        "payload",
        "Tool call ids and tool names in the output are legal for the target dialect.",
        ANTHROPIC_DOCS,
        OPENAI_DOCS,
    ),
    # ordering
    _rule(
        "ordering.result_not_adjacent",
        "MUST",
        "payload",
        "Tool results sit in the message(s) right after the assistant turn that made the calls.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
        # No recorded Responses 400 for an item between a call and its output
        # (only for an output missing entirely: pairing.unanswered_call).
        profile_levels={"openai-responses": "SHOULD"},
    ),
    _rule(
        "ordering.result_after_text",
        "MUST",
        "payload",
        "In an anthropic-messages user message, tool_result blocks come before any other content.",
        ANTHROPIC_TOOLS,
        dialects=frozenset({ANTHROPIC}),
    ),
    _rule(
        "ordering.parallel_results_split",
        "MUST",
        "payload",
        "All tool results for one assistant turn travel in a single user message.",
        ANTHROPIC_TOOLS,
        dialects=frozenset({ANTHROPIC}),
        profile_levels=_STRICT_ONLY,
    ),
    _rule(
        "ordering.role_alternation",
        "MUST",
        "payload",
        "User and assistant messages alternate, starting with a user message.",
        ANTHROPIC_DOCS,
        dialects=frozenset({ANTHROPIC}),
        profile_levels=_STRICT_ONLY,
    ),
    _rule(
        "ordering.system_placement",
        "MUST",
        "payload",
        "In anthropic-messages a system prompt travels in the top-level system field, "
        "never as a system or developer message inside messages.",
        ANTHROPIC_DOCS,
        dialects=frozenset({ANTHROPIC}),
    ),
    _rule(
        "ordering.block_order",
        "SHOULD",
        "conversion roundtrip",
        "The order of text, thinking and tool calls inside a turn survives conversion "
        "wherever the target dialect can express it.",
        ANTHROPIC_DOCS,
        OPENAI_DOCS,
    ),
    _rule(
        "ordering.result_order",
        "SHOULD",
        "payload",
        "Tool results follow the order of the calls they answer.",
        ANTHROPIC_TOOLS,
        OPENAI_TOOLS,
    ),
    _rule(
        "ordering.parallel_calls_split",
        "SHOULD",
        "conversion roundtrip",
        "The tool calls of one assistant turn stay in one assistant turn: calls spread "
        "over several turns read as dependent calls made one after another.",
        ANTHROPIC_PARALLEL,
        OPENAI_TOOLS,
    ),
    # fidelity
    _rule(
        "fidelity.arguments",
        "MUST",
        "payload conversion roundtrip",
        "Tool call arguments arrive as the same JSON object: not double-encoded, not left "
        "as a string, Unicode and numbers intact.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
    ),
    _rule(
        "fidelity.text",
        "MUST",
        "conversion roundtrip",
        "Every piece of visible text survives conversion unchanged.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
    ),
    _rule(
        "fidelity.error_flag",
        "MUST",
        "conversion roundtrip",
        "A failed tool result stays marked as failed: is_error survives, or is carried "
        "by a documented convention where the target has no flag.",
        ANTHROPIC_TOOLS,
        # openai-family targets have no error field: the flag travels only by
        # toolwire's own convention (docs/conventions.md), so losing it there
        # is a SHOULD; where anthropic's documented is_error exists, a MUST.
        profile_levels=dict(SHOULD_ON_OPENAI_FAMILY),
    ),
    _rule(
        "fidelity.tool_definitions",
        "MUST",
        "conversion roundtrip",
        "Tool names, descriptions and parameter schemas survive conversion.",
        OPENAI_TOOLS,
        ANTHROPIC_TOOLS,
    ),
    _rule(
        "fidelity.tool_choice",
        "MUST",
        "conversion roundtrip",
        "tool_choice and the parallel-call setting keep their meaning in the target dialect.",
        OPENAI_DOCS,
        ANTHROPIC_TOOLS,
    ),
    _rule(
        "fidelity.stop_reason",
        "MUST",
        "conversion roundtrip",
        "The stop reason maps to its equivalent: end_turn<->stop, tool_use<->tool_calls, "
        "max_tokens<->length, stop_sequence<->stop.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
    ),
    _rule(
        "fidelity.stop_reason_content",
        "MUST",
        "payload",
        "A response's stop reason agrees with its content: tool_use / tool_calls only with a "
        "tool call, and an anthropic-messages end_turn never beside a tool_use block.",
        ANTHROPIC_STOP_REASONS,
        ANTHROPIC_TOOLS,
        OPENAI_DOCS,
        dialects=frozenset({ANTHROPIC, "openai-chat", "deepseek-chat"}),
    ),
    _rule(
        "fidelity.empty_text_added",
        "SHOULD",
        "conversion",
        "A response converted to anthropic-messages holds no empty text block the source "
        "did not carry (Anthropic refuses one when the turn is sent back).",
        ANTHROPIC_DOCS,
        "https://github.com/anthropics/claude-code/issues/88536",
        dialects=frozenset({ANTHROPIC}),
    ),
    _rule(
        "fidelity.usage",
        "SHOULD",
        "conversion roundtrip",
        "Token usage (input and output tokens) survives conversion.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
    ),
    _rule(
        "fidelity.empty_content",
        "MUST",
        "payload",
        "No empty text blocks are sent to anthropic-messages, and null versus empty "
        "content is carried the way the target dialect expects.",
        ANTHROPIC_DOCS,
        OPENAI_DOCS,
    ),
    _rule(
        "fidelity.roundtrip",
        "MUST",
        "roundtrip",
        "Converting A to B and back gives A again, up to the normalisations the rules name.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
    ),
    # reasoning
    _rule(
        "reasoning.replay_missing",
        "MUST",
        "payload conversion",
        "Under DeepSeek thinking mode, every assistant message of a stretch with tool calls "
        "is sent back with its reasoning_content in later requests.",
        DEEPSEEK_THINKING,
        dialects=frozenset({"deepseek-chat"}),
        profile_levels={
            "deepseek-thinking": "MUST",
            "deepseek-reasoner-legacy": None,
            "openai": None,
        },
    ),
    _rule(
        "reasoning.replay_forbidden",
        "MUST",
        "payload",
        "For the legacy deepseek-reasoner, no reasoning_content is sent back in the input.",
        DEEPSEEK_REASONER,
        dialects=frozenset({"deepseek-chat"}),
        profile_levels={"deepseek-reasoner-legacy": "MUST", "deepseek-thinking": None},
    ),
    _rule(
        "reasoning.altered",
        "MUST",
        "conversion roundtrip",
        "Replayed reasoning is the real text returned: not summarised, regenerated or "
        "replaced by a placeholder.",
        DEEPSEEK_THINKING,
        ANTHROPIC_THINKING,
    ),
    _rule(
        "reasoning.signature_lost",
        "MUST",
        "conversion roundtrip",
        "Thinking signatures and redacted_thinking data come back unchanged.",
        ANTHROPIC_THINKING,
    ),
    _rule(
        "reasoning.call_signature_lost",
        "MUST",
        "conversion roundtrip",
        "A Gemini function call's thoughtSignature comes back on the same call, as the same "
        "bytes, wherever Gemini 3 checks it (the current turn).",
        GEMINI_THOUGHT_SIGNATURES,
        dialects=frozenset({"gemini"}),
    ),
    _rule(
        "reasoning.position",
        "MUST",
        "payload",
        "Thinking blocks come first in the assistant content.",
        ANTHROPIC_THINKING,
        dialects=frozenset({ANTHROPIC}),
    ),
    _rule(
        "reasoning.item_unfollowed",
        "MUST",
        "payload",
        "In an openai-responses request every reasoning item is followed, in its turn, by "
        "the message or function_call item it preceded.",
        RESPONSES_REASONING,
        RESPONSES_REASONING_ALONE_400,
        dialects=frozenset({"openai-responses"}),
    ),
    _rule(
        "reasoning.item_separated",
        "MUST",
        "conversion roundtrip",
        "A function_call replayed to the Responses API with its item id keeps, before it in "
        "its turn, the reasoning items that preceded it in the source.",
        RESPONSES_REASONING,
        RESPONSES_CALL_WITHOUT_REASONING_400,
        dialects=frozenset({"openai-responses"}),
    ),
    _rule(
        "reasoning.dropped",
        "MUST",
        "conversion",
        "The reasoning of a response that makes tool calls reaches the converted response or "
        "stream, so that the client can send it back as DeepSeek thinking mode and Anthropic "
        "extended thinking require.",
        DEEPSEEK_THINKING,
        ANTHROPIC_THINKING,
        dialects=frozenset({ANTHROPIC, "deepseek-chat"}),
        profile_levels={"deepseek-reasoner-legacy": None},
    ),
    _rule(
        "reasoning.not_carried",
        "SHOULD",
        "conversion",
        "Reasoning a response carries reaches the converted response or stream where nothing "
        "requires it back (a final answer, a target without a documented reasoning field): "
        "losing it hides what the model returned.",
        DEEPSEEK_THINKING,
        ANTHROPIC_THINKING,
    ),
    _rule(
        "reasoning.invented",
        "MUST",
        "conversion",
        "The output carries no reasoning where the source carried none: no placeholder or "
        "made-up reasoning text, no redacted_thinking block of its own.",
        ANTHROPIC_THINKING,
        ANTHROPIC_SIGNATURE_400,
        DEEPSEEK_THINKING,
        # Anthropic rejects thinking blocks it did not produce; the openai family
        # documents no rejection, so there it is a SHOULD.
        profile_levels=dict(SHOULD_ON_OPENAI_FAMILY),
    ),
    _rule(
        "reasoning.signature_invented",
        "MUST",
        "conversion roundtrip",
        "Every thinking signature and redacted_thinking data in the output is one the source "
        "carried, on the same block in the same order; an empty signature on reasoning that "
        "had none is the documented convention.",
        ANTHROPIC_THINKING,
        ANTHROPIC_SIGNATURE_400,
        dialects=frozenset({ANTHROPIC}),
    ),
    # xml
    _rule(
        "xml.call_not_parsed",
        "MUST",
        "conversion",
        "Every well-formed Qwen XML tool call becomes a structured tool call; none is left "
        "in the text.",
        QWEN_CODER,
    ),
    _rule(
        "xml.parameter_type",
        "MUST",
        "conversion",
        "Each XML parameter value is converted by the type in the tool's JSON Schema.",
        QWEN_CODER,
    ),
    _rule(
        "xml.text_preserved",
        "MUST",
        "conversion",
        "Text before the calls is kept and the markup removed.",
        QWEN_CODER,
    ),
    _rule(
        "xml.call_order",
        "MUST",
        "conversion",
        "Several XML calls become structured calls in the order written.",
        QWEN_CODER,
    ),
    _rule(
        "xml.malformed_executed",
        "MUST",
        "conversion",
        "A malformed XML call is never turned into an executable call with partial arguments.",
        QWEN_CODER,
    ),
    _rule(
        "xml.stream_equivalence",
        "MUST",
        "conversion",
        "A streamed XML output gives the same calls and text as the same output in one piece.",
        QWEN_CODER,
    ),
    # stream
    _rule(
        "stream.reassembly",
        "MUST",
        "conversion",
        "The reassembled streamed message equals the message the stream carries.",
        OPENAI_STREAM,
        ANTHROPIC_STREAM,
    ),
    _rule(
        "stream.index_collision",
        "MUST",
        "payload",
        "Parallel streamed calls keep distinct indices; arguments never merge across calls.",
        OPENAI_STREAM,
        ANTHROPIC_STREAM,
    ),
    _rule(
        "stream.event_order",
        "MUST",
        "payload",
        "Stream events follow the dialect's grammar.",
        OPENAI_STREAM,
        ANTHROPIC_STREAM,
        RESPONSES_STREAM,
        OPENAI_PYTHON_RESPONSES_STREAM,
    ),
    _rule(
        "stream.item_reference",
        # SHOULD: openai-python tolerates these; resuming by sequence_number
        # and clients that find items by id do not.
        "SHOULD",
        "payload",
        "An openai-responses stream numbers its events with increasing sequence_number "
        "values, names each item by the item_id of its output_index, opens each output_index "
        "once and sends nothing after its terminal event.",
        RESPONSES_STREAM,
        OPENAI_PYTHON_RESPONSES_STREAM,
        dialects=frozenset({"openai-responses"}),
    ),
    _rule(
        "stream.done_consistent",
        # SHOULD: no client rejects it, but deltas and the final Response then
        # say two different things.
        "SHOULD",
        "payload",
        "The .done events, output_item.done and the final Response of an openai-responses "
        "stream state the text and arguments their deltas built.",
        RESPONSES_STREAM,
        OPENAI_PYTHON_RESPONSES_STREAM,
        dialects=frozenset({"openai-responses"}),
    ),
    _rule(
        "stream.partial_json",
        "MUST",
        "payload",
        "The argument fragments of each streamed call join to valid JSON.",
        OPENAI_STREAM,
        ANTHROPIC_STREAM,
    ),
    _rule(
        "stream.chunk_id",
        "MUST",
        "payload",
        "Every chunk of one openai-chat stream carries the same id.",
        # The chunk object reference: "Each chunk has the same ID."
        OPENAI_CHUNK,
        OPENAI_GO_ACCUMULATOR,
        dialects=frozenset({"openai-chat", "deepseek-chat"}),
    ),
    _rule(
        "stream.call_index",
        "MUST",
        "payload",
        "The streamed tool calls of an openai-chat choice take indices 0, 1, 2, ... in the "
        "order they start.",
        OPENAI_CHUNK,
        # The official SDK places each fragment with tool_calls[index] and fails on a gap.
        OPENAI_PYTHON_STREAM_HELPER,
        OPENAI_GO_ACCUMULATOR,
        dialects=frozenset({"openai-chat", "deepseek-chat"}),
    ),
    # replay
    _rule(
        "replay.assistant_altered",
        "MUST",
        "replay",
        "The assistant turn sent back in request n+1 equals what response n returned: ids, "
        "text, thinking with signature, reasoning_content.",
        ANTHROPIC_THINKING,
        DEEPSEEK_THINKING,
        OPENAI_TOOLS,
    ),
    # schema
    _rule(
        "schema.request",
        "MUST",
        "payload",
        "Every request validates against its dialect's JSON Schema.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
        DEEPSEEK_THINKING,
    ),
    _rule(
        "schema.gemini_parameters",
        "MUST",
        "payload",
        "A Gemini functionDeclarations[].parameters schema uses only the fields of Gemini's "
        "Schema object (JSON Schema goes under parametersJsonSchema).",
        "https://ai.google.dev/api/caching#Schema",
        "https://github.com/BerriAI/litellm/issues/14330",
        dialects=frozenset({"gemini"}),
    ),
    _rule(
        "schema.response",
        "MUST",
        "payload",
        "Every response and stream event validates against its dialect's JSON Schema.",
        OPENAI_DOCS,
        ANTHROPIC_DOCS,
        DEEPSEEK_THINKING,
    ),
)

RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
RULE_CODES: tuple[str, ...] = tuple(rule.code for rule in RULES)


def get_rule(code: str) -> Rule:
    return RULES_BY_CODE[code]


def rules_in_family(family: str) -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if rule.family == family)


def profile(name: str) -> Profile:
    return PROFILES[name]
