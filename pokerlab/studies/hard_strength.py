"""How strong is the Hard AI? Blueprint snapshots against the fixed Hold'em bots, and LBR.

For a list of blueprint snapshots (``.bp`` files of one game, taken as training goes on) the
study measures, each as one *cell* of a JSON results file:

- ``match``: a duplicate match of ``hard`` playing the snapshot against each opponent
  (random, always-call, always-raise, easy, hard-seed by default), in mbb/hand for the
  Hard AI with its 95% interval, the chance-luck control variate and AIVAT (heads-up Texas
  Hold'em: all-in equity times the pot);
- ``lbr``: local best response's winnings against the snapshot's policy, and against each
  opponent's policy (the exploitability lower bound the Hard AI must beat: its LBR value
  below every one of theirs, falling as training goes on).

Every finished cell is written at once (atomically) and skipped when the study runs again
with the same hand counts, so an interrupted study resumes where it stopped. :func:`plot`
draws LBR value and head-to-head win rate against training time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab._types import StageCallback
from pokerlab.abstraction.lbr_actions import lbr_raises
from pokerlab.agents import make_agent
from pokerlab.agents.hard import HardAI
from pokerlab.blueprint.store import read_header
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval import play_match
from pokerlab.eval.aivat import aivat_method, match_aivat
from pokerlab.eval.lbr import check_hands, run_lbr
from pokerlab.games import Game
from pokerlab.games.holdem import HoldemGame
from pokerlab.strategy.io import write_file_atomic
from pokerlab.studies._figures import pyplot, save_figure

OPPONENTS: tuple[str, ...] = ("random", "always-call", "always-raise", "easy", "hard-seed")
"""The fixed bots the Hard AI must beat (built-in agent names)."""


@dataclass(frozen=True)
class Snapshot:
    """One blueprint snapshot: its file, a label and the training it had.

    Attributes:
        path: the ``.bp`` file.
        label: a short name (the file's stem).
        seconds: training seconds recorded in the file's header.
        iterations: training iterations recorded in the header.
    """

    path: Path
    label: str
    seconds: float
    iterations: int

    @classmethod
    def from_file(cls, path: str | Path) -> Snapshot:
        """The snapshot of a blueprint file (its header only is read).

        Raises:
            FileFormatError: a missing or damaged file, or not a blueprint.
        """
        header = read_header(path)
        return cls(Path(path), Path(path).stem, float(header.get("seconds", 0.0)),
                   int(header.get("iterations", 0)))


def _ci(mean: float, low: float, high: float, scale: float) -> dict[str, float]:
    """An estimate in mbb/hand: mean and its 95% interval."""
    return {"mean": mean * scale, "low": low * scale, "high": high * scale}


def match_cell(
    game: Game,
    snapshot: Snapshot,
    opponent: str,
    hands: int,
    *,
    seed: int = 0,
    aivat: bool = True,
) -> dict[str, Any]:
    """A duplicate match of the snapshot's Hard AI against ``opponent``, for the Hard AI.

    ``hands`` hands are played in each seat (``2 * hands`` hands, each deal from both
    seats); results in mbb/hand with 95% intervals. ``aivat`` adds the AIVAT estimate
    (about doubles the time on heads-up Texas Hold'em).
    """
    started = time.perf_counter()
    hard = HardAI(game, blueprint=snapshot.path, seed=seed)
    other = make_agent(opponent, game, seed=seed + 1)
    result = play_match(game, hard, other, hands=hands, seed=seed)
    scale = 1000.0 / game.big_blind  # type: ignore[attr-defined]
    plain = result.estimates[0]
    cell: dict[str, Any] = {
        "kind": "match", "snapshot": snapshot.label, "opponent": opponent,
        "hands_per_seat": hands, "hands": result.n_hands, "seed": seed,
        "training_seconds": snapshot.seconds, "iterations": snapshot.iterations,
        "plain": _ci(plain.mean, plain.low, plain.high, scale),
    }  # fmt: skip
    if result.control_variates is not None:
        chance = result.control_variates[0].estimate
        cell["chance_control"] = _ci(chance.mean, chance.low, chance.high, scale)
    if aivat and aivat_method(game) is not None:
        estimates = match_aivat(game, result, [hard, other])
        if estimates is not None:
            est = estimates[0]
            cell["aivat"] = _ci(est.estimate.mean, est.estimate.low, est.estimate.high, scale)
            cell["aivat"]["variance_reduction"] = float(est.variance_reduction)
    cell["wall_seconds"] = time.perf_counter() - started
    return cell


def _policy_of(game: Game, who: str | Snapshot, seed: int) -> object:
    """The policy LBR queries: a snapshot's blueprint or a built-in agent's exposed policy."""
    agent = (HardAI(game, blueprint=who.path, seed=seed) if isinstance(who, Snapshot)
             else make_agent(who, game, seed=seed))
    policy = getattr(agent, "policy", None)
    if policy is None:
        raise PokerlabError(f"agent {who!r} does not expose its policy; LBR needs one")
    return policy


def lbr_cell(
    game: Game,
    who: str | Snapshot,
    hands: int,
    *,
    seed: int = 0,
    sizes: str = "100%,a",
    rollouts: int = 48,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """LBR's winnings (mbb/hand, 95% interval) against a snapshot or a built-in agent.

    Raises:
        SpecError: an odd or too small ``hands``, or a game that is not heads-up Hold'em.
    """
    check_hands(hands)
    if not isinstance(game, HoldemGame) or game.n_players != 2:
        raise SpecError(f"LBR plays heads-up Hold'em; got {game.spec}")
    started = time.perf_counter()
    policy = _policy_of(game, who, seed)
    result = run_lbr(game, policy, hands, seed=seed, raises=lbr_raises(sizes, game),  # type: ignore[arg-type]
                     rollouts=rollouts, progress=progress)
    cell: dict[str, Any] = {
        "kind": "lbr", "hands": result.hands, "seed": seed, "sizes": sizes,
        "rollouts": rollouts,
        "mean": result.mbb_per_hand, "low": result.mbb_per_hand - result.ci95,
        "high": result.mbb_per_hand + result.ci95, "seat_mbb": list(result.seat_mbb),
        "wall_seconds": time.perf_counter() - started,
    }  # fmt: skip
    if isinstance(who, Snapshot):
        cell.update(snapshot=who.label, training_seconds=who.seconds, iterations=who.iterations)
    else:
        cell["agent"] = who
    return cell


def load_results(path: str | Path) -> dict[str, Any]:
    """The results file (``{"game", "cells": {key: cell}}``), empty when missing.

    Raises:
        PokerlabError: a file that is not a results file.
    """
    path = Path(path)
    if not path.exists():
        return {"cells": {}}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise PokerlabError(f"cannot read study results {path}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), dict):
        raise PokerlabError(f"{path} is not a hard-strength results file (no 'cells')")
    return data


def write_results(path: str | Path, data: dict[str, Any]) -> None:
    """Write the results atomically (a temporary file, then a rename)."""
    text = json.dumps(data, indent=1, sort_keys=True)
    write_file_atomic(Path(path), lambda stream: stream.write(text.encode()))


def merge_results(datas: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several results (e.g. written by parallel runs) as one: cells and snapshots united.

    A cell present in several keeps the one with the most hands (the later file on a tie).

    Raises:
        PokerlabError: results of different games.
    """
    games = {d["game"] for d in datas if "game" in d}
    if len(games) > 1:
        raise PokerlabError(f"cannot merge results of different games: {sorted(games)}")
    merged: dict[str, Any] = {"cells": {}, "snapshots": {}}
    if games:
        merged["game"] = games.pop()
    for data in datas:
        merged["snapshots"].update(data.get("snapshots", {}))
        for key, cell in data.get("cells", {}).items():
            old = merged["cells"].get(key)
            if old is None or old.get("hands", 0) <= cell.get("hands", 0):
                merged["cells"][key] = cell
    return merged


@dataclass(frozen=True)
class Plan:
    """The cells to run, in order, and their hand counts.

    Attributes:
        match_hands: hands per seat of each snapshot's matches (by snapshot label; a
            missing label uses ``default_match_hands``; 0 skips).
        default_match_hands: hands per seat where ``match_hands`` names no count.
        lbr_hands: LBR hands against each snapshot (0 skips).
        opponent_lbr_hands: LBR hands against each opponent (0 skips).
        aivat: the opponents whose matches also get the AIVAT estimate.
    """

    match_hands: dict[str, int]
    default_match_hands: int
    lbr_hands: int
    opponent_lbr_hands: int
    aivat: frozenset[str] = frozenset(OPPONENTS)
    search: str = ""
    """A ``hard-search`` name: the searcher's cells for the last snapshot
    (:mod:`pokerlab.studies.search_strength`); empty: none."""


def plan_cells(
    snapshots: Sequence[Snapshot], opponents: Sequence[str], plan: Plan, *, lbr_first: bool
) -> list[tuple[str, str, str | Snapshot, int]]:
    """``(key, kind, who, hands)`` of every cell, the last snapshot's matches first."""
    cells: list[tuple[str, str, str | Snapshot, int]] = []
    for snap in reversed(snapshots):
        hands = plan.match_hands.get(snap.label, plan.default_match_hands)
        if hands > 0:
            cells += [(f"match/{snap.label}/{opp}", "match", snap, hands) for opp in opponents]
    lbr: list[tuple[str, str, str | Snapshot, int]] = []
    if plan.opponent_lbr_hands > 0:
        lbr += [(f"lbr/agent/{opp}", "lbr", opp, plan.opponent_lbr_hands) for opp in opponents]
    if plan.lbr_hands > 0:
        lbr += [(f"lbr/{snap.label}", "lbr", snap, plan.lbr_hands) for snap in snapshots]
    if plan.search and snapshots:
        from pokerlab.studies.search_strength import BLUEPRINT

        last = snapshots[-1]
        hands = plan.match_hands.get(last.label, plan.default_match_hands)
        if hands > 0:
            cells += [(f"search/{last.label}/{opp}", "search", last, hands)
                      for opp in (BLUEPRINT, *opponents)]
        if plan.lbr_hands > 0:
            lbr.append((f"search-lbr/{last.label}", "search-lbr", last, plan.lbr_hands))
    return lbr + cells if lbr_first else cells + lbr


def _done(cell: dict[str, Any] | None, kind: str, hands: int) -> bool:
    """Whether a stored cell already holds this measurement (same kind and hand count)."""
    if cell is None:
        return False
    return cell.get("hands_per_seat" if kind in ("match", "search") else "hands") == hands


def run_study(
    game: Game,
    snapshots: Sequence[Snapshot],
    out: str | Path,
    plan: Plan,
    *,
    opponents: Sequence[str] = OPPONENTS,
    seed: int = 0,
    lbr_sizes: str = "100%,a",
    lbr_first: bool = False,
    only: Callable[[str], bool] | None = None,
    progress: StageCallback | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run every cell of the study not yet in ``out``; write ``out`` after each cell.

    Args:
        game: the heads-up Hold'em game of every snapshot.
        snapshots: the blueprint snapshots, earliest first.
        out: the JSON results file (read first: finished cells are skipped).
        plan: the hand counts.
        opponents: built-in agent names.
        seed: the matches' and LBR's seed.
        lbr_sizes: LBR's raise sizes (no-limit).
        lbr_first: run the LBR cells before the matches.
        only: keep the cells whose key this accepts (e.g. only LBR cells).
        progress: called as LBR cells advance.
        log: called with one line per finished cell.

    Returns:
        The results (as written).

    Raises:
        SpecError: no snapshots, or a game that is not heads-up Hold'em.
    """
    if not snapshots:
        raise SpecError("the study needs at least one blueprint snapshot (.bp)")
    if not isinstance(game, HoldemGame) or game.n_players != 2:
        raise SpecError(f"the Hard AI strength study plays heads-up Hold'em; got {game.spec}")
    data = load_results(out)
    data["game"] = str(game.spec)
    data["snapshots"] = {s.label: {"path": str(s.path), "seconds": s.seconds,
                                   "iterations": s.iterations} for s in snapshots}
    cells: dict[str, Any] = data["cells"]
    for key, kind, who, hands in plan_cells(snapshots, opponents, plan, lbr_first=lbr_first):
        if (only is not None and not only(key)) or _done(cells.get(key), kind, hands):
            continue
        if kind == "match":
            assert isinstance(who, Snapshot)
            opponent = key.rsplit("/", 1)[1]
            cell = match_cell(game, who, opponent, hands, seed=seed,
                              aivat=opponent in plan.aivat)
        elif kind in ("search", "search-lbr"):
            from pokerlab.studies.search_strength import search_lbr_cell, search_match_cell

            if kind == "search":
                opponent = key.rsplit("/", 1)[1]
                cell = search_match_cell(game, who, opponent, hands, plan.search, seed=seed,
                                         aivat=opponent in plan.aivat or "/blueprint" in key)
            else:
                cell = search_lbr_cell(game, who, hands, plan.search, seed=seed,
                                       sizes=lbr_sizes)
        else:
            report = None if progress is None else (
                lambda done, k=key, n=hands: progress(k, done, n))
            cell = lbr_cell(game, who, hands, seed=seed, sizes=lbr_sizes, progress=report)
        cell["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        cells[key] = cell
        write_results(out, data)
        if log is not None:
            log(describe_cell(key, cell))
    write_results(out, data)
    return data


def describe_cell(key: str, cell: dict[str, Any]) -> str:
    """One line: the cell's key, its estimate and interval, hands and wall time."""
    if cell["kind"] in ("match", "search"):
        plain = cell["plain"]
        text = (f"{key}: {plain['mean']:+.0f} [{plain['low']:+.0f}, {plain['high']:+.0f}] "
                f"mbb/hand over {cell['hands']:,} hands")
        if "aivat" in cell:
            a = cell["aivat"]
            text += f"; AIVAT {a['mean']:+.0f} [{a['low']:+.0f}, {a['high']:+.0f}]"
    else:
        text = (f"{key}: LBR wins {cell['mean']:+.0f} [{cell['low']:+.0f}, {cell['high']:+.0f}] "
                f"mbb/hand over {cell['hands']:,} hands")
    return text + f" ({cell['wall_seconds']:.0f} s)"


def _seconds(value: float) -> str:
    """Training seconds for a table: a decimal below 10 s (the early snapshots), else whole."""
    return f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def markdown_tables(data: dict[str, Any]) -> str:
    """The results as two markdown tables (matches; LBR), for docs/hard_ai_strength.md.

    The chance-luck control variate is stored when the match had one (games that compile);
    heads-up Texas Hold'em has AIVAT instead, the column shown.
    """
    cells: dict[str, Any] = data.get("cells", {})
    lines = ["| snapshot | training s | iterations | opponent | hands | "
             "Hard AI mbb/hand (95%) | AIVAT (95%) |", "|---|---|---|---|---|---|---|"]

    def fmt(est: dict[str, float] | None) -> str:
        if est is None:
            return "-"
        return f"{est['mean']:+.0f} [{est['low']:+.0f}, {est['high']:+.0f}]"

    matches = [c for k, c in cells.items() if k.startswith("match/")]
    for c in sorted(matches, key=lambda c: (c["training_seconds"], c["opponent"])):
        lines.append(f"| {c['snapshot']} | {_seconds(c['training_seconds'])} | "
                     f"{c['iterations']:,} | {c['opponent']} | {c['hands']:,} | "
                     f"{fmt(c['plain'])} | {fmt(c.get('aivat'))} |")
    lines += ["", "| LBR against | training s | hands | LBR wins mbb/hand (95%) |",
              "|---|---|---|---|"]
    lbrs = [c for k, c in cells.items() if k.startswith("lbr/")]
    for c in sorted(lbrs, key=lambda c: (c.get("training_seconds", -1.0), c.get("agent", ""))):
        who = c.get("snapshot") or c.get("agent")
        trained = _seconds(c["training_seconds"]) if "training_seconds" in c else "-"
        lines.append(f"| {who} | {trained} | {c['hands']:,} | {fmt(c)} |")
    from pokerlab.studies.search_strength import search_markdown

    return "\n".join(lines + _trend_lines(data) + search_markdown(cells)) + "\n"


def lbr_trend(data: dict[str, Any]) -> dict[str, Any] | None:
    """Does LBR's value fall as training goes on, and does it stay below every bot's?

    Over the snapshots' LBR cells in training order: Spearman's rank correlation of LBR's
    winnings with training time (-1: every later snapshot is less exploitable), the change
    from the first snapshot to the last with its 95% interval (independent runs: the
    half-widths add in quadrature), the last snapshot's upper bound against the smallest
    lower bound among the bots' LBR cells, and the snapshots whose whole interval lies below
    every bot's. None with fewer than two snapshots.
    """
    from scipy.stats import spearmanr

    cells: dict[str, Any] = data.get("cells", {})
    snaps = sorted((c for c in cells.values() if c["kind"] == "lbr" and "snapshot" in c),
                   key=lambda c: c["training_seconds"])
    if len(snaps) < 2:
        return None
    first, last = snaps[0], snaps[-1]
    change = last["mean"] - first["mean"]
    half = ((first["high"] - first["mean"]) ** 2 + (last["high"] - last["mean"]) ** 2) ** 0.5
    rho = spearmanr([c["training_seconds"] for c in snaps], [c["mean"] for c in snaps])
    bots = [c for c in cells.values() if c["kind"] == "lbr" and "agent" in c]
    lowest_bot = min((c["low"] for c in bots), default=None)
    return {
        "snapshots": len(snaps), "spearman": float(rho.statistic),
        "first": first["snapshot"], "last": last["snapshot"],
        "change": {"mean": change, "low": change - half, "high": change + half},
        "last_high": last["high"], "lowest_bot": lowest_bot,
        "below_bots": None if lowest_bot is None else [
            c["snapshot"] for c in snaps if c["high"] < lowest_bot],
    }  # fmt: skip


def _trend_lines(data: dict[str, Any]) -> list[str]:
    trend = lbr_trend(data)
    if trend is None:
        return []
    change = trend["change"]
    lines = ["", f"LBR over the {trend['snapshots']} snapshots: Spearman rank correlation with "
             f"training time {trend['spearman']:+.2f}; {trend['last']} minus {trend['first']}: "
             f"{change['mean']:+.0f} [{change['low']:+.0f}, {change['high']:+.0f}] mbb/hand."]
    if trend["lowest_bot"] is not None:
        below = trend["last_high"] < trend["lowest_bot"]
        lines.append(f"{trend['last']}'s upper bound {trend['last_high']:+.0f}, the bots' lowest "
                     f"lower bound {trend['lowest_bot']:+.0f}: {trend['last']} "
                     f"{'below' if below else 'NOT below'} every bot; snapshots whose interval "
                     f"lies below every bot's: {len(trend['below_bots'])} of "
                     f"{trend['snapshots']} ({', '.join(trend['below_bots']) or 'none'}).")
    return lines


def _time_axis(axes: Any, seconds: list[float]) -> None:
    """Training time in seconds; a log scale when the snapshots span more than 30x."""
    axes.set_xlabel("training time (seconds)")
    if seconds and min(seconds) > 0 and max(seconds) > 30 * min(seconds):
        axes.set_xscale("log")
        axes.set_xlabel("training time (seconds, log scale)")


def plot(data: dict[str, Any], path: str | Path, *, title: str = "") -> Path:
    """LBR value and head-to-head win rate (mbb/hand) against training time, as a png.

    Left: LBR's winnings against each snapshot (error bars: 95% intervals) with each
    opponent's LBR value as a horizontal line. Right: the Hard AI's match result against
    each opponent (AIVAT where measured, else the plain mean).

    Raises:
        PokerlabError: results with no cell to draw.
    """
    cells: dict[str, Any] = data.get("cells", {})
    if not cells:
        raise PokerlabError("no results to plot: run the study first")
    plt = pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    snaps = sorted((c for c in cells.values() if c["kind"] == "lbr" and "snapshot" in c),
                   key=lambda c: c["training_seconds"])
    if snaps:
        xs = [c["training_seconds"] for c in snaps]
        ys = [c["mean"] for c in snaps]
        err = [c["high"] - c["mean"] for c in snaps]
        left.errorbar(xs, ys, yerr=err, marker="o", color="black", capsize=3,
                      label="hard (blueprint)")
    for k, c in enumerate(c for c in cells.values() if c["kind"] == "lbr" and "agent" in c):
        left.axhline(c["mean"], linestyle="--", color=f"C{k}",
                     label=f"{c['agent']} ({c['mean']:.0f})")
    _time_axis(left, [c["training_seconds"] for c in snaps])
    left.set_ylabel("LBR winnings (mbb/hand)")
    left.set_title("local best response (lower is stronger)")
    left.legend(fontsize=7)
    opponents = sorted({c["opponent"] for c in cells.values() if c["kind"] == "match"})
    for k, opp in enumerate(opponents):
        rows = sorted((c for c in cells.values()
                       if c["kind"] == "match" and c["opponent"] == opp),
                      key=lambda c: c["training_seconds"])
        est = [c.get("aivat") or c["plain"] for c in rows]
        right.errorbar([c["training_seconds"] for c in rows], [e["mean"] for e in est],
                       yerr=[[e["mean"] - e["low"] for e in est],
                             [e["high"] - e["mean"] for e in est]],
                       marker="o", capsize=3, color=f"C{k}", label=opp)
    right.axhline(0, color="grey", linewidth=0.8)
    _time_axis(right, [c["training_seconds"] for c in cells.values() if c["kind"] == "match"])
    right.set_ylabel("Hard AI winnings (mbb/hand)")
    right.set_title("head to head (duplicate, 95% intervals)")
    if opponents:
        right.legend(fontsize=7)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    return save_figure(figure, path)


__all__ = [
    "OPPONENTS",
    "Plan",
    "Snapshot",
    "describe_cell",
    "lbr_cell",
    "lbr_trend",
    "load_results",
    "markdown_tables",
    "match_cell",
    "merge_results",
    "plan_cells",
    "plot",
    "run_study",
    "write_results",
]
