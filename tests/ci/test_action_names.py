"""step.py's pure parts: the default artifact name (distinct per matrix job,
only characters upload-artifact accepts) and what gets installed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.real_transcripts import PROJECT_ROOT

STEP_PY = PROJECT_ROOT / ".github" / "toolwire-action" / "step.py"


def _load_step() -> ModuleType:
    spec = importlib.util.spec_from_file_location("toolwire_action_step", STEP_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


step = _load_step()


def _inputs(**values: str) -> object:
    env = {f"INPUT_{key.upper()}": value for key, value in values.items()}
    return step.Inputs.from_env(env)


def _name(adapter: str = "reference", **env: str) -> str:
    name: str = step.artifact_name(_inputs(adapter=adapter), {"GITHUB_JOB": "conformance", **env})
    return name


def test_a_job_without_a_matrix_is_named_after_the_job_and_the_adapter() -> None:
    assert _name() == "toolwire-conformance-reference"
    assert _name(TOOLWIRE_MATRIX="null", TOOLWIRE_JOB_INDEX="0", TOOLWIRE_JOB_TOTAL="1") == (
        "toolwire-conformance-reference"
    )


def test_matrix_values_name_each_job_of_a_matrix() -> None:
    matrix = {"os": "ubuntu-latest", "python": "3.12"}
    assert _name(TOOLWIRE_MATRIX=json.dumps(matrix)) == (
        "toolwire-conformance-ubuntu-latest-3.12-reference"
    )


def test_without_matrix_values_the_job_index_tells_the_jobs_apart() -> None:
    first = _name(TOOLWIRE_JOB_INDEX="0", TOOLWIRE_JOB_TOTAL="2")
    second = _name(TOOLWIRE_JOB_INDEX="1", TOOLWIRE_JOB_TOTAL="2")
    assert first == "toolwire-conformance-0-reference"
    assert second == "toolwire-conformance-1-reference"


@pytest.mark.parametrize(
    ("adapters", "matrices"),
    [
        # ':' and '/' are refused by upload-artifact: replaced, and a hash keeps them apart
        (("pkg.mod:Adapter", "pkg.mod_Adapter"), ({}, {})),
        (("http://127.0.0.1:8080", "http://127.0.0.1:8081"), ({}, {})),
        # values that only differ past the length limit
        (("reference", "reference"), ({"a": "x" * 90 + "1"}, {"a": "x" * 90 + "2"})),
        # nested matrix values (an include with objects)
        (("reference", "reference"), ({"cfg": {"a": 1}}, {"cfg": {"a": 2}})),
    ],
)
def test_names_stay_distinct_and_acceptable_to_upload_artifact(
    adapters: tuple[str, str], matrices: tuple[dict[str, object], dict[str, object]]
) -> None:
    names = [
        _name(adapter, TOOLWIRE_MATRIX=json.dumps(matrix) if matrix else "null")
        for adapter, matrix in zip(adapters, matrices, strict=True)
    ]
    assert names[0] != names[1]
    for name in names:
        assert not set(name) & set(step.ARTIFACT_FORBIDDEN), name
        assert len(name) <= step.NAME_LIMIT, name


def test_a_re_run_attempt_gets_its_own_name() -> None:
    assert _name(GITHUB_RUN_ATTEMPT="1") == "toolwire-conformance-reference"
    assert _name(GITHUB_RUN_ATTEMPT="2") == "toolwire-conformance-reference-attempt-2"


def test_a_chosen_name_is_kept_or_refused_with_the_character() -> None:
    env = {"GITHUB_JOB": "conformance"}
    chosen = step.Inputs.from_env({"INPUT_ARTIFACT_NAME": "toolwire linux 3.12"})
    assert step.artifact_name(chosen, env) == "toolwire linux 3.12"
    refused = step.Inputs.from_env({"INPUT_ARTIFACT_NAME": "a:b"})
    with pytest.raises(step.UsageError, match="holds ':', which upload-artifact refuses"):
        step.artifact_name(refused, env)


def test_the_default_install_is_the_actions_own_checkout(tmp_path: Path) -> None:
    env = {"GITHUB_ACTION_PATH": str(PROJECT_ROOT)}
    target = step.install_target(_inputs(), env)
    assert target == str(PROJECT_ROOT)
    assert step.install_command(target) == [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        str(PROJECT_ROOT),
    ]
    assert step.install_target(_inputs(toolwire="toolwire==0.1.0"), env) == "toolwire==0.1.0"
    assert step.install_target(_inputs(toolwire="installed"), env) is None
    with pytest.raises(step.UsageError, match="is not a toolwire checkout"):
        step.install_target(_inputs(), {"GITHUB_ACTION_PATH": str(tmp_path)})


def test_pips_reason_is_its_last_error_line() -> None:
    system_python = (
        "error: externally-managed-environment\n\n"
        "× This environment is externally managed\n"
        "hint: See PEP 668 for the detailed specification.\n"
    )
    assert step._pip_error(system_python) == "externally-managed-environment"
    unresolved = (
        "ERROR: Could not find a version that satisfies the requirement toolwire==9\n"
        "ERROR: No matching distribution found for toolwire==9\n"
    )
    assert step._pip_error(unresolved) == "No matching distribution found for toolwire==9"
    assert step._pip_error("Killed\n") == "Killed"
