"""action.yml, toolwire's workflow and the workflow docs/ci.md tells users to
paste, validated against SchemaStore's published schemas (github-action.json,
github-workflow.json, as vendored by check-jsonschema); the docs' input and
output tables and the step's outputs kept in sync with action.yml."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.support.real_transcripts import PROJECT_ROOT

ACTION = PROJECT_ROOT / "action.yml"
WORKFLOW = PROJECT_ROOT / ".github" / "workflows" / "conformance.yml"
CI_DOC = PROJECT_ROOT / "docs" / "ci.md"
STEP_PY = PROJECT_ROOT / ".github" / "toolwire-action" / "step.py"


class _Yaml12Loader(yaml.SafeLoader):
    """PyYAML reads YAML 1.1, where the key `on:` is the boolean true; GitHub
    (YAML 1.2) reads the string "on". Only true/false are booleans here."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Yaml12Loader)  # a SafeLoader: safe


def _schema(name: str) -> dict[str, Any]:
    vendor = resources.files("check_jsonschema.builtin_schemas.vendor")
    schema: dict[str, Any] = json.loads((vendor / f"{name}.json").read_text(encoding="utf-8"))
    return schema


def schema_errors(document: Any, name: str) -> list[str]:
    schema = _schema(name)
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def doc_workflows() -> list[Any]:
    blocks = re.findall(r"^```yaml\n(.*?)^```", CI_DOC.read_text(encoding="utf-8"), re.M | re.S)
    return [load_yaml(block) for block in blocks]


def action() -> dict[str, Any]:
    loaded: dict[str, Any] = load_yaml(ACTION.read_text(encoding="utf-8"))
    return loaded


# --- the published schemas ---------------------------------------------------


def test_action_yml_is_a_valid_action() -> None:
    assert schema_errors(action(), "github-actions") == []


def test_toolwires_own_workflow_is_a_valid_workflow() -> None:
    assert schema_errors(load_yaml(WORKFLOW.read_text(encoding="utf-8")), "github-workflows") == []


def test_the_workflow_in_the_docs_is_a_valid_workflow_that_uses_the_action() -> None:
    [workflow] = doc_workflows()
    assert schema_errors(workflow, "github-workflows") == []
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    [uses] = [step for step in steps if re.fullmatch(r"OWNER/toolwire@\S+", step.get("uses", ""))]
    assert set(uses["with"]) <= set(action()["inputs"])
    assert "matrix" in next(iter(workflow["jobs"].values()))["strategy"]
    text = json.dumps(workflow)
    used = set(re.findall(r"steps\.toolwire\.outputs\.([\w-]+)", text))
    assert used and used <= set(action()["outputs"])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("      shell: bash\n      env:\n", "      shel: bash\n      env:\n"),  # a typo in a step
        ("description: Judge", "summary: Judge"),  # the required description missing
        ("  using: composite", "  using: composit"),
        ("    value: ${{ steps.run.outputs.passed }}\n", ""),  # an output without its value
    ],
)
def test_a_broken_action_yml_fails_the_schema(tmp_path: Path, old: str, new: str) -> None:
    text = ACTION.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "action.yml"
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert schema_errors(load_yaml(broken.read_text(encoding="utf-8")), "github-actions") != []


def test_a_broken_workflow_fails_the_schema() -> None:
    [workflow] = doc_workflows()
    del next(iter(workflow["jobs"].values()))["runs-on"]
    assert schema_errors(workflow, "github-workflows") != []


def test_on_is_read_as_a_string_key_as_github_reads_it() -> None:
    assert "on" in load_yaml(WORKFLOW.read_text(encoding="utf-8"))


# --- action.yml against itself, the step and the docs ------------------------


def test_every_expression_names_a_declared_input_or_step() -> None:
    declared = action()
    text = ACTION.read_text(encoding="utf-8")
    step_ids = {step["id"] for step in declared["runs"]["steps"] if "id" in step}
    assert set(re.findall(r"inputs\.([\w-]+)", text)) == set(declared["inputs"])
    assert set(re.findall(r"steps\.([\w-]+)\.outputs", text)) <= step_ids


def test_every_input_reaches_the_step_and_every_output_comes_from_it() -> None:
    declared = action()
    [run] = [step for step in declared["runs"]["steps"] if step.get("id") == "run"]
    for name in declared["inputs"]:
        variable = "INPUT_" + name.upper().replace("-", "_")
        assert run["env"][variable] == f"${{{{ inputs.{name} }}}}", name
    step_text = STEP_PY.read_text(encoding="utf-8")
    outputs = re.search(r"^OUTPUTS = \((.*?)\)", step_text, re.M | re.S)
    assert outputs is not None
    assert re.findall(r'"([\w-]+)"', outputs.group(1)) == list(declared["outputs"])
    for name, output in declared["outputs"].items():
        assert output["value"] == f"${{{{ steps.run.outputs.{name} }}}}"


def _doc_table(header: str) -> list[list[str]]:
    text = CI_DOC.read_text(encoding="utf-8")
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_docs_tables_list_the_inputs_and_outputs_of_action_yml() -> None:
    declared = action()
    inputs = _doc_table("| input | default | meaning |")
    assert [row[0] for row in inputs] == [f"`{name}`" for name in declared["inputs"]]
    for row in inputs:
        default = declared["inputs"][row[0].strip("`")]["default"]
        if default:
            assert row[1] == f"`{default}`", row
    outputs = _doc_table("| output | meaning |")
    assert [row[0] for row in outputs] == [f"`{name}`" for name in declared["outputs"]]


def test_toolwires_workflow_runs_the_suite_and_the_action_in_a_matrix() -> None:
    workflow = load_yaml(WORKFLOW.read_text(encoding="utf-8"))
    assert any(step.get("run") == "bash .ci/run" for step in workflow["jobs"]["tests"]["steps"])
    reference = workflow["jobs"]["reference"]
    assert len(reference["strategy"]["matrix"]["python"]) > 1
    assert any(
        step.get("uses") == "./" and step["with"]["adapter"] == "reference"
        for step in reference["steps"]
    )


# The contexts a composite action's step may use in `env`, `with`, `run` and
# `if`, per the runner's own manifest schema (actions/runner,
# src/Runner.Worker/action_yaml.json: step-env, step-with,
# string-steps-context); `secrets`, `needs` or `vars` would fail at run time.
COMPOSITE_CONTEXTS = {"github", "inputs", "strategy", "matrix", "steps", "job", "runner", "env"}
FUNCTIONS = {"always", "success", "failure", "cancelled", "toJSON", "fromJSON", "hashFiles"}


def _expressions(node: Any, key: str = "") -> list[str]:
    if isinstance(node, dict):
        return [text for name, value in node.items() for text in _expressions(value, str(name))]
    if isinstance(node, list):
        return [text for value in node for text in _expressions(value, key)]
    if not isinstance(node, str):
        return []
    found = re.findall(r"\$\{\{(.*?)\}\}", node, re.S)
    return found if found or key != "if" else [node]  # `if:` is an expression as it is


def test_the_action_uses_only_contexts_a_composite_step_has() -> None:
    steps = action()["runs"]["steps"]
    expressions = _expressions(steps)
    assert any("matrix" in text for text in expressions)  # the walk found them
    for text in expressions:
        bare = re.sub(r"'[^']*'", "''", text)  # string literals hold no names
        for name, call in re.findall(r"(?<![\w.-])([A-Za-z_][\w-]*)\s*(\()?", bare):
            assert name in (FUNCTIONS if call else COMPOSITE_CONTEXTS), (name, text)
