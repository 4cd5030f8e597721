"""The searching Hard AI's built-in names: ``hard-search``, ``hard-search@250ms``, ``+N``.

A leaf module (it imports no solver), so that the registry recognises the names without
loading the search; :func:`pokerlab.agents.hard_search.parse_search_name` turns a budget
into the search's settings.
"""

from __future__ import annotations

import re

from pokerlab.errors import SpecError

NAME = "hard-search"
"""The built-in name; ``@<n>ms``, ``@<n>s`` or ``+<iterations>`` may follow it."""

DEFAULT_THINK = 1.0
"""Seconds per decision of ``hard-search`` (the issue's budget for the web table)."""

DEFAULT_TARGET = 0.1
"""A time-budgeted search stops once its game is this close to equilibrium (% of the pot)."""

_PATTERN = re.compile(
    r"^hard-search(?:@(?P<amount>[0-9]+)(?P<unit>ms|s)|\+(?P<iterations>[0-9]+))?$")


def search_budget(name: str) -> tuple[float | None, int | None] | None:
    """``(seconds per decision, iterations per search)`` a ``hard-search`` name asks for.

    One of the two is None (``hard-search+200``: iterations, no clock); None for a name
    that is not a ``hard-search`` name.

    Raises:
        SpecError: a ``hard-search`` name with a zero or absurd budget.
    """
    found = _PATTERN.match(name)
    if found is None:
        return None
    if found["iterations"] is not None:
        iterations = int(found["iterations"])
        if iterations < 1:
            raise SpecError(f"{name!r}: the iterations per search must be >= 1")
        return None, iterations
    if found["amount"] is not None:
        seconds = int(found["amount"]) / (1000.0 if found["unit"] == "ms" else 1.0)
        if not 0 < seconds <= 3600:
            raise SpecError(f"{name!r}: the time per decision must be in (0, 3600] seconds")
        return seconds, None
    return DEFAULT_THINK, None
