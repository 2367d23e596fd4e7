"""The ``toolwire`` command: one click group; each command lives in its own module.

Every ``ToolwireError`` becomes a one-line message on stderr and an exit
code, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from toolwire.harness import __version__
from toolwire.harness.cli.exit_codes import EXIT_FINDINGS
from toolwire.harness.cli.process_exit import (
    exit_process,
    install_sigterm_handler,
    interrupted_exit,
)
from toolwire.harness.errors import ToolwireError


class ToolwireGroup(click.Group):
    """A group that turns user-facing errors into one line and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToolwireError as error:
            # Redacted: the message may quote what an adapter or upstream said.
            from toolwire.harness.redaction import redact

            click.echo(f"toolwire: error: {redact(str(error))}", err=True)
            ctx.exit(getattr(error, "exit_code", EXIT_FINDINGS))
        except KeyboardInterrupt as interrupt:  # Ctrl-C, or SIGTERM (main() turns it into one)
            line, status = interrupted_exit(interrupt)
            click.echo(line, err=True)
            ctx.exit(status)


@click.group(cls=ToolwireGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolwire")
def cli() -> None:
    """Conformance harness for LLM tool-calling wire formats.

    Judge a converter between OpenAI Chat Completions (openai-chat), the
    OpenAI Responses API (openai-responses), Anthropic Messages
    (anthropic-messages), Gemini generateContent (gemini), DeepSeek thinking
    mode (deepseek-chat) and Qwen3-Coder XML tool calls (qwen-xml) against a
    corpus of recorded transcripts, and say exactly what is wrong.
    """


def _register_commands() -> None:
    # Imported here, not at the top, so each command module stays independent.
    from toolwire.harness.cli.adapter_protocol_cmd import adapter_protocol
    from toolwire.harness.cli.baseline_cmd import baseline
    from toolwire.harness.cli.convert_cmd import convert
    from toolwire.harness.cli.corpus_cmd import corpus
    from toolwire.harness.cli.diff_cmd import diff
    from toolwire.harness.cli.fuzz_cmd import fuzz
    from toolwire.harness.cli.lint_cmd import lint
    from toolwire.harness.cli.probe_cmd import probe
    from toolwire.harness.cli.record_cmd import record
    from toolwire.harness.cli.report_cmd import report
    from toolwire.harness.cli.rule_cmd import rule
    from toolwire.harness.cli.run_cmd import run

    cli.add_command(run)
    cli.add_command(lint)
    cli.add_command(corpus)
    cli.add_command(record)
    cli.add_command(report)
    cli.add_command(diff)
    cli.add_command(baseline)
    cli.add_command(convert)
    cli.add_command(fuzz)
    cli.add_command(adapter_protocol)
    cli.add_command(probe)
    cli.add_command(rule)


_register_commands()


def main(argv: list[str] | None = None) -> None:
    """The ``toolwire`` process: SIGTERM stops it as Ctrl-C does, and the exit
    status is the command's whatever adapter exit hooks do (process_exit.py)."""
    install_sigterm_handler()
    try:
        cli.main(args=argv, prog_name="toolwire")
        status = 0
    except SystemExit as exit:
        status = _status(exit.code)
    except KeyboardInterrupt as interrupt:  # outside a command (while parsing options)
        line, status = interrupted_exit(interrupt)
        click.echo(line, err=True)
    exit_process(status)


def _status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    click.echo(str(code), err=True)  # what sys.exit("message") prints
    return 1


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
