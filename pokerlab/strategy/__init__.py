"""Behaviour strategies: arrays aligned with the compiled tree, files, readable tables."""

from __future__ import annotations

from pokerlab.strategy.io import load_strategy, save_strategy
from pokerlab.strategy.kuhn_solution import kuhn_equilibrium
from pokerlab.strategy.strategy import Strategy
from pokerlab.strategy.tables import StrategyRow, strategy_csv, strategy_json, strategy_rows

__all__ = [
    "Strategy",
    "StrategyRow",
    "kuhn_equilibrium",
    "load_strategy",
    "save_strategy",
    "strategy_csv",
    "strategy_json",
    "strategy_rows",
]
