"""Files that broke toolwire's readers (issue 16 item 8), built from the
valid case of ``cassettes.case_text`` with one part changed each."""

from __future__ import annotations

import json

from tests.hostile.cassettes import _block, case_text, simple_request

BIG_INTEGER = "9" * 5000  # past Python's 4,300-digit int/str conversion limit

# Nine levels of nine references: 9**9 (387 million) values once expanded.
BOMB_ANCHORS = ", ".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]"
        for i in range(9)
    ]
)


def valid_case(case_id: str = "hostile") -> str:
    return case_text(case_id, simple_request())


def changed(old: str, new: str, case_id: str = "hostile") -> str:
    """The valid case with ``old`` (which must occur) replaced once by ``new``."""
    text = valid_case(case_id)
    assert old in text, old
    return text.replace(old, new, 1)


REQUEST_BODY = "    body: |-\n" + _block(json.dumps(simple_request(), indent=1), 6)
RESPONSE_STATUS = "status:\n      code: 200\n      message: OK"
RESPONSE_HEADERS = (
    "    headers:\n      Content-Type:\n      - application/json\n    body:\n      string:"
)


def shapes() -> dict[str, str]:
    """Cassettes of unexpected shape, by name (each a one-line lint error)."""
    head = valid_case().split("interactions:")[0]
    return {
        "interactions: [1]": head + "interactions: [1]\n",
        "a string request": head + "interactions:\n- request: hello\n  response: {}\n",
        "a string response": changed(
            "  response:\n    status:", "  response: hi\n  unused:\n    status:"
        ),
        "status: OK": changed(RESPONSE_STATUS, "status: OK"),
        "status code '200'": changed("code: 200", "code: '200'"),
        "headers as a list": changed(
            RESPONSE_HEADERS, "    headers:\n    - Content-Type\n    body:\n      string:"
        ),
        "an unknown toolwire.profile": changed("profile: openai", "profile: nope"),
        "a toolwire.profile that is a list": changed("profile: openai", "profile: [openai]"),
    }


def big_integer_body() -> str:
    """A case whose request body holds a 5,000-digit max_tokens."""
    return changed('"model": "m"', f'"max_tokens": {BIG_INTEGER}, "model": "m"')


def request_body_string(value: str) -> str:
    """A vcrpy cassette whose request.body.string is ``value`` (YAML)."""
    return changed(REQUEST_BODY, f"    body:\n      string: {value}")


def empty_streamed_body() -> str:
    return changed(
        "      Content-Type:\n      - application/json\n    body:\n      string: |-",
        "      Content-Type:\n      - text/event-stream\n    body:\n"
        "      string: ''\n      unused: |-",
    )


def parsed_body_with_date() -> str:
    """pydantic-ai's serializer layout (``parsed_body``) holding an unquoted date."""
    return changed(
        REQUEST_BODY,
        "    parsed_body:\n      model: m\n      sent: 2024-01-01\n"
        "      messages: [{role: user, content: hi}]",
    )


def deeply_nested_json_cassette() -> str:
    return '{"version": 1, "interactions": ' + "[" * 100_000 + "]" * 100_000 + "}"


def bomb_in_expect() -> str:
    return changed("  expect: {}", "  expect: {bomb: {" + BOMB_ANCHORS + "}}")


def bomb_in_header() -> str:
    return changed(
        "    headers:\n      Content-Type:\n      - application/json\n    body: |-",
        "    headers:\n      X-Defs:\n      - {" + BOMB_ANCHORS + "}\n      X-Bomb: *j\n"
        "      Content-Type:\n      - application/json\n    body: |-",
    )


def recursive_alias() -> str:
    return changed("  expect: {}", "  expect: &loop {again: *loop}")


def shared_header_alias() -> str:
    """What vcrpy writes when two interactions share one list: a small alias."""
    return changed(
        "    headers:\n      Content-Type:\n      - application/json\n    body: |-",
        "    headers:\n      Content-Type: &json\n      - application/json\n    body: |-",
    ).replace(
        "    headers:\n      Content-Type:\n      - application/json\n    body:\n",
        "    headers:\n      Content-Type: *json\n    body:\n",
    )
