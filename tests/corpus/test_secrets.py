from __future__ import annotations

import base64
import json
import random

import pytest
import yaml

from tests.corpus.factory import make_case, mutated
from tests.support.real_transcripts import load_real_transcripts
from toolwire.harness.corpus.secrets import (
    decoded_views,
    find_key_like,
    find_secrets,
    is_secret_name,
    mask,
    scan_cassette,
    scan_text,
)
from toolwire.harness.redaction import redact

# Built from pieces so that no scanner ever sees a key-like literal in this file.
OPENAI_KEY = "sk-" + "T3BlbkFJ" + "a1B2c3D4e5F6g7H8i9J0kLmN"
PROJECT_KEY = "sk-" + "proj-" + "Xy9_Zw8-" * 8 + "QrS7tUv6"
ANTHROPIC_KEY = "sk-" + "ant-api03-" + "Ab1_Cd2-Ef3" * 8 + "AA"
AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SESSION_KEY = "ASIA" + "Y34FZKBOKMUTVV7A"
JWT = (
    "eyJhbGciOiJIUzI1NiJ9"
    + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0"
    + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)


@pytest.mark.parametrize(
    ("text", "kind", "secret"),
    [
        (f'"api_key": "{OPENAI_KEY}"', "OpenAI API key", OPENAI_KEY),
        (f"key {PROJECT_KEY} end", "OpenAI API key", PROJECT_KEY),
        (f"x-api-key: {ANTHROPIC_KEY}", "Anthropic API key", ANTHROPIC_KEY),
        (f"Authorization: Bearer {JWT}", "bearer token", JWT),
        (f"authorization: bearer {JWT}", "bearer token", JWT),
        (f"aws_access_key_id = {AWS_KEY}", "AWS access key id", AWS_KEY),
        (f'"{AWS_SESSION_KEY}"', "AWS access key id", AWS_SESSION_KEY),
        ("https://example.com/v1?api_key=abc123&x=1", "API key query parameter", "abc123"),
        ("https://example.com/v1?a=1&x-api-key=SECRET", "API key query parameter", "SECRET"),
        # A key at the start of a line inside a JSON string still counts.
        (json.dumps({"content": f"my key:\n{OPENAI_KEY}"}), "OpenAI API key", OPENAI_KEY),
    ],
)
def test_key_like_strings_found(text: str, kind: str, secret: str) -> None:
    assert [(k, s) for k, s, _ in find_key_like(text)] == [(kind, secret)]


def test_bearer_key_reported_once() -> None:
    found = list(find_key_like(f"Authorization: Bearer {PROJECT_KEY}"))
    assert [(kind, secret) for kind, secret, _ in found] == [("OpenAI API key", PROJECT_KEY)]


@pytest.mark.parametrize(
    "text",
    [
        '{"id": "call_4f7b9c2e1a3d5f6b8c9d0e1f", "type": "function"}',
        '{"id": "toolu_01A09q90qw90lq917835lq9", "type": "tool_use"}',
        '{"id": "chatcmpl-9xYzAbC123dEf456GhI789jKl", "object": "chat.completion"}',
        '{"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message"}',
        "Bearer YOUR_API_KEY_HERE",
        "Authorization: Bearer <token>",
        "Authorization: Bearer $OPENAI_API_KEY",
        "sk-your-key-goes-here-xxxxxxxx",
        "a task-management-framework-2024-edition and a risk-assessment-2025-model",
        "api_key=",
        "ASIA and AKIA are prefixes",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert list(find_key_like(text)) == []


@pytest.mark.parametrize("seed", range(40))
def test_no_false_positive_on_thinking_signatures(seed: int) -> None:
    generator = random.Random(seed)
    signature = base64.b64encode(generator.randbytes(generator.randint(768, 3072))).decode()
    redacted = base64.urlsafe_b64encode(generator.randbytes(generator.randint(768, 3072))).decode()
    response = {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "content": [
            {"type": "thinking", "thinking": "Let me check.", "signature": signature},
            {"type": "redacted_thinking", "data": redacted},
            {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "f", "input": {}},
        ],
    }
    assert 1024 <= len(signature) <= 4096
    document = make_case("thinking/x", "anthropic-messages")
    document["interactions"][0]["response"]["body"]["string"] = json.dumps(response, indent=2)
    text = yaml.safe_dump(document)
    assert scan_cassette("x.yaml", text, yaml.safe_load(text)) == []


def test_real_recordings_hold_no_secret() -> None:
    for transcript in load_real_transcripts():
        texts = [json.dumps(transcript.request_body), json.dumps(transcript.response_body)]
        if transcript.sse_events is not None:
            texts.append(transcript.sse_text())
        for text in texts:
            assert list(find_key_like(text)) == [], transcript.name


def test_mask_shows_prefix_and_length_only() -> None:
    assert mask(OPENAI_KEY) == f"sk-T…({len(OPENAI_KEY)} chars)"
    assert mask("short") == "…(5 chars)"
    assert OPENAI_KEY not in mask(OPENAI_KEY)


def test_scan_text_gives_line_numbers() -> None:
    text = f"line one\nline two {AWS_KEY}\nthree\n{OPENAI_KEY}\n"
    findings = scan_text(text, "corpus/x.yaml")
    assert [(f.line, f.kind, f.masked) for f in findings] == [
        (2, "AWS access key id", "AKIA…(20 chars)"),
        (4, "OpenAI API key", mask(OPENAI_KEY)),
    ]


def test_forbidden_headers_any_case_either_side() -> None:
    document = mutated(make_case("x"))
    exchange = document["interactions"][0]
    exchange["request"]["headers"]["AUTHORIZATION"] = [f"Bearer {ANTHROPIC_KEY}"]
    exchange["response"]["headers"]["Set-Cookie"] = ["session=abc"]
    text = yaml.safe_dump(document)
    findings = scan_cassette("corpus/x.yaml", text, yaml.safe_load(text))
    assert [(f.location, f.kind, f.masked, f.line) for f in findings] == [
        (
            "interaction 1 request header 'AUTHORIZATION'",
            "forbidden header",
            f"Bear…({len(ANTHROPIC_KEY) + 7} chars)",
            None,
        ),
        ("interaction 1 response header 'Set-Cookie'", "forbidden header", "…(11 chars)", None),
    ]
    assert all(ANTHROPIC_KEY not in f.message for f in findings)


def test_secret_hidden_by_yaml_escaping_found_in_parsed_body() -> None:
    # Double-quoted YAML can split a key with an escape: the raw text scan
    # misses it, the parsed body does not.
    half = len(OPENAI_KEY) // 2
    escaped = (
        OPENAI_KEY[:half] + "\\x" + format(ord(OPENAI_KEY[half]), "02x") + OPENAI_KEY[half + 1 :]
    )
    text = (
        "version: 1\ninteractions:\n- request:\n    uri: https://x\n"
        f'    body: "{escaped}"\n  response: {{}}\n'
    )
    findings = scan_cassette("corpus/x.yaml", text, yaml.safe_load(text))
    assert [(f.location, f.kind) for f in findings] == [
        ("interaction 1 request body", "OpenAI API key")
    ]


def test_scan_tolerates_any_shape() -> None:
    assert scan_cassette("x", "", None) == []
    assert scan_cassette("x", "", {"interactions": "no"}) == []
    assert scan_cassette("x", "", {"interactions": [1, {"request": []}]}) == []


def test_redact() -> None:
    text = f"unknown feature '{OPENAI_KEY}' and {AWS_KEY}"
    assert redact(text) == f"unknown feature '{mask(OPENAI_KEY)}' and AKIA…(20 chars)"


# --- issue 16: names, escapes, streams, and the shared redaction ----------------------


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("Ocp-Apim-Subscription-Key", True),  # Azure API Management
        ("x-litellm-api-key", True),  # LiteLLM
        ("x-portkey-api-key", True),  # Portkey
        ("X-Amz-Security-Token", True),
        ("Helicone-Auth", True),
        ("Proxy-Authorization", True),
        ("X-Client-Secret", True),
        ("accessToken", True),  # one word ending in token
        ("access_token", True),
        ("Set-Cookie", True),
        # Harmless names: counts of tokens, ids, a body's max_tokens.
        ("x-ratelimit-remaining-tokens", False),
        ("anthropic-ratelimit-tokens-reset", False),
        ("max_tokens", False),
        ("x-request-id", False),
        ("monkey", False),
        ("keyword", False),
        ("Content-Type", False),
    ],
)
def test_a_credential_is_known_by_a_word_of_its_name(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_code_is_a_credential_only_as_a_query_parameter() -> None:
    assert is_secret_name("code", query=True)
    assert not is_secret_name("code")


def test_wider_query_parameters_and_url_credentials_are_found() -> None:
    url = "https://bob:" + "hunter2-Xy9" + "@gw.example.com/x?code=abc1&subscription-key=def2&n=1"
    found = [(kind, url[start:end]) for kind, start, end in find_secrets(url)]
    assert found == [
        ("URL credentials", "bob:" + "hunter2-Xy9"),
        ("API key query parameter", "abc1"),
        ("API key query parameter", "def2"),
    ]
    assert find_secrets("https://example.com/v1?max_tokens=5&api-version=2024") == []
    assert find_secrets("https://REDACTED@gw.example.com/") == []


def test_an_escaped_key_is_found_and_located_in_the_original_text() -> None:
    for escaped in (
        ANTHROPIC_KEY.replace("-", "\\u002d"),  # one level: a raw JSON body
        ANTHROPIC_KEY.replace("-", "\\\\u002d"),  # two: arguments inside a JSON body
        "".join(f"\\u{ord(char):04x}" for char in OPENAI_KEY),
    ):
        text = f'{{"note": "key \\n{escaped}", "n": 1}}'
        assert list(find_key_like(text)) == []
        [(kind, start, end)] = find_secrets(text)
        assert text[start:end] == escaped, kind


def test_decoded_views_map_back_through_every_level() -> None:
    text = "a\\\\u0041b\\nc"  # a \\u0041 b \n c: two levels of escapes
    first, second = decoded_views(text)
    assert first.text == "a\\u0041b\nc"
    assert second.text == "aAb\nc"
    assert [second.original(i) for i in range(len(second.text) + 1)] == [0, 1, 8, 9, 11, 12]


def test_the_validator_finds_a_key_streamed_across_events() -> None:
    pieces = [ANTHROPIC_KEY[at : at + 5] for at in range(0, len(ANTHROPIC_KEY), 5)]
    stream = "".join(
        "data: "
        + json.dumps(
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "text_delta", "text": piece},
            }
        )
        + "\n\n"
        for piece in pieces
    )
    assert list(find_key_like(stream)) == []
    document = make_case("streaming/x", "anthropic-messages")
    document["interactions"][0]["response"]["body"]["string"] = stream
    text = yaml.safe_dump(document)
    [finding] = scan_cassette("x.yaml", text, yaml.safe_load(text))
    assert finding.kind == "Anthropic API key"
    assert "delta.text joined across events" in finding.location
    assert ANTHROPIC_KEY not in finding.message


def test_streams_of_several_blocks_and_calls_are_joined_per_field() -> None:
    # Two tool calls streamed interleaved (OpenAI) join per call index.
    def chunk(index: int, arguments: str) -> str:
        call = {"index": index, "function": {"arguments": arguments}}
        return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]})

    body = "\n\n".join([chunk(0, '{"a": '), chunk(1, '{"b": '), chunk(0, "1}"), chunk(1, "2}")])
    from toolwire.harness.corpus.streamtext import joined_fields, read_events

    texts = sorted(joined.text for joined in joined_fields(read_events(body.split("\n"))))
    assert '{"a": 1}' in texts and '{"b": 2}' in texts


def test_redact_masks_keys_named_values_and_known_secrets() -> None:
    azure = "0123456789abcdef" * 2
    assert redact(f"refused {ANTHROPIC_KEY}") == f"refused {mask(ANTHROPIC_KEY)}"
    assert (
        redact(f"Ocp-Apim-Subscription-Key: {azure}") == f"Ocp-Apim-Subscription-Key: {mask(azure)}"
    )
    assert redact(f'{{"x-api-key": "{azure}"}}') == f'{{"x-api-key": "{mask(azure)}"}}'
    assert redact("Authorization: Basic dXNlcjpwYXNz") == "Authorization: Basic dXNl…(12 chars)"
    # Known secrets and their pieces, whatever their shape.
    assert redact(f"said {azure[3:20]}", [azure]) == f"said {mask(azure[3:20])}"
    # Ordinary text stays: missing keys, token counts, signatures quoted in findings.
    for text in (
        "$.tool_calls[0]: key 'city' is missing",
        "missing key: 'messages'",
        "max_tokens: 4096, x-ratelimit-remaining-tokens: 149984",
        "signature: EqQBCkgIARABGAIiQ2x",
        "call_4f7b9c2e1a3d5f6b8c9d0e1f",
    ):
        assert redact(text) == text


def test_redact_masks_the_credential_values_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    azure = "fedcba9876543210" * 2
    monkeypatch.setenv("TOOLWIRE_TEST_AZURE_API_KEY", azure)
    monkeypatch.setenv("TOOLWIRE_TEST_PLAIN", "not-a-secret-value")
    assert redact(f"401 for {azure}") == f"401 for {mask(azure)}"
    assert redact("not-a-secret-value") == "not-a-secret-value"
