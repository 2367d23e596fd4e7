"""A case file written by toolwire is a cassette vcrpy replays unchanged."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import vcr

from tests.corpus.factory import OPENAI_STREAM, interaction, make_case, write_case_file
from toolwire.harness.corpus.loader import load_case
from toolwire.harness.corpus.writer import case_metadata, dump_case, write_case


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Belt and braces: record_mode="none" already forbids real traffic."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a test tried to open a real network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _written_case(tmp_path: Path, document: dict[str, Any]) -> Path:
    root = tmp_path / "corpus"
    case_id = document["toolwire"]["id"]
    source = load_case(write_case_file(root, case_id, document), root)
    path = tmp_path / "written" / f"{case_id}.yaml"
    write_case(path, dump_case(case_metadata(source), source.interactions))
    return path


def _post(uri: str, body: str) -> bytes:
    request = urllib.request.Request(
        uri, data=body.encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        data: bytes = response.read()
        return data


@pytest.mark.usefixtures("no_network")
def test_vcrpy_replays_a_written_case(tmp_path: Path) -> None:
    path = _written_case(tmp_path, make_case("single-tool/weather-openai"))
    case = load_case(path, tmp_path / "written")
    recorded = case.interactions[0]
    with vcr.use_cassette(str(path), record_mode="none") as cassette:
        body = _post(recorded.uri, recorded.request_body_text or "")
        assert cassette.play_count == 1
    assert body.decode("utf-8") == recorded.response_body_text
    assert case.interactions[0].response_json()["choices"][0]["finish_reason"] == "tool_calls"


@pytest.mark.usefixtures("no_network")
def test_vcrpy_replays_a_stream_byte_for_byte(tmp_path: Path) -> None:
    document = make_case("streaming/hello", features=["streaming"])
    document["interactions"] = [
        interaction({"messages": [], "stream": True}, OPENAI_STREAM, stream=True)
    ]
    path = _written_case(tmp_path, document)
    with vcr.use_cassette(str(path), record_mode="none") as cassette:
        body = _post("https://api.openai.com/v1/chat/completions", '{"stream": true}')
        assert cassette.play_count == 1
    assert body.decode("utf-8") == OPENAI_STREAM


@pytest.mark.usefixtures("no_network")
def test_unrecorded_request_is_refused_not_sent(tmp_path: Path) -> None:
    path = _written_case(tmp_path, make_case("single-tool/weather-openai"))
    with (
        vcr.use_cassette(str(path), record_mode="none") as cassette,
        pytest.raises(vcr.errors.CannotOverwriteExistingCassetteException),
    ):
        _post("https://api.openai.com/v1/other", "{}")
    assert cassette.play_count == 0
