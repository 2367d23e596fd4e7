"""The badge JSON is what shields.io's endpoint badge accepts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.reports.factory import document, mixed_document, verdict
from toolwire.harness.reports.badge import badge, render_badge

# shields.io's endpoint schema (https://shields.io/badges/endpoint-badge), as
# badges/shields validates it (services/endpoint-common.js, Joi): schemaVersion
# the number 1; label a string, may be empty; message a non-empty string;
# optional color, labelColor, isError, logo fields, style, cacheSeconds >= 0;
# unknown keys are rejected (allowAndStripUnknownKeys: false).
SHIELDS_ENDPOINT = {
    "type": "object",
    "required": ["schemaVersion", "label", "message"],
    "additionalProperties": False,
    "properties": {
        "schemaVersion": {"const": 1},
        "label": {"type": "string"},
        "message": {"type": "string", "minLength": 1},
        "color": {"type": "string", "minLength": 1},
        "labelColor": {"type": "string"},
        "isError": {"type": "boolean"},
        "namedLogo": {"type": "string"},
        "logoSvg": {"type": "string"},
        "logoColor": {"type": "string"},
        "logoWidth": {"type": "number"},
        "style": {"type": "string"},
        "cacheSeconds": {"type": "integer", "minimum": 0},
    },
}
# Named colours shields documents, plus hex; anything else renders grey.
NAMED_COLOURS = {
    "brightgreen", "green", "yellowgreen", "yellow", "orange", "red", "blue", "lightgrey",
}  # fmt: skip


def _valid(data: Any) -> None:
    errors = [e.message for e in Draft202012Validator(SHIELDS_ENDPOINT).iter_errors(data)]
    assert errors == []
    assert data["color"] in NAMED_COLOURS


def test_the_shields_schema_here_rejects_what_shields_rejects() -> None:
    validator = Draft202012Validator(SHIELDS_ENDPOINT)
    assert not validator.is_valid({"schemaVersion": 1, "label": "x", "message": ""})
    assert not validator.is_valid({"schemaVersion": "1", "label": "x", "message": "y"})
    assert not validator.is_valid({"schemaVersion": 1, "label": "x", "message": "y", "z": 1})
    assert validator.is_valid({"schemaVersion": 1, "label": "", "message": "y"})


@pytest.mark.parametrize(
    ("verdicts", "message", "colour"),
    [
        ([verdict("c/1", "a.b"), verdict("c/2", "a.b")], "2/2 passed", "brightgreen"),
        (
            [verdict("c/1", "a.b"), verdict("c/2", "a.b", "fail", "x")],
            "1/2 passed, 1 failing",
            "red",
        ),
        ([verdict("c/1", "a.b"), verdict("c/2", "a.b", "warn", "x")], "1/2 passed", "yellow"),
        ([verdict("c/1", "a.b"), verdict("c/2", "a.b", "xfail", "x")], "1/2 passed", "yellow"),
        ([verdict("c/1", "unsupported", "unsupported", "none")], "nothing judged", "lightgrey"),
    ],
)  # fmt: skip
def test_message_and_colour_follow_the_outcomes(
    verdicts: list[dict[str, Any]], message: str, colour: str
) -> None:
    data = badge(document(verdicts))
    _valid(data)
    assert (data["label"], data["message"], data["color"]) == ("toolwire", message, colour)


def test_an_adapter_broken_on_every_case_gives_an_error_badge() -> None:
    document = {**mixed_document(), "broken": "the adapter failed on every case (3)"}
    data = badge(document)
    _valid(data)
    assert data == {
        "schemaVersion": 1,
        "label": "toolwire",
        "message": "adapter broken",
        "color": "lightgrey",
        "isError": True,
    }


def test_errors_on_some_payloads_fail_the_badge_but_keep_the_counts() -> None:
    data = badge(mixed_document())  # carries an `error` verdict: exit 3, not broken
    _valid(data)
    assert data["color"] == "red"
    assert "passed" in data["message"] and "failing" in data["message"]
    assert "isError" not in data


def test_real_runs_give_valid_badges(real_documents: dict[str, dict[str, Any]]) -> None:
    reference = json.loads(render_badge(real_documents["reference"]))
    _valid(reference)
    totals = real_documents["reference"]["totals"]
    judged = sum(n for outcome, n in totals.items() if outcome != "unsupported")
    assert reference["message"] == f"{totals['pass']}/{judged} passed"
    # Every MUST rule holds; SHOULD warnings (results out of order) make it yellow.
    assert reference["color"] == ("yellow" if totals["warn"] else "brightgreen")
    failing = json.loads(render_badge(real_documents["renames-ids"]))
    _valid(failing)
    assert failing["color"] == "red"
    failed = real_documents["renames-ids"]["totals"]["fail"]
    assert failing["message"].endswith(f", {failed} failing")
