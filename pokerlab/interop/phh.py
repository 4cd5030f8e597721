"""PHH hand histories: pokerlab's hand records to and from the poker hand history format.

PHH (Kim, "Recording and Describing Poker Hands", 2024; https://github.com/uoftcprg/phh-std)
is the TOML file format pokerkit reads and writes: one hand per ``.phh`` file, or many in
a ``.phhs`` file (each hand a table ``[1]``, ``[2]``...). A hand's required fields give the
rules (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet`` or ``small_bet`` and
``big_bet``, ``starting_stacks``) and its ``actions``: ``d dh p1 AsKd`` deals hole cards,
``d db Qh7c2d`` the board, ``p2 f`` folds, ``p2 cc`` checks or calls, ``p2 cbr 60`` bets or
raises to 60 chips on the street, ``p1 sm AsKd`` shows at showdown (``p1 sm`` mucks).

What PHH expresses. Of its variants, ``NT`` (no-limit) and ``FT`` (fixed-limit) are
pokerlab's Texas Hold'em: 52 cards, two hole cards, a board of 3, 1 and 1 cards, 2 to 9
seats, uniform antes, blinds (or per-seat blinds and straddles, pokerlab's ``seat_blinds``),
the no-limit minimum bet equal to the big blind, limit bets of one size preflop and on the
flop and another on the turn and river. PHH has no raise cap: ``FT`` is pokerkit's
fixed-limit game, four bets or raises per street with the blinds not counting, so a
pokerlab limit game exports when it allows no more (the default ``cap=4`` allows three
raises preflop and four later: every hand of it is a hand of ``FT``), and an ``FT`` hand
from elsewhere imports as ``holdem(betting='limit', caps='4,4,4,4', ...)``. Kuhn, Leduc
and the other Hold'em games (short decks, more hole cards, other boards or openers) have
no PHH variant and are refused with :class:`~pokerlab.errors.SpecError` naming why.

Player and seat order are pokerlab's, which are PHH's: player ``p1`` is pokerlab's player
0, the small blind (heads-up, the big blind: PHH reverses the blinds of two players, as
pokerlab seats them), and the last player holds the button.

What a pokerlab export adds, as PHH user-defined fields (their names start with ``_``,
which every PHH reader keeps or ignores): ``_pokerlab_game`` (the game's spec, so a limit
game's cap and the ACPC-style fields come back), ``_deal`` (the deal id), ``_seats`` (the
agent in each seat), ``_faults``, ``_seconds`` and ``_decisions``. With them
:func:`loads_phh` gives back the very :class:`~pokerlab.play.records.HandRecord` that was
exported; ``hand``, ``players`` and ``finishing_stacks`` are PHH's own fields (the hand's
index, the name in each seat, each seat's chips after the hand).

Reading checks every action against pokerlab's rules (the player to act, the legal raise
range) and, when the file gives them, the finishing stacks against pokerlab's settlement.
A hand pokerlab cannot record is refused with the hand and the action at fault: unknown
cards (``????``, a hand played elsewhere whose folded cards were never seen: a record
holds every card dealt), a hand that stops before its end, or a muck that would change
the payoffs (pokerlab shows every hand still in at showdown).

This module is the face of three: :mod:`.phh_rules` (the game as PHH's rule fields and
back, :class:`PhhHand`), :mod:`.phh_write` (records to PHH text) and :mod:`.phh_read` (PHH
text to records, every action checked); :mod:`.phh_sources` reads where pokerlab keeps
hands and writes folders, :mod:`.phh_analysis` estimates what imported hands say.

Example:
    >>> from pokerlab.games import holdem
    >>> from pokerlab.play.records import HandRecord
    >>> game = holdem(stack=100)
    >>> state = game.initial_state().apply_sequence([51, 50, 47, 46, 0])  # p2 (button) folds
    >>> phh_actions(game, state.history)
    ['d dh p1 AsKs', 'd dh p2 AhKh', 'p2 f']
    >>> record = HandRecord(hand=0, deal=0, seats=(0, 1), returns=state.returns(),
    ...                     history=state.history)
    >>> text = dumps_phh(PhhHand(game, record, players=("alice", "bob")))
    >>> loads_phh(text)[0].record == record
    True
"""

from __future__ import annotations

from pokerlab.interop.phh_read import hand_from_phh_fields, loads_phh, replay_phh_actions
from pokerlab.interop.phh_rules import (
    EXTENSIONS,
    OTHER_VARIANTS,
    PHH_LIMIT_CAP,
    VARIANTS,
    PhhHand,
    game_from_phh_fields,
    phh_game_fields,
)
from pokerlab.interop.phh_write import dumps_phh, dumps_phhs, phh_actions, phh_fields

__all__ = [
    "EXTENSIONS",
    "OTHER_VARIANTS",
    "PHH_LIMIT_CAP",
    "VARIANTS",
    "PhhHand",
    "dumps_phh",
    "dumps_phhs",
    "game_from_phh_fields",
    "hand_from_phh_fields",
    "loads_phh",
    "phh_actions",
    "phh_fields",
    "phh_game_fields",
    "replay_phh_actions",
]
