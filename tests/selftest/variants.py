"""Correct-but-different adapters: the reference adapter, written another legal way.

Each variant converts exactly like ``ReferenceAdapter`` and then rewrites its
output in a form that means the same on the wire: keys in another order,
argument JSON reformatted, a system prompt as blocks, user text as parts, an
``Error:`` tool message left unflagged, an empty ``$defs`` or ``required: []``
in every tool schema, ``stop: []`` for no stop. A referee that judges meaning
passes every one of them wherever it passes the reference
(tests/selftest/test_variants.py).

Each variant counts the outputs it really rewrote (``rewritten``), so a test
can tell a variant that changed nothing from one that was judged and passed.
"""

from __future__ import annotations

import base64
import copy
import json
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from tests.selftest.broken_base import ANTHROPIC, OPENAI, Json, Triple, blocks, messages_of
from toolwire.harness.adapters.reference import DIRECTIONS, ReferenceAdapter
from toolwire.harness.model import PayloadKind

REQUESTS: frozenset[Triple] = frozenset(d for d in DIRECTIONS if d[0] == "request")
RESPONSES = "openai-responses"
# DeepSeek documents user content as a string: parts are varied only where the
# target documents them (openai-chat content parts, anthropic content blocks).
PARTS_TARGETS = frozenset({OPENAI, ANTHROPIC})


class VariantAdapter(ReferenceAdapter):
    """The reference adapter, its output rewritten in the ``varied`` directions."""

    name = "variant"
    variation: ClassVar[str] = ""
    varied: ClassVar[frozenset[Triple]] = frozenset(DIRECTIONS)
    # Test-local cases (tests/selftest/patched_corpus.py) the run adds, for a
    # form no bundled case carries.
    corpus_patches: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = "variant-" + re.sub(r"(?<!^)(?=[A-Z])", "-", cls.__name__).lower()

    def __init__(self) -> None:
        super().__init__()
        self.rewritten = 0
        # The directions a self-test run keeps (tests/selftest/reach.py); None: all.
        self.focus: frozenset[Triple] | None = None

    @property
    def directions(self) -> frozenset[Triple]:
        found = super().directions
        return found & self.focus if self.focus is not None else found

    @property
    def changed_directions(self) -> frozenset[Triple]:
        return self.varied

    @property
    def target_profiles(self) -> Mapping[str, str]:
        return {}

    def convert(
        self, payload: Any, kind: PayloadKind, source: str, target: str, request: Any = None
    ) -> Any:
        output = super().convert(payload, kind, source, target, request)
        direction = (kind, source, target)
        if direction not in self.varied:
            return output
        varied = self.vary(copy.deepcopy(output), direction)
        if varied != output or _key_orders(varied) != _key_orders(output):
            self.rewritten += 1
        return varied

    def vary(self, output: Any, direction: Triple) -> Any:
        """Rewrite ``output`` (a fresh copy: mutate freely) without changing its meaning."""
        raise NotImplementedError


def _key_orders(value: Any) -> Any:
    if isinstance(value, dict):
        return [(key, _key_orders(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_key_orders(item) for item in value]
    return None


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def _tool_schemas(output: Json, target: str) -> list[Json]:
    """The parameter schema object of every function tool of a request."""
    schemas = []
    for tool in output.get("tools") or ():
        if target == ANTHROPIC:
            schema = tool.get("input_schema")
        elif target == RESPONSES:
            schema = tool.get("parameters")
        else:
            schema = (tool.get("function") or {}).get("parameters")
        if isinstance(schema, dict):
            schemas.append(schema)
    return schemas


class ReorderedKeys(VariantAdapter):
    variation = "every JSON object of every output written with its keys in reverse order"

    def vary(self, output: Any, direction: Triple) -> Any:
        return _reversed_keys(output)


class ReformattedArguments(VariantAdapter):
    variation = (
        "openai-chat argument JSON text re-encoded: indented, keys sorted, non-ASCII escaped"
    )
    varied = frozenset(d for d in DIRECTIONS if d[2] != ANTHROPIC and d[0] != "stream")

    def vary(self, output: Any, direction: Triple) -> Any:
        turns = output.get("messages") or [c.get("message") for c in output.get("choices") or ()]
        for message in turns:
            for call in (message or {}).get("tool_calls") or ():
                function = call.get("function") or {}
                text = function.get("arguments")
                if isinstance(text, str):
                    try:
                        value = json.loads(text)
                    except ValueError:
                        continue  # what the source sent as broken JSON stays as it was
                    function["arguments"] = json.dumps(value, indent=2, sort_keys=True)
        return output


class SystemAsBlocks(VariantAdapter):
    variation = "a system prompt string written as one text block (anthropic) or text part (openai)"
    varied = frozenset(d for d in REQUESTS if d[2] in PARTS_TARGETS)

    def vary(self, output: Any, direction: Triple) -> Any:
        if isinstance(output.get("system"), str):
            output["system"] = [{"type": "text", "text": output["system"]}]
        for message in output.get("messages", []):
            if message.get("role") in ("system", "developer") and isinstance(
                message.get("content"), str
            ):
                message["content"] = [{"type": "text", "text": message["content"]}]
        return output


class UserTextAsParts(VariantAdapter):
    variation = "user message text written as a list of one text part instead of a string"
    varied = frozenset(d for d in REQUESTS if d[2] in PARTS_TARGETS)

    def vary(self, output: Any, direction: Triple) -> Any:
        for message in messages_of(output, "user"):
            if isinstance(message.get("content"), str) and message["content"]:
                message["content"] = [{"type": "text", "text": message["content"]}]
        return output


class NoErrorInference(VariantAdapter):
    variation = "an openai tool message starting 'Error:' becomes a tool_result without is_error"
    varied = frozenset({("request", OPENAI, ANTHROPIC), ("request", "deepseek-chat", ANTHROPIC)})

    def vary(self, output: Any, direction: Triple) -> Any:
        for message in messages_of(output, "user"):
            for block in blocks(message):
                if block.get("type") == "tool_result":
                    block.pop("is_error", None)
        return output


class EmptyDefsAdded(VariantAdapter):
    variation = "an empty $defs added to every tool parameter schema (as some gateways do)"
    varied = REQUESTS

    def vary(self, output: Any, direction: Triple) -> Any:
        for schema in _tool_schemas(output, direction[2]):
            schema.setdefault("$defs", {})
        return output


class RequiredEmptyAdded(VariantAdapter):
    variation = "required: [] added to every tool parameter schema that had no required"
    varied = REQUESTS

    def vary(self, output: Any, direction: Triple) -> Any:
        for schema in _tool_schemas(output, direction[2]):
            schema.setdefault("required", [])
        return output


class EmptyStopAdded(VariantAdapter):
    variation = "stop: [] (openai) or stop_sequences: [] (anthropic) written for no stop"
    varied = frozenset(d for d in REQUESTS if d[2] in PARTS_TARGETS)
    # Sources that spell no stop as [] too: the reference leaves it out, this keeps it.
    corpus_patches = ("stop-empty-openai", "stop-empty-anthropic")

    def vary(self, output: Any, direction: Triple) -> Any:
        key = "stop_sequences" if direction[2] == ANTHROPIC else "stop"
        if key not in output:
            output[key] = []
        return output


class SingleStopAsString(VariantAdapter):
    variation = "one stop sequence written as a string (openai-chat stop: string or array)"
    varied = frozenset(d for d in REQUESTS if d[2] == OPENAI)

    def vary(self, output: Any, direction: Triple) -> Any:
        stop = output.get("stop")
        if isinstance(stop, list) and len(stop) == 1:
            output["stop"] = stop[0]
        return output


class CacheHitsInOpenaiDetails(VariantAdapter):
    variation = (
        "DeepSeek cache hits written in OpenAI's prompt_tokens_details.cached_tokens, as "
        "OpenAI-compatible servers (GLM) report them, instead of prompt_cache_hit_tokens"
    )
    varied = frozenset(d for d in DIRECTIONS if d[0] == "response" and d[2] == "deepseek-chat")

    def vary(self, output: Any, direction: Triple) -> Any:
        usage = output.get("usage") or {}
        hits = usage.pop("prompt_cache_hit_tokens", None)
        if hits:
            usage.pop("prompt_cache_miss_tokens", None)
            usage["prompt_tokens_details"] = {"cached_tokens": hits}
        elif hits is not None:
            usage["prompt_cache_hit_tokens"] = hits
        return output


# --- gemini ------------------------------------------------------------------
# GeminiSignatureUrlSafe: every thoughtSignature written in unpadded base64url:
# the same bytes (clients send signatures back so, and the API accepts it).
# GeminiExplicitIds: request calls given ids and their responses the same
# ids, where the reference pairs by name and order.

GEMINI = "gemini"
TO_GEMINI = frozenset(d for d in DIRECTIONS if d[2] == GEMINI)


def _contents(output: Any, direction: Triple) -> list[Json]:
    if direction[0] == "stream":
        return [
            candidate.get("content") or {}
            for event in output
            if isinstance(event.get("data"), dict)
            for candidate in event["data"].get("candidates") or ()
        ]
    if direction[0] == "request":
        return list(output.get("contents") or ())
    return [c.get("content") or {} for c in output.get("candidates") or ()]


class GeminiSignatureUrlSafe(VariantAdapter):
    variation = "Gemini thoughtSignatures re-encoded as unpadded base64url (the same bytes)"
    varied = TO_GEMINI

    def vary(self, output: Any, direction: Triple) -> Any:
        for content in _contents(output, direction):
            for part in content.get("parts") or ():
                signature = part.get("thoughtSignature")
                if isinstance(signature, str):
                    text = signature.replace("-", "+").replace("_", "/").rstrip("=")
                    raw = base64.b64decode(text + "=" * (-len(text) % 4))
                    part["thoughtSignature"] = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        return output


class GeminiExplicitIds(VariantAdapter):
    variation = "Gemini request calls and their responses given matching ids (call_<turn>_<n>)"
    varied = frozenset(d for d in TO_GEMINI if d[0] == "request")

    def vary(self, output: Any, direction: Triple) -> Any:
        pending: list[tuple[str, Any]] = []
        for turn, content in enumerate(output.get("contents") or ()):
            for part in content.get("parts") or ():
                call = part.get("functionCall")
                answer = part.get("functionResponse")
                if isinstance(call, dict) and "id" not in call:
                    call["id"] = f"call_{turn}_{len(pending)}"
                    pending.append((call["id"], call.get("name")))
                elif isinstance(answer, dict) and "id" not in answer:
                    match = next((p for p in pending if p[1] == answer.get("name")), None)
                    if match is not None:
                        pending.remove(match)
                        answer["id"] = match[0]
        return output


class ResponsesItemsSpelledOut(VariantAdapter):
    variation = (
        "openai-responses input messages written in full: type message, content as "
        "input_text / output_text parts, function_call arguments re-encoded with indentation"
    )
    varied = frozenset(d for d in REQUESTS if d[2] == RESPONSES)

    def vary(self, output: Any, direction: Triple) -> Any:
        for item in output.get("input") or ():
            if "role" in item and isinstance(item.get("content"), str):
                kind = "output_text" if item["role"] == "assistant" else "input_text"
                item["type"] = "message"
                item["content"] = [{"type": kind, "text": item["content"]}]
            elif item.get("type") == "function_call" and isinstance(item.get("arguments"), str):
                try:
                    value = json.loads(item["arguments"])
                except ValueError:
                    continue
                item["arguments"] = json.dumps(value, indent=2)
        return output


class ResponsesSequenceFromOffset(VariantAdapter):
    variation = "openai-responses stream events numbered from 1000 in steps of 3 (still increasing)"
    varied = frozenset(d for d in DIRECTIONS if d[0] == "stream" and d[2] == RESPONSES)

    def vary(self, output: Any, direction: Triple) -> Any:
        for number, event in enumerate(output):
            data = event.get("data")
            if isinstance(data, dict) and "sequence_number" in data:
                data["sequence_number"] = 1000 + 3 * number
        return output


class RestrictionReordered(VariantAdapter):
    # Both are sets of names: OpenAI "the list of tools the model may call",
    # Gemini "a set of function names"
    # (https://ai.google.dev/api/caching#FunctionCallingConfig).
    variation = (
        "a tool choice restricted to some tools (allowed_tools, allowedFunctionNames) "
        "names them in reverse order"
    )
    varied = frozenset(d for d in REQUESTS if d[2] in (OPENAI, RESPONSES, GEMINI))

    def vary(self, output: Any, direction: Triple) -> Any:
        if direction[2] == GEMINI:
            config = (output.get("toolConfig") or {}).get("functionCallingConfig") or {}
            if isinstance(config.get("allowedFunctionNames"), list):
                config["allowedFunctionNames"] = config["allowedFunctionNames"][::-1]
            return output
        choice = output.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
            holder = choice.get("allowed_tools") if direction[2] == OPENAI else choice
            if isinstance(holder, dict) and isinstance(holder.get("tools"), list):
                holder["tools"] = holder["tools"][::-1]
        return output


class StrictFalseSpelledOut(VariantAdapter):
    # Chat Completions tools are non-strict unless strict is set ("Chat
    # Completions requests remain non-strict by default"), so strict: false
    # there says what its absence says; toward Responses, where it is needed,
    # it is written first instead of last
    # (https://platform.openai.com/docs/guides/function-calling).
    variation = (
        "strict: false written on every openai-chat function tool that was not strict; "
        "the openai-responses tool's strict key written first"
    )
    varied = frozenset(d for d in REQUESTS if d[2] in (OPENAI, RESPONSES))

    def vary(self, output: Any, direction: Triple) -> Any:
        tools = output.get("tools") or []
        for position, tool in enumerate(tools):
            if not isinstance(tool, dict) or tool.get("type") != "function":
                continue
            if direction[2] == RESPONSES and "strict" in tool:
                tools[position] = {"strict": tool.pop("strict"), **tool}
            function = tool.get("function")
            if direction[2] == OPENAI and isinstance(function, dict):
                function.setdefault("strict", False)
        return output


class ResultsInCallOrder(VariantAdapter):
    # ordering.result_order holds a converter that keeps the client's order of a
    # turn's results (the reference does) or puts them into call order (this).
    variation = "the tool results of each turn written in the order of the calls they answer"
    varied = frozenset(d for d in REQUESTS if d[2] in (OPENAI, ANTHROPIC))

    def vary(self, output: Any, direction: Triple) -> Any:
        messages = output.get("messages") or []
        for index, message in enumerate(messages):
            if message.get("role") != "assistant":
                continue
            if direction[2] == ANTHROPIC:
                calls = [b.get("id") for b in blocks(message) if b.get("type") == "tool_use"]
                reply = messages[index + 1] if index + 1 < len(messages) else {}
                content = reply.get("content")
                if reply.get("role") == "user" and isinstance(content, list):
                    results = [b for b in content if b.get("type") == "tool_result"]
                    others = [b for b in content if b.get("type") != "tool_result"]
                    results.sort(key=lambda b: _position(calls, b.get("tool_use_id")))
                    reply["content"] = results + others
            else:
                calls = [c.get("id") for c in message.get("tool_calls") or ()]
                end = index + 1
                while end < len(messages) and messages[end].get("role") == "tool":
                    end += 1
                run_of_results = messages[index + 1 : end]
                run_of_results.sort(key=lambda m: _position(calls, m.get("tool_call_id")))
                messages[index + 1 : end] = run_of_results
        return output


def _position(calls: list[Any], call_id: Any) -> int:
    return calls.index(call_id) if call_id in calls else len(calls)


VARIANTS: tuple[type[VariantAdapter], ...] = (
    ReorderedKeys,
    ReformattedArguments,
    SystemAsBlocks,
    UserTextAsParts,
    NoErrorInference,
    EmptyDefsAdded,
    RequiredEmptyAdded,
    EmptyStopAdded,
    SingleStopAsString,
    CacheHitsInOpenaiDetails,
    GeminiSignatureUrlSafe,
    GeminiExplicitIds,
    ResponsesItemsSpelledOut,
    ResponsesSequenceFromOffset,
    RestrictionReordered,
    StrictFalseSpelledOut,
    ResultsInCallOrder,
)
