"""Every relative link in the project's Markdown points at a file that exists,
and every #anchor at a heading of that file (GitHub's anchor rules)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), ROOT / "reports" / "README.md"])
# [text](target) outside code; images too. Angle-bracket targets are not used here.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def _prose_lines(text: str) -> list[str]:
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to
    hyphens, repeated headings numbered."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        heading = match.group(1).replace("`", "").lower()
        slug = re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> list[str]:
    return [
        target
        for line in _prose_lines(page.read_text(encoding="utf-8"))
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line))  # code is not a link
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    assert broken_links(page) == []


def test_the_checker_sees_links_and_anchors() -> None:
    readme = ROOT / "README.md"
    assert "docs/adapters.md" in links(readme)
    assert "quick-start" in anchors(readme)
    assert "checking-your-converter" in anchors(readme)


def test_the_checker_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## The `cmd:` adapter\n\n[a](gone.md) [b](#title) [c](#nowhere)\n"
        "[d](#the-cmd-adapter) `[e](in-code.md)`\n```\n[f](fenced.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "gone.md: no such file",
        "#nowhere: no heading #nowhere in page.md",
    ]
