"""The searching Hard AI: the Hard AI's blueprint, re-solved at its decisions.

``HardSearchAI(game)`` loads the same blueprint as :class:`~pokerlab.agents.hard.HardAI`
(a ``.bp`` file, or the game's default blueprint, trained once and cached) and plays the
:class:`~pokerlab.agents.search_policy.SearchPolicy` over it: from the turn on (the last
street of shorter games) it re-solves to the end of the hand on the exact cards, with
both players' ranges from the blueprint by Bayes, and plays a search only where the
opponent's whole range gains nothing against it over the blueprint (``safety="range"``;
the re-solving gadget, ``safety="gadget"``, guarantees it hand by hand but lost to the
blueprint: docs/hard_search.md). Its ``policy`` answers for every hand at once, so LBR,
AIVAT and exact evaluators measure it as they measure a blueprint.

The built-in names (:mod:`pokerlab.agents.registry`):

- ``hard-search``: :data:`DEFAULT_THINK` seconds per decision;
- ``hard-search@250ms``, ``hard-search@2s``: another time budget per decision (the
  search stops within it; how far it gets depends on the machine). A search with a time
  budget also stops once it is within :data:`DEFAULT_TARGET` percent of the pot of
  equilibrium (most rivers: well before the budget);
- ``hard-search+200``: at most 200 solver iterations per search and no clock, so the
  play is a function of the seed and the cards only (tests, reproducible studies).

``hard`` stays the blueprint without search: the searcher is a separate name until it is
measured to beat its blueprint on the full game within the web table's budget
(docs/hard_search.md records what was measured).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab._types import Action
from pokerlab.agents.hard import HardAI
from pokerlab.agents.search_name import DEFAULT_TARGET, DEFAULT_THINK, NAME, search_budget
from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.errors import SpecError
from pokerlab.games.base import Game
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy.policy import sample_action


def parse_search_name(name: str) -> SearchSettings | None:
    """The settings a ``hard-search`` name asks for, or None for another name.

    Raises:
        SpecError: a ``hard-search`` name with a zero budget.
    """
    budget = search_budget(name)
    if budget is None:
        return None
    think, iterations = budget
    if iterations is not None:
        return SearchSettings(think=None, iterations=iterations)
    return SearchSettings(think=think, target=DEFAULT_TARGET)


class HardSearchAI:
    """Plays a blueprint re-solved at each decision (see the module docstring).

    Args:
        game: the heads-up Hold'em game.
        blueprint: a ``.bp`` file; None: the default blueprint (as ``hard``).
        settings: how to search (default: :data:`DEFAULT_THINK` seconds per decision).
        seed: its randomness; matches reseed it per hand.
        cache_dir: the cache root (default blueprints and their bucket tables).

    Raises:
        SpecError: a game other than heads-up Hold'em, or a blueprint of another game.
        FileFormatError: a missing or damaged blueprint file.
    """

    def __init__(
        self,
        game: Game,
        *,
        blueprint: str | Path | None = None,
        settings: SearchSettings | None = None,
        seed: np.random.Generator | int | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        if game.spec.name != "holdem" or game.n_players != 2:
            raise SpecError(f"the searching hard AI plays heads-up holdem games; got {game.spec}")
        base = HardAI(game, blueprint=blueprint, cache_dir=cache_dir)
        self.game = game
        self.blueprint_path = base.blueprint_path
        self.blueprint = base.policy
        self.settings = settings or SearchSettings(think=DEFAULT_THINK, target=DEFAULT_TARGET)
        self.policy = SearchPolicy(base.policy, self.settings)
        self.name = NAME
        self.rng = np.random.default_rng(seed)
        self._check = base.check_game

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game other than the blueprint's (stacks may differ).

        Raises:
            SpecError: naming both games and what differs.
        """
        self._check(game)

    def act(self, observation: Observation) -> Action:
        """Sample an action from the re-solved probabilities at ``observation``."""
        return sample_action(self.policy.action_probabilities(observation), self.rng)


__all__ = ["DEFAULT_THINK", "NAME", "HardSearchAI", "parse_search_name"]
