"""Reports rendered from the results document (docs/reports.md).

The results JSON (``toolwire.harness.results.document.results_document``) is the source
of truth; every module here is a pure function of that document: JUnit XML,
a Markdown job summary, a self-contained HTML report, a shields.io endpoint
badge, and the difference between two results files. None imports click.
"""
