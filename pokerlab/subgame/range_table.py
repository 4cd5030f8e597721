"""A node's range as a poker player reads it: hand classes in order, range frequencies, colours.

:class:`~pokerlab.subgame.result.NodeReport` holds one player's hands (combos) at a node.
This module groups them the way solver users read a range:

- :data:`CLASS_ORDER`: the 169 hand classes, aces first and each high card's pair, then its
  kickers from the highest down, suited before offsuit (``AA, AKs, AKo, AQs, ..., 22``);
- :func:`class_rows`: one row per class present (its combos, their summed weight, the
  weighted mean strategy, EV and equity);
- :func:`combo_order`: the combos sorted by class, the best suits first within a class;
- :func:`action_colours`: one colour per action, every bet and raise size its own shade,
  shared by the PNG grid (``spot show --png``) and the web page so they agree.

Weights are the combos' range weights at the node (range weight times the player's own
probability of having played to the node; the chance of the dealt cards is not in them).
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.cards import RANKS, hand_class, parse_cards
from pokerlab.subgame.result import NodeReport


def _class_order() -> tuple[str, ...]:
    order: list[str] = []
    for high in RANKS[::-1]:
        order.append(high + high)
        for low in RANKS[RANKS.index(high) - 1 :: -1] if high != RANKS[0] else ():
            order += [high + low + "s", high + low + "o"]
    return tuple(order)


CLASS_ORDER: tuple[str, ...] = _class_order()
"""The 169 hand classes in reading order: ``AA, AKs, AKo, AQs, AQo, ..., A2o, KK, ..., 22``."""

_CLASS_RANK = {label: i for i, label in enumerate(CLASS_ORDER)}

PASSIVE_COLOURS = {"fold": "#5b8def", "check": "#7fbf7f", "call": "#7fbf7f"}
"""Colours of the actions that put no new chips in (one per kind, they never share a node)."""
OTHER_COLOUR = "#999999"


def class_of(name: str) -> str:
    """The hand class of a combo named like ``"AhKh"``: ``"AKs"``."""
    first, second = parse_cards(name)
    return hand_class((max(first, second), min(first, second)))


@dataclass(frozen=True)
class ClassRow:
    """One hand class of a player's range at a node.

    Attributes:
        label: the class, ``"AKs"``.
        combos: how many of its combos have weight at the node.
        weight: the summed weights of its combos (a count of combos at full weight).
        strategy: ``[A]`` the weighted mean probability of each action (empty off the
            player's decisions).
        ev: the weighted mean EV of its combos (NaN where none has one).
        equity: the weighted mean equity of its combos (NaN likewise).
    """

    label: str
    combos: int
    weight: float
    strategy: FloatArray
    ev: float
    equity: float


def _mean(values: FloatArray, weights: FloatArray) -> float:
    ok = np.isfinite(values) & (weights > 0)
    total = float(weights[ok].sum())
    return float((weights[ok] * values[ok]).sum() / total) if total > 0 else float("nan")


def class_rows(report: NodeReport) -> list[ClassRow]:
    """One row per hand class with weight at the node, in :data:`CLASS_ORDER`."""
    members: dict[str, list[int]] = {}
    for h, name in enumerate(report.hands):
        if report.weights[h] > 0:
            members.setdefault(class_of(name), []).append(h)
    rows = []
    for label in sorted(members, key=_CLASS_RANK.__getitem__):
        index = np.asarray(members[label])
        weights = report.weights[index]
        total = float(weights.sum())
        strategy = (report.strategy[:, index] @ weights / total if report.strategy.shape[0]
                    else np.zeros(0))
        rows.append(ClassRow(label, len(index), total, strategy,
                             _mean(report.ev[index], weights),
                             _mean(report.equity[index], weights)))
    return rows


def combo_order(report: NodeReport) -> IntArray:
    """The indices of the combos with weight at the node, sorted by class (best suits first).

    Hands are stored lowest first, so within a class the later one comes first.
    """
    present = [h for h in range(len(report.hands)) if report.weights[h] > 0]
    present.sort(key=lambda h: (_CLASS_RANK[class_of(report.hands[h])], -h))
    return np.asarray(present, dtype=np.int64)


def range_frequencies(report: NodeReport) -> FloatArray:
    """``[A]`` how often the player's whole range at the node takes each action.

    Each combo counts by its weight at the node; empty off the player's decisions.
    """
    total = float(report.weights.sum())
    if report.strategy.shape[0] == 0 or total <= 0:
        return np.zeros(report.strategy.shape[0])
    frequencies: FloatArray = report.strategy @ report.weights / total
    return frequencies


def action_colours(actions: Sequence[str]) -> tuple[str, ...]:
    """A colour per action, ``"#rrggbb"``, each action of a node its own.

    Fold is blue, check and call green, and each bet and raise its own shade of red,
    lighter for the sizes listed first (the smaller); all-in is purple.

    Every action of a node gets a distinct colour however many sizes it has.
    """
    aggressive = [k for k, name in enumerate(actions)
                  if name.split(" ")[0] in ("bet", "raise", "all-in")]
    colours = []
    for k, name in enumerate(actions):
        word = name.split(" ")[0]
        if k in aggressive:
            step = aggressive.index(k)
            lightness = 0.72 - 0.42 * (step / (len(aggressive) - 1) if len(aggressive) > 1
                                       else 0.5)
            red, green, blue = colorsys.hls_to_rgb(0.0 if word != "all-in" else 0.83,
                                                   lightness, 0.65)
            colours.append(f"#{round(255 * red):02x}{round(255 * green):02x}"
                           f"{round(255 * blue):02x}")
        else:
            colours.append(PASSIVE_COLOURS.get(word, OTHER_COLOUR))
    return tuple(colours)


__all__ = [
    "CLASS_ORDER",
    "ClassRow",
    "action_colours",
    "class_of",
    "class_rows",
    "combo_order",
    "range_frequencies",
]
