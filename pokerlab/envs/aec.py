"""A PettingZoo AEC environment for every game the tables play: one hand per episode.

Agents are ``player_0`` .. ``player_{n-1}``, the game's seats (``player_0`` is P1). Each
episode is one hand: ``reset(seed)`` deals it (the generator is
``numpy.random.default_rng(seed)``, kept across hands until the next seeded reset), the
agents act in the game's order, and when the hand ends every agent is terminated with its
reward in chips (the hand's returns; they sum to zero). Observations and action masks are
those of :mod:`pokerlab.envs.spaces`; an agent not to act gets an all-zero mask. An action
outside the mask raises :class:`~pokerlab.errors.IllegalActionError` naming the legal
ones: nothing is clamped and no hand ends on a penalty. ``render_mode="ansi"`` returns the
table as text, ``"human"`` prints it after every step.

Example:
    >>> from pokerlab.envs import env
    >>> game = env("kuhn")
    >>> game.reset(seed=0)
    >>> game.agent_selection, game.observe("player_0")["action_mask"].tolist()
    ('player_0', [1, 1])
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from pokerlab.envs.extra import missing_extra
from pokerlab.envs.spaces import action_space, observation_space
from pokerlab.envs.table import PokerTable
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games import Game
from pokerlab.games.bet_sizes import BetMenu

try:
    import gymnasium
    from pettingzoo import AECEnv
except ImportError:
    raise missing_extra("pokerlab.envs.aec") from None

RENDER_MODES = ("human", "ansi")
"""The render modes: print the table, or return it as text."""

ObservationDict = dict[str, NDArray[Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode other than None, ``"human"`` or ``"ansi"``.

    Raises:
        SpecError: naming the allowed modes.
    """
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise SpecError(f"render_mode must be None, 'human' or 'ansi'; got {render_mode!r}")


class PokerEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one game (see the module docstring).

    Args:
        game: a Kuhn, Leduc or Hold'em game (any variant, 2 to 9 players), or its spec
            string (``"holdem(players=6)"``).
        bet_sizes: no-limit Hold'em only: the bet menu (:mod:`pokerlab.envs.actions`).
        force_all_in_threshold: no-limit Hold'em only: the menu's force-all-in threshold.
        history_length: Hold'em only: action slots per round in the observation.
        render_mode: None, ``"human"`` or ``"ansi"``.

    Attributes:
        table: the hand being played (its ``state`` is the game state).

    Raises:
        SpecError: a game the environments do not play, or a bad option.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "pokerlab_poker_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: Game | str,
        *,
        bet_sizes: str | BetMenu | None = None,
        force_all_in_threshold: float | None = None,
        history_length: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.table = PokerTable(
            game, bet_sizes=bet_sizes, force_all_in_threshold=force_all_in_threshold,
            history_length=history_length,
        )  # fmt: skip
        self.render_mode = render_mode
        n = self.table.n_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seats = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.table) for a in self.possible_agents}
        self.action_spaces = {a: action_space(self.table) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._has_reset = False

    @property
    def game(self) -> Game:
        """The game played."""
        return self.table.game

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; a ``seed`` restarts the generator (None: go on with it)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._has_reset = True
        table = self.table
        table.deal(self._rng)
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {agent: {} for agent in agents}
        if table.is_over:  # everyone all-in from the blinds: a hand without a decision
            self._finish()
        else:
            self.agent_selection = agents[table.player]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> ObservationDict:
        """``agent``'s observation vector and action mask now.

        Raises:
            PokerlabError: before the first ``reset``.
        """
        if not self._has_reset:
            raise PokerlabError("reset() the environment before observe()")
        seat = self._seats[agent]
        table = self.table
        return {"observation": table.observation(seat), "action_mask": table.mask(seat)}

    def step(self, action: Any) -> None:
        """Play ``action`` (an index of the mask) for the selected agent.

        Raises:
            IllegalActionError: ``action`` is masked or not an index (lists the legal ones).
            PokerlabError: before the first ``reset``, or once every agent is done.
        """
        if not self.agents:
            raise PokerlabError(
                "reset() the environment before step()" if not self._has_reset
                else "the hand is over and every agent is done; reset() for the next one"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.step(action)
        if table.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[table.player]
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        returns = self.table.returns()
        self.rewards = {a: float(returns[p]) for a, p in self._seats.items()}
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``), or nothing (no mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render mode; make the environment with "
                "render_mode='ansi' or 'human'"
            )
            return None
        text = self.table.render(tuple(self.possible_agents))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(game: Game | str, **options: Any) -> PokerEnv:
    """The environment of ``game``; options are :class:`PokerEnv`'s.

    PettingZoo's own ``env()`` functions wrap theirs in ``OrderEnforcingWrapper`` (calls
    before ``reset`` fail) and a penalty for illegal moves. :class:`PokerEnv` checks the
    order itself, and illegal actions raise (see the module docstring), so it needs
    neither: the wrapper reaches every attribute through two ``__getattr__`` calls, which
    made each step cost two to three times more (docs/benchmarks.md).
    """
    return PokerEnv(game, **options)


raw_env = env
"""PettingZoo's name for the unwrapped environment: the same, since none is wrapped."""


__all__ = ["RENDER_MODES", "PokerEnv", "check_render_mode", "env", "raw_env"]
