"""Proxies on the comparison page: marked, listed after the libraries, never lost."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.reports.factory import document, verdict
from toolwire.harness.reports.comparison import render_index_html, render_index_markdown, summarise
from toolwire.harness.reports.proxies import ProxyRunner

PROXY_SPEC = "http://127.0.0.1?front=anthropic-messages&back=openai-chat&name=litellm-proxy"


def _proxy_document() -> dict[str, object]:
    found = document([verdict("c/1", "fidelity.tool_choice", "fail", "dropped")])
    found["adapter"] = {"name": "litellm-proxy", "version": "1.106.2", "spec": PROXY_SPEC}
    return found


def test_a_proxy_row_is_marked_and_listed_after_the_libraries() -> None:
    proxy = summarise("proxy-litellm", _proxy_document())
    library = summarise("zzz-library", document([verdict("c/1", "x.y")]))
    reference = summarise("reference", document([verdict("c/1", "x.y")]))
    assert (proxy.proxy, library.proxy) == (True, False)
    page = render_index_html([proxy, library, reference])
    rows = re.findall(r'<th scope="row">(.*?)</th>', page)
    assert rows == ["demo", "demo", 'litellm-proxy<br><span class="sub">HTTP proxy</span>']
    assert page.index('href="zzz-library/report.html"') < page.index('href="proxy-litellm/')
    text = render_index_markdown([proxy, library, reference])
    line = next(line for line in text.splitlines() if "proxy-litellm/report.html" in line)
    assert line.startswith("| [litellm-proxy](proxy-litellm/report.html) (HTTP proxy) | 1.106.2 |")
    assert "make integration" in text


def test_a_proxy_without_results_is_still_a_proxy_row(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "proxy-litellm").mkdir(parents=True)
    (reports / "proxy-litellm" / "results.json").write_text(
        json.dumps(_proxy_document()), encoding="utf-8"
    )
    runner = ProxyRunner(reports, 1.0, install=False, logs=tmp_path / "logs", isolate=False)
    runner.problems["proxy-claude-code-router"] = "node (Node.js) is not installed"
    rows = {row.folder: row for row in runner.rows()}
    assert rows["proxy-litellm"].proxy and rows["proxy-litellm"].status == "FAIL"
    missing = rows["proxy-claude-code-router"]
    assert (missing.status, missing.proxy) == ("NOT RUN", True)
    assert missing.problem == "node (Node.js) is not installed"
    runner.write_index()
    assert "node (Node.js) is not installed" in (reports / "README.md").read_text(encoding="utf-8")
