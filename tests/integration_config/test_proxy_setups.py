"""The glue of `make integration`: configs and commands of the real proxies.

Nothing is installed or started here: the commands are filled in as toolwire
would fill them (``command_words``) and the configurations read as the proxies
would read them. A proxy must listen on 127.0.0.1 only, talk to the replay
upstream only, and keep its files in a private HOME.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from toolwire.harness.adapters.http_adapter import HttpProxyAdapter
from toolwire.harness.proxy.process import command_words
from toolwire.harness.reports import proxies
from toolwire.harness.reports.proxy_setups import (
    CONFIGS,
    PROXIES,
    ROOT,
    IntegrationError,
    Proxy,
    adapter_spec,
    check_loopback,
    proxy_command,
    write_config,
)

UPSTREAM_PORT, PORT = 40123, 40456
UPSTREAM = f"http://127.0.0.1:{UPSTREAM_PORT}"
NAMES = [proxy.name for proxy in PROXIES]


def _proxy(name: str) -> Proxy:
    return next(proxy for proxy in PROXIES if proxy.name == name)


def _started(proxy: Proxy, work: Path) -> tuple[dict[str, str], list[str]]:
    """The environment and argv the proxy gets once toolwire fills the placeholders."""
    words = command_words(proxy_command(proxy, Path("/opt/venv"), work), UPSTREAM, 40123, PORT)
    assert words[0] == "env"
    assignments = [w for w in words[1:] if re.match(r"^[A-Z_][A-Z0-9_]*=", w)]
    env = dict(word.split("=", 1) for word in assignments)
    return env, words[1 + len(assignments) :]


def test_every_proxy_setup_its_runs_and_its_pinned_release() -> None:
    """Five set-ups of three proxies (LiteLLM and claude-code-router each also
    toward a Gemini-shaped upstream), seven runs, one report folder each."""
    assert NAMES == [
        "litellm",
        "litellm-gemini",
        "claude-code-proxy",
        "claude-code-router",
        "claude-code-router-gemini",
    ]
    reports = [run.report for proxy in PROXIES for run in proxy.runs]
    assert reports == [
        "proxy-litellm",
        "proxy-litellm-chat",
        "proxy-litellm-gemini-chat",
        "proxy-litellm-gemini-messages",
        "proxy-claude-code-proxy",
        "proxy-claude-code-router",
        "proxy-claude-code-router-gemini",
    ]
    assert all(report.startswith("proxy-") for report in reports)
    # every release is pinned, so a report names what it tested
    for proxy in PROXIES:
        assert re.search(r"(==|@)\d+\.\d+\.\d+$", proxy.package), proxy.package


@pytest.mark.parametrize("name", NAMES)
def test_home_is_the_private_work_folder(name: str, tmp_path: Path) -> None:
    env, _ = _started(_proxy(name), tmp_path)
    assert env["HOME"] == str(tmp_path)
    assert env["HOME"] != str(Path.home())


@pytest.mark.parametrize("name", NAMES)
def test_nothing_binds_every_interface(name: str, tmp_path: Path) -> None:
    proxy = _proxy(name)
    config = write_config(proxy, tmp_path)
    command = proxy_command(proxy, Path("/opt/venv"), tmp_path)
    check_loopback(proxy, command, config)  # raises when it would not be
    text = command + (config.read_text(encoding="utf-8") if config else "")
    assert "0.0.0.0" not in text


@pytest.mark.parametrize("name", ["litellm", "litellm-gemini", "claude-code-proxy"])
def test_python_proxies_bind_loopback_on_the_given_port(name: str, tmp_path: Path) -> None:
    _, argv = _started(_proxy(name), tmp_path)
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--port") + 1] == str(PORT)


def test_claude_code_proxy_serves_its_app_not_its_launcher(tmp_path: Path) -> None:
    env, argv = _started(_proxy("claude-code-proxy"), tmp_path)
    # its own launcher binds 0.0.0.0:8082 (server/main.py)
    assert argv[:4] == ["/opt/venv/bin/python", "-m", "uvicorn", "server.fastapi:app"]
    assert env["OPENAI_BASE_URL"] == f"{UPSTREAM}/v1"
    assert env["PREFERRED_PROVIDER"] == "openai"


def test_litellm_config_points_every_model_at_the_replay_upstream(tmp_path: Path) -> None:
    proxy = _proxy("litellm")
    config = write_config(proxy, tmp_path)
    assert config == tmp_path / "litellm.yaml"
    document = yaml.safe_load(config.read_text(encoding="utf-8"))
    env, argv = _started(proxy, tmp_path)
    assert argv[argv.index("--config") + 1] == str(config)
    for model in document["model_list"]:
        params = model["litellm_params"]
        assert params["api_base"] == "os.environ/TOOLWIRE_API_BASE"
        assert params["model"].startswith("openai/")
    assert env["TOOLWIRE_API_BASE"] == f"{UPSTREAM}/v1"
    assert document["litellm_settings"]["use_chat_completions_url_for_anthropic_messages"] is True
    assert "master_key" not in document.get("general_settings", {})
    assert "database_url" not in document.get("general_settings", {})


def test_litellm_gemini_shares_litellms_installation_and_calls_gemini_paths(
    tmp_path: Path,
) -> None:
    proxy = _proxy("litellm-gemini")
    assert proxy.install_name == "litellm" == _proxy("litellm").install_name
    assert proxy.package == _proxy("litellm").package
    config = write_config(proxy, tmp_path)
    assert config == tmp_path / "litellm-gemini.yaml"
    document = yaml.safe_load(config.read_text(encoding="utf-8"))
    env, argv = _started(proxy, tmp_path)
    assert argv[argv.index("--config") + 1] == str(config)
    for model in document["model_list"]:
        params = model["litellm_params"]
        assert params["api_base"] == "os.environ/TOOLWIRE_API_BASE"
        assert params["model"].startswith("gemini/")
    # LiteLLM appends /models/{model}:generateContent to the base: Gemini's /v1beta
    assert env["TOOLWIRE_API_BASE"] == f"{UPSTREAM}/v1beta"
    assert {run.back for run in proxy.runs} == {"gemini"}
    assert "master_key" not in document.get("general_settings", {})


def _ccr_interpolated(value: object, env: dict[str, str]) -> object:
    """What claude-code-router does to its config: ${VAR} and $VAR from the environment."""
    if isinstance(value, str):
        return re.sub(
            r"\$\{([^}]+)\}|\$([A-Z_][A-Z0-9_]*)",
            lambda m: env.get(m.group(1) or m.group(2), m.group(0)),
            value,
        )
    if isinstance(value, list):
        return [_ccr_interpolated(item, env) for item in value]
    if isinstance(value, dict):
        return {key: _ccr_interpolated(item, env) for key, item in value.items()}
    return value


def test_claude_code_router_reads_a_private_config_bound_to_loopback(tmp_path: Path) -> None:
    proxy = _proxy("claude-code-router")
    config = write_config(proxy, tmp_path)
    assert config == tmp_path / ".claude-code-router" / "config.json"
    env, argv = _started(proxy, tmp_path)
    assert argv[0] == "node" and argv[-1] == "start"  # the foreground server
    document = _ccr_interpolated(json.loads(config.read_text(encoding="utf-8")), env)
    assert isinstance(document, dict)
    assert document["HOST"] == "127.0.0.1"
    assert document["PORT"] == str(PORT)
    assert "APIKEY" not in document  # with a key it would honour a non-loopback HOST
    urls = [provider["api_base_url"] for provider in document["Providers"]]
    assert urls == [f"{UPSTREAM}/v1/chat/completions"]
    provider, model = document["Router"]["default"].split(",")
    assert provider == document["Providers"][0]["name"]
    assert model in document["Providers"][0]["models"]


def test_claude_code_router_gemini_uses_its_gemini_transformer(tmp_path: Path) -> None:
    proxy = _proxy("claude-code-router-gemini")
    assert proxy.install_name == "claude-code-router"
    assert proxy.package == _proxy("claude-code-router").package
    config = write_config(proxy, tmp_path)
    assert config == tmp_path / ".claude-code-router" / "config.json"
    env, argv = _started(proxy, tmp_path)
    assert argv[0] == "node" and argv[-1] == "start"
    document = _ccr_interpolated(json.loads(config.read_text(encoding="utf-8")), env)
    assert isinstance(document, dict)
    assert document["HOST"] == "127.0.0.1"
    assert "APIKEY" not in document
    (provider,) = document["Providers"]
    # its transformer posts to new URL(`./${model}:generateContent`, api_base_url)
    assert provider["api_base_url"] == f"{UPSTREAM}/v1beta/models/"
    assert provider["transformer"] == {"use": ["gemini"]}
    assert document["Router"]["default"] == f"{provider['name']},{provider['models'][0]}"
    assert {run.back for run in proxy.runs} == {"gemini"}


@pytest.mark.parametrize("name", ["litellm", "litellm-gemini", "claude-code-proxy"])
def test_litellm_stays_offline(name: str, tmp_path: Path) -> None:
    env, _ = _started(_proxy(name), tmp_path)
    assert env["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"  # no cost map download
    assert env["HF_HUB_OFFLINE"] == "1"  # no tokenizer download


@pytest.mark.parametrize(("name", "run"), [(p.name, r) for p in PROXIES for r in p.runs])
def test_adapter_specs_are_valid_http_adapters(name: str, run: object) -> None:
    proxy = _proxy(name)
    assert run in proxy.runs
    spec = adapter_spec(proxy, run, "1.2.3")  # type: ignore[arg-type]
    adapter = HttpProxyAdapter(spec)
    assert (adapter.front, adapter.back) == (run.front, run.back)  # type: ignore[attr-defined]
    assert adapter.port is None  # toolwire picks a free port for {port}
    assert adapter.ready_path == proxy.ready
    assert (adapter.name, adapter.version) == (run.name, "1.2.3")  # type: ignore[attr-defined]


def test_our_paths_are_escaped_for_toolwire(tmp_path: Path) -> None:
    work = tmp_path / "odd {dir} name"
    env, argv = _started(_proxy("litellm"), work)
    assert env["HOME"] == str(work)
    assert argv[argv.index("--config") + 1] == f"{work}/litellm.yaml"


@pytest.mark.parametrize(
    ("command", "config", "found"),
    [
        ("env HOME=/w proxy --host 0.0.0.0 --port {port}", "", "'0.0.0.0'"),
        ("env HOME=/w proxy --host {host} --port {port}", '{"HOST": "0.0.0.0"}', "'0.0.0.0'"),
        ("env HOME=/w proxy --listen [::]:8080", "", "'[::]'"),
        ("env HOME=/w proxy --host :: --port 1", "", "'::'"),
        ("env HOME=/w proxy --port {port}", '{"PORT": 1}', "nothing binds it"),
    ],
)
def test_a_wildcard_bind_is_refused(command: str, config: str, found: str, tmp_path: Path) -> None:
    path = None
    if config:
        path = tmp_path / "config.json"
        path.write_text(config, encoding="utf-8")
    with pytest.raises(IntegrationError, match=re.escape(found)) as caught:
        check_loopback(_proxy("litellm"), command, path)
    assert caught.value.exit_code == 2


def test_loopback_addresses_are_not_mistaken_for_wildcards(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"HOST": "127.0.0.1", "note": "10.0.0.01 a::b"}', encoding="utf-8")
    check_loopback(_proxy("claude-code-router"), "env HOME=/w node cli.js start", path)


def test_install_steps_use_a_private_environment(tmp_path: Path) -> None:
    pip_steps = proxies.install_steps(_proxy("litellm"), tmp_path / "litellm")
    assert pip_steps[0][-2:] == ["venv", str(tmp_path / "litellm")]
    assert pip_steps[1][0] == str(tmp_path / "litellm" / "bin" / "python")
    assert pip_steps[1][-1] == "litellm[proxy]==1.106.2"
    npm_steps = proxies.install_steps(_proxy("claude-code-router"), tmp_path / "ccr")
    assert npm_steps == [
        ["npm", "install", "--no-save", "--prefix", str(tmp_path / "ccr"),
         "@musistudio/claude-code-router@2.0.0"],
    ]  # fmt: skip


def test_a_missing_installation_has_no_version(tmp_path: Path) -> None:
    for proxy in PROXIES:
        assert proxies.installed_version(proxy, tmp_path / proxy.name) is None
    manifest = tmp_path / "ccr" / "node_modules" / "@musistudio" / "claude-code-router"
    manifest.mkdir(parents=True)
    (manifest / "package.json").write_text('{"version": "2.0.0"}', encoding="utf-8")
    assert proxies.installed_version(_proxy("claude-code-router"), tmp_path / "ccr") == "2.0.0"


def test_the_isolating_wrapper_brings_up_loopback_only() -> None:
    wrapper = shlex.join(proxies.ISOLATE)
    assert "--net" in proxies.ISOLATE and "ip link set lo up" in wrapper
    assert proxies.ISOLATE[-1] == "sh"  # "$@" then holds the toolwire command


def test_make_integration_runs_the_proxies_and_make_test_does_not() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = makefile.split("\nintegration:", 1)[1].split("\n\n", 1)[0]
    assert "python -m toolwire.harness.reports.proxies" in target
    assert target.lstrip().startswith("reports")
    test_target = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "proxies" not in test_target and "integration" not in test_target
    assert ".venv-integration/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_every_config_file_is_used() -> None:
    used = {proxy.config for proxy in PROXIES if proxy.config}
    assert used == {path.name for path in CONFIGS.iterdir() if path.is_file()}


def test_run_outcomes_that_give_no_results_are_problems(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    assert "did the proxy start?" in proxies._problem(3, results)
    assert "usage error (exit 2)" in proxies._problem(2, results)
    results.write_text(json.dumps({"broken": None}), encoding="utf-8")
    assert [proxies._problem(code, results) for code in (0, 1, 3)] == ["", "", ""]
    results.write_text(json.dumps({"broken": "every case errored"}), encoding="utf-8")
    assert proxies._problem(3, results) == "proxy broken: every case errored"


def test_an_unknown_proxy_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert proxies.main(["--only", "nginx"]) == 2
    assert "unknown proxy nginx" in capsys.readouterr().err
