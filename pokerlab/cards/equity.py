"""Hold'em all-in equity: hands or ranges against each other, on any board.

Each player holds a hand (``"AsKs"``) or a range (``"QQ+, AKs"``, see
:mod:`pokerlab.cards.ranges`). A *deal* gives every player one combo of their range, no card
shared with another player, the board or the dead cards; every deal is equally likely and so
is every runout of the board. A showdown is won alone, tied (the pot split between the best
hands) or lost; a player's equity is ``win + sum(1 / number of winners over ties)``.

How it is computed:

1. If the number of showdowns to enumerate (deals x runouts, bounded above before counting)
   is at most ``exact_threshold``, every deal and every runout is enumerated in a compiled
   loop (tens of millions of showdowns per second): the result is exact.
2. Otherwise Monte Carlo: deals are drawn uniformly (one combo per player, redrawn whole
   while two players share a card), runouts uniformly from the cards left, and the hands
   valued by :func:`pokerlab.cards.evaluator.evaluate_batch`. The result carries a 95%
   confidence half-width per player (1.96 standard errors of the equity).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards.card import N_CARDS, CardsLike, cards_str, to_cards
from pokerlab.cards.evaluator import _tables, evaluate_batch
from pokerlab.cards.ranges import HandRange, parse_range
from pokerlab.errors import CardError

PlayerHand = str | HandRange | Sequence[int]
"""What a player holds: a hand or range in notation, a parsed range, or two card ids."""

_BOARD_SIZES = (0, 3, 4, 5)
_Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
_CHUNK = 65_536
_MAX_REDRAWS = 1_000


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
    """Showdowns counted: all of them when exact, the draws when Monte Carlo."""
    exact: bool
    """True when every deal and runout was enumerated."""
    ci95: tuple[float, ...]
    """95% confidence half-width of each equity (0 when exact)."""

    @property
    def n_players(self) -> int:
        """Number of players."""
        return len(self.equity)


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
    return HandRange(text=cards_str((high, low)), combos=((high, low),))


def _masks(combos: NDArray[np.int64]) -> NDArray[np.int64]:
    one = np.int64(1)
    return (one << combos[:, 0]) | (one << combos[:, 1])


def _deals(ranges: list[NDArray[np.int64]]) -> NDArray[np.int64]:
    """Every deal (one combo per player, no shared card), ``[n_deals, n_players, 2]``."""
    indices = np.arange(len(ranges[0]))[:, None]
    used = _masks(ranges[0])
    for combos in ranges[1:]:
        masks = _masks(combos)
        compatible = (used[:, None] & masks[None, :]) == 0
        rows, columns = np.nonzero(compatible)
        indices = np.concatenate([indices[rows], columns[:, None]], axis=1)
        used = used[rows] | masks[columns]
    return np.stack([ranges[player][indices[:, player]] for player in range(len(ranges))], axis=1)


def equity(
    players: Sequence[PlayerHand],
    board: CardsLike = "",
    dead: CardsLike = "",
    *,
    exact_threshold: int = 10_000_000,
    samples: int = 200_000,
    rng: np.random.Generator | int | None = None,
) -> EquityResult:
    """Return the all-in equity of each player's hand or range on `board`.

    Args:
        players: two or more hands or ranges (``"AsKs"``, ``"QQ+, AKs"``, ``[51, 47]``).
        board: 0, 3, 4 or 5 known board cards.
        dead: cards known to be out of play (folded, burnt).
        exact_threshold: enumerate exactly when deals x runouts is at most this many
            showdowns (about 30 million per second); otherwise Monte Carlo.
        samples: number of Monte Carlo draws.
        rng: random generator or seed for Monte Carlo (unused when exact).

    Returns:
        An :class:`EquityResult`.

    Raises:
        CardError: for a bad hand, range, board or dead card, a board of 1, 2 or more than 5
            cards, cards shared between the board, dead cards and a specific hand, a range
            left empty by card removal, or no deal at all without shared cards.

    Example:
        >>> result = equity(["AsKs", "QdQh"])
        >>> result.exact, round(result.equity[0], 4)
        (True, 0.4621)
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
    known = set(board_cards) | set(dead_cards)
    ranges: list[NDArray[np.int64]] = []
    for player, hand in enumerate(players):
        full = _to_range(hand, player)
        kept = full.without(known)
        if not len(kept):
            raise CardError(
                f"player {player}'s hand or range {full.text!r} has no combo left once the "
                f"board and dead cards ({cards_str(sorted(known))}) are removed"
            )
        ranges.append(kept.as_array())
    n_left = N_CARDS - len(known) - 2 * len(players)
    n_runout = 5 - len(board_cards)
    if n_left < n_runout:
        raise CardError(
            f"{len(players)} players with this board and dead cards leave {n_left} cards "
            f"for a runout of {n_runout}; use fewer players or dead cards"
        )
    n_deals_bound = math.prod(len(combos) for combos in ranges)
    showdowns_bound = n_deals_bound * math.comb(n_left, n_runout)
    board_array = np.array(board_cards, dtype=np.int64)
    excluded = 0
    for card in known:
        excluded |= 1 << card
    if showdowns_bound <= exact_threshold:
        return _exact(ranges, board_array, excluded)
    return _monte_carlo(ranges, board_array, excluded, samples, np.random.default_rng(rng))


def _no_deal_error(ranges: list[NDArray[np.int64]]) -> CardError:
    described = ", ".join(
        cards_str(int(card) for card in combos[0]) if len(combos) == 1 else f"{len(combos)} combos"
        for combos in ranges
    )
    return CardError(
        f"the players' hands share cards in every possible deal ({described}); "
        f"each card may be held by one player only"
    )


def _exact(
    ranges: list[NDArray[np.int64]], board: NDArray[np.int64], excluded: int
) -> EquityResult:
    from pokerlab.cards import _kernels  # numba is imported on first use only

    deals = _deals(ranges)
    if not len(deals):
        raise _no_deal_error(ranges)
    tables = _tables()
    wins, ties, shares, total = _kernels.enumerate_showdowns(
        np.ascontiguousarray(deals),
        board,
        excluded,
        tables.nonflush,
        tables.flush,
        tables.colex_step,
        int(tables.offsets[7]),
    )
    win = wins / total
    tie = ties / total
    return EquityResult(
        equity=tuple(((wins + shares) / total).tolist()),
        win=tuple(win.tolist()),
        tie=tuple(tie.tolist()),
        lose=tuple((1.0 - win - tie).clip(0.0, 1.0).tolist()),
        samples=int(total),
        exact=True,
        ci95=tuple(0.0 for _ in ranges),
    )


def _draw_deals(
    ranges: list[NDArray[np.int64]], count: int, rng: np.random.Generator
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Draw `count` deals uniformly; return hole cards ``[count, n_players, 2]`` and masks."""
    n_players = len(ranges)
    masks = [_masks(combos) for combos in ranges]
    holes = np.zeros((count, n_players, 2), dtype=np.int64)
    used = np.zeros(count, dtype=np.int64)
    pending = np.arange(count)
    for _ in range(_MAX_REDRAWS):
        picked = [rng.integers(0, len(combos), size=len(pending)) for combos in ranges]
        combined = np.zeros(len(pending), dtype=np.int64)
        clash = np.zeros(len(pending), dtype=bool)
        for player in range(n_players):
            player_masks = masks[player][picked[player]]
            clash |= (combined & player_masks) != 0
            combined |= player_masks
        accepted = ~clash
        rows = pending[accepted]
        for player in range(n_players):
            holes[rows, player] = ranges[player][picked[player][accepted]]
        used[rows] = combined[accepted]
        pending = pending[clash]
        if not len(pending):
            return holes, used
    raise _no_deal_error(ranges)


def _monte_carlo(
    ranges: list[NDArray[np.int64]],
    board: NDArray[np.int64],
    excluded: int,
    samples: int,
    rng: np.random.Generator,
) -> EquityResult:
    n_players = len(ranges)
    n_runout = 5 - len(board)
    wins = np.zeros(n_players)
    ties = np.zeros(n_players)
    share_sum = np.zeros(n_players)
    share_square_sum = np.zeros(n_players)
    card_bits = np.int64(1) << np.arange(N_CARDS, dtype=np.int64)
    done = 0
    while done < samples:
        count = min(_CHUNK, samples - done)
        holes, used = _draw_deals(ranges, count, rng)
        hands = np.empty((count, n_players, 7), dtype=np.int64)
        hands[:, :, :2] = holes
        hands[:, :, 2 : 2 + len(board)] = board
        if n_runout:
            taken = ((used | np.int64(excluded))[:, None] & card_bits[None, :]) != 0
            keys = rng.random((count, N_CARDS))
            keys[taken] = 2.0
            runout = np.argpartition(keys, n_runout - 1, axis=1)[:, :n_runout]
            hands[:, :, 2 + len(board) :] = runout[:, None, :]
        values = evaluate_batch(hands.reshape(-1, 7)).reshape(count, n_players)
        is_best = values == values.max(axis=1, keepdims=True)
        n_best = is_best.sum(axis=1, keepdims=True)
        share = is_best / n_best
        wins += (is_best & (n_best == 1)).sum(axis=0)
        ties += (is_best & (n_best > 1)).sum(axis=0)
        share_sum += share.sum(axis=0)
        share_square_sum += (share * share).sum(axis=0)
        done += count
    mean = share_sum / samples
    variance = np.maximum(share_square_sum / samples - mean * mean, 0.0)
    half_width = _Z95 * np.sqrt(variance / max(samples - 1, 1))
    win = wins / samples
    tie = ties / samples
    return EquityResult(
        equity=tuple(mean.tolist()),
        win=tuple(win.tolist()),
        tie=tuple(tie.tolist()),
        lose=tuple((1.0 - win - tie).clip(0.0, 1.0).tolist()),
        samples=samples,
        exact=False,
        ci95=tuple(half_width.tolist()),
    )


__all__ = ["EquityResult", "PlayerHand", "equity"]
