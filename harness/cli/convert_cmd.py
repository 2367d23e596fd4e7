"""`toolwire convert`: reproduce one case, call by call.

The case is judged exactly as `toolwire run` judges it (``run_case``), while
``RunOptions.on_call`` hears every adapter call: the payload toolwire passed,
the direction (kind, source and target dialects), the ``request=`` context
when the adapter takes one, and what came back, or where the adapter raised.
For an ``http://`` proxy each call is one exchange: what toolwire sent the
proxy, what it forwarded upstream, what the replay upstream did, and what it
returned. Everything printed passes through ``redact``.
"""

from __future__ import annotations

from pathlib import Path

import click

from toolwire.harness.cli.options import (
    adapter_option,
    corpus_option,
    parse_profiles,
    profiles_option,
    timeout_option,
)
from toolwire.harness.engine.calls import AdapterCall
from toolwire.harness.errors import CorpusError, ToolwireError
from toolwire.harness.model import DIALECTS, PAYLOAD_KINDS

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BROKEN = 3
# Outcomes where the adapter gave nothing usable: the adapter broke (exit 3).
BROKEN = frozenset({"raised", "timed out", "unusable", "failed"})
# How the engine names the reverse call of a round trip (runner._judge_one).
ROUND_TRIP = ", and back"


class ConvertUsageError(ToolwireError):
    exit_code = EXIT_USAGE


@click.command("convert")
@click.argument("case_id")
@adapter_option(
    "reference, an installed adapter name, package.module:attribute, "
    "http://127.0.0.1:PORT?front=...&back=... or cmd:COMMAND."
)
@corpus_option()
@click.option(
    "--kind",
    "kinds",
    type=click.Choice(PAYLOAD_KINDS),
    multiple=True,
    help="Show only the calls of this payload kind (repeatable).",
)
@click.option(
    "--target",
    "targets",
    type=click.Choice(DIALECTS),
    multiple=True,
    help="Show only the calls toward this dialect, and their round trips back (repeatable).",
)
@click.option(
    "--interaction",
    type=click.IntRange(min=1),
    help="Show only the calls of this interaction (1-based).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the calls as JSON.")
@timeout_option("Seconds the adapter may take for the case.")
@profiles_option("Judge output in DIALECT under PROFILE (repeatable), as `run` does.")
@click.option(
    "--proxy-cmd",
    "proxy_command",
    metavar="COMMAND",
    help="Start the proxy of an http:// adapter: {upstream_url} and {port} are replaced "
    "(docs/proxies.md).",
)
def convert(
    case_id: str,
    adapter_spec: str,
    corpus_path: Path | None,
    kinds: tuple[str, ...],
    targets: tuple[str, ...],
    interaction: int | None,
    as_json: bool,
    timeout: float,
    profiles: tuple[str, ...],
    proxy_command: str | None,
) -> None:
    """Show what toolwire passes to the adapter for each direction of one case
    and what came back (its output, or where it raised).

    The calls are the ones `toolwire run` makes for the case, in its order,
    round trips included. Exit 0 when every call shown returned (or the
    adapter declined it), 2 on a usage error, 3 when the adapter raised,
    timed out or returned something unusable.
    """
    from toolwire.harness.adapters.lifecycle import adapter_session
    from toolwire.harness.adapters.loader import load_adapter
    from toolwire.harness.cli.convert_output import render_json, render_text
    from toolwire.harness.corpus.loader import (
        bundled_corpus_root,
        corpus_folder_problem,
        load_corpus,
        unknown_case_error,
    )
    from toolwire.harness.engine.adapter_output import stdout_to_stderr
    from toolwire.harness.engine.options import RunOptions
    from toolwire.harness.engine.runner import run_case

    root = corpus_path or bundled_corpus_root()
    problem = corpus_folder_problem(root)
    if problem is not None:
        raise ConvertUsageError(f"--corpus {root}: {problem[0]}", hint=problem[1])
    try:
        corpus = load_corpus(root)
    except CorpusError as error:
        raise ConvertUsageError(
            str(error), hint="run `toolwire corpus validate --corpus PATH`"
        ) from error
    case = corpus.get(case_id)
    if case is None:
        unknown = unknown_case_error(case_id, corpus.ids, str(root))
        raise ConvertUsageError(f"no case {case_id!r} in {root}", hint=unknown.hint)
    if case.is_negative:
        raise ConvertUsageError(
            f"case {case_id!r} is a negative case: a broken input for `toolwire lint`, "
            "which no adapter is asked to convert",
            hint=f"`toolwire lint --corpus {root}` judges it",
        )
    heard: dict[str, AdapterCall] = {}

    def on_call(call: AdapterCall) -> None:
        # Keyed by where: a judge replayed after a timeout reports its calls again.
        heard.setdefault(call.where, call)

    options = RunOptions(
        timeout=timeout, profiles=parse_profiles(profiles), corpus=corpus, on_call=on_call
    )
    with stdout_to_stderr():  # what an adapter prints must not mix with the output
        adapter = load_adapter(adapter_spec)
    with stdout_to_stderr(), adapter_session(adapter, proxy_command):
        verdicts = run_case(case, adapter, options)
        calls = list(heard.values())
        shown = [call for call in calls if _wanted(call, kinds, targets, interaction)]
        if calls and not shown:
            raise ConvertUsageError(
                "no call of the case matches --kind, --target and --interaction",
                hint=_what_was_called(calls),
            )
        render = render_json if as_json else render_text
        # Rendered while a cmd: adapter still runs (its stderr is quoted), printed
        # once stdout is ours again.
        text = render(case, adapter, shown, verdicts)
    click.echo(text, nl=False)
    broken = any(call.outcome in BROKEN for call in shown)
    raise SystemExit(EXIT_BROKEN if broken else EXIT_OK)


def _toward(call: AdapterCall) -> str:
    """The dialect a call converts toward; a round trip's is the one it comes back from."""
    return call.source if call.where.endswith(ROUND_TRIP) else call.target


def _wanted(
    call: AdapterCall, kinds: tuple[str, ...], targets: tuple[str, ...], interaction: int | None
) -> bool:
    return (
        (not kinds or call.kind in kinds)
        and (not targets or _toward(call) in targets)
        and (interaction is None or call.interaction == interaction)
    )


def _what_was_called(calls: list[AdapterCall]) -> str:
    kinds = ", ".join(sorted({call.kind for call in calls}))
    targets = ", ".join(sorted({_toward(call) for call in calls}))
    numbers = ", ".join(str(n) for n in sorted({call.interaction for call in calls}))
    return f"the adapter was called for kinds {kinds}; toward {targets}; interactions {numbers}"
