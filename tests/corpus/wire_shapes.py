"""A standalone shape check for openai-responses and gemini payloads, written
from the providers' API references (no codec of toolwire's is involved):

- Responses: https://platform.openai.com/docs/api-reference/responses/create,
  .../responses/object and .../responses-streaming
- Gemini: https://ai.google.dev/api/generate-content (GenerateContentResponse,
  streamGenerateContent) and https://ai.google.dev/api/caching#Content (Part,
  FunctionCall, FunctionResponse)

Each function returns the problems found, one line each ([] when the payload
has the documented shape). Only what tool calling depends on is checked.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import Counter
from typing import Any

RESPONSE_STATUSES = {"completed", "incomplete", "failed", "in_progress", "cancelled", "queued"}
ROLES = {"user", "assistant", "system", "developer"}
INPUT_PART_TYPES = {"input_text", "output_text", "refusal", "input_image", "input_file"}
STREAM_END = {"response.completed", "response.incomplete", "response.failed"}
GEMINI_REQUEST_KEYS = {
    "contents",
    "tools",
    "toolConfig",
    "tool_config",
    "systemInstruction",
    "system_instruction",
    "generationConfig",
    "generation_config",
    "safetySettings",
    "safety_settings",
    "cachedContent",
    "cached_content",
}
# Part is a union: exactly one data field (https://ai.google.dev/api/caching#Part).
GEMINI_DATA_FIELDS = {
    "text",
    "functionCall",
    "functionResponse",
    "inlineData",
    "fileData",
    "executableCode",
    "codeExecutionResult",
}
FINISH_REASONS = {
    "FINISH_REASON_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
}


def _json_object_text(text: Any) -> bool:
    if not isinstance(text, str):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def signature_bytes(text: Any) -> bytes | None:
    """A thoughtSignature's bytes: base64, standard or URL-safe alphabet (the
    API sends the first, google-genai sends bytes back in the second)."""
    if not isinstance(text, str) or not text:
        return None
    try:
        return base64.b64decode(text.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None


# ---------------------------------------------------------------- Responses


def responses_item(item: Any, where: str, output: bool) -> list[str]:
    if not isinstance(item, dict):
        return [f"{where}: not an object"]
    kind = item.get("type", "message" if "role" in item else None)
    problems: list[str] = []
    if kind == "message":
        if item.get("role") not in ROLES:
            problems.append(f"{where}: role {item.get('role')!r}")
        content = item.get("content")
        if not isinstance(content, str | list):
            problems.append(f"{where}: content is neither text nor a list of parts")
        for part in content if isinstance(content, list) else []:
            if part.get("type") not in INPUT_PART_TYPES or not isinstance(
                part.get("text", ""), str
            ):
                problems.append(f"{where}: content part {part.get('type')!r}")
        if output and not str(item.get("id", "")).startswith("msg_"):
            problems.append(f"{where}: an output message has a msg_ id")
    elif kind == "function_call":
        if not isinstance(item.get("call_id"), str) or not item["call_id"]:
            problems.append(f"{where}: function_call without call_id")
        if not isinstance(item.get("name"), str) or not item["name"]:
            problems.append(f"{where}: function_call without name")
        if not _json_object_text(item.get("arguments")):
            problems.append(f"{where}: arguments are not the JSON text of an object")
        if output and not str(item.get("id", "")).startswith("fc_"):
            problems.append(f"{where}: an output function_call has an fc_ id")
        if "id" in item and item["id"] == item.get("call_id"):
            problems.append(f"{where}: item id equals call_id")
    elif kind == "function_call_output":
        if not isinstance(item.get("call_id"), str) or not isinstance(
            item.get("output"), str | list
        ):
            problems.append(f"{where}: function_call_output needs call_id and output")
    elif kind == "reasoning":
        if not str(item.get("id", "")).startswith("rs_") or not isinstance(
            item.get("summary"), list
        ):
            problems.append(f"{where}: reasoning needs an rs_ id and a summary list")
        if "encrypted_content" in item and not isinstance(item["encrypted_content"], str):
            problems.append(f"{where}: encrypted_content is not text")
    elif output and kind not in {"image_generation_call", "web_search_call"}:
        problems.append(f"{where}: output item type {kind!r}")
    return problems


def responses_request(body: dict[str, Any]) -> list[str]:
    problems = [] if isinstance(body.get("model"), str) else ["request: no model"]
    items = body.get("input")
    if not isinstance(items, str | list):
        return [*problems, "request: input is neither text nor a list"]
    calls: list[str] = []
    answered: Counter[str] = Counter()
    for index, item in enumerate(items if isinstance(items, list) else []):
        problems += responses_item(item, f"input[{index}]", output=False)
        if item.get("type") == "function_call":
            calls.append(item.get("call_id"))
        elif item.get("type") == "function_call_output":
            if item.get("call_id") not in calls:
                problems.append(f"input[{index}]: output for {item.get('call_id')} before its call")
            answered[item.get("call_id")] += 1
    if "previous_response_id" not in body:  # stateless: every call is answered once
        for call_id in calls:
            if answered[call_id] != 1:
                problems.append(f"request: call {call_id} has {answered[call_id]} outputs")
    names = {tool.get("name") for tool in body.get("tools", [])}
    for tool in body.get("tools", []):
        if tool.get("type") == "function" and not isinstance(tool.get("parameters", {}), dict):
            problems.append(f"tool {tool.get('name')}: parameters is not an object")
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
        chosen = {tool.get("name") for tool in choice.get("tools", [])}
        if choice.get("mode") not in {"auto", "required"} or not chosen <= names:
            problems.append("tool_choice allowed_tools: mode auto/required over offered tools")
    elif isinstance(choice, dict) and choice.get("type") == "function":
        if choice.get("name") not in names:
            problems.append(f"tool_choice names {choice.get('name')!r}, not a tool")
    elif isinstance(choice, str) and choice not in {"auto", "none", "required"}:
        problems.append(f"tool_choice {choice!r}")
    return problems


def responses_response(body: dict[str, Any]) -> list[str]:
    problems = []
    if body.get("object") != "response" or not str(body.get("id", "")).startswith("resp_"):
        problems.append("response: object 'response' with a resp_ id")
    if body.get("status") not in RESPONSE_STATUSES:
        problems.append(f"response: status {body.get('status')!r}")
    if body.get("status") == "incomplete":
        reason = (body.get("incomplete_details") or {}).get("reason")
        if reason not in {"max_output_tokens", "content_filter"}:
            problems.append(f"response: incomplete with reason {reason!r}")
    for index, item in enumerate(body.get("output", [])):
        problems += responses_item(item, f"output[{index}]", output=True)
    return problems


def responses_stream(events: list[tuple[str | None, dict[str, Any]]]) -> list[str]:
    """Typed events: sequence numbers 0, 1, 2...; deltas that join to the done
    values; output_item.done items equal to the final response's output."""
    problems: list[str] = []
    if not events or events[0][1].get("type") != "response.created":
        problems.append("stream: does not start with response.created")
    if not events or events[-1][1].get("type") not in STREAM_END:
        problems.append("stream: does not end with response.completed/incomplete/failed")
    numbered = [data.get("sequence_number") for _, data in events]
    if any(n is not None for n in numbered) and numbered != list(range(len(events))):
        problems.append("stream: sequence_number is not 0, 1, 2, ... on every event")
    items: dict[int, dict[str, Any]] = {}
    joined: dict[tuple[str, int], str] = {}
    done: list[dict[str, Any]] = []
    for name, data in events:
        kind = data.get("type")
        if name is not None and name != kind:
            problems.append(f"stream: event name {name} carries type {kind}")
        index = data.get("output_index")
        if kind == "response.output_item.added":
            items[index] = data["item"]
        elif kind == "response.output_item.done":
            done.append(data["item"])
        elif kind and kind.endswith(".delta") and "item_id" in data:
            if items.get(index, {}).get("id") != data["item_id"]:
                problems.append(f"stream: {kind} for {data['item_id']} at output_index {index}")
            key = (data["item_id"], data.get("content_index", data.get("summary_index", 0)))
            joined[key] = joined.get(key, "") + data.get("delta", "")
        elif kind in {"response.function_call_arguments.done", "response.output_text.done"}:
            key = (data["item_id"], data.get("content_index", 0))
            value = data.get("arguments", data.get("text"))
            if joined.get(key, "") != value:
                problems.append(f"stream: {kind} of {data['item_id']} differs from its deltas")
    final = events[-1][1].get("response", {}) if events else {}
    if final and [i.get("id") for i in final.get("output", [])] != [i.get("id") for i in done]:
        problems.append("stream: the final output differs from the output_item.done items")
    if final:
        problems += responses_response(final)
    return problems


# ---------------------------------------------------------------- Gemini


def _gemini_parts(parts: Any, where: str) -> list[str]:
    problems: list[str] = []
    for index, part in enumerate(parts if isinstance(parts, list) else []):
        data = set(part) & GEMINI_DATA_FIELDS
        if len(data) != 1:
            problems.append(f"{where}.parts[{index}]: {len(data)} data fields (exactly one)")
        call = part.get("functionCall")
        if call is not None and (
            not call.get("name") or not isinstance(call.get("args", {}), dict)
        ):
            problems.append(f"{where}.parts[{index}]: functionCall needs a name and object args")
        result = part.get("functionResponse")
        if result is not None and (
            not result.get("name") or not isinstance(result.get("response"), dict)
        ):
            problems.append(
                f"{where}.parts[{index}]: functionResponse needs name and object response"
            )
        if "thoughtSignature" in part and signature_bytes(part["thoughtSignature"]) is None:
            problems.append(f"{where}.parts[{index}]: thoughtSignature is not base64")
    return problems


def gemini_model_turn(parts: list[dict[str, Any]], where: str) -> list[str]:
    """In a turn of parallel calls only the first functionCall part carries the
    thoughtSignature (https://ai.google.dev/gemini-api/docs/thought-signatures)."""
    calls = [p for p in parts if "functionCall" in p]
    if any("thoughtSignature" in p for p in calls[1:]):
        return [f"{where}: a functionCall after the first carries a thoughtSignature"]
    return []


def gemini_request(body: dict[str, Any]) -> list[str]:
    problems = [
        f"request.{key}: not a request field" for key in body if key not in GEMINI_REQUEST_KEYS
    ]
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        return [*problems, "request: contents is not a non-empty list"]
    for index, content in enumerate(contents):
        where = f"contents[{index}]"
        if content.get("role") not in {"user", "model"}:
            problems.append(f"{where}: role {content.get('role')!r}")
        problems += _gemini_parts(content.get("parts"), where)
        calls = [p["functionCall"] for p in content.get("parts", []) if "functionCall" in p]
        if content.get("role") == "model":
            problems += gemini_model_turn(content.get("parts", []), where)
        if not calls or index + 1 == len(contents):
            continue
        # The next turn answers every call: as many functionResponse parts, same names (and ids).
        answer = contents[index + 1]
        results = [
            p["functionResponse"] for p in answer.get("parts", []) if "functionResponse" in p
        ]
        if Counter(c["name"] for c in calls) != Counter(r.get("name") for r in results):
            problems.append(
                f"contents[{index + 1}]: functionResponse parts do not answer the calls"
            )
        if any("id" in c for c in calls) and {c.get("id") for c in calls} != {
            r.get("id") for r in results
        }:
            problems.append(f"contents[{index + 1}]: functionResponse ids differ from the calls'")
    return problems


def gemini_response(body: dict[str, Any], chunk: bool = False) -> list[str]:
    candidates = body.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        return ["response: no candidates"]
    problems: list[str] = []
    for index, candidate in enumerate(candidates):
        where = f"candidates[{index}]"
        reason = candidate.get("finishReason")
        if reason is None and not chunk:
            problems.append(f"{where}: no finishReason")
        if reason is not None and reason not in FINISH_REASONS:
            problems.append(f"{where}: finishReason {reason!r}")
        content = candidate.get("content", {})
        if content and content.get("role", "model") != "model":
            problems.append(f"{where}: content role {content.get('role')!r}")
        problems += _gemini_parts(content.get("parts", []), f"{where}.content")
        problems += gemini_model_turn(content.get("parts", []), where)
    return problems


def gemini_stream(chunks: list[dict[str, Any]]) -> list[str]:
    """Each chunk is a GenerateContentResponse; only the last has a finishReason."""
    problems: list[str] = []
    for index, chunk in enumerate(chunks):
        problems += [f"chunk {index}: {p}" for p in gemini_response(chunk, chunk=True)]
        reasons = [c.get("finishReason") for c in chunk.get("candidates", [])]
        if any(reasons) and index != len(chunks) - 1:
            problems.append(f"chunk {index}: finishReason before the last chunk")
    if chunks and not any(c.get("finishReason") for c in chunks[-1].get("candidates", [])):
        problems.append("stream: the last chunk has no finishReason")
    return problems
