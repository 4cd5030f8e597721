"""From an observation back to a Hold'em state: what a seat may know, replayed.

An :class:`~pokerlab.games.observation.Observation` carries the public history as names
(``"raise to 6"``, ``"flop Qh7c2d"``), the observer's hole cards and the board. Replaying
that history with stand-in cards for the other players (never shown) gives a state whose
chips, bets of the street and legal raises are exact, which renderers and agents use.
"""

from __future__ import annotations

from pokerlab._types import CHANCE, Action
from pokerlab.cards import parse_cards
from pokerlab.errors import IllegalActionError, SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, HoldemRules
from pokerlab.games.observation import Observation


def replay_observation(game: Game, rules: HoldemRules, observation: Observation) -> State:
    """Rebuild the state ``observation`` was taken in, as its seat may know it.

    The hole cards are dealt first (round robin), so while the history is shorter than
    all the hole cards, the next chance action deals one.

    Raises:
        SpecError: if the observation is not of ``game`` or its history is not one.
    """
    if observation.game != str(game.spec):
        raise SpecError(f"the observation is of {observation.game}, not of {game.spec}")
    board = list(parse_cards(observation.board))
    own = parse_cards(observation.private_cards)
    n = rules.n_players
    n_hole = rules.n_hole_cards
    spare = [c for c in rules.deck if c not in board and c not in own]
    holes = [
        list(own) if player == observation.seat else [spare.pop() for _ in range(rules.hole_size)]
        for player in range(n)
    ]

    def deal_hole_cards(state: State) -> State:
        while state.player == CHANCE and len(state.history) < n_hole:
            k = len(state.history)
            state = state.child(holes[k % n][k // n])
        return state

    state = game.initial_state()
    try:
        for player, name in observation.public_history:
            state = deal_hole_cards(state)
            if player == -1:
                for card in parse_cards(name.split(" ", 1)[1]):
                    state = state.child(card)
            else:
                state = state.child(action_of_name(rules, name))
        state = deal_hole_cards(state)
    except (IllegalActionError, IndexError, ValueError) as exc:
        raise SpecError(f"the observation's history is not a {game.spec} hand: {exc}") from exc
    return state


def action_of_name(rules: HoldemRules, name: str) -> Action:
    """The action id of an action's name (``"fold"``, ``"check"``, ``"raise to 6"``...).

    Raises:
        SpecError: if ``name`` names no Hold'em action.
    """
    words = name.split()
    if words and words[0] == "fold":
        return FOLD
    if words and words[0] in ("check", "call"):
        return CALL
    if words and words[0] in ("bet", "raise"):
        return RAISE + int(words[-1]) if rules.no_limit else RAISE
    raise SpecError(f"unknown holdem action name {name!r}")


__all__ = ["action_of_name", "replay_observation"]
