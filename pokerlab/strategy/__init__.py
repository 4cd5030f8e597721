"""Policies: the contract every strategy meets, tables aligned with the tree, keyed tables.

- :class:`Policy`: probabilities of the legal actions at an observation;
- :class:`Strategy`: rows aligned with the compiled tree (exact solvers, exact evaluators);
- :class:`InfosetTable`: rows keyed by infoset key (sampling solvers on big games);
- :class:`FunctionPolicy`: a function of the observation;
- :func:`tabulate` turns any policy into a Strategy where the game compiles.
"""

from __future__ import annotations

from pokerlab.strategy.kuhn_solution import kuhn_equilibrium
from pokerlab.strategy.policy import (
    FunctionPolicy,
    Policy,
    check_distribution,
    load_policy,
    tabulate,
)
from pokerlab.strategy.strategy import Strategy, load_strategy, save_strategy
from pokerlab.strategy.table import InfosetTable
from pokerlab.strategy.tables import StrategyRow, strategy_csv, strategy_json, strategy_rows

__all__ = [
    "FunctionPolicy",
    "InfosetTable",
    "Policy",
    "Strategy",
    "StrategyRow",
    "check_distribution",
    "kuhn_equilibrium",
    "load_policy",
    "load_strategy",
    "save_strategy",
    "strategy_csv",
    "strategy_json",
    "strategy_rows",
    "tabulate",
]
