"""Fixtures of the play tests: the host watched around an entrant (tests.play.host)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.play.host import HostWatch


@pytest.fixture
def host(monkeypatch: pytest.MonkeyPatch) -> Iterator[HostWatch]:
    """The host, checked clean after the test (see :class:`HostWatch`)."""
    watch = HostWatch(monkeypatch)
    yield watch
    watch.assert_clean()


