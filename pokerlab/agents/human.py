"""A person at the keyboard: shows the table, reads a move, asks again on bad input.

:class:`HumanAgent` implements the Agent protocol for any game. It writes what its seat
sees to a text stream (stdout by default) and reads one line per decision from another
(stdin by default), so it works in a terminal, through a pipe or a pseudo-terminal.

Hold'em shows the hole cards and board with suit symbols, the pot, every seat's stack and
bet on this street, and the legal moves with their amounts::

    f = fold, c = call 4, r X = raise to X (min 8, max 200)

Other games (Kuhn, Leduc) list their legal actions by name; a move is typed as its name,
its first letter, or its number. ``q`` quits (raises :class:`HumanQuitError`). A bad entry is
answered with a one-line reason and the question is asked again.
"""

from __future__ import annotations

import sys
from typing import TextIO

from pokerlab._types import Action
from pokerlab.agents.base import HandResult
from pokerlab.cards import cards_pretty, parse_cards
from pokerlab.games.holdem import CALL, FOLD, HoldemGame, HoldemState
from pokerlab.games.observation import Observation
from pokerlab.games.registry import load
from pokerlab.play.dealer import DealerStop


class HumanQuitError(DealerStop):
    """The person asked to stop (typed ``q``) or the input ended."""


class HumanAgent:
    """A person choosing actions from a text stream.

    Args:
        input_stream: where moves are read (default: ``sys.stdin``).
        output: where the table and prompts are written (default: ``sys.stdout``).
        seat_names: how to call each seat in the table (default: ``"Seat k"``, ``"You"``).
    """

    def __init__(
        self,
        input_stream: TextIO | None = None,
        output: TextIO | None = None,
        *,
        seat_names: dict[int, str] | None = None,
    ) -> None:
        self.input = input_stream if input_stream is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.seat_names = dict(seat_names or {})
        self._games: dict[str, object] = {}

    def say(self, text: str = "") -> None:
        """Write a line to the output."""
        self.output.write(text + "\n")
        self.output.flush()

    def seat_name(self, seat: int, own: int) -> str:
        """The display name of ``seat`` (``"You"`` for the agent's own seat)."""
        if seat == own:
            return self.seat_names.get(seat, "You")
        return self.seat_names.get(seat, f"Seat {seat}")

    def _game(self, spec: str) -> object:
        if spec not in self._games:
            self._games[spec] = load(spec)
        return self._games[spec]

    def act(self, observation: Observation) -> Action:
        """Show the table, then read moves until one is legal.

        Raises:
            HumanQuitError: on ``q`` or at the end of the input.
        """
        game = self._game(observation.game)
        if isinstance(game, HoldemGame):
            state = game.public_state(observation)
            self.say(self.holdem_table(observation, state))
            prompt = holdem_moves(state)
        else:
            state = None
            self.say(self.generic_table(observation))
            prompt = ", ".join(
                f"{name[0]} = {name}" if _unique_initial(observation, name) else f"{a} = {name}"
                for a, name in zip(observation.legal_actions, observation.action_names, strict=True)
            )
        while True:
            self.output.write(f"Your move ({prompt}, q = quit): ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self.say()
                raise HumanQuitError("the input ended")
            text = line.strip().lower()
            if text in ("q", "quit", "exit"):
                raise HumanQuitError("you quit")
            try:
                if state is not None:
                    return parse_holdem_move(text, state)
                return parse_generic_move(text, observation)
            except ValueError as exc:
                self.say(f"  {exc}")

    def observe(self, result: Observation | HandResult) -> None:
        """Say how the hand went for this seat (updates during the hand are shown by ``act``)."""
        if not isinstance(result, HandResult):
            return
        won = result.returns[result.seat]
        if won:
            self.say(f"You {'won' if won > 0 else 'lost'} {abs(won):g} chips.")
        else:
            self.say("You broke even.")

    def holdem_table(self, observation: Observation, state: HoldemState) -> str:
        """The Hold'em table as the seat sees it (several lines)."""
        seat = observation.seat
        board = parse_cards(observation.board)
        lines = [
            "",
            f"Your cards: {cards_pretty(parse_cards(observation.private_cards))}"
            f"    Board: {cards_pretty(board) if board else '-'}    Pot: {state.pot}",
        ]
        n = state.game.n_players
        names = [self.seat_name(player, seat) for player in range(n)]
        width = max(len(name) for name in names)
        rules = state.game.rules
        blinds = [b if posts else 0 for b, posts in zip(rules.blinds_paid, rules.posts_blind,
                                                         strict=True)]
        posted = sorted({b for b in blinds if b})
        labels = {posted[0]: "SB", posted[-1]: "BB"} if len(posted) > 1 else {}
        for player in range(n):
            marks = []
            if player == n - 1:
                marks.append("button")
            if blinds[player] in labels:
                marks.append(labels[blinds[player]])
            if state.folded[player]:
                marks.append("folded")
            elif state.behind[player] == 0:
                marks.append("all-in")
            if player == state.player:
                marks.append("to act")
            name = names[player]
            lines.append(
                f"  {name:<{width}} stack {state.behind[player]:>6}   bet {state.bets[player]:>5}"
                + (f"   ({', '.join(marks)})" if marks else "")
            )
        return "\n".join(lines)

    def generic_table(self, observation: Observation) -> str:
        """What a seat of Kuhn, Leduc (or any game) sees, in a few lines."""
        history = ", ".join(
            name if p < 0 else f"{self.seat_name(p, observation.seat)}: {name}"
            for p, name in observation.public_history
        )
        lines = [
            "",
            f"Your card: {observation.private_cards or '-'}"
            + (f"    Board: {observation.board}" if observation.board else "")
            + f"    Pot: {observation.pot:g}",
            f"  So far: {history or '(nothing yet)'}",
        ]
        return "\n".join(lines)


def _unique_initial(observation: Observation, name: str) -> bool:
    return sum(1 for other in observation.action_names if other[0] == name[0]) == 1


def holdem_moves(state: HoldemState) -> str:
    """The legal moves as typed: ``"f = fold, c = call 4, r X = raise to X (min 8, max 200)"``."""
    moves = []
    if state.is_legal(FOLD):
        moves.append("f = fold")
    owed = state.to_call()
    moves.append(f"c = call {owed}" if owed else "c = check")
    bounds = state.raise_range()
    if bounds is not None:
        word = "raise" if max(state.bets) > 0 else "bet"
        if bounds[0] == bounds[1]:
            moves.append(f"r = {word} to {bounds[0]}")
        else:
            moves.append(f"r X = {word} to X (min {bounds[0]}, max {bounds[1]})")
    return ", ".join(moves)


def parse_holdem_move(text: str, state: HoldemState) -> Action:
    """The action typed in ``text`` (``f``, ``c``, ``k``, ``r 20``, ``b 20``, ``r all``).

    Raises:
        ValueError: with a one-line reason when the move is not understood or not legal.
    """
    words = text.replace("=", " ").split()
    if not words:
        raise ValueError(f"type a move: {holdem_moves(state)}")
    head = words[0]
    if head in ("f", "fold"):
        if not state.is_legal(FOLD):
            raise ValueError("no need to fold: checking is free (c = check)")
        return FOLD
    if head in ("c", "k", "call", "check"):
        return CALL
    if head in ("r", "b", "raise", "bet", "a", "allin", "all-in"):
        bounds = state.raise_range()
        if bounds is None:
            raise ValueError("raising is not allowed here; you may call or fold")
        if head in ("a", "allin", "all-in") or (len(words) > 1 and words[1] in ("all", "max")):
            amount = bounds[1]
        elif len(words) == 1:
            if bounds[0] != bounds[1]:
                raise ValueError(f"say how much: r X with X from {bounds[0]} to {bounds[1]}")
            amount = bounds[0]
        else:
            try:
                amount = int(words[1])
            except ValueError:
                raise ValueError(f"{words[1]!r} is not a number of chips") from None
        if not bounds[0] <= amount <= bounds[1]:
            if bounds[0] == bounds[1]:
                raise ValueError(f"the raise here is to {bounds[0]} exactly (r)")
            raise ValueError(
                f"raise to {amount} is not allowed: from {bounds[0]} to {bounds[1]}"
            )
        return state.action_for_raise_to(amount)
    raise ValueError(f"{text!r} is not a move; moves: {holdem_moves(state)}")


def parse_generic_move(text: str, observation: Observation) -> Action:
    """The legal action typed as its name, first letter or number.

    Raises:
        ValueError: with a one-line reason when no legal action matches.
    """
    for action, name in zip(observation.legal_actions, observation.action_names, strict=True):
        if text in (name, str(action)) or (
            len(text) == 1 and name.startswith(text) and _unique_initial(observation, name)
        ):
            return action
    legal = ", ".join(observation.action_names)
    raise ValueError(f"{text!r} is not a legal move; legal: {legal}")


__all__ = [
    "HumanAgent",
    "HumanQuitError",
    "holdem_moves",
    "parse_generic_move",
    "parse_holdem_move",
]
