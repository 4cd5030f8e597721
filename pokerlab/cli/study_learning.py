"""``pokerlab study bandits | regret-bound | q-learning``: learning beside equilibrium."""

from __future__ import annotations

import typer


def add_command(group: typer.Typer) -> None:
    """Add ``bandits``, ``regret-bound`` and ``q-learning`` to the ``study`` command group."""
