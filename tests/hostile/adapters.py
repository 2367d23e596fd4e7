"""Adapters that misbehave in every way docs/hostile-input.md lists.

Each is a pass-through with one defect, so any verdict other than the
expected one comes from that defect. Loaded by spec
(``tests.hostile.adapters:NAME``) in-process and in `toolwire run`
subprocesses alike.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS

EVERY_IDENTITY = {(kind, dialect, dialect) for kind in PAYLOAD_KINDS for dialect in DIALECTS}


class PassThrough:
    name = "hostile-pass-through"
    version = "1"
    directions = EVERY_IDENTITY

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return payload


class _Returns(PassThrough):
    """Returns ``self.value()`` instead of a payload."""

    def value(self) -> Any:
        raise NotImplementedError

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        return self.value()


class Custom:
    """An object that is no JSON value."""


class ReturnsSet(_Returns):
    name = "returns-set"

    def value(self) -> Any:
        return {"messages", "model"}


class ReturnsCustomObject(_Returns):
    name = "returns-object"

    def value(self) -> Any:
        return Custom()


class ReturnsBytes(_Returns):
    name = "returns-bytes"

    def value(self) -> Any:
        return b'{"model": "m", "messages": []}'


class ReturnsNaN(_Returns):
    name = "returns-nan"

    def value(self) -> Any:
        return float("nan")


class ReturnsNaNInside(PassThrough):
    """A faithful payload with one NaN inside: not JSON on the wire."""

    name = "returns-nan-inside"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if isinstance(payload, dict):
            return {**payload, "temperature": float("nan")}
        return payload


class ReturnsLock(_Returns):
    """Cannot even be deep-copied."""

    name = "returns-lock"

    def value(self) -> Any:
        return {"model": "m", "lock": threading.Lock()}


class ReturnsCycle(_Returns):
    name = "returns-cycle"

    def value(self) -> Any:
        payload: dict[str, Any] = {"model": "m", "messages": []}
        payload["messages"].append(payload)
        return payload


class ReturnsDeepNesting(_Returns):
    name = "returns-deep"

    def value(self) -> Any:
        payload: list[Any] = []
        for _ in range(100_000):
            payload = [payload]
        return payload


class ReturnsFiftyMegabytes(_Returns):
    name = "returns-50mb"

    def value(self) -> Any:
        return "x" * 50_000_000


class ReturnsMillionItems(_Returns):
    name = "returns-million"

    def value(self) -> Any:
        return list(range(1_000_000))


class ReturnsNone(_Returns):
    name = "returns-none"

    def value(self) -> Any:
        return None


class Raises(PassThrough):
    name = "raises"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise RuntimeError("upstream converter exploded")


class RaisesHugeMessage(PassThrough):
    name = "raises-huge"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise ValueError("y" * 5_000_000)


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("cannot print me")


class RaisesUnprintable(PassThrough):
    name = "raises-unprintable"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise Unprintable()


class RaisesKeyboardInterrupt(PassThrough):
    name = "raises-interrupt"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        raise KeyboardInterrupt


class MutatesInput(PassThrough):
    """Empties its input in place, then returns a copy of what it received."""

    name = "mutates-input"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        import copy

        original = copy.deepcopy(payload)
        if isinstance(payload, dict | list):
            payload.clear()
        return original


class MutatesOutputLater(PassThrough):
    """Returns its payload, then keeps changing that object from a thread."""

    name = "mutates-output-later"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        def vandalise() -> None:
            time.sleep(0.05)
            if isinstance(payload, dict):
                payload["messages"] = "vandalised"

        threading.Thread(target=vandalise, daemon=True).start()
        return payload


class Hangs(PassThrough):
    name = "hangs"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        time.sleep(3600)
        return payload


class SleepsBriefly(PassThrough):
    name = "sleeps-briefly"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        time.sleep(0.3)
        return payload


class SlowOnParallel(PassThrough):
    """Takes a second on the parallel-calls cases, no time on the others."""

    name = "slow-on-parallel"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if "Osaka" in str(payload):
            time.sleep(1)
        return payload


class HangsInIdMapping(PassThrough):
    name = "hangs-in-id-mapping"

    def id_mapping(self, payload: Any, kind: str, source: str, target: str) -> Any:
        time.sleep(3600)
        return {}


class ExitsInIdMapping(PassThrough):
    name = "exits-in-id-mapping"

    def id_mapping(self, payload: Any, kind: str, source: str, target: str) -> Any:
        sys.exit(7)


class LeaksThread(PassThrough):
    """Starts a non-daemon thread that never ends, on every call."""

    name = "leaks-thread"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        threading.Thread(
            target=time.sleep, args=(3600,), daemon=False, name="leaked-by-adapter"
        ).start()
        return payload


class LeaksThreadAtLoad(PassThrough):
    """Starts a non-daemon thread that never ends when it is created."""

    name = "leaks-thread-at-load"

    def __init__(self) -> None:
        threading.Thread(
            target=time.sleep, args=(3600,), daemon=False, name="leaked-at-load"
        ).start()


class CallsSysExit(PassThrough):
    name = "calls-sys-exit"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        sys.exit(0)  # 0: a run that ended here would look clean


class CallsOsExit(PassThrough):
    name = "calls-os-exit"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        os._exit(0)


class KillsItself(PassThrough):
    """Ends its process with SIGKILL: nothing in-process can stop that."""

    name = "kills-itself"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if "Osaka" in str(payload):
            os.kill(os.getpid(), signal.SIGKILL)
        return payload


class ExitsFromOwnThread(PassThrough):
    """Calls os._exit from a thread it started: the guard cannot see that one."""

    name = "exits-from-own-thread"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        if "Osaka" in str(payload):
            thread = threading.Thread(target=os._exit, args=(5,))
            thread.start()
            thread.join()
        return payload


class HoldsTheGil(PassThrough):
    """Spins in one regular-expression call, which never releases the GIL."""

    name = "holds-the-gil"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        import re

        if "Osaka" in str(payload):
            re.match(r"(a+)+$", "a" * 64 + "b")  # catastrophic backtracking
        return payload


class Prints(PassThrough):
    """Writes to stdout through Python and straight to descriptor 1."""

    name = "prints"

    def convert(self, payload: Any, kind: str, source: str, target: str) -> Any:
        print("debug: converting", kind)
        os.write(1, b"raw write to fd 1\n")
        return payload
