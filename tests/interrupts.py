"""A stand-in for the console runner's Ctrl-C flag, shared by the tests of long runs."""

from __future__ import annotations


class InterruptAfter:
    """Stands in for ``run_console.StopSignals``: 'pressed' after a number of polls.

    The run loop polls it once per slice.

    Use: ``monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(2))``.
    """

    def __init__(self, checks: int) -> None:
        self._checks = checks

    @property
    def requested(self) -> bool:
        self._checks -= 1
        return self._checks < 0

    def __enter__(self) -> InterruptAfter:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
