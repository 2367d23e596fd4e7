"""What a newcomer gets wrong first gets a message that says how to write it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import bundled_corpus_root, is_checkout_corpus

CASE_FILE = bundled_corpus_root() / "single-tool" / "array-arguments-openai.yaml"


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_a_dotted_spec_is_answered_with_the_colon_form() -> None:
    result = _run("run", "--adapter", "toolwire.harness.adapters.reference.ReferenceAdapter")
    assert result.exit_code == 2
    assert "did you mean toolwire.harness.adapters.reference:ReferenceAdapter?" in result.output


def test_a_file_path_spec_names_the_module_to_write_instead() -> None:
    result = _run("run", "--adapter", "adapters/my_converter.py:MyAdapter")
    assert result.exit_code == 2
    assert "'adapters/my_converter.py' is a file path" in result.output
    assert "write adapters.my_converter:MyAdapter" in result.output
    assert "Traceback" not in result.output


def test_a_case_file_given_as_corpus_says_it_wants_the_folder() -> None:
    result = _run("run", "--adapter", "reference", "--corpus", str(CASE_FILE))
    assert result.exit_code == 2
    assert "is a file, not a corpus folder" in result.output
    assert "--select '*/array-arguments-openai'" in result.output
    listed = _run("corpus", "list", "--corpus", str(CASE_FILE))
    assert listed.exit_code == 2
    assert "is a file, not a corpus folder" in listed.output


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("dialect:openai", "unknown dialect 'openai' in --select 'dialect:openai' "),
        ("feature:paralel", "did you mean feature:parallel?"),
    ],
)
def test_an_unknown_dialect_or_feature_in_select_lists_the_names(term: str, expected: str) -> None:
    result = _run("run", "--adapter", "reference", "--select", term)
    assert result.exit_code == 2
    assert expected in result.output
    kind = term.split(":")[0]
    assert f"{kind}s: " in result.output  # the known names follow


def test_corpus_add_without_corpus_refuses_to_write_into_an_installed_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = tmp_path / "site-packages" / "toolwire" / "_corpus"
    installed.mkdir(parents=True)
    monkeypatch.setattr("toolwire.harness.cli.corpus_cmd.bundled_corpus_root", lambda: installed)
    cassette = tmp_path / "recorded.yaml"
    cassette.write_text("version: 1\ninteractions: []\n")
    result = _run("corpus", "add", str(cassette))
    assert result.exit_code == 2
    assert f"installed toolwire package ({installed})" in result.output
    assert "pass --corpus FOLDER" in result.output
    assert list(installed.iterdir()) == []


def test_the_checkout_corpus_is_recognised_as_a_checkout() -> None:
    # make test runs from a checkout with an editable install.
    assert is_checkout_corpus(bundled_corpus_root())
    assert not is_checkout_corpus(bundled_corpus_root() / "single-tool")
