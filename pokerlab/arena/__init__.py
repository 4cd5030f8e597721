"""The arena: round-robin tournaments on 2 to 9 seats, stored in SQLite, with a leaderboard."""

from __future__ import annotations

from pokerlab.agents.resolve import Entrant
from pokerlab.arena.leaderboard import Leaderboard, Standing, TableResult, leaderboard
from pokerlab.arena.store import ArenaStore
from pokerlab.arena.tournament import (
    TournamentProgress,
    TournamentResult,
    builtin_entrants,
    file_entrants,
    match_seed,
    run_tournament,
    sample_batch,
)

__all__ = [
    "ArenaStore",
    "Entrant",
    "Leaderboard",
    "Standing",
    "TableResult",
    "TournamentProgress",
    "TournamentResult",
    "builtin_entrants",
    "file_entrants",
    "leaderboard",
    "match_seed",
    "run_tournament",
    "sample_batch",
]
