"""``pokerlab study``: the studies that compare agents (``study exploitation``, ...).

The sub-app lives here so that each study module adds its command to :data:`study_app`.
"""

from __future__ import annotations

import typer

study_app = typer.Typer(
    name="study",
    help="Studies: the challenge (values, abstractions, P2 advantage) and exploitation.",
    no_args_is_help=True,
)
"""The ``study`` command group; study modules add their commands to it."""


def register(app: typer.Typer) -> None:
    """Add the ``study`` command group (with every study command) to ``app``."""
    import pokerlab.cli.study_challenge  # (adds its command to study_app)
    import pokerlab.cli.study_exploitation  # noqa: F401  (adds its command to study_app)

    app.add_typer(study_app, name="study")
