"""The rules on gemini payloads: pairing by name and order, thought signatures
(round trip and replay), judged on payloads shaped after real Gemini traffic."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.dialects import gemini_fixtures as fx
from toolwire.conformance.context import PayloadUnderTest, RoundTripUnderTest
from toolwire.conformance.pairing.orphan_result import check_orphan_result
from toolwire.conformance.pairing.unanswered_call import check_unanswered_call
from toolwire.conformance.readings.gemini_signatures import requires_signatures, same_signature
from toolwire.conformance.reasoning.call_signature_lost import check_call_signature_lost
from toolwire.conformance.registry import ROUNDTRIP_CHECKS
from toolwire.harness.dialects import get_codec
from toolwire.harness.lint.check import lint_report, lint_text
from toolwire.harness.model import GEMINI

CODEC = get_codec(GEMINI)
STD, URLSAFE = fx.SIGNATURE_STD, fx.SIGNATURE_URLSAFE


def _closed(request: dict[str, Any]) -> dict[str, Any]:
    """The request with a model answer and a new user question after it, so
    every call turn is followed by another turn (calls must be answered)."""
    closed = copy.deepcopy(request)
    closed["contents"] += [
        {"role": "model", "parts": [{"text": "Done."}]},
        {"role": "user", "parts": [{"text": "Thanks"}]},
    ]
    return closed


def test_results_pair_by_name_and_order_without_ids() -> None:
    conversation = CODEC.parse_request(_closed(fx.PARALLEL_REPLAY))
    assert check_orphan_result(conversation) == []
    assert check_unanswered_call(conversation) == []


def test_a_missing_response_leaves_a_call_unanswered() -> None:
    broken = _closed(fx.PARALLEL_REPLAY)
    broken["contents"][2]["parts"].pop()
    findings = check_unanswered_call(CODEC.parse_request(broken))
    assert [f.path for f in findings] == ["contents[1].parts[1]"]


def test_a_response_naming_no_call_is_an_orphan() -> None:
    broken = _closed(fx.PARALLEL_REPLAY)
    broken["contents"][2]["parts"][1]["functionResponse"]["name"] = "get_time"
    (orphan,) = check_orphan_result(CODEC.parse_request(broken))
    assert orphan.path == "contents[2].parts[1]"
    assert "get_time" in orphan.message


def test_a_response_id_must_match_a_call_id() -> None:
    broken = _closed(fx.SECOND_REQUEST)
    broken["contents"][2]["parts"][0]["functionResponse"]["id"] = "other"
    assert len(check_orphan_result(CODEC.parse_request(broken))) == 1


def test_signatures_compare_as_bytes() -> None:
    assert same_signature(STD, URLSAFE)
    assert same_signature(STD, URLSAFE.rstrip("="))
    assert not same_signature(STD, STD[:-4] + "AA==")
    assert not same_signature(STD, None)
    assert requires_signatures("gemini-3-pro-preview")
    assert not requires_signatures("gemini-2.5-flash")
    assert not requires_signatures(None)


def _roundtrip(original: Any, returned: Any) -> list[Any] | None:
    def under(parsed: Any, raw: Any) -> PayloadUnderTest:
        return PayloadUnderTest(GEMINI, "request", "gemini", raw, parsed)

    trip = RoundTripUnderTest(
        under(CODEC.parse_request(original), original),
        under(CODEC.parse_request(returned), returned),
        via="openai-chat",
    )
    return ROUNDTRIP_CHECKS["reasoning.call_signature_lost"](trip)


def test_a_current_turn_signature_lost_on_the_way_back_is_found() -> None:
    original = {"model": "gemini-3-pro-preview", **fx.SECOND_REQUEST}
    returned = copy.deepcopy(original)
    del returned["contents"][1]["parts"][0]["thoughtSignature"]
    (lost,) = _roundtrip(original, returned) or []
    assert lost.path == "contents[1].parts[0]"
    assert _roundtrip(original, copy.deepcopy(original)) == []


def test_signatures_of_older_models_and_earlier_turns_are_not_judged() -> None:
    older = {"model": "gemini-2.5-flash", **fx.SECOND_REQUEST}
    stripped = copy.deepcopy(older)
    del stripped["contents"][1]["parts"][0]["thoughtSignature"]
    assert _roundtrip(older, stripped) is None
    # A later user question closes the turn: the call is history, not checked.
    closed = {"model": "gemini-3-pro-preview", **_closed(fx.SECOND_REQUEST)}
    closed_stripped = copy.deepcopy(closed)
    del closed_stripped["contents"][1]["parts"][0]["thoughtSignature"]
    source, output = CODEC.parse_request(closed), CODEC.parse_request(closed_stripped)
    assert check_call_signature_lost(source, output) is None


def test_lint_on_the_recorded_conversation_and_a_client_that_drops_the_signature() -> None:
    case = Path(__file__).resolve().parents[2] / "corpus/gemini-dev/signature-replay-stream.yaml"
    text = case.read_text()
    report = lint_report(text, "case")
    assert [v.code for v in report.violations] == []
    # The client re-encodes the signature URL-safe (as recorded): accepted.
    assert URLSAFE in text and STD in text
    dropped = text.replace(f'"thoughtSignature": "{URLSAFE}"', '"thoughtSignature": null', 1)
    assert dropped != text
    codes = [(v.code, v.level) for v in lint_report(dropped, "case").violations]
    assert ("replay.assistant_altered", "MUST") in codes


def test_gemini_stream_grammar_is_judged_but_a_missing_finish_reason_is_not() -> None:
    events = [{"event": None, "data": chunk} for chunk in fx.TEXT_STREAM]
    assert lint_text(json.dumps(events), "ok", dialect=GEMINI) == []
    broken = copy.deepcopy(events)
    broken.insert(1, {"event": None, "data": "{not json"})
    codes = {v.code for v in lint_text(json.dumps(broken), "bad", dialect=GEMINI)}
    assert "stream.event_order" in codes
    unfinished = copy.deepcopy(events)
    del unfinished[-1]["data"]["candidates"][0]["finishReason"]
    assert lint_text(json.dumps(unfinished), "unfinished", dialect=GEMINI) == []


def test_openapi_parameters_outside_gemini_schema_fields_are_refused() -> None:
    assert lint_text(json.dumps(fx.PARALLEL_REPLAY), "ok", dialect=GEMINI) == []
    broken = copy.deepcopy(fx.PARALLEL_REPLAY)
    schema = broken["tools"][0]["functionDeclarations"][0]["parameters"]
    schema["additionalProperties"] = False
    schema["properties"]["city"]["type"] = ["string", "null"]
    schema["properties"]["unit"] = {"any_of": [{"type": "STRING", "const": "C"}]}
    found = [
        (v.code, v.path)
        for v in lint_text(json.dumps(broken), "bad", dialect=GEMINI)
        if v.code == "schema.gemini_parameters"
    ]
    base = "tools[0].functionDeclarations[0].parameters"
    assert sorted(path for _, path in found) == [
        f"{base}.additionalProperties",
        f"{base}.properties.city.type",
        f"{base}.properties.unit.any_of[0].const",
    ]
    # The same JSON Schema under parametersJsonSchema is what that field is for.
    moved = copy.deepcopy(broken)
    declaration = moved["tools"][0]["functionDeclarations"][0]
    declaration["parametersJsonSchema"] = declaration.pop("parameters")
    codes = {v.code for v in lint_text(json.dumps(moved), "ok", dialect=GEMINI)}
    assert "schema.gemini_parameters" not in codes
