"""Web tables: a person in one seat against bots, every hand played by the library's dealer.

A :class:`Table` is one browser session's table, found by an unguessable token. Its hands
are played by :func:`pokerlab.play.dealer.deal_hand` (Hold'em through
:func:`pokerlab.play.session.play_session_hand`) in a worker thread of the table:

1. the person's seat is an agent (:class:`BrowserSeat`) whose ``act`` parks the
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pokerlab._types import Action
from pokerlab.errors import PokerlabError
from pokerlab.games.base import State
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import DealerStop
from pokerlab.play.deals import seed_commitment

IDLE_SECONDS = 1800.0
"""A table whose person has not moved for this long is closed (its thread ends)."""
HISTORY_LINES = 400
"""The hand history keeps this many lines (the oldest go first)."""


class WebRequestError(PokerlabError, ValueError):
    """A request the table refuses: ``status`` is the HTTP status to answer (4xx)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def card_list(text: str) -> list[str]:
    """Split a seat's cards for drawing; one-character cards (Kuhn, Leduc) stay whole.

    Example:
        >>> card_list("AsKd"), card_list("K"), card_list("")
        (['As', 'Kd'], ['K'], [])
    """
    if len(text) % 2 == 0 and all(text[i + 1] in "cdhs" for i in range(0, len(text), 2)):
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    return list(text)


@dataclass
class _Waiter:
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event


@dataclass
class SessionResult:
    """The person's running result at a table, in chips (and big blinds in Hold'em)."""

    hands: int = 0
    chips: float = 0.0
    per_hand: list[float] = field(default_factory=list)


class BrowserSeat:
    """The person's agent: its decision waits for the browser's move."""

    name = "you"

    def __init__(self, table: Table) -> None:
        self.table = table

    def act(self, observation: Observation) -> Action:
        """Park ``observation`` as the pending decision and wait for the move."""
        return self.table._wait_for_move(observation)


class Table:
    """One person's table: its seats, the hand in play, the history and the result.

    Subclasses say how a hand is set up and played (``HoldemTable`` in
    :mod:`pokerlab.web.holdem_table`, ``SmallGameTable`` in :mod:`pokerlab.web.small_table`);
    this class holds the locking, the waiting and the moves.
    """

    kind = "table"

    def __init__(self, *, token: str, seed: int, bot_time_limit: float,
                 idle_seconds: float) -> None:
        self.token = token
        self.seed = seed
        self.commitment = seed_commitment(seed)
        """Shown from the start; the seed itself only once no hand can follow (audit)."""
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
        self._ended = False
        """True once the hand's end is recorded (summary, result): the view's ``hand_over``."""
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
        except Exception as exc:  # a fault of ours: the table stops rather than hang
            with self._cond:
                self.message = f"the hand stopped on an internal error ({type(exc).__name__})"
                self.closed = True
            raise
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
                deal_commitment=self.commitment,
                deal_seed=self._revealed_seed(),
                message=self.message or self._over_message(),
                history=list(self.history),
                show_strategy=self.show_strategy,
            )
            return data

    @property
    def ended(self) -> bool:
        """Whether the session has ended: closed or over, and no hand running."""
        with self._cond:
            return self._revealed_seed() is not None

    def _revealed_seed(self) -> str | None:
        """The deal seed (as text: 128 bits), once no hand can follow; None before.

        Closed or over, and no hand running (a hand cut off by the close has ended): the
        seed then tells nothing to come, and lets the person check it against the
        commitment shown from the start and replay every deal (called with the lock held).
        """
        if not self.hand_running and (self.closed or not self.can_deal):
            return str(self.seed)
        return None

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
    "BrowserSeat",
    "SessionResult",
    "Table",
    "TableRegistry",
    "WebRequestError",
    "card_list",
]
