"""The searching Hard AI's policy: re-solve the current street, safely, for every hand.

At a decision of seat ``q`` in a heads-up Hold'em hand (:meth:`SearchPolicy.decide`):

1. before the first searched street (``from_street``: the turn by default, where a
   search to the end of the hand fits; :meth:`SearchPolicy.from_street`) the blueprint
   answers;
2. the *street root* is the first decision of the current street; both players' ranges
   there, over every hole-card combination, come by Bayes from the actions taken: the
   opponent's from the blueprint's probabilities (off-menu raises translated,
   :meth:`~pokerlab.agents.search_blueprint.BlueprintView.action_likelihood`), ``q``'s own
   from what ``q`` really played (the blueprint, or its own earlier searches). Cards on
   the board zero the combos that hold them;
3. the subgame from the street root
   (:func:`~pokerlab.subgame.holdem_subgame.build_subgame`) has the blueprint's menu
   plus every action the hand took there, as it was made. By default (``depth="end"``)
   it goes to the end of the hand, and where that tree is too large
   (:data:`~pokerlab.subgame.holdem_subgame.MAX_SUBGAME_NODES`) the blueprint answers.
   ``depth="street"`` stops where the street's betting ends and values the rest of the
   hand at its leaves by checking it down over sampled runouts: not the blueprint's
   values, so not safe (docs/hard_search.md);
4. :func:`~pokerlab.subgame.safe_search.search` re-solves ``q``'s strategy there within
   the budget, played only where the opponent's whole range gains nothing against it over
   the reference (``safety="range"``; ``"gadget"``: no opponent hand gains, but it lost
   to the blueprint: docs/hard_search.md); the opponent's range is floored so that every
   hand it may hold keeps a say;
5. the solution answers this decision and every later one of this street that it holds;
   an opponent action that it does not hold (a bet off the menu, after the solve) starts a
   *nested* search at the new node: ``q``'s reach there from the solution, the opponent's
   alternatives its best in-tree values at the node where it deviated (Brown and
   Sandholm's nested subgame solving).

Every answer covers all combinations at once (``[combos, legal actions]``): what
:meth:`SearchPolicy.pair_probabilities` gives LBR and what AIVAT reads. Combinations the
solve does not hold (zero reach, or touching the board) get the blueprint's answer. With
an iteration budget (``think=None``) the policy is a function of the public history; with
a time budget the solver's progress depends on the machine.
"""

from __future__ import annotations

import dataclasses
import time
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pokerlab._types import Action, FloatArray, IntArray
from pokerlab.agents.search_blueprint import BlueprintView
from pokerlab.agents.search_history import card_positions, last_card_start, replay, street_start
from pokerlab.agents.search_tries import StreetTries
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.cards import parse_cards
from pokerlab.errors import GameTooLargeError, SolverError, SpecError
from pokerlab.games.base import Game
from pokerlab.games.bet_sizes import BetMenu, parse_bet_menu
from pokerlab.games.holdem_state import HoldemState
from pokerlab.games.observation import Observation
from pokerlab.subgame.holdem_subgame import (
    DEPTHS,
    MAX_SUBGAME_NODES,
    Event,
    HoldemSubgame,
    Menu,
    build_subgame,
    combo_index,
    hole_combos,
    sample_runouts,
)
from pokerlab.subgame.safe_search import (
    SAFETIES,
    Pace,
    SearchResult,
    opponent_values,
    reach_of,
    root_alternatives_after,
    search,
)
from pokerlab.subgame.units import resolve_threads

SEARCH_PRECISIONS = ("auto", "float64", "float32")
"""The solver storages a search may use (compressed is for spots too large to hold)."""

SOLVE_SHARE = 0.95
"""The share of ``think`` after which the solver stops: the rest is for its last check and
the answer over every combination (a river solve run to the whole budget ended 8-40 ms past)."""

BUILD_SHARE = 0.5
"""The share of ``think`` by which the subgame must be built, or the blueprint answers."""

REFERENCE_SHARE = 0.7
"""The share of ``think`` by which the blueprint's reference strategy over the subgame
must be worked out, or the blueprint answers (a solve with less left would barely start)."""

CACHE_SIZE = 256
"""Decisions and street searches kept (a hand needs a few; LBR and AIVAT revisit them)."""

SOLVES_BYTES = 1 << 30
"""Bytes the kept street searches may hold (subgames, strategies, bucket tables): a
no-limit turn search holds about 40 MB, so :data:`CACHE_SIZE` of them took 6.5 GB and
more in a long match; the oldest go first."""

ANSWERED_SIZE = 400_000
"""Answers kept for the hand the observer held (a few hundred bytes each): a search under a
time budget does not repeat itself, so AIVAT, revisiting a match's decisions after it, must
read the probabilities that were played, not a new search's (a 40,000-hand match of the
searcher's about four decisions a hand fits; past it the oldest go, and AIVAT then refuses
a hand whose recorded action the new search never plays)."""


def _public_key(observation: Observation) -> tuple[object, ...]:
    """What a decision is kept under: the same for every hand the observer may hold."""
    return (observation.game, observation.seat, observation.public_history, observation.board)


@dataclass(frozen=True)
class SearchSettings:
    """How the Hard AI searches.

    Attributes:
        think: seconds per decision (the search stops within it; the blueprint answers
            when even building the subgame leaves no time); None: ``iterations`` only.
        iterations: the most solver iterations per search (None: as many as ``think``
            allows).
        safety: ``"range"`` (the subgame solved as a game of its own, played only where
            the opponent's whole range gains nothing over the reference), ``"gadget"``
            (safe re-solving: no hand of it gains) or ``"none"``.
        from_street: the first street searched (0 preflop, 1 flop...); None: the turn
            (the last street of shorter games), the flop in no-limit with
            ``depth="street"`` (see :meth:`SearchPolicy.from_street`).
        depth: ``"end"`` (the rest of the hand; the blueprint answers where that is too
            large) or ``"street"`` (checked-down leaves where the street's betting ends:
            not safe) on the streets before the last (the last always goes to the end).
        runouts: completions of the board sampled at the leaves of a depth-limited search.
        floor: the share of the opponent's range spread evenly over every hand it may hold.
        variant: the range solver's variant.
        max_nodes: the largest subgame searched (public nodes); past it the blueprint
            answers the street (the build stops there, so giving up is quick).
        bets: the search's own bet sizes in no-limit (the postflop solvers' notation,
            :mod:`pokerlab.games.bet_sizes`: ``"75%"``); None: the blueprint's menu. A
            smaller menu makes a smaller subgame (a no-limit turn with one bet and one
            raise size: about 12,000 public nodes against 120,000 with ``50%,100%,a``).
            The blueprint's strategy is projected onto these sizes (each raise to the
            nearest offered one), and the safety is relative to that projection; the
            hand's own actions are in the tree as they were made, whatever the sizes.
        raises: the search's raise sizes (``"2.5x"``); None: as ``bets``.
        raise_cap: with ``bets``, the bets and raises per street the search offers (2: a
            bet and a raise, 3: and a re-raise; None: until the stacks are in): a no-limit
            turn with one bet and one raise size has about 3,600 public nodes at 2 and
            7,100 at 3. A raise the hand made past the cap is in the tree as it was made.
        threads: the solver's threads (None: every core; any count, the same answer).
        target: stop a search once its gadget game is within this percentage of the
            subgame's pot of equilibrium (measured after each batch of iterations;
            None: use the whole budget). A river is often solved to 0.1% of the pot in a
            fraction of a second: the rest of the budget is not spent.
        precision: the solver's storage: ``"float32"`` (the default: a turn subgame's
            iterations about 10-20% faster than float64's, to the same exploitability),
            ``"float64"``, or ``"auto"`` (the range solver's: the first storage that fits
            its memory limit).
    """

    think: float | None = 1.0
    iterations: int | None = None
    safety: str = "range"
    from_street: int | None = None
    depth: str = "end"
    runouts: int = 24
    floor: float = 0.05
    variant: str = "dcfr"
    max_nodes: int = 40_000
    bets: str | None = None
    raises: str | None = None
    raise_cap: int | None = None
    threads: int | None = None
    target: float | None = None
    precision: str = "float32"

    def __post_init__(self) -> None:
        if self.think is None and self.iterations is None:
            raise SpecError("the Hard AI's search needs think seconds, iterations or both")
        if self.think is not None and not (isinstance(self.think, int | float)
                                           and 0 < self.think <= 3600):
            raise SpecError(f"think must be seconds in (0, 3600]; got {self.think!r}")
        if self.iterations is not None and (not isinstance(self.iterations, int)
                                            or self.iterations < 1):
            raise SpecError(f"iterations must be an integer >= 1; got {self.iterations!r}")
        if self.safety not in SAFETIES:
            raise SpecError(f"safety must be one of {', '.join(SAFETIES)}; got {self.safety!r}")
        if self.depth not in DEPTHS:
            raise SpecError(f"depth must be one of {', '.join(DEPTHS)}; got {self.depth!r}")
        if not isinstance(self.runouts, int) or self.runouts < 1:
            raise SpecError(f"runouts must be an integer >= 1; got {self.runouts!r}")
        if not isinstance(self.max_nodes, int) or not 0 < self.max_nodes <= MAX_SUBGAME_NODES:
            raise SpecError(f"max_nodes must be in 1..{MAX_SUBGAME_NODES:,}; "
                            f"got {self.max_nodes!r}")
        if not 0 < self.floor <= 1:
            raise SpecError(f"floor must be in (0, 1]; got {self.floor!r}")
        if self.raises is not None and self.bets is None:
            raise SpecError("the search's raise sizes go with its bet sizes: give bets too")
        if self.raise_cap is not None and (self.bets is None or isinstance(
                self.raise_cap, bool) or not isinstance(self.raise_cap, int)
                or self.raise_cap < 1):
            raise SpecError("raise_cap must be an integer >= 1 with the search's own bet "
                            f"sizes (bets); got {self.raise_cap!r}")
        if self.precision not in SEARCH_PRECISIONS:
            raise SpecError(f"precision must be one of {', '.join(SEARCH_PRECISIONS)}; "
                            f"got {self.precision!r}")
        self.sizes()  # a SpecError names a size that cannot be read
        try:
            resolve_threads(self.threads)
        except SolverError as exc:
            raise SpecError(str(exc)) from None
        if self.target is not None and (isinstance(self.target, bool) or not (
                isinstance(self.target, int | float) and 0 < self.target <= 100)):
            raise SpecError(f"target must be a percentage of the pot in (0, 100]; "
                            f"got {self.target!r}")

    def sizes(self) -> BetMenu | None:
        """The search's own bet menu, or None for the blueprint's."""
        if self.bets is None:
            return None
        return parse_bet_menu(self.bets, self.raises, raise_cap=self.raise_cap)


@dataclass(frozen=True, eq=False)
class Decision:
    """The searcher's answer at one decision, for every hole-card combination.

    Attributes:
        strategy: ``[combos, legal]`` probabilities (columns in the observation's order).
        street: the street of the decision.
        searched: True when a search (new or kept from earlier this street) answered.
        seconds: wall time spent on this decision (0 when a kept search answered).
        iterations: solver iterations of the search that answered (0 for the blueprint).
        exploitability: the last measured exploitability of that search's game (chips per
            hand; NaN without search).
        max_gain: that search's largest gain of an opponent hand over its alternative.
        rejected: the search ran but left the opponent's range more to gain than the
            reference it refines (:attr:`SearchResult.gain`; not nested searches), so the
            reference plays the street (the blueprint, with an earlier street's search
            laid over it), or the blueprint itself where the reference projects it.
    """

    strategy: FloatArray
    street: int
    searched: bool
    seconds: float
    iterations: int
    exploitability: float = float("nan")
    max_gain: float = float("nan")
    rejected: bool = False


@dataclass(eq=False)
class _Solve:
    """One search of a street (or a nested one): where it starts, what it found."""

    prefix: tuple[Event, ...]  # the street's events before its root
    sub: HoldemSubgame
    view: BlueprintView
    strategy: FloatArray  # [rows_q, hands_q]
    result: SearchResult | None
    searcher: int
    profile: tuple[FloatArray, FloatArray] = field(default=(np.zeros(0), np.zeros(0)))
    rejected: bool = False  # the search ran; its strategy was more exploitable: not played
    projected: bool = False  # its reference is the blueprint projected onto its own sizes


class SearchPolicy:
    """The searching Hard AI's policy over a blueprint (see the module docstring).

    Args:
        blueprint: the blueprint policy refined (heads-up Hold'em).
        settings: how to search.

    Raises:
        SpecError: a blueprint of a game that is not heads-up Hold'em.
    """

    def __init__(self, blueprint: BlueprintPolicy,
                 settings: SearchSettings | None = None) -> None:
        game = blueprint.game
        rules = getattr(game, "rules", None)
        if rules is None or game.n_players != 2:
            raise SpecError(f"the searching Hard AI plays heads-up Hold'em; got {game.spec}")
        self.blueprint = blueprint
        self.settings = settings or SearchSettings()
        self._sizes = self.settings.sizes()
        self.name = f"search({blueprint.name})"
        self._combos = hole_combos(rules)
        self._index = combo_index(rules)
        self._decisions: OrderedDict[tuple[object, ...], Decision] = OrderedDict()
        self._solves: OrderedDict[tuple[object, ...], list[_Solve]] = OrderedDict()
        self._weights: dict[tuple[object, ...], int] = {}  # bytes each street's searches hold
        self._likelihoods: OrderedDict[tuple[object, ...], FloatArray] = OrderedDict()
        self._large: OrderedDict[tuple[object, ...], bool] = OrderedDict()  # blueprint plays
        self._answered: OrderedDict[tuple[object, ...], tuple[float, ...]] = OrderedDict()
        self._paces: dict[int, Pace] = {}  # by the root's board size: alike subgames
        self._tries = StreetTries()  # streets whose searches keep failing (with a clock)
        self.timings: list[tuple[int, bool, float]] = []
        """``(street, searched, seconds)`` of every decision worked out (not the kept ones)."""

    @property
    def game(self) -> Game:
        """The game it plays."""
        return self.blueprint.game

    def from_street(self, game: Game) -> int:
        """The first street searched in ``game``.

        By default the turn (searched to the end of the hand), or the flop in no-limit
        with ``depth="street"``: a no-limit flop to the end of the hand is far over
        :attr:`SearchSettings.max_nodes` with any menu.
        """
        if self.settings.from_street is not None:
            return self.settings.from_street
        last = len(game.rules.board_sizes) - 1  # type: ignore[attr-defined]
        wanted = 1 if (game.rules.no_limit and self.settings.depth == "street") else 2  # type: ignore[attr-defined]
        return min(wanted, last)

    # -- the Policy contract ---------------------------------------------------------------
    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """``{action: probability}`` for the observer's own cards.

        The same observation always gets the same answer (:data:`ANSWERED_SIZE` answers
        are kept), even once its search has left the cache: what was played is what a
        later evaluation (AIVAT) reads.
        """
        key = (*_public_key(observation), observation.private_cards)
        found = self._answered.get(key)
        if found is None:
            decision = self.decide(observation)
            row = decision.strategy[self._combo_of(observation.private_cards)]
            found = tuple(float(p) for p in row)
            self._answered[key] = found
            if len(self._answered) > ANSWERED_SIZE:
                self._answered.popitem(last=False)
        return dict(zip(observation.legal_actions, found, strict=True))

    def action_probabilities_batch(self, observations: Sequence[Observation]
                                   ) -> list[dict[Action, float]]:
        """The probabilities at each observation (one search per public history)."""
        return [self.action_probabilities(obs) for obs in observations]

    def pair_probabilities(self, observation: Observation, pairs: IntArray) -> FloatArray:
        """``[len(pairs), len(legal)]``: the answer for each hole-card pair in the seat's place.

        Columns in the order of ``observation.legal_actions``; one search answers all.
        """
        decision = self.decide(observation)
        rows = [self._index[tuple(sorted(int(c) for c in pair))]
                for pair in np.asarray(pairs, dtype=np.int64).reshape(len(pairs), -1)]
        return np.asarray(decision.strategy[rows], dtype=np.float64)

    def _combo_of(self, cards: str) -> int:
        return self._index[tuple(sorted(int(c) for c in parse_cards(cards)))]

    # -- deciding --------------------------------------------------------------------------
    def decide(self, observation: Observation) -> Decision:
        """The answer at ``observation`` for every combination (kept per public history)."""
        key = _public_key(observation)
        found = self._decisions.get(key)
        if found is not None:
            self._decisions.move_to_end(key)
            return found
        started = time.perf_counter()
        decision = self._decide(observation, started)
        self.timings.append((decision.street, decision.searched and not decision.rejected,
                             time.perf_counter() - started))
        self._decisions[key] = decision
        if len(self._decisions) > CACHE_SIZE:
            self._decisions.popitem(last=False)
        return decision

    def _decide(self, observation: Observation, started: float) -> Decision:
        game = self.blueprint.game_of(observation)
        state = game.public_state(observation)  # type: ignore[attr-defined]
        assert isinstance(state, HoldemState)
        if state.player != observation.seat:
            raise SpecError(f"seat {observation.seat} is not to act at this observation")
        street = state.street
        if street < self.from_street(game) or state.player < 0:
            return self._blueprint_decision(observation, street, started)
        hole = game.rules.n_hole_cards  # type: ignore[attr-defined]
        history = state.history
        root_at = street_start(state, hole)
        prefix_key = (observation.game, observation.seat, tuple(history[hole:root_at]))
        events: tuple[Event, ...] = tuple(("a", int(a)) for a in history[root_at:])
        solves = self._solves.get(prefix_key)
        if solves is not None:
            self._solves.move_to_end(prefix_key)
        fresh = solves is None
        solve = None if solves is None else _holding(solves, events)
        if solve is None:
            remaining = self._budget(started)
            too_large = prefix_key in self._large or (prefix_key, events) in self._large
            if too_large or (remaining is not None and remaining <= 0):
                return self._blueprint_decision(observation, street, started)
            tries = (observation.game, street) if self.settings.think is not None else None
            if solves is None and not self._tries.should_try(tries):
                self._blueprint_plays(prefix_key)  # its searches keep failing: not this time
                return self._blueprint_decision(observation, street, started)
            root = replay(game, history[:root_at])
            try:
                if solves is None:
                    solve = self._street_solve(game, root, events, observation.seat, started)
                    self._tries.built(tries)
                    solves = [solve]
                    self._solves[prefix_key] = solves
                else:
                    if not _holds_opponent_decision(solves[-1], events, observation.seat):
                        # our own action left the last search's tree: the blueprint played
                        # it (that search was rejected or not run), and plays on
                        self._blueprint_plays((prefix_key, events))
                        return self._blueprint_decision(observation, street, started)
                    solve = self._nested_solve(game, solves[-1], state, history, events,
                                               observation.seat, started)
                    solves.append(solve)
                self._weigh(prefix_key)
            except GameTooLargeError:  # past max_nodes, or not built or referenced in time:
                # the blueprint plays this street (a search would not finish in budget)
                if solves is None:
                    self._tries.failed(tries)
                self._blueprint_plays(prefix_key if solves is None else (prefix_key, events))
                return self._blueprint_decision(observation, street, started)
            fresh = True
            if solve.projected and (solve.rejected or solve.result is None):
                # not played (rejected, or no time to run), and its reference only
                # projects the blueprint onto the search's sizes: the blueprint itself
                # plays the street, and the next street refines it, not the projection
                solves.remove(solve)
                if not solves:
                    del self._solves[prefix_key]
                self._weigh(prefix_key)
                self._blueprint_plays(prefix_key if not solves else (prefix_key, events))
                result = solve.result
                return dataclasses.replace(
                    self._blueprint_decision(observation, street, started),
                    searched=result is not None, rejected=solve.rejected,
                    iterations=0 if result is None else result.iterations,
                    exploitability=float("nan") if result is None else result.exploitability,
                    max_gain=float("nan") if result is None else result.max_gain)
        node = solve.sub.node_of(events[len(solve.prefix):])
        assert node is not None
        strategy = self._answer(solve, node, observation)
        result = solve.result
        return Decision(
            strategy=strategy, street=street, searched=True,
            seconds=time.perf_counter() - started if fresh else 0.0,
            iterations=0 if result is None else result.iterations,
            exploitability=float("nan") if result is None else result.exploitability,
            max_gain=float("nan") if result is None else result.max_gain,
            rejected=solve.rejected,
        )  # fmt: skip

    def kept_search(self, observation: Observation
                    ) -> tuple[HoldemSubgame, BlueprintView, FloatArray, bool] | None:
        """The street search (not nested) kept for ``observation`` after :meth:`decide`.

        ``(subgame, blueprint view, q's rows, rejected)``; None where none is kept there.
        """
        game = self.blueprint.game_of(observation)
        state = game.public_state(observation)  # type: ignore[attr-defined]
        hole = game.rules.n_hole_cards  # type: ignore[attr-defined]
        root_at = street_start(state, hole)
        solves = self._solves.get((observation.game, observation.seat,
                                   tuple(state.history[hole:root_at])))
        events = tuple(("a", int(a)) for a in state.history[root_at:])
        if not solves or solves[0].sub.node_of(events) is None:
            return None
        return solves[0].sub, solves[0].view, solves[0].strategy, solves[0].rejected

    def _weigh(self, key: tuple[object, ...]) -> None:
        """Record the bytes the street searches at ``key`` hold, and drop the oldest others.

        Others go while all kept searches hold more than :data:`SOLVES_BYTES` or number
        more than :data:`CACHE_SIZE`; ``key``'s stay.
        """
        solves = self._solves.get(key)
        if solves is None:
            self._weights.pop(key, None)
        else:
            self._weights[key] = sum(_footprint(solve) for solve in solves)
        while len(self._solves) > 1 and (len(self._solves) > CACHE_SIZE
                                         or sum(self._weights.values()) > SOLVES_BYTES):
            oldest = next(iter(self._solves))
            if oldest == key:
                break
            del self._solves[oldest]
            self._weights.pop(oldest, None)

    def _blueprint_plays(self, key: tuple[object, ...]) -> None:
        """The blueprint plays the rest of the street (or of a nested search) at ``key``."""
        self._large[key] = True
        if len(self._large) > CACHE_SIZE:
            self._large.popitem(last=False)

    def _deadline(self, started: float, share: float = BUILD_SHARE) -> float | None:
        """When building a subgame must stop: half the budget (the solve needs the rest).

        With ``share``, when another step before the solve must be done (the blueprint's
        reference strategy: :data:`REFERENCE_SHARE`).
        """
        think = self.settings.think
        return None if think is None else started + share * think

    def _budget(self, started: float) -> float | None:
        think = self.settings.think
        return None if think is None else think - (time.perf_counter() - started)

    def _blueprint_decision(self, observation: Observation, street: int,
                            started: float) -> Decision:
        board = parse_cards(observation.board)
        touches = (np.isin(self._combos, np.array(board)).any(axis=1) if board
                   else np.zeros(len(self._combos), dtype=bool))
        table = np.full((len(self._combos), len(observation.legal_actions)),
                        1.0 / max(len(observation.legal_actions), 1))
        ok = np.flatnonzero(~touches)  # combos holding a board card cannot be asked
        table[ok] = self.blueprint.pair_probabilities(observation, self._combos[ok])
        return Decision(table, street, False, time.perf_counter() - started, 0)

    # -- ranges ----------------------------------------------------------------------------
    def _range(self, game: Game, history: Sequence[Action], player: int,
               searcher: int) -> FloatArray:
        """``player``'s range over the combos after ``history`` (Bayes over its actions)."""
        rules = game.rules  # type: ignore[attr-defined]
        hole = rules.n_hole_cards
        weights = np.ones(len(self._combos))
        state = game.initial_state()
        for k, action in enumerate(history):
            if k >= hole and state.player == player:
                weights = weights * self._likelihood(game, state, action, player == searcher)
            state = state.child(action)
        board = tuple(int(c) for c in state.board)  # type: ignore[attr-defined]
        if board:
            weights[np.isin(self._combos, np.array(board)).any(axis=1)] = 0.0
        return weights

    def _likelihood(self, game: Game, state: object, action: Action, own: bool) -> FloatArray:
        """Each combo's probability of ``action`` at ``state``: its own play, or the blueprint's."""
        assert isinstance(state, HoldemState)
        observation = state.observation(state.player)
        key = (observation.game, observation.seat, observation.public_history,
               observation.board, action, own)
        found = self._likelihoods.get(key)
        if found is not None:
            return found
        if own and state.street >= self.from_street(game):
            decision = self.decide(observation)
            column = list(observation.legal_actions).index(action)
            found = np.asarray(decision.strategy[:, column], dtype=np.float64)
        else:
            found = BlueprintView(self.blueprint).action_likelihood(observation, action)
        self._likelihoods[key] = found
        if len(self._likelihoods) > 4 * CACHE_SIZE:
            self._likelihoods.popitem(last=False)
        return found

    def _floored(self, weights: FloatArray, board: tuple[int, ...]) -> FloatArray:
        """The opponent's range mixed with an even spread over every hand it may hold."""
        possible = ~np.isin(self._combos, np.array(board, dtype=np.int64)).any(axis=1) \
            if board else np.ones(len(self._combos), dtype=bool)
        even = np.asarray(possible / possible.sum(), dtype=np.float64)
        total = float(weights[possible].sum())
        if total <= 0:
            return even
        floor = self.settings.floor
        return np.asarray((1 - floor) * np.where(possible, weights, 0.0) / total + floor * even)

    def _reach(self, weights: FloatArray, board: tuple[int, ...]) -> FloatArray:
        """The searcher's own reach, or an even spread where no hand of it gets here.

        A history its own play never reaches (an evaluator asks about every one) still
        gets an answer: the search then plays as if any hand could be there.
        """
        if float(weights.sum()) > 0:
            return weights
        return self._floored(np.zeros_like(weights), board)

    # -- searches --------------------------------------------------------------------------
    def _depth(self, game: Game, street: int) -> str:
        last = len(game.rules.board_sizes) - 1  # type: ignore[attr-defined]
        return "end" if street == last else self.settings.depth

    def _street_solve(self, game: Game, root: HoldemState, path: tuple[Event, ...],
                      searcher: int, started: float) -> _Solve:
        rules = game.rules  # type: ignore[attr-defined]
        history = root.history
        opponent = 1 - searcher
        board = tuple(int(c) for c in root.board)
        weights = [np.zeros(0), np.zeros(0)]
        weights[searcher] = self._reach(self._range(game, history, searcher, searcher), board)
        weights[opponent] = self._floored(self._range(game, history, opponent, searcher), board)
        depth = self._depth(game, root.street)
        seed = zlib.crc32(repr((str(game.spec), tuple(history[rules.n_hole_cards:]))).encode())
        runouts = (sample_runouts(rules, board, self.settings.runouts,
                                  np.random.default_rng(seed)) if depth == "street" else ())
        view = BlueprintView(self.blueprint, root, path)
        sub = build_subgame(rules, root.betting_node, board, (weights[0], weights[1]),
                            self._menu(view), path=path, depth=depth, runouts=runouts,
                            description=f"{game.spec} street {root.street} search",
                            max_nodes=self.settings.max_nodes,
                            deadline=self._deadline(started))
        return self._solve(sub, view, (), searcher, None, started,
                           self._earlier(game, root, searcher))

    def _menu(self, view: BlueprintView) -> Menu:
        """The subgame's menu: the search's own sizes, or the blueprint's."""
        sizes = self._sizes
        return view.menu if sizes is None else view.sized_menu(sizes)

    def _earlier(self, game: Game, root: HoldemState, searcher: int
                 ) -> tuple[_Solve, tuple[Event, ...]] | None:
        """The last street's search that went on to this street, and the way from it here.

        A search to the end of the hand (``depth="end"``) already chose ``searcher``'s play
        on later streets; the next street's search refines that play, not the blueprint's,
        or the two searches could contradict each other (the earlier one's safety assumed
        its own later play).
        """
        hole = game.rules.n_hole_cards  # type: ignore[attr-defined]
        history = root.history
        if root.street == 0:
            return None
        earlier_root = street_start(replay(game, history[: last_card_start(root, hole)]), hole)
        key = (game.spec_text, searcher, tuple(history[hole:earlier_root]))
        solves = self._solves.get(key)
        if not solves:
            return None
        cards = card_positions(root, hole)  # one replay of the hand, not one per event
        events: tuple[Event, ...] = tuple(
            ("c" if k in cards else "a", int(a))
            for k, a in enumerate(history) if k >= earlier_root)
        for solve in reversed(solves):
            n = len(solve.prefix)
            if events[:n] == solve.prefix and solve.sub.depth == "end" \
                    and solve.sub.node_of(events[n:]) is not None:
                return solve, events[n:]
        return None

    def _nested_solve(self, game: Game, outer: _Solve, state: HoldemState,
                      history: Sequence[Action], events: tuple[Event, ...],
                      searcher: int, started: float) -> _Solve:
        """A search rooted after an opponent action the last search does not hold."""
        rules = game.rules  # type: ignore[attr-defined]
        opponent = 1 - searcher
        inner = events[len(outer.prefix):]
        parent = outer.sub.node_of(inner[:-1])
        if parent is None or outer.sub.public.tree.player(parent) != opponent:
            raise SpecError(f"cannot nest a search at {events}: the last search does not hold "
                            "the opponent's decision before it")
        board = tuple(int(c) for c in state.board)
        profile = outer.profile
        reach = reach_of(outer.sub.public, profile, parent, searcher)
        weights = [np.zeros(0), np.zeros(0)]
        weights[searcher] = self._reach(outer.sub.full_vector(searcher, reach), board)
        weights[opponent] = self._floored(self._range(game, history, opponent, searcher), board)
        root = replay(game, history)
        depth = self._depth(game, state.street)
        seed = zlib.crc32(repr((str(game.spec), tuple(history[rules.n_hole_cards:]))).encode())
        runouts = (sample_runouts(rules, board, self.settings.runouts,
                                  np.random.default_rng(seed)) if depth == "street" else ())
        view = BlueprintView(self.blueprint, root, ())
        sub = build_subgame(rules, root.betting_node, board, (weights[0], weights[1]),
                            self._menu(view), depth=depth, runouts=runouts,
                            description=f"{game.spec} nested search",
                            max_nodes=self.settings.max_nodes,
                            deadline=self._deadline(started))
        alternative = None
        if outer.result is not None:
            values = root_alternatives_after(
                outer.sub.public, opponent_values(outer.sub.public, outer.profile, opponent,
                                                  threads=self.settings.threads), parent)
            full = outer.sub.full_vector(opponent, values, fill=np.inf)
            alternative = full[sub.hand_ids[opponent]]
            # A hand the outer search did not hold has no alternative: the largest one.
            finite = np.isfinite(alternative)
            if not finite.all():
                alternative = np.where(finite, alternative,
                                       alternative[finite].max() if finite.any() else 0.0)
        return self._solve(sub, view, events, searcher, alternative, started)

    def _solve(self, sub: HoldemSubgame, view: BlueprintView, prefix: tuple[Event, ...],
               searcher: int, alternative: FloatArray | None, started: float,
               earlier: tuple[_Solve, tuple[Event, ...]] | None = None) -> _Solve:
        settings = self.settings
        opponent = 1 - searcher
        public = sub.public
        reference: list[FloatArray] = [np.zeros(0), np.zeros(0)]
        reference[searcher] = view.reference(sub, searcher,
                                             deadline=self._deadline(started, REFERENCE_SHARE))
        if earlier is not None:
            _overlay(reference[searcher], sub, searcher, *earlier)
        reference[opponent] = np.zeros((public.tree.n_rows[opponent], public.n_hands[opponent]))
        remaining = self._budget(started)
        result = None
        strategy = reference[searcher]
        if remaining is None or remaining > 0:
            result = search(public, searcher, (reference[0], reference[1]),
                            safety=settings.safety, alternative=alternative,
                            iterations=settings.iterations,
                            seconds=None if settings.think is None
                            else settings.think * SOLVE_SHARE,
                            variant=settings.variant, started=started,
                            threads=settings.threads,
                            target=None if settings.target is None
                            else settings.target / 100 * public.pot,
                            precision=settings.precision,
                            pace=self._paces.setdefault(len(sub.root_board), Pace()))
            if result.iterations == 0:
                result = None
        # Played only where the opponent's range gains nothing in all over the reference.
        rejected = (result is not None and settings.safety != "none"
                    and alternative is None and result.gain > 0)
        if result is not None and not rejected:
            strategy = result.strategy
        profile = [reference[0], reference[1]]
        profile[searcher] = strategy
        return _Solve(prefix, sub, view, strategy, result, searcher,
                      (profile[0], profile[1]), rejected,
                      projected=self._sizes is not None and sub.rules.no_limit
                      and earlier is None)

    def _answer(self, solve: _Solve, node: int, observation: Observation) -> FloatArray:
        """``[combos, legal]`` at ``node`` of a search: its rows, the blueprint elsewhere."""
        sub = solve.sub
        tree = sub.public.tree
        q = solve.searcher
        legal = list(observation.legal_actions)
        actions = sub.actions[node]
        row = tree.row(node)
        out = np.zeros((len(self._combos), len(legal)))
        ids = sub.hand_ids[q]
        rows = solve.strategy[row : row + len(actions)]  # [k, hands_q]
        totals = rows.sum(axis=0)  # a float32 solve's rows sum to 1 within 1e-7
        rows = rows / np.where(totals > 0, totals, 1.0)
        missing = np.ones(len(self._combos), dtype=bool)
        missing[ids] = False
        others = np.flatnonzero(missing)
        betting = sub.betting[node]
        assert betting is not None
        fallback = solve.view.strategy_at(solve.view.abstract_of(sub.events[node]), betting,
                                          sub.board_of(node), actions, others)
        for k, action in enumerate(actions):
            column = legal.index(action)
            out[ids, column] = rows[k]
            out[others, column] = fallback[k]
        return out


def _footprint(solve: _Solve) -> int:
    """Bytes a kept search holds: its subgame's arrays, strategies and bucket tables."""
    public = solve.sub.public
    arrays = [solve.strategy, *solve.profile, public.tree.nodes, public.tree.amounts,
              *public.strength]
    return (sum(int(a.nbytes) for a in arrays) + sum(t.nbytes for t in public.tables)
            + solve.view.nbytes)


def _holds_opponent_decision(outer: _Solve, events: tuple[Event, ...], searcher: int) -> bool:
    """Whether ``outer``'s tree holds the opponent's decision before the last of ``events``.

    A nested search starts below it; where the searcher's own earlier action is not in the
    tree (the blueprint played it), it cannot.
    """
    parent = outer.sub.node_of(events[len(outer.prefix):][:-1])
    return parent is not None and outer.sub.public.tree.player(parent) == 1 - searcher


def _overlay(reference: FloatArray, sub: HoldemSubgame, searcher: int, earlier: _Solve,
             way: tuple[Event, ...]) -> None:
    """Replace ``reference``'s rows by the earlier search's, where its tree holds the node."""
    tree = sub.public.tree
    old_tree = earlier.sub.public.tree
    ids = sub.hand_ids[searcher]
    for n in tree.decision_nodes(searcher).tolist():
        old = earlier.sub.node_of(way + sub.events[n])
        if old is None or earlier.sub.actions[old] != sub.actions[n]:
            continue
        row, old_row = tree.row(n), old_tree.row(old)
        for k in range(len(sub.actions[n])):
            full = earlier.sub.full_vector(searcher, earlier.strategy[old_row + k], fill=np.nan)
            values = full[ids]
            keep = np.isfinite(values)
            reference[row + k, keep] = values[keep]


def _holding(solves: list[_Solve], events: tuple[Event, ...]) -> _Solve | None:
    """The latest search whose tree holds the node ``events`` reach (None: none does)."""
    for solve in reversed(solves):
        n = len(solve.prefix)
        if events[:n] == solve.prefix and solve.sub.node_of(events[n:]) is not None:
            return solve
    return None


__all__ = ["CACHE_SIZE", "SOLVES_BYTES", "Decision", "SearchPolicy", "SearchSettings"]
