"""Matches between two agents: duplicate dealing, per-hand records, robust play, statistics.

``play_match(game, a, b, hands=1000)`` plays 1000 hands with each agent in each seat and
returns a :class:`MatchResult`: every hand as a frozen :class:`HandRecord`, agent ``a``'s
mean in chips per hand with a 95% confidence interval, the exact expected value when both
agents are strategy-backed, and a control-variate estimate with its variance reduction.

How a match is played:

1. Hand ``i`` uses deal ``i // 2`` (duplicate) or ``i``; a deal is a stream of uniforms
   drawn from ``default_rng([seed, deal])``, the ``k``-th chance node of the hand taking
   its outcome by inverse CDF from the ``k``-th uniform. Both hands of a duplicate pair
   therefore see the same cards, with the agents' seats swapped: card luck cancels, and
   the pairs are the independent units of the confidence interval.
2. Before each hand every agent's optional ``reset()`` is called, then its optional
   ``seed(value)`` with a value derived from ``(seed, hand, agent)``, so that an agent
   that draws its randomness from that generator plays each hand reproducibly (this is
   what lets the arena resume a killed run exactly).
3. At each decision the agent gets ``state.observation(seat)``. An exception, an illegal
   action, or a decision slower than ``time_limit`` is replaced by the default action
   (check if legal, else fold, else the first legal action), recorded as a
   :class:`FaultEvent`, and the hand goes on. With a time limit, each decision runs in a
   daemon thread that the match stops waiting for once the limit has passed: an agent
   that never returns costs ``time_limit`` per decision, not the match (its abandoned
   thread is left to finish on its own; Python cannot kill it).
4. After the hand every agent's optional ``observe(HandResult)`` gets the returns, the
   public history and the cards shown at showdown.

When both agents are strategy-backed (they expose a ``strategy`` attribute holding a
:class:`~pokerlab.strategy.Strategy`, as :class:`~pokerlab.agents.StrategyAgent` does),
whole hands are sampled on the compiled tree with numpy (:func:`play_strategies`),
hundreds of thousands of hands per second, and the exact value is reported beside the
Monte Carlo estimate.

Control variate (AIVAT's chance term): with the exact values ``V`` of every history under
a reference profile (a strategy agent's strategy, or uniform), each chance event of a hand
contributes ``V(child) - V(chance node)`` for agent ``a``'s seat; the sum ``C`` has mean
exactly 0 whatever the agents do, and ``x - beta * C`` (``beta`` estimated) keeps the mean
while removing the part of the variance that the cards explain.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, IntArray, Player
from pokerlab.errors import PokerlabError
from pokerlab.eval.records import (
    FAULT_KINDS,
    FaultEvent,
    HandRecord,
    MatchAgent,
    MatchResult,
    Seats,
    _check_seats,
)
from pokerlab.eval.sampling import (
    SampledHands,
    _exact_value,
    _LazyRecords,
    _pair_units,
    _sample_match,
    _sampler,
    _schedule_arrays,
    _terminal_of,
    chance_luck,
    play_strategies,
    sample_hands,
)
from pokerlab.eval.statistics import (
    ControlVariateEstimate,
    control_variate_estimate,
    mean_estimate,
)
from pokerlab.games.base import Game, State
from pokerlab.games.observation import Observation
from pokerlab.strategy import Strategy

# -- schedule and seeding ------------------------------------------------------------------


def hand_schedule(index: int, *, seats: Seats, duplicate: bool) -> tuple[int, tuple[int, int]]:
    """Return ``(deal id, seats)`` of hand ``index``: which deal, which agent in each seat."""
    if seats == "first":
        return index, (0, 1)
    if seats == "second":
        return index, (1, 0)
    seat_map = (0, 1) if index % 2 == 0 else (1, 0)
    return (index // 2 if duplicate else index), seat_map


def agent_seed(seed: int, hand: int, agent: int) -> int:
    """The value passed to agent ``agent``'s ``seed()`` hook before hand ``hand``."""
    state = np.random.SeedSequence([seed, hand, agent, 0x5EA7]).generate_state(1, np.uint64)
    return int(state[0])


class _DecisionTimeoutError(Exception):
    """An agent did not answer within the time limit."""


def _act(agent: object, observation: Observation, time_limit: float | None) -> Any:
    """``agent.act(observation)``, given up on after ``time_limit`` seconds."""
    act = agent.act  # type: ignore[attr-defined]
    if time_limit is None:
        return act(observation)
    box: dict[str, object] = {}

    def decide() -> None:
        try:
            box["answer"] = act(observation)
        except BaseException as exc:  # handed back to the match's thread below
            box["error"] = exc

    worker = threading.Thread(target=decide, name="pokerlab-agent-decision", daemon=True)
    worker.start()
    worker.join(time_limit)
    if worker.is_alive():
        raise _DecisionTimeoutError
    error = box.get("error")
    if isinstance(error, BaseException):
        raise error
    return box.get("answer")


def default_action(state: State) -> Action:
    """Check if legal, else fold, else the first legal action."""
    legal = state.legal_actions()
    names = [state.action_name(a) for a in legal]
    for wanted in ("check", "fold"):
        if wanted in names:
            return legal[names.index(wanted)]
    return legal[0]


def _agent_name(agent: object) -> str:
    name = getattr(agent, "name", None)
    return name if isinstance(name, str) and name else type(agent).__name__


def _agent_strategy(agent: object) -> Strategy | None:
    strategy = getattr(agent, "strategy", None)
    return strategy if isinstance(strategy, Strategy) else None


# -- the generic path: State objects, one decision at a time -------------------------------


def _call_hook(
    agent: object,
    hook: str,
    argument: object,
    events: list[FaultEvent],
    hand: int,
    seat: int,
    who: int,
) -> None:
    function = getattr(agent, hook, None)
    if not callable(function):
        return
    try:
        if argument is None:
            function()
        else:
            function(argument)
    except Exception as exc:  # an entrant's bug must not stop the match
        events.append(FaultEvent(hand, seat, who, "exception", f"{hook}: {exc!r}", -1))


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


def hand_results(state: State) -> list[object]:
    """The :class:`~pokerlab.agents.HandResult` of each seat of a finished hand."""
    # HandResult lives in pokerlab.agents.base (one layer right of eval); it is a plain
    # frozen dataclass with no dependency of its own.
    from pokerlab.games.observation import HandResult

    returns = state.returns()
    public = state.public_history()
    shown = showdown_cards(state, public)
    return [HandResult(seat, returns, public, shown) for seat in range(state.game.n_players)]


def play_hand(
    game: Game,
    agents: Sequence[object],
    *,
    hand: int,
    deal: int,
    seats: tuple[int, ...],
    seed: int,
    time_limit: float | None = None,
    forced: Sequence[Action] | None = None,
) -> HandRecord:
    """Play one hand; ``agents[k]`` sits in seat ``seats.index(k)``.

    Args:
        game: the game (two players).
        agents: the agents, in agent order (``a``, ``b``).
        hand: the hand index (seeds the agents).
        deal: the deal id (seeds chance).
        seats: the agent index sitting in each seat.
        seed: the match seed.
        time_limit: seconds allowed per decision, or None.
        forced: replay mode: the hand's recorded history; every chance outcome and every
            action is taken from it, the agents are still asked (so that their state
            evolves as when the hand was first played) but their answers are ignored.

    Returns:
        The hand's record; agents' ``observe`` hooks have been called.
    """
    events: list[FaultEvent] = []
    seat_agents = [agents[seats[s]] for s in range(len(seats))]
    for seat, agent in enumerate(seat_agents):
        who = seats[seat]
        _call_hook(agent, "reset", None, events, hand, seat, who)
        _call_hook(agent, "seed", agent_seed(seed, hand, who), events, hand, seat, who)
    chance_rng = np.random.default_rng([seed, deal])
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    state = game.initial_state()
    step = 0
    while state.player != TERMINAL:
        if state.player == CHANCE:
            outcomes = state.chance_outcomes()
            u = chance_rng.random()
            if forced is not None:
                outcome = forced[step]
            else:
                outcome = outcomes[-1][0]
                total = 0.0
                for candidate, prob in outcomes:
                    total += prob
                    if u < total:
                        outcome = candidate
                        break
            state = state._apply(outcome)
            step += 1
            continue
        seat = state.player
        who = seats[seat]
        agent = seat_agents[seat]
        observation = state.observation(seat)
        legal = observation.legal_actions
        tick = time.perf_counter()
        fault: tuple[str, str] | None = None
        action: Action = -1
        try:
            answer = _act(agent, observation, time_limit)
        except _DecisionTimeoutError:
            fault = ("timeout", f"no answer within the limit of {time_limit:g} s")
        except Exception as exc:
            fault = ("exception", repr(exc))
        else:
            try:
                action = int(answer)
            except (TypeError, ValueError):
                fault = ("illegal", f"returned {answer!r}, not an action id; legal: {legal}")
            else:
                if action not in legal:
                    fault = ("illegal", f"returned {answer!r}; legal: {legal}")
        elapsed = time.perf_counter() - tick
        seconds[who] += elapsed
        decisions[who] += 1
        if fault is None and time_limit is not None and elapsed > time_limit:
            fault = ("timeout", f"took {elapsed:.3f} s; the limit is {time_limit:g} s")
        if forced is not None:
            action = forced[step]
        elif fault is not None:
            action = default_action(state)
            events.append(FaultEvent(hand, seat, who, fault[0], fault[1], action))
        state = state._apply(action)
        step += 1
    results = hand_results(state)
    for seat, agent in enumerate(seat_agents):
        _call_hook(agent, "observe", results[seat], events, hand, seat, seats[seat])
    return HandRecord(
        hand=hand,
        deal=deal,
        seats=tuple(seats),
        returns=tuple(float(r) for r in state.returns()),
        history=tuple(int(a) for a in state.history),
        events=tuple(events),
        seconds=(seconds[0], seconds[1]),
        decisions=(decisions[0], decisions[1]),
    )


def iter_hands(
    game: Game,
    a: object,
    b: object,
    *,
    hands: int,
    seats: Seats = "both",
    duplicate: bool = True,
    seed: int = 0,
    time_limit: float | None = None,
    start: int = 0,
) -> Iterator[HandRecord]:
    """Play hands ``start..hands-1`` of a match one at a time (the arena's entry point).

    Hand ``i`` is the same whether the match started at 0 or at ``start`` (chance and
    seeds depend only on ``(seed, i)``), provided the agents are in the state they would
    have been in after hands ``0..start-1`` (see :func:`replay_hands`).
    """
    _check_seats(seats)
    agents = (a, b)
    for index in range(start, hands):
        deal, seat_map = hand_schedule(index, seats=seats, duplicate=duplicate)
        yield play_hand(
            game, agents, hand=index, deal=deal, seats=seat_map, seed=seed, time_limit=time_limit
        )


def replay_hands(
    game: Game, a: object, b: object, records: Sequence[HandRecord], *, seed: int = 0
) -> int:
    """Feed recorded hands to fresh agents, as if they had played them; return mismatches.

    Each agent is reset, seeded, asked to act and shown the result exactly as during the
    original hand, but the recorded actions are played. The return value counts the
    hands in which some agent's answer differed from the record (0 for agents whose
    behaviour depends only on what they observed and on the ``seed()`` hook).
    """
    mismatches = 0
    for record in records:
        check = _Recorder((a, b))
        replayed = play_hand(
            game,
            check.agents,
            hand=record.hand,
            deal=record.deal,
            seats=record.seats,
            seed=seed,
            forced=record.history,
        )
        if check.answers_differ(game, record) or replayed.returns != record.returns:
            mismatches += 1
    return mismatches


class _Recorder:
    """Wraps agents to collect their answers during a replay."""

    def __init__(self, agents: Sequence[object]) -> None:
        self.answers: list[Action] = []
        self.agents = [_RecordingAgent(agent, self.answers) for agent in agents]

    def answers_differ(self, game: Game, record: HandRecord) -> bool:
        """True if some replayed answer is not what the recorded hand shows.

        A decision recorded as a fault (exception, illegal answer, timeout) was replaced
        by the default action; the replayed answer matches it when it is the same kind of
        failure (an illegal answer) or when that seat has a fault on record in this hand.
        """
        faulted_seats = {event.seat for event in record.events}
        answers = iter(self.answers)
        state = game.initial_state()
        for action in record.history:
            if state.player >= 0:
                answer = next(answers, None)
                if answer != action:
                    replaced = action == default_action(state)
                    failed = answer not in state.legal_actions() or state.player in faulted_seats
                    if not (replaced and failed):
                        return True
            state = state._apply(action)
        return next(answers, None) is not None


class _RecordingAgent:
    def __init__(self, agent: object, answers: list[Action]) -> None:
        self.agent = agent
        self.answers = answers

    def act(self, observation: Observation) -> Action:
        try:
            answer = int(self.agent.act(observation))  # type: ignore[attr-defined]
        except Exception:
            answer = -1
        self.answers.append(answer)
        return answer

    def reset(self) -> None:
        _plain_hook(self.agent, "reset", None)

    def seed(self, value: int) -> None:
        _plain_hook(self.agent, "seed", value)

    def observe(self, result: object) -> None:
        _plain_hook(self.agent, "observe", result)


def _plain_hook(agent: object, hook: str, argument: object) -> None:
    function = getattr(agent, hook, None)
    if callable(function):
        try:
            function() if argument is None else function(argument)
        except Exception:  # the original run recorded it already
            return


# -- the match -----------------------------------------------------------------------------


def play_match(
    game: Game,
    a: MatchAgent,
    b: MatchAgent,
    *,
    hands: int = 1000,
    seats: Seats = "both",
    duplicate: bool = True,
    seed: int = 0,
    time_limit: float | None = None,
    reference: Strategy | None = None,
    fast: bool = True,
) -> MatchResult:
    """Play ``hands`` hands between ``a`` and ``b`` and estimate what ``a`` wins per hand.

    Args:
        game: a two-player game.
        a: the first agent (the estimates are from its point of view).
        b: the second agent.
        hands: hands played in each seat: with ``seats="both"`` the match plays
            ``2 * hands`` hands (``hands`` with each agent in each seat, as the challenge
            asks), with ``"first"``/``"second"`` it plays ``hands``.
        seats: ``"both"`` alternates seats; ``"first"``/``"second"`` keeps ``a`` in seat 0/1.
        duplicate: with ``seats="both"``, play every deal twice with the seats swapped.
        seed: seeds chance and the agents (see the module docstring).
        time_limit: seconds allowed per decision (slower decisions get the default action).
        reference: the profile whose exact history values make the control variate;
            default: a strategy agent's strategy, else uniform (only when the game is
            small enough to compile, which a strategy agent implies).
        fast: sample whole hands on the compiled tree when both agents are strategy-backed.

    Returns:
        The :class:`MatchResult`.

    Raises:
        PokerlabError: a game that is not two-player, a bad ``seats``, or ``hands < 1``.

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.agents import StrategyAgent
        >>> game = kuhn()
        >>> uniform = StrategyAgent(Strategy.uniform(game))
        >>> result = play_match(game, uniform, uniform, hands=1000, seed=1)
        >>> result.exact_value, result.n_hands   # 1000 hands in each seat
        (0.0, 2000)
    """
    if game.n_players != 2:
        raise PokerlabError(
            f"play_match needs a two-player game; {game.spec} has {game.n_players} players"
        )
    _check_seats(seats)
    for agent in (a, b):
        check = getattr(agent, "check_game", None)
        if callable(check):
            check(game)  # an agent that knows it cannot play this game says so up front
        backing = _agent_strategy(agent)
        if backing is not None:
            backing.check_game(game)  # StrategyMismatchError for a strategy of another game
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise PokerlabError(f"hands (per seat) must be an integer >= 1; got {hands!r}")
    if time_limit is not None and not time_limit > 0:
        raise PokerlabError(f"time_limit must be a positive number of seconds; got {time_limit!r}")
    pairs = seats == "both" and duplicate
    hands = 2 * hands if seats == "both" else hands
    names = (_agent_name(a), _agent_name(b))
    strategy_a, strategy_b = _agent_strategy(a), _agent_strategy(b)
    both = strategy_a is not None and strategy_b is not None
    if reference is None:
        reference = strategy_a or strategy_b
    index = np.arange(hands, dtype=np.int64)
    deals, a_seats = _schedule_arrays(index, seats, duplicate)
    events: tuple[FaultEvent, ...] = ()
    terminals: IntArray | None = None
    records: Sequence[HandRecord]
    if both and fast and strategy_a is not None and strategy_b is not None:
        sampler = _sampler(game)
        terminals, seat_returns = _sample_match(
            game, strategy_a, strategy_b, a_seats, deals, np.random.default_rng([seed, 0xFA57])
        )
        records = _LazyRecords(sampler.tree, terminals, deals, a_seats, seat_returns)
        a_returns = seat_returns[index, a_seats]
    else:
        played = list(
            iter_hands(
                game,
                a,
                b,
                hands=hands,
                seats=seats,
                duplicate=duplicate,
                seed=seed,
                time_limit=time_limit,
            )
        )
        records = played
        a_returns = np.array([r.agent_returns()[0] for r in played])
        events = tuple(e for r in played for e in r.events)
    units = _pair_units(a_returns, deals) if pairs else a_returns
    estimate = mean_estimate(units)
    exact: float | None = None
    if both and strategy_a is not None and strategy_b is not None:
        exact = _exact_value(game, strategy_a, strategy_b, a_seats)
    control: ControlVariateEstimate | None = None
    if reference is not None and units.shape[0] > 2:
        sampler = _sampler(game)
        luck = chance_luck(sampler.tree, reference.probs)
        if terminals is None:
            terminals = np.array([_terminal_of(sampler, r.history) for r in records])
        c = luck[terminals, a_seats]
        c_units = _pair_units(c, deals) if pairs else c
        control = control_variate_estimate(units, c_units)
    return MatchResult(
        game=str(game.spec),
        agent_names=names,
        hands=records,
        returns=a_returns,
        estimate=estimate,
        exact_value=exact,
        control_variate=control,
        events=events,
        duplicate=pairs,
        sampled=terminals is not None and both and fast,
    )


__all__ = [
    "FAULT_KINDS",
    "FaultEvent",
    "HandRecord",
    "MatchAgent",
    "MatchResult",
    "SampledHands",
    "Seats",
    "agent_seed",
    "chance_luck",
    "default_action",
    "hand_results",
    "hand_schedule",
    "iter_hands",
    "play_hand",
    "play_match",
    "play_strategies",
    "replay_hands",
    "sample_hands",
    "showdown_cards",
]
