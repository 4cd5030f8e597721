"""When the searcher stops trying a street whose searches keep failing, for a while.

A street search that cannot be built, referenced or solved within its decision's budget
(:class:`~pokerlab.errors.GameTooLargeError`: over ``max_nodes``, or out of time) still
costs the decision the build and the blueprint's reference before the blueprint answers
anyway: 0.4-0.7 s on every heads-up limit turn of the default blueprint with a 1 s budget,
where not one of 2,103 turn decisions in a 3,000-hand match was searched. After
:data:`SKIP_AFTER` failed searches in a row on one street the searcher leaves that street
to the blueprint at once, trying again every :data:`RETRY_EVERY`-th decision there (a
faster moment of the machine, a smaller subgame); a search that is built resets the count.
"""

from __future__ import annotations

from collections.abc import Hashable

SKIP_AFTER = 3
"""Failed street searches in a row after which the street is skipped."""

RETRY_EVERY = 8
"""Of the decisions on a skipped street, every this-many-th tries a search again."""


class StreetTries:
    """Counts failed searches per street (any hashable key) and says when to try again.

    A key of None (a search with no clock, whose failures do not depend on the machine)
    is always tried and never counted: such a policy stays a function of what it is asked.
    """

    def __init__(self) -> None:
        self._failed: dict[Hashable, int] = {}
        self._skipped: dict[Hashable, int] = {}

    def should_try(self, street: Hashable) -> bool:
        """Whether to search at this decision on ``street`` (counts the skips)."""
        if street is None or self._failed.get(street, 0) < SKIP_AFTER:
            return True
        skipped = self._skipped.get(street, 0) + 1
        self._skipped[street] = 0 if skipped >= RETRY_EVERY else skipped
        return skipped >= RETRY_EVERY

    def failed(self, street: Hashable) -> None:
        """A search on ``street`` could not be built, referenced or solved in time."""
        if street is not None:
            self._failed[street] = self._failed.get(street, 0) + 1

    def built(self, street: Hashable) -> None:
        """A search on ``street`` was built and run: try every decision again."""
        self._failed.pop(street, None)
        self._skipped.pop(street, None)


__all__ = ["RETRY_EVERY", "SKIP_AFTER", "StreetTries"]
