"""What ``toolwire fuzz`` prints and saves for a failure: the rule, the minimal
payload, the command that reproduces it, the cassette that keeps it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolwire.harness.atomic_write import FileExistsRefused, FileWriteError, write_atomic
from toolwire.harness.engine.explain import explain
from toolwire.harness.fuzz.cases import cassette_name, cassette_text
from toolwire.harness.fuzz.engine import GENERATOR, FuzzFailure, FuzzReport
from toolwire.harness.strategies.render import render_request, render_response, render_stream


def failing_kind(failure: FuzzFailure) -> str:
    """The payload kind of the failing direction ("request", "response", "stream")."""
    first = failure.direction.split(" ", 1)[0]
    return first if first in ("request", "response", "stream") else "request"


def minimal_payload(failure: FuzzFailure) -> Any:
    """The source payload of the failing direction, as the adapter was given it."""
    kind = failing_kind(failure)
    if kind == "response":
        return render_response(failure.plan)
    if kind == "stream":
        return render_stream(failure.plan)
    return render_request(failure.plan)


def failure_lines(failure: FuzzFailure) -> list[str]:
    lines = [f"FUZZ FAILURE {failure.rule_code} ({failure.dialect} source)"]
    verdict = failure.verdict
    if failure.rule_code == GENERATOR or verdict is None:
        lines.append(f"  The generator or the harness broke: {failure.detail}")
        lines.append("  This is a toolwire bug: please report it with the payload below.")
    else:
        lines.extend(f"  {line}" for line in explain(verdict).splitlines())
    others = sorted({v.rule_code for v in failure.verdicts} - {failure.rule_code})
    if others:
        lines.append(f"  The same minimal exchange also fails: {', '.join(others)}")
    kind = failing_kind(failure)
    lines.append(f"  Minimal {failure.dialect} {kind} (the source of {failure.direction}):")
    text = json.dumps(minimal_payload(failure), indent=2, ensure_ascii=False)
    lines.extend(f"    {line}" for line in text.splitlines())
    return lines


def report_lines(report: FuzzReport, examples: int) -> list[str]:
    """The summary: what ran, what failed, how to reproduce."""
    ran = ", ".join(f"{count} {dialect}" for dialect, count in report.examples.items())
    lines = [f"toolwire fuzz: adapter {report.adapter}, seed {report.seed}: ran {ran}"]
    for failure in report.failures:
        lines.append("")
        lines.extend(failure_lines(failure))
    lines.append("")
    if not report.failures:
        lines.append(f"PASS: no failure in {sum(report.examples.values())} generated exchanges")
        return lines
    codes = ", ".join(f.rule_code for f in report.failures)
    lines.append(f"FAIL: {len(report.failures)} failing rule(s): {codes}")
    options = [f"--dialect {dialect}" for dialect in report.dialects]
    options += [f"--profile {dialect}={profile}" for dialect, profile in report.profiles.items()]
    options += ["--strict"] if report.strict else []
    lines.append(
        f"Reproduce: toolwire fuzz --adapter {report.spec or report.adapter} "
        f"--examples {examples} --seed {report.seed} {' '.join(options)}"
    )
    return lines


def save_failures(report: FuzzReport, folder: Path, refused: list[str] | None = None) -> list[Path]:
    """Write each failure's minimal exchange as a cassette; return the paths.

    A cassette already there with the same text counts as saved; one that
    differs (a user may have edited it) is never replaced: its refusal is
    added to ``refused`` when given, else raised (``SaveRefused``)."""
    paths = []
    for failure in report.failures:
        if failure.rule_code == GENERATOR:
            continue  # not a case for the corpus: a toolwire bug
        path = folder / cassette_name(failure.plan, failure.rule_code)
        text = cassette_text(
            failure.plan,
            failure.rule_code,
            report.adapter,
            report.seed,
            failure.direction,
            report.profiles,
        )
        if _same_text(path, text):
            paths.append(path)
            continue
        try:
            write_atomic(path, text, overwrite=False)
        except FileExistsRefused:
            message = (
                f"not saved: {path} exists and differs from this failure's cassette "
                "(edited by hand?); move it away or pass another --save-failure folder"
            )
            if refused is None:
                raise SaveRefused(message) from None
            refused.append(message)
            continue
        paths.append(path)
    return paths


class SaveRefused(FileWriteError):
    """A saved failure would replace a different file."""


def _same_text(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def report_json(report: FuzzReport) -> dict[str, Any]:
    return {
        "adapter": report.adapter,
        "seed": report.seed,
        "dialects": list(report.dialects),
        "examples": dict(report.examples),
        "failures": [
            {
                "rule": failure.rule_code,
                "dialect": failure.dialect,
                "direction": failure.direction,
                "message": failure.message,
                "also_failing": sorted({v.rule_code for v in failure.verdicts}),
                "kind": failing_kind(failure),
                "payload": minimal_payload(failure),
            }
            for failure in report.failures
        ],
        "exit_code": report.exit_code,
    }
