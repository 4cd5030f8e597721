"""Hold'em all-in equity: hands or weighted ranges against each other, on any board.

Each player holds a hand (``"AsKs"``) or a range (``"QQ+, AKs, KQo:0.5"``, see
:mod:`pokerlab.cards.ranges`). A *deal* gives every player one combo of their range, no card
shared with another player, the board or the dead cards; a deal comes with probability
proportional to the product of its combos' weights (so ``KQo:0.5`` is dealt half as often as
a combo at weight 1, and card removal between the players is exact), and every runout of the
board is equally likely. A showdown is won alone, tied (the pot split between the best
hands) or lost; a player's equity is ``win + sum(1 / number of winners over ties)``.

How it is computed (:attr:`EquityResult.method` says which was used):

1. Two players, exactly, when the runouts times the two ranges' sizes (the hand
   evaluations needed) are at most ``exact_threshold``: on each runout both ranges are
   valued once and sorted, and one pass counts, for every hand of player 0, the weight of
   player 1's hands below and level with it that share no card with it (running totals
   per card remove the blocked ones). Every flop, turn or river spot of two ranges, and
   hand against hand before the flop, is exact this way, in well under a second.
2. Three or more players, exactly, when deals x runouts x players is at most
   ``exact_threshold``: every deal and every runout is enumerated.
3. Otherwise Monte Carlo, in a compiled loop: a combo per player drawn in proportion to its
   weight (Walker's alias method), the whole deal drawn again while two players share a
   card, the runout drawn uniformly from the cards left. The result carries a 95%
   confidence half-width per player (1.96 standard errors of the equity); the draws come
   from a SplitMix64 stream seeded from ``seed``, so the same seed gives the same result.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards.card import N_CARDS, Card, CardsLike, cards_str, to_cards
from pokerlab.cards.evaluator import _tables
from pokerlab.cards.ranges import HandRange, parse_range
from pokerlab.errors import CardError

PlayerHand = str | HandRange | Sequence[int]
"""What a player holds: a hand or range in notation, a parsed range, or two card ids."""

_BOARD_SIZES = (0, 3, 4, 5)
_Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
_CHUNK = 1 << 20  # Monte Carlo draws per kernel call, each call seeded afresh
_ALIAS_ONE = 1 << 32  # an alias threshold of 2**32 keeps the drawn combo always
_LOW_RANKS = 7  # ranks 0..6 in the low half of the evaluator's rank key

EXACT_THRESHOLD = 20_000_000
"""Default bound on the hand evaluations of an exact answer (under half a second here)."""


@dataclass(frozen=True)
class EquityResult:
    """Equity of each player, with its parts; probabilities in 0..1, one entry per player."""

    equity: tuple[float, ...]
    """Share of the pot won on average: ``win + tie shares``; sums to 1 over players."""
    win: tuple[float, ...]
    """Probability of winning the showdown alone."""
    tie: tuple[float, ...]
    """Probability of sharing the best hand with at least one other player."""
    lose: tuple[float, ...]
    """Probability that another player has a better hand."""
    samples: int
    """Showdowns counted: every (deal, runout) when exact, the draws when Monte Carlo."""
    exact: bool
    """True when every deal and runout was enumerated."""
    ci95: tuple[float, ...]
    """95% confidence half-width of each equity (0 when exact)."""

    @property
    def n_players(self) -> int:
        """Number of players."""
        return len(self.equity)

    @property
    def method(self) -> str:
        """How it was computed: ``"exact"`` (enumeration) or ``"monte carlo"``."""
        return "exact" if self.exact else "monte carlo"


def equity(
    players: Sequence[PlayerHand],
    board: CardsLike = "",
    dead: CardsLike = "",
    *,
    exact_threshold: int = EXACT_THRESHOLD,
    samples: int = 200_000,
    seed: np.random.Generator | int | None = None,
    rng: np.random.Generator | int | None = None,
) -> EquityResult:
    """Return the all-in equity of each player's hand or weighted range on `board`.

    Args:
        players: two or more hands or ranges (``"AsKs"``, ``"QQ+, AKs:0.5"``, ``[51, 47]``,
            a :class:`HandRange`).
        board: 0, 3, 4 or 5 known board cards.
        dead: cards known to be out of play (folded, burnt).
        exact_threshold: enumerate exactly when the hand evaluations it takes (module
            docstring) are at most this many; otherwise Monte Carlo. 0 always samples. At
            the default, the slowest exact spots (a hand against a few combos before the
            flop, two full ranges on the flop) take under half a second.
        samples: number of Monte Carlo draws (showdowns).
        seed: random generator or integer seed of the Monte Carlo draws (unused when exact).
        rng: the same as `seed` (the older name); give one of the two.

    Returns:
        An :class:`EquityResult`.

    Raises:
        CardError: for a bad hand, range, board or dead card, a board of 1, 2 or more than 5
            cards, cards shared between the board and dead cards, a range left empty by
            them, hands that share cards in every deal, or a bad `samples` or
            `exact_threshold`.

    Example:
        >>> result = equity(["AsKs", "QdQh"])
        >>> result.method, round(result.equity[0], 4)
        ('exact', 0.4621)
        >>> result = equity(["AsKs", "QQ+, AKo:0.5"], board="Qs7s2d")
        >>> result.method, round(result.equity[0], 4)
        ('exact', 0.4449)
    """
    if len(players) < 2:
        raise CardError(f"equity needs at least 2 players; got {len(players)}")
    board_cards = to_cards(board, what="the board")
    if len(board_cards) not in _BOARD_SIZES:
        raise CardError(
            f"board {cards_str(board_cards)!r} has {len(board_cards)} cards; "
            f"allowed: 0, 3, 4 or 5 cards"
        )
    dead_cards = to_cards(dead, what="the dead cards")
    shared = set(board_cards) & set(dead_cards)
    if shared:
        raise CardError(
            f"card(s) {cards_str(sorted(shared))} are both on the board and dead; "
            f"each card may be used once"
        )
    if samples < 1:
        raise CardError(f"samples must be at least 1; got {samples}")
    if exact_threshold < 0:
        raise CardError(f"exact_threshold must be 0 or more; got {exact_threshold}")
    if seed is not None and rng is not None:
        raise CardError("give the seed once: seed= or rng= (the same parameter), not both")
    known = set(board_cards) | set(dead_cards)
    ranges = _ranges_in_play(
        [_to_range(hand, player) for player, hand in enumerate(players)], known
    )
    n_left = N_CARDS - len(known) - 2 * len(players)
    n_runout = 5 - len(board_cards)
    if n_left < n_runout:
        raise CardError(
            f"{len(players)} players with this board and dead cards leave {n_left} cards "
            f"for a runout of {n_runout}; use fewer players or dead cards"
        )
    spot = _Spot(ranges, board_cards, known, n_runout)
    if len(ranges) == 2:
        compatible = (ranges[0].masks()[:, None] & ranges[1].masks()[None, :]) == 0
        n_pairs = int(np.count_nonzero(compatible))
        if not n_pairs:
            raise _no_deal_error(ranges)
        deck = spot.runout_deck()
        if math.comb(len(deck), n_runout) * (len(ranges[0]) + len(ranges[1])) <= exact_threshold:
            return _exact_two(spot, deck, n_pairs * math.comb(n_left, n_runout))
    elif math.prod(len(r) for r in ranges) * math.comb(n_left, n_runout) * len(ranges) <= (
        exact_threshold
    ):
        return _exact_many(spot)
    return _monte_carlo(spot, samples, np.random.default_rng(seed if seed is not None else rng))


def _to_range(hand: PlayerHand, player: int) -> HandRange:
    if isinstance(hand, HandRange):
        return hand
    if isinstance(hand, str):
        return parse_range(hand)
    cards = to_cards(hand, what=f"player {player}'s hand")
    if len(cards) != 2:
        raise CardError(
            f"player {player}'s hand {cards_str(cards)!r} has {len(cards)} cards; "
            f"allowed: 2 hole cards or a range such as 'QQ+, AKs'"
        )
    high, low = max(cards), min(cards)
    return HandRange(combos=((high, low),), text=cards_str((high, low)))


def _ranges_in_play(ranges: list[HandRange], known: set[Card]) -> list[HandRange]:
    """The ranges without the board and dead cards, nor the cards of the known hands.

    A player holding a single combo (a hand) removes its cards from the others' ranges,
    repeatedly, since a range may shrink to one combo in turn.
    """
    kept: list[HandRange] = []
    for player, hand_range in enumerate(ranges):
        try:
            kept.append(hand_range.without(known) if known else hand_range)
        except CardError:
            raise CardError(
                f"player {player}'s hand or range {str(hand_range)!r} has no combo left once "
                f"the board and dead cards ({cards_str(sorted(known), sep=' ')}) are removed"
            ) from None
    changed = True
    while changed:
        changed = False
        for player, hand_range in enumerate(kept):
            if len(hand_range) != 1:
                continue
            for other, other_range in enumerate(kept):
                if other == player:
                    continue
                try:
                    smaller = other_range.without(hand_range.combos[0])
                except CardError:
                    raise _no_deal_error(kept) from None
                if smaller is not other_range:
                    kept[other] = smaller
                    changed = True
    return kept


def _no_deal_error(ranges: Sequence[HandRange]) -> CardError:
    described = ", ".join(
        cards_str(hand_range.combos[0]) if len(hand_range) == 1 else f"{len(hand_range)} combos"
        for hand_range in ranges
    )
    return CardError(
        f"the players' hands share cards in every possible deal ({described}); "
        f"each card may be held by one player only"
    )


@functools.cache
def _equity_tables() -> tuple[
    NDArray[np.int16], NDArray[np.int32], NDArray[np.int32], NDArray[np.int16], NDArray[np.int64]
]:
    """The evaluator's tables in the form the equity kernels read (``_kernels``' comment).

    The rank counts of a hand, written in base 5, split into ranks 0..6 (a *low* key below
    5**7) and ranks 7..12 (a *high* key below 5**6). The 7-card rank multisets are laid
    out high key by high key, each block holding the low keys of the size that completes
    seven cards in key order: ``high_offsets[high] + low_ids[low]`` is the row in
    ``rank_values`` (49,205 rows, the same values as the evaluator's 7-card block, which
    it is built from).
    """
    tables = _tables()
    step = tables.colex_step.reshape(13, 8, 5)
    n_high = 13 - _LOW_RANKS
    low_digits = (np.arange(5**_LOW_RANKS)[:, None] // 5 ** np.arange(_LOW_RANKS)) % 5
    high_digits = (np.arange(5**n_high)[:, None] // 5 ** np.arange(n_high)) % 5
    low_sizes = low_digits.sum(axis=1)
    high_sizes = high_digits.sum(axis=1)
    per_size = np.bincount(low_sizes, minlength=5 * _LOW_RANKS + 1)
    starts = np.concatenate([[0], np.cumsum(per_size)])
    order = np.argsort(low_sizes, kind="stable")
    low_ids = np.empty(len(low_sizes), dtype=np.int64)
    low_ids[order] = np.arange(len(order)) - starts[low_sizes[order]]
    blocks = np.where(high_sizes <= 7, per_size[np.clip(7 - high_sizes, 0, None)], 0)
    high_offsets = np.concatenate([[0], np.cumsum(blocks)[:-1]])
    rank_values = np.zeros(int(blocks.sum()), dtype=np.int16)
    for size in range(8):
        highs = np.flatnonzero(high_sizes == size)
        lows = np.flatnonzero(low_sizes == 7 - size)
        counts = np.concatenate(
            [
                np.tile(low_digits[lows], (len(highs), 1)),
                np.repeat(high_digits[highs], len(lows), 0),
            ],
            axis=1,
        )
        index = np.zeros(len(counts), dtype=np.int64)
        position = np.zeros(len(counts), dtype=np.int64)
        for rank in range(13):  # the evaluator's colex index of each multiset
            index += step[rank, position, counts[:, rank]]
            position += counts[:, rank]
        rows = np.repeat(high_offsets[highs], len(lows)) + np.tile(low_ids[lows], len(highs))
        rank_values[rows] = tables.nonflush[tables.offsets[7] + index]
    flush_shifts = np.zeros(0x1001, dtype=np.int64)  # flush bit of suit s at 4s -> shift 16s
    for suit in range(4):
        flush_shifts[1 << (4 * suit)] = 16 * suit
    return (
        rank_values,
        low_ids.astype(np.int32),
        high_offsets.astype(np.int32),
        tables.flush,
        flush_shifts,
    )


@functools.cache
def _card_keys() -> NDArray[np.int64]:
    """``[52, 3]`` each card's rank key, suit bit and suit count (``_kernels``' comment)."""
    cards = np.arange(N_CARDS)
    ranks = cards >> 2
    suits = cards & 3
    powers = 5 ** np.where(ranks < _LOW_RANKS, ranks, ranks - _LOW_RANKS)
    rank_keys = np.where(ranks < _LOW_RANKS, powers, powers << 32)
    keys = np.stack([rank_keys, 1 << (16 * suits + ranks), 1 << (4 * suits)], axis=1)
    return keys.astype(np.int64)


def _combo_keys(combos: NDArray[np.int64]) -> NDArray[np.int64]:
    """``[n, 4]`` rank key, suit bits, suit counts and card mask of each combo ``[n, 2]``."""
    cards = _card_keys()
    first, second = cards[combos[:, 0]], cards[combos[:, 1]]
    one = np.int64(1)
    mask = (one << combos[:, 0]) | (one << combos[:, 1])
    return np.stack(
        [first[:, 0] + second[:, 0], first[:, 1] | second[:, 1], first[:, 2] + second[:, 2], mask],
        axis=1,
    )


class _Spot:
    """The ranges left in play, the board and the known cards, as the kernels read them."""

    def __init__(
        self, ranges: list[HandRange], board: tuple[Card, ...], known: set[Card], n_runout: int
    ) -> None:
        self.ranges = ranges
        self.known = known
        self.n_runout = n_runout
        self.excluded = sum(1 << card for card in known)
        keys = _card_keys()[list(board)]
        self.board = np.array(
            [keys[:, 0].sum(), np.bitwise_or.reduce(keys[:, 1]), keys[:, 2].sum()]
            if len(board)
            else [0, 0, 0],
            dtype=np.int64,
        )

    def runout_deck(self) -> NDArray[np.int64]:
        """Cards a runout can hold: not known, nor in every combo of one player."""
        blocked = self.excluded
        for hand_range in self.ranges:
            blocked |= int(np.bitwise_and.reduce(hand_range.masks()))
        return np.array([c for c in range(N_CARDS) if not (blocked >> c) & 1], dtype=np.int64)


def _result(
    win: NDArray[np.float64],
    tie: NDArray[np.float64],
    equities: NDArray[np.float64],
    *,
    samples: int,
    ci95: NDArray[np.float64] | None = None,
) -> EquityResult:
    return EquityResult(
        equity=tuple(equities.tolist()),
        win=tuple(win.tolist()),
        tie=tuple(tie.tolist()),
        lose=tuple((1.0 - win - tie).clip(0.0, 1.0).tolist()),
        samples=samples,
        exact=ci95 is None,
        ci95=tuple(0.0 for _ in win) if ci95 is None else tuple(ci95.tolist()),
    )


def _exact_two(spot: _Spot, deck: NDArray[np.int64], n_showdowns: int) -> EquityResult:
    from pokerlab.cards import _kernels  # numba is imported on first use only

    first, second = spot.ranges
    same = np.array([second.weight_of(combo) for combo in first.combos], dtype=np.float64)
    win, tie, total = _kernels.enumerate_two(
        _combo_keys(first.as_array()),
        first.as_array(),
        first.weight_array(),
        same,
        _combo_keys(second.as_array()),
        second.as_array(),
        second.weight_array(),
        _card_keys(),
        spot.board,
        deck,
        spot.n_runout,
        _equity_tables(),
    )
    win_0, tie_0 = win / total, tie / total
    lose_0 = max(0.0, 1.0 - win_0 - tie_0)
    return _result(
        np.array([win_0, lose_0]),
        np.array([tie_0, tie_0]),
        np.array([win_0 + tie_0 / 2, lose_0 + tie_0 / 2]),
        samples=n_showdowns,
    )


def _deals(ranges: list[HandRange]) -> NDArray[np.int64]:
    """Every deal without a shared card, ``[n_deals, n_players]`` rows of the stacked ranges."""
    indices = np.arange(len(ranges[0]))[:, None]
    used = ranges[0].masks()
    start = len(ranges[0])
    for hand_range in ranges[1:]:
        masks = hand_range.masks()
        rows, columns = np.nonzero((used[:, None] & masks[None, :]) == 0)
        indices = np.concatenate([indices[rows], start + columns[:, None]], axis=1)
        used = used[rows] | masks[columns]
        start += len(hand_range)
    return indices


def _exact_many(spot: _Spot) -> EquityResult:
    from pokerlab.cards import _kernels  # numba is imported on first use only

    deals = _deals(spot.ranges)
    if not len(deals):
        raise _no_deal_error(spot.ranges)
    stacked = np.concatenate([hand_range.as_array() for hand_range in spot.ranges])
    weights = np.concatenate([hand_range.weight_array() for hand_range in spot.ranges])
    wins, ties, shares, total, count = _kernels.enumerate_deals(
        _combo_keys(stacked),
        np.ascontiguousarray(deals),
        weights[deals].prod(axis=1),
        _card_keys(),
        spot.board,
        spot.excluded,
        spot.n_runout,
        _equity_tables(),
    )
    return _result(wins / total, ties / total, (wins + shares) / total, samples=int(count))


def _alias_tables(weights: NDArray[np.float64], start: int) -> tuple[list[int], list[int]]:
    """Walker's alias tables (Vose's construction) for drawing in proportion to `weights`.

    Draw a slot uniformly, keep it when 32 random bits fall below its threshold, else take
    its alias (an index offset by `start`, the range's first row in the stacked combos).
    """
    n = len(weights)
    scaled = (weights * (n / weights.sum())).tolist()
    thresholds = [_ALIAS_ONE] * n
    aliases = list(range(start, start + n))
    small = [i for i, p in enumerate(scaled) if p < 1.0]
    large = [i for i, p in enumerate(scaled) if p >= 1.0]
    while small and large:
        low, high = small.pop(), large[-1]
        thresholds[low] = int(scaled[low] * _ALIAS_ONE)
        aliases[low] = start + high
        scaled[high] -= 1.0 - scaled[low]
        if scaled[high] < 1.0:
            small.append(large.pop())
    return thresholds, aliases  # what is left has probability 1 up to rounding: kept


def _marginal_weights(first: HandRange, second: HandRange) -> NDArray[np.float64]:
    """How often each of `first`'s combos is dealt against `second`, up to a constant.

    Its weight times the weight of `second`'s combos sharing no card with it: the total,
    minus the combos holding its first card and those holding its second, plus its own
    combo (removed twice).
    """
    combos, weights = second.as_array(), second.weight_array()
    by_card = np.bincount(combos[:, 0], weights, 52) + np.bincount(combos[:, 1], weights, 52)
    own = np.array([second.weight_of(combo) for combo in first.combos])
    mine = first.as_array()
    free = weights.sum() - by_card[mine[:, 0]] - by_card[mine[:, 1]] + own
    marginal: NDArray[np.float64] = first.weight_array() * np.maximum(free, 0.0)
    return marginal


def _monte_carlo(spot: _Spot, samples: int, generator: np.random.Generator) -> EquityResult:
    from pokerlab.cards import _kernels  # numba is imported on first use only

    ranges = spot.ranges
    n_players = len(ranges)
    stacked = np.concatenate([hand_range.as_array() for hand_range in ranges])
    offsets = np.cumsum([0] + [len(hand_range) for hand_range in ranges]).astype(np.int64)
    draw_weights = [hand_range.weight_array() for hand_range in ranges]
    if n_players == 2:
        draw_weights[0] = _marginal_weights(ranges[0], ranges[1])
    thresholds: list[int] = []
    aliases: list[int] = []
    for player, weights in enumerate(draw_weights):
        player_thresholds, player_aliases = _alias_tables(weights, int(offsets[player]))
        thresholds += player_thresholds
        aliases += player_aliases
    arguments = (
        _combo_keys(stacked),
        offsets,
        np.array(thresholds, dtype=np.int64),
        np.array(aliases, dtype=np.int64),
        _card_keys(),
        spot.board,
        spot.n_runout,
        spot.excluded,
    )
    tables = _equity_tables()
    wins = np.zeros(n_players)
    ties = np.zeros(n_players)
    share_sum = np.zeros(n_players)
    square_sum = np.zeros(n_players)
    done = 0
    while done < samples:
        count = min(_CHUNK, samples - done)
        seed = generator.integers(0, 2**64, dtype=np.uint64)
        if n_players == 2:
            wins_0, wins_1, found = _kernels.sample_showdowns_two(*arguments, count, seed, tables)
            tied = count - wins_0 - wins_1
            chunk_wins = np.array([wins_0, wins_1], dtype=np.float64)
            chunk_ties = np.array([tied, tied], dtype=np.float64)
            chunk_shares = chunk_wins + chunk_ties / 2
            chunk_squares = chunk_wins + chunk_ties / 4
        else:
            chunk_wins, chunk_ties, chunk_shares, chunk_squares, found = _kernels.sample_showdowns(
                *arguments, count, seed, tables
            )
        if not found:
            raise _no_deal_error(ranges)
        wins += chunk_wins
        ties += chunk_ties
        share_sum += chunk_shares
        square_sum += chunk_squares
        done += count
    mean = share_sum / samples
    variance = np.maximum(square_sum / samples - mean * mean, 0.0)
    half_width = _Z95 * np.sqrt(variance / max(samples - 1, 1))
    return _result(wins / samples, ties / samples, mean, samples=samples, ci95=half_width)


__all__ = ["EXACT_THRESHOLD", "EquityResult", "PlayerHand", "equity"]
