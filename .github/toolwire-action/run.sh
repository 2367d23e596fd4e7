#!/usr/bin/env bash
# The action's main step: run toolwire, render every report, write the job
# summary and the step outputs. Never fails itself: the exit code of
# `toolwire run` goes to the `exit-code` output, and a later step fails the job.
set -uo pipefail

report_dir="${INPUT_REPORT_DIR:-toolwire-reports}"
mkdir -p "$report_dir"
args=(run --adapter "${INPUT_ADAPTER:-reference}" --report-dir "$report_dir")
[ -n "${INPUT_CORPUS:-}" ] && args+=(--corpus "$INPUT_CORPUS")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")

toolwire "${args[@]}" > "$report_dir/run.txt" 2>&1
code=$?
cat "$report_dir/run.txt"

results="$report_dir/results.json"
if [ -f "$results" ]; then
  toolwire report "$results" --format md -o "$report_dir/summary.md"
  toolwire report "$results" --format html -o "$report_dir/report.html"
  toolwire report "$results" --format junit -o "$report_dir/junit.xml"
  toolwire report "$results" --format badge -o "$report_dir/badge.json"
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && cat "$report_dir/summary.md" >> "$GITHUB_STEP_SUMMARY"
  read -r passed failed < <(python - "$results" <<'PY'
import json, sys
totals = json.load(open(sys.argv[1], encoding="utf-8"))["totals"]
print(totals["pass"], totals["fail"] + totals["error"] + totals["stale"])
PY
)
else
  # No results: the run did not start (usage error). Say so in the summary.
  passed=0
  failed=0
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && {
    echo "### toolwire did not run"
    echo '```'
    tail -n 20 "$report_dir/run.txt"
    echo '```'
  } >> "$GITHUB_STEP_SUMMARY"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "passed=$passed"
    echo "failed=$failed"
    echo "report=$report_dir/report.html"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit 0
