"""Reinforcement-learning environments: PettingZoo (all seats) and Gymnasium (one learner).

``env("leduc")`` is a PettingZoo AEC environment of any Kuhn, Leduc or Hold'em game (2 to
9 players, limit or no-limit), one hand per episode, rewards in chips;
``gym_env("leduc", "cfr+1000")`` is a Gymnasium environment in which a learner plays one
seat against agents pokerlab builds from a name or a file. Both observe the vector of
:mod:`.encoding` with the action mask of :mod:`.actions`, draw cards from a seeded
``numpy.random.Generator`` and render text. docs/envs.md has a training loop.

PettingZoo and Gymnasium are the optional extra ``pokerlab[envs]``: the table, the
encoding and the actions import without them; :func:`env`, :func:`raw_env` and
:func:`gym_env` raise :class:`~pokerlab.errors.MissingExtraError` naming the extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerlab.envs.actions import DEFAULT_BET_SIZES, ActionMap, action_map
from pokerlab.envs.encoding import Block, ObservationEncoder, observation_encoder
from pokerlab.envs.extra import EXTRA
from pokerlab.envs.table import PokerTable
from pokerlab.games import Game

if TYPE_CHECKING:
    from pokerlab.envs.aec import PokerEnv
    from pokerlab.envs.single import PokerGymEnv


def env(game: Game | str, **options: Any) -> PokerEnv:
    """The PettingZoo AEC environment of ``game`` (see :mod:`.aec`).

    Raises:
        MissingExtraError: PettingZoo or Gymnasium is not installed.
    """
    from pokerlab.envs.aec import PokerEnv

    return PokerEnv(game, **options)


raw_env = env
"""PettingZoo's name for the unwrapped environment: the same (see :func:`pokerlab.envs.aec.env`)."""


def gym_env(
    game: Game | str, opponents: object = "random", **options: Any
) -> PokerGymEnv:
    """The Gymnasium environment of ``game`` against ``opponents`` (see :mod:`.single`).

    Raises:
        MissingExtraError: Gymnasium is not installed.
    """
    from pokerlab.envs.single import PokerGymEnv

    return PokerGymEnv(game, opponents, **options)


__all__ = [
    "DEFAULT_BET_SIZES",
    "EXTRA",
    "ActionMap",
    "Block",
    "ObservationEncoder",
    "PokerTable",
    "action_map",
    "env",
    "gym_env",
    "observation_encoder",
    "raw_env",
]
