"""``python -m toolwire.harness``: the ``toolwire`` command, for environments without its script."""

from toolwire.harness.cli.main import main

if __name__ == "__main__":
    main()
