"""Parameterised Hold'em games walk in lockstep with OpenSpiel's ``universal_poker``.

Each config is built twice: as a pokerlab ``holdem(...)`` spec and as the ACPC game
definition universal_poker reads (written here from the pokerlab rules). Random hands are
played in both at once: at every node the legal actions, the chance outcomes (cards
mapped ``rank * 4 + suit`` <-> ACPC's ``relative rank * suits + suit``) and, at the end,
the returns must be equal.
"""

from __future__ import annotations

import random

import pytest

from pokerlab._types import CHANCE
from pokerlab.games import load
from pokerlab.games.holdem_rules import RAISE, HoldemRules
from pokerlab.games.holdem_state import HoldemGame, HoldemState

pyspiel = pytest.importorskip("pyspiel")

CONFIGS = {
    "texas-limit": 'holdem(betting="limit", stack=1000)',
    "rhode-island": 'holdem(betting="limit", hole=1, board="1,1", stack=1000)',
    "short-deck": 'holdem(betting="limit", ranks=6, suits=3, stack=1000, raises="2,2,4,4")',
    "3-player": 'holdem(betting="limit", players=3, ranks=8, stack=1000)',
    "kuhn-like": 'holdem(betting="limit", ranks=3, suits=1, hole=1, board="", '
    'seat_blinds=(1, 1), raises="1", caps="1", first="0", stack=100)',
    "nolimit-hu": "holdem(stack=20)",
    "nolimit-hu-uneven": "holdem(stack=(20, 35))",
    "two-suit-flop": 'holdem(betting="limit", ranks=5, suits=2, hole=1, board="2", '
    'first="1,0", caps="2,2", stack=100)',
}


def universal_poker_params(rules: HoldemRules) -> dict[str, object]:
    """The ACPC game definition of ``rules``, as universal_poker's parameters.

    No-limit is checked heads-up only: with three players and unequal stacks the two
    engines disagree on some hands (recorded in the report, not yet explained).
    """
    n = rules.n_players
    nominal = [b for b in rules.blinds_paid]
    openers = [rules.preflop_opener, *rules.openers[1:]]
    if rules.no_limit:
        return {
            "betting": "nolimit", "bettingAbstraction": "fullgame", "numPlayers": n,
            "numRounds": rules.n_streets, "blind": " ".join(str(b) for b in nominal),
            "firstPlayer": " ".join(str(int(o) + 1) for o in openers),  # type: ignore[arg-type]
            "numSuits": rules.n_suits, "numRanks": rules.n_ranks,
            "numHoleCards": rules.hole_size,
            "numBoardCards": " ".join(
                str(rules.board_sizes[s] - (rules.board_sizes[s - 1] if s else 0))
                for s in range(rules.n_streets)
            ),
            "stack": " ".join(str(s) for s in rules.starting_stacks),
        }  # fmt: skip
    return {
        "betting": "limit",
        "numPlayers": n,
        "numRounds": rules.n_streets,
        "blind": " ".join(str(b) for b in nominal),
        "raiseSize": " ".join(str(b) for b in rules.street_bets),
        "firstPlayer": " ".join(str(int(o) + 1) for o in openers),  # type: ignore[arg-type]
        "maxRaises": " ".join(str(c) for c in rules.raise_caps),
        "numSuits": rules.n_suits,
        "numRanks": rules.n_ranks,
        "numHoleCards": rules.hole_size,
        "numBoardCards": " ".join(
            str(rules.board_sizes[s] - (rules.board_sizes[s - 1] if s else 0))
            for s in range(rules.n_streets)
        ),
        "stack": " ".join(str(s) for s in rules.starting_stacks),
    }


def to_acpc(rules: HoldemRules, card: int) -> int:
    """pokerlab card id -> universal_poker's."""
    return (card // 4 - (13 - rules.n_ranks)) * rules.n_suits + card % 4


def play_lockstep(game: HoldemGame, os_game: object, rng: random.Random) -> bool:
    """Play one random hand in both; True when it reached a showdown."""
    rules = game.rules
    state: HoldemState = game.initial_state()
    os_state = os_game.new_initial_state()  # type: ignore[attr-defined]
    # Hole cards: pokerlab deals round robin, universal_poker player by player.
    hole = rng.sample(rules.deck, rules.n_hole_cards)
    n, k = rules.n_players, rules.hole_size
    for card in hole:
        state = state.child(card)
    for p in range(n):
        for j in range(k):
            os_state.apply_action(to_acpc(rules, hole[j * n + p]))
    while not state.is_terminal:
        assert not os_state.is_terminal()
        if state.player == CHANCE:
            ours = {to_acpc(rules, c): pr for c, pr in state.chance_outcomes()}
            theirs = dict(os_state.chance_outcomes())
            assert ours.keys() == theirs.keys()
            assert all(abs(ours[c] - theirs[c]) < 1e-12 for c in ours)
            card = rng.choice(state.legal_actions())
            state = state.child(card)
            os_state.apply_action(to_acpc(rules, card))
            continue
        assert state.player == os_state.current_player(), str(os_state)
        legal = list(state.legal_actions())
        # No-limit: pokerlab's RAISE + X (X: the street's total) is universal_poker's
        # raise to the hand's total (fullgame betting): X plus the earlier streets' chips.
        player = state.player
        earlier = state.committed[player] - state.bets[player]
        shift = RAISE - earlier if game.no_limit else 0
        theirs_legal = [a if a < RAISE else a - shift for a in legal]
        assert theirs_legal == list(os_state.legal_actions()), (str(state), str(os_state))
        action = rng.choice(legal)
        state = state.child(action)
        os_state.apply_action(action if action < RAISE else action - shift)
    assert os_state.is_terminal(), str(os_state)
    ours_r, theirs_r = list(state.returns()), list(os_state.returns())
    if ours_r != theirs_r:
        # One known difference: a pot that does not divide evenly. universal_poker splits
        # the odd chips as fractions; pokerlab gives them to the first winner (pokerkit's rule).
        settlement = state.settle()
        assert any(
            len(pot.winners) > 1 and pot.amount % len(pot.winners) for pot in settlement.pots
        )
        assert abs(sum(ours_r) - sum(theirs_r)) < 1e-9
        assert all(abs(a - b) < 1 for a, b in zip(ours_r, theirs_r, strict=True)), (
            ours_r,
            theirs_r,
        )
    return bool(state.settle().showdown)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_lockstep_with_universal_poker(name: str) -> None:
    game = load(CONFIGS[name])
    assert isinstance(game, HoldemGame)
    assert load(str(game.spec)) == game
    os_game = pyspiel.load_game("universal_poker", universal_poker_params(game.rules))
    rng = random.Random(name)
    showdowns = sum(play_lockstep(game, os_game, rng) for _ in range(3000))
    assert showdowns > 100  # the hand ranking was compared, not only folds
