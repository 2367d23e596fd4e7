"""The level policy (docs/levels.md), enforced: every MUST rule cites its evidence,
and no SHOULD finding says "must"."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

from toolwire.conformance.catalogue import RULES, RULES_BY_CODE
from toolwire.conformance.levels import MUST_EVIDENCE, can_be_must, can_be_should, must_rules

CONFORMANCE = Path(__file__).resolve().parents[2] / "conformance"
MUST_WORD = re.compile(r"\bmust\b", re.IGNORECASE)
# Where provider documentation lives: a requirement or a meaning cites one of these.
PROVIDER_HOSTS = {
    "platform.openai.com",
    "docs.anthropic.com",
    "docs.claude.com",
    "platform.claude.com",
    "api-docs.deepseek.com",
    "huggingface.co",
    "ai.google.dev",
}
# A recorded rejection: a public report of the API's answer (issue or pull request).
FINDING_BUILDERS = ("finding", "Finding")
REJECTION = re.compile(r"^https://github\.com/[^/]+/[^/]+/(issues|pull)/\d+$")


def test_every_rule_that_can_fail_a_run_cites_evidence() -> None:
    missing = [rule.code for rule in must_rules() if not MUST_EVIDENCE.get(rule.code)]
    assert missing == [], "MUST rules without evidence (docs/levels.md): " + ", ".join(missing)


def test_evidence_names_real_rules_that_are_must_somewhere() -> None:
    assert set(MUST_EVIDENCE) <= set(RULES_BY_CODE)
    assert all(can_be_must(RULES_BY_CODE[code]) for code in MUST_EVIDENCE)


@pytest.mark.parametrize("rule", must_rules(), ids=lambda rule: rule.code)
def test_evidence_is_of_a_kind_that_supports_must(rule: object) -> None:
    code = rule.code  # type: ignore[attr-defined]
    scopes = rule.scopes  # type: ignore[attr-defined]
    for item in MUST_EVIDENCE[code]:
        assert item.says.strip() and len(item.says) <= 200, item
        assert not item.says.endswith("."), "a few words, not a sentence to end"
        host = urlparse(item.url).hostname
        if item.kind == "rejection":
            assert REJECTION.match(item.url), f"{code}: a rejection cites its report: {item.url}"
        else:
            assert item.url.startswith("https://") and host in PROVIDER_HOSTS, item.url
    # A payload judged on its own has no source to mean something else than:
    # its MUST rests on a requirement or a rejection.
    if "payload" in scopes:
        kinds = {item.kind for item in MUST_EVIDENCE[code]}
        assert kinds & {"requirement", "rejection"}, f"{code}: payload scope needs more"


def test_a_meaning_alone_supports_must_only_across_a_conversion() -> None:
    for code, items in MUST_EVIDENCE.items():
        if {item.kind for item in items} == {"meaning"}:
            assert RULES_BY_CODE[code].scopes <= {"conversion", "roundtrip", "replay"}, code


# --- SHOULD findings never say "must" --------------------------------------------


def _message_texts(node: ast.expr) -> list[str]:
    """The literal text of a finding message: plain strings and f-string parts."""
    return [
        part.value
        for part in ast.walk(node)
        if isinstance(part, ast.Constant) and isinstance(part.value, str)
    ]


def _module_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level NAME = "string" assignments (``CODE = "replay.assistant_altered"``)."""
    return {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _code_of(node: ast.expr | None, constants: dict[str, str], tree: ast.Module) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    # A code held in a local variable: the module may only build MUST-only rules'
    # findings that way, or the walk cannot say whose message it is.
    named = {
        part.value
        for part in ast.walk(tree)
        if isinstance(part, ast.Constant) and part.value in RULES_BY_CODE
    }
    should = sorted(code for code in named if can_be_should(RULES_BY_CODE[code]))
    assert should == [], f"a finding whose code is a variable, beside SHOULD rules {should}"
    return None


def _findings_by_code() -> dict[str, list[tuple[str, int, str]]]:
    """code -> [(file, line, literal text)] for every finding(...) built in conformance/."""
    found: dict[str, list[tuple[str, int, str]]] = {}
    for path in sorted(CONFORMANCE.rglob("*.py")):
        if path.name == "findings.py":
            continue  # the helper itself
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _module_constants(tree)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call) and getattr(node.func, "id", None) in FINDING_BUILDERS
            ):
                continue
            code = _code_of(node.args[0] if node.args else None, constants, tree)
            message = node.args[1] if len(node.args) > 1 else None
            message = next((k.value for k in node.keywords if k.arg == "message"), message)
            if code is None or message is None:
                continue
            for text in _message_texts(message):
                where = str(path.relative_to(CONFORMANCE))
                found.setdefault(code, []).append((where, node.lineno, text))
    return found


def test_the_structural_walk_sees_the_finding_messages() -> None:
    found = _findings_by_code()
    # Every rule family builds its findings with finding(code, message): the walk
    # must see most of the catalogue, or it checks nothing.
    assert len(found) >= len(RULES) // 2
    assert "ordering.role_alternation" in found and "ordering.result_order" in found
    assert "replay.assistant_altered" in found  # a code held in a module constant


def test_no_finding_message_of_a_rule_that_can_be_should_says_must() -> None:
    saying_must = [
        f"{file}:{line} {code}: {text!r}"
        for code, texts in _findings_by_code().items()
        if code in RULES_BY_CODE and can_be_should(RULES_BY_CODE[code])
        for file, line, text in texts
        if MUST_WORD.search(text)
    ]
    assert saying_must == []
