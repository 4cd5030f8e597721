"""The searching Hard AI in the strength study: matches, head to head, LBR, decision times.

``pokerlab study hard-strength --search hard-search@500ms`` adds, for the last blueprint
snapshot, the cells this module measures (:mod:`pokerlab.studies.hard_strength` schedules
and stores them like its own):

- ``search/<snapshot>/<opponent>``: a duplicate match of the searcher
  (:class:`~pokerlab.agents.hard_search.HardSearchAI`: the snapshot's blueprint re-solved
  at each decision) against each fixed bot, with AIVAT where the game has it;
- ``search/<snapshot>/blueprint``: the searcher against its own blueprint, head to head;
- ``search-lbr/<snapshot>``: LBR's winnings against the searcher (its policy answers for
  every hand at once, as LBR asks).

Every search cell records the searcher's decision times per street (median, 95th
percentile, maximum) and how many decisions went over the budget by more than 20%.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pokerlab.abstraction.lbr_actions import lbr_raises
from pokerlab.agents import make_agent
from pokerlab.agents.hard import HardAI
from pokerlab.agents.hard_search import HardSearchAI, parse_search_name
from pokerlab.agents.search_policy import SearchSettings
from pokerlab.errors import SpecError
from pokerlab.eval import play_match
from pokerlab.eval.aivat import aivat_method, match_aivat
from pokerlab.eval.lbr import check_hands, run_lbr
from pokerlab.games import Game

BLUEPRINT = "blueprint"
"""The opponent name of the head-to-head cell: the searcher's own blueprint."""
OVER = 1.2
"""A decision over ``OVER`` times the budget counts as over it (the issue's 20%)."""


def search_settings(name: str) -> SearchSettings:
    """The settings of a ``hard-search`` name (``hard-search@500ms``, ``hard-search+200``).

    Raises:
        SpecError: a name that is not a ``hard-search`` name.
    """
    settings = parse_search_name(name)
    if settings is None:
        raise SpecError(f"--search wants a hard-search name (hard-search, hard-search@500ms, "
                        f"hard-search@2s, hard-search+200); got {name!r}")
    return settings


def timing_summary(timings: list[tuple[int, bool, float]],
                   think: float | None) -> dict[str, Any]:
    """Per street: decisions, searched ones, median, 95th percentile and maximum seconds."""
    out: dict[str, Any] = {}
    for street in sorted({t[0] for t in timings}):
        seconds = np.array([t[2] for t in timings if t[0] == street])
        searched = sum(1 for t in timings if t[0] == street and t[1])
        out[str(street)] = {
            "decisions": int(seconds.size), "searched": searched,
            "median": float(np.median(seconds)), "p95": float(np.percentile(seconds, 95)),
            "max": float(seconds.max()),
            "over_budget": (None if think is None
                            else int((seconds > OVER * think).sum())),
        }  # fmt: skip
    return out


def search_match_cell(game: Game, snapshot: Any, opponent: str, hands: int, name: str, *,
                      seed: int = 0, aivat: bool = True) -> dict[str, Any]:
    """A duplicate match of the searcher over ``snapshot`` against ``opponent`` (mbb/hand).

    ``opponent`` is a built-in name or :data:`BLUEPRINT` (the snapshot's own blueprint).
    """
    started = time.perf_counter()
    settings = search_settings(name)
    searcher = HardSearchAI(game, blueprint=snapshot.path, settings=settings, seed=seed)
    other = (HardAI(game, blueprint=snapshot.path, seed=seed + 1) if opponent == BLUEPRINT
             else make_agent(opponent, game, seed=seed + 1))
    result = play_match(game, searcher, other, hands=hands, seed=seed)
    scale = 1000.0 / game.big_blind  # type: ignore[attr-defined]
    plain = result.estimates[0]
    cell: dict[str, Any] = {
        "kind": "search", "search": name, "snapshot": snapshot.label, "opponent": opponent,
        "hands_per_seat": hands, "hands": result.n_hands, "seed": seed,
        "training_seconds": snapshot.seconds, "iterations": snapshot.iterations,
        "plain": {"mean": plain.mean * scale, "low": plain.low * scale,
                  "high": plain.high * scale},
    }  # fmt: skip
    if aivat and aivat_method(game) is not None:
        estimates = match_aivat(game, result, [searcher, other])
        if estimates is not None:
            est = estimates[0].estimate
            cell["aivat"] = {"mean": est.mean * scale, "low": est.low * scale,
                             "high": est.high * scale,
                             "variance_reduction": float(estimates[0].variance_reduction)}
    cell["decision_seconds"] = timing_summary(searcher.policy.timings, settings.think)
    cell["wall_seconds"] = time.perf_counter() - started
    return cell


def search_lbr_cell(game: Game, snapshot: Any, hands: int, name: str, *, seed: int = 0,
                    sizes: str = "100%,a", rollouts: int = 48) -> dict[str, Any]:
    """LBR's winnings (mbb/hand, 95% interval) against the searcher over ``snapshot``."""
    check_hands(hands)
    started = time.perf_counter()
    settings = search_settings(name)
    searcher = HardSearchAI(game, blueprint=snapshot.path, settings=settings, seed=seed)
    result = run_lbr(game, searcher.policy, hands, seed=seed, raises=lbr_raises(sizes, game),  # type: ignore[arg-type]
                     rollouts=rollouts)
    return {
        "kind": "search-lbr", "search": name, "snapshot": snapshot.label,
        "training_seconds": snapshot.seconds, "iterations": snapshot.iterations,
        "hands": result.hands, "seed": seed, "sizes": sizes, "rollouts": rollouts,
        "mean": result.mbb_per_hand, "low": result.mbb_per_hand - result.ci95,
        "high": result.mbb_per_hand + result.ci95,
        "decision_seconds": timing_summary(searcher.policy.timings, settings.think),
        "wall_seconds": time.perf_counter() - started,
    }  # fmt: skip


def search_markdown(cells: dict[str, Any]) -> list[str]:
    """The search cells as a markdown table (empty when there are none)."""
    rows = [c for c in cells.values() if c.get("kind") in ("search", "search-lbr")]
    if not rows:
        return []

    def fmt(est: dict[str, float] | None) -> str:
        if est is None:
            return "-"
        return f"{est['mean']:+.0f} [{est['low']:+.0f}, {est['high']:+.0f}]"

    def times(cell: dict[str, Any]) -> str:
        parts = [f"{s}: {t['median']:.2f}/{t['p95']:.2f}/{t['max']:.2f}"
                 for s, t in cell.get("decision_seconds", {}).items() if t["searched"]]
        return "; ".join(parts) or "-"

    lines = ["", "| searcher | snapshot | against | hands | searcher mbb/hand (95%) | "
             "AIVAT (95%) | s per decision by street (median/p95/max) |",
             "|---|---|---|---|---|---|---|"]
    for c in sorted(rows, key=lambda c: (c["kind"], c.get("opponent", ""))):
        if c["kind"] == "search":
            lines.append(f"| {c['search']} | {c['snapshot']} | {c['opponent']} | "
                         f"{c['hands']:,} | {fmt(c['plain'])} | {fmt(c.get('aivat'))} | "
                         f"{times(c)} |")
        else:
            lines.append(f"| {c['search']} | {c['snapshot']} | LBR (LBR's winnings) | "
                         f"{c['hands']:,} | {fmt(c)} | - | {times(c)} |")
    return lines


__all__ = [
    "BLUEPRINT",
    "OVER",
    "search_lbr_cell",
    "search_markdown",
    "search_match_cell",
    "search_settings",
    "timing_summary",
]
