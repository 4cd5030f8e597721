"""Deviations from the Kuhn equilibrium: what they cost against a best response, and why.

Section 3.2's notation (2-player 3-card Kuhn, cards Q < K < A): P1 bets the A with ``y``,
bluffs the Q with ``x``, calls with the K after check-bet with ``z``; P2 calls with the K
facing a bet with ``a`` and bluffs the Q after a check with ``b``. At equilibrium
``x = y/3``, ``z = (y+1)/3``, ``a = b = 1/3`` (:func:`pokerlab.strategy.kuhn_equilibrium`).
The tutorial's TODO list asks for "deviations, e.g. a player who never bluffs" and "tables
to show y and x and y and z relative to each other"; this module computes both, exactly,
on the game tree:

- :func:`deviations`: one player changes one probability (never bluffs, always bluffs,
  never or always calls with the K), the other keeps the equilibrium. For each, the
  deviant's value against the equilibrium opponent (unchanged: every deviation here is
  among actions the equilibrium made indifferent), against a best response (what the
  deviation really costs), the best response's gain over the game value, the profile's
  exploitability (NashConv / 2 = gain / 2, as ``pokerlab exploit`` reports it), and the
  best response's exploiting moves;
- :func:`x_gain` / :func:`z_gain`: P2's best-response gain against P1 playing ``(y, x)``
  (``z`` at equilibrium) or ``(y, z)`` (``x`` at equilibrium), measured, and their closed
  forms :func:`x_gain_closed_form` / :func:`z_gain_closed_form`, derived below.

Only P2's K facing a bet cares about ``x``: calling instead of folding wins 3 chips more
against a bluffed Q (probability ``x/6`` of the deal and bet) and 1 less against a bet A
(``y/6``). P2's equilibrium calls 1/3, so a best response gains ``(1 - 1/3)(3x - y)/6 =
(3x - y)/9`` when ``3x > y`` (call always) and ``(1/3)(y - 3x)/6 = (y - 3x)/18`` otherwise
(fold always). Likewise only P2's Q after a check cares about ``z``: bluffing instead of
checking loses 1 more chip against a checked A (``(1 - y)/6``), 1 against a K that calls
(``z/6``) and wins 2 against one that folds (``(1 - z)/6``), ``(1 + y - 3z)/6`` in all; the
gain is ``(1 + y - 3z)/9`` when ``3z < 1 + y`` and ``(3z - 1 - y)/18`` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import PokerlabError
from pokerlab.eval import best_response, expected_value, exploitability
from pokerlab.games import kuhn
from pokerlab.strategy import Strategy
from pokerlab.strategy.kuhn_solution import KUHN_VALUE, kuhn_equilibrium
from pokerlab.tree import compile

INFOSETS = {"x": "Q|", "y": "A|", "z": "K|pb", "a": "K|b", "b": "Q|p"}
"""The infoset each of the tutorial's variables is the bet (or call) probability of."""

OWNER = {"x": 0, "y": 0, "z": 0, "a": 1, "b": 1}
"""Who plays each variable: 0 for P1, 1 for P2."""

DEVIATIONS: tuple[tuple[str, str, float], ...] = (
    ("P1 never bluffs", "x", 0.0),
    ("P1 always bluffs", "x", 1.0),
    ("P1 never calls with the K", "z", 0.0),
    ("P1 always calls with the K", "z", 1.0),
    ("P2 never bluffs", "b", 0.0),
    ("P2 always bluffs", "b", 1.0),
    ("P2 never calls with the K", "a", 0.0),
    ("P2 always calls with the K", "a", 1.0),
)
"""The study's deviations: (name, the tutorial's variable, its new probability)."""


@dataclass(frozen=True)
class Deviation:
    """One player's deviation from the equilibrium with P1 betting the A with ``y``.

    Values are the deviant's, in chips per hand, in its own seat.

    Attributes:
        name: what the player does, e.g. ``"P1 never bluffs"``.
        player: the deviant, 0 (P1) or 1 (P2).
        variable: the tutorial's variable changed (``x``, ``z``, ``a`` or ``b``).
        probability: its new value.
        equilibrium_probability: its value at equilibrium.
        value_against_equilibrium: the deviant's value against the equilibrium opponent.
        value_against_best_response: the deviant's value against a best response.
        equilibrium_value: the deviant's seat's game value (-1/18 for P1, +1/18 for P2).
        best_response_gain: what the best response wins beyond the game value.
        exploitability: of the profile (deviant, equilibrium opponent): NashConv / 2.
        exploiting_moves: the best response's moves that gain, ``(infoset, action, gain)``
            with the gain in chips per hand (weighted by the chance of reaching the infoset).
    """

    name: str
    player: int
    variable: str
    probability: float
    equilibrium_probability: float
    value_against_equilibrium: float
    value_against_best_response: float
    equilibrium_value: float
    best_response_gain: float
    exploitability: float
    exploiting_moves: tuple[tuple[str, str, float], ...]


def deviating_strategy(y: float, changes: dict[str, float]) -> Strategy:
    """The equilibrium with P1 betting the A with ``y``, with some variables changed.

    Args:
        y: P1's probability of betting the A (the equilibrium's parameter).
        changes: new bet (or call) probabilities by the tutorial's variable names
            (``x``, ``y``, ``z``, ``a``, ``b``).

    Raises:
        PokerlabError: an unknown variable or a probability outside ``[0, 1]``.
    """
    strategy = kuhn_equilibrium(y)
    tree = compile(strategy.game)
    probs = strategy.probs.copy()
    for variable, probability in changes.items():
        if variable not in INFOSETS:
            raise PokerlabError(
                f"unknown variable {variable!r}; the tutorial's are {', '.join(INFOSETS)}"
            )
        if not 0.0 <= probability <= 1.0:
            raise PokerlabError(f"{variable} must be a probability in [0, 1]; got {probability}")
        probs[tree.infoset_id(INFOSETS[variable])] = [1.0 - probability, probability]
    return Strategy(strategy.game, probs, {"algorithm": "deviation", "y": y, **changes})


def _exploiting_moves(strategy: Strategy, responder: int) -> tuple[tuple[str, str, float], ...]:
    game = strategy.game
    tree = compile(game)
    response = best_response(game, strategy, responder)
    moves = []
    for infoset in tree.infosets_of(responder):
        n = int(tree.infoset_n_actions[infoset])
        values = response.action_values[infoset, :n]
        held = float(values @ strategy.probs[infoset, :n])
        best = int(np.argmax(values))
        gain = float(values[best]) - held
        if gain > 1e-12:
            state_name = "bet" if int(tree.infoset_actions[infoset, best]) == 1 else "pass"
            moves.append((tree.infoset_keys[infoset], _action_word(tree.infoset_keys[infoset],
                                                                    state_name), gain))
    return tuple(moves)


def _action_word(key: str, name: str) -> str:
    """``check``/``bet`` before a bet, ``fold``/``call`` facing one (from the key's letters)."""
    facing = "b" in key.split("|", 1)[1]
    if name == "pass":
        return "fold" if facing else "check"
    return "call" if facing else "bet"


def deviation(name: str, variable: str, probability: float, *, y: float = 1.0 / 3.0) -> Deviation:
    """Measure one deviation (see :class:`Deviation`) from the equilibrium with ``y``."""
    game = kuhn()
    equilibrium = kuhn_equilibrium(y)
    strategy = deviating_strategy(y, {variable: probability})
    player = OWNER[variable]
    responder = 1 - player
    response = best_response(game, strategy, responder)
    against_equilibrium = expected_value(game, strategy)[player]
    sign = 1.0 if player == 0 else -1.0
    equilibrium_value = sign * KUHN_VALUE
    tree = compile(game)
    return Deviation(
        name=name,
        player=player,
        variable=variable,
        probability=probability,
        equilibrium_probability=float(equilibrium.probs[tree.infoset_id(INFOSETS[variable]), 1]),
        value_against_equilibrium=float(against_equilibrium),
        value_against_best_response=-response.value,
        equilibrium_value=equilibrium_value,
        best_response_gain=response.value + equilibrium_value,
        exploitability=exploitability(game, strategy),
        exploiting_moves=_exploiting_moves(strategy, responder),
    )


def deviations(y: float = 1.0 / 3.0) -> list[Deviation]:
    """Every deviation of :data:`DEVIATIONS` from the equilibrium with ``y`` (P1 bets the A)."""
    return [deviation(name, variable, p, y=y) for name, variable, p in DEVIATIONS]


def _gain(y: float, variable: str, value: float) -> float:
    strategy = deviating_strategy(y, {variable: value})
    return best_response(strategy.game, strategy, 1).value - (-KUHN_VALUE)


def x_gain(y: float, x: float) -> float:
    """P2's best-response gain over +1/18 against P1 betting the A with ``y``, the Q with ``x``."""
    return _gain(y, "x", x)


def z_gain(y: float, z: float) -> float:
    """P2's best-response gain over +1/18 against P1 with ``y`` calling with the K with ``z``."""
    return _gain(y, "z", z)


def x_gain_closed_form(y: float, x: float) -> float:
    """``(3x - y)/9`` when ``3x > y``, else ``(y - 3x)/18`` (module docstring)."""
    return (3 * x - y) / 9 if 3 * x > y else (y - 3 * x) / 18


def z_gain_closed_form(y: float, z: float) -> float:
    """``(1 + y - 3z)/9`` when ``3z < 1 + y``, else ``(3z - 1 - y)/18`` (module docstring)."""
    return (1 + y - 3 * z) / 9 if 3 * z < 1 + y else (3 * z - 1 - y) / 18


@dataclass(frozen=True)
class GainTable:
    """P2's best-response gain on a grid: rows ``y``, columns the other variable.

    Attributes:
        variable: ``"x"`` or ``"z"``.
        ys: ``[rows]`` P1's probabilities of betting the A.
        values: ``[columns]`` the variable's values.
        gains: ``[rows, columns]`` P2's gain over +1/18, chips per hand.
    """

    variable: str
    ys: FloatArray
    values: FloatArray
    gains: FloatArray


TABLE_YS = (0.0, 1 / 6, 1 / 3, 1 / 2, 2 / 3, 5 / 6, 1.0)
"""The tables' rows: each makes ``x = y/3`` and ``z = (y+1)/3`` a column of its table."""

TABLE_XS = (0.0, 1 / 18, 1 / 9, 1 / 6, 2 / 9, 5 / 18, 1 / 3, 1 / 2, 1.0)
"""The x table's columns: the equilibrium's ``y/3`` for each row, then 1/2 and 1."""

TABLE_ZS = (0.0, 1 / 3, 7 / 18, 4 / 9, 1 / 2, 5 / 9, 11 / 18, 2 / 3, 1.0)
"""The z table's columns: 0, the equilibrium's ``(y+1)/3`` for each row, then 1."""


def gain_table(
    variable: str, ys: Sequence[float] = TABLE_YS, values: Sequence[float] | None = None
) -> GainTable:
    """P2's best-response gain against P1 playing ``y`` (rows) and ``x`` or ``z`` (columns).

    Raises:
        PokerlabError: if ``variable`` is not ``"x"`` or ``"z"``.
    """
    if variable not in ("x", "z"):
        raise PokerlabError(f"the tables are of x or z against y; got {variable!r}")
    if values is None:
        values = TABLE_XS if variable == "x" else TABLE_ZS
    measure = x_gain if variable == "x" else z_gain
    gains = np.array([[measure(y, v) for v in values] for y in ys])
    return GainTable(variable, np.asarray(ys, dtype=float), np.asarray(values, dtype=float), gains)


def gain_figure(tables: Sequence[GainTable], path: str) -> str:
    """Heat maps of P2's gain over (y, x) and (y, z), with the equilibrium lines drawn."""
    from pokerlab.studies._figures import pyplot, save_figure

    if not tables:
        raise PokerlabError("gain_figure needs at least one table")
    plt = pyplot()
    figure, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 4.8), squeeze=False)
    for axis, table in zip(axes[0], tables, strict=True):
        mesh = axis.pcolormesh(table.values, table.ys, table.gains, shading="nearest",
                               cmap="magma_r")
        figure.colorbar(mesh, ax=axis, label="P2's best-response gain, chips per hand")
        line = table.ys / 3 if table.variable == "x" else (table.ys + 1) / 3
        axis.plot(line, table.ys, color="tab:cyan", linewidth=2,
                  label=f"equilibrium {table.variable} = " + ("y/3" if table.variable == "x"
                                                              else "(y+1)/3"))
        axis.set_xlabel(f"{table.variable}: P1 " + ("bluffs the Q" if table.variable == "x"
                                                    else "calls with the K after check-bet"))
        axis.set_ylabel("y: P1 bets the A")
        axis.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "DEVIATIONS",
    "INFOSETS",
    "OWNER",
    "TABLE_XS",
    "TABLE_YS",
    "TABLE_ZS",
    "Deviation",
    "GainTable",
    "deviating_strategy",
    "deviation",
    "deviations",
    "gain_figure",
    "gain_table",
    "x_gain",
    "x_gain_closed_form",
    "z_gain",
    "z_gain_closed_form",
]
