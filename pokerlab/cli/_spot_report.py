"""What ``pokerlab spot solve`` and ``spot show`` print: ranges a poker player can read.

One EV convention everywhere (:data:`pokerlab.subgame.result.EV_CONVENTION`): a share of
the pot, in chips and in percent of the pot. A node's range is summed up by its action
frequencies (each combo by its weight), listed by hand class (``AA, AKs, AKo, ...``) or by
combo sorted by class, and drawn as the 13x13 grid (text, or a PNG whose colours, one per
action and bet size, are the web page's: :func:`pokerlab.subgame.range_table.action_colours`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pokerlab.errors import SpecError

if TYPE_CHECKING:
    from rich.table import Table

    from pokerlab.subgame.node_lock import NodeLock
    from pokerlab.subgame.result import NodeReport, SpotSolution

WHO = ("OOP", "IP")


def ev_line(ev: tuple[float, float], pot: float) -> str:
    """``EV (share of the pot of 200): OOP 118.76 chips (59.4%), IP 81.24 chips (40.6%)``."""
    parts = [f"{WHO[p]} {ev[p]:.2f} chips ({100 * ev[p] / pot:.1f}%)" for p in (0, 1)]
    return f"EV (share of the pot of {pot:g}): " + ", ".join(parts)


def ev_json(ev: tuple[float, float], pot: float) -> dict[str, Any]:
    """The same EV as JSON: chips and percent of the pot, with the convention named."""
    from pokerlab.subgame.result import EV_CONVENTION

    return {"convention": EV_CONVENTION, "pot": pot,
            "oop": ev[0], "ip": ev[1],
            "oop_percent_of_pot": 100 * ev[0] / pot, "ip_percent_of_pot": 100 * ev[1] / pot}


def frequencies_line(report: NodeReport, where: str) -> str:
    """``OOP's whole range at the root (96 combos): check 55.2%, bet 100 30.1%``."""
    from pokerlab.subgame.range_table import range_frequencies

    who = WHO[report.player]
    combos = int((report.weights > 0).sum())
    head = f"{who}'s whole range {where} ({combos} combos, weight {report.weights.sum():.2f})"
    if report.strategy.shape[0] == 0:
        return f"{head}: {who} does not act here"
    frequencies = range_frequencies(report)
    return head + ": " + ", ".join(f"{name} {100 * f:.1f}%"
                                   for name, f in zip(report.actions, frequencies, strict=True))


def grid_values(report: NodeReport, action: str | None) -> tuple[Any, str]:
    """``(values per hand, label)`` that the grid shows.

    ``--action``'s frequency, or the frequency of bets and raises, or the weights off the
    player's decisions.
    """
    if report.strategy.shape[0] == 0:
        return None, "weight"
    if action is not None:
        matches = [k for k, name in enumerate(report.actions) if name.startswith(action)]
        if not matches:
            raise SpecError(f"--action {action!r} is not an action here; actions: "
                            f"{', '.join(report.actions)}")
        return report.strategy[matches].sum(axis=0), f"% {action}"
    aggressive = [k for k, name in enumerate(report.actions)
                  if name.split()[0] in ("bet", "raise", "all-in")]
    if not aggressive:
        return report.strategy[0], f"% {report.actions[0]}"
    return np.asarray(report.strategy[aggressive].sum(axis=0)), "% bet or raise"


def grid_text(grid: Any, weights: Any, label: str) -> str:
    """The 13x13 grid as text: each class's value in percent ('.' outside the range)."""
    from pokerlab.subgame.result import GRID_RANKS

    as_percent = label != "weight"
    lines = [f"13x13 grid ({label}; upper right suited, lower left offsuit):",
             "     " + "".join(f"{r:>5}" for r in GRID_RANKS)]
    for i, rank in enumerate(GRID_RANKS):
        cells = []
        for j in range(13):
            if weights[i, j] <= 0 or not np.isfinite(grid[i, j]):
                cells.append("    .")
            elif as_percent:
                cells.append(f"{100 * grid[i, j]:5.0f}")
            else:
                cells.append(f"{grid[i, j]:5.2f}")
        lines.append(f"{rank:>5}" + "".join(cells))
    return "\n".join(lines)


def _number(x: float, digits: int) -> str:
    return f"{x:.{digits}f}" if np.isfinite(x) else "-"


def class_table(report: NodeReport, limit: int | None) -> Table:
    """The player's hands at the node, one row per class in class order."""
    from rich.table import Table

    from pokerlab.subgame.range_table import class_rows

    who = WHO[report.player]
    table = Table(title=f"{who}'s hands at '{report.key}' by class (EV in chips of the pot "
                        f"of {report.pot:g})")
    for column in ("class", "combos", "weight", "EV", "equity", *report.actions):
        table.add_column(column, justify="right")
    for row in class_rows(report)[:limit]:
        table.add_row(row.label, str(row.combos), f"{row.weight:.2f}", _number(row.ev, 2),
                      _number(100 * row.equity, 1) + "%",
                      *(f"{100 * f:.1f}%" for f in row.strategy))
    return table


def combo_table(report: NodeReport, limit: int | None) -> Table:
    """The player's hands at the node, one row per combo, sorted by class."""
    from rich.table import Table

    from pokerlab.subgame.range_table import class_of, combo_order

    who = WHO[report.player]
    table = Table(title=f"{who}'s combos at '{report.key}' by class (EV in chips of the pot "
                        f"of {report.pot:g})")
    for column in ("hand", "class", "weight", "EV", "equity", *report.actions):
        table.add_column(column, justify="right")
    for h in combo_order(report)[:limit]:
        table.add_row(report.hands[h], class_of(report.hands[h]), f"{report.weights[h]:.3f}",
                      _number(report.ev[h], 2), _number(100 * report.equity[h], 1) + "%",
                      *(f"{100 * report.strategy[k, h]:.1f}%"
                        for k in range(report.strategy.shape[0])))
    return table


def node_lines(report: NodeReport) -> list[str]:
    """The node, whose hands are shown, its range's frequencies and EV."""
    acting = "" if report.acting < 0 else f", {WHO[report.acting]} to act"
    where = "at the root" if report.key == "" else f"at '{report.key}'"
    lines = [f"node '{report.key}': {report.kind}{acting}; board {report.board}; pot "
             f"{report.pot:g}; showing {WHO[report.player]}'s hands",
             frequencies_line(report, where)]
    ev = report.range_ev
    if np.isfinite(ev):
        equity = report.range_equity
        lines.append(f"{WHO[report.player]}'s range EV (share of the pot of {report.pot:g}): "
                     f"{ev:.2f} chips ({100 * ev / report.pot:.1f}%); equity "
                     f"{100 * equity:.1f}%")
    if report.children:
        lines.append("children: " + ", ".join(repr(k) for k in report.children))
    return lines


def lock_lines(solution: SpotSolution, locked: Sequence[NodeLock]) -> list[str]:
    """The node's locks (``locked (IP, whole range): call 100%``) and the spot's count."""
    lines = []
    for lock in locked:
        hands = lock.hands or "whole range"
        body = ", ".join(f"{action} {100 * p:g}%" for action, p in lock.frequencies)
        lines.append(f"locked ({hands}): {body}; the rest of the spot was solved against it")
    others = len(solution.locks) - len(locked)
    if others > 0:
        lines.append(f"{others} lock{'s' if others > 1 else ''} at other nodes: "
                     + ", ".join(repr(str(lock)) for lock in solution.locks
                                 if lock not in locked)
                     + "; exploitability is the locked game's")
    elif locked:
        lines.append("exploitability is the locked game's (best responses play the locks)")
    return lines


def report_json(solution: SpotSolution, report: NodeReport, grid: Any, weights: Any,
                label: str) -> dict[str, Any]:
    """A node as JSON: the range's frequencies, its classes and combos, the grid."""
    from pokerlab.subgame.range_table import (
        action_colours,
        class_of,
        class_rows,
        range_frequencies,
    )
    from pokerlab.subgame.result import EV_CONVENTION

    def number(x: float) -> float | None:
        return float(x) if np.isfinite(x) else None

    def clean(values: Any) -> Any:
        return [[number(x) for x in row] for row in values]

    return {
        "spot": solution.spot.to_dict(),
        "exploitability": solution.exploitability,
        "percent_of_pot": solution.percent_of_pot,
        "ev": ev_json(solution.ev, solution.spot.pot),
        "node": report.key, "kind": report.kind, "player": report.player,
        "acting": report.acting, "board": report.board, "pot": report.pot,
        "ev_convention": EV_CONVENTION,
        "actions": list(report.actions), "children": list(report.children),
        "colours": list(action_colours(report.actions)),
        "range": {"combos": int((report.weights > 0).sum()),
                  "weight": float(report.weights.sum()),
                  "frequencies": [float(x) for x in range_frequencies(report)],
                  "ev": number(report.range_ev)},
        "classes": [
            {"class": row.label, "combos": row.combos, "weight": row.weight,
             "ev": number(row.ev), "equity": number(row.equity),
             "strategy": [float(x) for x in row.strategy]}
            for row in class_rows(report)
        ],
        "hands": [
            {"hand": name, "class": class_of(name), "weight": float(report.weights[h]),
             "ev": number(report.ev[h]), "equity": number(report.equity[h]),
             "strategy": [float(x) for x in report.strategy[:, h]]}
            for h, name in enumerate(report.hands)
        ],
        "grid": {"label": label, "values": clean(grid), "weights": weights.tolist()},
    }


def grid_png(report: NodeReport, path: Path, *, title: str) -> None:
    """Each class a cell; its actions as stacked bands of colour, widths by frequency."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from pokerlab.strategy.io import write_file_atomic
    from pokerlab.subgame.range_table import action_colours
    from pokerlab.subgame.result import GRID_RANKS

    n_actions = report.strategy.shape[0]
    colours = action_colours(report.actions) if n_actions else ()
    figure, axes = plt.subplots(figsize=(9, 9.6))
    weights = report.grid()[1]
    top = weights.max() if weights.max() > 0 else 1.0
    frequencies = [report.grid(report.strategy[k])[0] for k in range(n_actions)]
    for i in range(13):
        for j in range(13):
            x, y = j, 12 - i
            axes.add_patch(Rectangle((x, y), 1, 1, facecolor="#eeeeee", edgecolor="white"))
            if weights[i, j] <= 0:
                continue
            height = 0.1 + 0.65 * weights[i, j] / top
            left = float(x)
            for k in range(n_actions):
                share = frequencies[k][i, j]
                if np.isfinite(share) and share > 0:
                    axes.add_patch(Rectangle((left, y), share, height,
                                             facecolor=colours[k], edgecolor="none"))
                    left += share
            if n_actions == 0:
                axes.add_patch(Rectangle((x, y), 1, height, facecolor="#4477aa"))
    for i, high in enumerate(GRID_RANKS):
        for j, low in enumerate(GRID_RANKS):
            name = high + low if i == j else (high + low + "s" if j > i else low + high + "o")
            axes.text(j + 0.5, 12 - i + 0.88, name, ha="center", va="center", fontsize=7)
    handles = [Rectangle((0, 0), 1, 1, facecolor=colours[k]) for k in range(n_actions)]
    if handles:
        axes.legend(handles, report.actions, loc="upper center", bbox_to_anchor=(0.5, -0.01),
                    ncol=min(n_actions, 5), fontsize=8, frameon=False)
    axes.set_xlim(0, 13)
    axes.set_ylim(0, 13)
    axes.set_aspect("equal")
    axes.axis("off")
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    write_file_atomic(path, lambda handle: figure.savefig(handle, format="png", dpi=110))
    plt.close(figure)
