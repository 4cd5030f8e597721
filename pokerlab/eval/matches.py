"""Matches between 2 to 9 agents: rotated seats on shared deals, per-hand records, statistics.

``play_match(game, a, b, hands=1000)`` plays 1000 hands with each agent in each seat;
``play_match(kuhn3, a, b, c, hands=1000)`` does the same at a 3-seat table. It returns a
:class:`~pokerlab.eval.match_result.MatchResult`: every hand, each agent's mean in chips per
hand with a 95% confidence interval, the exact expected values when every agent is
policy-backed, and a control-variate estimate with its variance reduction.

How a match is played:

1. Seats. With ``seats="rotate"`` (the default) every deal is played in each of the ``n``
   rotations of the table: in rotation ``r`` agent ``k`` sits in seat ``(k + r) % n``
   (heads-up: the two seats swapped, duplicate poker). Hand ``i`` is rotation ``i % n`` of
   deal ``i // n`` (with ``duplicate=False``, of deal ``i``). ``seats="fixed"`` keeps agent
   ``k`` in seat ``k``; a tuple ``(1, 0)`` names the agent of each seat.
2. Every hand is played by the dealer (:func:`pokerlab.play.dealer.deal_hand`): chance
   from the deal's stream (the rotations of a deal see the same cards in the same seats:
   card luck cancels, and the deals are the independent units of the intervals), the
   agents' ``reset``/``seed``/``observe`` hooks, faults replaced by the default action.
3. When every agent is policy-backed (it exposes ``policy``, see
   :class:`~pokerlab.play.dealer.Agent`) and the game compiles, whole hands are sampled on
   the compiled tree with numpy (hundreds of thousands of hands per second; same deals),
   and the exact values are reported beside the Monte Carlo estimate.

Control variate (AIVAT's chance term): with the exact values ``V`` of every history under
a reference profile (a policy-backed agent's, or one given), each chance event of a hand
contributes ``V(child) - V(chance node)`` for an agent's seat; the sum ``C`` has mean
exactly 0 whatever the agents do, and ``x - beta * C`` (``beta`` estimated) keeps the mean
while removing the part of the variance that the cards explain.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, overload

import numpy as np

from pokerlab._types import IntArray
from pokerlab.errors import GameTooLargeError, PokerlabError, PolicyError, StrategyMismatchError
from pokerlab.eval.match_result import MatchResult
from pokerlab.eval.sampling import (
    _LazyRecords,
    _sampler,
    _terminal_of,
    chance_luck,
    deal_units,
    exact_values,
    sample_match,
    seat_returns_to_agents,
)
from pokerlab.eval.statistics import ControlVariateEstimate, control_variate_estimate, mean_estimate
from pokerlab.games.base import Game
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.containment import (
    AllCores,
    allowed_cores,
    drop_host_caches,
    one_core,
    resolve_drop_caches,
)
from pokerlab.play.dealer import (
    AgentConnection,
    DealStream,
    InProcessConnection,
    Listener,
    agent_name,
    connect,
    deal_hand,
    default_action,
)
from pokerlab.play.deals import check_seed, derive_seed
from pokerlab.play.executable import ExecutableAgent
from pokerlab.play.records import FAULT_KINDS, FaultEvent, HandRecord
from pokerlab.play.sandbox import ProcessEntrant, SandboxedAgent
from pokerlab.strategy import Policy, Strategy, tabulate
from pokerlab.tree import compile

Rebuild = Callable[[Game], object]
"""Builds a fresh agent for ``game`` from its source (an entrant's file, a program)."""

Seats = Literal["rotate", "fixed"] | tuple[int, ...]
"""``"rotate"``: every deal in each rotation of the table; ``"fixed"``: agent ``k`` in seat
``k``; a tuple: the agent index sitting in each seat."""

# -- schedule and seeding ------------------------------------------------------------------


def seatings(n_agents: int, seats: Seats) -> list[tuple[int, ...]]:
    """The seatings a deal is played in: ``seating[s]`` is the agent in seat ``s``.

    Raises:
        PokerlabError: for a ``seats`` that is not ``"rotate"``, ``"fixed"`` or a
            permutation of the agents.
    """
    if seats == "rotate":
        return [tuple((s - r) % n_agents for s in range(n_agents)) for r in range(n_agents)]
    if seats == "fixed":
        return [tuple(range(n_agents))]
    if isinstance(seats, tuple) and sorted(seats) == list(range(n_agents)) and all(
        isinstance(a, int) and not isinstance(a, bool) for a in seats
    ):
        return [seats]
    raise PokerlabError(
        f"seats must be 'rotate', 'fixed' or a tuple giving the agent (0..{n_agents - 1}) of "
        f"each seat; got {seats!r}"
    )


def hand_schedule(
    index: int,
    *,
    n_agents: int = 2,
    seats: Seats = "rotate",
    duplicate: bool = True,
    leg: int | None = None,
) -> tuple[int, tuple[int, ...]]:
    """Return ``(deal id, seating)`` of hand ``index``: which deal, which agent in each seat.

    With ``leg`` (hands per leg), the seatings are played one after the other instead of
    deal by deal: hand ``i`` is deal ``i % leg`` in seating ``i // leg`` (the arena plays
    each leg with fresh agents, so that no agent remembers a deal it will meet again).
    """
    return _scheduled(index, seatings(n_agents, seats), duplicate, leg)


def _scheduled(index: int, table: list[tuple[int, ...]], duplicate: bool, leg: int | None
               ) -> tuple[int, tuple[int, ...]]:
    """:func:`hand_schedule` over the seatings ``table`` (a match works it out once)."""
    if leg is not None:
        return index % leg, table[(index // leg) % len(table)]
    seating = table[index % len(table)]
    deal = index // len(table) if duplicate else index
    return deal, seating


def schedule_arrays(
    index: IntArray, n_agents: int, seats: Seats, duplicate: bool, *, leg: int | None = None
) -> tuple[IntArray, IntArray]:
    """``(deals [hands], seatings [hands, n])`` of the hands ``index`` (see hand_schedule)."""
    table = np.asarray(seatings(n_agents, seats), dtype=np.int64)
    if leg is not None:
        return index % leg, table[(index // leg) % table.shape[0]]
    rows = table[index % table.shape[0]]
    deals = index // table.shape[0] if duplicate else index.copy()
    return deals, rows


def agent_seed(seed: int, hand: int, agent: int) -> int:
    """The value passed to agent ``agent``'s ``seed()`` hook before hand ``hand`` (64 bits).

    Keyed by the match's seed and independent of its cards
    (:func:`~pokerlab.play.deals.derive_seed`): an agent that knows every value its hook
    received learns nothing of the seed, of the cards, or of another agent's values.
    """
    return derive_seed(seed, "hook", hand, agent, bits=64)


def agent_policy(agent: object, game: Game) -> Strategy | None:
    """The agent's policy as a Strategy on ``game``, when it exposes one and the game compiles.

    A policy whose answer somewhere is not a distribution gives None: the agent then plays
    through the dealer, which records each bad answer as a fault.

    Raises:
        StrategyMismatchError: if the agent's policy was made for another game.
    """
    policy = getattr(agent, "policy", None)
    if not isinstance(policy, Policy):
        return None
    if policy.game != game:
        raise StrategyMismatchError(
            f"{agent_name(agent)} plays a policy made for {policy.game.spec}, not for {game.spec}"
        )
    try:
        compile(game)
        return tabulate(policy, game)
    except (GameTooLargeError, PolicyError):
        return None


# -- hands through the dealer ----------------------------------------------------------------


def iter_hands(
    game: Game,
    agents: Sequence[object],
    *,
    hands: int,
    seats: Seats = "rotate",
    duplicate: bool = True,
    seed: int = 0,
    time_limit: float | None = None,
    start: int = 0,
    listeners: Sequence[Listener] = (),
    leg: int | None = None,
) -> Iterator[HandRecord]:
    """Play hands ``start..hands-1`` of a match one at a time (the arena's entry point).

    Hand ``i`` is the same whether the match started at 0 or at ``start`` (chance and
    seeds depend only on ``(seed, i)``), provided the agents are in the state they would
    have been in after hands ``0..start-1`` (see :func:`replay_hands`). ``leg``: the
    schedule of :func:`hand_schedule` (seatings played one after the other).
    """
    seed = check_seed(seed)
    connections = [connect(agent, time_limit=time_limit) for agent in agents]
    n = len(connections)
    table = seatings(n, seats)
    # Entrants' processes answer the dealer in turn: each hand is dealt on one core, where
    # they were started (one_core); agents in this process still decide on every core, and
    # the caller's code between hands runs as it was.
    pin = any(isinstance(a, SandboxedAgent | ExecutableAgent) for a in agents)
    cores = allowed_cores() if pin else None
    if cores is not None and len(cores) > 1:
        connections = [AllCores(c, cores) if isinstance(c, InProcessConnection) else c
                       for c in connections]  # fmt: skip
    for index in range(start, hands):
        deal, seating = _scheduled(index, table, duplicate, leg)
        with one_core(pin):
            record, _ = deal_hand(
                game,
                [connections[a] for a in seating],
                chance=DealStream(seed, deal),
                hand=index,
                deal=deal,
                agents=seating,
                agent_seeds=_HookSeeds(seed, index, seating),
                listeners=listeners,
            )
        yield record


class _HookSeeds(Sequence[int]):
    """The ``seed`` hook's value of each seat of a hand, computed when the dealer asks.

    :func:`agent_seed` of the seat's agent; the dealer asks only for seats whose agent has
    the hook, which saves a keyed hash per hand for each agent without it.
    """

    def __init__(self, seed: int, hand: int, seating: tuple[int, ...]) -> None:
        self._seed = seed
        self._hand = hand
        self._seating = seating

    def __len__(self) -> int:
        return len(self._seating)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [agent_seed(self._seed, self._hand, a) for a in self._seating[index]]
        return agent_seed(self._seed, self._hand, self._seating[index])


class _RecordingConnection:
    """Any connection, remembering the agent's answers (for replays)."""

    def __init__(self, inner: AgentConnection, answers: list[object]) -> None:
        self.inner = inner
        self.answers = answers
        self.name = inner.name

    @property
    def wants_updates(self) -> bool:
        return self.inner.wants_updates

    def reset(self) -> None:
        self.inner.reset()

    def seed(self, value: int) -> None:
        self.inner.seed(value)

    def observe(self, update: Observation | HandResult) -> None:
        self.inner.observe(update)

    def act(self, observation: Observation) -> object:
        try:
            answer = self.inner.act(observation)
        except Exception:  # the original run recorded the fault already
            answer = None
        self.answers.append(answer)
        return answer

    def take_faults(self) -> list[tuple[str, str]]:
        take = getattr(self.inner, "take_faults", None)
        return [] if take is None else list(take())

    def close(self) -> None:
        self.inner.close()


def replay_hands(
    game: Game, agents: Sequence[object], records: Sequence[HandRecord], *, seed: int = 0
) -> int:
    """Feed recorded hands to fresh agents, as if they had played them; return mismatches.

    Each agent is reset, seeded, asked to act and shown the updates exactly as during the
    original hand, but the recorded actions are played. The return value counts the hands
    in which some agent's answer differed from the record (0 for agents whose behaviour
    depends only on what they observed and on the ``seed()`` hook).
    """
    mismatches = 0
    answers: list[object] = []
    connections: list[AgentConnection] = [
        _RecordingConnection(connect(a), answers) for a in agents
    ]
    for record in records:
        answers.clear()
        replayed, _ = deal_hand(
            game,
            [connections[a] for a in record.seats],
            chance=DealStream(seed, record.deal),
            hand=record.hand,
            deal=record.deal,
            agents=record.seats,
            agent_seeds=[agent_seed(seed, record.hand, a) for a in record.seats],
            forced=record.history,
        )
        if _answers_differ(game, record, answers) or replayed.returns != record.returns:
            mismatches += 1
    return mismatches


def _answers_differ(game: Game, record: HandRecord, answers: list[object]) -> bool:
    """True if some replayed answer is not what the recorded hand shows.

    A decision recorded as a fault was replaced by the default action; the replayed answer
    matches it when it fails again (not a legal id) or when that seat has a fault on record.
    """
    faulted_seats = {event.seat for event in record.events}
    replayed = iter(answers)
    state = game.initial_state()
    for action in record.history:
        if state.player >= 0:
            answer = next(replayed, None)
            if answer != action or isinstance(answer, bool):
                legal = state.legal_actions()
                replaced = action == default_action(state)
                failed = (
                    isinstance(answer, bool) or answer not in legal or state.player in faulted_seats
                )
                if not (replaced and failed):
                    return True
        state = state._apply(action)
    return next(replayed, None) is not None


# -- the match -----------------------------------------------------------------------------


def _play_legs(
    game: Game,
    agents: Sequence[object],
    fresh: Sequence[Rebuild | None],
    *,
    hands: int,
    leg: int,
    seed: int,
    time_limit: float | None,
    drop_caches: bool,
) -> list[HandRecord]:
    """Play a rotated match leg by leg, the agents with a ``fresh`` builder new in each leg.

    The arena's schedule (:func:`hand_schedule` with ``leg``): hand ``i`` is deal
    ``i % leg`` in rotation ``i // leg``. Agent ``k`` plays the first leg as given and each
    later one as ``fresh[k](game)``; those agents are closed when their leg ends. With
    ``drop_caches``, the host's caches are dropped before each leg that follows one with
    an isolated entrant (as the arena does).
    """
    played: list[HandRecord] = []
    table: list[object] = []
    for first in range(0, hands, leg):
        if first and drop_caches and any(
            isinstance(a, SandboxedAgent | ProcessEntrant) for a in table
        ):
            drop_host_caches()  # the last leg's processes are gone: nothing they chose stays
        previous = table if first else list(agents)
        table = [agent if build is None or first == 0 else build(game)
                 for agent, build in zip(agents, fresh, strict=True)]
        for before, agent in zip(previous, table, strict=True):
            if agent is not before and isinstance(agent, SandboxedAgent | ExecutableAgent) \
                    and isinstance(before, SandboxedAgent | ExecutableAgent):
                # The time budget is the match's, not the leg's (as in the arena).
                budget = agent.limits.match_budget
                agent.seconds_used = min(before.seconds_used, budget)
                agent.faults = before.faults  # and its faults: three end the match, not a leg
                agent.disqualified = before.disqualified or before.seconds_used >= budget
        try:
            if first > 0:
                check_agents(game, table)
            played.extend(iter_hands(game, table, hands=min(first + leg, hands), seed=seed,
                                     time_limit=time_limit, start=first, leg=leg))
        finally:
            for agent, build in zip(table, fresh, strict=True):
                close = getattr(agent, "close", None)
                if build is not None and callable(close):
                    with contextlib.suppress(Exception):
                        close()
    return played



def check_agents(game: Game, agents: Sequence[object]) -> None:
    """Refuse, before the first hand, agents that say they cannot play ``game``.

    Raises:
        PokerlabError: the agent's own ``check_game`` refusal, or a policy of another game.
    """
    for agent in agents:
        check = getattr(agent, "check_game", None)
        if callable(check):
            check(game)
        policy = getattr(agent, "policy", None)
        if isinstance(policy, Policy) and policy.game != game:
            raise StrategyMismatchError(
                f"{agent_name(agent)} plays a policy made for {policy.game.spec}, not for "
                f"{game.spec}"
            )


def play_match(
    game: Game,
    *agents: object,
    hands: int = 1000,
    seats: Seats = "rotate",
    duplicate: bool = True,
    seed: int = 0,
    time_limit: float | None = None,
    reference: Strategy | None = None,
    fast: bool = True,
    fresh: Sequence[Rebuild | None] | None = None,
    drop_caches: bool | None = None,
) -> MatchResult:
    """Play ``hands`` hands per seat between ``agents`` and estimate what each wins per hand.

    Args:
        game: the game (2 to 9 players).
        *agents: one agent per seat of the game (the estimates are in this order).
        hands: hands played in each seat: with ``seats="rotate"`` the match plays
            ``n * hands`` hands (``hands`` with each agent in each seat); with a fixed
            seating it plays ``hands``.
        seats: ``"rotate"``, ``"fixed"``, or the agent of each seat (see :func:`seatings`).
        duplicate: with rotation, play every deal in every rotation (else a fresh deal per hand).
        seed: seeds chance and the agents (see the module docstring). Whoever knows it can
            compute every card: give a fresh secret one
            (:func:`~pokerlab.play.deals.fresh_seed`) when an agent must not predict them.
        time_limit: seconds allowed per decision (slower decisions get the default action).
        reference: the profile whose exact history values make the control variate;
            default: a policy-backed agent's policy (when the game compiles).
        fast: sample whole hands on the compiled tree when every agent is policy-backed.
        fresh: for each agent, None or what builds it afresh (an agent that may learn:
            an entrant's file, a program). When one is given and every deal is played
            in every rotation, the match is played in legs as the arena plays it
            (:func:`hand_schedule` with ``leg=hands``): the rotations one after the
            other, ``agents[k]`` playing the first leg and ``fresh[k](game)`` each later
            one; these agents are closed at the end of their leg, so that no agent
            remembers the cards of a deal it meets again from another seat.
        drop_caches: in such a match, drop the host's caches between legs that follow an
            isolated entrant's (:func:`~pokerlab.play.containment.drop_host_caches`): the
            arena's option, and its default (None: wherever the machine allows it; True:
            refuse a machine where it cannot; False: never).

    Returns:
        The :class:`~pokerlab.eval.match_result.MatchResult`.

    Raises:
        PokerlabError: the wrong number of agents (or of ``fresh``), a bad ``seats``,
            ``hands < 1``, or an agent that cannot play the game.

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.agents import PolicyAgent
        >>> game = kuhn()
        >>> uniform = PolicyAgent(Strategy.uniform(game))
        >>> result = play_match(game, uniform, uniform, hands=1000, seed=1)
        >>> result.exact_value, result.n_hands   # 1000 hands in each seat
        (0.0, 2000)
    """
    n = game.n_players
    if len(agents) != n:
        raise PokerlabError(f"{game.spec} has {n} seats; play_match got {len(agents)} agents")
    seed = check_seed(seed)
    table = seatings(n, seats)
    check_agents(game, agents)
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise PokerlabError(f"hands (per seat) must be an integer >= 1; got {hands!r}")
    if time_limit is not None and not time_limit > 0:
        raise PokerlabError(f"time_limit must be a positive number of seconds; got {time_limit!r}")
    rotated = len(table) > 1
    total = hands * len(table)
    names = tuple(agent_name(a) for a in agents)
    policies = [agent_policy(a, game) for a in agents]
    backed = [p for p in policies if p is not None]
    every = len(backed) == n
    if reference is None and backed:
        reference = backed[0]
    if fresh is not None and len(fresh) != n:
        raise PokerlabError(f"fresh must give one entry (or None) per agent; got {len(fresh)} "
                            f"for {n} agents")
    leg = hands if (rotated and duplicate and fresh is not None
                    and any(f is not None for f in fresh)) else None
    index = np.arange(total, dtype=np.int64)
    deals, seats_of = schedule_arrays(index, n, seats, duplicate, leg=leg)
    events: tuple[FaultEvent, ...] = ()
    terminals: IntArray | None = None
    records: Sequence[HandRecord]
    if every and fast:
        sampler = _sampler(game)
        strategies = [p for p in policies if p is not None]
        terminals, by_seat = sample_match(
            game, strategies, seats_of, deals, seed=seed,
            rng=np.random.default_rng(derive_seed(seed, "decisions", 0)),
        )
        records = _LazyRecords(sampler.tree, terminals, deals, seats_of, by_seat)
        by_agent = seat_returns_to_agents(by_seat, seats_of)
    else:
        if leg is not None and fresh is not None:
            played = _play_legs(game, agents, fresh, hands=total, leg=leg, seed=seed,
                                time_limit=time_limit,
                                drop_caches=resolve_drop_caches(drop_caches))
        else:
            played = list(
                iter_hands(game, agents, hands=total, seats=seats, duplicate=duplicate,
                           seed=seed, time_limit=time_limit)
            )
        records = played
        by_agent = np.array([r.agent_returns() for r in played], dtype=np.float64)
        events = tuple(e for r in played for e in r.events)
    units = deal_units(by_agent, deals) if (rotated and duplicate) else by_agent
    estimates = tuple(mean_estimate(units[:, k]) for k in range(n))
    exact = None
    if every:
        exact = exact_values(game, [p for p in policies if p is not None], seats_of)
    controls: tuple[ControlVariateEstimate, ...] | None = None
    if reference is not None and units.shape[0] > 2:
        sampler = _sampler(game)
        luck = chance_luck(sampler.tree, tabulate(reference, game).probs)
        if terminals is None:
            terminals = np.array([_terminal_of(sampler, r.history) for r in records])
        seat_of_agent = np.argsort(seats_of, axis=1)
        c = luck[terminals[:, None], seat_of_agent]
        c_units = deal_units(c, deals) if (rotated and duplicate) else c
        controls = tuple(control_variate_estimate(units[:, k], c_units[:, k]) for k in range(n))
    return MatchResult(
        game=str(game.spec),
        agent_names=names,
        hands=records,
        agent_returns=by_agent,
        estimates=estimates,
        exact_values=exact,
        control_variates=controls,
        events=events,
        duplicate=rotated and duplicate,
        sampled=every and fast,
    )


__all__ = [
    "FAULT_KINDS",
    "FaultEvent",
    "HandRecord",
    "MatchResult",
    "Rebuild",
    "Seats",
    "agent_policy",
    "agent_seed",
    "check_agents",
    "hand_schedule",
    "iter_hands",
    "play_match",
    "replay_hands",
    "schedule_arrays",
    "seatings",
]
