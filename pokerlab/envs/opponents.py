"""The other seats of a single-agent environment: agents, from objects or from text.

An opponent is any agent (an object with ``act(observation)``; its ``reset``, ``seed``
and ``observe`` hooks are called as the dealer calls them), a dealer connection (such as
a sandboxed entrant, :class:`~pokerlab.play.sandbox.SandboxedAgent`), or text naming
one, resolved by the one resolver (:mod:`pokerlab.agents.resolve`): a built-in name
(``"random"``, ``"cfr+1000"``, ``"hard"``), a policy file (``.npz``, ``.bp``, ``.pt``), an
entrant file (``.py``, sandboxed) or an ACPC executable (Hold'em, sandboxed).
"""

from __future__ import annotations

from pathlib import Path

from pokerlab.agents.resolve import build_agent
from pokerlab.errors import SpecError
from pokerlab.games import Game
from pokerlab.play.dealer import AgentConnection

Opponent = str | Path | object
"""What a user may give for an opponent: text (a name or a file) or an agent."""


def opponent_agent(
    opponent: Opponent,
    game: Game,
    *,
    seed: int | None = None,
    cache_dir: str | Path | None = None,
) -> object:
    """The agent ``opponent`` stands for, to play ``game``.

    Args:
        opponent: an agent, a dealer connection, or text the resolver reads.
        game: the game it will play.
        seed: the seed of a built-in or file agent's generator.
        cache_dir: where built-ins that train or solve keep their results.

    Raises:
        SpecError: text that names nothing (the message lists what is allowed), an entrant
            that does not load, or an object that is not an agent.
        StrategyMismatchError: a file made for another game.
    """
    if isinstance(opponent, AgentConnection):
        return opponent
    if not isinstance(opponent, str | Path):
        if not callable(getattr(opponent, "act", None)):
            raise SpecError(
                f"an opponent must be an agent (with act(observation)), a built-in name or "
                f"a file; got {type(opponent).__name__}"
            )
        return opponent
    try:
        return build_agent(str(opponent), game, seed=seed, cache_dir=cache_dir)
    except SpecError as error:
        raise SpecError(f"opponent: {error}") from None


__all__ = ["Opponent", "opponent_agent"]
