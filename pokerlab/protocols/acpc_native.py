"""ACPC's Kuhn and Leduc gamedefs played by pokerlab's own ``kuhn`` and ``leduc`` policies.

The ACPC describes Kuhn and Leduc poker as Hold'em configurations (``kuhn.limit.2p``: one
suit of three ranks, one hole card, blinds of 1 standing for the antes, raises of 1 capped
at one; ``leduc.limit.2p``: two suits, a one-card flop, raises of 2 then 4 capped at two).
The protocol carries those Hold'em states; a strategy from ``pokerlab solve kuhn`` or
``pokerlab solve leduc`` plays them through :class:`NativePolicy`, which asks it at the
equivalent state of its own game and maps the answer back. The games are the same (equal
values; tests/protocols/test_acpc_native.py plays every infoset both ways).

The card mapping: pokerlab's small decks use the highest ranks, so Kuhn's three cards
``Q K A`` are the Hold'em configuration's ``Qc Kc Ac`` and Leduc's ``Q Q K K A A`` are
``Qc Qd Kc Kd Ac Ad`` (pokerlab's Leduc names them ``Qa Qb Ka Kb Aa Ab``; the suit never
matters in Leduc: a card is played by its rank); the protocol writes them with the
reference dealer's suits, ``Qs Ks As`` and ``Qh Qs Kh Ks Ah As``
(:func:`~pokerlab.play.acpc_matchstate.acpc_card_texts`). The action mapping:
Leduc's fold, call and raise are Hold'em's; Kuhn's ``pass`` is Hold'em's check (``c``)
facing no bet and fold (``f``) facing one, and its ``bet`` is a raise (``r``) facing no
bet and a call (``c``) facing one.
"""

from __future__ import annotations

from collections.abc import Mapping

from pokerlab._types import Action
from pokerlab.games import Game, kuhn, leduc
from pokerlab.games.base import State
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.games.observation import Observation
from pokerlab.protocols.acpc_gamedef import parse_gamedef, standard_gamedef
from pokerlab.strategy import Policy

NATIVE = {"kuhn.limit.2p": "kuhn", "leduc.limit.2p": "leduc"}
"""The standard gamedefs that are pokerlab games of their own, and those games' names."""

FOLD, CALL, RAISE = 0, 1, 2
PASS, BET = 0, 1


def native_game(game: HoldemGame) -> Game | None:
    """Pokerlab's ``kuhn()`` or ``leduc()`` when ``game`` is its ACPC gamedef, else None."""
    for gamedef, name in NATIVE.items():
        if game == parse_gamedef(standard_gamedef(gamedef)):
            return kuhn() if name == "kuhn" else leduc()
    return None


def _card(native: Game, rank: str, taken: list[int]) -> int:
    """The first card of ``native``'s deck named ``rank`` that is not ``taken``."""
    state = native.initial_state()
    for card in state.legal_actions():
        name = native.card_names[card] if hasattr(native, "card_names") else (
            native.card_name(card))  # type: ignore[attr-defined]
        if name[0] == rank and card not in taken:
            return int(card)
    raise ValueError(f"{native.spec} has no card {rank!r} left")


def native_state(native: Game, infoset_key: str, seat: int) -> State:
    """A state of ``native`` where ``seat`` sees what the ACPC key ``infoset_key`` says.

    The other seat's card is a stand-in (the answer depends only on what ``seat`` sees).
    """
    parts = infoset_key.split("|")
    rounds = parts[1:] if len(parts) <= 2 else parts[2:]
    board = [] if len(parts) <= 2 else [parts[1][0]]
    mine = _card(native, parts[0][0], [])
    flop = [_card(native, rank, [mine]) for rank in board]
    other = next(c for c in native.initial_state().legal_actions() if c not in (mine, *flop))
    state = native.initial_state()
    for card in (mine, other) if seat == 0 else (other, mine):
        state = state.child(card)
    is_kuhn = native.spec.name == "kuhn"
    for r, letters in enumerate(rounds):
        if r > 0:
            state = state.child(flop[r - 1])
        facing = False
        for letter in letters:
            if is_kuhn:
                action = BET if letter == "r" or (letter == "c" and facing) else PASS
                facing = facing or letter == "r"
            else:
                action = "fcr".index(letter)
            state = state.child(action)
    return state


class NativePolicy:
    """A policy of pokerlab's ``kuhn`` or ``leduc``, playing its ACPC gamedef's Hold'em game.

    Args:
        policy: the policy of the native game (a strategy file's, a built-in's...).
        game: the ACPC game (:func:`native_game` of it must be ``policy.game``).
    """

    def __init__(self, policy: Policy, game: HoldemGame) -> None:
        native = native_game(game)
        if native is None or native != policy.game:
            raise ValueError(f"{game.spec} is not the ACPC gamedef of {policy.game.spec}")
        self.policy = policy
        self.native = native
        self._game = game

    def __repr__(self) -> str:
        return f"<NativePolicy {self.policy!r} on {self._game.spec}>"

    @property
    def game(self) -> HoldemGame:
        """The ACPC game it plays."""
        return self._game

    def action_probabilities(self, observation: Observation) -> Mapping[Action, float]:
        """The native policy's answer at the equivalent state, in Hold'em's actions."""
        state = native_state(self.native, observation.infoset_key, observation.seat)
        answer = self.policy.action_probabilities(state.observation(observation.seat))
        legal = observation.legal_actions
        if self.native.spec.name != "kuhn":
            return {a: float(answer.get(a, 0.0)) for a in legal}
        facing = FOLD in legal
        out = {a: 0.0 for a in legal}
        out[FOLD if facing else CALL] += float(answer.get(PASS, 0.0))
        out[CALL if facing else RAISE] += float(answer.get(BET, 0.0))
        return out


def native_agent(text: str, game: HoldemGame, *, seed: int | None = None) -> object | None:
    """The agent of a policy file for ``kuhn`` or ``leduc`` on its ACPC gamedef, else None.

    None when ``game`` is no such gamedef, or ``text`` is not a policy file of its native
    game (the one resolver then reads it as usual: a built-in, a file of the Hold'em
    configuration, an entrant).
    """
    from pathlib import Path

    from pokerlab.agents.policy_agent import PolicyAgent
    from pokerlab.agents.policy_files import POLICY_SUFFIXES, read_policy_file
    from pokerlab.play.names import check_name

    native = native_game(game)
    path = Path(text)
    if native is None or path.suffix not in POLICY_SUFFIXES or not path.is_file():
        return None
    policy = read_policy_file(path).policy
    if policy.game != native:
        return None
    name = check_name(path.stem, f"agent {text!r}")  # shown and logged
    return PolicyAgent(NativePolicy(policy, game), seed=seed, name=name)


__all__ = ["NATIVE", "NativePolicy", "native_agent", "native_game", "native_state"]
