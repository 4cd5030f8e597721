"""The Gymnasium spaces of a table: what both environments declare.

An observation is a dict, PettingZoo's convention for card games with action masks:
``"observation"``, the float32 vector of :mod:`pokerlab.envs.encoding` (every entry in
[0, 1]), and ``"action_mask"``, int8, 1 for each legal index of the ``Discrete`` action
space (:mod:`pokerlab.envs.actions`).
"""

from __future__ import annotations

import numpy as np

from pokerlab.envs.extra import missing_extra
from pokerlab.envs.table import PokerTable

try:
    from gymnasium import spaces
except ImportError:
    raise missing_extra("pokerlab.envs") from None


def observation_space(table: PokerTable) -> spaces.Dict:
    """A new observation space of ``table``'s game (one per agent, so each seeds its own)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0, high=1.0, shape=(table.encoder.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(
                low=0, high=1, shape=(table.actions.n_actions,), dtype=np.int8
            ),
        }
    )


def action_space(table: PokerTable) -> spaces.Discrete:
    """A new ``Discrete`` action space of ``table``'s game."""
    return spaces.Discrete(table.actions.n_actions)


__all__ = ["action_space", "observation_space"]
