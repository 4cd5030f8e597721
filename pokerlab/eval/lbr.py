"""Local best response (Lisý and Bowling 2017): a lower bound on a Hold'em policy's exploitability.

LBR is an agent: it sits at the dealer (:func:`pokerlab.play.dealer.deal_hand`, the one
hand loop) against an agent that samples the opponent's policy, and the dealer deals and
keeps the score. At each decision LBR rebuilds the hand from its observation and keeps the
opponent's *range* by Bayes from the policy's action probabilities
(:mod:`pokerlab.eval.lbr_range`). With ``WP`` its equity against the range (exact on the
river and wherever every runout fits in ``rollouts``, sampled before), ``pot`` the chips in
and ``asked`` the chips to call, it values (chips from now on):

- fold: 0 (only when facing a bet);
- check/call: ``WP * (pot + asked) - asked``;
- a raise that puts in ``c`` more chips: ``fp * pot + (1 - fp) * (WPc * (pot + 2c - asked) - c)``,
  ``fp`` the range's probability that the policy folds right after the raise,

and takes the best (ties: the first, fold < call < raises). Two variants differ in ``WPc``:

- ``"paper"``: ``WPc = WP``, the equity against the *whole* range, as in the paper;
- ``"refined"`` (a departure from the paper): ``WPc`` is the equity against the part of
  the range that does *not* fold to this raise, each pair weighted by its probability of
  continuing. Against a policy that folds most hands to a big bet and calls only with the
  hands that beat LBR, the paper's LBR overrates the bet; the refined one does not.

Which raises LBR tries is a function of the state (``raises``): limit games default to the
one raise; no-limit needs a menu, per street (:mod:`pokerlab.abstraction.lbr_actions` reads
``"FC/FCPA/FCPA/FCPA"`` or a bet menu). Either variant's value is a lower bound on the best
response's: LBR is one strategy.

:func:`run_lbr` plays ``hands`` deals, each twice with the seats swapped and the same cards
(duplicate: the card luck cancels in the pair), and reports mbb/hand (thousandths of a big
blind) with a 95% interval over the deal pairs.

References:
    V. Lisý, M. Bowling, "Equilibrium approximation quality of current no-limit poker bots",
    AAAI Workshops 2017 (arXiv:1612.07547).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import CHANCE, Action
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval.lbr_range import (
    PAIRS,
    PolicyLike,
    deck_range,
    equity_of,
    opponent_probabilities,
    pair_scores,
    without_cards,
)
from pokerlab.eval.matches import agent_seed
from pokerlab.games.holdem import CALL, FOLD, RAISE, HoldemGame, HoldemState
from pokerlab.games.holdem_public import replay_observation
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import DealStream, InProcessConnection, deal_hand, reseed
from pokerlab.strategy.policy import sample_action

VARIANTS = ("paper", "refined")
"""LBR's ways to value a raise: against the whole range, or against the hands that continue."""

RaiseMenu = Callable[[HoldemState], Sequence[Action]]
"""The raises LBR tries at a state (its turn): legal raise action ids."""


def limit_raise(state: HoldemState) -> tuple[Action, ...]:
    """Limit games: the one raise, where legal."""
    return (RAISE,) if state.raise_range() is not None else ()


@dataclass(frozen=True, slots=True)
class LBRResult:
    """LBR's winnings against one policy.

    Attributes:
        hands: hands played (twice the deals: each deal from both seats).
        mbb_per_hand: LBR's mean winnings, thousandths of a big blind per hand.
        ci95: the half-width of the 95% interval of ``mbb_per_hand`` (over deal pairs).
        seat_mbb: LBR's mean as player 0 and as player 1.
        variant: ``"paper"`` or ``"refined"``.
        faults: decisions of the opponent the dealer replaced (an answer not a distribution).
    """

    hands: int
    mbb_per_hand: float
    ci95: float
    seat_mbb: tuple[float, float]
    variant: str = "paper"
    faults: int = 0


class LocalBestResponse:
    """LBR against one policy on one heads-up Hold'em game with two hole cards: an Agent.

    Args:
        game: a heads-up Hold'em game (limit or no-limit; any deck; two hole cards).
        policy: the opponent's policy (``action_probabilities`` of observations).
        raises: the raises tried at a state; default: limit's one raise (required in no-limit).
        variant: ``"paper"`` or ``"refined"`` (see the module docstring).
        rollouts: runouts per equity before the river (every runout when they fit).
        seed: LBR's generator (the dealer reseeds it per hand through ``seed``).

    Raises:
        SpecError: a game LBR cannot play, an unknown variant, rollouts < 1, or no-limit
            without ``raises``.
    """

    name = "lbr"

    def __init__(
        self,
        game: HoldemGame,
        policy: PolicyLike,
        *,
        raises: RaiseMenu | None = None,
        variant: str = "paper",
        rollouts: int = 48,
        seed: int = 0,
    ) -> None:
        if not isinstance(game, HoldemGame) or game.n_players != 2:
            raise SpecError(f"LBR plays heads-up Hold'em; got {getattr(game, 'spec', game)}")
        if game.rules.hole_size != 2:
            raise SpecError(f"LBR needs two hole cards; {game.spec} deals {game.rules.hole_size}")
        if variant not in VARIANTS:
            raise SpecError(f"unknown LBR variant {variant!r}; allowed: {', '.join(VARIANTS)}")
        if rollouts < 1:
            raise SpecError(f"rollouts must be >= 1; got {rollouts}")
        if raises is None and game.no_limit:
            raise SpecError("no-limit LBR needs its raises (a bet menu or an action set such "
                            "as 'FC/FCPA/FCPA/FCPA', pokerlab.abstraction.lbr_actions)")
        self.game = game
        self.policy = policy
        self.raises: RaiseMenu = raises if raises is not None else limit_raise
        self.variant = variant
        self.rollouts = rollouts
        self._rng = np.random.default_rng(seed)
        self._prior = deck_range(game.rules.deck)
        # (LBR's cards, the actions after the hole cards, the range after them)
        self._trail: tuple[tuple[int, ...], tuple[Action, ...], NDArray[np.float64]] = (
            (), (), self._prior)

    # -- the Agent hooks the dealer calls ----------------------------------------------------

    def reset(self) -> None:
        """A new hand: forget the range."""
        self._trail = ((), (), self._prior)

    def seed(self, value: int) -> None:
        """Restart LBR's generator (runout sampling) from ``value``."""
        self._rng = reseed(self._rng, value)

    def act(self, observation: Observation) -> Action:
        """LBR's action at ``observation`` (its turn)."""
        state = replay_observation(self.game, self.game.rules, observation)
        assert isinstance(state, HoldemState)
        return self.decide(state, self.range_at(state), self._rng)

    # -- the range and the decision ----------------------------------------------------------

    def range_at(self, state: HoldemState) -> NDArray[np.float64]:
        """The opponent's range at ``state`` (LBR to act): Bayes over the hand so far.

        ``state`` holds LBR's cards; the opponent's are stand-ins, never read. The range is
        kept between decisions and extended by the actions since (recomputed from the start
        when LBR's cards or the earlier actions differ: any observation may be asked).
        """
        seat = state.to_act
        n_hole = 2 * self.game.n_players
        history = tuple(state.history)
        mine = tuple(int(c) for c in state.hole_cards(seat))
        cards, done, weights = self._trail
        if cards != mine or history[n_hole:n_hole + len(done)] != done:
            done, weights = (), self._prior
        replay = self.game.initial_state()
        for action in history[:n_hole]:
            replay = replay.child(action)
        weights = without_cards(weights, mine)
        for action in history[n_hole:n_hole + len(done)]:
            replay = replay.child(action)
        for action in history[n_hole + len(done):]:
            if replay.to_act == CHANCE:
                weights = without_cards(weights, (action,))
            elif replay.to_act != seat:
                legal, table = opponent_probabilities(self.policy, replay, weights)
                after = weights * table[:, legal.index(action)]
                weights = after if after.sum() > 0 else weights  # off the policy: keep
            replay = replay.child(action)
        self._trail = (mine, history[n_hole:], weights)
        return weights

    def decide(
        self, state: HoldemState, weights: NDArray[np.float64], rng: np.random.Generator
    ) -> Action:
        """LBR's action at ``state`` (its turn) against the range ``weights``."""
        seat = state.to_act
        hole = state.hole_cards(seat)
        rules = self.game.rules
        scores = pair_scores(
            (int(hole[0]), int(hole[1])), tuple(int(c) for c in state.board), weights, rng,
            self.rollouts, deck=rules.deck, board_size=rules.board_sizes[-1],
        )  # fmt: skip
        wp = equity_of(weights, scores)
        pot = float(state.pot)
        asked = float(state.to_call(seat))
        best_action: Action = CALL
        best = wp * (pot + asked) - asked
        if asked > 0 and best < 0:
            best_action, best = FOLD, 0.0
        for action in self.raises(state):
            child = state.child(action)
            c = float(child.committed[seat] - state.committed[seat])
            fold, wpc = 0.0, wp
            if child.to_act == 1 - seat and FOLD in child.legal_actions()[:1]:
                legal, table = opponent_probabilities(self.policy, child, weights)
                folds = table[:, legal.index(FOLD)]
                fold = float(weights @ folds) / float(weights.sum())
                if self.variant == "refined":
                    wpc = equity_of(weights * (1.0 - folds), scores)
            value = fold * pot + (1 - fold) * (wpc * (pot + 2 * c - asked) - c)
            if value > best:
                best_action, best = action, value
        return best_action


class _PolicySeat:
    """The opponent at the dealer: samples its policy's probabilities at each observation."""

    name = "policy"

    def __init__(self, policy: PolicyLike) -> None:
        self.policy = policy
        self._rng = np.random.default_rng(0)

    def seed(self, value: int) -> None:
        self._rng = reseed(self._rng, value)

    def act(self, observation: Observation) -> Action:
        return sample_action(self.policy.action_probabilities(observation), self._rng)


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
    raises: RaiseMenu | None = None,
    variant: str = "paper",
    rollouts: int = 48,
    progress: Callable[[int], None] | None = None,
) -> LBRResult:
    """LBR's winnings in mbb/hand over ``hands`` hands dealt by the dealer (duplicate deals).

    Deal ``d`` is the dealer's ``DealStream(seed, d)``, played once with LBR as player 0 and
    once as player 1 (the same cards in the same seats); the dealer seeds LBR and the
    opponent's sampling per hand from ``seed``.

    Args:
        game: heads-up Hold'em with two hole cards.
        policy: the opponent's policy.
        hands: hands to play, even (each deal from both seats); at least 2.
        seed: the cards, LBR's rollouts and the opponent's sampling.
        raises: the raises LBR tries (see :class:`LocalBestResponse`).
        variant: ``"paper"`` or ``"refined"``.
        rollouts: sampled runouts per equity before the river.
        progress: called with the number of hands finished after each hand.

    Raises:
        SpecError: bad arguments (an odd or too small hand count, not heads-up Hold'em).
        PokerlabError: if LBR itself failed at a decision (a fault of LBR, never hidden).
    """
    check_hands(hands)
    lbr = LocalBestResponse(game, policy, raises=raises, variant=variant, rollouts=rollouts)
    connections = (InProcessConnection(lbr), InProcessConnection(_PolicySeat(policy)))
    pairs = np.zeros(hands // 2)
    seats = np.zeros((2, hands // 2))
    faults = 0
    for deal in range(hands // 2):
        for seat in (0, 1):
            hand = 2 * deal + seat
            order = (connections[0], connections[1]) if seat == 0 else (
                connections[1], connections[0])
            who = (0, 1) if seat == 0 else (1, 0)
            record, _ = deal_hand(
                game, order, chance=DealStream(seed, deal), hand=hand, deal=deal, agents=who,
                agent_seeds=[agent_seed(seed, hand, a) for a in who],
            )  # fmt: skip
            mine = [e for e in record.events if e.agent == 0]
            if mine:
                raise PokerlabError(f"LBR failed in hand {hand}: {mine[0].kind}: {mine[0].detail}")
            faults += len(record.events)
            seats[seat, deal] = record.returns[seat]
            if progress is not None:
                progress(hand + 1)
        pairs[deal] = seats[:, deal].mean()
    scale = 1000.0 / game.big_blind
    spread = float(pairs.std(ddof=1)) if len(pairs) > 1 else math.inf
    return LBRResult(
        hands=hands,
        mbb_per_hand=float(pairs.mean()) * scale,
        ci95=1.96 * spread / math.sqrt(len(pairs)) * scale,
        seat_mbb=(float(seats[0].mean()) * scale, float(seats[1].mean()) * scale),
        variant=variant,
        faults=faults,
    )


__all__ = [
    "PAIRS",
    "VARIANTS",
    "LBRResult",
    "LocalBestResponse",
    "RaiseMenu",
    "check_hands",
    "limit_raise",
    "run_lbr",
]
