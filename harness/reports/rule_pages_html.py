"""The pages of the rules an HTML report cites, embedded in it: the report
opens anywhere (an artifact, a mail, no network) with each rule's statement,
evidence, examples and fix one click away.

The pages are the shipped Markdown (harness/rule_pages.py), turned into HTML
by the small subset of Markdown they are written in (pages/rule_page.py):
headings, quotes, lists, fenced code, inline code, bold and links. A
relative link of a page becomes absolute against the page's own URL, since
the report is read away from the repository.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from urllib.parse import urljoin

from toolwire.harness.rule_links import rule_url

_INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>[^*]+)\*\*"
    r"|\[(?P<text>[^\]]+)\]\((?P<href>[^)\s]+)\)"
    r"|<(?P<auto>https?://[^>\s]+)>"
)
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def page_anchor(code: str) -> str:
    """The element id of a rule's embedded page."""
    return "page-" + re.sub(r"[^A-Za-z0-9_.-]", "-", code)


def cited_rules(codes: Iterable[str]) -> list[str]:
    """The rule codes among ``codes`` (not ``convert``, ``unsupported``, or a
    code of an older catalogue), once each, in catalogue order."""
    from toolwire.conformance.catalogue import RULE_CODES

    wanted = set(codes)
    return [code for code in RULE_CODES if code in wanted]


def rule_pages_section(codes: Iterable[str]) -> str:
    """A section with the page of every rule in ``codes``; empty without one."""
    from toolwire.conformance.catalogue import RULES_BY_CODE
    from toolwire.harness.rule_pages import page_text

    cited = cited_rules(codes)
    if not cited:
        return ""
    parts = [
        '<section id="rule-pages">',
        f"<h2>Rule pages ({len(cited)})</h2>",
        "<p>The page of every rule cited above, as <code>toolwire rule CODE</code> prints it.</p>",
    ]
    for code in cited:
        statement = RULES_BY_CODE[code].statement
        parts.append(
            f'<details class="rule-page" id="{page_anchor(code)}">'
            f"<summary><code>{escape(code)}</code> · {escape(statement)}</summary>\n"
            f"{markdown_html(page_text(code), rule_url(code))}\n</details>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def markdown_html(text: str, base: str | None) -> str:
    """The rule page's Markdown as HTML; relative links resolved against ``base``."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[tuple[int, str]] = []
    fence: list[str] | None = None

    def flush() -> None:
        if paragraph:
            out.append(f"<p>{_inline(' '.join(paragraph), base)}</p>")
            paragraph.clear()
        if items:
            out.append(_list(items, base))
            items.clear()

    for line in text.splitlines():
        if fence is not None:
            if line.startswith("```"):
                out.append(f"<pre><code>{escape(chr(10).join(fence))}</code></pre>")
                fence = None
            else:
                fence.append(line)
            continue
        if line.startswith("```"):
            flush()
            fence = []
            continue
        heading = _HEADING.match(line)
        stripped = line.lstrip()
        if heading:
            flush()
            level = min(len(heading.group(1)) + 2, 6)  # under the report's own h2
            out.append(f"<h{level}>{_inline(heading.group(2), base)}</h{level}>")
        elif line.startswith("> "):
            flush()
            out.append(f"<blockquote>{_inline(line[2:], base)}</blockquote>")
        elif stripped.startswith("- "):
            if paragraph:
                flush()
            items.append((len(line) - len(stripped), stripped[2:]))
        elif not line.strip():
            flush()
        elif items:
            depth, item = items[-1]
            items[-1] = (depth, f"{item} {line.strip()}")
        else:
            paragraph.append(line.strip())
    if fence is not None:
        out.append(f"<pre><code>{escape(chr(10).join(fence))}</code></pre>")
    flush()
    return "\n".join(out)


def _list(items: list[tuple[int, str]], base: str | None) -> str:
    """Items with their indents as nested lists."""
    html: list[str] = []
    depths: list[int] = []
    for depth, text in items:
        if not depths or depth > depths[-1]:
            html.append("<ul>")
            depths.append(depth)
        else:
            while len(depths) > 1 and depth < depths[-1]:
                html.append("</li></ul>")
                depths.pop()
            html.append("</li>")
        html.append(f"<li>{_inline(text, base)}")
    html.append("</li></ul>" * len(depths))
    return "".join(html)


def _inline(text: str, base: str | None) -> str:
    parts: list[str] = []
    position = 0
    for match in _INLINE.finditer(text):
        parts.append(escape(text[position : match.start()]))
        position = match.end()
        if match.group("code") is not None:
            parts.append(f"<code>{escape(match.group('code'))}</code>")
        elif match.group("bold") is not None:
            parts.append(f"<strong>{escape(match.group('bold'))}</strong>")
        elif match.group("auto") is not None:
            url = match.group("auto")
            parts.append(f'<a href="{escape(url)}">{escape(url)}</a>')
        else:
            href = _absolute(match.group("href"), base)
            label = _inline(match.group("text"), base)
            parts.append(f'<a href="{escape(href)}">{label}</a>')
    parts.append(escape(text[position:]))
    return "".join(parts)


def _absolute(href: str, base: str | None) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*:", href) or base is None:
        return href
    return urljoin(base, href)
