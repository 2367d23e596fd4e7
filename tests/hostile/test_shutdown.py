"""Ending toolwire from outside, and how the process ends
(docs/hostile-input.md, rows S1-S6, A23, A24).

Each test starts the real command, waits until the child process it is
about (a ``cmd:`` adapter, a ``--proxy-cmd`` proxy) has a request in hand,
signals toolwire and checks the exit status and that the child is gone.
Waits are bounded polls of a marker file the child writes, never timings.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.cli import toolwire
from tests.hostile.exiting_adapters import PID_FILE_VARIABLE
from tests.support.real_transcripts import PROJECT_ROOT
from toolwire.harness.proxy.process import free_port

CHILDREN = PROJECT_ROOT / "tests" / "hostile" / "hanging_children.py"
EXITING = "tests.hostile.exiting_adapters"
ONE = "single-tool/weather-openai"
BOUND = 60.0  # seconds any wait below may take before the test gives up


# Starts toolwire with SIGINT at its default, as a terminal starts it. A test
# session started as a background job of a non-interactive shell (`make test &`)
# ignores SIGINT, every process it starts inherits that, and Python then leaves
# SIGINT ignored: Ctrl-C could not reach toolwire, and S2 would hang until BOUND.
_AS_FROM_A_TERMINAL = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', 'toolwire.harness', *sys.argv[1:]])"
)


def _start(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "TOOLWIRE_CMD_TIMEOUT": "600"}
    return subprocess.Popen(
        [sys.executable, "-c", _AS_FROM_A_TERMINAL, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
    )


def _pid_from(marker: Path, process: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + BOUND
    while not marker.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            _out, err = process.communicate()
            pytest.fail(f"the child never got its request; toolwire said: {err[-2000:]}")
        time.sleep(0.05)
    return int(marker.read_text(encoding="utf-8"))


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=BOUND)
    assert "Traceback" not in out + err, err[-3000:]
    return process.returncode, out, err


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # Still listed: a zombie is gone in all but name (nobody reaped it yet).
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return True


def _run_cmd_adapter(marker: Path) -> subprocess.Popen[str]:
    adapter = f"cmd:{sys.executable} {CHILDREN} adapter {marker}"
    return _start("run", "--adapter", adapter, "--select", ONE, "--timeout", "600")


@pytest.mark.parametrize(
    ("signum", "status", "line"),
    [
        (signal.SIGTERM, 143, "toolwire: stopped by SIGTERM"),
        (signal.SIGINT, 130, "toolwire: interrupted (Ctrl-C)"),
    ],
    ids=["SIGTERM", "SIGINT"],
)
def test_s1_s2_a_signal_stops_the_cmd_adapter_process_and_exits_128_plus_it(
    tmp_path: Path, signum: int, status: int, line: str
) -> None:
    marker = tmp_path / "adapter.pid"
    process = _run_cmd_adapter(marker)
    child = _pid_from(marker, process)
    process.send_signal(signum)
    code, _out, err = _finish(process)
    assert code == status
    assert line in err
    assert _gone(child), "the cmd: adapter process outlived toolwire"


def test_s3_sigterm_stops_the_proxy_started_by_proxy_cmd(tmp_path: Path) -> None:
    marker = tmp_path / "proxy.pid"
    command = f"{sys.executable} {CHILDREN} proxy {{port}} {marker}"
    spec = f"http://127.0.0.1:{free_port()}?front=openai-chat&back=openai-chat&timeout=600"
    process = _start(
        "run", "--adapter", spec, "--proxy-cmd", command, "--select", ONE, "--timeout", "600"
    )
    child = _pid_from(marker, process)
    process.send_signal(signal.SIGTERM)
    code, _out, err = _finish(process)
    assert code == 143
    assert "toolwire: stopped by SIGTERM" in err
    assert _gone(child), "the --proxy-cmd proxy outlived toolwire"


def test_s4_a_hanging_child_of_an_in_process_adapter_is_ended_with_its_case(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "child.pid"
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), PID_FILE_VARIABLE: str(marker)}
    command = [sys.executable, "-m", "toolwire.harness", "run", "--select", ONE, "--timeout", "1"]
    result = subprocess.run(
        [*command, "--adapter", f"{EXITING}:SpawnsHangingChild"],
        capture_output=True,  # the child holds these pipes: left running, it would hang here
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
        timeout=BOUND,
    )
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 3
    assert "the adapter timed out" in result.stdout + result.stderr
    child = int(marker.read_text(encoding="utf-8"))
    assert _gone(child), "the adapter's child process outlived its case"


def test_s5_an_exit_hook_calling_os_exit_0_cannot_make_a_broken_run_exit_0() -> None:
    result = toolwire("run", "--adapter", f"{EXITING}:RaisesWithCleanExitHook", "--select", ONE)
    assert "the adapter failed on every case" in result.stderr
    assert result.returncode == 3
