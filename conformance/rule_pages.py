"""What a rule's page says beyond the catalogue: how to fix a failure, and
which convention of docs/conventions.md the rule accepts.

Keyed by rule code. Every code of the catalogue needs a ``FIXES`` entry
(tests/conformance/test_rule_pages.py fails on a code without one, and says
what to add); ``CONVENTIONS`` names only the rules that accept a convention.
The pages are written by ``python -m toolwire.conformance.docgen docs/rules``.
"""

from __future__ import annotations

# One page per rule, under the family's folder: docs/rules/pairing/orphan_result.md.
INDEX_PATH = "rules/README.md"


def page_path(code: str) -> str:
    """The rule's page, relative to docs/: ``rules/<family>/<name>.md``."""
    family, name = code.split(".", 1)
    return f"rules/{family}/{name}.md"


# How to fix a converter that breaks the rule: what to change, in a few sentences.
FIXES: dict[str, str] = {
    "pairing.call_id_missing": (
        "Copy the source's call id into the target's id field (`tool_calls[].id`, "
        "`tool_use.id`). Where the source has no id (Qwen XML calls), mint one that is "
        "unique in the conversation, and give the matching result the same id."
    ),
    "pairing.call_id_duplicate": (
        "Keep each call's own id. When ids are minted (Qwen XML, servers that number calls "
        "per response), number them across the whole conversation, not per response."
    ),
    "pairing.orphan_result": (
        "When history is trimmed or calls are filtered, drop a call's result together with "
        "the call, and keep every result's tool_call_id / tool_use_id equal to an id of the "
        "assistant turn right before it."
    ),
    "pairing.duplicate_result": (
        "Write each result once: do not append a result that is already in the target "
        "message, and do not merge two conversions of the same history."
    ),
    "pairing.unanswered_call": (
        "Convert every result of the source: tool messages (openai-chat) become tool_result "
        "blocks of the next user message (anthropic-messages) and back. Never turn a result "
        "into plain text, and never drop the results of the last turn."
    ),
    "pairing.id_changed": (
        "Keep tool call ids as they are. If the target needs another form, map each id "
        "through one reversible mapping, use it on the call and on its result, and declare it "
        "(the adapter's `id_mapping`, docs/adapters.md)."
    ),
    "pairing.id_pattern": (
        "Rewrite ids and tool names the target refuses: anthropic-messages accepts "
        "`^[a-zA-Z0-9_-]+$` for ids and at most 64 such characters for names. Replace the "
        "other characters consistently on the call and its result, and declare the mapping."
    ),
    "ordering.result_not_adjacent": (
        "Place the results of an assistant turn's calls in the message(s) right after that "
        "turn: no user text, empty message or other turn in between."
    ),
    "ordering.result_after_text": (
        "In an anthropic-messages user message, write the tool_result blocks first and any "
        "text the source had after them."
    ),
    "ordering.parallel_results_split": (
        "Gather every tool message answering one assistant turn into a single anthropic "
        "user message, one tool_result block each, in the order of the calls."
    ),
    "ordering.role_alternation": (
        "Merge consecutive messages of one role into one message (their content blocks in "
        "order) and start the conversation with a user message."
    ),
    "ordering.system_placement": (
        "Move system and developer messages out of `messages` into the top-level `system` "
        "field of the anthropic-messages request."
    ),
    "ordering.block_order": (
        "Keep the order of text, thinking and tool calls inside a turn wherever the target "
        "has a list of blocks; only the order openai-chat cannot express (text after a call) "
        "may change."
    ),
    "ordering.result_order": (
        "Write the results in the order of the calls they answer (the order of `tool_calls` "
        "or of the tool_use blocks)."
    ),
    "ordering.parallel_calls_split": (
        "Keep all calls of one assistant turn in one assistant message (one `tool_calls` "
        "list, or several tool_use blocks of one message), and their results after it."
    ),
    "fidelity.arguments": (
        "Parse openai-chat's `arguments` JSON text into the anthropic `input` object, and "
        "serialise `input` once into `arguments` the other way. Do not encode twice, do not "
        "leave text where an object is required, and keep numbers and Unicode as they are."
    ),
    "fidelity.text": (
        "Carry every text block and text content to the target unchanged: no trimming, "
        "no dropped block beside a tool call, no text added."
    ),
    "fidelity.error_flag": (
        "Keep `is_error: true` where the target has it. Toward openai-chat, which has no "
        "flag, start the tool message with `Error:` (the convention below); from openai-chat, "
        "such a message may become `is_error: true`."
    ),
    "fidelity.tool_definitions": (
        "Copy each tool's name, description and full JSON Schema (`parameters` <-> "
        "`input_schema`), keywords included (`enum`, `$defs`, `anyOf`, bounds, `format`, "
        "`additionalProperties`), and `strict` where the target has it."
    ),
    "fidelity.tool_choice": (
        "Translate tool_choice by meaning: auto<->auto, required<->any, a named function "
        "<->`{type: tool, name}`, none<->none; `parallel_tool_calls: false` <-> "
        "`disable_parallel_tool_use: true`. Set no restriction the source did not have. A "
        "choice restricted to some tools (OpenAI `allowed_tools`; Gemini "
        "`allowedFunctionNames` with ANY, i.e. required, or VALIDATED, i.e. auto) keeps its "
        "tools and its mode, or is declined where the target cannot say it."
    ),
    "fidelity.stop_reason": (
        "Map the stop reason by its meaning: end_turn<->stop, tool_use<->tool_calls, "
        "max_tokens<->length, stop_sequence<->stop. Never hard-code one value."
    ),
    "fidelity.stop_reason_content": (
        "Derive the stop reason from what the response carries: tool_use / tool_calls only "
        "when there is a tool call, and never end_turn beside a tool_use block."
    ),
    "fidelity.empty_text_added": (
        "When the source's content is empty or null, write no text block at all instead of "
        "an empty one."
    ),
    "fidelity.usage": (
        "Copy input and output token counts: prompt_tokens<->input_tokens, "
        "completion_tokens<->output_tokens."
    ),
    "fidelity.empty_content": (
        "Leave out empty text blocks toward anthropic-messages (write no block, or only the "
        'tool_use blocks), and write `content: null` or `""` as the target dialect expects.'
    ),
    "fidelity.roundtrip": (
        "Carry every request parameter both dialects have (temperature, top_p, max tokens, "
        "stop sequences) and every content part, so that converting back gives the source."
    ),
    "reasoning.replay_missing": (
        "Toward DeepSeek in thinking mode, send `reasoning_content` back on every assistant "
        'message of a stretch with tool calls: the thinking text of the source, or `""` '
        "where the source had none."
    ),
    "reasoning.replay_forbidden": (
        "Toward the legacy deepseek-reasoner, remove `reasoning_content` from the assistant "
        "messages of the request."
    ),
    "reasoning.altered": (
        "Send back the reasoning text exactly as it was returned: do not summarise, shorten, "
        "regenerate or replace it with a placeholder."
    ),
    "reasoning.call_signature_lost": (
        "Keep the thoughtSignature of every Gemini functionCall part and send it back on the "
        "same call, as the same bytes (base64 and base64url spell the same bytes). When the "
        "turn passes through another dialect, carry it in a field that dialect returns, for "
        "example the call id (docs/conventions.md, Gemini)."
    ),
    "reasoning.item_unfollowed": (
        "Send each openai-responses reasoning item together with the message or function_call "
        "item that followed it in the model's output, in the same order; drop the reasoning "
        "item too if you drop what it preceded."
    ),
    "reasoning.item_separated": (
        "When a function_call goes back to the Responses API with its fc_ item id, send the "
        "reasoning items that preceded it in the model's output right before it; or drop the "
        "item id (send the call by call_id alone) when the reasoning cannot be kept."
    ),
    "reasoning.signature_lost": (
        "Keep each thinking block's `signature` and each redacted_thinking block's `data` "
        "byte for byte when the target is anthropic-messages."
    ),
    "reasoning.position": (
        "Put the thinking and redacted_thinking blocks first in the assistant content, "
        "before text and tool_use blocks."
    ),
    "reasoning.dropped": (
        "Carry the reasoning of a tool-call response into the converted response or stream "
        "(`reasoning_content` toward DeepSeek, thinking blocks toward anthropic-messages)."
    ),
    "reasoning.not_carried": (
        "Carry the reasoning a response has into the converted response or stream, as "
        "`reasoning_content` toward openai-chat (the convention below)."
    ),
    "reasoning.invented": (
        "Write reasoning only where the source had some: no placeholder text, no thinking "
        "block of your own, no redacted_thinking block."
    ),
    "reasoning.signature_invented": (
        "Never write a signature or redacted data the source did not carry; thinking built "
        'from DeepSeek\'s reasoning_content gets `signature: ""`.'
    ),
    "xml.call_not_parsed": (
        "Parse every complete `<tool_call><function=...>` block into a structured tool call, "
        "remove its markup from the content, and answer finish_reason tool_calls."
    ),
    "xml.parameter_type": (
        "Convert each `<parameter=...>` value by the type the tool's JSON Schema gives it "
        "(integer, number, boolean, object, array); keep strings as written."
    ),
    "xml.text_preserved": (
        "Keep the text written before the first `<tool_call>` as the message content, "
        "without the XML markup."
    ),
    "xml.call_order": "Emit the structured calls in the order the XML blocks are written.",
    "xml.malformed_executed": (
        "Turn only complete `<tool_call>...</tool_call>` blocks into calls; leave a truncated "
        "or malformed one as text, never a call with the arguments read so far."
    ),
    "xml.stream_equivalence": (
        "Make the streaming parser give the same calls and text as the parser of the whole "
        "output: buffer a possible `<tool_call>` start, and flush text before it."
    ),
    "stream.reassembly": (
        "Emit deltas that join to the message the stream stands for: every text, reasoning "
        "and argument fragment once, in order."
    ),
    "stream.index_collision": (
        "Give each streamed tool call its own index (openai-chat `tool_calls[].index`, "
        "anthropic content block index) and send each call's fragments under it."
    ),
    "stream.event_order": (
        "Follow the dialect's grammar: anthropic message_start, then for each block "
        "content_block_start / _delta / _stop, then message_delta and message_stop; openai "
        "chunks ended by `data: [DONE]`."
    ),
    "stream.partial_json": (
        "Forward every argument fragment whole and in order, so that each call's fragments "
        "join to valid JSON."
    ),
    "stream.chunk_id": "Give every chunk of one openai-chat stream the id of its first chunk.",
    "stream.item_reference": (
        "Number the events of one openai-responses stream with increasing sequence_number "
        "values, give every event of an item that item's item_id and output_index, open each "
        "output_index once, and stop after response.completed, response.incomplete or "
        "response.failed."
    ),
    "stream.done_consistent": (
        "Write the .done events, response.output_item.done and the final Response from the "
        "deltas you sent: the same text and the same arguments, character for character."
    ),
    "schema.gemini_parameters": (
        "Write functionDeclarations[].parameters with the fields of Gemini's Schema object "
        "only (type, format, description, nullable, enum, properties, required, items, ...), "
        "or send the JSON Schema unchanged under parametersJsonSchema; drop or rewrite "
        "keywords such as additionalProperties, $ref and $defs before sending them under "
        "parameters."
    ),
    "stream.call_index": (
        "Number the streamed tool calls of a choice 0, 1, 2, ... in the order they start, "
        "not by the source's content block index."
    ),
    "replay.assistant_altered": (
        "Send the assistant turn back as the response returned it: the same ids, text, "
        "thinking with its signature, and reasoning_content."
    ),
    "schema.request": (
        "Write the request in the shape the target's documentation gives: required fields "
        "present (anthropic `max_tokens`), known fields with the right types."
    ),
    "schema.response": (
        "Write responses and stream events in the shape the dialect documents: required "
        "fields (a message's `role`), known values (finish_reason), right types."
    ),
}

# Rules that accept a convention of docs/conventions.md: code -> (section, why).
CONVENTIONS: dict[str, tuple[str, str]] = {
    "fidelity.error_flag": (
        "A failed tool result in openai-chat",
        "openai-chat has no error flag on a tool message; a leading `Error:` keeps the failure "
        "readable, and is accepted, never required at MUST.",
    ),
    "reasoning.altered": (
        "Thinking in deepseek-chat",
        "DeepSeek carries reasoning as plain `reasoning_content` text; several thinking "
        "blocks are joined with no separator, and that is not an alteration.",
    ),
    "reasoning.signature_lost": (
        "Thinking in deepseek-chat",
        "DeepSeek has no field for a signature: it is judged only where the target can carry "
        "one (anthropic-messages).",
    ),
    "reasoning.signature_invented": (
        "Thinking in deepseek-chat",
        "a thinking block needs a signature field and DeepSeek's reasoning has none, so "
        '`signature: ""` is the convention, not an invented signature.',
    ),
    "reasoning.invented": (
        "Thinking in deepseek-chat",
        'DeepSeek answers 400 when a tool-call turn comes back without reasoning; `""` '
        "there carries no reasoning and is not invented.",
    ),
    "reasoning.not_carried": (
        "Reasoning in openai-chat",
        "OpenAI-compatible servers return reasoning as `reasoning_content` (or `reasoning`); "
        "it is their convention, not OpenAI's, hence a SHOULD.",
    ),
    "reasoning.dropped": (
        "Reasoning in openai-chat",
        "where the target requires the reasoning of a tool-call turn back, losing it breaks "
        "the next request.",
    ),
    "ordering.block_order": (
        "Several text blocks in openai-chat",
        "openai-chat has one content and then its tool_calls: text after a call cannot keep "
        "its place there, and joined text blocks are accepted.",
    ),
    "fidelity.text": (
        "Several text blocks in openai-chat",
        'joining several text blocks with "", "\\n" or "\\n\\n" is accepted as the same text.',
    ),
    "fidelity.stop_reason": (
        "Stop reasons",
        "the documented details of the mapping (pause_turn, refusal, content_filter, a named "
        "tool_choice answered with stop); an empty choices list loses the stop reason, and a "
        "stop reason with no documented equivalent (Gemini MALFORMED_FUNCTION_CALL) gets no "
        "verdict.",
    ),
    "fidelity.empty_content": (
        "Content forms",
        'openai-chat writes `content: null` on a turn with calls only, deepseek-chat `""`.',
    ),
}


def missing_fixes(codes: tuple[str, ...]) -> list[str]:
    """The codes without a ``FIXES`` entry, in catalogue order."""
    return [code for code in codes if code not in FIXES]
