from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.factory import (
    OPENAI_STREAM,
    interaction,
    make_case,
    mutated,
    twin_pair,
    write_case_file,
)
from tests.corpus.fake_codec import FakeCodec, install_fake_codecs
from toolwire.harness.corpus.lint_gate import LintOutcome
from toolwire.harness.corpus.validate import Problem, validate_corpus

OPENAI_KEY = "sk-" + "proj-" + "Xy9_Zw8-" * 6 + "QrS7tUv6"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "corpus"
    folder.mkdir()
    return folder


@pytest.fixture
def codecs(monkeypatch: pytest.MonkeyPatch) -> dict[str, FakeCodec]:
    """Fake codecs; the lint step, which needs the real ones, sees nothing to judge
    (tests/corpus/test_lint_gate.py judges real cases)."""
    monkeypatch.setattr(
        "toolwire.harness.corpus.validate.lint_case_text",
        lambda text, source: LintOutcome((), (), (), unreadable="fake codecs"),
    )
    return install_fake_codecs(monkeypatch)


def _lines(root: Path) -> list[str]:
    return [str(problem) for problem in validate_corpus(root).problems]


def test_clean_corpus(root: Path, codecs: dict[str, FakeCodec]) -> None:
    twin_pair(root)
    report = validate_corpus(root)
    assert report.problems == ()
    assert report.ok
    assert report.summary() == "2 cases valid"
    assert [case.id for case in report.cases] == [
        "single-tool/weather-anthropic",
        "single-tool/weather-openai",
    ]
    # Each payload went through its own dialect's codec.
    assert [kind for kind, _ in codecs["openai-chat"].calls] == ["request", "response"]
    assert codecs["anthropic-messages"].calls[0][1]["max_tokens"] == 1024


def test_stream_goes_to_parse_stream_and_errors_are_not_parsed(
    root: Path, codecs: dict[str, FakeCodec]
) -> None:
    document = make_case("streaming/x", features=["streaming"])
    document["interactions"] = [
        interaction({"messages": []}, OPENAI_STREAM, stream=True),
        interaction({"messages": []}, {"error": {"message": "bad"}}, status=400),
    ]
    write_case_file(root, "streaming/x", document)
    assert _lines(root) == []
    calls = codecs["openai-chat"].calls
    assert [kind for kind, _ in calls] == ["request", "stream", "request"]
    assert len(calls[1][1]) == 3  # three events, [DONE] included


def test_every_problem_is_collected(root: Path, codecs: dict[str, FakeCodec]) -> None:
    twin_pair(root)
    write_case_file(root, "broken/yaml", "version: 1\ntoolwire: [\n")
    write_case_file(root, "broken/profile", make_case("broken/profile", profile="openia"))
    write_case_file(root, "broken/version", {**make_case("broken/version"), "version": 2})
    negative = make_case("broken/negative", features=["negative"])
    write_case_file(root, "broken/negative", negative)
    report = validate_corpus(root)
    assert [problem.source for problem in report.problems] == [
        "corpus/broken/profile.yaml",
        "corpus/broken/version.yaml",
        "corpus/broken/yaml.yaml:3",
        "corpus/broken/negative.yaml",
    ]
    assert report.summary() == "4 problems in 6 case files"
    assert not report.ok


def test_duplicate_ids_even_if_the_paths_differ(root: Path, codecs: dict[str, FakeCodec]) -> None:
    write_case_file(root, "a", make_case("a"))
    write_case_file(root, "a", make_case("a"), suffix=".yml")
    assert _lines(root) == [
        "corpus/a.yml: case files end in .yaml (rename it: only .yaml files ship in the package)",
        "corpus/a.yml: duplicate id 'a', also used by corpus/a.yaml "
        "(ids are unique: delete or rename one of the two files)",
    ]


def test_twin_problems(root: Path, codecs: dict[str, FakeCodec]) -> None:
    twin_pair(root)
    write_case_file(
        root,
        "dangling",
        make_case("dangling", twins={"anthropic-messages": "single-tool/weather-anthropc"}),
    )
    write_case_file(
        root, "wrong-dialect", make_case("wrong-dialect", twins={"deepseek-chat": "dangling"})
    )
    longer = make_case("longer", "anthropic-messages")
    longer["interactions"] *= 2
    write_case_file(root, "longer", longer)
    write_case_file(root, "short", make_case("short", twins={"anthropic-messages": "longer"}))
    assert _lines(root) == [
        "corpus/dangling.yaml: twin anthropic-messages: 'single-tool/weather-anthropc' names no "
        "case (did you mean: single-tool/weather-anthropic?)",
        "corpus/short.yaml: twin anthropic-messages: 'longer' has 2 interactions, this case has 1 "
        "(twins hold the same conversation, one interaction for each)",
        "corpus/wrong-dialect.yaml: twin deepseek-chat: 'dangling' has dialect openai-chat "
        "(list it under twins.openai-chat, or name a deepseek-chat case)",
    ]


def test_negative_cases_and_rule_codes(root: Path, codecs: dict[str, FakeCodec]) -> None:
    write_case_file(
        root, "no-flag", make_case("no-flag", expect={"violations": ["pairing.orphan_result"]})
    )
    write_case_file(root, "no-codes", make_case("no-codes", features=["negative"]))
    write_case_file(
        root,
        "bad-code",
        make_case(
            "bad-code",
            features=["negative"],
            expect={"violations": ["orphan-result", "pairing.orphan_result"]},
        ),
    )
    assert _lines(root) == [
        "corpus/bad-code.yaml: expect.violations: 'orphan-result' is not a rule code "
        "(rule codes look like family.name, e.g. pairing.orphan_result)",
        "corpus/no-codes.yaml: the negative feature needs expect.violations "
        "(list the rule codes the case must trigger, or drop `negative`)",
        "corpus/no-flag.yaml: expect.violations is set but the case lacks the negative feature "
        "(add `negative` to features)",
    ]


def test_xml_expectations(root: Path, codecs: dict[str, FakeCodec]) -> None:
    write_case_file(
        root,
        "qwen",
        make_case(
            "qwen",
            dialect="qwen-xml",
            profile="qwen3-coder",
            features=["qwen-xml"],
            expect={"xml_issues": ["unclosed_tags", "missing_opener"]},
        ),
    )
    write_case_file(root, "not-qwen", make_case("not-qwen", expect={"text": "hi"}))
    assert _lines(root) == [
        "corpus/not-qwen.yaml: expect.tool_calls, text and xml_issues are for qwen-xml cases "
        "(remove them, or make the case a qwen-xml case)",
        "corpus/qwen.yaml: expect.xml_issues: unknown issue code 'unclosed_tags' (did you mean "
        "'unclosed_tag'? valid: missing_opener, unclosed_tag, malformed_markup, unknown_tool, "
        "unknown_parameter, duplicate_parameter, missing_required, invalid_value, "
        "text_after_calls)",
    ]


def test_secret_in_a_header_is_masked(root: Path, codecs: dict[str, FakeCodec]) -> None:
    document = mutated(make_case("leak"))
    document["interactions"][0]["request"]["headers"]["Authorization"] = [f"Bearer {OPENAI_KEY}"]
    write_case_file(root, "leak", document)
    lines = _lines(root)
    assert lines == [
        "corpus/leak.yaml: interaction 1 request header 'Authorization' is a credential header "
        f"and is not allowed (Bear…({len(OPENAI_KEY) + 7} chars)) "
        "(delete the header; recordings must filter credential headers)"
    ]
    assert OPENAI_KEY not in "\n".join(lines)


def test_secret_in_a_body_names_the_line(root: Path, codecs: dict[str, FakeCodec]) -> None:
    document = mutated(make_case("leak"))
    document["interactions"][0]["request"]["body"] = (
        '{\n  "messages": [],\n  "api_key": "' + OPENAI_KEY + '"\n}'
    )
    path = write_case_file(root, "leak", document)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "sk-" in text)
    lines = _lines(root)
    assert lines == [
        f"corpus/leak.yaml:{line}: OpenAI API key sk-p…({len(OPENAI_KEY)} chars) at line {line} "
        "(replace it with a placeholder such as REDACTED and revoke the key if it was real)"
    ]
    assert OPENAI_KEY not in "\n".join(lines)


def test_secret_reported_even_when_the_file_is_broken(
    root: Path, codecs: dict[str, FakeCodec]
) -> None:
    document = make_case("leak", profile="nope")
    document["interactions"][0]["request"]["uri"] += "?api_key=abc123"
    write_case_file(root, "leak", document)
    problems = validate_corpus(root).problems
    assert [p.message.split(" ")[0] for p in problems] == ["API", "toolwire.profile:"]


def test_codec_refusal_is_a_problem(root: Path, codecs: dict[str, FakeCodec]) -> None:
    document = make_case("bad-payload")
    document["interactions"][0]["request"]["body"] = '{"messages": {}}'
    write_case_file(root, "bad-payload", document)
    assert _lines(root) == [
        "corpus/bad-payload.yaml: interaction 1: the request does not parse as openai-chat: "
        "messages: must be a list (send the conversation as a list)"
    ]


def test_schema_negative_case_may_hold_unparseable_payloads(
    root: Path, codecs: dict[str, FakeCodec]
) -> None:
    document = make_case(
        "schema-negative", features=["negative"], expect={"violations": ["schema.request"]}
    )
    document["interactions"][0]["request"]["body"] = '{"messages": {}}'
    write_case_file(root, "schema-negative", document)
    assert _lines(root) == []


def test_body_that_is_not_json(root: Path, codecs: dict[str, FakeCodec]) -> None:
    document = make_case("not-json")
    document["interactions"][0]["response"]["body"]["string"] = "<html>oops</html>"
    write_case_file(root, "not-json", document)
    assert _lines(root) == [
        "corpus/not-json.yaml: interaction 1 response body: is not valid JSON: Expecting value "
        "at line 1 column 1 (store the body exactly as sent on the wire)"
    ]


def test_codec_crash_is_reported_not_raised(root: Path, codecs: dict[str, FakeCodec]) -> None:
    document = make_case("crash")
    document["interactions"][0]["request"]["body"] = '{"messages": [], "crash": true}'
    write_case_file(root, "crash", document)
    assert _lines(root) == [
        "corpus/crash.yaml: interaction 1: the openai-chat codec crashed on the request "
        "(KeyError: 'boom') (this is a bug in the codec, not in the case)"
    ]


def test_missing_codec_reported_once(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(dialect: str) -> FakeCodec:
        raise ImportError(f"No module named 'codec_{dialect}'")

    monkeypatch.setattr("toolwire.harness.corpus.validate.get_codec", broken)
    write_case_file(root, "a", make_case("a"))
    write_case_file(root, "b", make_case("b"))
    assert _lines(root) == [
        "openai-chat codec: cannot be loaded (ImportError: No module named 'codec_openai-chat') "
        "(the payloads of openai-chat cases were not checked)"
    ]


def test_empty_corpus_is_valid(root: Path) -> None:
    report = validate_corpus(root)
    assert report.ok
    assert report.summary() == "0 cases valid"


def test_problem_formatting() -> None:
    assert str(Problem("a.yaml", "is wrong", "fix it")) == "a.yaml: is wrong (fix it)"
    assert str(Problem("a.yaml", "is wrong")) == "a.yaml: is wrong"


def test_error_body_checked_only_when_it_says_json(
    root: Path, codecs: dict[str, FakeCodec]
) -> None:
    html = make_case("gateway")
    html["interactions"][0]["response"] = {
        "status": {"code": 502, "message": "Bad Gateway"},
        "headers": {"Content-Type": ["text/html"]},
        "body": {"string": "<html>Bad Gateway</html>"},
    }
    write_case_file(root, "gateway", html)
    broken = make_case("broken-error")
    broken["interactions"][0]["response"]["status"] = {"code": 400, "message": "Bad Request"}
    broken["interactions"][0]["response"]["body"]["string"] = "{oops"
    write_case_file(root, "broken-error", broken)
    assert _lines(root) == [
        "corpus/broken-error.yaml: interaction 1 response body: is not valid JSON: Expecting "
        "property name enclosed in double quotes at line 1 column 2 "
        "(store the body exactly as sent on the wire)"
    ]
    # Neither error response went to the codec.
    assert [kind for kind, _ in codecs["openai-chat"].calls] == ["request", "request"]
