"""The Kuhn and Leduc table: heads-up hands against one bot, seats alternating.

Any variant of the two games (``kuhn(cards=100)``, ``leduc(stack=50, raise_cap=None)``)
against a built-in agent or a strategy file. With the strategy display on, the page shows
the bot's probabilities at the person's infoset, its last decision for every card it may
hold (which names none), and after a showdown the infosets it actually played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pokerlab._types import TERMINAL, Action, Player
from pokerlab.errors import PokerlabError
from pokerlab.games.base import Game, State
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import (
    ActionTaken,
    ChanceDealt,
    DealerEvent,
    DealStream,
    HandEnded,
    InProcessConnection,
    connect,
    deal_hand,
    showdown_cards,
)
from pokerlab.play.records import FaultEvent
from pokerlab.strategy import Strategy
from pokerlab.web.tables import IDLE_SECONDS, BrowserSeat, Table, WebRequestError, card_list


@dataclass
class _BotDecision:
    """A bot's decision of the current hand, kept to show its strategy after a showdown."""

    player: Player
    infoset_key: str
    probabilities: dict[str, float]
    by_card: dict[str, dict[str, float]]  # the same public spot, for every card it may hold


class SmallGameTable(Table):
    """Heads-up hands of Kuhn or Leduc (any variant) against one bot; seats alternate.

    Args:
        token: the table's token.
        game: the game (two players).
        bot: the bot (its ``policy``, when it has one, feeds the strategy display).
        bot_name: how the bot is called.
        seed: the deal seed, the server's secret (hand ``k`` is deal ``k`` of it).
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
        super().__init__(token=token, seed=seed, bot_time_limit=bot_time_limit,
                         idle_seconds=idle_seconds)
        self.game = game
        self.bot = bot
        self.bot_name = bot_name
        self.hands = 0
        self.user_player: Player = 0
        self._browser = InProcessConnection(BrowserSeat(self))
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
            self._ended = False
            self._state = self.game.initial_state()
            self._say(f"--- Hand {self.hands}: you are P{self.user_player + 1} ---")
            self._bump()
        seats = [self._browser, self._bot] if self.user_player == 0 \
            else [self._bot, self._browser]
        # The hand's end (the bot's cards, the result) is recorded by the HandEnded event.
        deal_hand(
            self.game, seats, chance=DealStream(self.seed, self.hands), hand=self.hands,
            deal=self.hands, listeners=[self._listen],
        )

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
                self.result.hands += 1
                self.result.chips += won
                self.result.per_hand.append(won)
                self._ended = True  # over in the same version as the hand's end
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
        # Not state.player == TERMINAL alone: the last action reaches the terminal state
        # before the dealer's HandEnded event has written the hand's end.
        over = self._ended and state is not None and state.player == TERMINAL
        you = self.user_player
        bot = 1 - you
        cards: list[str] = []
        board: list[str] = []
        committed: tuple[float, ...] = (0.0, 0.0)
        stacks: tuple[float, ...] | None = None
        bot_cards: list[str] = []
        if state is not None:
            mine = state.observation(you)
            cards = card_list(mine.private_cards)
            board = card_list(mine.board)
            committed = mine.committed
            stacks = mine.stacks
            if over:
                shown = showdown_cards(state)
                bot_cards = card_list(shown[bot]) if shown[bot] else []
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


__all__ = ["SmallGameTable"]
