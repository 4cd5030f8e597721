"""Strategies as readable tables (the tutorial's Kuhn tables), CSV and JSON."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from pokerlab.strategy.strategy import Strategy


@dataclass(frozen=True)
class StrategyRow:
    """One infoset: its key, its player, and each legal action's name and probability."""

    key: str
    player: int
    actions: tuple[tuple[str, float], ...]


def strategy_rows(
    strategy: Strategy, *, prefix: str = "", player: int | None = None
) -> list[StrategyRow]:
    """The rows of ``strategy`` whose key starts with ``prefix``, sorted by player then key."""
    tree = strategy.tree
    game = strategy.game
    rows = []
    for i, key in enumerate(tree.infoset_keys):
        owner = int(tree.infoset_player[i])
        if not key.startswith(prefix) or (player is not None and owner != player):
            continue
        n = int(tree.infoset_n_actions[i])
        actions = tuple(
            (game.action_name(int(tree.infoset_actions[i, k])), float(strategy.probs[i, k]))
            for k in range(n)
        )
        rows.append(StrategyRow(key, owner, actions))
    rows.sort(key=lambda r: (r.player, _natural(r.key)))
    return rows


def _natural(key: str) -> tuple[object, ...]:
    parts: list[object] = []
    for piece in key.split("|"):
        parts.append((0, int(piece), "") if piece.isdigit() else (1, 0, piece))
    return tuple(parts)


def strategy_csv(strategy: Strategy, *, prefix: str = "") -> str:
    """The strategy as CSV: ``infoset,player,action,probability`` rows."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["infoset", "player", "action", "probability"])
    for row in strategy_rows(strategy, prefix=prefix):
        for name, prob in row.actions:
            writer.writerow([row.key, row.player + 1, name, f"{prob:.10g}"])
    return out.getvalue()


def strategy_json(strategy: Strategy, *, prefix: str = "") -> dict[str, object]:
    """The strategy as a JSON-ready dict: game, metadata, and ``{key: {action: p}}``."""
    return {
        "game": str(strategy.game.spec),
        "metadata": dict(strategy.metadata),
        "infosets": {
            row.key: {"player": row.player + 1, "actions": dict(row.actions)}
            for row in strategy_rows(strategy, prefix=prefix)
        },
    }
