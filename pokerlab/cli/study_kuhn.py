"""``pokerlab study kuhn-ante-bet | kuhn-deviations``: section 3.2's Kuhn remarks and TODOs.

- ``kuhn-ante-bet``: Kuhn poker with other antes and bets: the LP's value beside the
  closed form, the equilibria's probabilities of betting the A, P1's value committed to
  checking or betting the A, and what betting it gains (the remark "if the pot did not start
  at $2, P1 should always bet or always check the A"); ``--out`` draws the value against y;
- ``kuhn-deviations``: a player who never (or always) bluffs or calls, against a best
  response; the tables of x and z against y; ``--out`` draws them as heat maps.

See :mod:`pokerlab.studies.kuhn_parameters` and :mod:`pokerlab.studies.kuhn_deviations`.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pokerlab.cli._common import JsonOption, check_output_path, console, print_json
from pokerlab.errors import SpecError

OutOption = Annotated[Path | None, typer.Option("--out", help="Write the figure here (.png).")]


def _pairs(text: str) -> list[tuple[int, int]]:
    pairs = []
    for item in text.split(","):
        parts = item.strip().split("/")
        try:
            ante, bet = (int(p) for p in parts)
        except ValueError:
            raise SpecError(
                f"--pairs must be ANTE/BET pairs of whole chips separated by commas, e.g. "
                f"1/1,2/1,1/2; got {item.strip()!r}"
            ) from None
        if ante < 1 or bet < 1:
            raise SpecError(f"--pairs: the ante and the bet must be >= 1 chip; got {ante}/{bet}")
        pairs.append((ante, bet))
    return pairs


def _zero(value: float) -> float:
    return 0.0 if abs(value) < 5e-13 else value


def kuhn_ante_bet_command(
    pairs: Annotated[
        str, typer.Option("--pairs", help="ANTE/BET pairs, comma-separated.")
    ] = "1/1,2/2,2/1,3/2,2/3,1/2,1/3",
    points: Annotated[int, typer.Option("--points", min=2, help="Values of y on the curve.")] = 21,
    out: OutOption = None,
    json: JsonOption = False,
) -> None:
    """Kuhn with other antes and bets: P1 should always bet or always check the A."""
    from pokerlab.studies.kuhn_parameters import curves_figure, study, value_curves

    chosen = _pairs(pairs)
    if out is not None:
        check_output_path(out)
    rows = study(chosen)
    figure = None
    if out is not None:
        ys, curves = value_curves(chosen, points)
        figure = curves_figure(ys, curves, str(out))
    if json:
        print_json(
            {
                "rows": [
                    {
                        "ante": r.ante,
                        "bet": r.bet,
                        "lp_value": r.lp_value,
                        "closed_form": str(r.closed_form),
                        "y_range": [r.y_low, r.y_high],
                        "lp_y": r.lp_y,
                        "value_checking_the_A": _zero(r.value_y0),
                        "value_betting_the_A": _zero(r.value_y1),
                        "a_bet_gain": _zero(r.a_bet_gain),
                        "a_bet_gain_closed_form": str(r.a_bet_gain_closed_form),
                    }
                    for r in rows
                ],
                "figure": figure,
            }
        )
        return
    table = Table(title="Kuhn with other antes and bets (P1's view, chips per hand)")
    for column in ("ante", "bet", "LP value", "closed form", "equilibria bet the A",
                   "LP bets the A", "always check A", "always bet A", "bet A - check A",
                   "closed form "):
        table.add_column(column, justify="right")
    for r in rows:
        table.add_row(
            str(r.ante), str(r.bet), f"{r.lp_value:+.6f}", str(r.closed_form),
            f"{r.y_low:g}" if r.y_low == r.y_high else f"{r.y_low:g} to {r.y_high:.4g}",
            f"{r.lp_y:.4f}", f"{_zero(r.value_y0):+.6f}", f"{_zero(r.value_y1):+.6f}",
            f"{_zero(r.a_bet_gain):+.6f}", str(r.a_bet_gain_closed_form),
        )
    console.print(table)
    console.print(
        "'always check/bet A': P1's value committed to that with the A (the rest played well, "
        "P2 best-responding); 'bet A - check A': against P2's equilibrium, per hand P1 holds "
        "the A. y is free only when the ante equals the bet."
    )
    if figure is not None:
        console.print(f"wrote {figure}")


def _fraction(value: float) -> str:
    return str(Fraction(value).limit_denominator(10_000))


def kuhn_deviations_command(
    y: Annotated[
        float, typer.Option("--y", min=0.0, max=1.0, help="The equilibrium's y (P1 bets the A).")
    ] = 1.0 / 3.0,
    out: OutOption = None,
    json: JsonOption = False,
) -> None:
    """Kuhn deviations (never/always bluff or call) and the tables of x and z against y."""
    from pokerlab.studies.kuhn_deviations import deviations, gain_figure, gain_table

    if out is not None:
        check_output_path(out)
    found = deviations(y)
    tables = [gain_table("x"), gain_table("z")]
    figure = None
    if out is not None:
        fine = [i / 36 for i in range(37)]
        figure = gain_figure([gain_table("x", fine, fine), gain_table("z", fine, fine)], str(out))
    if json:
        data: dict[str, Any] = {
            "y": y,
            "deviations": [
                {
                    "name": d.name,
                    "variable": d.variable,
                    "probability": d.probability,
                    "equilibrium_probability": d.equilibrium_probability,
                    "value_against_equilibrium": d.value_against_equilibrium,
                    "value_against_best_response": d.value_against_best_response,
                    "best_response_gain": d.best_response_gain,
                    "exploitability": d.exploitability,
                    "exploiting_moves": [list(m) for m in d.exploiting_moves],
                }
                for d in found
            ],
            "tables": {
                t.variable: {"ys": t.ys.tolist(), "values": t.values.tolist(),
                             "gains": [[_zero(g) for g in row] for row in t.gains.tolist()]}
                for t in tables
            },
            "figure": figure,
        }
        print_json(data)
        return
    table = Table(title=f"Deviations from the Kuhn equilibrium with y = {y:.4g} (chips per hand, "
                        "the deviant's seat)")
    for column in ("deviant", "var", "eq.", "vs equilibrium", "vs best response",
                   "best response gains", "exploitability", "the best response"):
        table.add_column(column, justify="left" if column in ("deviant", "the best response")
                         else "right")
    for d in found:
        moves = ", ".join(f"{key} {action} (+{gain:.4f})" for key, action, gain in
                          d.exploiting_moves)
        table.add_row(
            d.name, f"{d.variable}={d.probability:g}", f"{d.equilibrium_probability:.4f}",
            f"{d.value_against_equilibrium:+.4f}", f"{d.value_against_best_response:+.4f}",
            f"{_zero(d.best_response_gain):.4f} = {_fraction(_zero(d.best_response_gain))}",
            f"{_zero(d.exploitability):.4f}", moves,
        )
    console.print(table)
    for t in tables:
        grid = Table(title=f"P2's best-response gain x 18 against P1 playing y (rows) and "
                           f"{t.variable} (columns); 0 on the equilibrium "
                           + ("x = y/3" if t.variable == "x" else "z = (y+1)/3"))
        grid.add_column("y \\ " + t.variable)
        for value in t.values:
            grid.add_column(_fraction(float(value)), justify="right")
        for y_row, gains in zip(t.ys, t.gains, strict=True):
            grid.add_row(_fraction(float(y_row)), *(f"{_zero(18 * g):.3g}" for g in gains))
        console.print(grid)
    console.print(
        "Against the equilibrium each deviation costs nothing (it changes an action the "
        "equilibrium made indifferent); against a best response it costs what the best "
        "response gains."
    )
    if figure is not None:
        console.print(f"wrote {figure}")


def add_command(group: typer.Typer) -> None:
    """Add ``kuhn-ante-bet`` and ``kuhn-deviations`` to the ``study`` command group."""
    group.command("kuhn-ante-bet")(kuhn_ante_bet_command)
    group.command("kuhn-deviations")(kuhn_deviations_command)
