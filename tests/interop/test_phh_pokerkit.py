"""PHH against pokerkit, both ways: the same hands, the same payoffs.

pokerlab -> pokerkit: matches between built-in bots (limit and no-limit; 2, 3 and 6 seats;
unequal stacks, so all-ins and side pots) are exported to PHH; pokerkit's own reader
(``HandHistory``) loads every hand and replays it, and must end with the chips pokerlab's
record says each seat won; and pokerlab reads the text back into the very same record.

pokerkit -> pokerlab: pokerkit plays random hands itself and writes them as PHH
(``HandHistory.from_game_state``, pokerkit's writer, not ours); pokerlab imports each and
must settle it to pokerkit's payoffs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pokerkit
import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.eval import play_match
from pokerlab.games import load
from pokerlab.games.holdem import HoldemGame
from pokerlab.interop.phh import PhhHand, dumps_phh, dumps_phhs, loads_phh
from pokerlab.interop.phh_sources import unique_names
from tests.differential.test_pokerkit_holdem import rank_with_eval7

SETUPS = [
    ("holdem(stack=(60, 300))", ["random", "easy"]),
    ("holdem(betting='limit', stack=(14, 200))", ["always-raise", "easy"]),
    ("holdem(players=3, ante=1, stack=(25, 80, 300))", ["random", "always-call", "easy"]),
    ("holdem(players=3, betting='limit', stack=(12, 50, 200))",
     ["always-raise", "always-call", "random"]),
    ("holdem(players=6, stack=(15, 40, 100, 7, 300, 60))",
     ["random", "easy", "always-call", "random", "ehs", "always-raise"]),
    ("holdem(players=6, betting='limit', blinds=(5, 10), stack=(30, 400, 90, 160, 45, 1000))",
     ["random", "always-raise", "easy", "random", "always-call", "ehs"]),
]


@pytest.fixture(autouse=True)
def _fast_pokerkit_hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """pokerkit ranks showdown hands with eval7 (its own search dominates the time)."""
    rank_with_eval7(monkeypatch)
    return


def pokerkit_payoffs(history: pokerkit.HandHistory) -> list[int]:
    """Chips each seat won when pokerkit replays ``history`` to its end."""
    *_, state = history  # every state of the hand, in order: the last is settled
    assert not state.status, "pokerkit did not finish the hand"
    return [int(end - start) for end, start in zip(state.stacks, state.starting_stacks,
                                                   strict=True)]


def _match_hands(spec: str, bots: Sequence[str], hands: int, seed: int) -> list[PhhHand]:
    game = load(spec)
    assert isinstance(game, HoldemGame)
    agents = [make_agent(name, game, seed=seed + k) for k, name in enumerate(bots)]
    result = play_match(game, *agents, hands=hands, seed=seed)
    names = unique_names(result.agent_names)
    return [PhhHand(game, record, tuple(names[a] for a in record.seats))
            for record in result.hands]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "bots"), SETUPS, ids=[s for s, _ in SETUPS])
def test_pokerkit_replays_every_exported_hand_to_the_same_payoffs(
    spec: str, bots: list[str]
) -> None:
    hands = _match_hands(spec, bots, hands=60 // len(bots), seed=11)
    showdowns = side_pots = all_ins = 0
    for hand in hands:
        text = dumps_phh(hand)
        assert pokerkit_payoffs(pokerkit.HandHistory.loads(text)) == list(hand.record.returns)
        assert loads_phh(text)[0] == hand
        state = hand.game.initial_state().apply_sequence(hand.record.history)
        settlement = state.settle()
        showdowns += len(settlement.showdown) > 1
        side_pots += len(settlement.pots) > 1
        all_ins += any(b == 0 and not f for b, f in zip(state.behind, state.folded, strict=True))
    # The hands exercise what they should: showdowns and all-ins everywhere, side pots
    # wherever more than two seats hold unequal stacks.
    assert showdowns >= 5, showdowns
    assert all_ins >= 5, all_ins
    if hand.game.n_players > 2:
        assert side_pots >= 3, side_pots


@pytest.mark.slow
def test_pokerkit_reads_a_phhs_file_of_many_hands() -> None:
    hands = _match_hands("holdem(players=3, stack=(25, 80, 300))", ["random"] * 3, 8, seed=2)
    loaded = list(pokerkit.HandHistory.loads_all(dumps_phhs(hands)))
    assert len(loaded) == len(hands) == 24
    for theirs, ours in zip(loaded, hands, strict=True):
        assert pokerkit_payoffs(theirs) == list(ours.record.returns)
        assert theirs.players == list(ours.players or ())


# -- pokerkit's own hands, written by pokerkit, read by pokerlab ----------------------------

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
    pokerkit.Automation.RUNOUT_COUNT_SELECTION,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def _pokerkit_hand(rng: np.random.Generator, limit: bool) -> tuple[str, list[int]]:
    """A random hand played by pokerkit alone; its PHH text (pokerkit's writer) and payoffs."""
    n = int(rng.integers(2, 7))
    stacks = [int(rng.integers(3, 40)) if rng.random() < 0.4 else int(rng.integers(40, 400))
              for _ in range(n)]
    ante = int(rng.choice([0, 0, 1]))
    game: pokerkit.Poker
    if limit:
        game = pokerkit.FixedLimitTexasHoldem(AUTOMATIONS, False, ante, (1, 2), 2, 4)
    else:
        game = pokerkit.NoLimitTexasHoldem(AUTOMATIONS, False, ante, (1, 2), 2)
    state = game(tuple(stacks), n)
    while state.status:
        draw = rng.random()
        if state.can_fold() and draw < 0.15:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and draw > 0.6:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            assert low is not None
            assert high is not None
            state.complete_bet_or_raise_to(int(rng.integers(low, high + 1)))
        else:
            state.check_or_call()
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    payoffs = [int(end - start) for end, start in zip(state.stacks, state.starting_stacks,
                                                      strict=True)]
    return text, payoffs


@pytest.mark.slow
@pytest.mark.parametrize("limit", [False, True], ids=["nolimit", "limit"])
def test_pokerlab_imports_pokerkit_s_own_hands_to_the_same_payoffs(limit: bool) -> None:
    rng = np.random.default_rng(5 if limit else 6)
    showdowns = 0
    for _ in range(150):
        text, payoffs = _pokerkit_hand(rng, limit)
        (hand,) = loads_phh(text, source="pokerkit's hand")
        assert list(hand.record.returns) == payoffs, text
        showdowns += " sm " in text
        assert hand.game.spec.get("caps") == ("4,4,4,4" if limit else "")
    assert showdowns > 30
