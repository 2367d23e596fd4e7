"""The exit codes every command shares (README.md, "Checking your converter")."""

# 0 clean, 1 findings, 2 usage error, 3 the harness or the adapter broke.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BROKEN = 3
