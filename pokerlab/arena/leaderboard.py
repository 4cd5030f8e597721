"""The leaderboard of an arena run: means, intervals, shared places, head to head.

1. Each match's result, for each of its agents, is the mean over the match's deals of
   what the agent won per hand (a deal is played in every rotation of the table, so the
   deal means are the independent units: card luck shared by the rotations cancels),
   with its standard error.
2. An agent's score is the average of its match means, per hand (chips, or milli big
   blinds for Hold'em); its standard error is ``sqrt(sum of the matches' squared standard
   errors) / matches`` (matches are independent), and its interval is
   ``score +- z * std_error``. The leaderboard ranks by that score: the mean over the
   field of the agent's results at its tables.
3. Agents are sorted by score; an agent shares the place of the group above when a
   two-sided test of its score against the group's first agent is not significant
   (p >= 1 - confidence), so places read like ``1, 1, 3``.
4. Heads-up runs also get the head-to-head table; runs of larger tables list each table.
5. With ``aivat=True`` each standing also gets an AIVAT-corrected score, computed the same
   way from the stored hands after subtracting AIVAT's terms
   (:func:`pokerlab.eval.aivat.hand_corrections`): chance terms always (the stored histories
   hold every card), action terms for the built-in agents whose policy is exposed and fixed
   (rebuilt from their ``builtin:NAME`` source) and for those given in ``policies``
   (entrants' files run sandboxed, so no policy is read from them). Exact history values
   on games that compile, all-in equity on Texas Hold'em with 2 to 6 seats; other games get no
   AIVAT column. The terms have mean zero, so the corrected score estimates the same
   quantity with a narrower interval; the ranking stays by the plain score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.agents import make_agent
from pokerlab.arena.store import AgentRow, ArenaStore
from pokerlab.errors import PokerlabError
from pokerlab.eval.aivat import aivat_method, hand_corrections, known_policy
from pokerlab.eval.statistics import Estimate, mean_estimate, normal_quantile, welch_p_value
from pokerlab.games import Game, load
from pokerlab.games.holdem import HoldemGame
from pokerlab.strategy import Policy


@dataclass(frozen=True)
class Standing:
    """One agent's line of the leaderboard.

    Attributes:
        place: its place (shared by agents whose difference is not significant).
        name: the agent.
        estimate: its score per hand (in the leaderboard's unit), with the interval.
        matches: matches counted.
        hands: hands played.
        faults: fault events recorded against it.
        aivat: its AIVAT-corrected score with the interval (None when not computed).
    """

    place: int
    name: str
    estimate: Estimate
    matches: int
    hands: int
    faults: int
    aivat: Estimate | None = None


@dataclass(frozen=True)
class TableResult:
    """One match: its agents and what each won per hand (in the leaderboard's unit)."""

    match_index: int
    names: tuple[str, ...]
    means: tuple[float, ...]
    std_errors: tuple[float, ...]
    hands: int
    finished: bool


@dataclass(frozen=True, eq=False)
class Leaderboard:
    """The leaderboard of one run.

    Attributes:
        run_id: the run.
        game: the game's spec string.
        unit: ``"chips/hand"``, or ``"mbb/hand"`` (thousandths of a big blind) for Hold'em.
        standings: best first.
        names: agents in entry order (the order of the head-to-head matrix).
        head_to_head: ``[n, n]`` per hand won by the row agent against the column agent in
            heads-up runs (NaN on the diagonal, for matches not played yet, and in runs
            of larger tables).
        head_to_head_error: ``[n, n]`` the standard errors of those means.
        tables: every match, with each agent's result.
        failed: ``(name, source, error)`` of entrants that could not be loaded.
        complete: whether every match of the run is finished.
        hands: hands stored in the run.
        confidence: the confidence level of the intervals and of the place test.
        aivat: how AIVAT valued histories (``"exact"`` or ``"equity"``), None if not computed.
        aivat_known: the agents whose policy was known to AIVAT (action terms).
    """

    run_id: int
    game: str
    unit: str
    standings: tuple[Standing, ...]
    names: tuple[str, ...]
    head_to_head: FloatArray
    head_to_head_error: FloatArray
    tables: tuple[TableResult, ...]
    failed: tuple[tuple[str, str, str], ...]
    complete: bool
    hands: int
    confidence: float
    aivat: str | None = None
    aivat_known: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """True when no hand has been stored yet."""
        return self.hands == 0

    def place_of(self, name: str) -> int:
        """The place of agent ``name``."""
        for standing in self.standings:
            if standing.name == name:
                return standing.place
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab arena leaderboard --json``); unknown numbers are null."""

        def number(x: float) -> float | None:
            return None if not math.isfinite(x) else float(x)

        return {
            "run": self.run_id,
            "game": self.game,
            "unit": self.unit,
            "ranked_by": "mean over the agent's matches of its result per hand",
            "complete": self.complete,
            "hands": self.hands,
            "confidence": self.confidence,
            "aivat": self.aivat,
            "aivat_known": list(self.aivat_known),
            "standings": [
                {
                    "place": s.place,
                    "name": s.name,
                    "mean": number(s.estimate.mean),
                    "std_error": number(s.estimate.std_error),
                    "low": number(s.estimate.low),
                    "high": number(s.estimate.high),
                    "matches": s.matches,
                    "hands": s.hands,
                    "faults": s.faults,
                    **(
                        {}
                        if s.aivat is None
                        else {
                            "aivat_mean": number(s.aivat.mean),
                            "aivat_std_error": number(s.aivat.std_error),
                            "aivat_low": number(s.aivat.low),
                            "aivat_high": number(s.aivat.high),
                        }
                    ),
                }
                for s in self.standings
            ],
            "head_to_head": {
                "names": list(self.names),
                "mean": [[number(x) for x in row] for row in self.head_to_head],
                "std_error": [[number(x) for x in row] for row in self.head_to_head_error],
            },
            "tables": [
                {
                    "match": t.match_index,
                    "names": list(t.names),
                    "means": [number(x) for x in t.means],
                    "std_errors": [number(x) for x in t.std_errors],
                    "hands": t.hands,
                    "finished": t.finished,
                }
                for t in self.tables
            ],
            "failed": [{"name": n, "source": s, "error": e} for n, s, e in self.failed],
        }


def unit_of(game_text: str) -> tuple[str, float]:
    """The leaderboard's unit for a game and the factor from chips to it."""
    game = load(game_text)
    if isinstance(game, HoldemGame):
        return "mbb/hand", 1000.0 / game.big_blind
    return "chips/hand", 1.0


def leaderboard(
    db: str | Path | ArenaStore,
    *,
    run_id: int | None = None,
    confidence: float = 0.95,
    aivat: bool = False,
    policies: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    reference: Policy | None = None,
) -> Leaderboard:
    """Compute the leaderboard of a run (default: the latest), reading the database only.

    Args:
        db: the arena database (a path or an open store).
        run_id: the run (default: the latest).
        confidence: the level of the intervals and of the place test.
        aivat: also compute each agent's AIVAT-corrected score (item 5 of the module
            docstring); games AIVAT cannot value get none (``Leaderboard.aivat`` is None).
        policies: agent name -> the policy it truly played (a Policy or an agent exposing
            one), for AIVAT's action terms. A wrong policy biases the corrected score.
        progress: with ``aivat``, called with ``(hands corrected, hands in all)`` as AIVAT
            goes (Hold'em takes milliseconds a hand).
        reference: on games that compile, the profile the unknown seats play in ``V``
            (default: the first known policy at the table, else uniform). Any profile keeps
            the score unbiased; one close to how the agents play removes more variance (an
            equilibrium, e.g. ``solver_strategy(game, 1000)``, is a good default for entrants).

    Raises:
        PokerlabError: if the database holds no such run, or ``policies`` names an agent
            that is not in the run.
    """
    store = db if isinstance(db, ArenaStore) else ArenaStore(db, readonly=True)
    try:
        return _leaderboard(store, run_id, confidence, aivat, dict(policies or {}), progress,
                            reference)
    finally:
        if store is not db:
            store.close()


def builtin_policies(game: Game, agents: list[AgentRow]) -> dict[str, object]:
    """Name -> a fresh built-in agent, for the run's built-ins whose policy AIVAT may use.

    A built-in (source ``builtin:NAME``) is rebuilt as it played; it counts when
    :func:`pokerlab.eval.aivat.known_policy` accepts it (a fixed, exposed policy).
    """
    out: dict[str, object] = {}
    for row in agents:
        if row.error is None and row.source.startswith("builtin:"):
            try:
                agent = make_agent(row.source.removeprefix("builtin:"), game)
            except PokerlabError:
                continue
            if known_policy(game, agent) is not None:
                out[row.name] = agent
    return out


def _aivat_returns(
    game: Game,
    store: ArenaStore,
    match_id: int,
    policies: list[Any],
    n_rows: int,
    progress: Callable[[int], None] | None,
    reference: Policy | None,
) -> FloatArray:
    """``[hands, n]`` each stored hand's chips by position, minus AIVAT's terms."""
    records = store.hands(match_id)
    if len(records) != n_rows:
        raise PokerlabError(f"match {match_id}: {len(records)} hands read, {n_rows} expected")
    values = np.array([r.agent_returns() for r in records], dtype=np.float64)
    return values - hand_corrections(game, records, policies, reference=reference,
                                     progress=progress)


def _leaderboard(
    store: ArenaStore,
    run_id: int | None,
    confidence: float,
    aivat: bool,
    policies: dict[str, Any],
    progress: Callable[[int, int], None] | None = None,
    reference: Policy | None = None,
) -> Leaderboard:
    run = store.run(run_id)
    unit, scale = unit_of(run.game)
    agents = store.agents(run.id)
    playing = [a for a in agents if a.error is None]
    unknown = sorted(set(policies) - {a.name for a in playing})
    if unknown:
        raise PokerlabError(
            f"policies given for {', '.join(unknown)}, not agents of run {run.id}; agents: "
            + ", ".join(a.name for a in playing)
        )
    game = load(run.game)
    method = aivat_method(game) if aivat else None
    if method is not None:
        policies = {**builtin_policies(game, playing), **policies}
    corrected: list[list[tuple[float, float]]] = [[] for _ in playing]
    matches = store.matches(run.id)
    to_correct = sum(store.hands_done(m.id) for m in matches) if method else 0
    corrected_before = 0

    def report(done: int) -> None:
        if progress is not None:
            progress(corrected_before + done, to_correct)

    position = {a.id: k for k, a in enumerate(playing)}
    n = len(playing)
    h2h = np.full((n, n), np.nan)
    h2h_se = np.full((n, n), np.nan)
    per_agent: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    hands = [0] * n
    faults = [0] * n
    tables = []
    total_hands = 0
    for match in matches:
        members = [position[a] for a in match.agents]
        for event in store.events(match.id):
            if event.agent is not None and 0 <= event.agent < len(members):
                faults[members[event.agent]] += 1
        rows = store.agent_returns(match.id)
        names = tuple(playing[k].name for k in members)
        if not rows:
            tables.append(TableResult(match.match_index, names, (math.nan,) * len(members),
                                      (math.nan,) * len(members), 0, match.finished is not None))
            continue
        total_hands += len(rows)
        deals = np.array([r[0] for r in rows])
        returns = np.array([r[1] for r in rows], dtype=np.float64) * scale
        _, inverse = np.unique(deals, return_inverse=True)
        counts = np.bincount(inverse)
        means, ses = [], []
        for k, member in enumerate(members):
            units = np.bincount(inverse, weights=returns[:, k]) / counts
            estimate = mean_estimate(units, confidence=confidence)
            se = estimate.std_error if math.isfinite(estimate.std_error) else math.inf
            means.append(estimate.mean)
            ses.append(se)
            per_agent[member].append((estimate.mean, se))
            hands[member] += len(rows)
        if method is not None:
            known = [policies.get(playing[k].name) for k in members]
            adjusted = _aivat_returns(game, store, match.id, known, len(rows), report,
                                      reference) * scale
            corrected_before += len(rows)
            for k, member in enumerate(members):
                units = np.bincount(inverse, weights=adjusted[:, k]) / counts
                estimate = mean_estimate(units, confidence=confidence)
                se = estimate.std_error if math.isfinite(estimate.std_error) else math.inf
                corrected[member].append((estimate.mean, se))
        tables.append(TableResult(match.match_index, names, tuple(means), tuple(ses), len(rows),
                                  match.finished is not None))
        if len(members) == 2:
            i, j = members
            h2h[i, j], h2h[j, i] = means[0], means[1]
            h2h_se[i, j] = h2h_se[j, i] = ses[0]
    estimates = [_combine(per_agent[k], confidence) for k in range(n)]
    aivat_scores = [_combine(corrected[k], confidence) if method else None for k in range(n)]
    order = sorted(range(n), key=lambda k: -estimates[k].mean if estimates[k].n else math.inf)
    standings = []
    leader = -1
    place = 0
    for rank, k in enumerate(order):
        if not estimates[k].n:
            place = rank + 1 if leader < 0 or estimates[leader].n else place
            leader = k
        elif leader < 0 or welch_p_value(estimates[k], estimates[leader]) < 1 - confidence:
            leader, place = k, rank + 1
        standings.append(Standing(place, playing[k].name, estimates[k], estimates[k].n,
                                  hands[k], faults[k], aivat_scores[k]))
    return Leaderboard(
        run_id=run.id,
        game=run.game,
        unit=unit,
        standings=tuple(standings),
        names=tuple(a.name for a in playing),
        head_to_head=h2h,
        head_to_head_error=h2h_se,
        tables=tuple(tables),
        failed=tuple((a.name, a.source, a.error or "") for a in agents if a.error is not None),
        complete=all(m.finished is not None for m in matches),
        hands=total_hands,
        confidence=confidence,
        aivat=method,
        aivat_known=tuple(a.name for a in playing if a.name in policies) if method else (),
    )


def _combine(results: list[tuple[float, float]], confidence: float) -> Estimate:
    """An agent's score from its matches' ``(mean, std_error)``: item 2 of the docstring."""
    if not results:
        return Estimate(math.nan, math.nan, math.nan, math.nan, 0, confidence)
    z = normal_quantile(1 - (1 - confidence) / 2)
    mean = float(np.mean([m for m, _ in results]))
    se = math.sqrt(sum(s * s for _, s in results)) / len(results)
    return Estimate(mean, se, mean - z * se, mean + z * se, len(results), confidence)


__all__ = ["Leaderboard", "Standing", "TableResult", "builtin_policies", "leaderboard", "unit_of"]
