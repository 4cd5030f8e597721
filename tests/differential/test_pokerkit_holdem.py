"""Hold'em against pokerkit: the same deck, the same random actions, the same rules.

Each hand is played in lockstep by pokerlab's engine and by pokerkit (Tournament mode,
every player showing down): at every decision both must agree on who acts, whether a fold
is allowed, the amount to check or call, whether a raise is allowed and its minimum and
maximum raise-to amounts; at the end both must leave the same stacks. Limit games use
pokerkit's fixed-limit structure with the cap set to ours (the big blind counting as the
first bet preflop). Actions are random, biased to keep hands going (few folds, many raises
of every size) and stacks are random, many of them short, so all-ins, side pots, short
all-in raises and blinds posted all-in all occur.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence

import eval7
import numpy as np
import pokerkit
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.cards import card_str
from pokerlab.games import holdem
from pokerlab.games.holdem import CALL, FOLD, HoldemState

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


@functools.total_ordering
@dataclasses.dataclass(frozen=True)
class _RankedHand:
    """A showdown hand as eval7 ranks it (higher is better), for pokerkit to compare."""

    value: int

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _RankedHand):
            return NotImplemented
        return self.value < other.value


@pytest.fixture(autouse=True)
def _fast_pokerkit_hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Rank pokerkit's hands with eval7 during each test (see :func:`rank_with_eval7`)."""
    rank_with_eval7(monkeypatch)
    return


def rank_with_eval7(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rank pokerkit's showdown hands with eval7 (a third, compiled evaluator).

    pokerkit's own best-of-21 search dominates this test's time (it ranks every hand again
    for each pot and to find dead hands); the betting, the pots, the dead hands and the
    odd chips stay pokerkit's. Hand ranking itself is cross-checked in tests/cards/.
    """
    deck = {card: eval7.Card(f"{card.rank}{card.suit}") for card in pokerkit.Card.parse(
        "".join(r + s for r in "23456789TJQKA" for s in "cdhs"))}

    def from_game(cls: type, hole_cards: object, board_cards: object = ()) -> _RankedHand:
        cards = [*pokerkit.Card.clean(hole_cards), *pokerkit.Card.clean(board_cards)]
        if len(cards) < 5:
            raise ValueError("fewer than five cards")
        return _RankedHand(eval7.evaluate([deck[card] for card in cards]))

    monkeypatch.setattr(pokerkit.StandardHighHand, "from_game", classmethod(from_game))


def pokerkit_state(
    betting: str, blinds: tuple[int, int], ante: int, stacks: Sequence[int], cap: int
) -> pokerkit.State:
    n = len(stacks)
    if betting == "nolimit":
        return pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, False, ante, blinds, blinds[1], tuple(stacks), n
        )
    game = pokerkit.FixedLimitTexasHoldem(
        AUTOMATIONS, False, ante, blinds, blinds[1], 2 * blinds[1]
    )
    game.streets = tuple(
        dataclasses.replace(
            street, max_completion_betting_or_raising_count=cap - 1 if index == 0 else cap
        )
        for index, street in enumerate(game.streets)
    )
    return game(tuple(stacks), n)


def _advance(state: HoldemState, deck: list[int]) -> HoldemState:
    while state.player == CHANCE:
        state = state.child(deck[len(state.hole) + len(state.board)])
    return state


def play_hand(
    rng: np.random.Generator,
    *,
    players: int,
    betting: str,
    blinds: tuple[int, int],
    ante: int,
    stacks: Sequence[int],
    cap: int = 4,
) -> tuple[HoldemState, int]:
    """Play one random hand in both engines, asserting agreement; return ours and #decisions."""
    game = holdem(
        players=players, betting=betting, blinds=blinds, ante=ante, stack=tuple(stacks), cap=cap
    )
    deck = [int(c) for c in rng.permutation(52)]
    hole = [[card_str(deck[p]), card_str(deck[p + players])] for p in range(players)]
    board = [card_str(c) for c in deck[2 * players : 2 * players + 5]]
    pk = pokerkit_state(betting, blinds, ante, stacks, cap)
    state = _advance(game.initial_state(), deck)
    decisions = 0
    while True:
        # Move pokerkit to its next decision (or the end), dealing our cards.
        while pk.status and pk.actor_index is None:
            if pk.can_burn_card():
                pk.burn_card("??")
            elif pk.can_deal_hole():
                player = pk.hole_dealee_index
                pk.deal_hole(hole[player].pop(0))
            elif pk.can_deal_board():
                count = pk.board_dealing_count
                pk.deal_board("".join(board[:count]))
                del board[:count]
            elif pk.can_show_or_muck_hole_cards():
                pk.show_or_muck_hole_cards(True)
            else:  # pragma: no cover - a pokerkit phase this test does not drive
                raise AssertionError(f"pokerkit is stuck: {pk.operations[-3:]}")
        if not pk.status:
            break
        where = f"{state} (pokerkit: {pk.operations[-1]})"
        assert state.player == pk.actor_index, where
        assert (FOLD in state.legal_actions()) == pk.can_fold(), where
        assert state.to_call() == pk.checking_or_calling_amount, where
        bounds = state.raise_range()
        if pk.can_complete_bet_or_raise_to():
            expected = (
                pk.min_completion_betting_or_raising_to_amount,
                pk.max_completion_betting_or_raising_to_amount,
            )
            assert bounds == expected, where
        else:
            assert bounds is None, where
        decisions += 1
        draw = rng.random()
        if FOLD in state.legal_actions() and draw < 0.12:
            pk.fold()
            state = state.child(FOLD)
        elif bounds is not None and draw > 0.62:
            low, high = bounds
            pick = rng.random()
            if pick < 0.45:
                amount = low
            elif pick < 0.7:
                amount = high
            else:
                amount = int(rng.integers(low, high + 1))
            pk.complete_bet_or_raise_to(amount)
            state = state.child(state.action_for_raise_to(amount))
        else:
            pk.check_or_call()
            state = state.child(CALL)
        state = _advance(state, deck)
    assert state.player == TERMINAL, state
    settlement = state.settle()
    assert list(settlement.final_stacks) == list(pk.stacks), (state, pk.operations)
    assert sum(state.returns()) == 0
    return state, decisions


def random_setup(rng: np.random.Generator, betting: str) -> dict[str, object]:
    players = int(rng.integers(2, 7))
    blinds = [(1, 2), (1, 2), (5, 10), (2, 2), (1, 3)][int(rng.integers(0, 5))]
    ante = int(rng.choice([0, 0, 0, 1, 2]))
    stacks = []
    for _ in range(players):
        kind = rng.random()
        if kind < 0.35:
            stacks.append(int(rng.integers(1, 4 * blinds[1] + 1)))  # short: all-ins, side pots
        elif kind < 0.8:
            stacks.append(int(rng.integers(4 * blinds[1], 60 * blinds[1])))
        else:
            stacks.append(int(rng.integers(60 * blinds[1], 300 * blinds[1])))
    return {"players": players, "betting": betting, "blinds": blinds, "ante": ante,
            "stacks": stacks}


@pytest.mark.slow
@pytest.mark.parametrize("betting", ["nolimit", "limit"])
def test_random_hands_agree_with_pokerkit(betting: str) -> None:
    """2,500 hands per betting structure (5,000 in all), 2 to 6 players."""
    rng = np.random.default_rng(2024 if betting == "nolimit" else 7)
    decisions = showdowns = side_pots = splits = odd_chips = 0
    for _ in range(2500):
        state, count = play_hand(rng, **random_setup(rng, betting))  # type: ignore[arg-type]
        settlement = state.settle()
        decisions += count
        showdowns += bool(settlement.showdown)
        side_pots += len(settlement.pots) > 1
        splits += any(len(pot.winners) > 1 for pot in settlement.pots)
        odd_chips += any(len(set(pot.shares)) > 1 for pot in settlement.pots)
    # The hands exercised what they are meant to: showdowns, side pots, split pots, odd chips.
    assert decisions > 10_000
    assert showdowns > 1000
    assert side_pots > 300
    assert splits > 50
    assert odd_chips > 10


@pytest.mark.parametrize("betting", ["nolimit", "limit"])
def test_short_stack_between_deep_ones_agrees(betting: str) -> None:
    """A short stack between two deep ones: short all-in raises that must not reopen."""
    rng = np.random.default_rng(1)
    for _ in range(100):
        play_hand(rng, players=3, betting=betting, blinds=(1, 2), ante=0, stacks=[100, 7, 100])
