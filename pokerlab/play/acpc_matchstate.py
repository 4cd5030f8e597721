"""The ACPC match-state protocol (version 2.0): messages to and from pokerlab Hold'em states.

A dealer tells a seat everything it may know as one line,
``MATCHSTATE:<position>:<hand>:<betting>:<cards>``; the seat answers with the same line
followed by ``:<action>``. Betting is one string per round joined by ``/``: ``f`` fold,
``c`` check or call, ``r`` a limit raise, ``r<to>`` a no-limit raise to ``<to>`` chips put
in over the whole hand. Cards are the hole cards of each position joined by ``|`` (empty
where hidden), then ``/`` and each round's board cards.

:func:`parse_matchstate` and :func:`format_matchstate` read and write the text;
:func:`matchstate_from_state` and :func:`state_from_matchstate` convert to and from
:class:`~pokerlab.games.holdem_state.HoldemState`. ACPC position ``p`` is pokerlab seat ``p``
(heads-up: seat 0 is the big blind, seat 1 the small blind who acts first preflop, as in
ACPC's two-player games). Any malformed text raises :class:`~pokerlab.errors.ProtocolError`
naming the part at fault.

Cards. A :class:`MatchState` holds the ids of the cards its text names
(:func:`~pokerlab.cards.card.parse_card`). A deck of fewer suits is made of the *last*
suits in the reference dealer (its ``dealCards``: Kuhn's one suit is spades, Leduc's two
are hearts and spades) and of the first ones in pokerlab's engine (clubs, then diamonds):
:func:`acpc_card_texts` and :func:`acpc_card_ids` translate, card by card, between the
engine's ids and the protocol's texts, so that a pokerlab seat plays Kuhn and Leduc against
the reference dealer (a four-suit deck is the same in both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.cards.card import N_CARDS, SUITS, card_str, parse_card
from pokerlab.errors import CardError, IllegalActionError, ProtocolError
from pokerlab.games.holdem_rules import CALL, FOLD
from pokerlab.games.holdem_state import HoldemGame, HoldemState

VERSION_LINE = "VERSION:2.0.0"
"""The line a client sends first to announce protocol version 2.0."""

PREFIX = "MATCHSTATE"
_ACTION = re.compile(r"f|c|k|r(?:[0-9]{1,9})?")
_CARD = re.compile(r"[2-9TJQKA][cdhs]")
_MAX_LINE = 4096
_N_SUITS = len(SUITS)
"""Suits of the full deck (ids ``rank * 4 + suit`` in both encodings)."""


@cache
def acpc_card_texts(n_suits: int) -> tuple[str, ...]:
    """The protocol's text of each engine card id of a deck of ``n_suits`` suits.

    The engine's suit ``s`` is the protocol's ``s + 4 - n_suits`` (the reference deals a
    smaller deck from the last suits); an id outside the deck's suits has no text ("").
    """
    shift = _N_SUITS - n_suits
    return tuple(card_str(c + shift) if c % _N_SUITS < n_suits else "" for c in range(N_CARDS))


@cache
def acpc_card_ids(n_suits: int) -> dict[str, int]:
    """The engine card id of each protocol card text of a deck of ``n_suits`` suits.

    The inverse of :func:`acpc_card_texts`: a text of a suit the deck does not have is
    missing (a lookup where a text is known to be a card of the game or not).
    """
    return {text: c for c, text in enumerate(acpc_card_texts(n_suits)) if text}


def _engine_card(card: int, n_suits: int) -> int:
    """The engine's id of protocol card id ``card`` in a deck of ``n_suits`` suits.

    Raises:
        ProtocolError: a card of a suit the deck does not have.
    """
    shift = _N_SUITS - n_suits
    if card % _N_SUITS < shift:
        raise ProtocolError(f"card {card_str(card)} is not in this game's deck; its suits: "
                            f"{SUITS[shift:]}")
    return card - shift


_PLAIN = {"f": FOLD, "c": CALL, "k": CALL}
"""The tokens :func:`token_action` reads without looking at the state."""


@dataclass(frozen=True)
class MatchState:
    """One ACPC match state, as text parts (no game needed to read or write it).

    Attributes:
        position: the seat the message is for (0-based).
        hand_number: the hand's number in the match (0-based).
        betting: per betting round reached, its actions as tokens (``"c"``, ``"r"``, ``"r300"``).
        hole: per position, its hole cards as card ids (empty where hidden).
        board: per round after the first reached, its new board cards as card ids.
    """

    position: int
    hand_number: int
    betting: tuple[tuple[str, ...], ...]
    hole: tuple[tuple[int, ...], ...]
    board: tuple[tuple[int, ...], ...]


def parse_matchstate(text: str) -> MatchState:
    """Read ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (one line, no newline).

    Raises:
        ProtocolError: naming the part that is malformed (prefix, position, hand number,
            betting, cards) and what is allowed there.
    """
    if not isinstance(text, str):
        raise ProtocolError(f"a match state is text; got {type(text).__name__}")
    if len(text) > _MAX_LINE:
        raise ProtocolError(f"match state is {len(text)} characters; allowed: at most {_MAX_LINE}")
    parts = text.split(":")
    if len(parts) != 5:
        raise ProtocolError(
            f"match state {_show(text)} has {len(parts)} ':'-separated parts; allowed: 5, "
            "MATCHSTATE:<position>:<hand>:<betting>:<cards>"
        )
    prefix, position_text, hand_text, betting_text, cards_text = parts
    if prefix != PREFIX:
        raise ProtocolError(f"match state starts with {_show(prefix)}; allowed: {PREFIX!r}")
    position = _number(position_text, "position")
    hand_number = _number(hand_text, "hand number")
    betting = _parse_betting(betting_text)
    hole, board = _parse_cards(cards_text)
    if position >= len(hole):
        raise ProtocolError(
            f"position {position} but the cards {_show(cards_text)} name {len(hole)} "
            f"positions; allowed: 0..{len(hole) - 1}"
        )
    if len(board) != len(betting) - 1:
        raise ProtocolError(
            f"betting {_show(betting_text)} reaches round {len(betting)} but the cards "
            f"{_show(cards_text)} show the board of {len(board) + 1} rounds; they must agree"
        )
    seen = [c for cards in (*hole, *board) for c in cards]
    if len(set(seen)) != len(seen):
        raise ProtocolError(f"cards {_show(cards_text)} repeat a card; each card is dealt once")
    return MatchState(position, hand_number, betting, hole, board)


def format_chips(value: float) -> str:
    """``value`` as ACPC's dealer writes chips in its log: ``%.6f`` without trailing zeros.

    ``10`` for 10, ``-2.5`` for -2.5, ``1234567`` for 1,234,567 (never an exponent, which
    ``%g`` would give past six digits).
    """
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


def format_matchstate(state: MatchState) -> str:
    """Write ``state`` as the one-line ACPC text (the inverse of :func:`parse_matchstate`)."""
    betting = "/".join("".join(tokens) for tokens in state.betting)
    hole = "|".join("".join(card_str(c) for c in cards) for cards in state.hole)
    board = "".join("/" + "".join(card_str(c) for c in cards) for cards in state.board)
    return f"{PREFIX}:{state.position}:{state.hand_number}:{betting}:{hole}{board}"


def parse_response(text: str) -> tuple[MatchState, str]:
    """Read a client's answer ``<match state>:<action>``; return the state and action token.

    Raises:
        ProtocolError: if the state part is malformed or the action is not ``f``, ``c``,
            ``k``, ``r`` or ``r<to>``.
    """
    head, sep, action = text.rpartition(":")
    if not sep:
        raise ProtocolError(f"response {_show(text)} has no ':<action>' after the match state")
    if not _ACTION.fullmatch(action):
        raise ProtocolError(
            f"response action {_show(action)} is not an action; allowed: f, c, k, r, r<to>"
        )
    return parse_matchstate(head), action


def format_response(state: MatchState, action: str) -> str:
    """Write a client's answer: the state it was sent, ``:``, then its action token."""
    if not _ACTION.fullmatch(action):
        raise ProtocolError(f"action {_show(action)} is not an action; allowed: f, c, k, r, r<to>")
    return f"{format_matchstate(state)}:{action}"


def action_token(state: HoldemState, action: Action) -> str:
    """The ACPC token of the legal betting ``action`` at ``state``.

    No-limit raises give ``r<to>`` where ``<to>`` counts the chips the player puts in over the
    whole hand (ACPC's convention), not only on this street.
    """
    if action == FOLD:
        return "f"
    if action == CALL:
        return "c"
    if not state.game.no_limit:
        return "r"
    player = state.player
    earlier = state.committed[player] - state.bets[player]
    return f"r{earlier + state.raise_to_amount(action)}"


def token_action(state: HoldemState, token: str) -> Action:
    """The pokerlab action of the ACPC ``token`` at ``state`` (``k`` reads as check/call).

    Raises:
        ProtocolError: if the token is not an action, or is a no-limit raise without a size
            (or a limit raise with one).
        IllegalActionError: if the action is not legal at ``state`` (says what is).
    """
    if token == "f":
        return FOLD
    if token in ("c", "k"):
        return CALL
    if not _ACTION.fullmatch(token):
        raise ProtocolError(f"action {_show(token)} is not an action; allowed: f, c, k, r, r<to>")
    no_limit = state.game.no_limit
    if not no_limit:
        if token != "r":
            raise ProtocolError(f"action {_show(token)} gives a size in limit; allowed: r")
        bounds = state.raise_range()
        return state.action_for_raise_to(bounds[0] if bounds else 0)
    if token == "r":
        raise ProtocolError("no-limit raise 'r' has no size; allowed: r<to>, chips in this hand")
    player = state.player
    earlier = state.committed[player] - state.bets[player]
    return state.action_for_raise_to(int(token[1:]) - earlier)


def matchstate_from_state(
    state: HoldemState, position: int, hand_number: int, *, show_all: bool = False
) -> MatchState:
    """What the dealer sends seat ``position`` at ``state``.

    Other seats' hole cards show only at a showdown (a finished hand nobody folded), or
    everywhere with ``show_all`` (for logs).

    Raises:
        ProtocolError: if ``position`` is not a seat of the game.
    """
    n = state.game.n_players
    if not 0 <= position < n:
        raise ProtocolError(f"position {position} is not a seat; allowed: 0..{n - 1}")
    betting, _ = _replay_tokens(state)
    showdown = state.player == TERMINAL and not any(state.folded)
    hole = tuple(
        state.hole_cards(seat) if show_all or showdown or seat == position else ()
        for seat in range(n)
    )
    sizes = state.game.rules.board_sizes
    board = tuple(state.board[sizes[r - 1] : sizes[r]] for r in range(1, len(betting)))
    shift = _N_SUITS - state.game.rules.n_suits
    if shift:  # the protocol's suits of a smaller deck are the last ones
        hole = tuple(tuple(c + shift for c in cards) for cards in hole)
        board = tuple(tuple(c + shift for c in cards) for cards in board)
    return MatchState(position, hand_number, betting, hole, board)


def state_from_matchstate(game: HoldemGame, message: MatchState) -> HoldemState:
    """Replay ``message`` into a state of ``game``.

    Hidden hole cards are stood in for by the lowest cards of the deck not shown (the
    state is what the seat may know; only its betting and its own and the board's cards
    are real).

    Raises:
        ProtocolError: if the message does not fit the game (seats, card counts, an illegal
            or mis-sized action), naming the part.
    """
    return MatchStateTracker(game).update(message)


_Step = tuple[str, int, "int | str"]
"""One step of a replay: ("card", round, card id), ("open", round, board cards shown),
("bet", round, token)."""


class MatchStateTracker:
    """Follows the match states sent to one seat, replaying only what is new in each.

    A dealer's next message usually extends the last one (an action more, a board dealt):
    the tracker keeps the state it reached and the public history, and applies only the
    new steps; anything else (a new hand, cards revealed at showdown) replays from the
    start. What it returns equals :func:`state_from_matchstate` of the same message.
    """

    def __init__(self, game: HoldemGame) -> None:
        self.game = game
        self._card_ids = acpc_card_ids(game.rules.n_suits)
        self._steps: list[_Step] = []
        self._state: HoldemState = game.initial_state()
        self._public: list[tuple[int, str]] = []
        self._last: tuple[str, str, str, str] | None = None

    @property
    def public_history(self) -> tuple[tuple[int, str], ...]:
        """The public events of the last state returned (as ``State.public_history``)."""
        return tuple(self._public)

    def follow(self, line: str, *, exact_showdown: bool = True) -> tuple[int, int, HoldemState]:
        """The position, hand number and state of a match-state line.

        When the line extends the last one (same position and hand; more actions, new
        rounds and their board cards), only what is new is read. Any other line is parsed
        in full. With ``exact_showdown=False`` the other seats' hole cards shown at a
        showdown are not replayed either: the state stays on stand-in cards (its betting is
        right, its returns are not), for a caller that only needs to see the hand ended.

        Raises:
            ProtocolError: as :func:`parse_matchstate` and :func:`state_from_matchstate`.
        """
        parts = line.split(":")
        last = self._last
        if (
            last is not None
            and len(parts) == 5
            and parts[0] == PREFIX
            and parts[1] == last[0]
            and parts[2] == last[1]
            and parts[3].startswith(last[2])
        ):
            cards = parts[4]
            if not exact_showdown and not cards.startswith(last[3]):
                cards = self._hide_others(cards, int(parts[1]))
            if cards.startswith(last[3]):
                steps = self._new_steps(parts[3][len(last[2]) :], cards[len(last[3]) :], parts[3])
                if steps is not None:
                    try:
                        state = self._extend(steps)
                    except ProtocolError:
                        pass  # e.g. a board card on a stand-in hole card: parse it in full
                    else:
                        self._last = (parts[1], parts[2], parts[3], cards)
                        return int(parts[1]), int(parts[2]), state
        # A new hand, or one whose stand-in cards must change (a board card on one, the
        # cards shown at a showdown): the line is read whole, straight into steps.
        started = self._start(line, parts)
        if started is not None:
            return started
        message = parse_matchstate(line)
        state = self.update(message)
        self._last = (parts[1], parts[2], parts[3], parts[4])
        return message.position, message.hand_number, state

    def _start(self, line: str, parts: list[str]) -> tuple[int, int, HoldemState] | None:
        """A hand's first line read straight into steps; None if the full parser must judge.

        The steps and stand-in hole cards are those :meth:`update` takes from
        :func:`parse_matchstate`; any line this path does not take as plainly well formed
        (or whose replay fails) is left to them, so errors name the same parts.
        """
        if len(parts) != 5 or parts[0] != PREFIX or len(line) > _MAX_LINE:
            return None
        position_text, hand_text, betting, cards = parts[1:]
        for number in (position_text, hand_text):
            if not (number.isascii() and number.isdigit() and len(number) <= 9):
                return None
        position = int(position_text)
        hole_text, slash, boards = cards.partition("/")
        texts = hole_text.split("|")
        game = self.game
        n, n_hole = game.n_players, game.rules.hole_size
        if len(texts) != n or position >= n:
            return None
        shown: list[int] = []
        hole: list[tuple[int, ...]] = []
        for text in texts:
            if len(text) not in (0, 2 * n_hole):
                return None
            cards_of = tuple(self._card_ids.get(text[k : k + 2], -1)
                             for k in range(0, len(text), 2))
            if -1 in cards_of:
                return None
            hole.append(cards_of)
            shown.extend(cards_of)
        new = self._new_steps(betting, slash + boards, betting)
        if new is None:
            return None
        shown.extend(int(value) for kind, _, value in new if kind == "card")
        seen = set(shown)
        if len(seen) != len(shown):
            return None
        spare = iter(c for c in game.rules.deck if c not in seen)
        hole = [cards_of or tuple(next(spare) for _ in range(n_hole)) for cards_of in hole]
        steps: list[_Step] = [
            ("card", 0, hole[seat][k]) for k in range(n_hole) for seat in range(n)
        ]
        self._forget()
        try:
            state = self._extend(steps + new)
        except ProtocolError:
            return None
        self._last = (position_text, hand_text, betting, cards)
        return position, int(hand_text), state

    @staticmethod
    def _hide_others(cards: str, position: int) -> str:
        hole, sep, board = cards.partition("/")
        shown = hole.split("|")
        if position >= len(shown):
            return cards
        hidden = "|".join(c if i == position else "" for i, c in enumerate(shown))
        return hidden + sep + board

    def _new_steps(self, betting: str, cards: str, whole: str) -> list[_Step] | None:
        """The steps of a betting suffix and a cards suffix, or None if they do not pair."""
        rounds = betting.split("/")
        boards = cards.split("/")
        if len(rounds) != len(boards) or boards[0]:
            return None
        first = whole.count("/") - (len(rounds) - 1)
        steps: list[_Step] = []
        ids = self._card_ids
        for i, (tokens_text, board_text) in enumerate(zip(rounds, boards, strict=True)):
            r = first + i
            if i:
                if len(board_text) % 2:
                    return None
                # The lookup holds exactly the game's texts _CARD matches, with their ids.
                board = [ids.get(board_text[k : k + 2], -1) for k in range(0, len(board_text), 2)]
                if -1 in board:
                    return None
                steps.append(("open", r, len(board)))
                steps.extend(("card", r, card) for card in board)
            if not tokens_text.strip("cfkr"):  # sizeless tokens only: one letter each
                steps.extend(("bet", r, token) for token in tokens_text)
                continue
            tokens = _ACTION.findall(tokens_text)
            if "".join(tokens) != tokens_text:
                return None
            steps.extend(("bet", r, token) for token in tokens)
        return steps

    def _extend(self, new: list[_Step]) -> HoldemState:
        state = self._state
        try:
            for step in new:
                state = self._apply(state, step)
        except IllegalActionError as error:
            self._forget()
            raise ProtocolError(f"match state does not fit the game: {error}") from error
        except ProtocolError:
            self._forget()
            raise
        self._steps.extend(new)
        self._state = state
        if state.player == CHANCE:
            self._forget()
            raise ProtocolError("a round's betting is over but the next round is not shown")
        return state

    def _forget(self) -> None:
        self._steps, self._state, self._public = [], self.game.initial_state(), []
        self._last = None

    def update(self, message: MatchState) -> HoldemState:
        """The state of ``message`` (what its seat may know).

        Raises:
            ProtocolError: as :func:`state_from_matchstate`.
        """
        steps = self._steps_of(message)
        old = self._steps
        if not (len(old) <= len(steps) and steps[: len(old)] == old):
            self._forget()
        self._last = None
        try:
            return self._extend(steps[len(self._steps) :])
        except ProtocolError as error:
            if "next round is not shown" in str(error):
                raise ProtocolError(
                    f"round {len(message.betting)} betting is over but round "
                    f"{len(message.betting) + 1} and its board are not shown"
                ) from None
            raise

    def _steps_of(self, message: MatchState) -> list[_Step]:
        rules = self.game.rules
        n = self.game.n_players
        if len(message.hole) != n:
            raise ProtocolError(
                f"cards name {len(message.hole)} positions; this game has {n} seats"
            )
        n_hole = rules.hole_size
        n_suits = rules.n_suits
        if n_suits < _N_SUITS:  # the protocol's cards to the engine's
            message = MatchState(
                message.position, message.hand_number, message.betting,
                tuple(tuple(_engine_card(c, n_suits) for c in cards) for cards in message.hole),
                tuple(tuple(_engine_card(c, n_suits) for c in cards) for cards in message.board))
        shown = {c for cards in (*message.hole, *message.board) for c in cards}
        spare = iter(c for c in rules.deck if c not in shown)
        hole: list[tuple[int, ...]] = []
        for seat, cards in enumerate(message.hole):
            if len(cards) not in (0, n_hole):
                raise ProtocolError(
                    f"position {seat} shows {len(cards)} hole cards; allowed: 0 (hidden) or "
                    f"{n_hole}"
                )
            hole.append(cards if cards else tuple(next(spare) for _ in range(n_hole)))
        steps: list[_Step] = [
            ("card", 0, hole[seat][k]) for k in range(n_hole) for seat in range(n)
        ]
        for r, tokens in enumerate(message.betting):
            if r:
                steps.append(("open", r, len(message.board[r - 1])))
                steps.extend(("card", r, card) for card in message.board[r - 1])
            steps.extend(("bet", r, token) for token in tokens)
        return steps

    def _apply(self, state: HoldemState, step: _Step) -> HoldemState:
        kind, r, value = step
        if kind == "bet" and state.player >= 0 and value in _PLAIN:
            action = _PLAIN[str(value)]  # what token_action gives, without its checks
            child = state.child(action)
            event = state.public_event(action, child)
            if event is not None:
                self._public.append(event)
            return child
        if kind == "open":
            sizes = self.game.rules.board_sizes
            expected = sizes[r] - sizes[r - 1] if r < len(sizes) else 0
            if r >= len(sizes) or value != expected:
                raise ProtocolError(f"round {r + 1} board shows {value} cards; allowed: {expected}")
            if state.player != CHANCE:
                raise ProtocolError(f"round {r} betting is not over but round {r + 1} began")
            return state
        if kind == "card":
            action = int(value)
            if action in state.hole or action in state.board:
                # A board card on a stand-in hole card (the extension path: the full parse
                # picks other stand-ins): said cheaply, where the deal would list the deck.
                raise ProtocolError(f"card {action} is dealt already")
        else:
            if state.player < 0:
                raise ProtocolError(
                    f"action {value!r} in round {r + 1} comes after the betting ended"
                )
            action = token_action(state, str(value))
        child = state.child(action)
        event = state.public_event(action, child)
        if event is not None:
            self._public.append(event)
        return child


def _replay_tokens(state: HoldemState) -> tuple[tuple[tuple[str, ...], ...], HoldemState]:
    """The ACPC betting tokens of ``state``, per round reached (replayed from the start)."""
    game = state.game
    rules = game.rules
    sizes = rules.board_sizes
    replay = game.initial_state()
    for card in state.hole:
        replay = replay.child(card)
    rounds: list[tuple[str, ...]] = []
    for street, actions in enumerate(state.betting):
        if street and len(state.board) < sizes[street]:
            break  # a round opens once its board is dealt
        if street:
            for card in state.board[sizes[street - 1] : sizes[street]]:
                replay = replay.child(card)
        tokens = []
        for action in actions:
            tokens.append(action_token(replay, action))
            replay = replay.child(action)
        rounds.append(tuple(tokens))
    # ACPC opens the next round (empty betting, its board shown) once a round's betting ends
    # and its cards are dealt; pokerlab shows the same through the board length.
    while len(rounds) - 1 < len(sizes) - 1 and len(state.board) >= sizes[len(rounds)]:
        rounds.append(())
    return tuple(rounds), replay


def _number(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise ProtocolError(f"{what} {_show(text)} is not a number; allowed: 0..999999999")
    return int(text)


def _parse_betting(text: str) -> tuple[tuple[str, ...], ...]:
    rounds = []
    for r, part in enumerate(text.split("/")):
        tokens = _ACTION.findall(part)
        if "".join(tokens) != part:
            raise ProtocolError(
                f"betting {_show(text)} round {r + 1} {_show(part)} is not a run of actions; "
                "allowed: f, c, k, r, r<to>"
            )
        rounds.append(tuple(tokens))
    return tuple(rounds)


def _parse_cards(text: str) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    hole_text, *board_texts = text.split("/")
    hole = tuple(_card_run(part, f"hole cards {_show(part)}") for part in hole_text.split("|"))
    board = tuple(_card_run(part, f"board {_show(part)}") for part in board_texts)
    return hole, board


def _card_run(text: str, what: str) -> tuple[int, ...]:
    if len(text) % 2 or any(not _CARD.fullmatch(text[i : i + 2]) for i in range(0, len(text), 2)):
        raise ProtocolError(f"{what} is not a run of cards; allowed: cards such as As, Td, 2c")
    try:
        return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))
    except CardError as error:  # pragma: no cover - the pattern admits only cards
        raise ProtocolError(f"{what}: {error}") from error


def _show(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


__all__ = [
    "PREFIX",
    "VERSION_LINE",
    "MatchState",
    "MatchStateTracker",
    "acpc_card_ids",
    "acpc_card_texts",
    "action_token",
    "format_chips",
    "format_matchstate",
    "format_response",
    "matchstate_from_state",
    "parse_matchstate",
    "parse_response",
    "state_from_matchstate",
    "token_action",
]
