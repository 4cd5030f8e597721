"""Compiled loops of the evaluator and of equity, exact and Monte Carlo (numba, cached on disk).

Imported on first use only, so ``import pokerlab.cards`` does not pay for numba. The
lookup tables come from :mod:`pokerlab.cards.evaluator` and :mod:`pokerlab.cards.equity` as
arguments (numba would freeze global arrays into the compiled code). A hand is accumulated
into three ints, each a sum over its cards (cards are distinct, so the bit fields never
carry); the equity kernels use another rank key, described above them:

- ``rank_key``: 3 bits per rank (bits ``3r .. 3r+2``) counting the cards of rank r;
- ``suit_bits``: 16 bits per suit (bit ``16s + r``) marking the ranks held in suit s;
- ``suit_counts``: 4 bits per suit counting its cards; adding 3 to every field sets the
  field's top bit exactly when the suit has five or more cards (a flush).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab.cards.splitmix import GAMMA, mix

_RANK_MASK = 0x1FFF
_PLUS_THREE = 0x3333
_TOP_BITS = 0x8888


@numba.njit(cache=True, nogil=True)
def evaluate_rows(
    cards: NDArray[np.uint8],
    nonflush: NDArray[np.int16],
    flush: NDArray[np.int16],
    colex_step: NDArray[np.int32],
    offsets: NDArray[np.int64],
) -> NDArray[np.int32]:
    """Value of each row of `cards` ``[n, k]``; -1 for a row that repeats a card."""
    n_rows, n_cards = cards.shape
    offset = offsets[n_cards]
    values = np.empty(n_rows, dtype=np.int32)
    for row in range(n_rows):
        rank_key = 0
        suit_bits = 0
        suit_counts = 0
        seen = 0
        repeated = 0
        for column in range(n_cards):
            card = int(cards[row, column])
            bit = 1 << card
            repeated |= seen & bit
            seen |= bit
            rank = card >> 2
            suit = card & 3
            rank_key += 1 << (3 * rank)
            suit_bits |= 1 << (16 * suit + rank)
            suit_counts += 1 << (4 * suit)
        if repeated:
            values[row] = -1
            continue
        # The lookups are written out here and below: a shared helper measured 2x slower.
        flush_bits = (suit_counts + _PLUS_THREE) & _TOP_BITS
        if flush_bits:
            suit = 0
            while not (flush_bits >> (4 * suit + 3)) & 1:
                suit += 1
            values[row] = flush[(suit_bits >> (16 * suit)) & _RANK_MASK]
            continue
        index = offset
        position = 0
        for rank in range(13):
            count = (rank_key >> (3 * rank)) & 7
            index += colex_step[(rank * 8 + position) * 5 + count]
            position += count
        values[row] = nonflush[index]
    return values


# -- equity ---------------------------------------------------------------------------------
# The equity kernels value 7 cards from three keys that add up card by card, so the board's
# part is summed once and each hand adds its two hole cards (``pokerlab.cards.equity`` builds
# the tables, see its ``_EquityTables``):
#
# - ``rank_key``: the rank counts in base 5, ranks 0..6 in the low 32 bits and ranks 7..12 in
#   the high 32 bits (a count is at most 4, so no digit carries); ``low_ids`` and
#   ``high_offsets`` turn the two halves into a row of ``rank_values``, the value of the
#   7-card rank multiset when no flush is possible: two independent loads and one more;
# - ``suit_bits`` and ``suit_counts`` as above; the flush test and the flush suit's shift are
#   a table lookup (``flush_shifts``), not a loop, so the kernel has no data-dependent branch
#   there (a loop over suits measured 5x slower).
#
# Randomness: SplitMix64 (:mod:`pokerlab.cards.splitmix`), seeded by the caller from its
# numpy Generator. A uniform index
# below n is ``(32 random bits * n) >> 32`` (Lemire's multiply-shift; the bias is at most
# n / 2**32, below 1e-6 for every n used here).

_LOW_HALF = 0xFFFFFFFF
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_N_CARDS = np.uint64(52)
_MAX_REDEALS = 1_000_000

EquityTables = tuple[
    NDArray[np.int16], NDArray[np.int32], NDArray[np.int32], NDArray[np.int16], NDArray[np.int64]
]
"""``(rank_values, low_ids, high_offsets, flush, flush_shifts)``, see the comment above."""


@numba.njit(cache=True, nogil=True, inline="always")
def _value7(rank_key: int, suit_bits: int, suit_counts: int, tables: EquityTables) -> int:
    """Value 1..7462 of a 7-card hand given by its three keys."""
    rank_values, low_ids, high_offsets, flush, flush_shifts = tables
    flush_bits = ((suit_counts + _PLUS_THREE) & _TOP_BITS) >> 3
    plain = rank_values[high_offsets[rank_key >> 32] + low_ids[rank_key & _LOW_HALF]]
    flushed = flush[(suit_bits >> flush_shifts[flush_bits]) & _RANK_MASK]
    return int(flushed if flush_bits else plain)


@numba.njit(cache=True, nogil=True, inline="always")
def _deal_runout(
    state: np.uint64,
    used: int,
    n_runout: int,
    cards: NDArray[np.int64],
    rank_key: int,
    suit_bits: int,
    suit_counts: int,
) -> tuple[np.uint64, int, int, int]:
    """Deal `n_runout` cards not in `used` uniformly, adding their keys; two per draw.

    Each 64-bit draw gives two card candidates (its halves); a candidate already used is
    skipped, so the cards come uniformly from the rest of the deck.
    """
    drawn = 0
    while drawn < n_runout:
        state += GAMMA
        bits = mix(state)
        for _half in range(2):
            card = np.int64(((bits & _LOW32) * _N_CARDS) >> _S32)
            bits >>= _S32
            bit = 1 << int(card)
            if drawn < n_runout and not used & bit:
                used |= bit
                rank_key += cards[card, 0]
                suit_bits |= cards[card, 1]
                suit_counts += cards[card, 2]
                drawn += 1
    return state, rank_key, suit_bits, suit_counts


@numba.njit(cache=True, nogil=True)
def evaluate_keys(
    rank_keys: NDArray[np.int64],
    suit_bits: NDArray[np.int64],
    suit_counts: NDArray[np.int64],
    tables: EquityTables,
) -> NDArray[np.int32]:
    """Value of each 7-card hand given by its keys (the equity kernels' evaluator)."""
    values = np.empty(rank_keys.shape[0], dtype=np.int32)
    for row in range(rank_keys.shape[0]):
        values[row] = _value7(rank_keys[row], suit_bits[row], suit_counts[row], tables)
    return values


@numba.njit(cache=True, nogil=True)
def sample_showdowns(
    combos: NDArray[np.int64],
    offsets: NDArray[np.int64],
    thresholds: NDArray[np.int64],
    aliases: NDArray[np.int64],
    cards: NDArray[np.int64],
    board: NDArray[np.int64],
    n_runout: int,
    excluded: int,
    n_samples: int,
    seed: np.uint64,
    tables: EquityTables,
) -> tuple[
    NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], bool
]:
    """Draw `n_samples` deals and runouts; count each player's wins, ties and pot shares.

    Args:
        combos: ``[n_combos, 4]`` every player's combos, player after player: rank key,
            suit bits, suit counts and card mask of the two hole cards.
        offsets: ``[n_players + 1]`` where each player's combos start in `combos`.
        thresholds: Walker's alias tables over each player's combos (drawn in proportion
            to their weights): keep the drawn combo when 32 random bits fall below its
            threshold, else take its alias;
        aliases: the alias of each combo, an index into `combos`.
        cards: ``[52, 3]`` rank key, suit bit and suit count of each card.
        board: ``[3]`` the keys of the known board cards, summed.
        n_runout: board cards to deal (5 minus the known ones).
        excluded: mask of the cards never dealt (the board and the dead cards).
        n_samples: showdowns to draw.
        seed: the SplitMix64 state to start from.
        tables: the evaluator's tables (see above).

    Returns:
        wins, ties, shares (sum of pot shares) and squares (sum of squared shares), each
        ``[n_players]``, and False when a deal without shared cards could not be found in
        a million tries (the ranges leave almost no such deal), True otherwise.

    A deal draws one combo per player in proportion to the weights and starts again,
    whole, when two players share a card: so each deal comes with probability
    proportional to the product of its weights, among deals without shared cards.
    """
    n_players = offsets.shape[0] - 1
    wins = np.zeros(n_players)
    ties = np.zeros(n_players)
    shares = np.zeros(n_players)
    squares = np.zeros(n_players)
    chosen = np.zeros(n_players, dtype=np.int64)
    values = np.zeros(n_players, dtype=np.int64)
    state = seed
    for _ in range(n_samples):
        redeals = 0
        while True:
            used = excluded
            clash = False
            for player in range(n_players):
                start = offsets[player]
                state += GAMMA
                bits = mix(state)
                pick = start + np.int64(
                    ((bits >> _S32) * np.uint64(offsets[player + 1] - start)) >> _S32
                )
                if np.int64(bits & _LOW32) >= thresholds[pick]:
                    pick = aliases[pick]
                mask = combos[pick, 3]
                if used & mask:
                    clash = True
                    break
                used |= mask
                chosen[player] = pick
            if not clash:
                break
            redeals += 1
            if redeals >= _MAX_REDEALS:
                return wins, ties, shares, squares, False
        rank_key = board[0]
        suit_bits = board[1]
        suit_counts = board[2]
        state, rank_key, suit_bits, suit_counts = _deal_runout(
            state, used, n_runout, cards, rank_key, suit_bits, suit_counts
        )
        best = 0
        n_best = 0
        for player in range(n_players):
            pick = chosen[player]
            value = _value7(
                rank_key + combos[pick, 0],
                suit_bits | combos[pick, 1],
                suit_counts + combos[pick, 2],
                tables,
            )
            values[player] = value
            if value > best:
                best = value
                n_best = 1
            elif value == best:
                n_best += 1
        share = 1.0 / n_best
        for player in range(n_players):
            if values[player] == best:
                if n_best == 1:
                    wins[player] += 1.0
                else:
                    ties[player] += 1.0
                shares[player] += share
                squares[player] += share * share
    return wins, ties, shares, squares, True


@numba.njit(cache=True, nogil=True)
def sample_showdowns_two(
    combos: NDArray[np.int64],
    offsets: NDArray[np.int64],
    thresholds: NDArray[np.int64],
    aliases: NDArray[np.int64],
    cards: NDArray[np.int64],
    board: NDArray[np.int64],
    n_runout: int,
    excluded: int,
    n_samples: int,
    seed: np.uint64,
    tables: EquityTables,
) -> tuple[int, int, bool]:
    """:func:`sample_showdowns` for two players, the common case, without branches to count.

    Player 0's alias table is over its *marginal* weights: each combo's weight times the
    weight of player 1's combos that share no card with it. Player 0 is drawn once, then
    player 1 from its own table until its combo shares no card with player 0's: the same
    distribution of deals as redrawing both, for one draw per retry instead of two.

    Returns:
        showdowns won by player 0, showdowns won by player 1 (the rest are ties), and the
        same success flag.
    """
    start_1 = offsets[1]
    n_0 = np.uint64(start_1)
    n_1 = np.uint64(offsets[2] - start_1)
    wins_0 = 0
    wins_1 = 0
    state = seed
    for _ in range(n_samples):
        state += GAMMA
        bits = mix(state)
        pick_0 = np.int64(((bits >> _S32) * n_0) >> _S32)
        if np.int64(bits & _LOW32) >= thresholds[pick_0]:
            pick_0 = aliases[pick_0]
        mask_0 = combos[pick_0, 3]
        redeals = 0
        while True:
            state += GAMMA
            bits = mix(state)
            pick_1 = start_1 + np.int64(((bits >> _S32) * n_1) >> _S32)
            if np.int64(bits & _LOW32) >= thresholds[pick_1]:
                pick_1 = aliases[pick_1]
            if not mask_0 & combos[pick_1, 3]:
                break
            redeals += 1
            if redeals >= _MAX_REDEALS:
                return wins_0, wins_1, False
        used = excluded | combos[pick_0, 3] | combos[pick_1, 3]
        rank_key = board[0]
        suit_bits = board[1]
        suit_counts = board[2]
        state, rank_key, suit_bits, suit_counts = _deal_runout(
            state, used, n_runout, cards, rank_key, suit_bits, suit_counts
        )
        value_0 = _value7(
            rank_key + combos[pick_0, 0],
            suit_bits | combos[pick_0, 1],
            suit_counts + combos[pick_0, 2],
            tables,
        )
        value_1 = _value7(
            rank_key + combos[pick_1, 0],
            suit_bits | combos[pick_1, 1],
            suit_counts + combos[pick_1, 2],
            tables,
        )
        wins_0 += value_0 > value_1
        wins_1 += value_1 > value_0
    return wins_0, wins_1, True


@numba.njit(cache=True, nogil=True, inline="always")
def _first_combination(chosen: NDArray[np.int64], size: int) -> None:
    for slot in range(size):
        chosen[slot] = slot


@numba.njit(cache=True, nogil=True, inline="always")
def _next_combination(chosen: NDArray[np.int64], size: int, n: int) -> bool:
    """Advance `chosen` to the next `size`-subset of ``0..n-1`` (lexicographic); False at end."""
    slot = size - 1
    while slot >= 0 and chosen[slot] == n - size + slot:
        slot -= 1
    if slot < 0:
        return False
    chosen[slot] += 1
    for later in range(slot + 1, size):
        chosen[later] = chosen[later - 1] + 1
    return True


_PAIRWISE_BELOW = 64  # hands x hands under which comparing every pair beats sorting
_INSERTION_BELOW = 48  # hands under which an insertion sort beats np.argsort (no allocation)


@numba.njit(cache=True, nogil=True)
def _order(values: NDArray[np.int64], count: int, order: NDArray[np.int64]) -> NDArray[np.int64]:
    """Indices that sort ``values[:count]`` ascending (in `order` when `count` is small)."""
    if count >= _INSERTION_BELOW:
        return np.argsort(values[:count])
    for index in range(count):
        value = values[index]
        slot = index
        while slot > 0 and values[order[slot - 1]] > value:
            order[slot] = order[slot - 1]
            slot -= 1
        order[slot] = index
    return order


@numba.njit(cache=True, nogil=True)
def enumerate_two(
    combos_0: NDArray[np.int64],
    holes_0: NDArray[np.int64],
    weights_0: NDArray[np.float64],
    same_0: NDArray[np.float64],
    combos_1: NDArray[np.int64],
    holes_1: NDArray[np.int64],
    weights_1: NDArray[np.float64],
    cards: NDArray[np.int64],
    board: NDArray[np.int64],
    deck: NDArray[np.int64],
    n_runout: int,
    tables: EquityTables,
) -> tuple[float, float, float]:
    """Exact two-player equity: every runout, and on each every pair of hands at once.

    On one complete board, player 0's hand h beats the player-1 hands below it in strength
    that share no card with it. With player 1's hands sorted by strength, the weight below
    h is the running total minus the running totals of the hands holding h's first card
    and its second card (a hand holding both is h itself, never below it): one pass over
    the sorted hands of both players (with ties the same way, adding back h's own combo,
    which the two card totals both removed). Tiny ranges compare every pair instead.

    Args:
        combos_0: ``[n_0, 4]`` player 0's combos as keys and mask (see
            :func:`sample_showdowns`).
        holes_0: ``[n_0, 2]`` their two cards.
        weights_0: ``[n_0]`` their weights.
        same_0: ``[n_0]`` the weight of the same combo in player 1's range (0 if absent).
        combos_1: player 1's combos, as `combos_0`.
        holes_1: their two cards.
        weights_1: their weights.
        cards: ``[52, 3]`` the keys of each card.
        board: ``[3]`` the keys of the known board cards, summed.
        deck: the cards a runout is dealt from.
        n_runout: board cards to deal.
        tables: the evaluator's tables.

    Returns:
        Over every runout and every pair of hands without a shared card, weighted by the
        product of the two weights: the weight player 0 wins, the weight tied, and the total.
    """
    n_0 = combos_0.shape[0]
    n_1 = combos_1.shape[0]
    values_0 = np.empty(n_0, dtype=np.int64)
    kept_0 = np.empty(n_0, dtype=np.int64)
    values_1 = np.empty(n_1, dtype=np.int64)
    kept_1 = np.empty(n_1, dtype=np.int64)
    scratch_0 = np.empty(n_0, dtype=np.int64)
    scratch_1 = np.empty(n_1, dtype=np.int64)
    card_total = np.zeros(52)
    card_below = np.zeros(52)
    card_upto = np.zeros(52)
    chosen = np.zeros(5, dtype=np.int64)
    win = 0.0
    tie = 0.0
    total = 0.0
    _first_combination(chosen, n_runout)
    while True:
        rank_key = board[0]
        suit_bits = board[1]
        suit_counts = board[2]
        runout = 0
        for slot in range(n_runout):
            card = deck[chosen[slot]]
            runout |= 1 << int(card)
            rank_key += cards[card, 0]
            suit_bits |= cards[card, 1]
            suit_counts += cards[card, 2]
        m_0 = 0
        for row in range(n_0):
            if not combos_0[row, 3] & runout:
                values_0[m_0] = _value7(
                    rank_key + combos_0[row, 0],
                    suit_bits | combos_0[row, 1],
                    suit_counts + combos_0[row, 2],
                    tables,
                )
                kept_0[m_0] = row
                m_0 += 1
        m_1 = 0
        for row in range(n_1):
            if not combos_1[row, 3] & runout:
                values_1[m_1] = _value7(
                    rank_key + combos_1[row, 0],
                    suit_bits | combos_1[row, 1],
                    suit_counts + combos_1[row, 2],
                    tables,
                )
                kept_1[m_1] = row
                m_1 += 1
        if m_0 * m_1 <= _PAIRWISE_BELOW:
            for a in range(m_0):
                row_0 = kept_0[a]
                for b in range(m_1):
                    row_1 = kept_1[b]
                    if combos_0[row_0, 3] & combos_1[row_1, 3]:
                        continue
                    weight = weights_0[row_0] * weights_1[row_1]
                    total += weight
                    if values_0[a] > values_1[b]:
                        win += weight
                    elif values_0[a] == values_1[b]:
                        tie += weight
        else:
            order_0 = _order(values_0, m_0, scratch_0)
            order_1 = _order(values_1, m_1, scratch_1)
            card_total[:] = 0.0
            card_below[:] = 0.0
            card_upto[:] = 0.0
            all_1 = 0.0
            for b in range(m_1):
                row_1 = kept_1[b]
                weight = weights_1[row_1]
                all_1 += weight
                card_total[holes_1[row_1, 0]] += weight
                card_total[holes_1[row_1, 1]] += weight
            below = 0.0
            upto = 0.0
            next_below = 0
            next_upto = 0
            for a in range(m_0):
                index_0 = order_0[a]
                value = values_0[index_0]
                while next_below < m_1 and values_1[order_1[next_below]] < value:
                    row_1 = kept_1[order_1[next_below]]
                    weight = weights_1[row_1]
                    below += weight
                    card_below[holes_1[row_1, 0]] += weight
                    card_below[holes_1[row_1, 1]] += weight
                    next_below += 1
                while next_upto < m_1 and values_1[order_1[next_upto]] <= value:
                    row_1 = kept_1[order_1[next_upto]]
                    weight = weights_1[row_1]
                    upto += weight
                    card_upto[holes_1[row_1, 0]] += weight
                    card_upto[holes_1[row_1, 1]] += weight
                    next_upto += 1
                row_0 = kept_0[index_0]
                first = holes_0[row_0, 0]
                second = holes_0[row_0, 1]
                same = same_0[row_0]
                less = below - card_below[first] - card_below[second]
                less_or_equal = upto - card_upto[first] - card_upto[second] + same
                against = all_1 - card_total[first] - card_total[second] + same
                weight = weights_0[row_0]
                win += weight * less
                tie += weight * (less_or_equal - less)
                total += weight * against
        if not _next_combination(chosen, n_runout, deck.shape[0]):
            break
    return win, tie, total


@numba.njit(cache=True, nogil=True)
def enumerate_deals(
    combos: NDArray[np.int64],
    deals: NDArray[np.int64],
    deal_weights: NDArray[np.float64],
    cards: NDArray[np.int64],
    board: NDArray[np.int64],
    excluded: int,
    n_runout: int,
    tables: EquityTables,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], float, int]:
    """Exact equity of any number of players: every deal, every runout of each.

    Args:
        combos: ``[n_combos, 4]`` the players' combos as keys and mask (see
            :func:`sample_showdowns`).
        deals: ``[n_deals, n_players]`` the rows of `combos` each deal gives the players
            (no card shared).
        deal_weights: ``[n_deals]`` the product of the weights of each deal's combos.
        cards: ``[52, 3]`` the keys of each card.
        board: ``[3]`` the keys of the known board cards, summed.
        excluded: mask of the cards never dealt to the board (the board and dead cards).
        n_runout: board cards to deal.
        tables: the evaluator's tables.

    Returns:
        Weighted by the deal weights: wins ``[n_players]`` (showdowns won alone), ties
        (showdowns shared), shares (pot shares won in shared showdowns), the total weight,
        and the number of showdowns.
    """
    n_deals, n_players = deals.shape
    wins = np.zeros(n_players)
    ties = np.zeros(n_players)
    shares = np.zeros(n_players)
    values = np.zeros(n_players, dtype=np.int64)
    remaining = np.zeros(52, dtype=np.int64)
    chosen = np.zeros(5, dtype=np.int64)
    total = 0.0
    count = 0
    for deal in range(n_deals):
        used = excluded
        for player in range(n_players):
            used |= combos[deals[deal, player], 3]
        n_remaining = 0
        for card in range(52):
            if not (used >> card) & 1:
                remaining[n_remaining] = card
                n_remaining += 1
        weight = deal_weights[deal]
        _first_combination(chosen, n_runout)
        while True:
            rank_key = board[0]
            suit_bits = board[1]
            suit_counts = board[2]
            for slot in range(n_runout):
                card = remaining[chosen[slot]]
                rank_key += cards[card, 0]
                suit_bits |= cards[card, 1]
                suit_counts += cards[card, 2]
            best = 0
            n_best = 0
            for player in range(n_players):
                row = deals[deal, player]
                value = _value7(
                    rank_key + combos[row, 0],
                    suit_bits | combos[row, 1],
                    suit_counts + combos[row, 2],
                    tables,
                )
                values[player] = value
                if value > best:
                    best = value
                    n_best = 1
                elif value == best:
                    n_best += 1
            for player in range(n_players):
                if values[player] == best:
                    if n_best == 1:
                        wins[player] += weight
                    else:
                        ties[player] += weight
                        shares[player] += weight / n_best
            total += weight
            count += 1
            if not _next_combination(chosen, n_runout, n_remaining):
                break
    return wins, ties, shares, total, count
