"""`toolwire run` judges only an adapter someone named, and a project sets its
options once: [tool.toolwire] in pyproject.toml under TOOLWIRE_* variables
under the command line. --fail-on warn (--strict) gates on SHOULD verdicts,
and each SHOULD verdict says under which profile it is a MUST, and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolwire.harness.adapters.loader import available_adapter_names
from toolwire.harness.cli.main import cli

ADAPTERS = "tests.engine.test_adapters"
PASS = f"{ADAPTERS}:PassThrough"
RAISES = f"{ADAPTERS}:Raises"
# Splits the results of one turn into two user messages: a SHOULD toward a
# target that merges consecutive user messages (the profile anthropic-merging),
# a MUST under the default profile anthropic and under anthropic-strict.
SPLIT = "tests.selftest.broken_requests:ResultsSplit"
MERGING = ("--profile", "anthropic-messages=anthropic-merging")
SPLIT_CASE = "parallel/two-cities-openai"
WEATHER = "single-tool/weather-openai"


@pytest.fixture(autouse=True)
def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder of its own (no pyproject.toml above it names an
    adapter) and no TOOLWIRE_* variable from the suite."""
    monkeypatch.chdir(tmp_path)
    for name in ("TOOLWIRE_ADAPTER", "TOOLWIRE_FAIL_ON", "TOOLWIRE_PROFILES", "TOOLWIRE_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner(env=env).invoke(cli, ["run", *args], catch_exceptions=False)


def _pyproject(folder: Path, table: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(f'[project]\nname = "converter"\n\n[tool.toolwire]\n{table}\n')
    return path


def _error(result: Result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("toolwire: error:")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- no silent default --------------------------------------------------------


def test_without_an_adapter_run_is_a_usage_error_listing_the_installed_ones() -> None:
    result = _run("--select", WEATHER)
    assert result.exit_code == 2, result.output
    line = _error(result)
    assert "no adapter to judge" in line
    assert "TOOLWIRE_ADAPTER" in line and "[tool.toolwire]" in line
    assert "installed adapters: " + ", ".join(available_adapter_names()) in line
    assert "PASS" not in result.output  # nothing was judged


def test_a_pyproject_without_a_toolwire_table_names_no_adapter(_project: Path) -> None:
    (_project / "pyproject.toml").write_text('[project]\nname = "converter"\n')
    assert _run("--select", WEATHER).exit_code == 2


def test_pyproject_names_the_adapter_and_every_other_option(
    _project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pyproject(
        _project,
        f'adapter = "{PASS}"\nselect = "{WEATHER}"\nreport-dir = "reports"\n'
        'timeout = 5\nfail-on = "warn"\nprofiles = ["anthropic-messages=anthropic-strict"]\n'
        'progress = "off"\njobs = 1\n',
    )
    inner = _project / "src" / "pkg"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)  # found from a folder below; its paths read from its own folder
    result = _run()
    assert result.exit_code == 0, result.output
    assert "adapter pass-through" in result.output
    document = json.loads((_project / "reports" / "results.json").read_text())
    assert list(document["case_features"]) == [WEATHER]
    assert document["profiles"] == {"anthropic-messages": "anthropic-strict"}


def test_the_command_line_wins_over_the_environment_over_pyproject(_project: Path) -> None:
    _pyproject(_project, f'adapter = "{RAISES}"')
    assert _run("--select", WEATHER).exit_code == 3  # pyproject: the raising adapter
    from_env = _run("--select", WEATHER, env={"TOOLWIRE_ADAPTER": PASS})
    assert from_env.exit_code == 0, from_env.output
    from_cli = _run("--select", WEATHER, "--adapter", RAISES, env={"TOOLWIRE_ADAPTER": PASS})
    assert from_cli.exit_code == 3


def test_fail_on_from_pyproject_under_the_environment(_project: Path) -> None:
    _pyproject(
        _project,
        f'adapter = "{SPLIT}"\nfail-on = "warn"\nselect = "{SPLIT_CASE}"\n'
        'profiles = ["anthropic-messages=anthropic-merging"]',
    )
    assert _run().exit_code == 1
    assert _run(env={"TOOLWIRE_FAIL_ON": "must"}).exit_code == 0
    assert _run("--fail-on", "warn", env={"TOOLWIRE_FAIL_ON": "must"}).exit_code == 1


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('adapter = "reference"\ntimeout = "soon"', "timeout: 'soon' is not a valid float"),
        ('adapter = "reference"\nfail-on = "never"', "fail-on: 'never' is not one of"),
        ('adapter = "reference"\njobs = 0', "jobs: '0' is not a number of processes"),
        ('adaptor = "reference"', "adaptor: not an option of toolwire run (did you mean 'adapter'"),
        ('adapter = "reference"\nprofiles = "x"', "profiles: 'x' is not a list of DIALECT=PROF"),
        (
            'adapter = "reference"\nprofiles = ["openai-chat=anthropic-strict"]',
            "profiles: 'openai-chat=anthropic-strict': anthropic-strict is not a profile of",
        ),
        ("adapter = 3.5\nverbose = 1", "verbose: 1 is not true or false"),
        ('adapter = "reference"\ncorpus = ""', "corpus: '' is not a path"),
    ],
)
def test_a_bad_value_names_the_file_and_the_key(_project: Path, table: str, expected: str) -> None:
    path = _pyproject(_project, table)
    result = _run("--select", WEATHER)
    assert result.exit_code == 2, result.output
    line = _error(result)
    assert f"{path} [tool.toolwire] " in line
    assert expected in line


def test_a_pyproject_that_is_not_toml_is_named(_project: Path) -> None:
    (_project / "pyproject.toml").write_text("[tool.toolwire\nadapter = 'reference'\n")
    result = _run()
    assert result.exit_code == 2
    assert "pyproject.toml: not valid TOML" in _error(result)


def test_a_bad_environment_value_names_the_variable() -> None:
    result = _run("--adapter", PASS, "--select", WEATHER, env={"TOOLWIRE_TIMEOUT": "soon"})
    assert result.exit_code == 2
    assert "$TOOLWIRE_TIMEOUT (for '--timeout')" in result.output


# --- strict mode ----------------------------------------------------------------


def test_a_should_verdict_passes_and_says_where_it_is_a_must() -> None:
    result = _run("--adapter", SPLIT, "--select", SPLIT_CASE, *MERGING)
    assert result.exit_code == 0, result.output
    assert "WARN parallel/two-cities-openai::ordering.parallel_results_split" in result.output
    stricter = next(line for line in result.output.splitlines() if "Stricter:" in line)
    assert "MUST under anthropic (Every real Anthropic-format endpoint" in stricter
    assert "and anthropic-strict (Anthropic-compatible servers that accept no" in stricter
    assert "400" in stricter  # why: what such a server answers
    assert "--profile anthropic-messages=anthropic-strict" in stricter
    assert "1 SHOULD verdicts do not fail this run: --fail-on warn" in result.output
    assert "PASS: exit 0" in result.output


@pytest.mark.parametrize("gate", [("--fail-on", "warn"), ("--strict",)])
def test_fail_on_warn_fails_the_run_on_a_should_verdict(tmp_path: Path, gate: tuple[str]) -> None:
    reports = tmp_path / "reports"
    result = _run(
        "--adapter", SPLIT, "--select", SPLIT_CASE, "--report-dir", str(reports), *MERGING, *gate
    )
    assert result.exit_code == 1, result.output
    assert "1 SHOULD verdicts fail this run (--fail-on warn)" in result.output
    assert "FAIL: exit 1" in result.output
    document = json.loads((reports / "results.json").read_text())
    assert document["exit_code"] == 1 and document["totals"]["fail"] == 0


def test_fail_on_warn_leaves_a_clean_run_passing() -> None:
    result = _run("--adapter", PASS, "--select", WEATHER, "--strict")
    assert result.exit_code == 0, result.output


def test_the_strict_profile_from_the_environment_makes_it_a_must_failure() -> None:
    env = {"TOOLWIRE_PROFILES": "anthropic-messages=anthropic-strict openai-chat=openai"}
    result = _run("--adapter", SPLIT, "--select", SPLIT_CASE, env=env)
    assert result.exit_code == 1, result.output
    assert "FAIL parallel/two-cities-openai::ordering.parallel_results_split" in result.output
    assert "(MUST under profile anthropic-strict)" in result.output
