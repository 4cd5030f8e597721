"""Hand strength and potential against a weighted range (Billings et al., Loki, 1998-1999).

An opponent's range is a *weight table*: one weight per two-card hand (1,326 of them,
indexed as :func:`pokerlab.cards.combo_index` indexes them), the relative chance that the
opponent holds that hand *and* played it as he did. Against such a table, on a flop, turn
or river board, a hand has:

- ``HS``, hand strength: the weighted share of the compatible opposing hands it beats now,
  ties counting half (hands sharing a card with ours or the board are left out: card
  removal);
- ``PPOT``, positive potential: over every (opposing hand, next card) pair, weighted, the
  chance of moving from behind to ahead with the next card, ties half (``BA + BT/2 + TA/2``
  over ``B + T/2``); ``NPOT``, negative potential: from ahead to behind (``AB + AT/2 +
  TB/2`` over ``A + T/2``). One card of look-ahead on the flop and the turn (Billings' PPOT1
  and NPOT1); both 0 on the river.

From those, the *effective hand strength* (:meth:`HandPotential.ehs`) of the 1999 papers
(Billings, Peña, Schaeffer and Szafron, AAAI-99; Peña's thesis) is ``EHS = HS + (1 - HS)
PPOT``: the chance of being ahead now, or of pulling ahead when behind. The 1998 form
``HS (1 - NPOT) + (1 - HS) PPOT`` also subtracts the chance of being overtaken; it equals
exactly the hand's strength after the next card averaged over that card (expand both
sides: the BA, TA... counts cancel), which :func:`range_strengths` uses to get NPOT
without a second pass.

Every hand of a board is valued at once (:func:`range_strengths`, compiled sums in
:mod:`._ehs_kernels`): the values of all hands now and with each next card come from the
batch evaluator once per board (:func:`board_table`, cached), then running totals by
value give HS and the look-ahead, and a Fenwick tree gives PPOT. Preflop, strength is the
all-in equity: of each hand class against one random hand (:func:`preflop_strength`,
sampled once per process), or of a hand against a weighted range
(:func:`preflop_equity`, sampled by a compiled loop).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from pokerlab.agents._ehs_kernels import (
    BELOW,
    LATER,
    LEVEL,
    PPOT_SUM,
    TOTAL,
    board_rows,
    preflop_deals,
    strength_sums,
)
from pokerlab.cards import N_COMBOS, equity, evaluate_batch, hand_class
from pokerlab.errors import SpecError

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

PREFLOP_SAMPLES = 20_000
"""Deals sampled for each hand class's equity against a random hand (95% half-width about
0.007; once per process)."""
PREFLOP_DEALS = 6_000
"""Deals sampled for a hand's equity against a weighted range (95% half-width about 0.012),
at each preflop decision facing a modelled opponent."""
_BOARD_CACHE = 32  # boards whose tables are kept (two per street of a hand at most)


def _all_combos() -> Ints:
    cards = np.zeros((N_COMBOS, 2), dtype=np.int64)
    for low, high in combinations(range(52), 2):
        cards[high * (high - 1) // 2 + low] = (high, low)
    return cards


COMBO_CARDS = _all_combos()
"""``[1326, 2]``: the cards of each hand, higher first, at its combo index."""


@dataclass(frozen=True)
class HandPotential:
    """A hand's strength now and its potentials for the next card.

    Attributes:
        hs: the chance of being best now against the opponent's range (ties half).
        ppot: the chance of moving from behind (or tied) to ahead with the next card.
        npot: the chance of moving from ahead (or tied) to behind with the next card.
    """

    hs: float
    ppot: float
    npot: float

    def ehs(self, opponents: int = 1, *, negative_potential: bool = False) -> float:
        """Effective hand strength against ``opponents`` such ranges.

        ``HS_n + (1 - HS_n) PPOT`` (the 1999 papers), with ``HS_n = HS ** n``; with
        ``negative_potential``, ``HS_n (1 - NPOT) + (1 - HS_n) PPOT`` (the 1998 form).
        """
        hs_n = self.hs ** max(opponents, 1)
        kept = 1.0 - self.npot if negative_potential else 1.0
        return hs_n * kept + (1.0 - hs_n) * self.ppot


@dataclass(frozen=True)
class BoardTable:
    """Every hand's value on a board and with each next card (the batch evaluator's work).

    Attributes:
        board: the board cards, sorted.
        alive: ``[n]`` combo indices of the hands sharing no card with the board.
        cards: ``[n, 2]`` their cards.
        now: ``[n]`` their values on the board.
        next_cards: ``[m]`` the cards that may come next (none on the river).
        later: ``[m, n]`` values with each next card, -1 for a hand holding it.
    """

    board: tuple[int, ...]
    alive: Ints
    cards: Ints
    now: Ints
    next_cards: Ints
    later: Ints

    @property
    def lookahead(self) -> int:
        """Next cards per (hand, opposing hand) pair: the deck less board and four cards."""
        return len(self.next_cards) - 4 if len(self.next_cards) else 0


@functools.lru_cache(maxsize=_BOARD_CACHE)
def _board_table(board: tuple[int, ...]) -> BoardTable:
    used = np.zeros(52, dtype=bool)
    used[list(board)] = True
    alive = np.flatnonzero(~used[COMBO_CARDS].any(axis=1))
    cards = COMBO_CARDS[alive]
    next_cards = (np.flatnonzero(~used) if len(board) < 5 else np.zeros(0)).astype(np.int64)
    now_rows, later_rows, index = board_rows(cards, np.array(board, dtype=np.int64), next_cards)
    now = evaluate_batch(now_rows).astype(np.int64)
    later = np.full((len(next_cards), len(alive)), -1, dtype=np.int64)
    if len(index):
        later.flat[index] = evaluate_batch(later_rows)
    return BoardTable(board, alive, cards, now, next_cards, later)


def board_table(board: Sequence[int]) -> BoardTable:
    """The values of every hand on ``board`` (3, 4 or 5 cards) and after each next card.

    Raises:
        SpecError: for a board of other than 3, 4 or 5 distinct cards 0..51.
    """
    cards = tuple(sorted(int(card) for card in board))
    if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards) or not all(
            0 <= card < 52 for card in cards):
        raise SpecError(f"a board is 3, 4 or 5 distinct cards 0..51; got {list(board)}")
    return _board_table(cards)


@dataclass(frozen=True)
class RangeStrengths:
    """Every hand's HS, PPOT and NPOT against one weighted range on one board.

    Arrays are ``[1326]`` by combo index; NaN for a hand that shares a card with the board
    or has no compatible opposing weight (and, for PPOT/NPOT, outside the rows asked for).
    """

    hs: Floats
    ppot: Floats
    npot: Floats

    def ehs(self) -> Floats:
        """``HS + (1 - HS) PPOT`` per hand (the 1999 papers' effective hand strength)."""
        return self.hs + (1.0 - self.hs) * self.ppot

    def potential(self, combo: int) -> HandPotential:
        """One hand's figures."""
        return HandPotential(float(self.hs[combo]), float(self.ppot[combo]),
                             float(self.npot[combo]))


def uniform_weights() -> Floats:
    """A weight table holding every hand at weight 1 (nothing known of the opponent)."""
    return np.ones(N_COMBOS)


def _check_weights(weights: Floats) -> Floats:
    table = np.asarray(weights, dtype=np.float64)
    if table.shape != (N_COMBOS,) or not np.all(np.isfinite(table)) or np.any(table < 0):
        raise SpecError(f"a weight table is {N_COMBOS} finite weights >= 0 (one per combo); "
                        f"got shape {table.shape}")
    return table


def range_strengths(board: Sequence[int], weights: Floats | None = None,
                    rows: Sequence[int] | None = None) -> RangeStrengths:
    """HS, PPOT and NPOT of every hand on ``board`` against the weight table ``weights``.

    Args:
        board: 3, 4 or 5 board cards.
        weights: ``[1326]`` the opponent's weight table; None for uniform.
        rows: combo indices whose potentials are wanted (each costs a little); None for
            all. HS is computed for every hand.

    Raises:
        SpecError: for a bad board, weight table or row.
    """
    table = board_table(board)
    full = uniform_weights() if weights is None else _check_weights(weights)
    position = np.full(N_COMBOS, -1, dtype=np.int64)
    position[table.alive] = np.arange(len(table.alive))
    if rows is None:
        wanted = np.arange(len(table.alive), dtype=np.int64)
    else:
        asked = np.asarray(rows, dtype=np.int64)
        if asked.size and (asked.min() < 0 or asked.max() >= N_COMBOS):
            raise SpecError(f"rows are combo indices 0..{N_COMBOS - 1}; got {list(rows)}")
        wanted = position[asked]
        wanted = wanted[wanted >= 0]
    sums = strength_sums(table.cards, table.now, table.later, full[table.alive], wanted)
    total, below, level = sums[:, TOTAL], sums[:, BELOW], sums[:, LEVEL]
    with np.errstate(invalid="ignore", divide="ignore"):
        hs_alive = np.where(total > 0, (below + 0.5 * level) / total, np.nan)
        ppot_alive = np.full(len(table.alive), np.nan)
        npot_alive = np.full(len(table.alive), np.nan)
        if table.lookahead:
            k = float(table.lookahead)
            behind = k * (total - below - 0.5 * level)
            ahead = k * (below + 0.5 * level)
            ppot_sum = sums[wanted, PPOT_SUM]
            # NPOT by the identity HS (1 - NPOT) + (1 - HS) PPOT = mean later strength.
            npot_sum = ahead[wanted] + ppot_sum - sums[wanted, LATER]
            # Sums of differences leave rounding residue: a share under 1e-9 of the
            # weight is none (a hand never behind has no positive potential).
            tiny = 1e-9 * k * total[wanted]
            ppot_alive[wanted] = np.where(behind[wanted] > tiny, ppot_sum / behind[wanted], 0.0)
            npot_alive[wanted] = np.where(ahead[wanted] > tiny, npot_sum / ahead[wanted], 0.0)
            ppot_alive[total <= 0] = np.nan
            npot_alive[total <= 0] = np.nan
        else:
            ppot_alive[wanted] = np.where(total[wanted] > 0, 0.0, np.nan)
            npot_alive[wanted] = ppot_alive[wanted]
    hs, ppot, npot = (np.full(N_COMBOS, np.nan) for _ in range(3))
    hs[table.alive] = np.clip(hs_alive, 0.0, 1.0)
    ppot[table.alive] = np.clip(ppot_alive, 0.0, 1.0)
    npot[table.alive] = np.clip(npot_alive, 0.0, 1.0)
    return RangeStrengths(hs, ppot, npot)


def combo_of(hole: Sequence[int]) -> int:
    """The combo index of two hole cards.

    Raises:
        SpecError: unless ``hole`` is two distinct cards 0..51.
    """
    if len(hole) != 2 or hole[0] == hole[1] or not all(0 <= c < 52 for c in hole):
        raise SpecError(f"a hand is 2 distinct cards 0..51; got {list(hole)}")
    high, low = max(hole), min(hole)
    return high * (high - 1) // 2 + low


def hand_potential(hole: Sequence[int], board: Sequence[int],
                   weights: Floats | None = None) -> HandPotential:
    """HS, PPOT and NPOT of ``hole`` on a flop, turn or river ``board`` against ``weights``.

    Raises:
        SpecError: for a bad hand, board or weight table, a card on both, or a range with
            no hand left beside ours.
    """
    combo = combo_of(hole)
    if set(hole) & set(board):
        raise SpecError(f"repeated cards in {[*hole, *board]}")
    potential = range_strengths(board, weights, rows=[combo]).potential(combo)
    if np.isnan(potential.hs):
        raise SpecError("the opponent's range holds no hand compatible with ours and the board")
    return potential


@functools.cache
def _preflop_table() -> Floats:
    """Equity of each of the 1,326 hands against one random hand (by hand class)."""
    by_class: dict[str, float] = {}
    table = np.zeros(N_COMBOS)
    for combo in range(N_COMBOS):
        high, low = (int(c) for c in COMBO_CARDS[combo])
        label = hand_class((high, low))
        if label not in by_class:
            result = equity([[high, low], "random"], samples=PREFLOP_SAMPLES,
                            seed=high * 52 + low)
            by_class[label] = result.equity[0]
        table[combo] = by_class[label]
    table.setflags(write=False)
    return table


def preflop_strengths() -> Floats:
    """``[1326]``: each hand's all-in equity against one random hand (sampled once).

    The 169 hand classes are each sampled with :data:`PREFLOP_SAMPLES` deals (about half a
    second in all, once per process); suit-isomorphic hands share their class's figure.
    """
    return _preflop_table()


def preflop_strength(hole: tuple[int, int]) -> float:
    """Equity of ``hole`` against one random hand to the river (ties half), sampled."""
    return float(_preflop_table()[combo_of(hole)])


def preflop_equity(hole: Sequence[int], weights: Floats) -> float:
    """All-in equity of ``hole`` against the weighted range ``weights``, preflop (sampled).

    :data:`PREFLOP_DEALS` deals of an opposing hand drawn by weight (those holding one of
    our cards left out) and a board drawn uniformly, valued by the batch evaluator; the
    draws are seeded by the hole cards, so the same question gets the same answer (and
    recent answers are kept: an opponent who has not acted since keeps his table).

    Raises:
        SpecError: for a bad hand or weight table, or a range with no compatible hand.
    """
    combo = combo_of(hole)
    return _preflop_equity(combo, _check_weights(weights).tobytes())


@functools.lru_cache(maxsize=256)
def _preflop_equity(combo: int, weights: bytes) -> float:
    hole = tuple(int(card) for card in COMBO_CARDS[combo])
    table = np.frombuffer(weights, dtype=np.float64)
    keep = np.flatnonzero((table > 0) & ~np.isin(COMBO_CARDS, list(hole)).any(axis=1))
    if not len(keep):
        raise SpecError("the opponent's range holds no hand compatible with ours")
    cumulative = np.cumsum(table[keep])
    cumulative /= cumulative[-1]
    uniforms = np.random.default_rng(combo).random((PREFLOP_DEALS, 6))
    ours, theirs = preflop_deals(np.array(hole, dtype=np.int64), COMBO_CARDS[keep], cumulative,
                                 uniforms)
    mine, other = evaluate_batch(ours), evaluate_batch(theirs)
    return float(np.mean((mine > other) + 0.5 * (mine == other)))


__all__ = [
    "COMBO_CARDS",
    "PREFLOP_DEALS",
    "PREFLOP_SAMPLES",
    "BoardTable",
    "HandPotential",
    "RangeStrengths",
    "board_table",
    "combo_of",
    "hand_potential",
    "preflop_equity",
    "preflop_strength",
    "preflop_strengths",
    "range_strengths",
    "uniform_weights",
]
