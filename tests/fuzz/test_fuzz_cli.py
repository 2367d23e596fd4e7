"""`toolwire fuzz` on the command line: exit codes, the printed failure, the saved cassette."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from toolwire.harness.cli.main import cli
from toolwire.harness.corpus.loader import load_corpus
from toolwire.harness.model import DIALECTS

DOUBLE_ENCODED = "tests.selftest.broken_responses:DoubleEncodedArguments"


def fuzz(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["fuzz", *args])
    return result.exit_code, result.stdout, result.stderr


def test_reference_passes_and_says_how_many_exchanges_ran() -> None:
    examples = 2 * len(DIALECTS)  # two per source dialect
    code, out, err = fuzz("--examples", str(examples), "--seed", "5")
    assert code == 0, out + err
    assert "toolwire fuzz: adapter reference, seed 5" in out
    assert f"PASS: no failure in {examples} generated exchanges" in out
    assert "fuzzing 2 qwen-xml exchanges" in err


def test_a_failure_is_printed_shrunk_reproducible_and_saved(tmp_path: Path) -> None:
    folder = tmp_path / "found"
    code, out, _ = fuzz(
        "--adapter",
        DOUBLE_ENCODED,
        "--dialect",
        "anthropic-messages",
        "--examples",
        "40",
        "--seed",
        "9",
        "--save-failure",
        str(folder),
    )
    assert code == 1, out
    assert "FUZZ FAILURE fidelity.arguments (anthropic-messages source)" in out
    assert "Rule: " in out and "Where: response anthropic-messages->openai-chat" in out
    assert "Minimal anthropic-messages response" in out
    assert '"type": "tool_use"' in out
    assert (
        f"Reproduce: toolwire fuzz --adapter {DOUBLE_ENCODED} --examples 40 --seed 9 "
        "--dialect anthropic-messages" in out
    )
    [saved] = sorted(folder.glob("*.yaml"))
    assert f"Saved {saved}: keep it with `toolwire corpus add {saved}`" in out

    corpus = tmp_path / "corpus"
    added = CliRunner().invoke(cli, ["corpus", "add", str(saved), "--corpus", str(corpus)])
    assert added.exit_code == 0, added.output
    [case] = list(load_corpus(corpus))
    assert case.dialect == "anthropic-messages" and case.provenance.kind == "documented"


def test_json_output_lists_the_failures_with_their_payloads() -> None:
    code, out, _ = fuzz(
        "--adapter",
        DOUBLE_ENCODED,
        "--dialect",
        "anthropic-messages",
        "--examples",
        "40",
        "--seed",
        "9",
        "--format",
        "json",
    )
    document = json.loads(out)
    assert code == 1 == document["exit_code"]
    [failure] = [f for f in document["failures"] if f["rule"] == "fidelity.arguments"]
    assert failure["kind"] == "response"
    assert failure["payload"]["type"] == "message"
    assert document["seed"] == 9 and document["saved"] == []


def test_usage_errors_exit_2_and_name_the_fix() -> None:
    code, _, err = fuzz("--profile", "anthropic-messages=openai")
    assert code == 2
    assert "openai is not a profile of anthropic-messages" in err
    code, _, err = fuzz("--profile", "nonsense")
    assert code == 2 and "is not DIALECT=PROFILE" in err
    code, _, err = fuzz("--adapter", "no-such-adapter")
    assert code == 2 and "unknown adapter 'no-such-adapter'" in err
    code, _, _ = fuzz("--examples", "0")
    assert code == 2


def test_without_hypothesis_the_command_names_the_extra_to_install() -> None:
    script = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "from toolwire.harness.cli.main import main\n"
        "main(['fuzz', '--examples', '1'])\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 2
    assert "pip install 'toolwire[fuzz]'" in result.stderr
    assert "Traceback" not in result.stderr
