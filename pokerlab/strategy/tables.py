"""Strategies as readable tables (the tutorial's Kuhn tables), CSV and JSON.

Each row names its actions as play does at that infoset
(:func:`~pokerlab.strategy.action_names.infoset_action_names`): ``check``/``bet`` where no
bet is faced, ``fold``/``call``/``raise`` where one is, so a table reads like the game a
player sees. :meth:`Strategy.from_dict` reads these names back (and the game's own names,
``pass`` or ``call`` at any infoset, which tables printed before).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from pokerlab.strategy.action_names import infoset_action_names
from pokerlab.strategy.strategy import Strategy


@dataclass(frozen=True)
class StrategyRow:
    """One infoset: its key, its player, and each legal action's name and probability.

    Names are play's at this infoset (``check`` facing no bet, ``call`` facing one).
    """

    key: str
    player: int
    actions: tuple[tuple[str, float], ...]


def strategy_rows(
    strategy: Strategy, *, prefix: str = "", player: int | None = None
) -> list[StrategyRow]:
    """The rows of ``strategy`` whose key starts with ``prefix``, sorted by player then key."""
    tree = strategy.tree
    chosen = [
        i for i, key in enumerate(tree.infoset_keys)
        if key.startswith(prefix) and (player is None or int(tree.infoset_player[i]) == player)
    ]
    rows = []
    for i, names in zip(chosen, infoset_action_names(tree, chosen), strict=True):
        probs = strategy.probs[i, : len(names)].tolist()
        rows.append(StrategyRow(tree.infoset_keys[i], int(tree.infoset_player[i]),
                                tuple(zip(names, probs, strict=True))))
    rows.sort(key=lambda r: (r.player, _natural(r.key)))
    return rows


def _natural(key: str) -> tuple[object, ...]:
    parts: list[object] = []
    for piece in key.split("|"):
        parts.append((0, int(piece), "") if piece.isdigit() else (1, 0, piece))
    return tuple(parts)


def strategy_csv(strategy: Strategy, *, prefix: str = "", player: int | None = None) -> str:
    """The strategy as CSV: ``infoset,player,action,probability`` rows (players from 1).

    ``prefix`` and ``player`` (from 0) choose the rows as :func:`strategy_rows` does.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["infoset", "player", "action", "probability"])
    for row in strategy_rows(strategy, prefix=prefix, player=player):
        for name, prob in row.actions:
            writer.writerow([row.key, row.player + 1, name, f"{prob:.10g}"])
    return out.getvalue()


def strategy_json(
    strategy: Strategy, *, prefix: str = "", player: int | None = None
) -> dict[str, object]:
    """The strategy as a JSON-ready dict: game, metadata, each infoset's player and actions.

    ``{"game", "metadata", "infosets": {key: {"player": 1.., "actions": {name: p}}}}``;
    ``prefix`` and ``player`` (from 0) choose the rows as :func:`strategy_rows` does.
    """
    return {
        "game": str(strategy.game.spec),
        "metadata": dict(strategy.metadata),
        "infosets": {
            row.key: {"player": row.player + 1, "actions": dict(row.actions)}
            for row in strategy_rows(strategy, prefix=prefix, player=player)
        },
    }
