"""StrategyAgent: plays a :class:`~pokerlab.strategy.Strategy` by sampling its rows.

Matches recognise strategy-backed agents (the ``strategy`` attribute) and then sample
whole hands on the compiled tree, and report the exact expected value.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab._types import Action
from pokerlab.errors import StrategyError
from pokerlab.games import Game
from pokerlab.games.observation import Observation
from pokerlab.strategy import Strategy


class StrategyAgent:
    """Samples each action from the strategy's row at the observed infoset.

    Args:
        strategy: the strategy played (its rows for whichever seat the agent sits in).
        rng: the generator or its seed; matches reseed it per hand (``seed`` hook).
        name: a display name (default: from the strategy's metadata).

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.strategy import Strategy
        >>> agent = StrategyAgent(Strategy.uniform(kuhn()), rng=0)
        >>> agent.name
        'strategy(uniform)'
    """

    def __init__(
        self,
        strategy: Strategy,
        *,
        rng: np.random.Generator | int | None = None,
        name: str | None = None,
    ) -> None:
        self.strategy = strategy
        self._rng = np.random.default_rng(rng)
        self.name = name or f"strategy({strategy.metadata.get('algorithm', '?')})"
        tree = strategy.tree
        self._index = tree._key_index
        self._actions = tree.infoset_actions
        self._n_actions = tree.infoset_n_actions
        self._cumulative = np.cumsum(strategy.probs, axis=1)

    @classmethod
    def from_file(cls, path: str | Path, game: Game, **kwargs: object) -> StrategyAgent:
        """Load a strategy file written by :meth:`Strategy.save` and play it.

        Raises:
            StrategyMismatchError: if the file was made for another game.
            FileFormatError: if the file is missing or damaged.
        """
        strategy = Strategy.load(path, game=game)
        name = kwargs.pop("name", None) or Path(path).stem
        rng = kwargs.pop("rng", None)
        if kwargs:
            raise StrategyError(f"unknown StrategyAgent option(s): {sorted(kwargs)}")
        return cls(strategy, rng=rng, name=str(name))  # type: ignore[arg-type]

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self._rng = np.random.default_rng(value)

    def act(self, observation: Observation) -> Action:
        """Sample an action from the row of ``observation.infoset_key``.

        Raises:
            StrategyError: if the strategy has no row for the infoset (another game).
        """
        i = self._index.get(observation.infoset_key)
        if i is None:
            raise StrategyError(
                f"the strategy ({self.strategy.game.spec}) has no infoset "
                f"{observation.infoset_key!r}; was it made for {observation.game}?"
            )
        n = int(self._n_actions[i])
        row = self._cumulative[i, :n]
        slot = int(np.searchsorted(row, self._rng.random() * row[-1], side="right"))
        return int(self._actions[i, min(slot, n - 1)])


__all__ = ["StrategyAgent"]
