"""What imported hands say about their players: chips per hand, and AIVAT against known policies.

Hands played elsewhere (any PHH file of Texas hold'em, every card known) become pokerlab
records (:mod:`pokerlab.interop.phh_sources`); here each player's results are estimated
from them: the plain mean per hand with its 95% interval, and AIVAT
(:func:`pokerlab.eval.aivat.hand_corrections`: chance terms always, action terms for the
players whose policy is named as known). The hands of one deal (a duplicate match's
rotations, kept as ``_deal`` by pokerlab's exports) are one independent unit, as in
:func:`pokerlab.eval.play_match`.

A policy named as known must be the one the player truly played: AIVAT's action terms
are unbiased only then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from pokerlab.agents.resolve import resolve_policy
from pokerlab.errors import PokerlabError
from pokerlab.eval.aivat import hand_corrections
from pokerlab.eval.sampling import deal_units
from pokerlab.eval.statistics import (
    ControlVariateEstimate,
    Estimate,
    control_variate_estimate,
    mean_estimate,
)
from pokerlab.games.holdem import HoldemGame
from pokerlab.interop.phh_sources import ImportedHands
from pokerlab.strategy import Policy


@dataclass(frozen=True)
class PlayerResult:
    """One player's results over the imported hands.

    Attributes:
        name: the player's name.
        hands: the hands the player played.
        chips: chips won in all.
        per_hand: chips per hand with its 95% interval (units: deals).
        aivat: the AIVAT estimate of chips per hand, when asked for.
        policy_known: whether the player's policy was named (AIVAT's action terms).
    """

    name: str
    hands: int
    chips: float
    per_hand: Estimate
    aivat: ControlVariateEstimate | None = None
    policy_known: bool = False

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data."""
        data: dict[str, object] = {
            "player": self.name, "hands": self.hands, "chips": self.chips,
            "mean": self.per_hand.mean, "low": self.per_hand.low, "high": self.per_hand.high,
            "std_error": self.per_hand.std_error,
        }
        if self.aivat is not None:
            e = self.aivat.estimate
            data["aivat"] = {"mean": e.mean, "low": e.low, "high": e.high,
                             "std_error": e.std_error,
                             "variance_reduction": self.aivat.variance_reduction,
                             "policy_known": self.policy_known}
        return data


def _seat_values(imported: ImportedHands) -> np.ndarray:
    """``[hands, agents]`` chips won by each agent in each hand (0 where it did not sit)."""
    values = np.zeros((len(imported.hands), len(imported.agent_names)))
    for i, hand in enumerate(imported.hands):
        for seat, agent in enumerate(hand.record.seats):
            values[i, agent] = hand.record.returns[seat]
    return values


def player_results(imported: ImportedHands) -> tuple[PlayerResult, ...]:
    """Each player's hands, chips and chips per hand (95% interval over deals)."""
    values = _seat_values(imported)
    return tuple(_result(imported, values, None, k, False)
                 for k in range(len(imported.agent_names)))


def _result(imported: ImportedHands, values: np.ndarray, corrections: np.ndarray | None,
            agent: int, known: bool) -> PlayerResult:
    rows = np.array([agent in h.record.seats for h in imported.hands])
    deals = np.array([h.record.deal for h in imported.hands], dtype=np.int64)[rows]
    mine = deal_units(values[rows, agent], deals)
    aivat = None
    if corrections is not None:
        aivat = control_variate_estimate(mine, deal_units(corrections[rows, agent], deals),
                                         coefficient=1.0)
    return PlayerResult(imported.agent_names[agent], int(rows.sum()),
                        float(values[rows, agent].sum()), mean_estimate(mine), aivat, known)


def aivat_results(
    imported: ImportedHands,
    known: Mapping[str, str],
    *,
    cache_dir: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[PlayerResult, ...]:
    """Each player's plain and AIVAT estimates; ``known`` maps names to the policy they played.

    A policy is anything :func:`pokerlab.agents.resolve.resolve_policy` accepts: a built-in
    that exposes its policy (``easy``, ``always-call``...) or a policy file, resolved for
    each hand's game. ``progress`` is called with the hands done.

    Raises:
        PokerlabError: a name that is no player of the hands, a policy that does not
            resolve, or a game AIVAT cannot value (Hold'em with more than 6 seats).
    """
    names = imported.agent_names
    unknown = sorted(set(known) - set(names))
    if unknown:
        raise PokerlabError(f"--known names {', '.join(unknown)}, who played none of the hands; "
                            f"players: {', '.join(names)}")
    by_game: dict[str, list[int]] = {}
    for i, hand in enumerate(imported.hands):
        by_game.setdefault(str(hand.game.spec), []).append(i)
    corrections = np.zeros((len(imported.hands), len(names)))
    done = 0
    for rows in by_game.values():
        game: HoldemGame = imported.hands[rows[0]].game
        policies: list[Policy | None] = [
            resolve_policy(known[name], game, cache_dir=cache_dir) if name in known else None
            for name in names
        ]
        offset = done

        def step(count: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + count)

        block = hand_corrections(game, [imported.hands[i].record for i in rows], policies,
                                 progress=step)
        corrections[rows] = block
        done += len(rows)
    values = _seat_values(imported)
    return tuple(_result(imported, values, corrections, k, names[k] in known)
                 for k in range(len(names)))


__all__ = ["PlayerResult", "aivat_results", "player_results"]
