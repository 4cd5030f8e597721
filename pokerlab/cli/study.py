"""``pokerlab study``: the studies that compare agents (``study exploitation``, ...).

Each study's command lives in its own module (``study_challenge``, ``study_exploitation``)
and exposes ``add_command(group)``; :func:`register` builds the group from them, so the
study modules never import this one.
"""

from __future__ import annotations

import typer

from pokerlab.cli import (
    study_aivat,
    study_challenge,
    study_exploitation,
    study_hard_strength,
    study_kuhn,
    study_learning,
    study_push_fold,
    study_search,
    study_three_player,
    study_tutorial,
)


def register(app: typer.Typer) -> None:
    """Add the ``study`` command group (with every study command) to ``app``."""
    study_app = typer.Typer(
        name="study",
        help=(
            "Studies: the challenge, (safe) exploitation, tree search, push/fold, the tutorial's "
            "aids, three players, AIVAT."
        ),
        no_args_is_help=True,
    )
    study_challenge.add_command(study_app)
    study_exploitation.add_command(study_app)
    study_search.add_command(study_app)
    study_push_fold.add_command(study_app)
    study_tutorial.add_command(study_app)
    study_three_player.add_command(study_app)
    study_aivat.add_command(study_app)
    study_hard_strength.add_command(study_app)
    study_kuhn.add_command(study_app)
    study_learning.add_command(study_app)
    app.add_typer(study_app, name="study")
