#!/usr/bin/env bash
# The action's main step: find the Python to use, then hand over to step.py,
# which installs and runs toolwire and writes the outputs and job summary.
# Python: actions/setup-python's when python-version was given, else the
# python input, else the caller's `python` (or `python3`) on PATH.
set -uo pipefail

py="${TOOLWIRE_SETUP_PYTHON:-${INPUT_PYTHON:-}}"
if [ -z "$py" ]; then
  py="$(command -v python || command -v python3 || true)"
fi
if [ -z "$py" ] || ! "$py" -c '' 2>/dev/null; then
  # No Python to run step.py with: write the outputs here, as step.py would.
  error="no Python found (${py:-python and python3 are not on PATH}): set up the Python your converter is installed in before this action, or set its python or python-version input"
  echo "::error title=toolwire::$error"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf 'exit-code=2\nerror=%s\npassed=\nfailed=\nwarned=\nresults=\nreport=\nartifact-name=\n' "$error" >> "$GITHUB_OUTPUT"
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### toolwire did not run\n\n> %s\n' "$error" >> "$GITHUB_STEP_SUMMARY"
  fi
  exit 0
fi
exec "$py" "$(dirname "$0")/step.py"
