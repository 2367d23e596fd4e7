"""The HTML report as a person sees it: rendered by a real headless Chromium
(Debian's package, installed here when missing), at desktop and phone widths.

Assertions are on the rendered page (layout, visibility after a click, console
errors), not only on the HTML text. Screenshots go to reports/_local/screenshots/
(git-ignored) so a developer can look at them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.real_transcripts import PROJECT_ROOT

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = PROJECT_ROOT / "reports" / "_local" / "screenshots"
# The flags this machine needs: no sandbox as root, and no background traffic
# (its closed network refuses Google's hosts).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


def _ensure_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("Debian's chromium is not installed and cannot be installed here (needs root)")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{' '.join(command)} failed: {done.stderr[-2000:]}"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An HTML report with real failures: a converter that returns garbage."""
    folder = tmp_path_factory.mktemp("html")
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    toolwire = [sys.executable, "-c", "from toolwire.harness.cli.main import main; main()"]
    subprocess.run(
        [
            *toolwire,
            "run",
            "--adapter",
            "tests.engine.test_adapters:ReturnsGarbage",
            "--select",
            "single-tool/*,streaming/*",
            "--report-dir",
            str(folder),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    page = folder / "report.html"
    done = subprocess.run(
        [*toolwire, "report", str(folder / "results.json"), "--format", "html", "-o", str(page)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return page


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    _ensure_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield instance
        instance.close()


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
def test_the_report_renders_cleanly_and_failures_open_on_click(
    browser: object, report: Path, viewport: str
) -> None:
    width, height = VIEWPORTS[viewport]
    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(report.as_uri())

    assert errors == []
    assert requested == [report.as_uri()]  # offline: the page asks for nothing else
    # The page itself does not scroll sideways; a wide matrix scrolls in its own box.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the {viewport} viewport"

    matrix = page.locator("table.matrix")
    assert matrix.is_visible()
    assert page.locator("table.matrix td.o-fail").count() > 0

    rows = page.locator("details.row.o-fail")
    assert rows.count() > 0
    first = rows.first
    explanation = first.locator(":scope > div.body > pre.explanation")
    assert not explanation.is_visible()
    first.locator(":scope > summary").click()
    assert explanation.is_visible()
    assert "Rule:" in explanation.inner_text()

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"report-{viewport}.png"
    _check_rule_pages(page)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    page.close()


def _check_rule_pages(page: object) -> None:
    """The pages of the cited rules are in the report: one per failing rule,
    closed until clicked, then the whole page (examples and fix) shows."""
    embedded = page.locator("details.rule-page")  # type: ignore[attr-defined]
    failing_rules = page.locator("#failures h4 a.page")  # type: ignore[attr-defined]
    assert embedded.count() > 0 and embedded.count() == failing_rules.count()
    target = failing_rules.first.get_attribute("href")
    assert target.startswith("#page-")
    details = page.locator(f"details.rule-page[id='{target[1:]}']")  # type: ignore[attr-defined]
    body = details.locator("h4", has_text="How to fix")
    assert not body.is_visible()
    details.locator(":scope > summary").click()
    assert body.is_visible()
    assert details.locator("pre").count() > 0  # the examples' payloads
