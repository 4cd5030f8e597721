"""pokerlab hand records as PHH text: the actions of a history, the fields of a hand, the files.

See :mod:`pokerlab.interop.phh` for the format and what pokerlab adds to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.cards import cards_str
from pokerlab.errors import IllegalActionError, SpecError
from pokerlab.games.holdem import CALL, FOLD, HoldemGame, HoldemState
from pokerlab.interop._toml import toml_document
from pokerlab.interop.phh_rules import PhhHand, phh_game_fields


def phh_actions(game: HoldemGame, history: Sequence[Action]) -> list[str]:
    """The PHH ``actions`` of a finished hand's history (hole cards, betting, board, showdown).

    The showdown (``pN sm CARDS``, every player still in) comes where PHH puts it: when the
    betting is over for good, before the board cards still to come.

    Raises:
        PokerlabError: a history that is not a finished hand of ``game`` (an illegal action
            says which).
    """
    n = game.n_players
    rules = game.rules
    dealt = rules.n_hole_cards
    hole = tuple(history[:dealt])
    actions = [f"d dh p{p + 1} {cards_str(hole[p::n])}" for p in range(n)]
    state = game.initial_state()
    for card in hole:
        state = state.child(card)
    shown = False
    board: list[int] = []
    for action in history[dealt:]:
        if state.player == CHANCE:
            if state.runout and not shown:
                actions.extend(_showdown(state))
                shown = True
            state = state.child(action)
            board.append(action)
            if len(state.board) in rules.board_sizes:
                actions.append(f"d db {cards_str(board)}")
                board = []
            continue
        player = state.player
        if action == FOLD:
            actions.append(f"p{player + 1} f")
        elif action == CALL:
            actions.append(f"p{player + 1} cc")
        else:
            amount = state.raise_to_amount(action)
            state.child(action)  # checks the raise is legal before it is written
            actions.append(f"p{player + 1} cbr {amount}")
        state = state.child(action)
    if state.player != TERMINAL:
        raise IllegalActionError(f"the history stops before the hand's end ({len(history)} "
                                 "actions); a record holds a finished hand")
    if not shown and state.folded.count(False) > 1:
        actions.extend(_showdown(state))
    return actions


def _showdown(state: HoldemState) -> list[str]:
    return [f"p{p + 1} sm {cards_str(state.hole_cards(p))}"
            for p in range(state.game.n_players) if not state.folded[p]]


def phh_fields(hand: PhhHand) -> dict[str, object]:
    """Every field of ``hand``'s PHH file, in the order they are written."""
    game, record = hand.game, hand.record
    n = game.n_players
    if len(record.seats) != n or len(record.returns) != n:
        raise SpecError(f"hand {record.hand} has {len(record.seats)} seats; {game.spec} has {n}")
    if hand.players is not None and len(hand.players) != n:
        raise SpecError(f"hand {record.hand}: {len(hand.players)} player names for {n} seats")
    fields = phh_game_fields(game)
    fields["actions"] = phh_actions(game, record.history)
    fields["hand"] = record.hand
    if hand.event is not None:
        fields["event"] = hand.event
    if hand.players is not None:
        fields["players"] = list(hand.players)
    stacks = game.rules.starting_stacks
    fields["finishing_stacks"] = [int(s + r) for s, r in zip(stacks, record.returns, strict=True)]
    fields["_pokerlab_game"] = str(game.spec)
    fields["_deal"] = record.deal
    fields["_seats"] = list(record.seats)
    if record.events:
        fields["_faults"] = [
            {"hand": e.hand, "seat": e.seat, "agent": e.agent, "kind": e.kind,
             "detail": e.detail, "action": e.action}
            for e in record.events
        ]
    if record.seconds:
        fields["_seconds"] = [float(s) for s in record.seconds]
    if record.decisions:
        fields["_decisions"] = list(record.decisions)
    return fields


def dumps_phh(hand: PhhHand) -> str:
    """``hand`` as the text of a ``.phh`` file.

    Raises:
        SpecError: a game PHH cannot express, or names that do not fit the seats.
    """
    return toml_document(phh_fields(hand), long_arrays=("actions",))


def dumps_phhs(hands: Iterable[PhhHand]) -> str:
    """Many hands as the text of a ``.phhs`` file: tables ``[1]``, ``[2]``..., one per hand."""
    return "\n".join(f"[{k}]\n{dumps_phh(hand)}" for k, hand in enumerate(hands, start=1))


__all__ = ["dumps_phh", "dumps_phhs", "phh_actions", "phh_fields"]
