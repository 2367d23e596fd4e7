"""``python -m harness``: the ``toolwire`` command, for environments without its script."""

from harness.cli.main import main

if __name__ == "__main__":
    main()
