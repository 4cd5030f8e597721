"""Hold'em rules engine: random playouts of heads-up no-limit hands, pokerlab vs pokerkit.

Both engines play complete hands (blinds 1/2, stacks of 200) with the same random action
rule: facing a bet, fold 20% of the time; raise 30% of the time when a raise is legal, to
an amount drawn uniformly from the legal range; otherwise check or call. pokerlab deals
from a shuffled deck through its chance nodes (immutable states, one per action) and
settles with its evaluator; pokerkit runs with every automation on (it deals, shows down,
ranks hands and pushes chips itself), its fastest way to play a hand. Rates are hands per
second on one core, timed in the same process.

A second row plays heads-up limit hands (pokerlab's ``holdem(betting="limit")`` rules,
stacks large enough for no all-in) uniformly at random over the legal actions, through
pokerlab's State API and through OpenSpiel's C++ ``universal_poker`` (driven from Python
through pyspiel, loaded from the same ACPC game definition; chance drawn the same way).
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games import holdem
from pokerlab.games.holdem import CALL, FOLD, RAISE


def _ours(hands: int, seed: int) -> None:
    game = holdem(stack=200)
    rng = random.Random(seed)
    deck_rng = np.random.default_rng(seed)
    initial = game.initial_state()
    for _ in range(hands):
        deck = deck_rng.permutation(52).tolist()
        state = initial
        while True:
            player = state.player
            if player == CHANCE:
                state = state.child(deck[len(state.hole) + len(state.board)])
                continue
            if player == TERMINAL:
                state.returns()
                break
            draw = rng.random()
            bounds = state.raise_range()
            if draw < 0.2 and state.to_call() > 0:
                state = state.child(FOLD)
            elif draw > 0.7 and bounds is not None:
                state = state.child(RAISE + rng.randint(bounds[0], bounds[1]))
            else:
                state = state.child(CALL)


def _pokerkit(hands: int, seed: int) -> None:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (200, 200), 2)
        while state.status:
            draw = rng.random()
            if draw < 0.2 and state.can_fold():
                state.fold()
            elif draw > 0.7 and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None
                assert high is not None
                state.complete_bet_or_raise_to(rng.randint(low, high))
            else:
                state.check_or_call()


LIMIT_SPEC = 'holdem(betting="limit", stack=1000)'


def _ours_limit(hands: int, seed: int) -> None:
    from pokerlab.games import load

    game = load(LIMIT_SPEC)
    rng = random.Random(seed)
    initial = game.initial_state()
    for _ in range(hands):
        state = initial
        while state.player != TERMINAL:
            state = state.child(rng.choice(state.legal_actions()))
        state.returns()


def _universal_poker(hands: int, seed: int) -> None:
    import pyspiel

    from pokerlab.games import load
    from pokerlab.protocols.acpc_gamedef import format_gamedef

    game = load(LIMIT_SPEC)
    os_game = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(
        format_gamedef(game)  # type: ignore[arg-type]
    )
    rng = random.Random(seed)
    for _ in range(hands):
        state = os_game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        state.returns()


def run(quick: bool) -> list[Row]:
    n_ours = 2_000 if quick else 20_000
    n_peer = 200 if quick else 1_500
    seeds = itertools.count(2)  # fresh hands at every repetition: no timing of replayed hands
    _ours(50, seed=1)  # warm up: the evaluator's tables
    ours = n_ours / best_time(lambda: _ours(n_ours, seed=next(seeds)), repeat=3)
    peer = n_peer / best_time(lambda: _pokerkit(n_peer, seed=next(seeds)), repeat=3)
    n_limit = 2_000 if quick else 20_000
    ours_limit = n_limit / best_time(lambda: _ours_limit(n_limit, seed=next(seeds)), repeat=3)
    peer_limit = n_limit / best_time(lambda: _universal_poker(n_limit, seed=next(seeds)), repeat=3)
    return [
        Row(
            name="HULHE random playouts",
            unit="hands/s",
            ours=ours_limit,
            peer_name="OpenSpiel universal_poker (C++)",
            peer=peer_limit,
            higher_is_better=True,
            target=">= 1x",
            note="limit 1/2, caps 3/4/4/4, uniform over legal actions, same gamedef",
        ),
        Row(
            name="HUNL random playouts",
            unit="hands/s",
            ours=ours,
            peer_name="pokerkit NoLimitTexasHoldem",
            peer=peer,
            higher_is_better=True,
            target=">= 10x",
            note="blinds 1/2, stacks 200, fold 20% / raise 30% (uniform size) / call",
        )
    ]
