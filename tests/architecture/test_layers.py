"""Imports run one way: no circle among toolwire's modules, and none up a declared order.

The checker (tests/architecture/layers.py) reads the import statements with
``ast``, at any nesting level: a function-level import counts (a lazy import
that dodges a circle is still the circle), and so does one under ``if
TYPE_CHECKING:`` (a circle the type checker needs is one in the design).

The orders below are data. Patterns name a module and everything under it;
one that names no module simply matches nothing.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.architecture.layers import (
    Forbidden,
    Layers,
    cycles,
    import_graph,
    module_sources,
    violations,
)

ROOT = Path(__file__).resolve().parents[2]

H = "toolwire.harness"
E = f"{H}.engine"
C = "toolwire.conformance"

# The run engine, from the top down: a session runs cases (in workers or
# here), the runner judges one case, handing a proxy's case to exchange; both
# judge a converted payload with judging, which gathers verdicts in collect.
ENGINE = Layers(
    "engine",
    (
        (f"{E}.session",),
        (f"{E}.workers",),
        (f"{E}.runner",),
        (f"{E}.exchange", f"{E}.case_thread"),
        (f"{E}.judging", f"{E}.adapter_errors"),
        (f"{E}.options", f"{E}.collect", f"{E}.timeout", f"{E}.children"),
        (f"{E}.calls", f"{E}.explain", f"{E}.gc_threshold", f"{E}.adapter_output"),
        (f"{E}.lingering", f"{E}.verdicts"),
    ),
)

# The whole tree: commands and the plugin over what they drive, the engine
# over adapters, codecs and the model; conformance (the rules) over the model.
HARNESS = Layers(
    "harness",
    (
        (f"{H}.cli", f"{H}.pytest_plugin", f"{H}.__main__"),
        # results writes the document reports read; both share reports.summary
        (f"{H}.reports", f"{H}.results", f"{H}.fuzz", f"{H}.probe", f"{H}.lint"),
        (f"{E}.session", f"{E}.workers", f"{E}.runner", f"{E}.exchange", f"{E}.judging"),
        (f"{H}.baseline",),
        (f"{H}.adapters", f"{H}.proxy", f"{H}.strategies"),
        (f"{H}.dialects", f"{H}.model", f"{H}.errors", f"{H}.json_text", f"{H}.sse"),
    ),
)

FAMILIES = ("pairing", "ordering", "fidelity", "reasoning", "xml", "stream", "replay", "schema")
TOP = ("catalogue", "registry", "levels", "pages")


def _family_rules() -> list[Forbidden]:
    rules = [
        Forbidden(
            "the shared readings import no rule family and no catalogue, registry, levels or pages",
            (f"{C}.readings",),
            tuple(f"{C}.{name}" for name in (*FAMILIES, *TOP)),
        )
    ]
    for family in FAMILIES:
        others = tuple(f"{C}.{name}" for name in (*FAMILIES, *TOP) if name != family)
        rules.append(
            Forbidden(
                f"a rule family ({family}) imports no other family, nor catalogue, registry, "
                "levels or pages",
                (f"{C}.{family}",),  # the package and every module in it
                others,
            )
        )
    return rules


RULES = [
    *_family_rules(),
    Forbidden(
        "only the commands, the plugin, reports, results, lint, baseline, corpus coverage, "
        "fuzz and probe use the run engine",
        (H,),
        (E,),
        except_sources=(
            E,
            f"{H}.cli",
            f"{H}.pytest_plugin",
            f"{H}.reports",
            f"{H}.results",
            f"{H}.lint",
            f"{H}.baseline",
            f"{H}.corpus.coverage",
            f"{H}.fuzz",
            f"{H}.probe",
        ),
    ),
    Forbidden(
        "the rules import no engine, command, adapter or report",
        (C,),
        tuple(
            f"{H}.{name}"
            for name in (
                "engine",
                "cli",
                "pytest_plugin",
                "reports",
                "results",
                "lint",
                "baseline",
                "adapters",
                "fuzz",
                "probe",
                "proxy",
            )
        ),
    ),
]


def _tree() -> dict[str, str]:
    return {
        **module_sources(ROOT / "harness", H),
        **module_sources(ROOT / "conformance", C),
    }


def _problems(sources: dict[str, str]) -> list[str]:
    graph = import_graph(sources)
    return [
        *(f"import circle: {chain}" for chain in cycles(graph)),
        *violations(graph, [ENGINE, HARNESS], RULES),
    ]


def test_the_tree_has_no_circle_and_no_import_up_a_layer() -> None:
    started = time.perf_counter()
    problems = _problems(_tree())
    assert problems == [], "\n".join(problems)
    assert time.perf_counter() - started < 5


def test_the_declared_modules_exist() -> None:
    """A renamed engine module must be renamed here too, or its rule guards nothing."""
    tree = _tree()
    for layer in ENGINE.order:
        for module in layer:
            assert module in tree, f"{module} is declared in the engine layers but does not exist"


def test_a_back_import_is_named() -> None:
    sources = _tree()
    collect = f"{E}.collect"
    sources[collect] += "\n\ndef _late() -> None:\n    from toolwire.harness.engine import runner\n"
    problems = _problems(sources)
    assert any(
        p.startswith(f"{collect} imports {E}.runner (line ") and "above it in the engine" in p
        for p in problems
    ), problems
    # runner imports collect, so the same line also closes a circle
    circles = [p for p in problems if p.startswith("import circle: ")]
    assert any(f"{collect} -> {E}.runner" in p for p in circles), circles


def test_an_import_under_type_checking_counts() -> None:
    sources = _tree()
    model = f"{H}.model"
    sources[model] += (
        "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from toolwire.harness.cli.main import cli\n"
    )
    problems = _problems(sources)
    assert any(p.startswith(f"{model} imports {H}.cli.main") for p in problems), problems


def test_a_synthetic_cycle_reads_as_a_chain() -> None:
    sources = {
        "toolwire.x": "",
        "toolwire.x.a": "from toolwire.x import b\n",
        "toolwire.x.b": "from . import c\n",
        "toolwire.x.c": "import toolwire.x.a\n",
        "toolwire.x.d": "from toolwire.x.a import something\n",
    }
    assert cycles(import_graph(sources)) == [
        "toolwire.x.a -> toolwire.x.b -> toolwire.x.c -> toolwire.x.a"
    ]


def test_a_family_package_may_not_import_another() -> None:
    sources = {
        f"{C}.readings": "",
        f"{C}.readings.paths": f"from {C}.pairing import check\n",
        f"{C}.pairing": "",
        f"{C}.pairing.check": f"from {C}.readings.paths import x\nfrom {C}.ordering import y\n",
        f"{C}.ordering": f"from {C}.catalogue import RULES\n",
        f"{C}.catalogue": "",
    }
    problems = violations(import_graph(sources), [], RULES)
    assert any(p.startswith(f"{C}.readings.paths imports {C}.pairing.check ") for p in problems)
    assert any(p.startswith(f"{C}.pairing.check imports {C}.ordering ") for p in problems)
    # a family's __init__ is held to the same rule as its modules
    assert any(p.startswith(f"{C}.ordering imports {C}.catalogue ") for p in problems)
    assert not any(p.startswith(f"{C}.pairing.check imports {C}.readings") for p in problems)
    assert len(problems) == 3, problems
