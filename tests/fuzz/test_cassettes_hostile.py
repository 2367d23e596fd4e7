"""`toolwire lint`, `corpus add` and `corpus validate` on mutated cassettes.

Each reads a whole file the user gives it. Whatever the file holds (a real
case broken in one way: tests/fuzz/cassettes.py), the only exception that
may leave them is a ``ToolwireError``, which the command line prints as one
line with its exit code; `corpus validate` reports problems and raises
nothing else. Anything else is a traceback a user would see.

Sizes: ``TOOLWIRE_CASSETTE_EXAMPLES`` examples per reader (20 in
`make test`); docs/fuzzing.md has the command and result of a long run.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed

from tests.fuzz.cassettes import SEEDS, Mutant, mutated_cassettes
from toolwire.harness.corpus.importer import AddOptions, import_cassette
from toolwire.harness.corpus.validate import validate_corpus
from toolwire.harness.errors import ToolwireError
from toolwire.harness.lint.check import lint_report
from toolwire.harness.model import DIALECTS

CASSETTE_EXAMPLES = int(os.environ.get("TOOLWIRE_CASSETTE_EXAMPLES", "20"))
CASSETTE_SEED = int(os.environ.get("TOOLWIRE_CASSETTE_SEED", "20261126"))

MUTANTS = settings(
    max_examples=CASSETTE_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _lint(mutant: Mutant, _folder: Path) -> None:
    with contextlib.suppress(ToolwireError):
        lint_report(mutant.text, f"fuzz{mutant.suffix}")


def _add(mutant: Mutant, folder: Path) -> None:
    cassette = folder / f"recorded{mutant.suffix}"
    cassette.write_text(mutant.text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(ToolwireError):
        import_cassette(cassette, AddOptions(corpus_root=folder / "corpus"))


def _validate(mutant: Mutant, folder: Path) -> None:
    path = folder / "corpus" / f"{mutant.seed.case_id}.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(mutant.text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(ToolwireError):
        validate_corpus(folder / "corpus")


READERS = {"lint": _lint, "corpus-add": _add, "corpus-validate": _validate}


@pytest.mark.parametrize("reader", list(READERS))
def test_mutated_cassettes_give_a_toolwire_error_or_a_result(reader: str) -> None:
    run = READERS[reader]
    ran = []

    @hypothesis_seed(CASSETTE_SEED)
    @MUTANTS
    @given(mutated_cassettes())
    def check(mutant: Mutant) -> None:
        with tempfile.TemporaryDirectory(prefix="toolwire-fuzz-") as folder:
            run(mutant, Path(folder))
        ran.append(mutant.how)

    check()
    # Printed for the long run's count (pytest -s); every example reached the reader.
    print(f"\n{reader}: {len(ran)} mutated cassettes, seed {CASSETTE_SEED}")
    assert len(ran) >= min(CASSETTE_EXAMPLES, 10)


def test_the_seeds_cover_every_dialect_streamed_and_not() -> None:
    dialects = {seed.text.split("dialect: ", 1)[1].split()[0] for seed in SEEDS}
    assert dialects == set(DIALECTS)
    assert any("text/event-stream" in seed.text for seed in SEEDS)
    assert any("text/event-stream" not in seed.text for seed in SEEDS)
