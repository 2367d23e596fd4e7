"""The Markdown job summary: counts, failures grouped by rule, capped under 1 MiB."""

from __future__ import annotations

import re
from typing import Any

from tests.reports.factory import document, many_failures, mixed_document, verdict
from toolwire.harness.reports.markdown import (
    DEFAULT_MAX_BYTES,
    code,
    fenced,
    inline,
    render_markdown,
)

ONE_MIB = 1024 * 1024


def _more(text: str) -> int | None:
    found = re.search(r"\*\*… and (\d+) more not shown\*\*", text)
    return int(found.group(1)) if found else None


def test_thousands_of_failures_stay_well_under_one_mib_with_an_n_more_line() -> None:
    source = many_failures(5000)
    text = render_markdown(source)
    size = len(text.encode("utf-8"))
    assert size <= DEFAULT_MAX_BYTES < ONE_MIB // 2
    shown = text.count("<details>")
    assert 0 < shown < 5000
    assert _more(text) == 5000 - shown
    assert text.rstrip().endswith("hold every failure.")


def test_a_smaller_cap_is_honoured_exactly() -> None:
    text = render_markdown(many_failures(300), max_bytes=20_000)
    assert len(text.encode("utf-8")) <= 20_000
    assert _more(text) == 300 - text.count("<details>")


def test_a_small_run_shows_every_failure_and_no_more_line() -> None:
    text = render_markdown(mixed_document())
    assert text.startswith("## toolwire: FAIL · demo 1.0")  # an error verdict: exit 3, not broken
    assert _more(text) is None
    assert "| 1 | 2 | 1 | 1 | 1 | 1 | 1 |" in text  # the totals row, canonical order
    # failures (fail, error, stale) under their rules, then the SHOULD warning
    failures, warnings = text.split("### Warnings (SHOULD rules) by rule")
    for rule in ("fidelity.arguments", "pairing.id_changed", "convert", "ordering.result_order"):
        assert f"#### `{rule}`" in failures
    assert "#### `ordering.result_order` (1 warn)" in warnings
    assert "expected 'Paris', got 'Pari'" in failures
    assert "parallel/two</code> XFAIL" not in text  # baselined failures stay out


def test_failures_are_grouped_largest_rule_first() -> None:
    verdicts = [verdict(f"c/{i}", "pairing.a", "fail", "x") for i in range(2)]
    verdicts += [verdict(f"c/{i}", "fidelity.b", "fail", "y") for i in range(3)]
    text = render_markdown(document(verdicts))
    assert text.index("#### `fidelity.b` (3 fail)") < text.index("#### `pairing.a` (2 fail)")
    table = text.split("### Failures by rule")[0]
    assert "| `fidelity.b` | MUST | 3 | 0 | 0 | 0 |" in table


def test_markup_in_messages_cannot_break_the_summary() -> None:
    hostile = "<script>alert(1)</script> ``` | *bold* [link](x)"
    record = verdict("c/1", "pairing.a", "fail", hostile)
    record["explanation"] = f"FAIL c/1::pairing.a\n  Why: {hostile}"
    text = render_markdown(document([record]))
    outside_code = re.sub(r"````text\n.*?\n````", "", text, flags=re.DOTALL)
    assert "<script>" not in outside_code  # inside a fence it is inert text
    assert "&lt;script&gt;" in outside_code  # in the <summary>
    # the explanation's own ``` cannot close its fence
    assert "````text\nFAIL c/1::pairing.a" in text


def test_helpers_escape_what_markdown_would_interpret() -> None:
    assert inline("a|b *c* <d>\nnext") == r"a\|b \*c\* \<d\> next"
    assert code("plain") == "`plain`"
    assert code("has ` tick") == "`` has ` tick ``"
    assert fenced("x ```` y").startswith("`````text\n")


def test_a_real_run_summary(real_documents: dict[str, dict[str, Any]]) -> None:
    text = render_markdown(real_documents["renames-ids"])
    assert text.startswith("## toolwire: FAIL · renames-ids 2.0")
    assert "#### `pairing.orphan_result`" in text

    def problems(document: dict[str, Any]) -> int:
        return sum(document["totals"][o] for o in ("fail", "warn", "error", "xfail", "stale"))

    # Every problem is shown, or counted in the "N more" line once the summary
    # reaches its size limit (the whole corpus gives renames-ids more than fit).
    hidden = re.search(r"\*\*… and (\d+) more not shown\*\*", text)
    shown = text.count("<details>")
    assert shown + (int(hidden.group(1)) if hidden else 0) == problems(
        real_documents["renames-ids"]
    )
    assert shown > 0 and len(text.encode("utf-8")) <= DEFAULT_MAX_BYTES
    reference = real_documents["reference"]
    assert render_markdown(reference).count("<details>") == problems(reference)
