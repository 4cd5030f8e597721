"""The leaderboard of an arena run: means, intervals, shared places, head to head.

1. Each match's result is agent ``a``'s mean over the duplicate pairs (the independent
   units), with its standard error; agent ``b`` gets the negation.
2. An agent's score is the average of its match means, in chips per hand; its standard
   error is ``sqrt(sum of the matches' squared standard errors) / matches`` (matches are
   independent), and its interval is ``score +- z * std_error``.
3. Agents are sorted by score; an agent shares the place of the group above when a
   two-sided test of its score against the group's first agent is not significant
   (p >= 1 - confidence), so places read like ``1, 1, 3``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from pokerlab._types import FloatArray
from pokerlab.arena.store import ArenaStore
from pokerlab.eval.statistics import Estimate, mean_estimate, welch_p_value


@dataclass(frozen=True)
class Standing:
    """One agent's line of the leaderboard.

    Attributes:
        place: its place (shared by agents whose difference is not significant).
        name: the agent.
        estimate: its score in chips per hand, with the interval.
        matches: matches counted.
        hands: hands played.
        faults: fault events recorded against it.
    """

    place: int
    name: str
    estimate: Estimate
    matches: int
    hands: int
    faults: int


@dataclass(frozen=True, eq=False)
class Leaderboard:
    """The leaderboard of one run.

    Attributes:
        run_id: the run.
        game: the game's spec string.
        standings: best first.
        names: agents in entry order (the order of the head-to-head matrix).
        head_to_head: ``[n, n]`` chips per hand won by the row agent against the column
            agent (NaN on the diagonal and for matches not played yet).
        head_to_head_error: ``[n, n]`` the standard errors of those means.
        failed: ``(name, source, error)`` of entrants that could not be loaded.
        complete: whether every match of the run is finished.
        confidence: the confidence level of the intervals and of the place test.
    """

    run_id: int
    game: str
    standings: tuple[Standing, ...]
    names: tuple[str, ...]
    head_to_head: FloatArray
    head_to_head_error: FloatArray
    failed: tuple[tuple[str, str, str], ...]
    complete: bool
    confidence: float

    def place_of(self, name: str) -> int:
        """The place of agent ``name``."""
        for standing in self.standings:
            if standing.name == name:
                return standing.place
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab arena leaderboard --json``)."""
        def number(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {
            "run": self.run_id,
            "game": self.game,
            "complete": self.complete,
            "confidence": self.confidence,
            "standings": [
                {
                    "place": s.place,
                    "name": s.name,
                    "mean": s.estimate.mean,
                    "std_error": s.estimate.std_error,
                    "low": s.estimate.low,
                    "high": s.estimate.high,
                    "matches": s.matches,
                    "hands": s.hands,
                    "faults": s.faults,
                }
                for s in self.standings
            ],
            "head_to_head": {
                "names": list(self.names),
                "mean": [[number(x) for x in row] for row in self.head_to_head],
                "std_error": [[number(x) for x in row] for row in self.head_to_head_error],
            },
            "failed": [{"name": n, "source": s, "error": e} for n, s, e in self.failed],
        }


def leaderboard(
    db: str | Path | ArenaStore, *, run_id: int | None = None, confidence: float = 0.95
) -> Leaderboard:
    """Compute the leaderboard of a run (default: the latest) from the database.

    Raises:
        PokerlabError: if the database holds no such run.
    """
    store = db if isinstance(db, ArenaStore) else ArenaStore(db, create=False)
    try:
        return _leaderboard(store, run_id, confidence)
    finally:
        if store is not db:
            store.close()


def _leaderboard(store: ArenaStore, run_id: int | None, confidence: float) -> Leaderboard:
    run = store.run(run_id)
    agents = store.agents(run.id)
    playing = [a for a in agents if a.error is None]
    position = {a.id: k for k, a in enumerate(playing)}
    n = len(playing)
    h2h = np.full((n, n), np.nan)
    h2h_se = np.full((n, n), np.nan)
    per_agent: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    hands = [0] * n
    faults = [0] * n
    matches = store.matches(run.id)
    for match in matches:
        rows = store.agent_returns(match.id)
        i, j = position[match.agent_a], position[match.agent_b]
        for event in store.events(match.id):
            if event.agent in (0, 1):
                faults[(i, j)[event.agent]] += 1
        if not rows:
            continue
        deals = np.array([r[0] for r in rows])
        returns = np.array([r[1] for r in rows], dtype=np.float64)
        _, inverse = np.unique(deals, return_inverse=True)
        units = np.bincount(inverse, weights=returns) / np.bincount(inverse)
        estimate = mean_estimate(units, confidence=confidence)
        se = estimate.std_error if math.isfinite(estimate.std_error) else math.inf
        h2h[i, j], h2h[j, i] = estimate.mean, -estimate.mean
        h2h_se[i, j] = h2h_se[j, i] = se
        per_agent[i].append((estimate.mean, se))
        per_agent[j].append((-estimate.mean, se))
        hands[i] += len(rows)
        hands[j] += len(rows)
    z = float(stats.norm.ppf(1 - (1 - confidence) / 2))
    estimates = []
    for k in range(n):
        results = per_agent[k]
        if not results:
            estimates.append(Estimate(math.nan, math.inf, -math.inf, math.inf, 0, confidence))
            continue
        mean = float(np.mean([m for m, _ in results]))
        se = math.sqrt(sum(s * s for _, s in results)) / len(results)
        estimates.append(Estimate(mean, se, mean - z * se, mean + z * se, len(results),
                                  confidence))
    order = sorted(range(n), key=lambda k: -estimates[k].mean if estimates[k].n else math.inf)
    standings = []
    leader = -1
    place = 0
    for rank, k in enumerate(order):
        if leader < 0 or welch_p_value(estimates[k], estimates[leader]) < 1 - confidence:
            leader, place = k, rank + 1
        standings.append(Standing(place, playing[k].name, estimates[k], estimates[k].n,
                                  hands[k], faults[k]))
    return Leaderboard(
        run_id=run.id,
        game=run.game,
        standings=tuple(standings),
        names=tuple(a.name for a in playing),
        head_to_head=h2h,
        head_to_head_error=h2h_se,
        failed=tuple((a.name, a.source, a.error or "") for a in agents if a.error is not None),
        complete=all(m.finished is not None for m in matches),
        confidence=confidence,
    )


__all__ = ["Leaderboard", "Standing", "leaderboard"]
