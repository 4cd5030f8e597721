"""The arena: round-robin tournaments stored in SQLite, resumable, with a leaderboard."""

from __future__ import annotations

from pokerlab.arena.leaderboard import Leaderboard, Standing, leaderboard
from pokerlab.arena.store import ArenaStore
from pokerlab.arena.tournament import (
    Entrant,
    TournamentProgress,
    TournamentResult,
    builtin_entrants,
    builtin_names,
    file_entrants,
    match_seed,
    run_tournament,
)

__all__ = [
    "ArenaStore",
    "Entrant",
    "Leaderboard",
    "Standing",
    "TournamentProgress",
    "TournamentResult",
    "builtin_entrants",
    "builtin_names",
    "file_entrants",
    "leaderboard",
    "match_seed",
    "run_tournament",
]
