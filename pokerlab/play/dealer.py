"""The dealer: the one hand loop that plays every hand pokerlab deals.

Matches, tournaments, terminal sessions (and the web table and the ACPC dealer) all play
their hands through :func:`deal_hand`, for 2 to 9 seats:

1. Each seat's agent is reached through an :class:`AgentConnection` (a *transport*):
   :class:`InProcessConnection` calls a Python object in this process, with a time limit
   on decisions; other transports (a subprocess, a socket) implement the same five calls.
2. Before the hand every seat gets ``reset()``, then ``seed(value)`` when the caller gives
   one (agents that draw their randomness from it replay exactly).
3. Chance is sampled one way only: the ``k``-th chance node of the hand takes the ``k``-th
   uniform of the deal's stream (:class:`DealStream`; :func:`chance_uniforms` computes the
   same uniforms for many deals at once) by inverse CDF over ``chance_outcomes()`` in
   order. Hands that share a deal therefore see the same cards in the same seats.
4. At a decision the seat's agent gets ``state.observation(seat)`` and must answer a legal
   action id (an ``int``, not ``True``, ``"1"`` or ``1.5``). An exception, an answer that
   is not a legal id, a policy whose probabilities are not a distribution, or no answer
   within the time limit is a :class:`~pokerlab.play.records.FaultEvent`; the default
   action (check if legal, else fold, else the first legal action) is played instead and
   the hand goes on.
5. After every action, agents that define ``observe`` get their new observation; at the
   end of the hand every agent gets a :class:`~pokerlab.games.HandResult` (the returns,
   the public history, the cards shown at showdown).
6. Listeners (renderers: the terminal now, the web table later) receive every event:
   :class:`HandStarted`, :class:`ChanceDealt`, :class:`ActionTaken`, the faults, and
   :class:`HandEnded`. Events carry the full state, so a renderer that shows a seat's view
   must hide what that seat may not see.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.errors import PokerlabError, PolicyError
from pokerlab.games.base import Game, State
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.deals import DealStream, chance_uniforms, sample_chance
from pokerlab.play.records import FAULT_DETAIL_LIMIT, FaultEvent, HandRecord, bounded_text

# -- the Agent protocol --------------------------------------------------------------------


@runtime_checkable
class Agent(Protocol):
    """A player: given what it sees, it returns one of the legal action ids.

    Optional hooks, called by the dealer when the agent defines them:

    - ``reset()``: before each hand;
    - ``seed(value: int)``: before each hand, with a value derived from the match seed,
      the hand and the agent, so that an agent drawing its randomness from it replays;
    - ``observe(update)``: after every action of the hand with the agent's new
      :class:`~pokerlab.games.Observation`, and at the end of the hand with its
      :class:`~pokerlab.games.HandResult` (``isinstance`` tells them apart).

    An agent exposing ``policy`` (a :class:`~pokerlab.strategy.Policy`) promises that
    ``act`` samples that policy and nothing else; matches may then sample whole hands on
    the compiled tree instead of asking it one decision at a time.
    """

    def act(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions``."""
        ...


class DealerStop(PokerlabError):  # noqa: N818 - a signal, not an error of the caller
    """Raised by an agent (a person quitting) to stop the dealer; never counted as a fault."""


class AgentFault(Exception):  # noqa: N818 - a fault report, as FaultEvent records it
    """A transport's report that a call into an agent failed (kind, detail)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


# -- transports ------------------------------------------------------------------------------


@runtime_checkable
class AgentConnection(Protocol):
    """How the dealer reaches an agent: in this process, in a subprocess, over a socket.

    Every call may raise :class:`AgentFault`; the dealer records it and goes on. A
    transport that learns of a fault after the call returned (a pipelined hook's error)
    may also offer ``take_faults() -> [(kind, detail)]``, which the dealer drains after
    each decision and at the end of the hand. A transport whose agent learns the hand by
    other means (the ACPC seat: its table sends the client every match state) may offer
    ``act_unobserved() -> object``, which the dealer calls instead of ``act`` without
    building the observation (a cost paid at every decision). One whose ``seed`` ignores
    its value (the agent has no such hook) may say so with ``wants_seed = False``: the
    dealer then does not ask for the value (a keyed hash per hand and seat).
    """

    name: str

    @property
    def wants_updates(self) -> bool:
        """True when the agent wants ``observe`` after every action, not only at the end."""
        ...

    def reset(self) -> None:
        """Call the agent's ``reset`` hook."""
        ...

    def seed(self, value: int) -> None:
        """Call the agent's ``seed`` hook."""
        ...

    def observe(self, update: Observation | HandResult) -> None:
        """Call the agent's ``observe`` hook."""
        ...

    def act(self, observation: Observation) -> object:
        """The agent's raw answer (checked by the dealer)."""
        ...

    def close(self) -> None:
        """Release what the transport holds (a process, a socket)."""
        ...


def agent_name(agent: object) -> str:
    """The agent's ``name`` attribute, else its class name."""
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name else type(agent).__name__


class InProcessConnection:
    """Calls an agent object in this process.

    Args:
        agent: the agent.
        time_limit: seconds allowed per decision, or None. With a limit each decision runs
            in a daemon thread that the dealer stops waiting for at the limit (Python cannot
            kill a thread: a stuck agent's thread is abandoned; isolate untrusted agents in
            a subprocess transport instead).
    """

    def __init__(self, agent: object, *, time_limit: float | None = None) -> None:
        self.agent = agent
        self.time_limit = time_limit
        self.name = agent_name(agent)
        self._reset = _hook(agent, "reset")
        self._seed = _hook(agent, "seed")
        self._observe = _hook(agent, "observe")
        self.wants_updates = self._observe is not None
        self.wants_seed = self._seed is not None
        act = getattr(agent, "act", None)
        if not callable(act):
            raise PokerlabError(f"{self.name} has no act(observation) method; it cannot play")
        self._act: Callable[[Observation], object] = act

    def reset(self) -> None:
        """Call ``reset()`` if the agent has it."""
        if self._reset is not None:
            _guarded(self._reset)

    def seed(self, value: int) -> None:
        """Call ``seed(value)`` if the agent has it."""
        if self._seed is not None:
            _guarded(self._seed, value)

    def observe(self, update: Observation | HandResult) -> None:
        """Call ``observe(update)`` if the agent has it."""
        if self._observe is not None:
            _guarded(self._observe, update)

    def act(self, observation: Observation) -> object:
        """The agent's answer, within the time limit."""
        if self.time_limit is None:
            return _guarded(self._act, observation)
        box: dict[str, object] = {}

        def decide() -> None:
            try:
                box["answer"] = self._act(observation)
            except BaseException as exc:  # handed back to the dealer's thread below
                box["error"] = exc

        worker = threading.Thread(target=decide, name="pokerlab-agent-decision", daemon=True)
        worker.start()
        worker.join(self.time_limit)
        if worker.is_alive():
            raise AgentFault("timeout", f"no answer within the limit of {self.time_limit:g} s")
        error = box.get("error")
        if isinstance(error, BaseException):
            _reraise(error)
        return box.get("answer")

    def close(self) -> None:
        """Nothing to release in process."""


def _hook(agent: object, name: str) -> Callable[..., object] | None:
    function = getattr(agent, name, None)
    return function if callable(function) else None


def _guarded(function: Callable[..., object], *args: object) -> object:
    try:
        return function(*args)
    except (DealerStop, AgentFault):
        raise
    except Exception as exc:
        _reraise(exc)
        raise  # pragma: no cover - _reraise always raises


def _reraise(error: BaseException) -> None:
    if isinstance(error, DealerStop | AgentFault) or not isinstance(error, Exception):
        raise error
    if isinstance(error, PolicyError):
        raise AgentFault("policy", str(error)) from error
    raise AgentFault("exception", repr(error)) from error


def connect(agent: object, *, time_limit: float | None = None) -> AgentConnection:
    """The connection to ``agent``: itself if it is one already, else in process."""
    if isinstance(agent, AgentConnection):
        return agent
    return InProcessConnection(agent, time_limit=time_limit)


# -- chance (the deal streams live in pokerlab.play.deals) --------------------------------

_MASK = (1 << 64) - 1


@functools.cache
def _splitmix() -> tuple[int, Callable[[int], int]]:
    """SplitMix64's increment and finalizer, imported on first use (they load numba)."""
    from pokerlab.cards.splitmix import GAMMA, mix

    return int(GAMMA), mix  # type: ignore[return-value]


def mix64(*words: int) -> int:
    """A 64-bit hash of integers (SplitMix64's finalizer over a running sum); fast seeding.

    The finalizer is :func:`pokerlab.cards.splitmix.mix`. Public and unkeyed: for an
    agent's own randomness (:func:`reseed`), never for cards or for values derived from a
    secret seed (those are :mod:`pokerlab.play.deals`' keyed ones).

    Example:
        >>> mix64(1, 2, 3) == mix64(1, 2, 3) != mix64(1, 2, 4)
        True
    """
    gamma, mix = _splitmix()
    z = 0x6A09E667F3BCC909
    for word in words:
        z = mix((z + (int(word) & _MASK) * gamma + 0xD1B54A32D192ED03) & _MASK)
    return z


def reseed(rng: np.random.Generator, value: int) -> np.random.Generator:
    """``rng`` restarted from ``value``: in place for PCG64 (microseconds), else a new one.

    Matches reseed agents before every hand; building a generator from a seed costs tens
    of microseconds, setting a PCG64 state a few.
    """
    bit_generator = rng.bit_generator
    if isinstance(bit_generator, np.random.PCG64):
        h = mix64(value)
        bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": h << 64 | (h ^ 0x5851F42D4C957F2D),
                      "inc": ((h * 0xD1B54A32D192ED03) & _MASK) << 64 | h | 1},
            "has_uint32": 0,
            "uinteger": 0,
        }
        return rng
    return np.random.default_rng(value)


# -- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandStarted:
    """A hand begins: who sits where. ``state`` is the initial state."""

    hand: int
    deal: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    state: State


@dataclass(frozen=True)
class ChanceDealt:
    """Chance moved (a card dealt, private or public); ``state`` is the state after it."""

    hand: int
    outcome: Action
    state: State


@dataclass(frozen=True)
class ActionTaken:
    """A seat acted (after any fault was replaced by the default action).

    ``name`` is the action's name in the state it was taken in; ``state`` is the state after.
    """

    hand: int
    seat: Player
    agent: int
    action: Action
    name: str
    state: State


@dataclass(frozen=True)
class HandEnded:
    """The hand is over: its record, and the terminal state."""

    record: HandRecord
    state: State


DealerEvent = HandStarted | ChanceDealt | ActionTaken | FaultEvent | HandEnded
"""Everything a listener may receive."""

Listener = Callable[[DealerEvent], None]
"""A renderer or logger of dealer events."""


# -- the hand loop -------------------------------------------------------------------------


def default_action(state: State) -> Action:
    """Check if legal, else fold, else the first legal action."""
    legal = state.legal_actions()
    names = [state.action_name(a) for a in legal]
    for wanted in ("check", "fold"):
        if wanted in names:
            return legal[names.index(wanted)]
    return legal[0]


def showdown_cards(
    state: State, public: tuple[tuple[Player, str], ...] | None = None
) -> tuple[str, ...]:
    """Each seat's private cards if shown at the end of ``state``'s hand, else ``""``.

    A seat shows its cards when it did not fold and at least one other seat did not fold.
    ``public`` is ``state.public_history()`` when the caller has it already.
    """
    n = state.game.n_players
    if public is None:
        public = state.public_history()
    folded = {player for player, name in public if player >= 0 and name == "fold"}
    if n - len(folded) < 2:
        return ("",) * n
    return tuple("" if p in folded else state.private_cards(p) for p in range(n))


def hand_results(
    state: State, public: tuple[tuple[Player, str], ...] | None = None
) -> list[HandResult]:
    """The :class:`~pokerlab.games.HandResult` of each seat of a finished hand.

    ``public`` is ``state.public_history()`` when the caller has it already.
    """
    returns = state.returns()
    if public is None:
        public = state.public_history()
    shown = showdown_cards(state, public)
    return [HandResult(seat, returns, public, shown) for seat in range(state.game.n_players)]


def _legal_answer(answer: object, legal: Sequence[Action]) -> tuple[Action, str | None]:
    """``(action, None)`` for a legal action id, else ``(-1, why)``."""
    if isinstance(answer, bool) or not isinstance(answer, int | np.integer):
        return -1, f"returned {answer!r} ({type(answer).__name__}), not an action id; legal: " \
            f"{tuple(legal)}"
    if int(answer) not in legal:
        return -1, f"returned {int(answer)}, which is not legal; legal: {tuple(legal)}"
    return int(answer), None


def deal_hand(
    game: Game,
    seats: Sequence[AgentConnection],
    *,
    chance: Callable[[], float],
    hand: int = 0,
    deal: int = 0,
    agents: Sequence[int] | None = None,
    agent_seeds: Sequence[int] | None = None,
    listeners: Sequence[Listener] = (),
    forced: Sequence[Action] | None = None,
) -> tuple[HandRecord, State]:
    """Play one hand of ``game`` and return its record and terminal state.

    Args:
        game: the game (2 to 9 players).
        seats: the connection of the agent in each seat (see :func:`connect`).
        chance: the chance stream (``DealStream(seed, deal)``, or any callable returning
            uniforms in ``[0, 1)``).
        hand: the hand's index (recorded, and named in faults).
        deal: the deal's id (recorded).
        agents: the agent index of each seat (default: the seat numbers); records, faults
            and thinking times are by agent index.
        agent_seeds: the value each seat's ``seed`` hook receives, or None (no call);
            read only for seats whose connection wants it (``wants_seed``, default True),
            so it may be a sequence that computes each value when asked.
        listeners: called with every event, in order.
        forced: replay mode: the hand's recorded history; every chance outcome and every
            action is taken from it; agents are still asked (so that their state evolves as
            when the hand was first played) but their answers are ignored.

    Raises:
        PokerlabError: if the number of seats is not the game's number of players.
        DealerStop: when an agent stops the session (a person quitting).
    """
    n = game.n_players
    if len(seats) != n:
        raise PokerlabError(f"{game.spec} has {n} seats; got {len(seats)} agents")
    who = tuple(agents) if agents is not None else tuple(range(n))
    events: list[FaultEvent] = []
    seconds = [0.0] * (max(who) + 1)
    decisions = [0] * (max(who) + 1)

    def fault(seat: int, kind: str, detail: str, action: Action) -> None:
        # The detail may quote whatever the agent chose to raise or answer: bounded once here.
        event = FaultEvent(hand, seat, who[seat], kind,
                           bounded_text(detail, FAULT_DETAIL_LIMIT), action)
        events.append(event)
        for listener in listeners:
            listener(event)

    def hook(seat: int, name: str, call: Callable[..., None], *args: object) -> None:
        try:
            call(*args)
        except AgentFault as exc:
            fault(seat, exc.kind, f"{name}: {exc.detail}", -1)

    takers: list[Callable[[], list[tuple[str, str]]] | None] = [
        getattr(c, "take_faults", None) for c in seats
    ]

    def late(seat: int) -> None:
        """Record the faults a transport found after the call (a pipelined hook's error)."""
        take = takers[seat]
        if take is not None:
            for kind, detail in take():
                fault(seat, kind, detail, -1)

    for seat, connection in enumerate(seats):
        hook(seat, "reset", connection.reset)
        if agent_seeds is not None and getattr(connection, "wants_seed", True):
            hook(seat, "seed", connection.seed, agent_seeds[seat])
    state = game.initial_state()
    for listener in listeners:
        listener(HandStarted(hand, deal, who, tuple(c.name for c in seats), state))
    updating = [s for s, c in enumerate(seats) if c.wants_updates]
    unobserved: list[Callable[[], object] | None] = [
        getattr(c, "act_unobserved", None) for c in seats
    ]
    public: list[tuple[Player, str]] = []  # the public history, kept as the hand goes

    def advance(action: Action) -> State:
        child = state._apply(action)
        event = state.public_event(action, child)
        if event is not None:
            public.append(event)
        return child

    step = 0
    while state.player != TERMINAL:
        if state.player == CHANCE:
            u = chance()
            outcome = forced[step] if forced is not None else sample_chance(state, u)
            state = advance(outcome)
            step += 1
            for listener in listeners:
                listener(ChanceDealt(hand, outcome, state))
            continue
        seat = state.player
        act_unobserved = unobserved[seat]
        if act_unobserved is None:
            observation = state.observation(seat, public_history=tuple(public))
            legal = observation.legal_actions
        else:
            legal = state.legal_actions()
        tick = time.perf_counter()
        problem: tuple[str, str] | None = None
        action: Action = -1
        try:
            answer = seats[seat].act(observation) if act_unobserved is None else act_unobserved()
        except AgentFault as exc:
            problem = (exc.kind, exc.detail)
        else:
            action, why = _legal_answer(answer, legal)
            if why is not None:
                problem = ("illegal", why)
        elapsed = time.perf_counter() - tick
        seconds[who[seat]] += elapsed
        decisions[who[seat]] += 1
        if forced is not None:
            action = forced[step]
        elif problem is not None:
            action = default_action(state)
            fault(seat, problem[0], problem[1], action)
        late(seat)
        if listeners:
            name = state.action_name(action)
            state = advance(action)
            for listener in listeners:
                listener(ActionTaken(hand, seat, who[seat], action, name, state))
        else:
            state = advance(action)
        step += 1
        if state.player != TERMINAL and updating:
            history = tuple(public)
            for other in updating:
                view = state.observation(other, public_history=history)
                hook(other, "observe", seats[other].observe, view)
    results = hand_results(state, tuple(public))
    for seat, connection in enumerate(seats):
        hook(seat, "observe", connection.observe, results[seat])
        late(seat)
    record = HandRecord(
        hand=hand,
        deal=deal,
        seats=who,
        returns=tuple(map(float, state.returns())),
        history=tuple(map(int, state.history)),
        events=tuple(events),
        seconds=tuple(seconds),
        decisions=tuple(decisions),
    )
    for listener in listeners:
        listener(HandEnded(record, state))
    return record, state


__all__ = [
    "ActionTaken",
    "Agent",
    "AgentConnection",
    "AgentFault",
    "ChanceDealt",
    "DealStream",
    "DealerEvent",
    "DealerStop",
    "HandEnded",
    "HandStarted",
    "InProcessConnection",
    "Listener",
    "agent_name",
    "chance_uniforms",
    "connect",
    "deal_hand",
    "default_action",
    "hand_results",
    "mix64",
    "reseed",
    "sample_chance",
    "showdown_cards",
]
