"""What a search wins over its blueprint at one spot, exactly: no cards sampled.

A head-to-head match of the searcher against its blueprint needs tens of thousands of
hands to tell a few hundredths of a chip a hand. At one public spot everything it
averages over is known: both players' ranges (Bayes from the blueprint's play), the
blueprint's strategy at every node of the subgame (its reference), and the search's rows
for every hand. So the search's value there against an opponent who plays the
blueprint, less the blueprint's own value, is one pass of the range solver each
(:func:`spot_gain`), on spots dealt by the blueprint playing itself
(:func:`blueprint_spots`). The same passes give both strategies' value against a best
response (the safety the re-solving gadget promises). ``python -m benchmarks.search_gain``
reports them over the default no-limit blueprint (docs/hard_search.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.agents.search_history import replay, street_start
from pokerlab.agents.search_policy import SearchPolicy
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.games.holdem_state import HoldemState
from pokerlab.play.dealer import DealStream, connect, deal_hand
from pokerlab.subgame.holdem_subgame import build_subgame
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.range_solver import root_values
from pokerlab.subgame.units import work_arrays


@dataclass(frozen=True)
class SpotGain:
    """One searched spot, valued exactly over both players' real ranges.

    Values are the searcher's chips per hand that reaches the street's root, the
    opponent playing the blueprint (``gain``) or best-responding (``worst_*``).

    Attributes:
        street: the street searched.
        searcher: the seat that searched.
        pot: chips in the pot at the street's root.
        gain: the searched rows' value less the blueprint's (the reference's).
        played_gain: ``gain`` where the search was played, 0 where it was rejected.
        worst_before: the blueprint's value against a best response.
        worst_after: the searched rows' value against a best response (safe: at least
            ``worst_before``, up to the solve's inexactness).
        rejected: the searcher did not play the search (its safety check).
    """

    street: int
    searcher: int
    pot: float
    gain: float
    played_gain: float
    worst_before: float
    worst_after: float
    rejected: bool


def blueprint_spots(blueprint: BlueprintPolicy, street: int, count: int,
                    seed: int = 0) -> list[HoldemState]:
    """``count`` decisions on ``street`` of hands the blueprint deals and plays against itself.

    The hands are played at the dealer (deal ``d``: ``DealStream(seed, d)``); each that
    reaches the street gives its first decision there and, where the other player acts
    next on the same street, that one too (both seats get searched).
    """
    game = blueprint.game
    seats = [connect(PolicyAgent(blueprint, seed=seed + k)) for k in range(2)]
    spots: list[HoldemState] = []
    deal = 0
    while len(spots) < count:
        record, _ = deal_hand(game, seats, chance=DealStream(seed, deal), hand=deal,
                              deal=deal)
        deal += 1
        state = game.initial_state()
        assert isinstance(state, HoldemState)
        taken = 0
        for action in record.history:  # the street's first two decisions, if it has them
            if state.street > street or taken == 2:
                break
            if not state.is_chance and state.street == street:
                taken += 1
                if len(spots) < count:
                    spots.append(state)
            state = state.child(action)
    return spots


def spot_gain(searcher: SearchPolicy, state: HoldemState) -> SpotGain | None:
    """The search ``searcher`` makes at ``state`` (for the seat to act), valued exactly.

    The seat's earlier decisions on searched streets are made first (untimed), as a
    match would have made them. None where no street search answers there (the blueprint
    answered: too large or no time).
    """
    q = state.player
    o = 1 - q
    game = searcher.game
    first = searcher.from_street(game)
    earlier = game.initial_state()
    assert isinstance(earlier, HoldemState)
    for action in state.history:  # its earlier searched decisions first, as in play,
        if not earlier.is_chance and earlier.player == q and earlier.street >= first:
            searcher.decide(earlier.observation(q))  # so that they are not on this clock
        earlier = earlier.child(action)
    observation = state.observation(q)
    searcher.decide(observation)
    kept = searcher.kept_search(observation)
    if kept is None:
        return None
    sub, view, rows, rejected = kept
    hole = game.rules.n_hole_cards  # type: ignore[attr-defined]
    root_at = street_start(state, hole)
    root = replay(game, state.history[:root_at])
    weights = [np.zeros(0), np.zeros(0)]
    weights[q] = sub.full_vector(q, sub.public.hands[q].weights)
    weights[o] = sub.full_vector(o, _unfloored(sub.public.hands[o].weights,
                                               searcher.settings.floor))
    sizes = searcher.settings.sizes()
    real = build_subgame(sub.rules, root.betting_node, sub.root_board, (weights[0], weights[1]),
                         view.menu if sizes is None else view.sized_menu(sizes),
                         path=tuple(("a", int(a)) for a in state.history[root_at:]),
                         depth=sub.depth)
    if not np.array_equal(real.hand_ids[q], sub.hand_ids[q]) or \
            real.public.tree.n_rows != sub.public.tree.n_rows:
        raise AssertionError("the rebuilt subgame differs from the searched one")
    reference = (view.reference(real, 0), view.reference(real, 1))
    searched = [reference[0], reference[1]]
    searched[q] = rows
    before = _value(real.public, q, reference)
    gain = _value(real.public, q, (searched[0], searched[1])) - before
    return SpotGain(
        street=state.street, searcher=q, pot=float(real.public.pot), gain=gain,
        played_gain=0.0 if rejected else gain,
        worst_before=_value(real.public, q, reference, best_response=True),
        worst_after=_value(real.public, q, (searched[0], searched[1]), best_response=True),
        rejected=rejected,
    )  # fmt: skip


def _unfloored(floored: FloatArray, floor: float) -> FloatArray:
    """The opponent's range before :class:`SearchPolicy` spread ``floor`` of it evenly.

    Every hand it may hold is in the subgame (the floor gives each a weight), so the even
    share is ``floor / len(floored)`` of the floored range's total.
    """
    total = float(floored.sum())
    even = floor * total / len(floored)
    return np.asarray(np.maximum(floored - even, 0.0) / (1.0 - floor) if floor < 1
                      else np.ones_like(floored))


def _value(game: PublicGame, q: int, strategies: tuple[FloatArray, FloatArray], *,
           best_response: bool = False) -> float:
    """``q``'s chips per hand at the root, both playing ``strategies``.

    With ``best_response``: against a best response to ``q``'s rows.
    """
    p = 1 - q if best_response else q
    work = work_arrays(game)
    root_values(game, p, strategies, best_response, work)
    own = float(game.hands[p].weights @ np.asarray(work.cfv[0][: game.n_hands[p]],
                                                    dtype=np.float64)) / game.normalizer
    return -own if best_response else own


__all__ = ["SpotGain", "blueprint_spots", "spot_gain"]
