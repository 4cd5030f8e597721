"""Registration of the built-in games (kept apart so the registry imports no game).

``pokerlab/games/__init__.py`` calls :func:`register_all` once, so every built-in game is
registered before any module of the package can be used.
"""

from __future__ import annotations

from collections.abc import Mapping

from pokerlab.games.holdem import HoldemGame
from pokerlab.games.kuhn import KuhnGame
from pokerlab.games.leduc import LeducGame
from pokerlab.games.matrix import PRESETS, MatrixGame, preset_builder
from pokerlab.games.registry import GameEntry, Parameter, register
from pokerlab.games.rhode_island import RhodeIslandGame


def _players_plus_one(params: Mapping[str, object]) -> int:
    players = params.get("players", 2)
    return int(players) + 1 if isinstance(players, int) else 3


def register_all() -> None:
    """Register every built-in game (again: a later registration replaces an earlier one)."""
    register(
        GameEntry(
            "kuhn",
            "Kuhn poker: one card each, an ante and one bet size (1 and 1 by default), "
            "highest card wins",
            (
                Parameter("cards", _players_plus_one, "deck size, at least players + 1 (default)"),
                Parameter("players", 2, "number of players, at least 2"),
                Parameter("ante", 1, "chips each player antes, at least 1"),
                Parameter("bet", 1, "the one bet size (a call matches it), at least 1"),
            ),
            KuhnGame,
        )
    )
    register(
        GameEntry(
            "leduc",
            "Leduc poker: one private card, one board card, two betting rounds",
            (
                Parameter("stack", None, "chips each player starts with, ante included "
                          "(None: unlimited)", allow_none=True),
                Parameter("raise_cap", 2, "bets + raises allowed per round (None: no cap)",
                          allow_none=True),
                Parameter("ranks", _players_plus_one, "number of ranks, two suits each "
                          "(default: players + 1)"),
                Parameter("pair_counts", True, "a pair with the board beats any unpaired hand",
                          kind=bool),
                Parameter("players", 2, "number of players: 2 or 3"),
                Parameter("ante", 1, "chips each player antes"),
                Parameter("bets", (2, 4), "bet size in round 1 and round 2", kind=tuple),
            ),
            LeducGame,
        )
    )
    register(
        GameEntry(
            "holdem",
            "Texas Hold'em, limit or no-limit, 2-9 players, one hand (chips in, chips out)",
            (
                Parameter("players", 2, "number of players, 2..9"),
                Parameter("betting", "nolimit", "'limit' or 'nolimit'", kind=str),
                Parameter("blinds", (1, 2), "(small blind, big blind)", kind=tuple),
                Parameter("ante", 0, "chips every player antes"),
                Parameter("stack", 200, "chips each player has before the hand (an int, or "
                          "one per player)", kind=(int, tuple)),
                Parameter("cap", 4, "limit: bets per round, the big blind counting preflop"),
                Parameter("ranks", 13, "ranks in the deck (its highest), 2..13"),
                Parameter("suits", 4, "suits in the deck, 1..4"),
                Parameter("hole", 2, "hole cards per player, 1..4"),
                Parameter("board", "3,1,1", "board cards dealt before each later street",
                          kind=str),
                Parameter("raises", "", "limit: raise size per street, e.g. '2,2,4,4'", kind=str),
                Parameter("caps", "", "limit: raises per street (blinds not counting)", kind=str),
                Parameter("first", "", "first player per street, e.g. '1,0,0,0'", kind=str),
                Parameter("seat_blinds", None, "one blind per player in seat order (ACPC)",
                          kind=tuple, allow_none=True),
            ),
            HoldemGame,
        )
    )
    register(
        GameEntry(
            "rhode_island",
            "Rhode Island Hold'em: one private card, a flop card, a turn card, three limit "
            "rounds, three-card ranking (Gilpin and Sandholm)",
            (
                Parameter("ante", 5, "chips each player antes"),
                Parameter("bets", (10, 20, 20), "bet size in each of the three rounds",
                          kind=tuple),
                Parameter("raises", 3, "raises allowed after the opening bet, per round"),
                Parameter("ranks", 13, "ranks in the deck (its highest), 1..13"),
                Parameter("suits", 4, "suits in the deck, 1..4"),
            ),
            RhodeIslandGame,
        )
    )
    for name, summary in PRESETS.items():
        register(GameEntry(name, summary, (), preset_builder(name)))
    register(
        GameEntry(
            "matrix",
            "any bimatrix game: payoffs[row][col] = (P1 payoff, P2 payoff)",
            (
                Parameter("payoffs", None, "rows of (P1, P2) payoff pairs", kind=tuple),
                Parameter("rows", None, "names of P1's actions", kind=tuple, allow_none=True),
                Parameter("cols", None, "names of P2's actions", kind=tuple, allow_none=True),
                Parameter("title", "", "a title", kind=str),
            ),
            MatrixGame,
        )
    )
