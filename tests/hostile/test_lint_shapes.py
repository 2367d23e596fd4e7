"""`toolwire lint` on cassettes of unexpected shape (issue 16, item 8, the lint part).

vcrpy cassettes are YAML anyone can edit; each shape below used to end
`lint` with a traceback (or, for an unknown profile, a pass about nothing).
Each is now one line naming the interaction and what was expected, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.hostile.cassettes import ANSWER, simple_request
from tests.hostile.cli import error_line, toolwire


def _interaction() -> dict[str, Any]:
    return {
        "request": {"method": "POST", "uri": "https://x/v1/chat/completions", "headers": {}}
        | {"body": json.dumps(simple_request())},
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": {"Content-Type": ["application/json"]},
            "body": {"string": json.dumps(ANSWER)},
        },
    }


def _with_response(**changes: Any) -> dict[str, Any]:
    interaction = _interaction()
    interaction["response"] = {**interaction["response"], **changes}
    return {"interactions": [interaction]}


SHAPES = {
    "interactions: [1]": ({"interactions": [1]}, "interaction 1: expected an interaction"),
    "a string request": (
        {"interactions": [{"request": "POST /", "response": {}}]},
        "interaction 1 request: expected a request mapping, found str 'POST /'",
    ),
    "a string response": (
        {"interactions": [{**_interaction(), "response": "200 OK"}]},
        "interaction 1 response: expected a response mapping",
    ),
    "status: OK": (_with_response(status="OK"), "status 'OK' is not an HTTP status"),
    "status code as text": (
        _with_response(status={"code": "200"}),
        "status {'code': '200'} is not an HTTP status",
    ),
    "headers as a list": (
        _with_response(headers=["Content-Type: application/json"]),
        "interaction 1 response headers: expected a mapping of name to values, found list",
    ),
    "an unknown profile": (
        {"toolwire": {"profile": "nope"}, "interactions": [_interaction()]},
        "toolwire.profile 'nope' is not a profile",
    ),
    "a dialect that is a list": (
        {"toolwire": {"dialect": ["x"]}, "interactions": [_interaction()]},
        "toolwire.dialect ['x'] is not a dialect",
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_cassette_of_unexpected_shape_is_one_line(tmp_path: Path, name: str) -> None:
    document, expected = SHAPES[name]
    path = tmp_path / "odd.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = toolwire("lint", str(path))
    assert result.returncode == 2
    assert expected in error_line(result)


def test_a_string_body_is_read_as_the_body(tmp_path: Path) -> None:
    path = tmp_path / "plain.yaml"
    path.write_text(yaml.safe_dump(_with_response(body=json.dumps(ANSWER))), encoding="utf-8")
    assert toolwire("lint", str(path)).returncode == 0


@pytest.mark.parametrize("text", ['{"choices": null}', '{"choices": [{"message": null}]}'])
def test_one_line_payloads_under_dialect_detection_are_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "payload.json"
    path.write_text(text, encoding="utf-8")
    result = toolwire("lint", str(path))
    assert result.returncode == 2
    assert "not a valid openai-chat response" in error_line(result)
