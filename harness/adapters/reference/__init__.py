"""toolwire's reference adapter: its own converter, held to every MUST rule.

Directions (request, response and stream for each):

* ``openai-chat`` <-> ``anthropic-messages``;
* ``anthropic-messages`` <-> ``deepseek-chat`` (thinking <-> ``reasoning_content``);
* ``qwen-xml`` -> ``openai-chat`` (XML tool calls in text -> ``tool_calls``).

What a target cannot express follows docs/conventions.md; the modules say
how each piece maps and why: ``to_anthropic`` / ``to_openai`` (messages,
results, system prompts), ``thinking`` (reasoning), ``tools`` (definitions,
tool choice), ``params`` (max_tokens and other top-level fields, with the
default ``max_tokens`` of 4096), ``stop_reasons``, ``ids`` (the reversible id
mapping), ``qwen`` (XML calls, generated ids, where the tool schemas come
from), ``streams`` (event lists).

Refusals: input that the target cannot carry without guessing (arguments that
are not a JSON object, images inside tool results for Chat Completions,
server tools, more than one choice for Anthropic...) raises
``ConversionError`` (a ``ValueError`` and a ``ToolwireError``) with one line
naming the call or message; the engine reports it as an ``error`` verdict.
"""

from __future__ import annotations

from toolwire.harness.adapters.reference.adapter import DIRECTIONS, ReferenceAdapter
from toolwire.harness.adapters.reference.errors import ConversionError

__all__ = ["DIRECTIONS", "ConversionError", "ReferenceAdapter"]
