"""The Hold'em table: a session of 2 to 9 seats, the person in one, bots in the others.

Every hand is played by :func:`pokerlab.play.session.play_session_hand` (the library's
dealer); this module renders its events for the person's seat: the seats, the board, the
pot and side pots, the legal moves with the raise range and pot-fraction amounts, the
showdown and the session's result in chips and big blinds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pokerlab._types import TERMINAL, Action, Player
from pokerlab.cards import describe
from pokerlab.games.bet_sizes import POT, BetContext, BetSize, size_amount
from pokerlab.games.holdem import FOLD, HoldemGame, HoldemState
from pokerlab.games.holdem_pots import build_pots
from pokerlab.games.holdem_session import HandSetup, HoldemSession
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import (
    ActionTaken,
    ChanceDealt,
    DealerEvent,
    HandEnded,
    InProcessConnection,
    connect,
    showdown_cards,
)
from pokerlab.play.records import FaultEvent, HandRecord
from pokerlab.play.session import play_session_hand
from pokerlab.web.tables import IDLE_SECONDS, BrowserSeat, Table, WebRequestError, card_list

POT_FRACTIONS = ((1, 3), (1, 2), (2, 3), (1, 1))
"""The pot-fraction raise buttons: a third, half, two thirds and the whole pot."""


class HoldemTable(Table):
    """A session of Hold'em: 2 to 9 seats, stacks carried over, the button moving round.

    Args:
        token: the table's token.
        user_seat: the person's table seat.
        bots: the bot of every other seat (None in the person's seat), built for the game.
        bot_names: the display name of every seat.
        session: the table's books (:class:`~pokerlab.games.holdem_session.HoldemSession`).
        seed: the deal seed, the server's secret (hand ``k`` is deal ``k`` of it).
        bot_time_limit: seconds a bot may think per decision.
        idle_seconds: how long the table waits for the person.
    """

    kind = "holdem"

    def __init__(
        self,
        *,
        token: str,
        user_seat: int,
        bots: Sequence[object | None],
        bot_names: Sequence[str],
        session: HoldemSession,
        seed: int,
        bot_time_limit: float,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        super().__init__(token=token, seed=seed, bot_time_limit=bot_time_limit,
                         idle_seconds=idle_seconds)
        self.user_seat = user_seat
        self.session = session
        self.names = list(bot_names)
        self.big_blind = session.blinds[1]
        browser = InProcessConnection(BrowserSeat(self))
        self._connections = [
            browser if seat == user_seat else connect(bot, time_limit=bot_time_limit)
            for seat, bot in enumerate(bots)
        ]
        self._setup: HandSetup | None = None
        self._last_pots: list[dict[str, object]] = []
        self._stacks_before = list(session.stacks)
        self.session_hands: list[tuple[HoldemGame, HandRecord]] = []
        """Every finished hand: its game and record (seats are table seats), for PHH."""

    @property
    def can_deal(self) -> bool:
        """A hand may start while the table is open, two seats have chips, the person too."""
        return not self.closed and not self.session.is_over \
            and self.session.stacks[self.user_seat] > 0

    def _play_hand(self) -> None:
        with self._cond:
            self._setup = self.session.start_hand()
            self._state = self._setup.game.initial_state()
            self._stacks_before = list(self.session.stacks)
            self._last_pots = []
            self._ended = False
            setup = self._setup
            self._say(f"--- Hand {setup.number}: button {self.names[setup.button]} ---")
            self._bump()
        # play_session_hand starts the same hand again: start_hand only reads the books.
        # The hand's end (showdown, pots, result) is recorded by the HandEnded event.
        play_session_hand(
            self.session, self._connections, seed=self.seed, listeners=[self._listen]
        )

    def _name(self, player: Player) -> str:
        assert self._setup is not None
        return self.names[self._setup.seats[player]]

    def _listen(self, event: DealerEvent) -> None:
        with self._cond:
            if isinstance(event, ActionTaken):
                self._state = event.state
                self._say(f"{self._name(event.seat)}: {event.name}")
            elif isinstance(event, ChanceDealt):
                previous = self._state
                self._state = event.state
                assert isinstance(event.state, HoldemState)
                if previous is not None and isinstance(previous, HoldemState):
                    public = previous.public_event(event.outcome, event.state)
                    if public is not None:
                        self._say(public[1])
            elif isinstance(event, FaultEvent):
                # The detail may quote the bot's view: only the kind is shown.
                self._say(f"{self._name(event.seat)} failed to act ({event.kind}); the dealer "
                          "played the default action")
            elif isinstance(event, HandEnded):
                self._state = event.state
                assert isinstance(event.state, HoldemState)
                self._summarize(event.state)
                if self._setup is not None:
                    self.session_hands.append((self._setup.game, event.record))
                # Over only now, in the same version as the showdown and the result: a
                # view with hand_over never lacks the hand's end.
                self._ended = True
            self._bump()

    def _summarize(self, state: HoldemState) -> None:
        """Write the showdown, the pots and the person's result (called with the lock held)."""
        settlement = state.settle()
        shown = showdown_cards(state)
        assert self._setup is not None
        for player in settlement.showdown:
            verb = "show" if self._setup.seats[player] == self.user_seat else "shows"
            self._say(f"{self._name(player)} {verb} {shown[player]} "
                      f"({describe(settlement.hand_values[player])})")
        self._last_pots = []
        for index, pot in enumerate(settlement.pots):
            label = "pot" if len(settlement.pots) == 1 else "main pot" if index == 0 \
                else f"side pot {index}"
            winners = ", ".join(f"{self._name(w)} +{s}"
                                for w, s in zip(pot.winners, pot.shares, strict=True))
            self._say(f"{label} of {pot.amount}: {winners}")
            self._last_pots.append({
                "label": label, "amount": pot.amount,
                "winners": [self._setup.seats[w] for w in pot.winners] if self._setup else [],
            })
        assert self._setup is not None
        you = self._setup.player_of(self.user_seat)
        assert you is not None  # a hand is dealt only while the person has chips
        won = settlement.returns[you]
        self.result.hands += 1
        self.result.chips += won
        self.result.per_hand.append(float(won))

    def _parse_move(self, observation: Observation, body: Mapping[str, object]) -> Action:
        state = self._decision_state(observation)
        move = body.get("move")
        if move == "fold":
            if not state.is_legal(FOLD):
                raise WebRequestError(400, "fold is not legal here: checking is free; "
                                      "legal: " + self._legal_text(state))
            return FOLD
        if move in ("call", "check"):
            return 1
        if move in ("raise", "bet"):
            bounds = state.raise_range()
            if bounds is None:
                raise WebRequestError(400, "raising is not legal here; legal: "
                                      + self._legal_text(state))
            amount = body.get("amount")
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise WebRequestError(
                    400, f"a raise needs an integer amount (raise to) from {bounds[0]} to "
                    f"{bounds[1]}; got {amount!r}")
            if not bounds[0] <= amount <= bounds[1]:
                raise WebRequestError(
                    400, f"raise to {amount} is outside the legal range {bounds[0]} to "
                    f"{bounds[1]}")
            return state.action_for_raise_to(amount)
        raise WebRequestError(400, f"move {move!r} is not a move; moves: fold, check, call, "
                              "bet, raise (with an amount); legal now: "
                              + self._legal_text(state))

    def _decision_state(self, observation: Observation) -> HoldemState:
        assert self._setup is not None
        return self._setup.game.public_state(observation)

    @staticmethod
    def _legal_text(state: HoldemState) -> str:
        words = []
        if state.is_legal(FOLD):
            words.append("fold")
        owed = state.to_call()
        words.append(f"call {owed}" if owed else "check")
        bounds = state.raise_range()
        if bounds is not None:
            words.append(f"raise to {bounds[0]}..{bounds[1]}")
        return ", ".join(words)

    def _legal(self, state: HoldemState) -> dict[str, object]:
        """The person's legal moves, with the raise range and the pot-fraction amounts."""
        owed = state.to_call()
        bounds = state.raise_range()
        legal: dict[str, object] = {
            "fold": state.is_legal(FOLD),
            "call": owed,
            "raise": None,
            "presets": [],
        }
        if bounds is not None:
            low, high = bounds
            word = "raise" if max(state.bets) > 0 else "bet"
            legal["raise"] = {"min": low, "max": high, "word": word}
            presets: list[dict[str, object]] = []
            context = BetContext(state.street, state.to_act, max(state.bets), state.pot, owed,
                                 low, high)
            for num, den in POT_FRACTIONS:  # the one rule of bet sizes: halves round up
                amount = size_amount(BetSize(POT, num / den), context)
                assert amount is not None
                amount = min(max(amount, low), high)
                label = "all-in" if amount == high else "pot" if num == den \
                    else f"{num}/{den} pot"
                if all(p["amount"] != amount for p in presets):
                    presets.append({"label": label, "amount": amount})
            if all(p["amount"] != high for p in presets):
                presets.append({"label": "all-in", "amount": high})
            legal["presets"] = presets
        return legal

    def _view(self) -> dict[str, object]:
        setup, state = self._setup, self._state
        # Not state.player == TERMINAL: the last action reaches the terminal state before the
        # dealer's HandEnded event has written the showdown and the pots.
        over = self._ended and state is not None and state.player == TERMINAL
        seats = []
        shown: tuple[str, ...] = ()
        final: tuple[int, ...] = ()
        if isinstance(state, HoldemState) and over:
            shown = showdown_cards(state)
            final = state.settle().final_stacks
        for seat in range(self.session.n_seats):
            player = setup.player_of(seat) if setup is not None else None
            entry: dict[str, object] = {
                "seat": seat, "name": self.names[seat], "you": seat == self.user_seat,
                "stack": self.session.stacks[seat], "bet": 0, "in_hand": False,
                "folded": False, "all_in": False, "button": setup is not None
                and setup.button == seat, "to_act": False, "cards": [],
            }
            if player is not None and isinstance(state, HoldemState):
                entry.update(
                    stack=state.behind[player], bet=state.bets[player], in_hand=True,
                    folded=state.folded[player],
                    all_in=state.behind[player] == 0 and not state.folded[player],
                    to_act=state.player == player,
                )
                if over:  # the pots are paid: the stacks after the hand, no bets left
                    entry.update(stack=final[player], bet=0)
                if seat == self.user_seat:
                    entry["cards"] = card_list(state.private_cards(player))
                elif over and shown and shown[player]:
                    entry["cards"] = card_list(shown[player])
                elif not over and not state.folded[player]:
                    entry["cards"] = ["??"] * len(state.hole_cards(player))
            seats.append(entry)
        pots: list[dict[str, object]] = []
        legal = None
        if isinstance(state, HoldemState) and setup is not None:
            if over:
                pots = list(self._last_pots)
            else:
                antes = setup.game.rules.antes_paid
                layered = [c - b - a for c, b, a in
                           zip(state.committed, state.bets, antes, strict=True)]
                live = [p for p in range(len(layered)) if not state.folded[p]]
                for index, (amount, eligible) in enumerate(build_pots(layered, sum(antes), live)):
                    pots.append({"label": "pot" if index == 0 else f"side pot {index}",
                                 "amount": amount,
                                 "eligible": [setup.seats[p] for p in eligible]})
            if self._pending is not None:
                legal = self._legal(self._decision_state(self._pending))
        return {
            "hand": setup.number if setup is not None else 0,
            "seats": seats,
            "board": card_list(state.board_cards()) if isinstance(state, HoldemState) else [],
            "pot": state.pot if isinstance(state, HoldemState) else 0,
            "pots": pots,
            "legal": legal,
            "hand_over": over,
            "big_blind": self.big_blind,
            "result": {
                "hands": self.result.hands,
                "chips": self.result.chips,
                "big_blinds": self.result.chips / self.big_blind,
            },
        }


__all__ = ["POT_FRACTIONS", "HoldemTable"]
