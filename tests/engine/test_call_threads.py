"""Adapter calls run in reused daemon threads, with the per-call deadline kept.

A thread per call cost more than most conversions; toolwire.harness.engine.timeout
keeps a few call threads and replaces one only when a call overruns in it.
These tests pin what must not change with that: a hung call still gives a
timeout and the next call (and case) still runs; errors, SystemExit and
KeyboardInterrupt come back to the caller; concurrent callers never wait on
each other; a forked child does not reuse threads it does not have.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest

from toolwire.harness.adapters.base import check_adapter
from toolwire.harness.corpus.loader import bundled_corpus_root, load_corpus
from toolwire.harness.engine.options import RunOptions
from toolwire.harness.engine.runner import run_case
from toolwire.harness.engine.session import Selection, run_corpus
from toolwire.harness.engine.timeout import CALL_THREAD_NAME, CallTimedOut, call_with_timeout
from toolwire.harness.engine.verdicts import CONVERT

CORPUS = load_corpus(bundled_corpus_root())


def current_thread() -> threading.Thread:
    return threading.current_thread()


def test_consecutive_calls_share_one_daemon_call_thread() -> None:
    first = call_with_timeout(current_thread, 5)
    second = call_with_timeout(current_thread, 5)
    assert first is second
    assert first is not threading.current_thread()
    assert first.daemon and first.name == CALL_THREAD_NAME


def test_a_hung_call_times_out_and_the_next_call_runs_in_a_fresh_thread() -> None:
    release = threading.Event()
    hung: list[threading.Thread] = []

    def hang() -> None:
        hung.append(threading.current_thread())
        release.wait(30)

    started = time.monotonic()
    with pytest.raises(CallTimedOut, match=r"no answer within 0\.2 s"):
        call_with_timeout(hang, 0.2)
    assert time.monotonic() - started < 5
    after = call_with_timeout(current_thread, 5)
    assert after is not hung[0] and after.is_alive()
    # The abandoned thread ends once its call returns: it is not kept.
    release.set()
    hung[0].join(5)
    assert not hung[0].is_alive()


@pytest.mark.parametrize(
    "error", [ValueError("bad payload"), SystemExit(3), KeyboardInterrupt()], ids=repr
)
def test_what_a_call_raises_reaches_the_caller_and_the_thread_serves_on(
    error: BaseException,
) -> None:
    def fail() -> None:
        raise error

    with pytest.raises(type(error)) as raised:
        call_with_timeout(fail, 5)
    assert raised.value is error
    assert call_with_timeout(lambda: 42, 5) == 42


def test_concurrent_callers_never_wait_on_each_other() -> None:
    # A call that waits for another caller's call: with one shared thread
    # this would deadlock until the timeout.
    inner_done = threading.Event()
    outcome: dict[str, Any] = {}

    def outer() -> str:
        return "outer" if inner_done.wait(10) else "starved"

    def other_caller() -> None:
        time.sleep(0.05)
        outcome["inner"] = call_with_timeout(lambda: "inner", 10)
        inner_done.set()

    helper = threading.Thread(target=other_caller)
    helper.start()
    assert call_with_timeout(outer, 10) == "outer"
    helper.join(10)
    assert outcome == {"inner": "inner"}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_gets_its_own_call_thread() -> None:
    parent_thread = call_with_timeout(current_thread, 5)
    pid = os.fork()
    if pid == 0:  # the child: the parent's call threads do not exist here
        try:
            ok = call_with_timeout(lambda: threading.current_thread() is not parent_thread, 5)
            os._exit(0 if ok else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


class HangsOnOneCase:
    """Passes payloads through, but hangs on the one case mentioning Osaka."""

    name = "hangs-on-osaka"
    version = "1"
    directions = frozenset({("request", "openai-chat", "openai-chat")})

    def __init__(self) -> None:
        self.release = threading.Event()

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if "Osaka" in str(payload):
            self.release.wait(30)
        return payload


def test_a_case_that_hangs_gives_a_timeout_verdict_and_the_next_case_still_runs() -> None:
    implementation = HangsOnOneCase()
    adapter = check_adapter(implementation, "hangs-on-osaka")
    options = RunOptions(timeout=0.3, corpus=CORPUS)
    try:
        verdicts = run_case(CORPUS["parallel/two-cities-openai"], adapter, options)
        errors = [v for v in verdicts if v.rule_code == CONVERT]
        assert [v.outcome for v in errors] == ["error"]
        assert "the adapter timed out: no answer within 0.3 s" in errors[0].message
        result = run_corpus(CORPUS, adapter, options, Selection.parse("single-tool/*-openai"))
    finally:
        implementation.release.set()
    assert not [v for v in result.verdicts if v.rule_code == CONVERT]
    passed = {v.case_id for v in result.verdicts if v.outcome == "pass"}
    assert "single-tool/weather-openai" in passed
