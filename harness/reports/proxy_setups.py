"""The real proxies ``make integration`` tests, and how each is configured and started.

Pure: the table of proxies (``PROXIES``), the ``http://`` adapter spec of each
run, the ``--proxy-cmd`` that starts a proxy on 127.0.0.1 with a private
``HOME``, its configuration copied from ``integration/``, and the guard that
refuses a command or configuration binding every interface.
``harness/reports/proxies.py`` installs and runs them (docs/proxies.md,
"Real proxies").
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import urlencode

from toolwire.harness.errors import ToolwireError

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "integration"
VENVS = ROOT / ".venv-integration"
DUMMY_KEY = "toolwire-replay-key"  # what the replay upstream is sent: it checks no key
# What a proxy must never be told to bind: every interface.
_WILDCARD = re.compile(r"(?<![\d.])0\.0\.0\.0(?![\d.])|\[::\]|(?<![\w:])::(?![\w:])")
Installer = Literal["pip", "npm"]


class IntegrationError(ToolwireError):
    """A proxy set-up that would break the rules of the run (a usage error)."""

    exit_code = 2


@dataclass(frozen=True)
class Run:
    """One toolwire run of a proxy: the dialect pair, and where its report goes."""

    report: str  # reports/<report>/
    name: str  # how the reports name it
    front: str
    back: str


@dataclass(frozen=True)
class Proxy:
    """A real proxy: how to install it, configure it and start it on 127.0.0.1.

    ``env`` and ``program`` may use toolwire's placeholders (``{upstream_url}``,
    ``{port}``, ``{host}``; docs/proxies.md), filled when toolwire starts it, and
    two of ours, filled here: ``{venv}`` (its installation) and ``{work}`` (the
    private temporary folder holding its configuration, also its ``HOME``).
    """

    name: str
    installer: Installer
    package: str  # the pinned requirement (pip) or package@version (npm)
    distribution: str  # whose installed version is recorded
    runs: tuple[Run, ...]
    program: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    ready: str | None = None  # a path answering below 500 once it is up
    config: str | None = None  # a file of integration/ ...
    config_target: str = ""  # ... copied to this path under {work}
    # The installation under .venv-integration/ when another proxy's is shared.
    venv: str | None = None

    @property
    def install_name(self) -> str:
        return self.venv or self.name


PROXIES = (
    Proxy(
        name="litellm",
        installer="pip",
        package="litellm[proxy]==1.106.2",
        distribution="litellm",
        runs=(
            Run("proxy-litellm", "litellm-proxy", "anthropic-messages", "openai-chat"),
            Run("proxy-litellm-chat", "litellm-proxy-chat", "openai-chat", "openai-chat"),
        ),
        program=(
            "{venv}/bin/litellm",
            "--config",
            "{work}/litellm.yaml",
            "--host",
            "{host}",
            "--port",
            "{port}",
        ),
        env={
            # the bundled cost map, not one fetched from the internet at import
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "TOOLWIRE_API_BASE": "{upstream_url}/v1",  # read by integration/litellm.yaml
            # Token counting for llama-named models loads a tokenizer from the
            # Hugging Face Hub: offline it falls back to tiktoken at once.
            "HF_HUB_OFFLINE": "1",
        },
        ready="/health/liveliness",
        config="litellm.yaml",
        config_target="litellm.yaml",
    ),
    Proxy(
        # The same LiteLLM installation, configured toward a Gemini-shaped upstream.
        name="litellm-gemini",
        installer="pip",
        package="litellm[proxy]==1.106.2",
        distribution="litellm",
        venv="litellm",
        runs=(
            Run("proxy-litellm-gemini-chat", "litellm-proxy-gemini", "openai-chat", "gemini"),
            Run(
                "proxy-litellm-gemini-messages",
                "litellm-proxy-gemini-messages",
                "anthropic-messages",
                "gemini",
            ),
        ),
        program=(
            "{venv}/bin/litellm",
            "--config",
            "{work}/litellm-gemini.yaml",
            "--host",
            "{host}",
            "--port",
            "{port}",
        ),
        env={
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            # LiteLLM appends /models/{model}:generateContent to the base
            "TOOLWIRE_API_BASE": "{upstream_url}/v1beta",
            "HF_HUB_OFFLINE": "1",
        },
        ready="/health/liveliness",
        config="litellm-gemini.yaml",
        config_target="litellm-gemini.yaml",
    ),
    Proxy(
        name="claude-code-proxy",
        installer="pip",
        package="claude-code-proxy==0.1.5",
        distribution="claude-code-proxy",
        runs=(
            Run(
                "proxy-claude-code-proxy", "claude-code-proxy", "anthropic-messages", "openai-chat"
            ),
        ),
        # Its own launcher binds 0.0.0.0:8082; its ASGI app is served on 127.0.0.1 instead.
        program=(
            "{venv}/bin/python",
            "-m",
            "uvicorn",
            "server.fastapi:app",
            "--host",
            "{host}",
            "--port",
            "{port}",
        ),
        env={
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # it calls litellm.acompletion
            "HF_HUB_OFFLINE": "1",
            "OPENAI_API_KEY": DUMMY_KEY,
            # litellm's OpenAI client reads its base URL from here
            "OPENAI_BASE_URL": "{upstream_url}/v1",
            "PREFERRED_PROVIDER": "openai",
            "BIG_MODEL": "gpt-4.1",
            "SMALL_MODEL": "gpt-4.1-mini",
        },
    ),
    Proxy(
        name="claude-code-router",
        installer="npm",
        # 3.x needs Node.js 22; 2.0.0 is the newest release for Node.js 20
        package="@musistudio/claude-code-router@2.0.0",
        distribution="@musistudio/claude-code-router",
        runs=(
            Run(
                "proxy-claude-code-router",
                "claude-code-router",
                "anthropic-messages",
                "openai-chat",
            ),
        ),
        # `ccr start` serves in the foreground (the other commands spawn it detached)
        program=(
            "node",
            "{venv}/node_modules/@musistudio/claude-code-router/dist/cli.js",
            "start",
        ),
        # it reads $HOME/.claude-code-router/config.json and expands ${VAR} in it
        env={"TOOLWIRE_PORT": "{port}", "TOOLWIRE_UPSTREAM": "{upstream_url}"},
        ready="/health",
        config="claude-code-router.json",
        config_target=".claude-code-router/config.json",
    ),
    Proxy(
        # The same installation, through its Gemini transformer, which posts to
        # new URL(`./${model}:generateContent`, api_base_url) (or
        # :streamGenerateContent?alt=sse) with the key in x-goog-api-key.
        name="claude-code-router-gemini",
        installer="npm",
        package="@musistudio/claude-code-router@2.0.0",
        distribution="@musistudio/claude-code-router",
        venv="claude-code-router",
        runs=(
            Run(
                "proxy-claude-code-router-gemini",
                "claude-code-router-gemini",
                "anthropic-messages",
                "gemini",
            ),
        ),
        program=(
            "node",
            "{venv}/node_modules/@musistudio/claude-code-router/dist/cli.js",
            "start",
        ),
        env={"TOOLWIRE_PORT": "{port}", "TOOLWIRE_UPSTREAM": "{upstream_url}"},
        ready="/health",
        config="claude-code-router-gemini.json",
        config_target=".claude-code-router/config.json",
    ),
)


def adapter_spec(proxy: Proxy, run: Run, version: str) -> str:
    """The ``http://`` adapter spec of one run (docs/proxies.md)."""
    options = {"front": run.front, "back": run.back}
    if proxy.ready:
        options["ready"] = proxy.ready
    options |= {"name": run.name, "version": version}
    return f"http://127.0.0.1?{urlencode(options, safe='/')}"


def proxy_command(proxy: Proxy, venv: Path, work: Path) -> str:
    """The ``--proxy-cmd`` template: ``env HOME=WORK K=V ... PROGRAM ...``.

    Our own values are escaped for toolwire's ``str.format`` (``{`` doubled), so
    only toolwire's placeholders remain to be filled.
    """
    ours = {"{venv}": _literal(str(venv)), "{work}": _literal(str(work))}
    environment = {"HOME": "{work}", **proxy.env}
    words = ["env", *(f"{key}={value}" for key, value in environment.items()), *proxy.program]
    return shlex.join(_fill(word, ours) for word in words)


def write_config(proxy: Proxy, work: Path, configs: Path = CONFIGS) -> Path | None:
    """Copies the proxy's configuration into ``work``; returns where it went."""
    if proxy.config is None:
        return None
    target = work / proxy.config_target
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(configs / proxy.config, target)
    return target


def check_loopback(proxy: Proxy, command: str, config: Path | None) -> None:
    """Refuses a command or configuration that would bind every interface."""
    texts = {"the command": command}
    if config is not None:
        texts[str(config.name)] = config.read_text(encoding="utf-8")
    for what, text in texts.items():
        found = _WILDCARD.search(text)
        if found:
            raise IntegrationError(
                f"{proxy.name}: {what} names {found.group(0)!r}, which binds every interface",
                hint="proxies under test listen on 127.0.0.1 ({host}) only",
            )
    if "{host}" not in command and "127.0.0.1" not in command + "".join(texts.values()):
        raise IntegrationError(
            f"{proxy.name}: nothing binds it to 127.0.0.1",
            hint="pass --host {host} or set the host in its configuration",
        )


def _fill(word: str, values: Mapping[str, str]) -> str:
    for placeholder, value in values.items():
        word = word.replace(placeholder, value)
    return word


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
