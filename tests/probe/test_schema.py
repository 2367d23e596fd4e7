"""The published JSON Schema of the capability profile."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from toolwire.harness.probe.evidence import STEPS, step_result
from toolwire.harness.probe.profile import Binding, build_profile
from toolwire.harness.probe.schema import profile_schema, schema_text, validate_profile

VALUES = {
    1: "xml",
    2: "simple-object",
    3: None,
    4: False,
    5: "limited",
    6: True,
    7: True,
}


def _document() -> dict[str, Any]:
    results = [step_result(n, VALUES[n], "pass", f"step {n} reason") for n in STEPS]
    binding = Binding(
        "127.0.0.1:8000", "m", "http://127.0.0.1:8000/v1/chat/completions", "openai-chat"
    )
    moment = datetime.datetime(2026, 5, 1, 12, 30, 5, tzinfo=datetime.UTC)
    return build_profile(binding, moment, results).as_json()


def test_the_schema_is_valid_draft_2020_12_and_printed_as_json() -> None:
    Draft202012Validator.check_schema(profile_schema())
    assert schema_text().endswith("}\n")


def test_a_built_profile_validates_and_carries_each_value() -> None:
    document = _document()
    assert validate_profile(document) == []
    assert document["verifiedAt"] == "2026-05-01T12:30:05Z"
    assert document["toolCallFormat"] == "xml"
    assert document["errorRepair"] == "limited"
    assert document["evidence"]["singleToolLoop"]["dimension"] is None
    assert document["evidence"]["reasoningState"]["dimension"] == "requiresReasoningReplay"
    assert document["binding"]["chatTemplateHash"] is None


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("toolCallFormat",), "yaml", "toolCallFormat: 'yaml' is not one of ['anthropic', "),
        (("schemaLevel",), "strict", "schemaLevel: 'strict' is not one of"),
        (("evidence", "streaming", "status"), "ok", "evidence.streaming.status: 'ok'"),
        (("verifiedAt",), "2026-05-01", "verifiedAt: '2026-05-01' does not match"),
        (("binding", "dialect"), "deepseek-chat", "binding.dialect: 'deepseek-chat'"),
        (("supportsParallelToolUse",), "yes", "supportsParallelToolUse: 'yes' is not of type"),
    ],
)
def test_a_wrong_value_is_named_at_its_path(
    path: tuple[str, ...], value: Any, message: str
) -> None:
    document = copy.deepcopy(_document())
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    problems = validate_profile(document)
    assert len(problems) == 1, problems
    assert message in problems[0]


def test_missing_and_unknown_keys_are_refused() -> None:
    document = copy.deepcopy(_document())
    del document["evidence"]["errorRepair"]
    document["extra"] = 1
    problems = validate_profile(document)
    assert "$: Additional properties are not allowed ('extra' was unexpected)" in problems
    assert "evidence: 'errorRepair' is a required property" in problems
