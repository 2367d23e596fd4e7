"""The ``tw`` fixture: pytester with toolwire's checkout importable."""

from __future__ import annotations

import pytest

from tests.support.real_transcripts import PROJECT_ROOT


@pytest.fixture
def tw(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(PROJECT_ROOT))
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    return pytester
