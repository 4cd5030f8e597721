"""Local best response (Lisý and Bowling 2017): a lower bound on a Hold'em policy's exploitability.

LBR plays heads-up Hold'em (limit or no-limit) against an agent whose policy it can query.
It keeps the opponent's *range*, a weight for each of the 1,326 hole-card pairs: cards seen
(its own, the board) zero the pairs holding them, and after each opponent action ``a`` every
pair's weight is multiplied by the policy's probability of ``a`` with that pair (Bayes). The
policy is asked once per live pair per opponent action, with the observation's private cards
swapped, so the range is exact for the policy; a policy with
``action_probabilities_batch(observations) -> [{action: p}, ...]`` is asked once per action for
all the pairs, and one with ``pair_probabilities(observation, pairs) -> [pairs, legal]`` (a
blueprint) answers for the pairs' card ids as one array, with no observation built per pair.

At its own decision, with ``WP`` its equity against the range (exact on the river, ``rollouts``
sampled board completions before), ``pot`` the chips in, ``asked`` the chips to call, it
values (chips from now on):

- fold: 0 (only when facing a bet);
- check/call: ``WP * (pot + asked) - asked``;
- a raise that puts in ``c`` more chips: ``fp * pot + (1 - fp) * (WP * (pot + 2c - asked) - c)``,
  ``fp`` the range's probability that the policy folds right after the raise.

and takes the best (ties: the first, fold < call < raises). Raises: limit the one raise;
no-limit a small menu of raise-to amounts (``sizes``, default pot and all-in, in the grammar
of :mod:`pokerlab.games.bet_sizes`). Its value is a lower bound on the best response's.

:func:`run_lbr` plays ``hands`` deals, each twice with the seats swapped and the same cards
(duplicate: the card luck cancels in the pair), and reports mbb/hand (thousandths of a big
blind) with a 95% interval over the deal pairs.

References:
    V. Lisý, M. Bowling, "Equilibrium approximation quality of current no-limit poker bots",
    AAAI Workshops 2017 (arXiv:1612.07547).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.cards import cards_str
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.errors import SpecError
from pokerlab.games.bet_sizes import BetMenu, parse_bet_menu
from pokerlab.games.betting_sequences import menu_raises
from pokerlab.games.holdem import CALL, FOLD, RAISE, STREET_NAMES, HoldemGame, HoldemState
from pokerlab.games.observation import Observation

PAIRS: NDArray[np.int64] = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)
"""The 1,326 hole-card pairs ``(low card, high card)``, the range's index."""
_HAS_CARD = np.zeros((52, len(PAIRS)), dtype=bool)
_HAS_CARD[PAIRS[:, 0], np.arange(len(PAIRS))] = True
_HAS_CARD[PAIRS[:, 1], np.arange(len(PAIRS))] = True
_PAIR_TEXT = tuple(cards_str((int(b), int(a))) for a, b in PAIRS)  # high card first, as dealt

DEFAULT_SIZES = "100%,a"
"""LBR's no-limit raises: pot and all-in (the paper's smallest menu)."""


class PolicyLike:
    """What LBR needs of the opponent: ``action_probabilities(observation)`` (a Policy)."""

    def action_probabilities(self, observation: Observation) -> Mapping[Action, float]:
        """``{action: probability}`` over the legal actions."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class LBRResult:
    """LBR's winnings against one policy.

    Attributes:
        hands: hands played (twice the deals: each deal from both seats).
        mbb_per_hand: LBR's mean winnings, thousandths of a big blind per hand.
        ci95: the half-width of the 95% interval of ``mbb_per_hand`` (over deal pairs).
        seat_mbb: LBR's mean as player 0 and as player 1.
    """

    hands: int
    mbb_per_hand: float
    ci95: float
    seat_mbb: tuple[float, float]


def _opponent_probabilities(
    policy: PolicyLike, state: HoldemState, weights: NDArray[np.float64]
) -> tuple[tuple[Action, ...], NDArray[np.float64]]:
    """The policy's probabilities of each legal action for every live pair: ``[1326, n]``."""
    seat = state.to_act
    base = state.observation(seat)
    own = base.private_cards
    legal = base.legal_actions
    column = {a: i for i, a in enumerate(legal)}
    rest = base.infoset_key[len(own):]
    if not base.infoset_key.startswith(own):
        raise SpecError(f"cannot swap the cards of the infoset key {base.infoset_key!r}")
    table = np.zeros((len(PAIRS), len(legal)))
    live = np.flatnonzero(weights > 0)
    pair_probabilities = getattr(policy, "pair_probabilities", None)
    if pair_probabilities is not None:
        table[live] = pair_probabilities(base, PAIRS[live])
        return legal, table
    observations = [
        Observation(
            base.game, seat, _PAIR_TEXT[i] + rest, legal, base.action_names,
            base.public_history, _PAIR_TEXT[i], base.board, base.committed, base.stacks,
        )
        for i in live
    ]  # fmt: skip
    batch = getattr(policy, "action_probabilities_batch", None)
    answers = batch(observations) if batch is not None else map(
        policy.action_probabilities, observations
    )
    for index, answer in zip(live, answers, strict=True):
        for action, p in answer.items():
            if p:  # no-limit: most of the ~200 legal raises get 0
                table[index, column[action]] = p
    return legal, table


def _hole(state: HoldemState, seat: int) -> tuple[int, int]:
    cards = state.hole_cards(seat)
    return int(cards[0]), int(cards[1])


def _pair_index(cards: tuple[int, int]) -> int:
    low, high = sorted(cards)
    return int(np.flatnonzero((PAIRS[:, 0] == low) & (PAIRS[:, 1] == high))[0])


def win_probability(
    hole: tuple[int, int],
    board: tuple[int, ...],
    weights: NDArray[np.float64],
    rng: np.random.Generator,
    rollouts: int,
) -> float:
    """Equity of ``hole`` against the range ``weights``: exact with 5 board cards, sampled before.

    Ties count half. Pairs that collide with a sampled runout are left out of that runout.
    """
    known = np.array([*hole, *board], dtype=np.int64)
    missing = 5 - len(board)
    deck = np.setdiff1d(np.arange(52), known)
    live = weights * ~_HAS_CARD[known].any(axis=0)
    if live.sum() <= 0:
        return 0.5
    index = np.flatnonzero(live > 0)
    boards = np.array(board, dtype=np.int64).reshape(1, len(board))
    if missing:  # each runout: ``missing`` distinct cards of the deck, uniformly
        drawn = deck[np.argsort(rng.random((rollouts, len(deck))), axis=1)[:, :missing]]
        boards = np.concatenate([np.repeat(boards, rollouts, axis=0), drawn], axis=1)
    # Every runout at once: LBR's rank on each, then the rank of each live pair that
    # holds no card of that runout (one evaluator call for all of them).
    mine = evaluate_batch(
        np.concatenate([np.broadcast_to(hole, (len(boards), 2)), boards], axis=1)
    )
    clear = ~_HAS_CARD[boards[:, len(board):]][:, :, index].any(axis=1)  # [runouts, pairs]
    run, pair = np.nonzero(clear)
    theirs = evaluate_batch(np.concatenate([PAIRS[index[pair]], boards[run]], axis=1))
    w = live[index[pair]]
    total = float(w @ ((mine[run] > theirs) + 0.5 * (mine[run] == theirs)))
    mass = float(w.sum())
    return total / mass if mass > 0 else 0.5


class LocalBestResponse:
    """LBR against one policy on one heads-up Hold'em game.

    Args:
        game: a heads-up Hold'em game (limit or no-limit).
        policy: the opponent's policy (``action_probabilities`` of observations).
        sizes: no-limit raise sizes, a bet menu (default pot and all-in).
        rollouts: sampled runouts per equity before the river.
    """

    def __init__(
        self,
        game: HoldemGame,
        policy: PolicyLike,
        *,
        sizes: str | BetMenu = DEFAULT_SIZES,
        rollouts: int = 48,
    ) -> None:
        if not isinstance(game, HoldemGame) or game.n_players != 2:
            raise SpecError(f"LBR plays heads-up Hold'em; got {getattr(game, 'spec', game)}")
        if rollouts < 1:
            raise SpecError(f"rollouts must be >= 1; got {rollouts}")
        self.game = game
        self.policy = policy
        names = STREET_NAMES[: game.rules.n_streets]
        self.menu = parse_bet_menu(sizes, names=names) if isinstance(sizes, str) else sizes
        self.rollouts = rollouts

    def _raises(self, state: HoldemState) -> tuple[Action, ...]:
        if state.raise_range() is None:
            return ()
        if not self.game.no_limit:
            return (RAISE,)
        return tuple(RAISE + x for x in menu_raises(self.menu, state))

    def decide(
        self, state: HoldemState, weights: NDArray[np.float64], rng: np.random.Generator
    ) -> Action:
        """LBR's action at ``state`` (its turn) against the range ``weights``."""
        seat = state.to_act
        wp = win_probability(_hole(state, seat), state.board, weights, rng, self.rollouts)
        pot = float(state.pot)
        asked = float(state.to_call(seat))
        best_action: Action = CALL
        best = wp * (pot + asked) - asked
        if asked > 0 and best < 0:
            best_action, best = FOLD, 0.0
        for action in self._raises(state):
            child = state.child(action)
            c = float(child.committed[seat] - state.committed[seat])
            fold = 0.0
            if child.to_act == 1 - seat and FOLD in child.legal_actions()[:1]:
                legal, table = _opponent_probabilities(self.policy, child, weights)
                live = weights / weights.sum()
                fold = float(live @ table[:, legal.index(FOLD)])
            value = fold * pot + (1 - fold) * (wp * (pot + 2 * c - asked) - c)
            if value > best:
                best_action, best = action, value
        return best_action

    def play(self, deal: list[int], lbr_seat: int, rng: np.random.Generator) -> float:
        """Play one hand with the cards ``deal`` (in dealing order); LBR's winnings, chips."""
        state = self.game.initial_state()
        weights = np.ones(len(PAIRS))
        cards = iter(deal)
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                card = next(cards)
                state = state.child(card)
                if len(state.hole) == 4 and not state.board:
                    mine = _hole(state, lbr_seat)
                    weights *= ~_HAS_CARD[list(mine)].any(axis=0)
                elif state.board and card == state.board[-1]:
                    weights *= ~_HAS_CARD[card]
                continue
            if state.to_act == lbr_seat:
                state = state.child(self.decide(state, weights, rng))
                continue
            legal, table = _opponent_probabilities(self.policy, state, weights)
            row = table[_pair_index(_hole(state, state.to_act))]
            action = legal[int(rng.choice(len(legal), p=row / row.sum()))]
            weights = weights * table[:, legal.index(action)]
            if weights.sum() <= 0:  # the policy's own hand always supports its action
                weights = table[:, legal.index(action)].copy()
            state = state.child(action)
        return float(state.returns()[lbr_seat])


def check_hands(hands: int) -> None:
    """Refuse a hand count LBR cannot play: it must be even (each deal twice) and >= 2.

    Raises:
        SpecError: naming the count.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 2 or hands % 2:
        raise SpecError(f"hands must be an even number >= 2 (each deal twice); got {hands!r}")


def run_lbr(
    game: HoldemGame,
    policy: PolicyLike,
    hands: int,
    *,
    seed: int = 0,
    sizes: str | BetMenu = DEFAULT_SIZES,
    rollouts: int = 48,
    progress: Callable[[int], None] | None = None,
) -> LBRResult:
    """LBR's winnings in mbb/hand over ``hands`` hands (duplicate deals, seats alternating).

    Args:
        game: heads-up Hold'em.
        policy: the opponent's policy.
        hands: hands to play, even (each deal from both seats); at least 2.
        seed: the cards and LBR's rollouts.
        sizes: no-limit raise sizes.
        rollouts: sampled runouts per equity before the river.
        progress: called with the number of hands finished after each hand.

    Raises:
        SpecError: bad arguments (an odd or too small hand count, not heads-up Hold'em).
    """
    check_hands(hands)
    lbr = LocalBestResponse(game, policy, sizes=sizes, rollouts=rollouts)
    rng = np.random.default_rng(seed)
    pairs = np.zeros(hands // 2)
    seats = np.zeros((2, hands // 2))
    big = game.big_blind
    for deal_index in range(hands // 2):
        deal = [int(c) for c in rng.permutation(52)[:9]]
        for seat in (0, 1):
            won = lbr.play(deal, seat, rng)
            seats[seat, deal_index] = won
            if progress is not None:
                progress(2 * deal_index + seat + 1)
        pairs[deal_index] = seats[:, deal_index].mean()
    scale = 1000.0 / big
    spread = float(pairs.std(ddof=1)) if len(pairs) > 1 else math.inf
    return LBRResult(
        hands=hands,
        mbb_per_hand=float(pairs.mean()) * scale,
        ci95=1.96 * spread / math.sqrt(len(pairs)) * scale,
        seat_mbb=(float(seats[0].mean()) * scale, float(seats[1].mean()) * scale),
    )


__all__ = [
    "DEFAULT_SIZES",
    "PAIRS",
    "LBRResult",
    "LocalBestResponse",
    "check_hands",
    "run_lbr",
    "win_probability",
]
