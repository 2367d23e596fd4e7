"""The HTML report's stylesheet: inline, no fonts or images to fetch.

Colour is never the only cue: every cell and badge also carries a symbol and
a word. Narrow screens get one column of metadata and a scrolling matrix
whose first column stays in view.
"""

from __future__ import annotations

STYLE = """
:root {
  color-scheme: light dark;
  --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --error: #8250df; --error-bg: #fbefff; --stale: #bc4c00; --stale-bg: #fff1e5;
  --warn: #9a6700; --warn-bg: #fff8c5; --xfail: #57606a; --xfail-bg: #eaeef2;
  --unsupported: #6e7781; --unsupported-bg: #f6f8fa;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
    --pass: #3fb950; --pass-bg: #12261e; --fail: #ff7b72; --fail-bg: #2d1214;
    --error: #d2a8ff; --error-bg: #231a33; --stale: #ffa657; --stale-bg: #2c1d0e;
    --warn: #d29922; --warn-bg: #272115; --xfail: #9198a1; --xfail-bg: #1c2128;
    --unsupported: #9198a1; --unsupported-bg: #151b23;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .5rem;
  align-items: center; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .25rem; }
h4 { font-size: 1rem; margin: 1rem 0 .25rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: .85em; }
a { color: inherit; }
.sub { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr));
  gap: .25rem 1.5rem; margin: 1rem 0; padding: .75rem 1rem; background: var(--panel);
  border: 1px solid var(--line); border-radius: 6px; }
dl.meta div { min-width: 0; }
dl.meta dt { color: var(--muted); font-size: .8rem; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.banner { padding: .75rem 1rem; border-radius: 6px; border: 1px solid var(--error);
  background: var(--error-bg); }
ul.totals { list-style: none; display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; }
ul.totals li { padding: .35rem .75rem; border-radius: 6px; border: 1px solid currentColor; }
ul.totals b { font-size: 1.2rem; margin-right: .25rem; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-weight: 600;
  font-size: .75rem; letter-spacing: .03em; border: 1px solid currentColor; white-space: nowrap; }
.o-pass { color: var(--pass); background: var(--pass-bg); }
.o-fail { color: var(--fail); background: var(--fail-bg); }
.o-error { color: var(--error); background: var(--error-bg); }
.o-stale { color: var(--stale); background: var(--stale-bg); }
.o-warn { color: var(--warn); background: var(--warn-bg); }
.o-xfail { color: var(--xfail); background: var(--xfail-bg); }
.o-unsupported { color: var(--unsupported); background: var(--unsupported-bg); }
.legend { color: var(--muted); font-size: .85rem; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table.matrix { border-collapse: collapse; width: 100%; font-size: .85rem; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: .35rem .5rem;
  text-align: center; vertical-align: middle; white-space: nowrap; }
table.matrix thead th { background: var(--panel); font-weight: 600; white-space: normal;
  min-width: 4.5rem; }
table.matrix th[scope=row] { position: sticky; left: 0; background: var(--panel);
  text-align: left; z-index: 1; }
table.matrix td.empty { color: var(--muted); background: var(--bg); }
table.matrix td a { text-decoration: none; display: block; }
table.matrix .n { display: block; font-size: .75rem; opacity: .85; }
details.row { border: 1px solid var(--line); border-left: 4px solid currentColor;
  border-radius: 6px; margin: .35rem 0; background: var(--bg); }
details.row > summary { cursor: pointer; padding: .4rem .6rem; display: flex;
  flex-wrap: wrap; gap: .25rem .6rem; align-items: baseline; color: var(--fg); }
details.row > summary .msg { flex: 1 1 20rem; min-width: 0; overflow-wrap: anywhere; }
details.row > summary code { overflow-wrap: anywhere; }
details.row .body { padding: 0 .75rem .75rem; color: var(--fg); }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px;
  padding: .6rem .75rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0; }
table.findings { border-collapse: collapse; width: 100%; font-size: .8rem; }
table.findings th, table.findings td { border: 1px solid var(--line); padding: .25rem .4rem;
  text-align: left; vertical-align: top; overflow-wrap: anywhere; }
.more { color: var(--muted); font-style: italic; }
details.rule-page { border: 1px solid var(--line); border-radius: 6px; margin: .35rem 0;
  padding: 0 .75rem; background: var(--bg); }
details.rule-page > summary { cursor: pointer; padding: .4rem 0; }
details.rule-page:target { outline: 2px solid var(--line); }
details.rule-page blockquote { margin: .5rem 0; padding-left: .75rem;
  border-left: 3px solid var(--line); }
h4 a.page { font-size: .8rem; font-weight: normal; }
footer { margin-top: 3rem; color: var(--muted); font-size: .8rem; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: .75rem .6rem 2rem; }
  h1 { font-size: 1.3rem; }
  dl.meta { grid-template-columns: 1fr; }
  table.matrix { font-size: .75rem; }
  table.matrix th, table.matrix td { padding: .25rem .3rem; }
  details.row > summary .msg { flex-basis: 100%; }
}
"""
