"""What a self-test adapter's change can reach, so that its run judges that
and not the whole corpus again.

A broken adapter (``broken_base``) and a correct variant (``variants``) are
each the reference adapter, changed in named directions: damaged, passed
through or rewritten (``changed_directions``), and possibly judged under
other target profiles. The engine converts a case only from its own dialect:
each declared direction (kind, case dialect, target), then the trip back
(kind, target, case dialect) when the adapter declares it
(``harness/engine/runner.py``). A conversion that is not changed, not judged
under a changed profile, and not half of a round trip with one of those gives
exactly the reference adapter's output and verdicts, which fail no MUST rule
(``test_reference_adapter_fails_no_must_rule``); judging it again shows
nothing. So each of those adapters runs over the cases it reaches, in the
directions that matter (``focus``).
``test_an_undamaged_direction_converts_like_the_reference`` checks this
against a whole-corpus run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from toolwire.harness.corpus.case import Case
from toolwire.harness.corpus.loader import Corpus

Triple = tuple[str, str, str]


class Changed(Protocol):
    """The reference adapter, changed in some directions."""

    name: str
    focus: frozenset[Triple] | None

    @property
    def directions(self) -> frozenset[Triple]: ...

    @property
    def changed_directions(self) -> frozenset[Triple]: ...

    @property
    def target_profiles(self) -> Mapping[str, str]: ...


def _reverse(direction: Triple) -> Triple:
    kind, source, target = direction
    return kind, target, source


def directions_that_matter(adapter: Changed) -> frozenset[Triple]:
    """The declared directions whose conversions can differ from the
    reference's, with the other half of their round trips."""
    declared = adapter.directions
    changed = adapter.changed_directions
    matter = {
        d
        for d in declared
        if d in changed or _reverse(d) in changed or d[2] in adapter.target_profiles
    }
    matter |= {_reverse(d) for d in matter if _reverse(d) in declared}
    return frozenset(matter)


def reaches(adapter: Changed, case: Case) -> bool:
    """Whether any conversion the engine makes of ``case`` can differ from the reference's."""
    return any(
        source == case.dialect and kind in case.payload_kinds
        for kind, source, _ in directions_that_matter(adapter)
    )


def focused(adapter: Changed, corpus: Corpus) -> Corpus:
    """Narrow ``adapter`` to the directions that matter, and give the cases
    of ``corpus`` it reaches (their twins are still looked up in the whole
    corpus: ``RunOptions.corpus``)."""
    matter = directions_that_matter(adapter)
    reached = [case for case in corpus if reaches(adapter, case)]
    assert reached, f"{adapter.name} reaches no case: what it changes can never show"
    adapter.focus = matter
    return Corpus(corpus.root, reached)
