"""The gemini codec: round trips, the canonical reading, stream reassembly."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.dialects import gemini_fixtures as fx
from toolwire.harness.dialects import get_codec
from toolwire.harness.dialects.gemini.field_names import camel_case_fields
from toolwire.harness.errors import WireFormatError
from toolwire.harness.model import (
    GEMINI,
    SSEEvent,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)

CODEC = get_codec(GEMINI)


def _events(chunks: list[dict[str, Any]]) -> list[SSEEvent]:
    return [SSEEvent(data=json.dumps(chunk)) for chunk in chunks]


@pytest.mark.parametrize("payload", fx.REQUESTS)
def test_request_round_trips(payload: dict[str, Any]) -> None:
    """Rendering gives the body back; proto field names given in snake_case
    (``include_thoughts``) come back in lowerCamelCase, which means the same."""
    original = copy.deepcopy(payload)
    rendered = CODEC.render_request(CODEC.parse_request(payload))
    assert rendered in (original, camel_case_fields(original))
    assert CODEC.parse_request(rendered) == CODEC.parse_request(original)


@pytest.mark.parametrize("payload", fx.RESPONSES)
def test_response_round_trips(payload: dict[str, Any]) -> None:
    assert CODEC.render_response(CODEC.parse_response(payload)) == payload


def test_request_reads_calls_signatures_and_results() -> None:
    conversation = CODEC.parse_request(fx.SECOND_REQUEST)
    assert [t.role for t in conversation.turns] == ["user", "assistant", "user"]
    (call,) = conversation.turns[1].tool_calls
    assert call.id == "pyd_ai_2c58246573624ed1a963f429338ded57"
    assert call.arguments == {}
    assert call.raw_arguments is None
    assert call.signature == fx.SIGNATURE_URLSAFE
    (result,) = conversation.turns[2].tool_results
    assert result.name == "get_country"
    assert result.call_id == call.id
    assert result.content == (TextBlock('{"return_value":"Mexico"}'),)
    assert conversation.model is None
    tool = conversation.tools[0] if conversation.tools else None
    assert (
        tool is not None
        and tool.parameters == fx.TOOLS[0]["functionDeclarations"][0]["parameters_json_schema"]
    )


def test_output_and_error_keys_read_as_text_and_flag() -> None:
    conversation = CODEC.parse_request(fx.PARALLEL_REPLAY)
    ok, failed = conversation.turns[2].tool_results
    assert ok.content == (TextBlock("18C, cloudy"),) and ok.is_error is None
    assert failed.content == (TextBlock("service down"),) and failed.is_error is True
    assert ok.call_id is None and ok.name == "get_weather"
    assert conversation.tool_choice is not None and conversation.tool_choice.mode == "auto"


def test_thought_part_and_signature_on_text() -> None:
    response = CODEC.parse_response(fx.THINKING_RESPONSE)
    thought, answer = response.message.blocks
    assert isinstance(thought, ThinkingBlock) and thought.origin == "thought"
    assert thought.signature is None
    assert isinstance(answer, TextBlock) and answer.extra["thoughtSignature"]
    assert response.stop_reason.canonical == "end_turn"
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (29, 1737)
    assert response.id == "ON4gaYT4Gc20qtsP2bSiiQ0"
    assert response.model == "gemini-3-pro-preview"


def test_stop_with_calls_reads_as_tool_use() -> None:
    response = CODEC.parse_response(fx.PARALLEL_RESPONSE)
    first, second = response.message.tool_calls
    assert response.stop_reason.raw == "STOP"
    assert response.stop_reason.canonical == "tool_use"
    assert first.signature == "CiIBcsjafAbc" and second.signature is None


def test_stream_reassembles_call_and_signature() -> None:
    transcript = CODEC.parse_stream(_events(fx.CALL_STREAM))
    assert transcript.issues == ()
    (call,) = transcript.response.message.tool_calls
    assert call.signature == fx.SIGNATURE_STD
    assert transcript.response.stop_reason.canonical == "tool_use"


def test_stream_joins_text_and_keeps_last_usage() -> None:
    transcript = CODEC.parse_stream(_events(fx.TEXT_STREAM))
    assert transcript.issues == ()
    assert transcript.response.message.text == "The capital of Mexico is Mexico City."
    assert transcript.response.usage is not None
    assert transcript.response.usage.input_tokens == 165


def test_signature_in_empty_final_chunk_joins_the_text() -> None:
    chunks = copy.deepcopy(fx.TEXT_STREAM)
    chunks[2]["candidates"][0]["content"]["parts"][0]["thoughtSignature"] = "c2ln"
    message = CODEC.parse_stream(_events(chunks)).response.message
    (text,) = message.blocks
    assert isinstance(text, TextBlock) and text.extra == {"thoughtSignature": "c2ln"}


@pytest.mark.parametrize("payload", fx.RESPONSES)
def test_render_stream_reassembles_to_the_response(payload: dict[str, Any]) -> None:
    response = CODEC.parse_response(payload)
    transcript = CODEC.parse_stream(CODEC.render_stream(response))
    assert transcript.issues == ()
    assert CODEC.render_response(transcript.response) == payload


def test_stream_issues() -> None:
    chunks = copy.deepcopy(fx.TEXT_STREAM)
    chunks[2]["candidates"][0].pop("finishReason")
    chunks[1]["responseId"] = "other"
    events = [*_events(chunks), SSEEvent(data="{not json")]
    codes = [issue.code for issue in CODEC.parse_stream(events).issues]
    assert codes == ["response_id_changed", "invalid_json", "missing_finish_reason"]
    after = _events([*fx.CALL_STREAM, fx.TEXT_STREAM[0]])
    codes = [i.code for i in CODEC.parse_stream(after).issues]
    assert "after_finish" in codes


def test_built_objects_render_natural_form() -> None:
    conversation = CODEC.parse_request(fx.PARALLEL_REPLAY)
    turns = conversation.turns
    calls = [ToolCall(id=None, name="f", arguments={"a": 1}, signature="s")]
    built = CODEC.render_request(
        type(conversation)(
            dialect=GEMINI,
            turns=(
                turns[0],
                type(turns[1])(role="assistant", blocks=tuple(calls)),
                type(turns[2])(
                    role="user",
                    blocks=(ToolResult(call_id=None, content=(TextBlock("ok"),), name="f"),),
                ),
            ),
        )
    )
    assert built["contents"][1] == {
        "role": "model",
        "parts": [{"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "s"}],
    }
    assert built["contents"][2]["parts"][0] == {
        "functionResponse": {"name": "f", "response": {"output": "ok"}}
    }


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({}, "contents"),
        ({"contents": {}}, "contents"),
        ({"contents": [{"parts": [{"functionCall": []}]}]}, "contents[0].parts[0].functionCall"),
        ({"contents": [{"role": None, "parts": []}]}, "contents[0].role"),
    ],
)
def test_shape_errors_name_the_path(payload: dict[str, Any], path: str) -> None:
    with pytest.raises(WireFormatError) as caught:
        CODEC.parse_request(payload)
    assert caught.value.path == path


def test_error_body_is_not_a_response() -> None:
    with pytest.raises(WireFormatError, match="Gemini error response"):
        CODEC.parse_response(
            {"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}}
        )


def test_snake_case_thought_signature_is_read_and_written_back_camel_case() -> None:
    # Proto3 JSON reads `thought_signature` as well (Google's REST notebook sets it
    # so): a converter writing it has not lost the signature.
    request = copy.deepcopy(fx.SECOND_REQUEST)
    call_part = next(
        part
        for content in request["contents"]
        for part in content["parts"]
        if "functionCall" in part
    )
    call_part["thought_signature"] = call_part.pop("thoughtSignature")
    (call,) = CODEC.parse_request(request).turns[1].tool_calls
    assert call.signature == fx.SIGNATURE_URLSAFE
    rendered = CODEC.render_request(CODEC.parse_request(request))
    assert rendered == fx.SECOND_REQUEST


@pytest.mark.parametrize(
    ("config", "mode", "name"),
    [
        ({"mode": "ANY", "allowedFunctionNames": ["get_weather"]}, "tool", "get_weather"),
        # VALIDATED among one function still lets the model answer in text: a
        # restriction kept in raw, not a forced tool.
        ({"mode": "VALIDATED", "allowedFunctionNames": ["get_weather"]}, "auto", None),
        ({"mode": "VALIDATED", "allowedFunctionNames": ["a", "b"]}, "auto", None),
    ],
)
def test_allowed_function_names_name_a_tool_only_when_any_forces_it(
    config: dict[str, Any], mode: str, name: str | None
) -> None:
    request = {**fx.FIRST_REQUEST, "toolConfig": {"functionCallingConfig": config}}
    choice = CODEC.parse_request(request).tool_choice
    assert choice is not None and (choice.mode, choice.name, choice.raw) == (mode, name, config)
    assert CODEC.render_request(CODEC.parse_request(request))["toolConfig"] == {
        "functionCallingConfig": config
    }
