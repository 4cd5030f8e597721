"""Web tables: a person in one seat against bots, every hand played by the library's dealer.

A :class:`Table` is one browser session's table, found by an unguessable token. Its hands
are played by :func:`pokerlab.eval.dealer.deal_hand` (Hold'em through
:func:`pokerlab.eval.session.play_session_hand`) in a worker thread of the table:

1. the person's seat is an agent (:class:`_BrowserSeat`) whose ``act`` parks the
   observation as the table's *pending* decision and waits for a move;
2. a move from the browser (:meth:`Table.submit`) is checked against that observation (it
   must be the person's turn, the move legal, a raise inside the legal range): a bad move
   is refused with the reason and changes nothing;
3. the dealer's events go to the table's listener, which keeps the latest state and the
   hand history and wakes whoever waits on the table (the action request, the WebSocket);
4. the page gets only :meth:`Table.view`: the person's own cards, the board, chips and
   pots; another seat's cards appear only once the hand is over and they were shown.

Bots are called with a time limit: a bot that crashes or does not answer in time is a
fault of the dealer, which plays the default action, so the table never stalls.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pokerlab._types import TERMINAL, Action, Player
from pokerlab.cards import describe
from pokerlab.errors import PokerlabError
from pokerlab.eval.dealer import (
    ActionTaken,
    ChanceDealt,
    DealerEvent,
    DealerStop,
    DealStream,
    HandEnded,
    InProcessConnection,
    connect,
    deal_hand,
    showdown_cards,
)
from pokerlab.eval.records import FaultEvent
from pokerlab.eval.session import play_session_hand
from pokerlab.games.base import Game, State
from pokerlab.games.holdem import FOLD, HoldemState
from pokerlab.games.holdem_pots import build_pots
from pokerlab.games.holdem_session import HandSetup, HoldemSession
from pokerlab.games.observation import Observation
from pokerlab.strategy import Strategy

IDLE_SECONDS = 1800.0
"""A table whose person has not moved for this long is closed (its thread ends)."""
HISTORY_LINES = 400
"""The hand history keeps this many lines (the oldest go first)."""
POT_FRACTIONS = ((1, 3), (1, 2), (2, 3), (1, 1))
"""The pot-fraction raise buttons: a third, half, two thirds and the whole pot."""


class WebRequestError(PokerlabError, ValueError):
    """A request the table refuses: ``status`` is the HTTP status to answer (4xx)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _cards(text: str) -> list[str]:
    """``"AsKd"`` -> ``["As", "Kd"]``; one-character cards (Kuhn, Leduc) stay whole."""
    if len(text) % 2 == 0 and all(text[i + 1] in "cdhs" for i in range(0, len(text), 2)):
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return list(text)


@dataclass
class _Waiter:
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event


@dataclass
class _BotDecision:
    """A bot's decision of the current hand, kept to show its strategy after a showdown."""

    player: Player
    infoset_key: str
    probabilities: dict[str, float]
    by_card: dict[str, dict[str, float]]  # the same public spot, for every card it may hold


@dataclass
class SessionResult:
    """The person's running result at a table, in chips (and big blinds in Hold'em)."""

    hands: int = 0
    chips: float = 0.0
    per_hand: list[float] = field(default_factory=list)


class _BrowserSeat:
    """The person's agent: its decision waits for the browser's move."""

    name = "you"

    def __init__(self, table: Table) -> None:
        self.table = table

    def act(self, observation: Observation) -> Action:
        """Park ``observation`` as the pending decision and wait for the move."""
        return self.table._wait_for_move(observation)


class Table:
    """One person's table: its seats, the hand in play, the history and the result.

    Subclasses say how a hand is set up and played (:class:`HoldemTable`,
    :class:`SmallGameTable`); this class holds the locking, the waiting and the moves.
    """

    kind = "table"

    def __init__(self, *, token: str, bot_time_limit: float, idle_seconds: float) -> None:
        self.token = token
        self.bot_time_limit = bot_time_limit
        self.idle_seconds = idle_seconds
        self.version = 0
        self.last_used = time.monotonic()
        self.closed = False
        self.hand_running = False
        self.show_strategy = False
        self.message = ""
        self.history: list[str] = []
        self.result = SessionResult()
        self._cond = threading.Condition()
        self._waiters: list[_Waiter] = []
        self._pending: Observation | None = None
        self._move: Action | None = None
        self._state: State | None = None
        self._thread: threading.Thread | None = None

    # -- what subclasses provide ------------------------------------------------------------

    def _play_hand(self) -> None:
        """Play one hand through the dealer (runs in the table's thread)."""
        raise NotImplementedError

    def _view(self) -> dict[str, object]:
        """The table as the person may see it (called with the lock held)."""
        raise NotImplementedError

    def _parse_move(self, observation: Observation, body: Mapping[str, object]) -> Action:
        """The action a move request asks for, checked against ``observation``.

        Raises:
            WebRequestError: 400 when the move is not one of the legal ones.
        """
        raise NotImplementedError

    @property
    def can_deal(self) -> bool:
        """True when another hand may start."""
        return not self.closed

    # -- the person's moves -------------------------------------------------------------------

    def _wait_for_move(self, observation: Observation) -> Action:
        with self._cond:
            self._pending = observation
            self._move = None
            self._bump()
            answered = self._cond.wait_for(
                lambda: self._move is not None or self.closed, timeout=self.idle_seconds
            )
            move = self._move
            self._pending = None
            self._move = None
            if not answered or move is None:
                self.closed = True
                self._bump()
                raise DealerStop("the table was left idle and closed")
            return move

    def submit(self, body: Mapping[str, object]) -> int:
        """Hand the person's move to the dealer; return the table's version before it.

        Raises:
            WebRequestError: 409 when it is not the person's turn, 400 for a move that is
                not legal (nothing changes in either case).
        """
        with self._cond:
            self.last_used = time.monotonic()
            if self.closed:
                raise WebRequestError(409, "this table is closed; start a new one")
            if self._pending is None or self._move is not None:
                raise WebRequestError(
                    409, "it is not your turn: wait for your turn (or deal the next hand)"
                )
            expected = body.get("version")
            if expected is not None and expected != self.version:
                raise WebRequestError(
                    409, f"this move was made on an old view (version {expected!r}); "
                    f"the table is at version {self.version}: reload it"
                )
            action = self._parse_move(self._pending, body)
            self._move = action
            version = self.version
            self._cond.notify_all()
            return version

    def deal(self) -> int:
        """Start the next hand in the table's thread; return the version before it.

        Raises:
            WebRequestError: 409 while a hand is in play or when no hand can be dealt.
        """
        with self._cond:
            self.last_used = time.monotonic()
            if self.hand_running:
                raise WebRequestError(409, "a hand is in play: finish it first")
            if not self.can_deal:
                raise WebRequestError(409, "the session is over: start a new table")
            self.hand_running = True
            self.message = ""
            version = self.version
            self._bump()
        self._thread = threading.Thread(
            target=self._run_hand, name=f"pokerlab-table-{self.kind}", daemon=True
        )
        self._thread.start()
        return version

    def _run_hand(self) -> None:
        try:
            self._play_hand()
        except DealerStop:
            pass
        except PokerlabError as exc:  # a rule the dealer refused: shown, the table stops
            with self._cond:
                self.message = f"the hand stopped: {exc}"
                self.closed = True
        finally:
            with self._cond:
                self.hand_running = False
                self._bump()

    def close(self) -> None:
        """Stop the table: a waiting decision ends and the thread finishes."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()
            self._bump()

    # -- waking the async side ----------------------------------------------------------------

    def _bump(self) -> None:
        """Count a change and wake the async waiters (called with the lock held)."""
        self.version += 1
        for waiter in self._waiters:
            waiter.loop.call_soon_threadsafe(waiter.event.set)
        self._waiters.clear()

    @property
    def settled(self) -> bool:
        """True when the table waits for the person (a decision, or the next deal)."""
        with self._cond:
            return self._pending is not None or not self.hand_running or self.closed

    async def changed(self, version: int, timeout: float) -> None:
        """Return once the table's version is past ``version``, or after ``timeout`` s."""
        waiter = _Waiter(asyncio.get_running_loop(), asyncio.Event())
        with self._cond:
            if self.version != version:
                return
            self._waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter.event.wait(), timeout)
        except TimeoutError:
            pass
        finally:
            with self._cond:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)

    async def settle(self, after: int, timeout: float) -> None:
        """Wait until the table moved past version ``after`` and waits for the person."""
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                version = self.version
                done = version > after and (
                    self._pending is not None or not self.hand_running or self.closed
                )
            left = deadline - time.monotonic()
            if done or left <= 0:
                return
            await self.changed(version, left)

    def view(self) -> dict[str, object]:
        """The table as its person may see it, as JSON-ready data."""
        with self._cond:
            data = self._view()
            pending = self._pending
            data.update(
                kind=self.kind,
                version=self.version,
                your_turn=pending is not None and not self.closed,
                hand_running=self.hand_running,
                can_deal=not self.hand_running and self.can_deal,
                closed=self.closed,
                message=self.message or self._over_message(),
                history=list(self.history),
                show_strategy=self.show_strategy,
            )
            return data

    def _over_message(self) -> str:
        """Why no hand can be dealt, when none can (called with the lock held)."""
        if not self.hand_running and not self.closed and not self.can_deal:
            return "the session is over (you or every bot is out of chips): start a new table"
        return ""

    def set_show_strategy(self, show: bool) -> None:
        """Turn the "show the bot's strategy here" display on or off."""
        with self._cond:
            self.show_strategy = show
            self._bump()

    def _say(self, line: str) -> None:
        self.history.append(line)
        if len(self.history) > HISTORY_LINES:
            del self.history[: len(self.history) - HISTORY_LINES]


# -- Hold'em --------------------------------------------------------------------------------


class HoldemTable(Table):
    """A session of Hold'em: 2 to 9 seats, stacks carried over, the button moving round.

    Args:
        token: the table's token.
        user_seat: the person's table seat.
        bots: the bot of every other seat (None in the person's seat), built for the game.
        bot_names: the display name of every seat.
        session: the table's books (:class:`~pokerlab.games.holdem_session.HoldemSession`).
        seed: the deal's seed (hand ``k`` is deal ``k`` of it).
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
        super().__init__(token=token, bot_time_limit=bot_time_limit, idle_seconds=idle_seconds)
        self.user_seat = user_seat
        self.session = session
        self.seed = seed
        self.names = list(bot_names)
        self.big_blind = session.blinds[1]
        browser = InProcessConnection(_BrowserSeat(self))
        self._connections = [
            browser if seat == user_seat else connect(bot, time_limit=bot_time_limit)
            for seat, bot in enumerate(bots)
        ]
        self._setup: HandSetup | None = None
        self._last_pots: list[dict[str, object]] = []
        self._stacks_before = list(session.stacks)

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
            setup = self._setup
            self._say(f"--- Hand {setup.number}: button {self.names[setup.button]} ---")
            self._bump()
        # play_session_hand starts the same hand again: start_hand only reads the books.
        outcome, _ = play_session_hand(
            self.session, self._connections, seed=self.seed, listeners=[self._listen]
        )
        with self._cond:
            won = outcome.seat_returns[self.user_seat]
            self.result.hands += 1
            self.result.chips += won
            self.result.per_hand.append(float(won))
            self._bump()

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
            self._bump()

    def _summarize(self, state: HoldemState) -> None:
        settlement = state.settle()
        shown = showdown_cards(state)
        for player in settlement.showdown:
            self._say(f"{self._name(player)} shows {shown[player]} "
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
            pot_after_call = state.pot + owed
            for num, den in POT_FRACTIONS:
                amount = max(state.bets) + pot_after_call * num // den
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
        over = state is not None and state.player == TERMINAL
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
                    entry["cards"] = _cards(state.private_cards(player))
                elif over and shown and shown[player]:
                    entry["cards"] = _cards(shown[player])
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
            "board": _cards(state.board_cards()) if isinstance(state, HoldemState) else [],
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


# -- Kuhn and Leduc -------------------------------------------------------------------------


class SmallGameTable(Table):
    """Heads-up hands of Kuhn or Leduc (any variant) against one bot; seats alternate.

    Args:
        token: the table's token.
        game: the game (two players).
        bot: the bot (its ``policy``, when it has one, feeds the strategy display).
        bot_name: how the bot is called.
        seed: the deal's seed.
        bot_time_limit: seconds the bot may think per decision.
        idle_seconds: how long the table waits for the person.
    """

    kind = "small"

    def __init__(
        self,
        *,
        token: str,
        game: Game,
        bot: object,
        bot_name: str,
        seed: int,
        bot_time_limit: float,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        super().__init__(token=token, bot_time_limit=bot_time_limit, idle_seconds=idle_seconds)
        self.game = game
        self.bot = bot
        self.bot_name = bot_name
        self.seed = seed
        self.hands = 0
        self.user_player: Player = 0
        self._browser = InProcessConnection(_BrowserSeat(self))
        self._bot = connect(bot, time_limit=bot_time_limit)
        self._bot_decisions: list[_BotDecision] = []
        self._suffixes: dict[str, list[str]] | None = None  # public part -> private cards

    def _policy_probabilities(self, observation: Observation) -> dict[str, float] | None:
        policy = getattr(self.bot, "policy", None)
        if policy is None or not hasattr(policy, "action_probabilities"):
            return None
        try:
            probabilities = policy.action_probabilities(observation)
        except PokerlabError:
            return None
        names = dict(zip(observation.legal_actions, observation.action_names, strict=True))
        return {names[a]: float(p) for a, p in probabilities.items() if a in names}

    def _by_card(self, state: State, infoset_key: str) -> dict[str, dict[str, float]]:
        """The bot's strategy at this public spot for each private card it may hold.

        Only a tabular strategy answers (its infoset keys are ``card|public part``); the
        table shows it while the hand is on, as it names no card the bot holds.
        """
        policy = getattr(self.bot, "policy", None)
        if not isinstance(policy, Strategy) or "|" not in infoset_key:
            return {}
        if self._suffixes is None:
            self._suffixes = {}
            for key in policy.tree.infoset_keys:
                card, _, public = str(key).partition("|")
                self._suffixes.setdefault(public, []).append(card)
        public = infoset_key.partition("|")[2]
        rows: dict[str, dict[str, float]] = {}
        for card in self._suffixes.get(public, []):
            probabilities = policy.probabilities(f"{card}|{public}")
            rows[card] = {state.action_name(a): p for a, p in probabilities.items()}
        return rows

    def _play_hand(self) -> None:
        with self._cond:
            self.hands += 1
            self.user_player = (self.hands - 1) % 2  # the person alternates seats
            self._bot_decisions = []
            self._state = self.game.initial_state()
            self._say(f"--- Hand {self.hands}: you are P{self.user_player + 1} ---")
            self._bump()
        seats = [self._browser, self._bot] if self.user_player == 0 \
            else [self._bot, self._browser]
        record, _ = deal_hand(
            self.game, seats, chance=DealStream(self.seed, self.hands), hand=self.hands,
            deal=self.hands, listeners=[self._listen],
        )
        with self._cond:
            won = record.returns[self.user_player]
            self.result.hands += 1
            self.result.chips += won
            self.result.per_hand.append(won)
            self._bump()

    def _who(self, player: Player) -> str:
        return "You" if player == self.user_player else self.bot_name

    def _listen(self, event: DealerEvent) -> None:
        with self._cond:
            if isinstance(event, ActionTaken):
                previous = self._state
                if event.seat != self.user_player and previous is not None:
                    view = previous.observation(event.seat)
                    probabilities = self._policy_probabilities(view) or {}
                    self._bot_decisions.append(_BotDecision(
                        event.seat, view.infoset_key, probabilities,
                        self._by_card(previous, view.infoset_key)))
                self._state = event.state
                self._say(f"{self._who(event.seat)}: {event.name}")
            elif isinstance(event, ChanceDealt):
                previous = self._state
                self._state = event.state
                if previous is not None:
                    public = previous.public_event(event.outcome, event.state)
                    if public is not None and public[0] < 0:
                        self._say(public[1])
            elif isinstance(event, FaultEvent):
                self._say(f"{self.bot_name} failed to act ({event.kind}); the dealer played "
                          "the default action")
            elif isinstance(event, HandEnded):
                self._state = event.state
                shown = showdown_cards(event.state)
                if shown[1 - self.user_player]:
                    self._say(f"{self.bot_name} shows {shown[1 - self.user_player]}")
                won = event.record.returns[self.user_player]
                self._say(f"You {'won' if won > 0 else 'lost' if won < 0 else 'drew'} "
                          f"{abs(won):g}")
            self._bump()

    def _parse_move(self, observation: Observation, body: Mapping[str, object]) -> Action:
        move = body.get("move")
        for action, name in zip(observation.legal_actions, observation.action_names,
                                strict=True):
            if move == name:
                return action
        raise WebRequestError(400, f"move {move!r} is not legal here; legal: "
                              f"{', '.join(observation.action_names)}")

    def _view(self) -> dict[str, object]:
        state = self._state
        over = state is not None and state.player == TERMINAL
        you = self.user_player
        bot = 1 - you
        cards: list[str] = []
        board: list[str] = []
        committed: tuple[float, ...] = (0.0, 0.0)
        stacks: tuple[float, ...] | None = None
        bot_cards: list[str] = []
        if state is not None:
            mine = state.observation(you)
            cards = _cards(mine.private_cards)
            board = _cards(mine.board)
            committed = mine.committed
            stacks = mine.stacks
            if over:
                shown = showdown_cards(state)
                bot_cards = _cards(shown[bot]) if shown[bot] else []
        strategy: dict[str, object] | None = None
        pending = self._pending
        if self.show_strategy:
            has_policy = getattr(self.bot, "policy", None) is not None
            strategy = {"available": has_policy, "here": None, "bot_decisions": [],
                        "bot_last": None}
            if self._bot_decisions and self._bot_decisions[-1].by_card:
                last = self._bot_decisions[-1]
                strategy["bot_last"] = {"public": last.infoset_key.partition("|")[2],
                                        "by_card": last.by_card}
            if pending is not None and has_policy:
                strategy["here"] = {"infoset": pending.infoset_key,
                                    "probabilities": self._policy_probabilities(pending)}
            if over and bot_cards:  # its cards are public now: show what it was playing
                strategy["bot_decisions"] = [
                    {"infoset": d.infoset_key, "probabilities": d.probabilities}
                    for d in self._bot_decisions
                ]
        return {
            "game": str(self.game.spec),
            "hand": self.hands,
            "you": you,
            "bot_name": self.bot_name,
            "cards": cards,
            "bot_cards": bot_cards if over else (["??"] if state is not None else []),
            "board": board,
            "committed": list(committed),
            "stacks": list(stacks) if stacks is not None else None,
            "pot": float(sum(committed)),
            "legal": list(pending.action_names) if pending is not None else None,
            "hand_over": over,
            "strategy": strategy,
            "result": {"hands": self.result.hands, "chips": self.result.chips},
        }


# -- the registry of tables -----------------------------------------------------------------


TableFactory = Callable[[str], Table]


class TableRegistry:
    """The open tables by token; refuses new ones past ``max_tables``; drops idle ones."""

    def __init__(self, *, max_tables: int = 256, idle_seconds: float = IDLE_SECONDS) -> None:
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    def open(self, factory: TableFactory) -> Table:
        """Build a table with a fresh token and keep it.

        Raises:
            WebRequestError: 503 when ``max_tables`` tables are open.
        """
        self._drop_idle()
        with self._lock:
            if len(self._tables) >= self.max_tables:
                raise WebRequestError(
                    503, f"the server has {self.max_tables} open tables, its limit; "
                    "try again later")
            token = secrets.token_urlsafe(24)
            table = factory(token)
            self._tables[token] = table
            return table

    def get(self, token: str) -> Table:
        """The table of ``token``.

        Raises:
            WebRequestError: 404 for an unknown (or expired) token.
        """
        with self._lock:
            table = self._tables.get(token)
        if table is None:
            raise WebRequestError(404, "no table has this token (it may have expired): "
                                  "start a new table")
        return table

    def _drop_idle(self) -> None:
        now = time.monotonic()
        with self._lock:
            idle = [t for t, table in self._tables.items()
                    if table.closed or now - table.last_used > self.idle_seconds]
            dropped = [self._tables.pop(token) for token in idle]
        for table in dropped:
            table.close()

    def close_all(self) -> None:
        """Close every table (at server shutdown)."""
        with self._lock:
            tables = list(self._tables.values())
            self._tables.clear()
        for table in tables:
            table.close()

    def __len__(self) -> int:
        with self._lock:
            return len(self._tables)


__all__ = [
    "HoldemTable",
    "SessionResult",
    "SmallGameTable",
    "Table",
    "TableRegistry",
    "WebRequestError",
]
