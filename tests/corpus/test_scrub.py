"""The scrubber and the validator agree: whatever the validator calls a secret,
the scrubber removes, wherever it sits, and the result always validates."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from toolwire.harness.corpus import secrets
from toolwire.harness.corpus.foreign import RawExchange
from toolwire.harness.corpus.importer import AddOptions, add_exchanges, scrubbed_interaction
from toolwire.harness.corpus.scrub import PLACEHOLDER, SCRUBBED_HEADERS, Scrubber
from toolwire.harness.corpus.secrets import find_key_like, scan_cassette
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.corpus.vocabulary import FORBIDDEN_HEADERS
from toolwire.harness.corpus.writer import dump_case
from toolwire.harness.errors import CorpusError

# One sample per kind the validator knows (built from pieces: no literal keys here).
SAMPLES: dict[str, str] = {
    "Anthropic API key": "sk-" + "ant-api03-" + "Zx9_Yw8-Vu7" * 6 + "AA",
    "OpenAI API key": "sk-" + "svcacct-" + "Qp1Rs2Tu3Vw4Xy5Za6Bc7De8",
    "bearer token": "Bearer " + "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0In0" + ".abc123XYZ456",
    "AWS access key id": "AKIA" + "Z7Y6X5W4V3U2T1S0",
    "Google API key": "AIza" + "SyD4-Zx8_Wq2Er6Ty0Ui3Op7As1Df5Gh9Jk",
    "API key query parameter": "https://maps.example.com/api?api_key=" + "plain",
    "URL credentials": "https://" + "alice:" + "pa55-w0rd-Kq7" + "@proxy.example.com/v1",
}


def test_there_is_a_sample_for_every_pattern_of_the_validator() -> None:
    kinds = [kind for kind, _pattern in secrets._PATTERNS]
    assert sorted(kinds) == sorted(SAMPLES)
    for kind, sample in SAMPLES.items():
        assert kind in [found for found, _secret, _start in find_key_like(sample)], kind


def _openai_exchange(secret: str) -> RawExchange:
    """A secret in every place a cassette can hold one."""
    request = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": f"Credentials:\n{secret}\nend"},
            {"role": "user", "content": "Weather in Paris?"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "get_weather", "description": f"uses {secret}"},
            }
        ],
        "metadata": {"api_key": "anything-at-all", "note": secret},
    }
    answer = {
        "id": "chatcmpl-A1",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": f"I saw {secret}",
                    "tool_calls": [
                        {
                            "id": "call_Ab12Cd34Ef56Gh78Ij90Kl12",
                            "type": "function",
                            "function": {
                                "name": "get_weather",
                                "arguments": json.dumps({"city": "Paris", "token": secret}),
                            },
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }
    # An escaped copy too: json.dumps escapes `/`-free text only for non-ASCII,
    # so write one by hand with \u escapes (the writer would decode it).
    escaped = "".join(f"\\u{ord(char):04x}" for char in secret)
    body = json.dumps(request)[:-1] + f', "escaped": "{escaped}"}}'
    return RawExchange(
        method="POST",
        uri=f"https://api.openai.com/v1/chat/completions?key={secret}&x-api-key=1&ok=yes",
        request_headers={
            **{name.title(): [secret] for name in FORBIDDEN_HEADERS},
            "Content-Type": ["application/json"],
            "X-Debug-Note": [f"trace {secret}"],
        },
        request_body=body,
        status_code=200,
        status_message="OK",
        response_headers={
            "Content-Type": ["application/json"],
            "set-cookie": [f"session={secret}"],
            "x-echo": [secret],
        },
        response_body=json.dumps(answer),
    )


def _stream_exchange(secret: str) -> RawExchange:
    chunk = {"choices": [{"index": 0, "delta": {"content": f"key {secret}"}}]}
    stream = f"data: {json.dumps(chunk)}\n\n: comment {secret}\n\ndata: [DONE]\n\n"
    request = {"model": "gpt-4o", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    return RawExchange(
        method="POST",
        uri="https://api.openai.com/v1/chat/completions",
        request_headers={"Content-Type": ["application/json"]},
        request_body=json.dumps(request),
        status_code=200,
        status_message="OK",
        response_headers={"Content-Type": ["text/event-stream; charset=utf-8"]},
        response_body=stream,
    )


def _cassette_text(exchange: RawExchange, scrubber: Scrubber) -> tuple[str, Any]:
    interaction = scrubbed_interaction(scrubber, exchange)
    metadata = {
        "format": 1,
        "id": "single-tool/x",
        "description": "x",
        "features": ["single-tool"],
        "dialect": "openai-chat",
        "profile": "openai",
        "provenance": {"kind": "documented", "url": "https://example.com/docs"},
        "expect": {},
    }
    text = dump_case(metadata, [interaction])
    return text, yaml.safe_load(text)


def _secret_part(kind: str, sample: str) -> str:
    if kind == "URL credentials":
        return sample.split("//", 1)[1].split("@", 1)[0]
    return sample.split("=", 1)[1] if kind == "API key query parameter" else sample


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("build", [_openai_exchange, _stream_exchange])
def test_every_validator_pattern_is_scrubbed_everywhere(kind: str, build: Any) -> None:
    sample = SAMPLES[kind]
    exchange = build(sample)
    raw_text = json.dumps(exchange.__dict__)
    assert scan_cassette("raw", raw_text, None) or list(find_key_like(raw_text))

    text, data = _cassette_text(exchange, Scrubber())
    assert scan_cassette("scrubbed.yaml", text, data) == []
    secret = _secret_part(kind, sample)
    if len(secret) >= 12:
        assert secret not in text
    for name in FORBIDDEN_HEADERS:
        assert f"{name}:" not in text.lower()


def test_the_scrubbed_case_passes_the_whole_validator(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    for index, sample in enumerate(SAMPLES.values()):
        exchange = _openai_exchange(sample)
        result = add_exchanges(
            [exchange],
            AddOptions(root, case_id=f"parallel/sample-{index}"),
            "test",
        )
        assert result.path.exists()
    report = validate_corpus(root)
    assert report.ok, [str(problem) for problem in report.problems]
    assert len(report.cases) == len(SAMPLES)


def test_every_scrubbed_header_is_removed_in_any_case() -> None:
    scrubber = Scrubber()
    headers = {name.upper(): ["v"] for name in SCRUBBED_HEADERS}
    headers["Content-Type"] = ["application/json"]
    assert scrubber.headers(headers) == {"Content-Type": ["application/json"]}
    assert sorted(scrubber.log.headers) == sorted(SCRUBBED_HEADERS)
    assert FORBIDDEN_HEADERS <= SCRUBBED_HEADERS


def test_credential_fields_are_replaced_whatever_their_value() -> None:
    scrubber = Scrubber()
    body = json.dumps({"api_key": "x", "Access-Token": "short", "nested": [{"password": "p"}]})
    assert json.loads(scrubber.body(body, "application/json")) == {
        "api_key": PLACEHOLDER,
        "Access-Token": PLACEHOLDER,
        "nested": [{"password": PLACEHOLDER}],
    }


def test_logprob_tokens_and_ids_are_left_alone() -> None:
    answer = {
        "id": "chatcmpl-9xYzAbC123dEf456GhI789jKl",
        "choices": [
            {
                "logprobs": {"content": [{"token": "Hello", "logprob": -0.1}]},
                "message": {
                    "tool_calls": [{"id": "call_4f7b9c2e1a3d5f6b8c9d0e1f", "type": "function"}]
                },
            }
        ],
    }
    text = json.dumps(answer)
    scrubber = Scrubber()
    assert scrubber.body(text, "application/json") == text
    assert scrubber.log.summary() == "nothing to scrub"


@pytest.mark.parametrize("seed", range(10))
def test_thinking_signatures_survive(seed: int) -> None:
    generator = random.Random(seed)
    signature = base64.b64encode(generator.randbytes(1500)).decode()
    body = json.dumps({"content": [{"type": "thinking", "thinking": "x", "signature": signature}]})
    assert Scrubber().body(body, "application/json") == body


def test_scrubbing_twice_changes_nothing_more() -> None:
    exchange = _openai_exchange(SAMPLES["OpenAI API key"])
    once = scrubbed_interaction(Scrubber(), exchange)
    again = scrubbed_interaction(
        Scrubber(),
        RawExchange(
            method=once.method,
            uri=once.uri,
            request_headers={k: list(v) for k, v in once.request_headers.items()},
            request_body=once.request_body_text,
            status_code=once.status_code,
            status_message=once.status_message,
            response_headers={k: list(v) for k, v in once.response_headers.items()},
            response_body=once.response_body_text,
        ),
    )
    assert again == once


def test_key_like_query_parameters_are_removed_from_uris() -> None:
    scrubber = Scrubber()
    uri = "https://example.com/v1/models/gemini:generate?key=AIzaXYZ&alt=sse&api-key=k"
    assert scrubber.uri(uri) == "https://example.com/v1/models/gemini:generate?alt=sse"
    assert sorted(scrubber.log.query_parameters) == ["api-key", "key"]


def test_a_known_secret_is_removed_even_when_it_does_not_look_like_a_key() -> None:
    local_key = "my-vllm-password"  # a local server accepts any string as its key
    scrubber = Scrubber.with_secrets([local_key, None, ""])
    assert scrubber.text(f"echo {local_key}!") == f"echo {PLACEHOLDER}!"
    assert Scrubber.with_secrets(["abc"]).text("abc abc") == "abc abc"  # too short to hunt


def test_account_ids_are_removed() -> None:
    text = "org-" + "AbCdEfGhIjKlMnOpQr12" + " and proj_" + "AbCdEfGhIjKlMnOpQr12"
    assert Scrubber().text(text) == f"{PLACEHOLDER} and {PLACEHOLDER}"


def test_error_messages_never_quote_a_secret(tmp_path: Path) -> None:
    key = SAMPLES["OpenAI API key"]
    exchange = RawExchange(
        method="POST",
        uri=f"https://api.openai.com/v1/chat/completions?api_key={key}",
        request_headers={},
        request_body=f'{{"model": "gpt-4o", "messages": "{key}"}}',
        status_code=200,
        status_message="OK",
        response_headers={"Content-Type": ["application/json"]},
        response_body="{}",
    )
    local = "hunter2-local-password"
    with pytest.raises(CorpusError) as caught:
        add_exchanges(
            [exchange],
            AddOptions(tmp_path, dialect="openai-chat", secrets=(local,)),
            f"cassette {key} {local}",
        )
    message = str(caught.value)
    assert "does not parse as openai-chat" in message
    assert key not in message
    assert local not in message


# --- issue 16: pieces of the key, escapes, streams, wider names -------------------------


def test_pieces_of_the_known_key_are_replaced_but_not_its_public_prefix() -> None:
    key = SAMPLES["Anthropic API key"]
    scrubber = Scrubber.with_secrets([key])
    text = f"it said {key[20:40]}, then sk-ant-api03- and {key[:9]}."
    assert scrubber.text(text) == "it said REDACTED, then sk-ant-api03- and sk-ant-ap."
    escaped = key.replace("-", "\\u002d")
    assert scrubber.text(f'"{escaped}"') == '"REDACTED"'


def test_a_key_streamed_a_few_characters_per_event_is_replaced_in_place() -> None:
    key = SAMPLES["OpenAI API key"]
    text = f"key={key}!"
    events = [
        {"choices": [{"index": 0, "delta": {"content": text[at : at + 3]}}]}
        for at in range(0, len(text), 3)
    ]
    body = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + "data: [DONE]\n\n"
    scrubbed = Scrubber().body(body, "text/event-stream")
    contents = [
        json.loads(line[6:])["choices"][0]["delta"]["content"]
        for line in scrubbed.splitlines()
        if line.startswith("data: {")
    ]
    assert len(contents) == len(events)  # every event kept, in place
    assert "".join(contents) == "key=REDACTED!"
    assert scrubbed.endswith("data: [DONE]\n\n")


def test_an_unchanged_stream_is_kept_byte_for_byte() -> None:
    body = ': keep-alive\r\ndata: {"a":  1}\r\n\r\nevent: x\r\ndata: [DONE]\r\n\r\n'
    assert Scrubber().body(body, "text/event-stream") == body


@pytest.mark.parametrize(
    "header",
    ["Ocp-Apim-Subscription-Key", "x-litellm-api-key", "x-portkey-api-key", "X-Custom-Token"],
)
def test_gateway_credential_headers_are_removed(header: str) -> None:
    scrubber = Scrubber()
    kept = scrubber.headers({header: ["anything"], "x-ratelimit-remaining-tokens": ["10"]})
    assert kept == {"x-ratelimit-remaining-tokens": ["10"]}
    assert scrubber.log.headers == [header.lower()]


def test_url_credentials_and_wider_query_parameters_are_removed_from_uris() -> None:
    scrubber = Scrubber()
    uri = "https://u:p4ss-w0rd@gw.example.com/x?code=abc&subscription-key=k&api-version=1&sig=s"
    assert scrubber.uri(uri) == "https://gw.example.com/x?api-version=1"
    assert "URL credentials" in scrubber.log.summary()


def test_json_fields_are_judged_by_value_not_by_a_token_word() -> None:
    body = json.dumps({"max_tokens": 64, "max_completion_tokens": 9, "token_count": 3})
    assert Scrubber().body(body, "application/json") == body
